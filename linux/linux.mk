# dynrcu: make rules for the companion Linux patch series (issue 7).
# Included by the top-level Makefile; standalone: make -f linux/linux.mk linux-test
LINUX_MK_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))

.PHONY: linux-test linux-test-all linux-test-arm64 linux-hunt linux-stock-check \
	linux-tool-mutants
# Extract Debian's linux-source-6.12 outside the repository (cached in
# $DYNRCU_LINUX_DIR, default /var/tmp/dynrcu-linux), git am the series,
# checkpatch it, build tinyconfig + fragment + scenario EQS01 with ccache,
# boot EQS01 and two mutants under QEMU with 4 CPUs, and judge the consoles.
linux-test:
	bash $(LINUX_MK_DIR)/linux-test.sh

# Everything: linux-test plus every scenario of the series
# (linux/scenarios/CFLIST: nohz_full, hotplug, FQS timing, PREEMPT_NONE
# with strict grace periods; a second build for the last), every mutant
# with five boots each under the series' readers and five under stock
# rcutorture (the comparison table, in $DYNRCU_LINUX_DIR/out/comparison.md),
# 30 s tests, the 32-bit (i386) compile test of the series' C files and
# the kernel built at each commit of the series (each patch on its own),
# both patch by patch in checkouts of their own.  Then the same on arm64
# (linux-test-arm64), without the i386 test.
# Both halves run; the target fails if either does.
LINUX_TEST_ALL_ENV := DYNRCU_LINUX_MUTANT_BOOTS=5 DYNRCU_LINUX_MUTANTS=all \
	DYNRCU_LINUX_EACH_PATCH=1 \
	DYNRCU_LINUX_SCENARIOS=all DYNRCU_LINUX_STOCK=1 \
	DYNRCU_LINUX_MUTANT_DURATION=30
linux-test-all:
	DYNRCU_LINUX_I386=1 $(LINUX_TEST_ALL_ENV) bash $(LINUX_MK_DIR)/linux-test.sh; \
	x86=$$?; \
	DYNRCU_LINUX_ARCH=arm64 $(LINUX_TEST_ALL_ENV) bash $(LINUX_MK_DIR)/linux-test.sh; \
	arm64=$$?; \
	echo "linux-test-all: x86_64 exit $$x86, arm64 exit $$arm64"; \
	[ $$x86 = 0 ] && [ $$arm64 = 0 ]

# The arm64 half alone: Debian's gcc-aarch64-linux-gnu cross-builds the
# series in its own tree ($$DYNRCU_LINUX_DIR/arm64), and
# qemu-system-aarch64 -M virt,gic-version=3 boots it with pseudo-NMIs on
# (TCG).  Never part of make test: a cold arm64 build is a second kernel.
linux-test-arm64:
	DYNRCU_LINUX_ARCH=arm64 $(LINUX_TEST_ALL_ENV) bash $(LINUX_MK_DIR)/linux-test.sh

# The hunt: the series' readers for HUNT_MINUTES of boot time (builds not
# counted), one configuration of linux/hunt/CFLIST after another, the one
# with the fewest guest minutes first (HUNT_CONFIGS=A,B: only those;
# HUNT_CHUNK: guest minutes a boot, default 10).  Resumable: the totals
# are in $DYNRCU_LINUX_DIR/hunt/state.json; each boot adds a row to
# docs/records/linux-hunt.md.
linux-hunt:
	@test -n "$(HUNT_MINUTES)" || { echo "linux-hunt: set HUNT_MINUTES, the minutes of boot time to spend (make linux-hunt HUNT_MINUTES=10)" >&2; exit 2; }
	python3 $(LINUX_MK_DIR)/hunt.py --minutes $(HUNT_MINUTES) \
		$(if $(HUNT_CONFIGS),--configs $(HUNT_CONFIGS)) \
		$(if $(HUNT_CHUNK),--chunk $(HUNT_CHUNK))

# Is a hunt configuration's console line Debian's 6.12.118's own, and does
# a candidate fix remove it?  linux/stock-check.sh builds the tree without
# the series, with STOCK_CONFIG's .config from the hunt's build and the
# patches of STOCK_PATCHES (none: stock), and boots it STOCK_BOOTS times
# (default 2), counting the consoles that match STOCK_PATTERN.
linux-stock-check:
	@test -n "$(STOCK_CONFIG)" -a -n "$(STOCK_PATTERN)" || { echo "linux-stock-check: set STOCK_CONFIG (a configuration of linux/hunt/CFLIST) and STOCK_PATTERN (an extended regular expression); STOCK_PATCHES, STOCK_BOOTS and STOCK_PARAMS are optional" >&2; exit 2; }
	DYNRCU_STOCK_BOOTS=$(or $(STOCK_BOOTS),2) \
		DYNRCU_STOCK_PARAMS="$(STOCK_PARAMS)" \
		bash $(LINUX_MK_DIR)/stock-check.sh \
		"$(STOCK_CONFIG)" "$(STOCK_PATTERN)" $(STOCK_PATCHES)

# Validate the tooling's own tests: each patch of linux/tool-mutants/
# (bugs a helper wrote into hunt.py, linux-test.sh, stock-check.sh and
# judge-console.py without reading the tests), applied to a copy of
# linux/, must make linux/test_hunt.py or linux/test_judge.py fail.
# Builds and boots nothing; about 10 s a mutant.
linux-tool-mutants:
	python3 $(LINUX_MK_DIR)/tool-mutants/run.py
