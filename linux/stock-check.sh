#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# stock-check.sh: does a console line that a hunt configuration printed
# come from Debian's 6.12.118 itself, and does a candidate fix remove it?
#
#   bash linux/stock-check.sh CONFIG PATTERN [PATCH...]
#   make linux-stock-check STOCK_CONFIG=CONFIG STOCK_PATTERN=PATTERN \
#       [STOCK_PATCHES="PATCH..."] [STOCK_BOOTS=N] [STOCK_PARAMS="P..."]
#
# CONFIG is a configuration of linux/hunt/CFLIST that make linux-hunt has
# built (its .config is taken from that build, so the kernels differ only
# by the series).  The script builds the Debian tree at the tag
# dynrcu-base, without the series, with that .config and the PATCHes
# (git am; none: the stock kernel) in a worktree of its own,
# $DYNRCU_LINUX_DIR/wt-stock-CONFIG[-HASH], and boots it
# DYNRCU_STOCK_BOOTS times (default 2) under TCG with 4 CPUs and
# CONFIG.boot's parameters but rcutorture's (DYNRCU_STOCK_PARAMS, when
# set, replaces those: "none" for no parameter at all, to tell which of
# them a line needs).  There is no root file
# system: each boot ends in the kernel's panic for want of an init, with
# panic=-1, reboot=t (microvm has no other way to reset) and -no-reboot,
# so a boot is the kernel's own start and the built-in rcutorture's first
# moments (about 5 s of guest time).  It prints, per boot, whether a
# console line matched PATTERN (an extended regular expression) and the
# first such line with its timestamp.
#
# Exit status: 0 when every boot matched, 1 when none did, 3 when some
# did, 2 on bad arguments or a failed build or boot.  The consoles are
# $DYNRCU_LINUX_DIR/out/stock-CONFIG[-HASH]/boot-N.log.
set -u
here=$(cd "$(dirname "$0")" && pwd)
dir=${DYNRCU_LINUX_DIR:-/var/tmp/dynrcu-linux}
boots=${DYNRCU_STOCK_BOOTS:-2}
src=$dir/linux-source-6.12

die() { echo "stock-check: $*" >&2; exit 2; }

[ $# -ge 2 ] || die "usage: bash linux/stock-check.sh CONFIG PATTERN [PATCH...]"
cfg=$1 pattern=$2
shift 2
grep -qx -- "$cfg" "$here/hunt/CFLIST" 2>/dev/null ||
	die "CONFIG '$cfg' is not in linux/hunt/CFLIST ($(grep -v '^#' "$here/hunt/CFLIST" | tr '\n' ' '))"
grep -q '^# arch: arm64' "$here/hunt/$cfg" "$here/hunt/$cfg.boot" 2>/dev/null &&
	die "CONFIG '$cfg' is an arm64 configuration: only x86_64 is done here"
echo "" | grep -Eq -- "$pattern" 2>/dev/null; [ $? -le 1 ] ||
	die "PATTERN '$pattern' is not an extended regular expression"
[[ $boots =~ ^[1-9][0-9]?$ ]] ||
	die "DYNRCU_STOCK_BOOTS '$boots': want a count from 1 to 99"
patches=()
for p in "$@"; do
	[ -f "$p" ] || die "PATCH '$p': no such file"
	patches+=("$(cd "$(dirname "$p")" && pwd)/$(basename "$p")")
done
git -C "$src" rev-parse -q --verify dynrcu-base >/dev/null ||
	die "no Debian tree at $src with its dynrcu-base tag: run make linux-test first"

# The configuration's series build: the primary (first in CFLIST) builds
# in the tree itself, the others in worktrees beside it.
if [ -f "$dir/wt-$cfg/.config" ]; then
	config=$dir/wt-$cfg/.config
elif [ "$(grep -v '^#' "$here/hunt/CFLIST" | head -1)" = "$cfg" ] &&
	[ -f "$src/.config" ]; then
	config=$src/.config
else
	die "no build of $cfg in $dir (wt-$cfg/.config): run make linux-hunt HUNT_CONFIGS=$cfg first"
fi

tag=stock-$cfg
patches_id=none
if [ ${#patches[@]} -gt 0 ]; then
	patches_id=$(cat "${patches[@]}" | sha1sum | cut -c1-8)
	tag=$tag-$patches_id
fi
wt=$dir/wt-$tag
out=$dir/out/$tag
mkdir -p "$out"

# A worktree at the Debian base, the patches on top, rebuilt from scratch
# whenever the .config or the patches' text changed (its stamp), with the same compiler wrapper and
# ccache as linux-test.sh, so that most objects come from the cache.
# shellcheck source=linux/kbuild-cc.sh
. "$here/kbuild-cc.sh"
cc_wrapper=$(cc_wrapper_install "$dir") || die "install $dir/ccache-cc"
kbuild_env "$dir"
stamp="config $(sha1sum <"$config" | cut -c1-12) patches $patches_id"
if [ "$(cat "$out/built-from" 2>/dev/null)" != "$stamp" ]; then
	rm -f "$out/built-from"
	if [ ! -d "$wt" ]; then
		git -C "$src" worktree add -q --detach "$wt" dynrcu-base ||
			die "git worktree add $wt"
	fi
	(cd "$wt" && git am --abort >/dev/null 2>&1
	 git reset -q --hard dynrcu-base) || die "reset $wt to dynrcu-base"
	if [ ${#patches[@]} -gt 0 ]; then
		(cd "$wt" && git -c user.name=dynrcu -c user.email=dynrcu@localhost \
			am -q "${patches[@]}") >"$out/git-am.log" 2>&1 ||
			die "git am of ${patches[*]} onto dynrcu-base failed: $out/git-am.log"
	fi
	cp "$config" "$wt/.config"
	echo "stock-check: building $wt ($(date -u +%H:%M:%S) UTC; with a warm ccache a few minutes, most of it objtool)"
	t0=$(date +%s)
	(cd "$wt" && make -s ARCH=x86_64 olddefconfig &&
	 nice -n 10 make -j"${DYNRCU_LINUX_JOBS:-2}" ARCH=x86_64 \
		CC="$cc_wrapper gcc" bzImage) >"$out/build.log" 2>&1 ||
		{ tail -20 "$out/build.log" >&2; die "build failed: $out/build.log"; }
	check_payload "$wt" || die "$wt's bzImage does not carry its own vmlinux"
	cp "$wt/arch/x86/boot/bzImage" "$out/bzImage"
	echo "$stamp" >"$out/built-from"
	echo "stock-check: built in $(($(date +%s) - t0)) s"
fi

# The configuration's own parameters, without rcutorture's.
params=$(grep -v '^#' "$here/hunt/$cfg.boot" 2>/dev/null | tr ' ' '\n' |
	grep -v '^rcutorture\.' | grep -v '^$' | tr '\n' ' ')
case ${DYNRCU_STOCK_PARAMS-} in
'') ;;
none) params= ;;
*) params=$DYNRCU_STOCK_PARAMS ;;
esac
matched=0
for n in $(seq 1 "$boots"); do
	log=$out/boot-$n.log
	rm -f "$log"
	timeout -k 10 300 qemu-system-x86_64 -M microvm,acpi=off -accel tcg \
		-smp 4 -m 512 -kernel "$out/bzImage" \
		-append "console=ttyS0 panic=-1 reboot=t loglevel=7 no_timer_check $params" \
		-display none -monitor none -serial "file:$log" -no-reboot \
		</dev/null
	rc=$?
	if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
		echo "stock-check: boot $n timed out after 300 s; its last lines:" >&2
		tail -15 "$log" >&2
		exit 2
	fi
	grep -q "Kernel panic" "$log" ||
		{ tail -15 "$log" >&2; die "boot $n ended without the kernel's panic for want of an init (QEMU exit $rc): $log"; }
	first=$(grep -Em1 -- "$pattern" "$log")
	if [ -n "$first" ]; then
		matched=$((matched + 1))
		echo "stock-check: $tag boot $n: matched: $first"
	else
		echo "stock-check: $tag boot $n: no line matched"
	fi
done
echo "stock-check: $tag ($cfg's .config, patches: ${*:-none}, parameters: ${params:-none}): '$pattern' in $matched of $boots boots"
[ "$matched" -eq "$boots" ] && exit 0
[ "$matched" -eq 0 ] && exit 1
exit 3
