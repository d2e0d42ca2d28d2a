#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make test: every suite in turn; a suite that fails does not stop the
# others.  Ends with the totals line "N passed, N failed" over all suites'
# own totals, and exits non-zero if anything failed.
set -u
cd "$(dirname "$0")/.."
passed=0 failed=0 failed_suites=()

run_suite() {
	local name=$1
	shift
	echo "=== $name: $*"
	local out rc
	out=$(mktemp)
	"$@" 2>&1 | tee "$out"
	rc=${PIPESTATUS[0]}
	# Each suite ends with its own "N passed, N failed" line.
	local line
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$out" | tail -1)
	rm -f "$out"
	if [ -z "$line" ]; then
		echo "=== $name: no totals line (exit $rc): counted as 1 failure"
		failed=$((failed + 1))
		failed_suites+=("$name")
		return
	fi
	local p f
	p=$(echo "$line" | awk '{print $1}')
	f=$(echo "$line" | awk '{print $3}')
	passed=$((passed + p))
	failed=$((failed + f))
	if [ "$rc" -ne 0 ] || [ "$f" -ne 0 ]; then
		[ "$f" -eq 0 ] && failed=$((failed + 1))
		failed_suites+=("$name")
	fi
}

start=$(date +%s)
[ -f tests/host/host.mk ] && run_suite host make --no-print-directory host-test
run_suite kernel python3 tests/harness.py tests/scenarios/*.scn tests/xfail/*.scn
[ -f tools/test_trace2json.py ] && run_suite tools python3 tools/test_trace2json.py
[ -f tools/gdb/test.py ] && run_suite gdb python3 tools/gdb/test.py
# Kernel mutants (tests/mutants/kernel/*.patch): each must be caught, or
# be documented as not detectable on x86.
[ -f tests/mutants/run.py ] && run_suite mutants python3 tests/mutants/run.py
[ -f tests/spin/spin.mk ] && run_suite spin make --no-print-directory verify
[ -f linux/linux.mk ] && [ "${SKIP_LINUX:-0}" != 1 ] &&
	run_suite linux make --no-print-directory linux-test
echo "=== make test took $(( $(date +%s) - start )) s"
[ ${#failed_suites[@]} -gt 0 ] && echo "=== failed suites: ${failed_suites[*]}"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
