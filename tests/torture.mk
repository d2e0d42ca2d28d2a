# SPDX-License-Identifier: GPL-2.0
# RCU torture runs (rcu/torture.c, docs/torture.md).
#   make torture: the short torture scenarios (about 20 s each; make test
#                 runs them too, with the rest of tests/scenarios/)
#   make soak:    30 minutes per scenario in tests/soak/, then the totals:
#                 GPs, readers by context, IRQ/NMI readers on idle CPUs,
#                 errors (tests/torture_totals.py)

TORTURE_SCN := $(wildcard tests/scenarios/torture-*.scn)
SOAK_SCN := $(wildcard tests/soak/*.scn)

.PHONY: torture soak

torture: deps-run
	@$(MAKE) --no-print-directory iso
	python3 tests/harness.py $(TORTURE_SCN)
	@python3 tests/torture_totals.py \
		$(patsubst tests/scenarios/%.scn,$(BUILD)/logs/%.log,$(TORTURE_SCN)) || true

# A scenario that needs another accelerator is skipped (no log): the
# totals report it as "no log".
soak: deps-run
	@$(MAKE) --no-print-directory iso
	python3 tests/harness.py $(SOAK_SCN); rc=$$?; \
	python3 tests/torture_totals.py \
		$(patsubst tests/soak/%.scn,$(BUILD)/logs/%.log,$(SOAK_SCN)); \
	exit $$rc
