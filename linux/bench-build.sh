#!/usr/bin/env bash
# Build Linux 6.12 for make bench-linux: tinyconfig + linux/config-fragment
# + linux/bench-fragment, with refscale and rcuscale as modules, in a git
# worktree of the series' tree (${DYNRCU_LINUX_DIR}/wt-bench, so that
# make test's in-tree build is not disturbed), with ccache.  The kernel,
# the modules and a busybox initramfs (linux/bench-init as /init) go in
# ${DYNRCU_LINUX_DIR}/out/bench.  The tree itself (extraction, git am of
# the series) is linux-test.sh's: run its build phase first if it is
# missing.  Nothing is ever loaded into the host's kernel.
#
# Usage: bench-build.sh        (DYNRCU_LINUX_JOBS: make -j, default 2)
set -uo pipefail

[ $# -eq 0 ] || { echo "bench-build: no arguments expected, got '$*'" >&2; exit 2; }
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
dir=${DYNRCU_LINUX_DIR:-/var/tmp/dynrcu-linux}
src=$dir/linux-source-6.12
wt=$dir/wt-bench
out=$dir/out/bench
jobs=${DYNRCU_LINUX_JOBS:-2}
# shellcheck source=linux/kbuild-cc.sh
. "$here/kbuild-cc.sh"
kbuild_env "$dir"
log() { echo "bench-build: $*"; }
die() { echo "bench-build: $*" >&2; exit 1; }

# A fresh machine: linux-test.sh's build phase installs the packages and
# lays the patched tree (and builds the series' kernel beside it, which
# make test needs anyway).
if [ ! -f "$src/.dynrcu-series" ]; then
	log "no patched tree at $src yet: linux-test.sh build lays it"
	bash "$here/linux-test.sh" build ||
		die "linux-test.sh build failed: no tree to build from"
fi
for p in busybox-static ccache qemu-system-x86 gcc make flex bison bc cpio; do
	dpkg -s "$p" >/dev/null 2>&1 || die "package $p missing (make linux-test installs it)"
done
[ -f "$src/.dynrcu-series" ] ||
	die "no patched tree at $src after linux-test.sh build"
mkdir -p "$out"
head=$(git -C "$src" rev-parse HEAD) || die "$src is not a git tree"
if [ ! -e "$wt/.git" ]; then
	git -C "$src" worktree prune
	git -C "$src" worktree add -q -f --detach "$wt" "$head" ||
		die "git worktree add $wt"
fi
# The series' commit, plus linux/bench-patches (refscale's baselines,
# rcuscale's allocating posts and interrupt counts),
# applied afresh unless the tree already has exactly them.
patch_id="$head $(cat "$here"/bench-patches/*.patch | sha1sum | cut -d' ' -f1)"
if [ "$(cat "$wt/.dynrcu-bench-patches" 2>/dev/null)" != "$patch_id" ] ||
	[ "$(git -C "$wt" rev-parse HEAD)" != "$head" ]; then
	(cd "$wt" && git checkout -q -f --detach "$head") || die "checkout $head in $wt"
	for p in "$here"/bench-patches/*.patch; do
		git -C "$wt" apply "$p" || die "git apply $p in $wt"
	done
	echo "$patch_id" >"$wt/.dynrcu-bench-patches"
fi

cfg_id="$head $(cat "$here/config-fragment" "$here/bench-fragment" | sha1sum | cut -d' ' -f1)"
if [ ! -f "$wt/.config" ] || [ "$(cat "$wt/.dynrcu-config" 2>/dev/null)" != "$cfg_id" ]; then
	log "configuring $wt"
	(
		cd "$wt" && make ARCH=x86_64 tinyconfig &&
		scripts/kconfig/merge_config.sh -m .config \
			"$here/config-fragment" "$here/bench-fragment" &&
		make ARCH=x86_64 olddefconfig
	) >"$out/config.log" 2>&1 || { tail -20 "$out/config.log"; die "configure"; }
	echo "$cfg_id" >"$wt/.dynrcu-config"
fi
# Every line of the bench fragment and every #CHECK# line, as written
# (CONFIG_HZ=1000 as much as CONFIG_PREEMPT=y), and no =n one set.
ok=1
while read -r line; do
	line=${line#\#CHECK\#}
	case $line in
	CONFIG_*=n) ! grep -qE "^${line%=n}=[ym]" "$wt/.config" || { log "set in .config: $line"; ok=0; } ;;
	CONFIG_*=*) grep -qx "$line" "$wt/.config" || { log "missing in .config: $line"; ok=0; } ;;
	esac
done <"$here/bench-fragment"
[ $ok = 1 ] || die "the bench fragment is not honoured in $wt/.config"

t0=$(date +%s)
log "building in $wt (cold: about 1030 files, 26 min at nice 19 on 2 shared cores; warm: under a minute)"
cc_wrapper=$(cc_wrapper_install "$dir") || die "cannot install $dir/ccache-cc"
(cd "$wt" && make -j"$jobs" ARCH=x86_64 CC="$cc_wrapper gcc" bzImage modules) \
	>"$out/build.log" 2>&1 || { grep -E 'error|Error' "$out/build.log" | head; tail -20 "$out/build.log"; die "build failed ($out/build.log)"; }
check_payload "$wt" ||
	die "the bzImage does not carry this build's vmlinux.bin.gz (a stale piggy.o: see linux/ccache-cc)"
# refscale, rcuscale and the modules they depend on (torture.ko when the
# benchmarks select it as a module), found in this build's modules.order,
# and nothing left from an earlier configuration.
rm -f "$out"/*.ko
ko_path() {
	local p
	p=$(grep -E "(^|/)$1\.o\$" "$wt/modules.order" | head -1)
	[ -n "$p" ] && [ -f "$wt/${p%.o}.ko" ] || die "$1.ko not built: see $wt/.config"
	echo "$wt/${p%.o}.ko"
}
for m in refscale rcuscale; do
	ko=$(ko_path $m)
	cp "$ko" "$out/" || die "copy $ko"
	# The module's "depends=" string (its .modinfo section, as modinfo
	# prints it), read without needing kmod.
	for d in $(tr '\0' '\n' <"$ko" | sed -n 's/^depends=//p' | tr ',' ' '); do
		cp "$(ko_path "$d")" "$out/" || die "copy $d.ko"
	done
done
cp "$wt/arch/x86/boot/bzImage" "$wt/.config" "$out/" || die "copy the kernel"
log "build: $(($(date +%s) - t0)) s"

root=$out/initramfs
rm -rf "$root"
mkdir -p "$root"/{bin,proc,sys,dev,lib/modules}
cp /bin/busybox "$root/bin/busybox"
cp "$out"/*.ko "$root/lib/modules/"
cp "$here/bench-init" "$root/init"
chmod +x "$root/init"
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$out/initramfs.cpio.gz" ||
	die "initramfs"
log "ready: $out/bzImage $out/initramfs.cpio.gz"
