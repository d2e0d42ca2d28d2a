# Spin model checking of the dynticks/preemptable-RCU interface.
# Included by the top-level Makefile; runs from the repository root.
# Build products go under build/spin/.  See docs/spin.md.

SPIN_RUNNER := tests.spin.run

.PHONY: verify verify-big verify-unbounded

# The article's seven models, the weak-memory and atomic-counter
# models, and every mutant; then the models tools/extract makes from
# rcu/*.c (tests/spin/extract.py); at most 90 s on two cores.
verify:
	python3 -m $(SPIN_RUNNER) verify

# Model 7 exhaustively at the article's bounds (3,3,3).
verify-big:
	python3 -m $(SPIN_RUNNER) big

# Model 7 for any number of idle transitions, interrupts and NMIs (the
# counter abstraction), its mutants, and the abstraction's validation
# against the concrete model at (1,1,1), (2,2,2), (3,3,3).  Pass
# SPIN_UNBOUNDED_ARGS=--cube to validate at all 27 bounds up to (3,3,3).
verify-unbounded:
	python3 -m tests.spin.unbounded $(SPIN_UNBOUNDED_ARGS)
