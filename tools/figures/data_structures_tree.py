# SPDX-License-Identifier: GPL-2.0
"""data-structures-tree.svg: the structs of the tree design (rcu=tree,
as Linux 6.12 has them), drawn from their definitions by
data_structures.py; what each field is for, who writes it and under
what is docs/data-structures-tree.md."""

from tools.figures.data_structures import draw

DESIGN = dict(
    svg="data-structures-tree.svg",
    title="rcu=tree: the Linux-6.12-style design's data structures",
    sub="read from the struct definitions; blue header: one per CPU, "
    "orange: global, grey: reached through pointers or inside another",
    externs=["rcu/tree/tree.h", "rcu/tree/context_tracking.h"],
    structs=[
        ("rcu/tree/tree.h", "rcu_state", None, None),
        ("rcu/tree/tree.h", "rcu_node", None, None),
        ("rcu/tree/tree.h", "rcu_tree_data", None, None),
        ("rcu/tree/rcu_segcblist.h", "rcu_segcblist", None, None),
        ("rcu/tree/context_tracking.h", "context_tracking", None, None),
        # A task's tree read-side state.
        ("kernel/sched.h", "task", ("rcu_read_lock_nesting",
                                    "rcu_read_unlock_special",
                                    "rcu_node_entry", "rcu_blocked_node",
                                    "rcu_blocks_gp", "rcu_blocks_exp"),
         "one per task"),
    ])


def make(ctx):
    return draw(ctx, DESIGN)
