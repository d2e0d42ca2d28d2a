#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Make the kernel's symbol table (for backtraces) from a linked ELF:
# text symbols sorted by address, as a nasm source.
# Usage: tools/ksyms.sh kernel.elf > ksyms.asm
set -euo pipefail
nm -n "$1" | awk '
$2 ~ /^[tTwW]$/ { addr[n] = $1; name[n] = $3; n++ }
END {
	print "section .ksyms progbits alloc noexec nowrite align=8"
	print "global ksym_addr, ksym_name_off, ksym_names, ksym_count"
	print "ksym_count: dq " n
	print "ksym_addr:"
	for (i = 0; i < n; i++) print "\tdq 0x" addr[i]
	print "ksym_name_off:"
	off = 0
	for (i = 0; i < n; i++) { print "\tdd " off; off += length(name[i]) + 1 }
	print "ksym_names:"
	for (i = 0; i < n; i++) print "\tdb \"" name[i] "\", 0"
}'
