#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make test: every suite; a suite that fails does not stop the others.
#
# The kernel scenarios measure time (ticks, timers, latencies), so they run
# in the foreground at normal priority.  What measures no time runs beside
# them at low priority (nice): the host unit tests, the Spin models, the
# expected-failure scenarios, the mutant kernels' builds and the Linux
# build (nice 5: a cold run waits for it).  Once the scenarios are done,
# the mutants boot two at a time (a mutant run is judged by what it prints,
# not by how fast; nice 10) beside the Linux boots.
#
# Every suite ends with its own "N passed, N failed" line; the totals line
# adds them up.  Every 30 s a progress line names what is still running.
# The run ends with a table of each suite's wall time.  Output of the
# suites that run in the background is in build/test-logs/NAME.log; a
# failing one's is shown at the end.
#
# SKIP_LINUX=1 leaves out the Linux series (its build and boots).
set -u
cd "$(dirname "$0")/.." || exit 1
logs=build/test-logs
rm -rf "$logs"
mkdir -p "$logs"
start=$(date +%s)
suites=()

elapsed() { local s=$(($(date +%s) - $1)); printf '%dm%02ds' $((s / 60)) $((s % 60)); }

# bg_suite NAME CMD...: run CMD in the background, its output to the log.
bg_suite() {
	local name=$1
	shift
	suites+=("$name")
	date +%s >"$logs/$name.start"
	(
		"$@" >"$logs/$name.log" 2>&1
		echo $? >"$logs/$name.rc"
		date +%s >"$logs/$name.end"
	) &
	echo "=== $name: started in the background: $*"
}

# fg_suite NAME CMD...: run CMD in the foreground, its output live.
fg_suite() {
	local name=$1 rc
	shift
	suites+=("$name")
	date +%s >"$logs/$name.start"
	echo "=== $name: $*"
	"$@" 2>&1 | tee "$logs/$name.log"
	rc=${PIPESTATUS[0]}
	echo "$rc" >"$logs/$name.rc"
	date +%s >"$logs/$name.end"
}

wait_suite() {
	while [ ! -f "$logs/$1.rc" ]; do sleep 1; done
}

# How long each suite usually takes on 2 cores (warm; cold: the Linux
# build takes 12 to 15 minutes), for the progress lines.
usual() {
	case $1 in
	kernel) echo "about 6 min" ;;
	linux-build) echo "about 2 min warm, 12-15 min cold" ;;
	spin | xfail | host | mutant-builds) echo "1-4 min" ;;
	mutants) echo "about 2 min" ;;
	linux-boot) echo "about 1 min" ;;
	*) echo "under a minute" ;;
	esac
}

# Progress: every 30 s, each unfinished suite's time and last line.
ticker() {
	while sleep 30; do
		for f in "$logs"/*.start; do
			local name
			name=$(basename "$f" .start)
			[ -f "$logs/$name.rc" ] && continue
			echo "... make test $(elapsed "$start"): $name running for" \
				"$(elapsed "$(cat "$f")") ($(usual "$name")):" \
				"$(tail -n 1 "$logs/$name.log" 2>/dev/null | cut -c1-100)"
		done
	done
}
ticker &
ticker_pid=$!
trap 'kill $ticker_pid 2>/dev/null' EXIT

linux=0
[ -f linux/linux.mk ] && [ "${SKIP_LINUX:-0}" != 1 ] && linux=1
# Two of the Linux mutants fit the budget beside the kernel's, and one
# scenario (EQS01): linux-test.sh's defaults, the article's bug family and
# a grace-period-side one (rcu_is_cpu_rrupt_from_idle() off by one level).
# make linux-test-all runs all of them, five boots each, and every scenario.

# Beside the timing tests: what measures no time.
[ -f tests/host/host.mk ] &&
	bg_suite host nice -n 10 make --no-print-directory host-test
[ -f tests/spin/spin.mk ] &&
	bg_suite spin nice -n 10 make --no-print-directory verify
[ -f tools/test_trace2json.py ] &&
	bg_suite tools python3 tools/test_trace2json.py
[ -f linux/test_judge.py ] &&
	bg_suite linux-judge python3 linux/test_judge.py
[ -f tests/mutants/run.py ] &&
	bg_suite mutant-builds nice -n 10 python3 tests/mutants/run.py --build-only
# The Linux build is the longest job of a cold run (about 1050 files):
# it yields to the timing scenarios, not to the other background jobs.
[ $linux = 1 ] && bg_suite linux-build nice -n 5 bash linux/linux-test.sh build
# The expected failures are judged by what the kernel prints, in guest
# time (a stall after 3 s, a lockup after 3 s): they can share the host.
bg_suite xfail nice -n 10 python3 tests/harness.py tests/xfail/*.scn

# litmus-sb last: its store-buffer reorderings need both vCPUs on the two
# host cores at once, which the background jobs make rare (60 s instead
# of 11 s to see its 50 reorderings); by then they are done.
scenarios=()
for f in tests/scenarios/*.scn; do
	[ "$f" = tests/scenarios/litmus-sb.scn ] || scenarios+=("$f")
done
[ -f tests/scenarios/litmus-sb.scn ] && scenarios+=(tests/scenarios/litmus-sb.scn)
fg_suite kernel python3 tests/harness.py "${scenarios[@]}"
[ -f tools/gdb/test.py ] && fg_suite gdb python3 tools/gdb/test.py

# After the timing tests: the mutants' boots beside the Linux boots.
if [ -f tests/mutants/run.py ]; then
	wait_suite mutant-builds
	bg_suite mutants nice -n 10 python3 tests/mutants/run.py --jobs 2
fi
if [ $linux = 1 ]; then
	wait_suite linux-build
	bg_suite linux-boot bash linux/linux-test.sh boot
fi
for s in "${suites[@]}"; do wait_suite "$s"; done
kill $ticker_pid 2>/dev/null

# Totals.  mutant-builds only prepares the mutants suite: its builds are
# not counted as tests (a broken one is counted once, in mutants).
passed=0 failed=0 failed_suites=()
printf '\n| suite | wall time | result |\n|---|---|---|\n'
for s in "${suites[@]}"; do
	rc=$(cat "$logs/$s.rc")
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$logs/$s.log" | tail -1)
	secs=$(($(cat "$logs/$s.end") - $(cat "$logs/$s.start")))
	printf '| %s | %dm%02ds | %s |\n' "$s" $((secs / 60)) $((secs % 60)) \
		"${line:-no totals line} (exit $rc)"
	p=0 f=0
	if [ -n "$line" ]; then
		p=$(echo "$line" | awk '{print $1}')
		f=$(echo "$line" | awk '{print $3}')
	fi
	# A suite that exits non-zero, or prints no totals, fails at least once.
	if [ "$rc" -ne 0 ] || [ -z "$line" ]; then
		[ "$f" -eq 0 ] && f=1
	fi
	[ "$f" -gt 0 ] && failed_suites+=("$s")
	[ "$s" = mutant-builds ] && continue
	passed=$((passed + p))
	failed=$((failed + f))
done
for s in "${failed_suites[@]}"; do
	echo
	echo "=== $s failed: the end of $logs/$s.log"
	tail -n 40 "$logs/$s.log"
done
echo
echo "=== make test took $(elapsed "$start")"
[ ${#failed_suites[@]} -gt 0 ] && echo "=== failed suites: ${failed_suites[*]}"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
