# SPDX-License-Identifier: GPL-2.0
# Sourced by linux-test.sh and bench-build.sh: the compiler their Linux
# builds use, and the check that a bzImage carries its own build's kernel.

# cc_wrapper_install DIR: install linux/ccache-cc as DIR/ccache-cc (a fixed
# path: Kbuild rebuilds whatever its command line changed, and a clean
# clone's path changes every time) and print that path.
cc_wrapper_install() {
	local src here_cc
	here_cc=$(dirname "${BASH_SOURCE[0]}")/ccache-cc
	src=$1/ccache-cc
	cmp -s "$here_cc" "$src" || install -m 755 "$here_cc" "$src" || return 1
	echo "$src"
}

# check_payload TREE: an x86 bzImage carries the vmlinux this build linked
# (the payload piggy.o pulled in is the vmlinux.bin.gz made from it: see
# linux/ccache-cc for how it could not be).
check_payload() {
	local c=$1/arch/x86/boot/compressed
	objcopy -O binary -j .rodata..compressed "$c/piggy.o" "$c/piggy.payload" &&
		cmp -s "$c/piggy.payload" "$c/vmlinux.bin.gz"
}
