#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Make the kernel's symbol table (for backtraces) from a linked ELF:
# text symbols sorted by address, as a nasm source.
# Usage: tools/ksyms.sh kernel.elf > ksyms.asm
#
# The symbols defined in executable sections, from readelf, sorted by
# address and then name: what "nm -n" lists as t, T or W.  readelf reads
# the table in a fifth of nm's CPU time, and every mutant's link pays it.
set -euo pipefail
export LC_ALL=C
# The indices of the executable sections ("[ 3] .text PROGBITS ... AX").
exec_secs=$(readelf -SW "$1" | sed -n 's/^ *\[ *\([0-9]*\)\]/\1/p' |
	awk '$8 ~ /X/ { printf "%s ", $1 }')
readelf -sW "$1" | awk -v secs="$exec_secs" '
BEGIN { n = split(secs, s, " "); for (i = 1; i <= n; i++) x[s[i]] = 1 }
$1 ~ /:$/ && ($7 in x) && $4 != "SECTION" && $4 != "FILE" && NF >= 8 {
	print $2, $8
}' | sort -k1,1 -k2,2 | awk '
{ addr[n] = $1; name[n] = $2; n++ }
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
