# SPDX-License-Identifier: GPL-2.0
# Sourced by linux-test.sh, bench-build.sh and stock-check.sh: the
# environment and the compiler their Linux builds use, and the check that
# a bzImage carries its own build's kernel.

# kbuild_env DIR: the compiler cache in DIR/ccache unless CCACHE_DIR says
# otherwise, in depend mode, and a fixed build time, user and host, so
# that the same source builds the same kernel whoever builds it, and
# ccache hits across trees.
kbuild_env() {
	export CCACHE_DIR=${CCACHE_DIR:-$1/ccache}
	# Depend mode: on a miss ccache takes the headers from the compiler's
	# own dependency file (Kbuild's -Wp,-MMD) instead of running the
	# preprocessor first, which a cold build, all misses, pays on every
	# file.
	export CCACHE_DEPEND=${CCACHE_DEPEND:-1}
	export KBUILD_BUILD_TIMESTAMP="2026-01-01 00:00:00 UTC"
	export KBUILD_BUILD_USER=dynrcu KBUILD_BUILD_HOST=dynrcu
}

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
