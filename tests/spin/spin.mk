# Spin model checking of the dynticks/preemptable-RCU interface.
# Included by the top-level Makefile; runs from the repository root.
# Build products go under build/spin/.  See docs/spin.md.

SPIN_RUNNER := tests.spin.run

.PHONY: verify verify-big verify-unbounded

# The article's seven models, the weak-memory and atomic-counter
# models, the reduced, abstract and tree models at small bounds, and the
# mutants of all but the last two (theirs run in verify-unbounded); then
# the models tools/extract makes from rcu/*.c (tests/spin/extract.py);
# then the drift check of the hand models against the extracted C
# (tests/spin/drift.py); last the self-tests.  At most 90 s on two cores.
verify:
	python3 -m $(SPIN_RUNNER) verify

# Model 7 exhaustively at (3,3,3), the scale of the article's count.
verify-big:
	python3 -m $(SPIN_RUNNER) big

# Model 7 for any number of idle transitions, interrupts (nested to any
# depth) and NMIs (the counter and depth abstraction); the tree protocol
# with interrupts nested up to 3 deep, under dynrcu's and Linux 6.12's
# tick rules; their mutants, liveness ones included, and must-pass
# variants; the abstraction's validation against the concrete model at
# (1,1,1), (2,2,2), (3,3,3).  Pass
# SPIN_UNBOUNDED_ARGS=--cube to validate at all 27 bounds up to (3,3,3).
verify-unbounded:
	python3 -m tests.spin.unbounded $(SPIN_UNBOUNDED_ARGS)
