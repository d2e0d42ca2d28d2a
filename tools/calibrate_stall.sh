#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boot a kernel while the host stalls QEMU over and over (SIGSTOP for
# STOP_MS, then SIGCONT for RUN_MS), the way a loaded host deschedules a
# vCPU, and print what the PIT calibration made of it: a stall of 55 ms
# or more wraps PIT channel 2 inside a window.
# Usage: tools/calibrate_stall.sh [KERNEL] [STOP_MS] [RUN_MS]
#   defaults: build/kernel.elf, 60, 4 (every window a stall can wrap)
set -u
kernel=${1:-build/kernel.elf}
stop_ms=${2:-60}
run_ms=${3:-4}
[ -f "$kernel" ] || { echo "calibrate_stall.sh: no kernel '$kernel'" >&2; exit 2; }
for v in "$stop_ms" "$run_ms"; do
	case $v in '' | *[!0-9]*)
		echo "calibrate_stall.sh: STOP_MS and RUN_MS are whole milliseconds, got '$v'" >&2
		exit 2 ;;
	esac
done
out=$(mktemp)
trap 'rm -f "$out"' EXIT
qemu-system-x86_64 -accel tcg -cpu max -m 256M -smp 1 \
	-display none -no-reboot -serial stdio -monitor none \
	-device isa-debug-exit,iobase=0xf4,iosize=0x04 -kernel "$kernel" \
	-append "tests=lapic_timer_calibration" >"$out" 2>&1 &
q=$!		# QEMU itself: a SIGSTOP stops its every thread
# Stall it until the calibration has printed its verdict (or 30 s).
for ((i = 0; i < 30000 / (stop_ms + run_ms + 1); i++)); do
	grep -qa "calibrate: LAPIC\|Kernel panic" "$out" && break
	kill -STOP $q 2>/dev/null || break
	sleep "$(printf '0.%03d' "$stop_ms")"
	kill -CONT $q 2>/dev/null || break
	sleep "$(printf '0.%03d' "$run_ms")"
done
kill -CONT $q 2>/dev/null
# The verdict is in (or never came): QEMU has nothing more to say.
for ((i = 0; i < 100; i++)); do
	grep -qa "calibrate: LAPIC\|Kernel panic" "$out" && break
	sleep 0.1
done
kill $q 2>/dev/null
wait $q 2>/dev/null
grep -a "calibrate\|Kernel panic" "$out" | tr -d '\r'
grep -qa "calibrate: LAPIC" "$out"
