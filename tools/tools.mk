# SPDX-License-Identifier: GPL-2.0
# Developer tools (issue 8): make trace, make bench, make gdb-test,
# make docs-figures (make figures: tools/figures/figures.mk).
# Included by the top Makefile.  QEMU boots the ELF directly under TCG
# (the reference; ACCEL=kvm to override), one QEMU at a time.

.PHONY: trace bench gdb-test docs-figures

TRACE_DIR := $(BUILD)/trace
# The run to trace: a short torture run (rcu/torture.c), whose IRQ and
# NMI readers land on dynticks-idle CPUs.  The ring keeps each CPU's
# latest 8192 events, so the run is kept short; readers are sampled.
TRACE_TESTS ?= rcu_torture
TRACE_OPTS ?= torture_duration=3 torture_busy=1 torture_readers=2 \
	      trace_readers=16
TRACE_CMDLINE ?= trace=on tests=$(TRACE_TESTS) $(TRACE_OPTS)

# Boot with the trace on, then convert; everything goes under
# $(TRACE_DIR) (make docs-figures copies the SVG to docs/ for the README).
# A failed run still gets converted (its trace is the useful part), but
# make trace then fails.
trace: $(KERNEL)
	@mkdir -p $(TRACE_DIR)
	@python3 -m tools.boot --cpus $(SMP) --cmdline "$(TRACE_CMDLINE)" \
		--timeout 600 --log $(TRACE_DIR)/console.log; st=$$?; \
	python3 -m tools.trace2json $(TRACE_DIR)/console.log \
		--elf $(KERNEL) -o $(TRACE_DIR)/trace.json \
		--svg $(TRACE_DIR)/trace.svg --check || exit 1; \
	echo "trace: $(TRACE_DIR)/trace.json (open in ui.perfetto.dev)," \
		"$(TRACE_DIR)/trace.svg"; \
	exit $$st

# The gdb helpers (tools/gdb/dynrcu.py), checked in gdb batch mode against
# a live kernel; part of make test (tests/run-all.sh).
gdb-test: $(KERNEL)
	@python3 -m tools.gdb.test

# Benchmarks: one boot per CPU count (BENCH_CPUS), the table in
# $(BENCH_DIR)/benchmarks.md and the scaling curve in
# $(BENCH_DIR)/scaling.svg.  Never fails on performance, only on a failed
# boot.
BENCH_DIR := $(BUILD)/bench
BENCH_CPUS ?= 1,2,4,8
bench: $(KERNEL)
	@python3 -m tools.bench --cpus $(BENCH_CPUS)

# Side by side with Linux 6.12 (tools/bench_linux.py): linux/bench-build.sh
# builds 6.12 for the benchmark (linux/bench-fragment: HZ=1000, -O2, no
# torture test built in) with refscale and rcuscale (in its own worktree
# and output directory beside make test's Linux build, with ccache), then
# each CPU count gets BENCH_ROUNDS rounds, each a boot per dynrcu flavour
# and per Linux column (as shipped, tuned for latency), in ABBA order.
# The section goes to $(BENCH_DIR)/linux.md, which make docs-figures
# splices into docs/benchmarks.md.  Not part of make test.
BENCH_ROUNDS ?= 5
.PHONY: bench-linux
bench-linux: $(KERNEL)
	@python3 -m tools.bench_linux --cpus "$(BENCH_CPUS)" \
		--rounds "$(BENCH_ROUNDS)" --check-args
	@bash linux/bench-build.sh
	@python3 -m tools.bench_linux --cpus "$(BENCH_CPUS)" \
		--rounds "$(BENCH_ROUNDS)"

# What docs/ shows, refreshed from the last make trace, make bench, make
# bench-linux, make linux-test-all and make figures (nothing is run
# here).  A figure none has produced is left as it is, and named; with
# none at all the target fails.  Each entry:
# the target that writes the figure, the figure, its copy in docs/.  The
# pictures are every build/figures/*.svg (tools/figures/figures.mk), each
# copied to docs/figures/.
DOCS_FIGURES := trace:$(TRACE_DIR)/trace.svg:docs/trace.svg \
		bench:$(BENCH_DIR)/benchmarks.md:docs/benchmarks.md \
		bench:$(BENCH_DIR)/scaling.svg:docs/scaling.svg
# Sections spliced into a page between markers (tools/splice.py): the
# target that writes it (also the markers' name), the section, the page.
DOCS_SECTIONS := \
	bench-linux:$(BENCH_DIR)/linux.md:docs/benchmarks.md \
	linux-test-all:$(BUILD)/linux/comparison.md:docs/linux.md \
	linux-test-arm64:$(BUILD)/linux/comparison-arm64.md:docs/linux.md
DOCS_PICTURES = $(foreach f,$(notdir $(wildcard $(FIGURES_DIR)/*.svg)),\
		figures:$(FIGURES_DIR)/$(f):docs/figures/$(f))
docs-figures:
	@[ -n "$(strip $(DOCS_PICTURES))" ] || echo "docs-figures: no" \
		"$(FIGURES_DIR)/*.svg (make figures writes them):" \
		"docs/figures/ left as it is"
	@mkdir -p docs/figures $(BENCH_DIR)
	@# A page with a section (DOCS_SECTIONS) is saved first: a copied
	@# figure may replace the page (make bench's docs/benchmarks.md has
	@# no Linux section), and the section is then put back.
	@for sec in $(DOCS_SECTIONS); do \
		IFS=: read -r name src dst <<<"$$sec"; \
		cp "$$dst" "$(BENCH_DIR)/docs-old-$$(basename $$dst)"; \
	done
	@n=0; for fig in $(DOCS_FIGURES) $(DOCS_PICTURES); do \
		IFS=: read -r by src dst <<<"$$fig"; \
		if [ -f "$$src" ]; then \
			cp "$$src" "$$dst" && n=$$((n + 1)) && \
			echo "docs-figures: $$src -> $$dst"; \
		else \
			echo "docs-figures: no $$src (make $$by writes it):" \
				"$$dst left as it is"; \
		fi; \
	done; \
	for sec in $(DOCS_SECTIONS); do \
		IFS=: read -r name src dst <<<"$$sec"; \
		if [ -f "$$src" ]; then \
			python3 -m tools.splice "$$name" --splice "$$src" \
				"$$dst" || exit 1; \
			n=$$((n + 1)); \
			echo "docs-figures: $$src -> $$dst"; \
		else \
			echo "docs-figures: no $$src (make $$name writes" \
				"it): its section of $$dst kept"; \
			python3 -m tools.splice "$$name" --keep \
				"$(BENCH_DIR)/docs-old-$$(basename $$dst)" \
				"$$dst" || exit 1; \
		fi; \
	done; \
	[ $$n -gt 0 ] || { echo "docs-figures: nothing to copy: run make" \
		"trace, make bench, make bench-linux, make linux-test-all" \
		"or make figures" \
		"first" >&2; exit 1; }

# make test with both cores kept busy by TCG torture boots (tools/load.sh):
# the timing checks must hold on a loaded host, not only on a quiet one.
.PHONY: test-under-load
test-under-load: deps-run
	tools/load.sh
