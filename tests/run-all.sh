#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make test: every suite of tests/suites.tsv; a suite that fails does not
# stop the others.
#
# The kernel scenarios measure time (ticks, timers, latencies), so they run
# in the foreground at normal priority.  What measures no time runs beside
# them at lower priority (nice): the host unit tests, the Spin models, the
# expected-failure scenarios, the mutants (each built, then booted) and
# the Linux build; the Linux boots follow that build.  The table says
# which suite is which, its nice level and what it waits for.
#
# Every suite ends with its own "N passed, N failed" line; the totals line
# adds them up.  Every 30 s a progress line names what is still running.
# The run ends with a table of each suite's start, end, wall and CPU time,
# and the critical path: the suite that ended last and what it waited for.  Output of the
# suites that run in the background is in build/test-logs/NAME.log; a
# failing one's is shown at the end.
#
# SKIP_LINUX=1 leaves out the Linux series (its build and boots).
# tests/run-all.sh --list checks the table and prints what would run,
# running nothing.  SUITES_TABLE=FILE reads another table.
set -u
cd "$(dirname "$0")/.." || exit 1

table=${SUITES_TABLE:-tests/suites.tsv}
list=0
case ${1:-} in
--list) list=1 ;;
'') ;;
*) echo "run-all.sh: unknown argument '$1' (expected nothing or --list)" >&2; exit 2 ;;
esac

# The table, checked whole before anything runs: T_NAME[i], T_WHEN[i], ...
T_NAME=() T_WHEN=() T_NICE=() T_NEEDS=() T_SKIP=() T_COUNT=() T_USUAL=() T_CMD=()
bad_row() { echo "run-all.sh: $table:$1: $2" >&2; exit 2; }
[ -r "$table" ] || { echo "run-all.sh: cannot read $table" >&2; exit 2; }
n=0
while IFS= read -r line || [ -n "$line" ]; do
	n=$((n + 1))
	case $line in '#'* | '') continue ;; esac
	IFS=$'\t' read -ra f <<<"$line"
	[ ${#f[@]} -eq 8 ] || bad_row $n "expected 8 tab-separated fields (name when nice needs skip count usual command), got ${#f[@]}: $line"
	name=${f[0]}
	[[ $name =~ ^[a-z0-9][a-z0-9-]*$ ]] || bad_row $n "suite name '$name': expected lower-case letters, digits and '-'"
	for o in "${T_NAME[@]}"; do
		[ "$o" = "$name" ] && bad_row $n "suite '$name' is listed twice"
	done
	case ${f[1]} in
	background | foreground) ;;
	after:*)
		dep=${f[1]#after:} found=0
		for i in "${!T_NAME[@]}"; do
			[ "${T_NAME[$i]}" = "$dep" ] && [ "${T_WHEN[$i]}" = background ] && found=1
		done
		[ $found = 1 ] || bad_row $n "suite '$name': when '${f[1]}': '$dep' is not a background suite listed above it"
		;;
	*) bad_row $n "suite '$name': when '${f[1]}': expected background, foreground or after:SUITE" ;;
	esac
	[[ ${f[2]} =~ ^([0-9]+|own)$ ]] && { [ "${f[2]}" = own ] || [ "${f[2]}" -le 19 ]; } ||
		bad_row $n "suite '$name': nice '${f[2]}': expected 0 to 19, or own"
	[[ ${f[4]} =~ ^(-|[A-Z_][A-Z0-9_]*)$ ]] ||
		bad_row $n "suite '$name': skip '${f[4]}': expected - or an environment variable's name"
	[[ ${f[5]} =~ ^(yes|no)$ ]] ||
		bad_row $n "suite '$name': count '${f[5]}': expected yes or no"
	[ "${f[7]}" != - ] || bad_row $n "suite '$name': no command"
	T_NAME+=("$name") T_WHEN+=("${f[1]}") T_NICE+=("${f[2]}")
	T_NEEDS+=("${f[3]}") T_SKIP+=("${f[4]}") T_COUNT+=("${f[5]}")
	T_USUAL+=("${f[6]}") T_CMD+=("${f[7]}")
done <"$table"
[ ${#T_NAME[@]} -gt 0 ] || { echo "run-all.sh: $table lists no suite" >&2; exit 2; }

# Why suite i does not run, or nothing.
left_out() {
	local i=$1 var=${T_SKIP[$1]}
	if [ "${T_NEEDS[$i]}" != - ] && [ ! -e "${T_NEEDS[$i]}" ]; then
		echo "no ${T_NEEDS[$i]}"
	elif [ "$var" != - ] && [ "${!var:-0}" = 1 ]; then
		echo "$var=1"
	fi
}

# Suite i's command as words: its globs and $(...) expanded, as bash would.
argv_of() {
	local i=$1
	argv=()
	case ${T_NICE[$i]} in
	own) argv=(own_session "${T_NAME[$i]}") ;;
	0) ;;
	*) argv=(nice -n "${T_NICE[$i]}") ;;
	esac
	eval "argv+=(${T_CMD[$i]})"
}

if [ $list = 1 ]; then
	for i in "${!T_NAME[@]}"; do
		why=$(left_out "$i")
		argv_of "$i"
		printf '%-14s %-20s %-8s %s\n' "${T_NAME[$i]}" "${T_WHEN[$i]}" \
			"$([ "${T_COUNT[$i]}" = yes ] && echo counted || echo prepares)" \
			"${why:+left out ($why): }${argv[*]}"
	done
	exit 0
fi

logs=build/test-logs
rm -rf "$logs"
mkdir -p "$logs"
start=$(date +%s)
suites=()

mmss() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }
elapsed() { mmss $(($(date +%s) - $1)); }

# The CPU seconds (user + system) that this subshell's finished children
# used: a suite's own cost, whatever else shared the cores with it.  Its
# descendants count when their parents waited for them (QEMU, gcc, pan).
cpu_times() {
	times >"$1.raw" # a builtin, redirected: it runs in this shell
	awk 'NR == 2 {
		split($1, u, /[ms]/); split($2, s, /[ms]/)
		printf "%d\n", u[1] * 60 + u[2] + s[1] * 60 + s[2] + 0.5 }' \
		"$1.raw" >"$1"
}

# own_session NAME CMD...: run CMD at nice 0 in a session of its own, and
# wait for it.  The scheduler groups tasks by session (autogroup) and
# shares the CPU between the groups, so such a suite gets half the cores
# however many threads the rest of make test runs; in the same group, a
# cold Linux build at nice 0 beside the kernel scenarios' vCPU threads
# compiled a file every 2 s.  The session's id is kept in NAME.sid, for
# stop_sessions (a session gets no signal from the terminal).
own_session() {
	local sid=$logs/$1.sid
	shift
	setsid -w bash -c 'echo $$ >"$1"; shift; exec "$@"' own "$sid" "$@"
}
# stop_sessions: end every own_session suite that has not finished.
stop_sessions() {
	local f
	for f in "$logs"/*.sid; do
		[ -f "$f" ] && [ ! -f "${f%.sid}.rc" ] &&
			kill -TERM -- -"$(cat "$f")" 2>/dev/null
	done
}

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
		cpu_times "$logs/$name.cpu"
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
	(
		"$@"
		rc=$?
		cpu_times "$logs/$name.cpu"
		exit $rc
	) 2>&1 | tee "$logs/$name.log"
	rc=${PIPESTATUS[0]}
	echo "$rc" >"$logs/$name.rc"
	date +%s >"$logs/$name.end"
}

wait_suite() {
	while [ ! -f "$logs/$1.rc" ]; do sleep 1; done
}

# How long a suite usually takes on 2 cores, from the table.
usual() {
	local i
	for i in "${!T_NAME[@]}"; do
		[ "${T_NAME[$i]}" = "$1" ] && echo "${T_USUAL[$i]}"
	done
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
trap 'kill $ticker_pid 2>/dev/null; stop_sessions' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Beside the timing tests: what measures no time.  Then the timing tests,
# one at a time.  After them, each "after" suite once what it waits for
# has finished.
for when in background foreground after; do
	fg_end=$(date +%s)
	for i in "${!T_NAME[@]}"; do
		[ "${T_WHEN[$i]%%:*}" = "$when" ] || continue
		[ -z "$(left_out "$i")" ] || continue
		argv_of "$i"
		case $when in
		background) bg_suite "${T_NAME[$i]}" "${argv[@]}" ;;
		foreground) fg_suite "${T_NAME[$i]}" "${argv[@]}" ;;
		after)
			dep=${T_WHEN[$i]#after:}
			# What it waits for was left out: so is it.
			[ -f "$logs/$dep.start" ] || continue
			wait_suite "$dep"
			# Which of its two waits ended last: the critical path.
			if [ "$(cat "$logs/$dep.end")" -ge "$fg_end" ]; then
				echo "$dep" >"$logs/${T_NAME[$i]}.waited"
			else
				echo "the foreground suites" >"$logs/${T_NAME[$i]}.waited"
			fi
			bg_suite "${T_NAME[$i]}" "${argv[@]}"
			;;
		esac
	done
done
for s in "${suites[@]}"; do wait_suite "$s"; done
kill $ticker_pid 2>/dev/null

# Totals.  A suite with count "no" only prepares another: what it builds
# is not counted as tests (the suite that uses it counts a broken one).
# The table: when each suite started and ended (from make test's start),
# its wall time, and the CPU time it used (on 2 cores, the sum of the CPU
# column is what no ordering can go below).
passed=0 failed=0 failed_suites=() last= last_end=0
printf '\n| suite | start | end | wall | CPU | result |\n'
printf '|---|---|---|---|---|---|\n'
for s in "${suites[@]}"; do
	rc=$(cat "$logs/$s.rc")
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$logs/$s.log" | tail -1)
	t0=$(($(cat "$logs/$s.start") - start)) t1=$(($(cat "$logs/$s.end") - start))
	cpu=$(cat "$logs/$s.cpu" 2>/dev/null || echo 0)
	printf '| %s | %s | %s | %s | %s | %s |\n' "$s" "$(mmss $t0)" \
		"$(mmss $t1)" "$(mmss $((t1 - t0)))" "$(mmss "$cpu")" \
		"${line:-no totals line} (exit $rc)"
	[ "$t1" -ge "$last_end" ] && last=$s last_end=$t1
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
	for i in "${!T_NAME[@]}"; do
		[ "${T_NAME[$i]}" = "$s" ] && [ "${T_COUNT[$i]}" = no ] && continue 2
	done
	passed=$((passed + p))
	failed=$((failed + f))
done
for s in "${failed_suites[@]}"; do
	echo
	echo "=== $s failed: the end of $logs/$s.log"
	tail -n 40 "$logs/$s.log"
done
# The critical path: the suite that ended last, and what it waited for.
waited=$(cat "$logs/$last.waited" 2>/dev/null)
echo
echo "=== critical path: $last ended last, at $(mmss "$last_end");" \
	"it started at $(mmss $(($(cat "$logs/$last.start") - start)))${waited:+, once $waited had ended}"
echo "=== make test took $(elapsed "$start")"
[ ${#failed_suites[@]} -gt 0 ] && echo "=== failed suites: ${failed_suites[*]}"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
