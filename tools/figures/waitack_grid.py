# SPDX-License-Identifier: GPL-2.0
"""waitack-grid.svg: what rcu_try_flip_waitack_needed() and
rcu_try_flip_waitmb_needed() decide for each (snapshot, current) pair of
dynticks_progress_counter values, fixed and busted.  Every cell is a
call of the real function (the host probe, probe.c grid): "fixed" is
rcu/rcupreempt/dynticks.c as it is, "busted" the same file with the host
mutant waitack-tests-snap-parity.patch applied to a copy, which puts back
the article's original test of snap's parity.  Under each grid, the
function's excuse tests as read from the file that ran."""

import os

from tools.figures import svg
from tools.figures.common import FigureError, probe, read_source
from tools.figures.flip_machine import DYN, excuses

BUSTED = "snap-parity"
FUNCS = [("waitack", "rcu_try_flip_waitack_needed"),
         ("waitmb", "rcu_try_flip_waitmb_needed")]
CELL_W, CELL_H = 40, 28


def grid(rows, key):
    return {(r["snap"], r["curr"]): r[key] for r in rows}


def draw(c, x, y, title, cells, other, snaps, currs, tests):
    """One grid at (x, y); cells that differ from `other` are outlined."""
    c.text(x, y, title, size=12, weight="bold")
    y += 26
    gx = x + 64
    c.text(gx + len(currs) * CELL_W / 2, y - 8, "curr (dynticks_progress_"
           "counter now)", size=10, anchor="middle", fill=svg.GREY)
    for j, cu in enumerate(currs):
        c.text(gx + j * CELL_W + CELL_W / 2, y + 8, cu, size=11,
               anchor="middle")
    y += 14
    c.text(x, y - 2, "snap", size=10, fill=svg.GREY)
    diffs = 0
    for i, sn in enumerate(snaps):
        c.text(gx - 10, y + i * CELL_H + 19, sn, size=11, anchor="end")
        for j, cu in enumerate(currs):
            cx, cy = gx + j * CELL_W, y + i * CELL_H
            if cu < sn:
                c.rect(cx, cy, CELL_W, CELL_H, fill=svg.LIGHT,
                       stroke="white", tip="impossible: the counter only "
                       "grows")
                continue
            v = cells[(sn, cu)]
            c.rect(cx, cy, CELL_W, CELL_H,
                   fill=svg.WAIT if v else svg.EXCUSED, stroke="white",
                   tip="snap %d curr %d: %s" % (
                       sn, cu, "wait for the CPU" if v else "excused"))
            c.text(cx + CELL_W / 2, cy + 18, "wait" if v else "ok",
                   size=10, anchor="middle")
            if other is not None and other[(sn, cu)] != v:
                diffs += 1
                c.rect(cx + 1.5, cy + 1.5, CELL_W - 3, CELL_H - 3,
                       stroke=svg.BAD, sw=2.5)
    y += len(snaps) * CELL_H + 18
    c.text(x, y, "excused (returns 0) if:", size=10, fill=svg.GREY)
    for t in tests:
        y += 15
        c.text(x + 10, y, t, size=10, mono=True)
    return diffs


def make(ctx):
    fixed = probe(ctx.out, None, "grid")
    busted = probe(ctx.out, BUSTED, "grid")
    # The busted probe's copy of dynticks.c (make applied the patch).
    srcs = {"fixed": read_source(DYN),
            "busted": read_source(os.path.join(ctx.out, "host", "src-" +
                                               BUSTED, DYN))}
    snaps = sorted({r["snap"] for r in fixed})
    currs = sorted({r["curr"] for r in fixed})
    if [(r["snap"], r["curr"]) for r in fixed] != \
            [(r["snap"], r["curr"]) for r in busted]:
        raise FigureError("the two probes computed different grids")
    W = 2 * (64 + len(currs) * CELL_W) + 140
    c = svg.Canvas(W, 10, "Does the flip machine wait for a CPU?  Every "
                   "(snap, curr) pair, computed by the real functions")
    c.text(12, 42, "snap: rcu_dyntick_snapshot, taken when the state "
           "began; curr: the counter when the machine looks.  Odd: the CPU "
           "may be in a reader; even: dynticks-idle.", size=11)
    c.text(12, 58, "busted: dynticks.c with tests/mutants/host/rcupreempt/"
           "waitack-tests-snap-parity.patch applied to a copy: the "
           "article's (snap & 0x1) == 0.", size=11)
    c.text(12, 74, "Red outline: a decision the fix changed.  waitmb's "
           "code is the same in both.", size=11)
    y = 106
    total = {}
    # Both probes ran every pair; those with curr < snap cannot happen.
    for key, fn in FUNCS:
        f, b = grid(fixed, key), grid(busted, key)
        tests = {k: excuses(src, fn)[0] for k, src in srcs.items()}
        h = 0
        for k, (name, cells, other) in enumerate([
                ("fixed", f, None), ("busted", b, f)]):
            x = 12 + k * (64 + len(currs) * CELL_W + 110)
            d = draw(c, x, y, "%s(), %s" % (fn, name), cells, other, snaps,
                     currs, tests[name])
            total[(key, name)] = d
            h = max(h, 26 + 14 + len(snaps) * CELL_H + 18 +
                    15 * len(tests[name]))
        y += h + 40
    if total[("waitack", "busted")] == 0:
        raise FigureError("busted and fixed waitack agree everywhere")
    c.legend(12, y - 12, [(svg.WAIT, "wait for the CPU (ack or mb)"),
                          (svg.EXCUSED, "excused"),
                          (svg.LIGHT, "impossible (curr < snap)")])
    fa, ba = grid(fixed, "waitack"), grid(busted, "waitack")
    for what, pairs in (
            ("busted waits where fixed excuses (the CPU went idle after the "
             "snapshot; the article's liveness trail is snap 5, curr 6)",
             [p for p in sorted(fa) if p[1] >= p[0] and ba[p] and
              not fa[p]]),
            ("busted excuses where fixed waits (the CPU was idle at the "
             "snapshot and runs now)",
             [p for p in sorted(fa) if p[1] >= p[0] and fa[p] and
              not ba[p]])):
        if pairs:
            y += 17
            c.text(12, y, "%s: %s" % (what, " ".join(
                "(%d,%d)" % p for p in pairs)), size=11)
    c.h = y + 14
    c.save(ctx.path("waitack-grid.svg"))
    return "%dx%d cells x 4 grids; busted differs in %d waitack, %d " \
        "waitmb cells" % (len(snaps), len(currs),
                          total[("waitack", "busted")],
                          total[("waitmb", "busted")])
