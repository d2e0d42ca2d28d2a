# SPDX-License-Identifier: GPL-2.0
"""seed-patch-litmus.svg: the two barrier placements the seed patch
fixed, each drawn as a two-CPU litmus test from the counterexample that
Spin finds in the weak-memory model (tests/spin/dyntickRCU-wmm.spin):
pre-patch rcu_exit_nohz() (mb before the increment) under x86-TSO, and
pre-patch rcu_enter_nohz() (mb after the increment) under TSO plus load
buffering.  The checks are make verify's own (tests/spin/checks.py), run
in build/figures/spin; the events are the trail's (spin -t), from the
reader's last rcu_exit_nohz() before the grace period starts to the
failed assertion.  Arrows: reads-from (solid: the load sees that store)
and from-reads (dashed: the load missed that store, which came later)."""

import os
import re

from tests.spin.checks import CHECKS, WMM_STEPS
from tools.figures import svg
from tools.figures.common import FigureError, spin_checks, spin_trail

SHAPES = [("W TSO, pre-patch exit", "store buffering"),
          ("W TSO+LB, pre-patch enter", "load buffering")]
COLS = [("dyntick_nohz", "reader CPU: dyntick_nohz()"),
        ("memory_system", "reader CPU's memory system"),
        ("grace_period", "updater CPU: grace_period()")]
SHARED = ("dynticks_progress_counter", "removed", "freed")
STEP_RE = re.compile(r"^\s*(\d+):\s+proc\s+\d+ \((\w+):\d+\) \S+:(\d+) "
                     r"\(state \d+\)\s+\[(.*)\]$")
ROW, BOX_W = 24, 300


def sections(model_text):
    """{line: section}: the nearest section comment above each line."""
    out, cur = {}, ""
    for n, line in enumerate(model_text.splitlines(), 1):
        m = re.search(r"/\* (rcu_\w+\(\)|An RCU read-side critical "
                      r"section)", line)
        if m:
            cur = m.group(1).replace("An RCU read-side critical section",
                                     "critical section")
        out[n] = cur
    return out


def events(trail):
    """[(step, proc, line, stmt, {var: value})], the trail's steps that
    WMM_STEPS selects (one per statement), and the failed assertion."""
    want = re.compile(WMM_STEPS)
    out, cur, failed = [], None, None
    for line in trail.splitlines():
        m = STEP_RE.match(line)
        if m:
            step, proc, ln, stmt = m.groups()
            if cur and cur[0] == step and cur[3] == stmt:
                continue
            cur = [step, proc, int(ln), stmt, {}]
            if want.search(stmt):
                out.append(cur)
            continue
        m = re.match(r"^\s+(?:\w+\(\d+\):)?(\w+) = (\d+)$", line)
        if m and cur:
            cur[4][m.group(1)] = int(m.group(2))
        if "text of failed assertion" in line:
            failed = line.split(":", 2)[-1].strip()
    if not failed:
        raise FigureError("the trail ends in no failed assertion")
    return out, failed


def describe(proc, stmt, vals):
    """What an event does, in words; and (var, 'load'|'store', value)."""
    m = re.match(r"(\w+) = (\w+)$", stmt)
    if "sb_full" in stmt:
        return "mb(): waits for an empty store buffer, no pending load", None
    if stmt.startswith("sb_val"):
        return "++counter: %d into the store buffer" % vals.get(
            "sb_val", 0), None
    if stmt == "tmp = sb_val":
        return "load counter: %d (its own buffered store)" % vals.get(
            "tmp", 0), None
    if re.match(r"pend_(\w+) = 1", stmt):
        v = stmt[5:].split()[0]
        return "load %s: issued, not yet satisfied" % v, None
    if m:
        dst, src = m.groups()
        if src in SHARED and dst != src:
            v = vals.get(dst, 0)
            what = {"tmp": "load counter", "snap": "snap = counter",
                    "curr": "curr = counter"}.get(dst, "load %s" % src)
            if proc == "memory_system":
                what = "deferred " + what + " satisfied"
            if dst in ("snap", "curr"):
                what += ": %d (%s)" % (v, "odd" if v & 1 else "even: idle")
                return what, (src, "load", v)
            return "%s: %d" % (what, v), (src, "load", v)
        if dst in SHARED:
            v = vals.get(dst, int(src) if src.isdigit() else 0)
            if proc == "memory_system":
                return "buffer drains: counter = %d in memory" % v, \
                    (dst, "store", v)
            return "%s = %d" % (dst, v), (dst, "store", v)
    return stmt, None


def window(evs, secs):
    """From the reader's last rcu_exit_nohz() before the updater starts."""
    first_gp = next((i for i, e in enumerate(evs)
                     if e[1] == "grace_period"), None)
    if first_gp is None:
        raise FigureError("the trail has no grace_period() step")
    start, prev = 0, None
    for i in range(first_gp):
        if evs[i][1] != "dyntick_nohz":
            continue
        sec = secs.get(evs[i][2])
        if sec == "rcu_exit_nohz()" and prev != sec:
            start = i
        prev = sec
    return evs[start:]


def side(col):
    return "reader" if col < 2 else "updater"


def edges(rows):
    """Reads-from and from-reads between the two CPUs: [(i, j, kind)].
    One from-read per store (the last load that missed it), one
    reads-from per store (the first load that saw it)."""
    out = []
    for j, (col, _, acc, _) in enumerate(rows):
        if not acc or acc[1] != "store":
            continue
        var, _, val = acc
        loads = [(i, r) for i, r in enumerate(rows)
                 if r[2] and r[2][0] == var and r[2][1] == "load" and
                 side(r[0]) != side(col)]
        missed = [i for i, r in loads if i < j and r[2][2] != val]
        if missed:
            out.append((missed[-1], j, "fr"))
        later = [i for i, r in loads if i > j]
        nxt = [k for k, r in enumerate(rows) if k > j and r[2] and
               r[2][0] == var and r[2][1] == "store"]
        if later and later[0] < (nxt[0] if nxt else len(rows)) and \
                rows[later[0]][2][2] == val:
            out.append((j, later[0], "rf"))
    return out


def draw_shape(c, x, y, title, shape, rows, failed, code):
    c.text(x, y, title, size=13, weight="bold")
    c.text(x, y + 18, code, size=11)
    y += 40
    colx = [x + k * (BOX_W + 30) for k in range(len(COLS))]
    for k, (_, name) in enumerate(COLS):
        c.text(colx[k] + BOX_W / 2, y, name, size=11, anchor="middle",
               weight="bold")
    y += 10
    ys = []
    last_sec = None
    for i, (col, text, acc, sec) in enumerate(rows):
        yy = y + i * ROW
        ys.append(yy)
        fill = {"critical section": "#fde9c8", "rcu_exit_nohz()": "#e3ecf8",
                "rcu_enter_nohz()": "#e3ecf8"}.get(sec, svg.LIGHT)
        c.rect(colx[col], yy + 2, BOX_W, ROW - 4, fill=fill, stroke="#bbb",
               rx=3)
        c.text(colx[col] + 6, yy + 16, text, size=10.5)
        if col == 0 and sec != last_sec:
            c.text(colx[0] - 6, yy + 16, sec, size=9.5, anchor="end",
                   fill=svg.GREY)
            last_sec = sec
    for i, j, kind in edges(rows):
        ci, cj = rows[i][0], rows[j][0]
        x1 = colx[ci] + (BOX_W if cj > ci else 0)
        x2 = colx[cj] + (0 if cj > ci else BOX_W)
        c.line(x1, ys[i] + ROW / 2, x2, ys[j] + ROW / 2,
               stroke=svg.IRQ if kind == "rf" else svg.BAD, sw=1.3,
               dash=None if kind == "rf" else "5,3", arrow=True)
    yy = y + len(rows) * ROW + 4
    c.rect(colx[0], yy, 2 * BOX_W + 30, ROW, fill="#f8d0d0", stroke=svg.BAD,
           rx=3)
    c.text(colx[0] + 6, yy + 16, "Spin: assertion violated: " + failed,
           size=10.5, fill=svg.BAD, mono=True)
    c.text(colx[0], yy + ROW + 16, shape, size=11, italic=True)
    return yy + ROW + 28


def make(ctx):
    byname = {c["name"]: c for c in CHECKS}
    missing = [n for n, _ in SHAPES if n not in byname]
    if missing:
        raise FigureError("tests/spin/checks.py has no check %s" %
                          ", ".join(missing))
    runs = spin_checks(ctx.out, [byname[n] for n, _ in SHAPES])
    shapes = []
    for (chk, res), (name, kind) in zip(runs, SHAPES):
        if not res["errors"]:
            raise FigureError("%s: Spin found no counterexample (%s)" % (
                name, res["msg"] or "pass"))
        with open(os.path.join(res["dir"], chk["model"])) as f:
            secs = sections(f.read())
        evs, failed = events(spin_trail(chk, res))
        rows = []
        for step, proc, line, stmt, vals in window(evs, secs):
            text, acc = describe(proc, stmt, vals)
            cols = [p for p, _ in COLS]
            if proc not in cols:
                # A process the picture has no column for: say so
                # rather than leave its step out.
                raise FigureError("%s: trail step %s: [%s] runs in %s(), "
                                  "which has no column (%s)" % (
                                      chk["model"], step, stmt, proc,
                                      ", ".join(cols)))
            col = cols.index(proc)
            rows.append((col, text, acc, secs.get(line, "") if col == 0
                         else ""))
        with open(chk["sed"][0]) as f:
            # The sed script's opening comment says what it does.
            code = " ".join(re.sub(r"^#\s*", "", l).strip() for l in
                            f.read().splitlines() if l.startswith("#"))
        shapes.append((chk, kind, rows, failed, code))
    W = 120 + len(COLS) * (BOX_W + 30)
    c = svg.Canvas(W, 10, "The seed patch's two shapes: Spin's "
                   "counterexamples in the weak-memory model")
    c.text(12, 42, "Pre-patch barrier placement, one shape at a time, each "
           "with the other function as patched; time runs down.  Safety: a "
           "reader that saw the element linked (removed == 0) must not "
           "see it freed.", size=11)
    y = 78
    for chk, kind, rows, failed, code in shapes:
        y = draw_shape(c, 120, y, "%s  (spin %s %s)" % (
            chk["name"], " ".join(chk["defs"]), chk["model"]),
            "%s: the grace period ended under a live "
            "reader" % kind, rows, failed, code)
        y += 14
    c.legend(120, y, [(svg.IRQ, "reads-from"), (svg.BAD, "from-reads "
                                                        "(missed store)")])
    c.h = y + 14
    c.save(ctx.path("seed-patch-litmus.svg"))
    return "; ".join("%s: %d events from a %d-state search" % (
        chk["name"], len(rows), res["states"] or 0)
        for (chk, kind, rows, failed, code), (_, res) in zip(shapes, runs))
