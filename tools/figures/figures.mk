# SPDX-License-Identifier: GPL-2.0
# make figures: the pictures of docs/figures/, generated from the
# project's own data (tools/figures/: the C sources, host runs of the
# real rcu/ code, Spin runs and trails, two traced boots) into
# $(FIGURES_DIR)/*.svg; make docs-figures copies them to docs/figures/.
# Included by the top Makefile after tests/host/host.mk, whose host build
# settings the probe reuses.

FIGURES_DIR := $(BUILD)/figures
FIG_HOST := $(FIGURES_DIR)/host
# The host probe: the real rcu/ code with the host unit tests' shim and
# simulated machine (tools/figures/probe.c).
FIG_PROBE_SRC := tools/figures/probe.c tests/host/shim.c \
		 tests/host/rcupreempt/sim.c
FIG_PROBE_DEPS := $(FIG_PROBE_SRC) $(HOST_RCU_SRC) $(HOST_CT_SRC) \
		  $(HOST_HDRS)
# Its variants: the same program with a patch applied to a copy of
# rcu/rcupreempt/dynticks.c (never to the tree).
FIG_PATCH_qq2-quiz := tools/figures/qq2-quiz-order.patch
FIG_PATCH_qq2-swap := tools/figures/qq2-wrong-order.patch
FIG_PATCH_snap-parity := \
	tests/mutants/host/rcupreempt/waitack-tests-snap-parity.patch
FIG_PATCHES := $(FIG_PATCH_qq2-quiz) $(FIG_PATCH_qq2-swap) \
	       $(FIG_PATCH_snap-parity)

.PHONY: figures

# One line per picture; fails, naming the pictures, if a generator fails.
# The trace picture boots QEMU twice, one at a time, under nice -n 5.
figures: $(KERNEL)
	@tools/deps.sh graphviz python3 gcc patch spin qemu-system-x86
	@python3 -m tools.figures --out $(FIGURES_DIR) --cpus $(SMP) \
		--trace-cmdline "$(TRACE_CMDLINE)"

$(FIG_HOST)/probe: $(FIG_PROBE_DEPS)
	@mkdir -p $(@D)
	@$(HOST_CC) $(HOST_CFLAGS) $(HOST_CPPFLAGS) -o $@ $(FIG_PROBE_SRC) \
		$(HOST_RCU_SRC) $(HOST_CT_SRC)

# patch --forward: a patch the C already has fails rather than being
# reversed (tests/mutants/patch.py says why).
$(FIG_HOST)/probe-%: $(FIG_PROBE_DEPS) $(FIG_PATCHES)
	@[ -n "$(FIG_PATCH_$*)" ] || \
		{ echo "figures: no patch for probe-$*" >&2; exit 1; }
	@rm -rf $(FIG_HOST)/src-$*
	@mkdir -p $(FIG_HOST)/src-$*/rcu/rcupreempt
	@cp rcu/rcupreempt/dynticks.c $(FIG_HOST)/src-$*/rcu/rcupreempt/
	@patch -d $(FIG_HOST)/src-$* -p1 --forward --quiet --batch -r - \
		< $(FIG_PATCH_$*)
	@$(HOST_CC) $(HOST_CFLAGS) $(HOST_CPPFLAGS) -o $@ $(FIG_PROBE_SRC) \
		$(filter-out rcu/rcupreempt/dynticks.c,$(HOST_RCU_SRC)) \
		$(FIG_HOST)/src-$*/rcu/rcupreempt/dynticks.c $(HOST_CT_SRC)
