# SPDX-License-Identifier: GPL-2.0
# Developer tools (issue 8): make trace, make bench, make gdb-test.
# Included by the top Makefile.  QEMU boots the ELF directly under TCG
# (the reference; ACCEL=kvm to override), one QEMU at a time.

.PHONY: trace bench gdb-test

TRACE_DIR := $(BUILD)/trace
# The run to trace.  Until the torture test lands this is the RCU part of
# the default suite (the ring keeps each CPU's latest 8192 events, so the
# run should end in RCU activity); then it becomes just rcu_torture.
TRACE_TESTS ?= rcu_sync_basic,rcu_call_order,rcu_barrier_all,rcu_nested_readers,rcu_preempted_reader,rcu_irq_reader_on_idle_cpu,rcu_nmi_reader_on_idle_cpu
TRACE_CMDLINE ?= trace=on trace_readers=1 tests=$(TRACE_TESTS)

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
