#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make test-under-load: make test while both cores are kept busy by TCG
# boots of the torture test (the kind of load a shared CI host adds).
# Usage: tools/load.sh [-j WORKERS] [COMMAND...]
#   WORKERS  load boots at a time (default: the number of cores)
#   COMMAND  what runs under the load (default: make test)
# The load's consoles are thrown away; its boots are not judged.  Ends
# with COMMAND's status and the load averages seen during the run.
set -u
cd "$(dirname "$0")/.." || exit 1
workers=$(nproc)
if [ "${1:-}" = -j ]; then
	workers=${2:-}
	shift 2 || { echo "load.sh: -j needs a number" >&2; exit 2; }
fi
case $workers in
'' | *[!0-9]*) echo "load.sh: WORKERS must be a whole number, got '$workers'" >&2
	exit 2 ;;
esac
[ $# -gt 0 ] || set -- make --no-print-directory test
make --no-print-directory iso || exit 1
mkdir -p build/load
cp build/kernel.elf build/load/kernel.elf	# make test may relink
pids=()
stop() { for p in "${pids[@]}"; do kill -- -"$p" 2>/dev/null; done; }
trap stop EXIT
for ((i = 0; i < workers; i++)); do
	setsid bash -c '
		while :; do
			timeout 120 qemu-system-x86_64 -accel tcg -cpu max \
				-m 256M -smp 4 -display none -no-reboot \
				-serial null -monitor none \
				-device isa-debug-exit,iobase=0xf4,iosize=0x04 \
				-kernel build/load/kernel.elf \
				-append "tests=rcu_torture torture_duration=20 panic_on_warn=0" \
				>/dev/null 2>&1
		done' &
	pids+=($!)
done
echo "load: $workers TCG torture boots running beside: $*"
setsid bash -c 'while sleep 30; do cut -d" " -f1 /proc/loadavg; done' \
	>build/load/loadavg &
pids+=($!)
"$@"
rc=$?
echo "load: 1-minute load averages during the run: $(tr '\n' ' ' <build/load/loadavg)"
exit $rc
