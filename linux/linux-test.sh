#!/usr/bin/env bash
# Build Debian's linux-source-6.12 with the eqstorture patch series, boot it in
# QEMU with 4 CPUs, and judge the console the way rcutorture's parse-console.sh
# does.  Also builds and boots the validation mutant (expected to be caught),
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
#   DYNRCU_LINUX_TIMEOUT   QEMU timeout seconds per boot (default duration+150)
#   DYNRCU_LINUX_ACCEL     QEMU accelerator (default tcg: stock kernels hang
#                          under this machine's paravirtual KVM; see
#                          docs/linux.md)
#   DYNRCU_LINUX_JOBS      make -j (default 2)
#   DYNRCU_LINUX_PARAMS    extra eqstorture.* boot parameters
#   DYNRCU_LINUX_SKIP_MUTANT=1  skip the mutant build and boot
#
# Usage: linux-test.sh [all|build|boot]
#   build  packages, tree, git am, checkpatch, config, both builds: measures
#          no time, so make test runs it beside the kernel's timing tests
#   boot   boot and judge what build left in $DYNRCU_LINUX_DIR/out
#   all    both (the default)
# A step that takes longer than 30 s says so every 30 s, with how long it
# usually takes.  Nothing here lowers its own priority: run it under nice
# to yield to other work (make test runs the build phase at nice 5).
set -uo pipefail

phase=${1:-all}
case $phase in
all | build | boot) ;;
*)
	echo "linux-test: unknown phase '$phase': expected all, build or boot" >&2
	exit 2
	;;
esac

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
dir=${DYNRCU_LINUX_DIR:-/var/tmp/dynrcu-linux}
tarball=/usr/src/linux-source-6.12.tar.xz
src=$dir/linux-source-6.12
out=$dir/out
duration=${DYNRCU_LINUX_DURATION:-30}
# The mutant is caught within a second of the test's start: 10 s is ample.
mutant_duration=${DYNRCU_LINUX_MUTANT_DURATION:-10}
timeout_s=${DYNRCU_LINUX_TIMEOUT:-$((duration + 150))}
accel=${DYNRCU_LINUX_ACCEL:-tcg}
jobs=${DYNRCU_LINUX_JOBS:-2}
extra_params=${DYNRCU_LINUX_PARAMS:-}
patches=("$here"/patches/*.patch)
mutant=$here/mutants/ct-nmi-enter-from-idle-not-watching.patch
fragment=$here/config-fragment

export CCACHE_DIR=${CCACHE_DIR:-$dir/ccache}
export KBUILD_BUILD_TIMESTAMP="2026-01-01 00:00:00 UTC"
export KBUILD_BUILD_USER=dynrcu KBUILD_BUILD_HOST=dynrcu
# checkpatch wants Debian's python3 (python3-ply) first on PATH.
export PATH=/usr/bin:/bin:/usr/sbin:/sbin:$PATH

npass=0
nfail=0
pass() { echo "PASS: $*"; npass=$((npass + 1)); }
fail() { echo "FAIL: $*"; nfail=$((nfail + 1)); }
log() { echo "linux-test: $*"; }

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
	echo "linux-test: summary"
	echo "$npass passed, $nfail failed"
	[ "$nfail" -eq 0 ]
	exit $?
}

# --- 1. Packages -------------------------------------------------------------
need_pkgs=(linux-source-6.12 busybox-static ccache qemu-system-x86 gcc make
	flex bison libelf-dev libssl-dev cpio dwarves gawk bc python3-ply xz-utils
	git perl python3-git)
missing=()
for p in "${need_pkgs[@]}"; do
	dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	log "installing ${missing[*]}"
	apt_install() {
		{ DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" ||
			{ apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"; }; } \
			>"$dir.apt.log" 2>&1
	}
	if ! with_progress "install packages" "about 1 to 3 min" apt_install; then
		tail -20 "$dir.apt.log"
		fail "install packages: ${missing[*]}"
		finish
	fi
fi
pass "packages present"

# What the build phase builds from, and the boot phase checks it booted.
series_id=$(cat "${patches[@]}" | sha1sum | cut -d' ' -f1)
cfg_id=$(sha1sum <"$fragment" | cut -d' ' -f1)
built_from="series $series_id config $cfg_id mutant $(sha1sum <"$mutant" | cut -d' ' -f1)"

if [ "$phase" != boot ]; then # steps 2 to 6: the build phase

# --- 2. Extract the tarball (cached) and git-initialise it ------------------
mkdir -p "$dir" "$out"
tar_id="$(stat -c '%s %Y' "$tarball")"
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
		git add -A &&
		git commit -q -m "Debian linux-source-6.12 $(sed -n 's/^SUBLEVEL = //p' Makefile)" &&
		git tag -f dynrcu-base >/dev/null
	)
	with_progress "git-initialise the tree" "about 1 min" git_init_tree ||
		{ fail "git-initialise $src"; finish; }
	echo "$tar_id" >"$src/.dynrcu-tarball"
fi
pass "source tree at $src"

# --- 3. Apply the series with git am (re-applied when the series changed) ---
cd "$src" || exit 1
if [ "$(cat .dynrcu-series 2>/dev/null)" != "$series_id" ] ||
	[ -n "$(git status --porcelain --untracked-files=no)" ]; then
	git am --abort >/dev/null 2>&1
	git reset -q --hard dynrcu-base
	if git am -q "${patches[@]}" >"$out/git-am.log" 2>&1; then
		echo "$series_id" >.dynrcu-series
	else
		cat "$out/git-am.log"
		git am --abort >/dev/null 2>&1
		rm -f .dynrcu-series
		fail "git am of ${#patches[@]} patches onto dynrcu-base"
		finish
	fi
fi
pass "git am: ${#patches[@]} patches applied onto a git-initialised extracted tree ($(git rev-list --count dynrcu-base..HEAD) commits)"

# --- 4. checkpatch.pl --strict on every patch -------------------------------
cp_ok=1
for p in "${patches[@]}"; do
	res=$(scripts/checkpatch.pl --strict "$p" 2>&1)
	tot=$(echo "$res" | grep -E '^total: ' | tail -1)
	if ! echo "$tot" | grep -q '^total: 0 errors, 0 warnings'; then
		echo "$res" | tail -30
		cp_ok=0
	fi
	log "checkpatch $(basename "$p"): ${tot:-no total line}"
done
if [ $cp_ok = 1 ]; then pass "checkpatch --strict: 0 errors, 0 warnings on every patch"; else fail "checkpatch --strict"; fi

# --- 5. Configure: tinyconfig + fragment ------------------------------------
kmake() { make -j"$jobs" ARCH=x86_64 CC="ccache gcc" "$@"; }
if [ ! -f .config ] || [ "$(cat .dynrcu-config 2>/dev/null)" != "$cfg_id" ]; then
	configure() {
		{ make ARCH=x86_64 tinyconfig &&
			scripts/kconfig/merge_config.sh -m .config "$fragment" &&
			make ARCH=x86_64 olddefconfig; } >"$out/config.log" 2>&1
	}
	if ! with_progress "configure" "about 30 s: builds the kconfig tools" configure; then
		tail -20 "$out/config.log"
		fail "configure"
		finish
	fi
	echo "$cfg_id" >.dynrcu-config
fi
cfg_ok=1
while read -r line; do
	case $line in CONFIG_*=[ym]) grep -qx "$line" .config || { log "missing in .config: $line"; cfg_ok=0; } ;; esac
done <"$fragment"
if [ $cfg_ok = 1 ]; then pass "config: tinyconfig + fragment"; else fail "config: fragment not honoured"; finish; fi

# --- 6. Build the kernel, then the mutant -----------------------------------
build() { # $1 = label
	local t0 t1
	rm -rf "${out:?}/$1"
	t0=$(date +%s)
	# shellcheck disable=SC2034 # read by with_progress
	PROGRESS="echo \$(grep -c '^  CC' '$out/build-$1.log') files compiled"
	kmake_logged() { kmake bzImage modules >"$out/build-$1.log" 2>&1; }
	if ! with_progress "build $1" "a cold build compiles about 1050 files, 8 to 13 min on 2 cores; with a warm ccache about 1 min" \
		kmake_logged "$1"; then
		PROGRESS=
		grep -E 'error|Error' "$out/build-$1.log" | head -20
		tail -20 "$out/build-$1.log"
		return 1
	fi
	PROGRESS=
	t1=$(date +%s)
	mkdir -p "$out/$1"
	cp arch/x86/boot/bzImage kernel/torture.ko kernel/rcu/eqstorture.ko "$out/$1/"
	log "build $1: $((t1 - t0)) s"
	echo "$((t1 - t0))" >"$out/$1/build-seconds"
}
if build good; then pass "build kernel + modules ($(cat "$out/good/build-seconds") s)"; else fail "build kernel"; finish; fi

if [ "${DYNRCU_LINUX_SKIP_MUTANT:-0}" != 1 ]; then
	if git apply "$mutant"; then
		if build mutant; then
			pass "build mutant ($(cat "$out/mutant/build-seconds") s)"
		else
			fail "build mutant"
		fi
		git apply -R "$mutant" || git checkout -- .
	else
		fail "apply mutant $(basename "$mutant")"
	fi
fi
echo "$built_from" >"$out/built-from"
fi # the build phase
[ "$phase" = build ] && finish

# The boot phase boots what the build phase built, from this series only.
if [ "$(cat "$out/built-from" 2>/dev/null)" != "$built_from" ]; then
	fail "no build of this series, config and mutant in $out: run the build phase first"
	finish
fi

# --- 7. Initramfs: busybox-static, the modules, an init that runs the test ---
mkinitramfs() { # $1 = label
	local root=$out/$1/initramfs
	rm -rf "$root"
	mkdir -p "$root"/{bin,proc,sys,dev,lib/modules}
	cp /bin/busybox "$root/bin/busybox"
	cp "$out/$1/torture.ko" "$out/$1/eqstorture.ko" "$root/lib/modules/"
	cp "$here/initramfs-init" "$root/init"
	chmod +x "$root/init"
	(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$out/$1/initramfs.cpio.gz"
}

# --- 8. Boot and judge ---------------------------------------------------------
boot() { # $1 = label, $2 = expect (pass|fail), $3 = test seconds
	local log=$out/$1/console.log rc t0 t1 secs=$3
	mkinitramfs "$1"
	rm -f "$log"
	t0=$(date +%s.%N)
	with_progress "boot $1" "about $((secs + 40)) s: boot, a ${secs} s test, shutdown" \
		timeout -k 10 "$timeout_s" qemu-system-x86_64 \
		-accel "$accel" -smp 4 -m 512 \
		-kernel "$out/$1/bzImage" -initrd "$out/$1/initramfs.cpio.gz" \
		-append "console=ttyS0 panic=-1 loglevel=7 eqstorture.shutdown_secs=$secs $extra_params" \
		-display none -monitor none -serial "file:$log" -no-reboot </dev/null
	rc=$?
	t1=$(date +%s.%N)
	log "boot $1: qemu exit $rc after $(echo "$t1 - $t0" | bc) s (timeout ${timeout_s} s)"
	python3 "$here/judge-console.py" --expect "$2" --qemu-rc "$rc" \
		--wall "$(echo "$t1 - $t0" | bc)" "$log"
}

if boot good pass "$duration"; then pass "boot: eqstorture SUCCESS on the series"; else fail "boot: eqstorture on the series"; fi
if [ "${DYNRCU_LINUX_SKIP_MUTANT:-0}" != 1 ] && [ -f "$out/mutant/bzImage" ]; then
	if boot mutant fail "$mutant_duration"; then pass "mutant caught: eqstorture FAILURE"; else fail "mutant not caught"; fi
fi
finish
