# SPDX-License-Identifier: GPL-2.0
# RCU torture runs (rcu/torture.c, docs/torture.md).
#   make torture: the short torture scenarios (about 20 s each; make test
#                 runs them too, with the rest of tests/scenarios/)
#   make soak:    30 minutes per scenario in tests/soak/, through GNU
#                 parallel on HOSTS, then the merged totals: GPs, readers
#                 by context, IRQ/NMI readers on idle CPUs, errors
#                 (tools/soak.sh, tests/torture_totals.py)

TORTURE_SCN := $(wildcard tests/scenarios/torture-*.scn)
SOAK_SCN := $(wildcard tests/soak/*.scn)

.PHONY: torture soak

torture: deps-run
	@$(MAKE) $(JOBS) --no-print-directory iso
	python3 -m tests.harness $(TORTURE_SCN)
	@python3 -m tests.torture_totals \
		$(patsubst tests/scenarios/%.scn,$(BUILD)/logs/%.log,$(TORTURE_SCN)) || true

# GNU parallel fans the runs out over HOSTS (default "1/:", this machine,
# one at a time) and the totals are merged from every host's logs:
#   make soak HOSTS=: SOAK=torture-soak-2cpu,torture-soak-4cpu SOAK_DURATION=20
# (tools/soak.sh, docs/soak.md).  A scenario that needs another accelerator
# is skipped by the harness and reported by the totals as unfinished.
soak: deps-run
	@tools/deps.sh parallel
	@$(MAKE) $(JOBS) --no-print-directory iso
	tools/soak.sh
