# SPDX-License-Identifier: GPL-2.0
"""data-structures-2008.svg: the structs of the 2008 design (rcu=
rcupreempt), drawn from their definitions by data_structures.py; what
each field is for, who writes it and under what is docs/
data-structures-2008.md."""

from tools.figures.data_structures import draw

DESIGN = dict(
    svg="data-structures-2008.svg",
    title="rcu=rcupreempt: the 2008 design's data structures",
    sub="read from the struct definitions; blue header: one per CPU, "
    "orange: global",
    externs=["rcu/rcupreempt/rcupreempt.h"],
    structs=[
        ("rcu/rcupreempt/rcupreempt.h", "rcu_ctrlblk", None, None),
        ("rcu/rcupreempt/rcupreempt.h", "rcu_data", None, None),
        # A task's 2008 read-side state.
        ("kernel/sched.h", "task", ("rcu_read_lock_nesting",
                                    "rcu_flipctr_idx"),
         "one per task"),
    ])


def make(ctx):
    return draw(ctx, DESIGN)
