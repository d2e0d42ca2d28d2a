# SPDX-License-Identifier: GPL-2.0
# Developer tools (issue 8): make trace, make bench, make gdb-test.
# Included by the top Makefile.  QEMU boots the ELF directly under TCG
# (the reference; ACCEL=kvm to override), one QEMU at a time.

.PHONY: trace bench gdb-test

TRACE_DIR := $(BUILD)/trace
# The run to trace: a short torture run (rcu/torture.c), whose IRQ and
# NMI readers land on dynticks-idle CPUs.  The ring keeps each CPU's
# latest 8192 events, so the run is kept short; readers are sampled.
TRACE_TESTS ?= rcu_torture
TRACE_OPTS ?= torture_duration=3 torture_busy=1 torture_readers=2 \
	      trace_readers=16
TRACE_CMDLINE ?= trace=on tests=$(TRACE_TESTS) $(TRACE_OPTS)

# Boot with the trace on, then convert; the SVG also goes to docs/ for the
# README.  A failed run still gets converted (its trace is the useful
# part), but make trace then fails.
trace: $(KERNEL)
	@mkdir -p $(TRACE_DIR)
	@python3 tools/boot.py --cpus $(SMP) --cmdline "$(TRACE_CMDLINE)" \
		--timeout 600 --log $(TRACE_DIR)/console.log; st=$$?; \
	python3 tools/trace2json.py $(TRACE_DIR)/console.log \
		--elf $(KERNEL) -o $(TRACE_DIR)/trace.json \
		--svg $(TRACE_DIR)/trace.svg --check || exit 1; \
	cp $(TRACE_DIR)/trace.svg docs/trace.svg; \
	echo "trace: $(TRACE_DIR)/trace.json (open in ui.perfetto.dev)," \
		"$(TRACE_DIR)/trace.svg, docs/trace.svg"; \
	exit $$st

# The gdb helpers (tools/gdb/dynrcu.py), checked in gdb batch mode against
# a live kernel; part of make test (tests/run-all.sh).
gdb-test: $(KERNEL)
	@python3 tools/gdb/test.py

# Benchmarks: one boot per CPU count (BENCH_CPUS), table to
# docs/benchmarks.md.  Never fails on performance, only on a failed boot.
BENCH_CPUS ?= 1,2,4,8
bench: $(KERNEL)
	@python3 tools/bench.py --cpus $(BENCH_CPUS)
