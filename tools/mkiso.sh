#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Make a GRUB rescue ISO that boots KERNEL with CMDLINE via multiboot2.
# Usage: tools/mkiso.sh KERNEL OUT.iso [CMDLINE]
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 KERNEL OUT.iso [CMDLINE]" >&2; exit 2; }
kernel=$1 out=$2 cmdline=${3:-}
[ -f "$kernel" ] || { echo "mkiso: no kernel at $kernel" >&2; exit 2; }
case $cmdline in
*[\"\'\;\$\\]*) echo "mkiso: command line has a character GRUB would interpret: $cmdline" >&2; exit 2 ;;
esac
dir=$(mktemp -d)
log=$(mktemp)	# outside $dir: xorriso packs everything in $dir
trap 'rm -rf "$dir" "$log"' EXIT
mkdir -p "$dir/boot/grub"
cp "$kernel" "$dir/boot/kernel.elf"
# boot/grub.cfg is the template: each multiboot2 line keeps its rcu= and
# gets the command line after it.
sed "s|^\([[:space:]]*multiboot2 /boot/kernel.elf\)\( rcu=[a-z]*\)\{0,1\}.*|\1\2 $cmdline|" \
	"$(dirname "$0")/../boot/grub.cfg" > "$dir/boot/grub/grub.cfg"
grub-mkrescue -o "$out.tmp" "$dir" >"$log" 2>&1 || { cat "$log" >&2; exit 1; }
mv "$out.tmp" "$out"
