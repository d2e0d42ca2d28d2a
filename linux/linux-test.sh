#!/usr/bin/env bash
# Build Debian's linux-source-6.12 with the eqs_readers patch series, boot it in
# QEMU with 4 CPUs, and judge the console the way rcutorture's parse-console.sh
# does.  Also builds and boots the validation mutants (each expected to be
# caught for its own reason: its Judge-Error: line),
# checks every patch with checkpatch.pl --strict, and checks that the series
# applies with "git am".  Ends with "N passed, N failed"; exits non-zero on any
# failure.
#
# The kernel tree lives OUTSIDE the repository, in ${DYNRCU_LINUX_DIR}
# (default /var/tmp/dynrcu-linux), and is reused between runs.  Nothing is
# ever loaded into the host's kernel: the modules run only inside QEMU.
#
# Environment knobs:
#   DYNRCU_LINUX_DIR       build directory (default /var/tmp/dynrcu-linux)
#   DYNRCU_LINUX_DURATION  test seconds of the series' boot (default 30)
#   DYNRCU_LINUX_MUTANT_DURATION  test seconds of the mutant's boot (default 10)
#   DYNRCU_LINUX_TIMEOUT   QEMU timeout seconds per boot (default: twice
#                          that boot's test seconds + 150)
#   DYNRCU_LINUX_ACCEL     QEMU accelerator (default tcg: stock kernels hang
#                          under this machine's paravirtual KVM; see
#                          docs/linux.md)
#   DYNRCU_LINUX_JOBS      make -j (default 2)
#   DYNRCU_LINUX_PARAMS    extra rcutorture.* boot parameters
#   DYNRCU_LINUX_SKIP_MUTANT=1  skip the mutant builds and boots
#   DYNRCU_LINUX_MUTANTS   which of linux/mutants/*.patch to run, by name,
#                          or "all" (default: the parity mutant and
#                          rrupt-from-idle-off-by-one; make linux-test-all:
#                          all)
#   DYNRCU_LINUX_SCENARIOS which of the series' kvm.sh scenarios
#                          (linux/scenarios)
#                          to boot, or "all" (default EQS01; make
#                          linux-test-all: all).  Scenarios whose Kconfig
#                          fragments are the same share one build.
#   DYNRCU_LINUX_CFGDIR    where the scenarios are (default linux/scenarios;
#                          make linux-hunt: linux/hunt).  A scenario S
#                          with a file S.backports is built with the
#                          patches it lists (paths from the repository's
#                          top, one per line) applied after the series:
#                          fixes from upstream or stable that 6.12.118
#                          lacks, so that a known bug's splat does not
#                          end every boot of S.  Not for the first
#                          scenario of CFLIST, whose tree builds the
#                          mutants.
#   DYNRCU_LINUX_MUTANT_BOOTS  boots per mutant (default 1; make
#                          linux-test-all: 5, for the time to detection)
#   DYNRCU_LINUX_I386=1    also compile-test the series' C files for i386,
#                          patch by patch (make linux-test-all)
#   DYNRCU_LINUX_EACH_PATCH=1  build the kernel at each commit of the
#                          series, in a worktree (make linux-test-all)
#   DYNRCU_LINUX_ARCH      x86_64 (default) or arm64: arm64 cross-builds
#                          with Debian's gcc-aarch64-linux-gnu in a tree of
#                          its own ($DYNRCU_LINUX_DIR/arm64, with its own
#                          out/), and boots qemu-system-aarch64 -M
#                          virt,gic-version=3 with pseudo-NMIs on (make
#                          linux-test-all runs both).  A mutant whose
#                          header has "Arch: A" runs only on A.
#
# Usage: linux-test.sh [all|build|boot|plan|table]
#   build  packages, tree, git am, checkpatch, config, both builds: measures
#          no time, so make test runs it beside the kernel's timing tests
#   boot   boot and judge what build left in $DYNRCU_LINUX_DIR/out
#   all    both (the default)
#   plan   which kernel each scenario boots: its build group, tree and
#          backports; builds and boots nothing (linux/test_hunt.py)
#   table  the stock-beside-series table again, from the judge files the
#          last DYNRCU_LINUX_STOCK=1 boots left (after linux/rates.py
#          changed); boots nothing
# A step that takes longer than 30 s says so every 30 s, with how long it
# usually takes.  Nothing here lowers its own priority: run it under nice
# to yield to other work (make test runs the build phase at nice 5).
set -uo pipefail
# Under pipefail, "echo ... | grep -q" fails now and then: grep -q can
# exit on its match before echo has written the line's newline, and echo
# dies of SIGPIPE (about 1 in 160 for the first of four lines, on this
# host).  So grep -q reads a here-string here, never a pipe.

phase=${1:-all}
case $phase in
all | build | boot | plan | table) ;;
*)
	echo "linux-test: unknown phase '$phase': expected all, build, boot, plan or table" >&2
	exit 2
	;;
esac

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
dir=${DYNRCU_LINUX_DIR:-/var/tmp/dynrcu-linux}
arch=${DYNRCU_LINUX_ARCH:-x86_64}
case $arch in
x86_64) ;;
arm64)
	# A tree of its own: the x86_64 tree holds its objects in-tree, and
	# an O= build needs a clean source tree.
	dir=$dir/arm64
	;;
*)
	echo "linux-test: DYNRCU_LINUX_ARCH='$arch': expected x86_64 or arm64" >&2
	exit 2
	;;
esac
tarball=/usr/src/linux-source-6.12.tar.xz
src=$dir/linux-source-6.12
out=$dir/out
duration=${DYNRCU_LINUX_DURATION:-30}
# The mutant is caught within a second of the test's start: 10 s is ample.
mutant_duration=${DYNRCU_LINUX_MUTANT_DURATION:-10}
accel=${DYNRCU_LINUX_ACCEL:-tcg}
jobs=${DYNRCU_LINUX_JOBS:-2}
extra_params=${DYNRCU_LINUX_PARAMS:-}
patches=("$here"/patches/*.patch)
mutant_boots=${DYNRCU_LINUX_MUTANT_BOOTS:-1}
mutants=()
# The two make test boots: both caught in their first second, on the path
# from an extended quiescent state into a handler, where stock rcutorture
# sees nothing.  The grace-period-side mutants need long holds and take
# seconds: they are make linux-test-all's, five boots each.
quick_mutants="ct-nmi-enter-from-idle-not-watching ct-nmi-exit-no-step-in-nmi"
mutant_req=${DYNRCU_LINUX_MUTANTS:-$quick_mutants}
[ "$mutant_req" = all ] &&
	mutant_req=$(cd "$here/mutants" && ls ./*.patch | sed 's|^./||; s|\.patch$||')
scen_req=${DYNRCU_LINUX_SCENARIOS:-EQS01}
# mutant_arch M: the architectures mutant M makes sense on, from its
# "Arch:" header ("x86_64", "arm64", or both; no header: all).
mutant_arch() { sed -n '/^---$/q; s/^Arch: //p' "$here/mutants/$1.patch"; }
for f in "$here"/mutants/*.patch; do
	for a in $(mutant_arch "$(basename "$f" .patch)"); do
		case $a in
		x86_64 | arm64) ;;
		*)
			echo "linux-test: $f: unknown Arch: '$a' (expected x86_64 and/or arm64)" >&2
			exit 2
			;;
		esac
	done
done
skipped_mutants=()
if [ "${DYNRCU_LINUX_SKIP_MUTANT:-0}" != 1 ]; then
	for m in $mutant_req; do
		if [ ! -f "$here/mutants/$m.patch" ]; then
			echo "linux-test: DYNRCU_LINUX_MUTANTS: no mutant '$m' in $here/mutants" >&2
			exit 2
		fi
		ma=$(mutant_arch "$m")
		if [ -n "$ma" ] && [[ " $ma " != *" $arch "* ]]; then
			skipped_mutants+=("$m")
			continue
		fi
		mutants+=("$m")
	done
fi
# What differs between the architectures: Kconfig fragment, make
# arguments, kernel image, compiler, QEMU.
if [ "$arch" = arm64 ]; then
	fragment=$here/config-fragment-arm64
	kmake_args=(ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-)
	kcc=aarch64-linux-gnu-gcc
	image_target=Image
	image_path=arch/arm64/boot/Image
else
	fragment=$here/config-fragment
	kmake_args=(ARCH=x86_64)
	kcc=gcc
	image_target=bzImage
	image_path=arch/x86/boot/bzImage
fi
image=$(basename "$image_path")

# shellcheck source=linux/kbuild-cc.sh
. "$here/kbuild-cc.sh"
kbuild_env "$dir"
# checkpatch wants Debian's python3 (python3-ply) first on PATH.
export PATH=/usr/bin:/bin:/usr/sbin:/sbin:$PATH

npass=0
nfail=0
pass() { echo "PASS: $*"; npass=$((npass + 1)); }
fail() { echo "FAIL: $*"; nfail=$((nfail + 1)); }
log() { echo "linux-test: $*"; }
[ "$arch" = arm64 ] && log "arm64: tree and output in $dir"
for m in "${skipped_mutants[@]}"; do
	log "mutant $m skipped: its Arch: is $(mutant_arch "$m"), not $arch"
done

# with_progress LABEL HINT CMD...: run CMD, and while it runs say every 30 s
# how long it has taken (HINT: how long it usually takes; PROGRESS, if set,
# is a command whose output is appended).
with_progress() {
	local label=$1 hint=$2 t0 pid rc
	shift 2
	t0=$(date +%s)
	"$@" &
	pid=$!
	while ! wait_timeout "$pid" 30; do
		log "$label: $(($(date +%s) - t0)) s so far${PROGRESS:+, $(eval "$PROGRESS")} ($hint)"
	done
	wait "$pid"
	rc=$?
	return $rc
}

# wait_timeout PID S: true once PID has exited, false after S seconds.
wait_timeout() {
	local i
	for ((i = 0; i < $2 * 2; i++)); do
		kill -0 "$1" 2>/dev/null || return 0
		sleep 0.5
	done
	! kill -0 "$1" 2>/dev/null
}
finish() {
	[ -n "${checkpatch_pid:-}" ] && checkpatch_verdict
	echo "linux-test: summary"
	echo "$npass passed, $nfail failed"
	[ "$nfail" -eq 0 ]
	exit $?
}

# --- 1. Packages -------------------------------------------------------------
# The plan phase reads only this repository: it installs nothing.
if [ "$phase" != plan ]; then
	need_pkgs=(linux-source-6.12 ccache gcc make
		flex bison libelf-dev libssl-dev cpio dwarves gawk bc python3-ply xz-utils
		git perl python3-git)
	if [ "$arch" = arm64 ]; then
		# The cross compiler (its libc6-dev-arm64-cross links the static
		# /init) and QEMU's arm system emulators.
		need_pkgs+=(gcc-aarch64-linux-gnu qemu-system-arm)
	else
		need_pkgs+=(busybox-static qemu-system-x86)
	fi
	missing=()
	for p in "${need_pkgs[@]}"; do
		dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
	done
	if [ ${#missing[@]} -gt 0 ]; then
		log "installing ${missing[*]}"
		apt_install() {
			# -o DPkg::Lock::Timeout: wait for another suite's install.
			local lock=(-o DPkg::Lock::Timeout=600)
			{ DEBIAN_FRONTEND=noninteractive apt-get "${lock[@]}" install -y -q "${missing[@]}" ||
				{ apt-get "${lock[@]}" update -q && DEBIAN_FRONTEND=noninteractive apt-get "${lock[@]}" install -y -q "${missing[@]}"; }; } \
				>"$dir.apt.log" 2>&1
		}
		if ! with_progress "install packages" "about 1 to 3 min" apt_install; then
			tail -20 "$dir.apt.log"
			fail "install packages: ${missing[*]}"
			finish
		fi
	fi
	if [ "$arch" = arm64 ] && ! command -v aarch64-linux-gnu-gcc >/dev/null; then
		fail "no aarch64-linux-gnu-gcc on PATH: the arm64 build needs Debian's gcc-aarch64-linux-gnu (apt-get install gcc-aarch64-linux-gnu)"
		finish
	fi
	if [ "$arch" = arm64 ] && ! command -v qemu-system-aarch64 >/dev/null; then
		fail "no qemu-system-aarch64 on PATH: the arm64 boots need Debian's qemu-system-arm (apt-get install qemu-system-arm)"
		finish
	fi
	pass "packages present"
fi

# What the build phase builds from, and the boot phase checks it booted.
series_id=$(cat "${patches[@]}" | sha1sum | cut -d' ' -f1)
# The series may change Kconfig: a new series regenerates .config too.
cfg_id=$(cat "$fragment" "${patches[@]}" | sha1sum | cut -d' ' -f1)
# A mutant's own kind of error, which the judge requires (Judge-Error:;
# on arm64 Judge-Error-arm64: when the mutant has one: arm64's entry code
# runs other checks first, see docs/linux.md).
mutant_error() {
	local e
	[ "$arch" = arm64 ] && e=$(sed -n 's/^Judge-Error-arm64: //p' "$here/mutants/$1.patch")
	[ -n "${e:-}" ] && echo "$e" || sed -n 's/^Judge-Error: //p' "$here/mutants/$1.patch"
}
# Its boot parameters (Boot-Params:, optional): the readers that reach it;
# on arm64 followed by its Boot-Params-arm64:, if any (arm64's default
# idle loop takes no interrupt inside the EQS: see docs/linux.md).
mutant_params() {
	{
		sed -n 's/^Boot-Params: //p' "$here/mutants/$1.patch"
		[ "$arch" = arm64 ] && sed -n 's/^Boot-Params-arm64: //p' "$here/mutants/$1.patch"
	} | tr '\n' ' ' | sed 's/ *$//'
}
# The historical fix a hist-* mutant re-creates (Original-Fix:), or "-".
mutant_fix() { sed -n 's/^Original-Fix: //p' "$here/mutants/$1.patch" | grep . || echo -; }

# resolve_scenarios: the scenarios asked for (DYNRCU_LINUX_SCENARIOS), from
# linux/scenarios/CFLIST; group[S] is the first scenario in CFLIST
# with S's Kconfig fragment and backports (those share a build), groups
# the builds needed.  The first group, EQS01's, builds in $src, and so do
# the mutants; the others build in git worktrees beside it.
# DYNRCU_LINUX_CFGDIR: another directory of scenarios in the same format
# (make linux-hunt's, linux/hunt).
cfgdir=${DYNRCU_LINUX_CFGDIR:-$here/scenarios}
[ -f "$cfgdir/CFLIST" ] || { echo "linux-test: DYNRCU_LINUX_CFGDIR: no CFLIST in '$cfgdir'" >&2; exit 2; }
declare -A group=()
resolve_scenarios() {
	local s t all
	if [ ! -f "$cfgdir/CFLIST" ]; then
		fail "no $cfgdir/CFLIST: the harness's scenarios are missing"
		finish
	fi
	all=$(grep -v '^#' "$cfgdir/CFLIST")
	if [ "$scen_req" = all ]; then
		read -ra scenarios <<<"$(echo $all)"
	else
		read -ra scenarios <<<"$scen_req"
	fi
	primary=$(echo "$all" | head -1)
	for s in "${scenarios[@]}" "$primary"; do
		if ! grep -qx -- "$s" <<<"$all" || [ ! -f "$cfgdir/$s" ]; then
			fail "DYNRCU_LINUX_SCENARIOS: no scenario '$s' in $cfgdir/CFLIST ($(echo $all))"
			finish
		fi
		for t in $all; do
			if cmp -s "$cfgdir/$s" "$cfgdir/$t" &&
			   [ "$(backports_of "$s")" = "$(backports_of "$t")" ]; then
				group[$s]=$t
				break
			fi
		done
	done
	read -ra groups <<<"$(for s in "$primary" "${scenarios[@]}"; do echo "${group[$s]}"; done | awk '!seen[$0]++' | tr '\n' ' ')"
}
# backports_list S: S's list of backports, or /dev/null without one.
backports_list() {
	if [ -f "$cfgdir/$1.backports" ]; then echo "$cfgdir/$1.backports"; else echo /dev/null; fi
}
# backports_of G: the patches group G is built with, one path a line
# (none: no line, and success all the same).
backports_of() { grep -v '^[[:space:]]*\(#\|$\)' "$(backports_list "$1")" | sed "s|^|$here/../|" || true; }
# check_backports: every list names patches that exist, and the first
# group (built in $src, with the mutants) has none.
check_backports() {
	local g p
	for g in "${groups[@]}"; do
		[ -f "$cfgdir/$g.backports" ] || continue
		if [ "$g" = "$primary" ]; then
			fail "$cfgdir/$g.backports: $g is CFLIST's first scenario, whose tree builds the mutants: backports only for the others"
			finish
		fi
		while read -r p; do
			if [ ! -f "$p" ]; then
				fail "$cfgdir/$g.backports: no patch '${p#"$here/../"}' (paths are from the repository's top)"
				finish
			fi
		done < <(backports_of "$g")
	done
}
# tree_of G: where group G builds.
tree_of() { if [ "$1" = "$primary" ]; then echo "$src"; else echo "$dir/wt-$1"; fi; }
# What the build phase built from: the series and its config (in
# $out/built-from).  Each kernel carries a stamp of its own as well, a
# group's ($out/G/built-from, group_stamp) and a mutant's
# ($out/mutant-M/built-from, mutant_stamp), so that the boot phase finds
# the kernel it needs even after another build phase with other
# scenarios or mutants ran on the same tree: make linux-hunt builds and
# boots one configuration at a time, and may run beside a measurement.
built_from="series $series_id config $cfg_id"
group_stamp() {
	local b=
	[ -n "$(backports_of "$1")" ] &&
		b=$(backports_of "$1" | xargs cat | sha1sum | cut -d' ' -f1)
	echo "series $series_id config $cfg_id fragment $(sha1sum <"$cfgdir/$1" | cut -d' ' -f1)${b:+ backports $b}"
}
mutant_stamp() { echo "$(group_stamp "$primary") mutant $(sha1sum <"$here/mutants/$1.patch" | cut -d' ' -f1)"; }

if [ "$phase" = plan ]; then
	resolve_scenarios
	check_backports
	for s in "${scenarios[@]}"; do
		b=$(backports_of "${group[$s]}" | xargs -r -n1 basename | paste -sd' ')
		echo "plan: $s: kernel ${group[$s]}, built in $(tree_of "${group[$s]}"), backports: ${b:-none}"
	done
	finish
fi

if [ "$phase" != boot ] && [ "$phase" != table ]; then # steps 2 to 6: the build phase

# --- 2. Extract the tarball (cached) and git-initialise it ------------------
mkdir -p "$dir" "$out"
# "init 2": the import commit is reproducible (fixed dates), so the
# cover letter's base-commit names the same tree on every machine.
tar_id="$(stat -c '%s %Y' "$tarball") init 2"
if [ "$(cat "$src/.dynrcu-tarball" 2>/dev/null)" != "$tar_id" ]; then
	log "extracting $tarball to $src"
	rm -rf "$src" "$dir/extract.tmp"
	mkdir -p "$dir/extract.tmp"
	if ! with_progress "extract" "about 1 min" \
		tar -xf "$tarball" -C "$dir/extract.tmp"; then
		fail "extract $tarball"
		finish
	fi
	mv "$dir/extract.tmp/linux-source-6.12" "$src"
	rmdir "$dir/extract.tmp"
	git_init_tree() (
		cd "$src" &&
		# Debian's .gitignore ends with a "/*" block that ignores everything.
		sed -i '/^# Debian packaging/,$d' .gitignore &&
		git init -q &&
		git config user.name dynrcu && git config user.email dynrcu@localhost &&
		# No automatic gc: after the import's commit it repacks 80,000
		# objects in the background, taking CPU from the build that
		# follows (a cold make test waits for that build).
		git config gc.auto 0 &&
		git add -A &&
		GIT_AUTHOR_DATE="2026-01-01T00:00:00Z" \
			GIT_COMMITTER_DATE="2026-01-01T00:00:00Z" \
			git commit -q -m "Debian linux-source-6.12 $(sed -n 's/^SUBLEVEL = //p' Makefile)" &&
		git tag -f dynrcu-base >/dev/null
	)
	with_progress "git-initialise the tree" "about 1 min" git_init_tree ||
		{ fail "git-initialise $src"; finish; }
	echo "$tar_id" >"$src/.dynrcu-tarball"
fi
pass "source tree at $src"

# --- 3. Apply the series with git am, pinned --------------------------------
# The tree is reset and the series re-applied whenever the series changed,
# the tree is dirty, or HEAD is not the commit the last "git am" made (a
# commit made in the cached tree is never built silently).  Then the
# commits on top of dynrcu-base must be the series, patch for patch.
cd "$src" || exit 1
git config gc.auto 0 # also in a tree imported before git_init_tree said so
if [ "$(cat .dynrcu-series 2>/dev/null)" != "$series_id $(git rev-parse HEAD)" ] ||
	[ -n "$(git status --porcelain --untracked-files=no)" ]; then
	git am --abort >/dev/null 2>&1
	git reset -q --hard dynrcu-base
	# --empty=drop: the cover letter (0000) carries no diff.
	if git am -q --empty=drop "${patches[@]}" >"$out/git-am.log" 2>&1; then
		echo "$series_id $(git rev-parse HEAD)" >.dynrcu-series
	else
		cat "$out/git-am.log"
		git am --abort >/dev/null 2>&1
		rm -f .dynrcu-series
		fail "git am of ${#patches[@]} patches onto dynrcu-base"
		finish
	fi
fi
want_ids=$(cat "${patches[@]}" | git patch-id --stable | cut -d' ' -f1)
have_ids=$(git format-patch -q --stdout dynrcu-base..HEAD | git patch-id --stable | cut -d' ' -f1)
if [ "$want_ids" != "$have_ids" ]; then
	fail "the tree at $src is not dynrcu-base plus the series (patch-ids differ): remove $src/.dynrcu-series to re-apply"
	finish
fi
cover=$here/patches/0000-cover-letter.patch
if [ -f "$cover" ]; then
	base=$(sed -n 's/^base-commit: //p' "$cover")
	if [ "$base" = "$(git rev-parse dynrcu-base)" ]; then
		pass "cover letter: base-commit $base is the import of the tarball"
	else
		fail "cover letter: base-commit '${base:-none}' is not dynrcu-base ($(git rev-parse dynrcu-base))"
	fi
fi
pass "git am: ${#patches[@]} patches applied onto a git-initialised extracted tree ($(git rev-list --count dynrcu-base..HEAD) commits, patch-ids match the series)"
# A harness scenario named after one of the series' own rcutorture
# scenarios must be that scenario: the same Kconfig fragment, and every
# line of its .boot (the harness may add parameters for the judge).
for f in "$here"/scenarios/*.boot; do
	s=$(basename "$f" .boot)
	k=tools/testing/selftests/rcutorture/configs/rcu/$s
	[ -f "$k" ] || continue
	if cmp -s "$k" "$here/scenarios/$s" && [ -f "$k.boot" ] &&
	   [ -z "$(grep -vxFf "$f" "$k.boot")" ]; then
		pass "scenario $s is the series' $k, with the harness's additions to its .boot"
	else
		fail "scenario $s differs from the series' $k (fragment, or a line of $k.boot missing)"
	fi
done

# --- 4. checkpatch.pl --strict on every patch -------------------------------
# It takes about a minute, and only reads the patches: it runs beside the
# configure and build steps (a cold make test waits on the Linux build),
# and its verdict is collected after them (checkpatch_verdict).
# FILE_PATH_CHANGES is left out: checkpatch asks "does MAINTAINERS need
# updating?" of every patch that adds a file, and the files the series
# adds, the rcutorture scenario TREE11 and its .boot, are under
# tools/testing/selftests/rcutorture/, which MAINTAINERS' RCUTORTURE TEST
# FRAMEWORK entry already covers.
checkpatch_all() {
	local p res tot cp_ok=1
	for p in "${patches[@]}"; do
		[ "$p" = "$cover" ] && continue
		res=$(scripts/checkpatch.pl --strict --ignore FILE_PATH_CHANGES "$p" 2>&1)
		tot=$(echo "$res" | grep -E '^total: ' | tail -1)
		if ! grep -q '^total: 0 errors, 0 warnings' <<<"$tot"; then
			echo "$res" | tail -30
			cp_ok=0
		fi
		log "checkpatch $(basename "$p"): ${tot:-no total line}"
	done
	[ $cp_ok = 1 ]
}
checkpatch_all >"$out/checkpatch.log" 2>&1 &
checkpatch_pid=$!
checkpatch_verdict() {
	[ -n "${checkpatch_pid:-}" ] || return 0
	wait "$checkpatch_pid"
	local rc=$?
	checkpatch_pid=
	cat "$out/checkpatch.log"
	if [ $rc = 0 ]; then
		pass "checkpatch --strict (FILE_PATH_CHANGES ignored): 0 errors, 0 warnings on every patch"
	else
		fail "checkpatch --strict"
	fi
}

# --- 5. Configure each build: tinyconfig + fragment + scenario --------------
resolve_scenarios
check_backports
log "scenarios ${scenarios[*]}: builds ${groups[*]} (scenarios differing only in boot parameters share one)"
# The compiler: ccache, but not for sources that .incbin a file
# (linux/ccache-cc says why), installed at a fixed path (linux/kbuild-cc.sh).
cc_wrapper=$(cc_wrapper_install "$dir") || { fail "install $dir/ccache-cc"; finish; }
kmake() { make -j"$jobs" "${kmake_args[@]}" CC="$cc_wrapper $kcc" "$@"; }
# check_payload TREE (linux/kbuild-cc.sh) is x86's: arm64's Image is the
# kernel itself, with nothing to check.
image_payload_ok() { [ "$image_target" != bzImage ] || check_payload "$1"; }
# check_config CONFIG FRAGMENT...: every "=y"/"=m" line, and every
# "#CHECK#" line (kvm.sh's convention), is in CONFIG; no "=n" option is set.
check_config() {
	local cfg=$1 line ok=1
	shift
	while read -r line; do
		case $line in
		'#CHECK#'CONFIG_*=[ym]) line=${line#\#CHECK\#} ;&
		CONFIG_*=[ym]) grep -qx "$line" "$cfg" || { log "missing in $cfg: $line"; ok=0; } ;;
		CONFIG_*=n) ! grep -qE "^${line%=n}=[ym]" "$cfg" || { log "set in $cfg: $line"; ok=0; } ;;
		esac
	done < <(cat "$@")
	[ $ok = 1 ]
}
# worktree_at WT REV: a git worktree of the tree at WT (made if missing,
# an earlier run's reused) with REV checked out, detached.
worktree_at() {
	if [ ! -e "$1/.git" ]; then
		git worktree prune
		git worktree add -q -f --detach "$1" "$2" || return 1
	fi
	(cd "$1" && git checkout -q -f --detach "$2")
}
# configure_tree G: .config for group G in its tree, regenerated whenever
# the fragment, the series or the scenario changed.
configure_tree() {
	local g=$1 t id p
	t=$(tree_of "$g")
	id="$cfg_id $(sha1sum <"$cfgdir/$g" | cut -d' ' -f1)"
	if [ "$t" != "$src" ]; then
		worktree_at "$t" "$(git -C "$src" rev-parse HEAD)" || return 1
		# The checkout put back what an earlier run's backports
		# changed: apply this run's list afresh.
		backports_of "$g" | while read -r p; do
			if ! (cd "$t" && git apply "$p"); then
				echo "configure $g: git apply $p failed"
				exit 1
			fi
		done || return 1
	fi
	if [ ! -f "$t/.config" ] || [ "$(cat "$t/.dynrcu-config" 2>/dev/null)" != "$id" ]; then
		(
			cd "$t" && make "${kmake_args[@]}" tinyconfig &&
			scripts/kconfig/merge_config.sh -m .config "$fragment" "$cfgdir/$g" &&
			make "${kmake_args[@]}" olddefconfig
		) >"$out/config-$g.log" 2>&1 || return 1
		echo "$id" >"$t/.dynrcu-config"
	fi
}
for g in "${groups[@]}"; do
	if ! with_progress "configure $g" "about 30 s: builds the kconfig tools" configure_tree "$g"; then
		tail -20 "$out/config-$g.log"
		fail "configure $g"
		finish
	fi
	if check_config "$(tree_of "$g")/.config" "$fragment" "$cfgdir/$g"; then
		pass "config $g: tinyconfig + fragment + scenario $g"
	else
		fail "config $g: fragment or scenario not honoured"
		finish
	fi
done

# --- 6. Build the kernel, then the mutant -----------------------------------
build() { # $1 = label, $2 = tree (default $src)
	local t0 t1 tree=${2:-$src}
	rm -rf "${out:?}/$1"
	t0=$(date +%s)
	# shellcheck disable=SC2034 # read by with_progress
	PROGRESS="echo \$(grep -c '^  CC' '$out/build-$1.log') files compiled"
	kmake_logged() { (cd "$tree" && kmake "$image_target" modules) >"$out/build-$1.log" 2>&1; }
	# A build that was stopped (an interrupted make test) can leave a
	# half-written archive whose next incremental link fails with
	# "multiple definition" errors: the marker says so, and such a tree
	# is cleaned first (.config and ccache are kept).
	if [ -e "$tree/.dynrcu-building" ]; then
		log "build $1: the last build in $tree did not finish: make clean first"
		(cd "$tree" && make "${kmake_args[@]}" clean) >"$out/clean-$1.log" 2>&1
	fi
	touch "$tree/.dynrcu-building"
	local hint="a cold build compiles about 1050 files, 8 to 13 min on 2 cores; with a warm ccache about 1 min"
	[ "$arch" = arm64 ] && hint="a cold arm64 build compiles about 555 files, 15 to 17 min on 2 shared cores; a relink about 30 s"
	if ! with_progress "build $1" "$hint" \
		kmake_logged "$1"; then
		PROGRESS=
		grep -E 'error|Error' "$out/build-$1.log" | head -20
		tail -20 "$out/build-$1.log"
		return 1
	fi
	rm -f "$tree/.dynrcu-building"
	if ! image_payload_ok "$tree"; then
		log "build $1: arch/x86/boot/compressed/piggy.o does not carry this build's vmlinux.bin.gz (a stale object: see linux/ccache-cc)"
		return 1
	fi
	PROGRESS=
	t1=$(date +%s)
	mkdir -p "$out/$1"
	(cd "$tree" && cp "$image_path" "$out/$1/")
	log "build $1: $((t1 - t0)) s"
	echo "$((t1 - t0))" >"$out/$1/build-seconds"
}
for g in "${groups[@]}"; do
	if build "$g" "$(tree_of "$g")"; then
		group_stamp "$g" >"$out/$g/built-from"
		pass "build $g: kernel + modules ($(cat "$out/$g/build-seconds") s)"
	else
		fail "build $g"
		finish
	fi
done

checkpatch_verdict

# --- 6b. Compile test on 32-bit x86: each patch's C files build -----------
# A git worktree (an O= build needs a clean source tree, and ours holds
# the x86_64 build), configured as tinyconfig + the fragment without
# 64BIT; at each commit of the series in turn, only the C files the
# series has touched so far are compiled.
# series_commits: the series' commits, oldest first.
series_commits() { git -C "$src" rev-list --reverse dynrcu-base..HEAD; }
# A compiler's or modpost's warning or error in a build log (not Kconfig's
# "override: reassigning" notes, which merging a fragment prints).
build_warning='^[^ ]+:[0-9]+:[0-9]+: (warning|error):|^(WARNING|ERROR): modpost:'

# shellcheck disable=SC2086 # $objs: one word per object
i386_test() {
	local wt=$dir/i386 objs c
	for c in $(series_commits); do
		echo "=== $(git log -1 --format='%h %s' "$c")"
		worktree_at "$wt" "$c" || return 1
		objs=$(git diff --name-only dynrcu-base.."$c" -- '*.c' | sed 's/\.c$/.o/')
		(
			cd "$wt" &&
			if [ "$(cat .dynrcu-config 2>/dev/null)" != "$cfg_id" ]; then
				make ARCH=i386 tinyconfig >/dev/null &&
				cat "$fragment" "$cfgdir/$primary" |
					sed 's/^CONFIG_64BIT=y/# CONFIG_64BIT is not set/' >.i386-fragment &&
				scripts/kconfig/merge_config.sh -m .config .i386-fragment >/dev/null &&
				make ARCH=i386 olddefconfig >/dev/null &&
				echo "$cfg_id" >.dynrcu-config
			fi &&
			make -j"$jobs" ARCH=i386 CC="$cc_wrapper gcc" $objs &&
			# 64-bit division compiles to libgcc calls the kernel
			# lacks: the link of the module would fail on them.
			! nm -u $objs | grep -E '__(u)?(div|mod)di3|__udivmoddi4'
		) || return 1
	done >"$out/build-i386.log" 2>&1
	# A warning in a file of the series is a patch to send back.
	! grep -E "$build_warning" "$out/build-i386.log"
}
if [ "$arch" = arm64 ]; then
	: # the i386 compile test is the x86_64 run's
elif [ "${DYNRCU_LINUX_I386:-0}" != 1 ]; then
	log "i386 compile test skipped (DYNRCU_LINUX_I386=1, make linux-test-all: a second checkout of the tree, too long for make test's cold budget)"
elif with_progress "i386 compile test" "about 3 min the first time (a worktree and prepare), seconds a patch after" i386_test; then
	pass "i386 compile test, patch by patch ($(series_commits | wc -l) commits), no warning: $(git diff --name-only dynrcu-base..HEAD -- '*.c' | tr '\n' ' ')"
else
	# Each commit's "=== sha subject" line, and the warnings under it.
	grep -E "^=== |$build_warning" "$out/build-i386.log" | head -30
	tail -10 "$out/build-i386.log"
	fail "i386 compile test ($out/build-i386.log)"
fi

# --- 6c. Each patch builds on its own (DYNRCU_LINUX_EACH_PATCH=1) -----------
# Whoever bisects through the series lands on every commit of it, not
# only the last.  A git worktree beside the tree, with the primary
# scenario's .config, builds the kernel and modules at the series' base,
# then at each of its commits in turn (incremental: each step compiles
# what that patch changed, from ccache when it can).  A compiler warning
# in a step fails it as an error does; the base's own are not the
# series'.
each_patch_build() { # $1 = commit, $2 = log
	{
		worktree_at "$dir/each-patch" "$1" &&
		(cd "$dir/each-patch" && kmake olddefconfig &&
			kmake "$image_target" modules)
	} >"$2" 2>&1
}
each_patch() {
	local wt=$dir/each-patch n=0 c t0 log_n
	if ! worktree_at "$wt" dynrcu-base; then
		fail "each patch: git worktree add $wt"
		return
	fi
	cmp -s "$src/.config" "$wt/.config" || cp "$src/.config" "$wt/.config"
	# shellcheck disable=SC2034 # read by with_progress
	PROGRESS="echo \$(cat '$out'/build-each-*.log 2>/dev/null | grep -c '^  CC') files compiled"
	rm -f "$out"/build-each-*.log
	if ! with_progress "each patch: base" "a cold worktree compiles about 1050 files, 2 to 4 min from a warm ccache" \
		each_patch_build dynrcu-base "$out/build-each-0.log"; then
		tail -20 "$out/build-each-0.log"
		fail "each patch: the base, dynrcu-base, does not build ($out/build-each-0.log)"
		return
	fi
	for c in $(series_commits); do
		n=$((n + 1))
		log_n=$out/build-each-$n.log
		t0=$(date +%s)
		if with_progress "each patch: $n" "seconds to 2 min" each_patch_build "$c" "$log_n" &&
		   ! grep -E "$build_warning" "$log_n"; then
			pass "each patch: $n, $(git log -1 --format=%s "$c"), builds on its own ($arch, $primary's config; $(grep -c '^  CC' "$log_n") files compiled, $(($(date +%s) - t0)) s, no warning)"
		else
			# The warnings were printed by the grep above; a
			# failed make ends its log with the reason.
			tail -20 "$log_n"
			fail "each patch: $n, $(git log -1 --format=%s "$c"), on its own ($log_n)"
			break # one commit that fails sends the series back
		fi
	done
	PROGRESS=
}
if [ "${DYNRCU_LINUX_EACH_PATCH:-0}" = 1 ]; then
	each_patch
else
	log "each patch on its own: skipped (DYNRCU_LINUX_EACH_PATCH=1, make linux-test-all)"
fi

# What a mutant's kernel is built from: the tarball, the series and its
# config, the scenario's config, the compiler (and its wrapper: kernels
# built before linux/ccache-cc could carry another build's payload) and
# the mutant's patch.
mutant_key() {
	{ echo "$tar_id $cfg_id"; cat "$cfgdir/$primary" "$here/mutants/$1.patch"
	  "$kcc" --version | head -1; cat "$here/ccache-cc"; } | sha1sum | cut -d' ' -f1
}
for m in "${mutants[@]}"; do
	if [ -z "$(mutant_error "$m")" ]; then
		fail "mutant $m: no Judge-Error: line saying how it must be caught"
	elif [[ $m == hist-* ]] &&
	     ! grep -qE '^[0-9a-f]{12} \("[^"]+"' <<<"$(mutant_fix "$m")"; then
		# A historical mutant names the fix it undoes by id and subject.
		fail "mutant $m: Original-Fix: is not 'sha12 (\"subject\"...)': $(mutant_fix "$m")"
	elif [ -f "$out/mutant-$m/$image" ] &&
	     [ "$(cat "$out/mutant-$m/key" 2>/dev/null)" = "$(mutant_key "$m")" ]; then
		# Built before from the same tree, config, compiler and patch:
		# the kernel is the same, so the tree is left at the series
		# (a rebuild here would cost this and the next run a link each).
		mutant_stamp "$m" >"$out/mutant-$m/built-from"
		pass "build mutant $m (kept: built from the same tree, config and patch)"
	elif git apply "$here/mutants/$m.patch"; then
		if build "mutant-$m"; then
			mutant_key "$m" >"$out/mutant-$m/key"
			mutant_stamp "$m" >"$out/mutant-$m/built-from"
			pass "build mutant $m ($(cat "$out/mutant-$m/build-seconds") s)"
		else
			fail "build mutant $m"
		fi
		git apply -R "$here/mutants/$m.patch" || git checkout -- .
	else
		fail "apply mutant $m"
	fi
done
echo "$built_from" >"$out/built-from"
fi # the build phase
[ "$phase" = build ] && finish

# The boot phase boots what the build phase built, from this series only.
if [ "$(cat "$out/built-from" 2>/dev/null)" != "$built_from" ]; then
	fail "no build of this series and config in $out: run the build phase first"
	finish
fi
{ [ "$phase" = boot ] || [ "$phase" = table ]; } && resolve_scenarios && check_backports
for s in "${scenarios[@]}"; do
	if [ "$(cat "$out/${group[$s]}/built-from" 2>/dev/null)" != "$(group_stamp "${group[$s]}")" ]; then
		fail "no build of scenario $s's kernel (${group[$s]}) from this series and fragment in $out/${group[$s]}: run the build phase first"
		finish
	fi
done
for m in "${mutants[@]}"; do
	if [ "$(cat "$out/mutant-$m/built-from" 2>/dev/null)" != "$(mutant_stamp "$m")" ]; then
		fail "no build of mutant $m from this series and patch in $out/mutant-$m: run the build phase first"
		finish
	fi
done

# --- 7. Initramfs: busybox-static, the modules, an init that runs the test ---
# On arm64, /init is linux/initramfs-init-arm64.c, the same steps as one
# static program (Debian's busybox-static is the host's architecture).
arm64_init=$out/init-arm64
if [ "$arch" = arm64 ] &&
	! { [ "$arm64_init" -nt "$here/initramfs-init-arm64.c" ] ||
	    aarch64-linux-gnu-gcc -static -O2 -Wall -Werror -o "$arm64_init" \
		"$here/initramfs-init-arm64.c"; }; then
	fail "compile $here/initramfs-init-arm64.c with aarch64-linux-gnu-gcc -static"
	finish
fi
mkinitramfs() { # $1 = label, $2 = build
	local root=$out/$1/initramfs
	rm -rf "$root"
	mkdir -p "$root"/{bin,proc,sys,dev}
	if [ "$arch" = arm64 ]; then
		cp "$arm64_init" "$root/init"
	else
		cp /bin/busybox "$root/bin/busybox"
		cp "$here/initramfs-init" "$root/init"
	fi
	chmod +x "$root/init"
	(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$out/$1/initramfs.cpio.gz"
}

# --- 8. Boot and judge ---------------------------------------------------------
# boot LABEL BUILD EXPECT SECONDS [ERROR [PARAMS [REQUIRE]]]: boot BUILD's
# kernel, console in $out/LABEL, and judge it: EXPECT pass, or fail with
# a line matching ERROR.  PARAMS: the scenario's boot parameters.
# REQUIRE: a line a passing run must have (the scenario's .require).
# no_timer_check: the IO-APIC's check that the timer IRQ arrives within a
# busy-wait loop panics ("IO-APIC + timer doesn't work!") when a loaded
# host stalls the vCPU through it; it judges the host's speed, not the
# kernel under test, so it is skipped, as virtual machines commonly do.
# A boot expected to fail (a mutant) stops $stop_grace s after the
# console's first line matching ERROR: the verdict is in by then, and the
# rest of the test would only add time (the judge is told, --stopped).
stop_grace=3
# qemu_args BUILD LABEL: sets qemu[] to the QEMU command (machine, kernel,
# initramfs) and console[] to the architecture's first kernel parameters.
# arm64: the virt machine with a GICv3 (pseudo-NMIs need its priority
# masking), a Cortex-A57, pseudo-NMIs on (irqchip.gicv3_pseudo_nmi=1); the
# kernel powers off through PSCI, and QEMU exits.  panic_on_warn=1 on
# arm64: a WARN is a BRK, and the debug exception's exit calls
# ct_nmi_exit(); when RCU is not watching there (a mutant's NMI from
# idle), ct_nmi_exit()'s own WARN_ON_ONCE() takes another BRK on its way
# out, and so on, until the stack runs over swapper_pg_dir and every CPU
# loops on the exception vector with the warnings still unprinted (2 of
# 5 boots, seen with gdb through QEMU's stub).  Panicking at the first
# WARN prints it and ends the boot before the recursion starts.  x86's
# WARN (ud2, handle_bug()) does not exit through ct_nmi_exit().  And
# earlycon (the PL011 named by the device tree's stdout-path): a WARN
# before ttyAMA0 registers would otherwise panic with nothing printed.
# shellcheck disable=SC2054 # the commas are QEMU's (-M a,b), not bash's
qemu_args() {
	if [ "$arch" = arm64 ]; then
		qemu=(qemu-system-aarch64 -M virt,gic-version=3 -cpu cortex-a57
			-accel "$accel" -smp 4 -m 512
			-kernel "$out/$1/Image" -initrd "$out/$2/initramfs.cpio.gz")
		console=(console=ttyAMA0 earlycon irqchip.gicv3_pseudo_nmi=1
			panic=-1 panic_on_warn=1 loglevel=7)
	else
		qemu=(qemu-system-x86_64 -M microvm,acpi=off -accel "$accel" -smp 4 -m 512
			-kernel "$out/$1/bzImage" -initrd "$out/$2/initramfs.cpio.gz")
		console=(console=ttyS0 panic=-1 loglevel=7 no_timer_check)
	fi
}
boot() {
	local log=$out/$1/console.log rc t0 t1 secs=$4 stopped=$out/$1/stopped
	# Each boot's own: a mutant's test may be longer than the scenarios'.
	# Twice the test: a loaded host slows the guest's clock (a 600 s
	# test beside two other QEMUs reached 339 s of guest time in 750 s).
	local timeout_s=${DYNRCU_LINUX_TIMEOUT:-$((2 * secs + 150))}
	mkdir -p "$out/$1"
	mkinitramfs "$1" "$2"
	rm -f "$log" "$stopped"
	qemu_args "$2" "$1"
	set -- "$1" "$2" "$3" "$4" "${5:-}" "$(arch_params "${6:-}")" "${7:-}"
	t0=$(date +%s.%N)
	with_progress "boot $1" "about $((secs + 40)) s: boot, a ${secs} s test, shutdown" \
		qemu_until "$log" "$([ "$3" = fail ] && echo "${5:-!!!}")" "$stopped" \
		timeout -k 10 "$timeout_s" "${qemu[@]}" \
		-append "${console[*]} ${6:-} rcutorture.shutdown_secs=$secs $extra_params" \
		-display none -monitor none -serial "file:$log" -no-reboot </dev/null
	rc=$?
	t1=$(date +%s.%N)
	log "boot $1: qemu exit $rc after $(echo "$t1 - $t0" | bc) s (timeout ${timeout_s} s)$([ -f "$stopped" ] && echo ", stopped $stop_grace s after the first error")"
	python3 "$here/judge-console.py" --expect "$3" --qemu-rc "$rc" \
		--wall "$(echo "$t1 - $t0" | bc)" \
		--parse-console "$src/tools/testing/selftests/rcutorture/bin" \
		$([ -f "$stopped" ] && echo --stopped) \
		${7:+--require "$7"} ${5:+--error "$5"} "${judge_extra[@]}" "$log"
}
# arch_params PARAMS: PARAMS as this architecture spells them.  arm64
# has no "idle=" parameter (x86's; the kernel would pass it to /init as
# unknown): the generic "nohlt" asks for the same polling idle loop.
arch_params() {
	if [ "$arch" = arm64 ]; then
		echo "$1" | sed -E 's/(^| )idle=poll( |$)/\1nohlt\2/g'
	else
		echo "$1"
	fi
}
# judge_extra[]: more judge arguments for a passing boot.  On arm64 the
# GIC must have turned pseudo-NMIs on, and, when the boot asks for NMI
# readers (eqs_readers with bit 4), they must all have run in NMI
# context (--nmi-readers: no "not-NMI" request) and, unless the idle loop
# polls, some must have found an EQS (--nmi-from-eqs): in the polling
# loop interrupts are on, and an NMI comes in through the interrupt
# path, nested in it.
judge_extra=()
set_judge_extra() { # $1 = boot parameters
	judge_extra=()
	[ "$arch" = arm64 ] || return 0
	judge_extra=(--require 'GICv3: Pseudo-NMIs enabled')
	local r
	r=$(echo "$1" | tr ' ' '\n' | sed -n 's/^rcutorture\.eqs_readers=//p' | tail -1)
	[ -n "$r" ] && (((r & 4) != 0)) || return 0
	judge_extra+=(--nmi-readers)
	grep -qE ' (idle=poll|nohlt) ' <<<" $1 $extra_params " ||
		judge_extra+=(--nmi-from-eqs)
	return 0
}
# qemu_until LOG REGEX FLAG CMD...: run CMD; with a REGEX, once LOG has a
# line matching it, wait $stop_grace s, stop CMD (SIGTERM: QEMU flushes
# the console file and exits) and create FLAG.  CMD's exit status, or 0
# when the kernel powered off: the microvm machine has no ACPI, so the
# kernel's power-off prints $power_down and halts, and QEMU is stopped
# there.
power_down='reboot: Power down'
qemu_until() {
	local log=$1 re=$2 flag=$3 pid
	shift 3
	"$@" &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		if [ -n "$re" ] && [ -f "$log" ] && grep -aqP -- "$re" "$log"; then
			sleep "$stop_grace"
			kill -0 "$pid" 2>/dev/null && touch "$flag" && kill "$pid"
			break
		fi
		if [ -f "$log" ] && grep -aqF -- "$power_down" "$log"; then
			sleep 0.5	# the last console bytes
			kill "$pid" 2>/dev/null
			wait "$pid"
			return 0
		fi
		sleep 0.5
	done
	wait "$pid"
}

# The table phase boots nothing: step 9 reads the last boots' files.
scenario_params() { grep -v '^#' "$cfgdir/$1.boot" 2>/dev/null | tr '\n' ' '; }
if [ "$phase" != table ]; then
	for s in "${scenarios[@]}"; do
		params=$(scenario_params "$s")
		# A scenario's .require-arm64, when it has one, replaces its
		# .require on arm64.
		rf=$cfgdir/$s.require
		[ "$arch" = arm64 ] && [ -f "$rf-arm64" ] && rf=$rf-arm64
		require=$(grep -v '^#' "$rf" 2>/dev/null)
		set_judge_extra "$params"
		if boot "scenario-$s" "${group[$s]}" pass "$duration" "" "$params" "$require"; then
			pass "boot $s${params:+ ($params)}: rcutorture SUCCESS${require:+, a line matching /$require/}"
		else
			fail "boot $s${params:+ ($params)}: rcutorture"
		fi
	done
	# Each mutant, mutant_boots times: caught every time, for its own reason,
	# and how soon after the start of the test (its first error line).  The
	# primary scenario's parameters come first; the mutant's (Boot-Params:)
	# override them.  The times are linux/rates.py's, the table's rule:
	# "-" not caught, "boot" caught before the test started.
	rm -f "$out/mutant-times"
	for m in "${mutants[@]}"; do
		err=$(mutant_error "$m")
		mparams="$(scenario_params "$primary") $(mutant_params "$m")"
		caught=0
		files=()
		judge_extra=()
		for ((b = 1; b <= mutant_boots; b++)); do
			files+=("$out/mutant-$m/judge-$b.txt")
			boot "mutant-$m" "mutant-$m" fail "$mutant_duration" "$err" "$mparams" | tee "${files[-1]}"
			[ "${PIPESTATUS[0]}" = 0 ] && caught=$((caught + 1))
		done
		times=$(python3 "$here/rates.py" "$mutant_duration" "${files[@]}" | cut -d'|' -f4)
		log "mutant $m: caught $caught of $mutant_boots boots for /$err/; first error after $times s"
		echo "$m $caught $mutant_boots $times" >>"$out/mutant-times"
		if [ "$caught" = "$mutant_boots" ]; then
			pass "mutant $m caught in $caught of $mutant_boots boots: /$err/ (first error after $times s)"
		else
			fail "mutant $m caught in only $caught of $mutant_boots boots for /$err/"
		fi
	done
fi

# --- 9. Stock rcutorture beside the series: rates (DYNRCU_LINUX_STOCK=1) -----
# One configuration per column, the same for every mutant: stock
# rcutorture with kvm.sh's usual reader settings and its idle options,
# with an NMI backtrace at the end of the test (test_nmis) (stock_params);
# and the same plus the boot parameters of the scenario the series ships,
# TREE11 (its readers in every context at a low duty cycle): no tuning per
# mutant.  Of a mutant's Boot-Params only what is not rcutorture's
# (rcutree.*, nohlt) goes to both columns.  Each column boots the mutant's
# kernel mutant_boots times for mutant_duration s; any failure of the run
# counts (stock_error), and the judge's label says what caught it: the
# series' own check, rcutorture's, or a check the kernel already had.
# linux/rates.py turns a column's boots into failures per guest hour and
# a 95% interval.  The table goes to $out/comparison.md.
stock_params="rcutorture.stat_interval=10 rcutorture.irqreader=1 rcutorture.gp_normal=1 rcutorture.gp_exp=1 rcutorture.test_no_idle_hz=1 rcutorture.onoff_interval=1000 rcutorture.test_nmis=1"
stock_error='!!!|WARNING:|BUG:|Oops|detected stall|detected expedited stall|End of test: FAILURE|suspicious RCU usage|Internal error: '
# column M LABEL PARAMS: mutant M's kernel booted under PARAMS; prints
# linux/rates.py's line for those boots.
column() {
	local m=$1 label=$2 p=$3 b files=()
	for ((b = 1; b <= mutant_boots; b++)); do
		files+=("$out/mutant-$m/$label-judge-$b.txt")
		if [ "$phase" != table ]; then
			boot "$label-$m" "mutant-$m" fail "$mutant_duration" "$stock_error" "$p" >"${files[-1]}"
		elif [ ! -f "${files[-1]}" ]; then
			fail "table: no ${files[-1]}: boot the columns first (DYNRCU_LINUX_STOCK=1, as many boots)"
			finish
		fi
	done
	python3 "$here/rates.py" "$mutant_duration" "${files[@]}"
}
if [ "$phase" = table ] && [ ! -f "$out/mutant-times" ]; then
	fail "table: no $out/mutant-times: no boot phase has run the mutants"
	finish
fi
if [ "${DYNRCU_LINUX_STOCK:-0}" = 1 ] || [ "$phase" = table ]; then
	judge_extra=()
	# arm64's table goes beside x86_64's, not over it.
	cmp_name=comparison$([ "$arch" = arm64 ] && echo -arm64).md
	tree11=$src/tools/testing/selftests/rcutorture/configs/rcu/TREE11.boot
	if [ ! -f "$tree11" ]; then
		fail "no $tree11: the series' scenario, which the series column boots with"
		finish
	fi
	tree11_params=$(grep -v '^#' "$tree11" | tr '\n' ' ' | sed 's/ *$//')
	series_params="$stock_params $tree11_params"
	cmp_header="| mutant | original fix | stock: caught | per guest hour (95%) | first error (s) | caught by | series: caught | per guest hour (95%) | first error (s) | caught by |
|---|---|---|---|---|---|---|---|---|---|"
	{
		echo "Measured by \`DYNRCU_LINUX_STOCK=1\` (\`make linux-test-all\`) on $(date -u +%Y-%m-%d), $(nproc) host CPUs, $arch, QEMU \`-accel $accel -smp 4\`, the mutant's kernel (EQS01's configuration), $mutant_boots boots of $mutant_duration s per mutant and column. Stock: \`$stock_params\`; series: the same plus TREE11.boot, \`$tree11_params\`; a mutant's own parameters that are not rcutorture's go to both. Per column: boots caught of those run; failures per guest hour, caught boots over the guest time watched (to the first error, none if it came during boot, the guest time the test reached if nothing was caught), with its exact 95% interval for a Poisson count; the seconds from \`Start of test\` to the first error line (-: not caught; negative: during boot, the test starting later; boot: during boot, which the panic ended); and what caught it (series: the series' own check; rcutorture: a check rcutorture had; kernel: one the kernel had, reached by the run)."
		echo
		echo "$cmp_header"
	} >"$out/comparison.md"
	rm -f "$out/comparison-self.md"
	while read -r m _; do
		own=$(mutant_params "$m" | tr ' ' '\n' | grep -v '^rcutorture\.' | tr '\n' ' ')
		IFS='|' read -r sc sr si stt slb <<<"$(column "$m" stock "$stock_params $own")"
		IFS='|' read -r ec er ei ett elb <<<"$(column "$m" series "$series_params $own")"
		log "mutant $m: stock caught $sc of $mutant_boots ($sr per guest hour, $si; $stt s; $slb); series $ec of $mutant_boots ($er per guest hour, $ei; $ett s; $elb)"
		# A self-test (Self-Test: in its header) is not a bug: its rows
		# go below the bugs', under a heading of their own.
		echo "| \`$m\` | $(mutant_fix "$m") | $sc of $mutant_boots | $sr ($si) | $stt | $slb | $ec of $mutant_boots | $er ($ei) | $ett | $elb |" \
			>>"$out/comparison$(grep -q '^Self-Test:' "$here/mutants/$m.patch" && echo -self).md"
	done <"$out/mutant-times"
	if [ -f "$out/comparison-self.md" ]; then
		{
			echo
			echo "Self-tests of the series' own checks, not bugs (\`Self-Test:\` in the mutant's header):"
			echo
			echo "$cmp_header"
			cat "$out/comparison-self.md"
		} >>"$out/comparison.md"
	fi
	cat "$out/comparison.md"
	# What make docs-figures splices into docs/linux.md.
	mkdir -p "$here/../build/linux" && cp "$out/comparison.md" "$here/../build/linux/$cmp_name"
	pass "stock rcutorture beside eqs_readers: $out/comparison.md, copied to build/linux/$cmp_name"
fi
finish
