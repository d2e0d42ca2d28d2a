# SPDX-License-Identifier: GPL-2.0
"""The pictures of docs/figures/, generated from the project's own data
by "make figures" (python3 -m tools.figures): one module per picture,
each with make(ctx), which writes ctx.path(NAME.svg) and returns a
one-line summary; svg.py draws, common.py reads sources and runs the
host probe and Spin."""

# The pictures, in the order make figures builds them: file, module.
FIGURES = [
    ("flip-machine.svg", "flip_machine"),
    ("dynticks-timeline.svg", "dynticks_timeline"),
    ("waitack-grid.svg", "waitack_grid"),
    ("seed-patch-litmus.svg", "seed_litmus"),
    ("model-states.svg", "model_states"),
    ("trace-side-by-side.svg", "trace_side_by_side"),
    ("ct-state-word.svg", "ct_state_word"),
    ("data-structures-2008.svg", "data_structures_2008"),
    ("data-structures-tree.svg", "data_structures_tree"),
]

# The pictures that differ from run to run, which the freshness check
# (fresh.py) cannot compare, and why.  Every other picture is a pure
# function of the tree (and of Debian 12's graphviz and Spin): make
# figures draws it byte for byte the same, so a committed copy that
# differs is stale.  model-states.svg is among those: its Spin runs are
# exhaustive searches, whose state counts do not vary, about 20 s cold.
NOT_DETERMINISTIC = {
    "trace-side-by-side.svg": "two traced QEMU boots, whose timing and "
    "interleaving differ from run to run",
}
