# SPDX-License-Identifier: GPL-2.0
"""dynticks-timeline.svg: dynticks_progress_counter and rcu_update_flag
on one CPU through task, idle, an IRQ, a nested IRQ, and an IRQ whose
rcu_irq_enter() an NMI interrupts between its two increments, the NMI
running a reader: the real rcu/rcupreempt/dynticks.c (left), Quick Quiz
2's own order (middle: qq2-quiz-order.patch applied to a copy) and a
second, related order (right: qq2-wrong-order.patch).  The values are
what the host probe (probe.c timeline) printed after each step, running
the code on the host unit tests' simulated CPU; time runs down the
page."""

from tools.figures import svg
from tools.figures.common import FigureError, probe

# (probe variant, column title, its name in the notes, what shows it)
VARIANTS = [
    (None, "dynticks.c: test, counter, then flag", "dynticks.c",
     "rcu/rcupreempt/dynticks.c"),
    ("qq2-quiz", "Quick Quiz 2: flag, counter if it was 0",
     "Quick Quiz 2's order",
     "tools/figures/qq2-quiz-order.patch, Spin's 7-qq2-quiz-order"),
    ("qq2-swap", "Related: both tests, flag then counter",
     "the related swap",
     "tools/figures/qq2-wrong-order.patch, Spin's "
     "7-qq2-flag-before-counter"),
]
ROW = 30
LANE = 46


def load(ctx):
    runs = []
    for variant, title, _, _ in VARIANTS:
        rows = probe(ctx.out, variant, "timeline")
        steps = [r for r in rows if "step" in r]
        info = [r for r in rows if "nmi_hook" in r]
        if not steps or len(info) != 1:
            raise FigureError("probe%s timeline: unexpected output" %
                              ("-" + variant if variant else ""))
        runs.append((title, steps, info[0]))
    whats = [[s["what"] for s in steps] for _, steps, _ in runs]
    if any(w != whats[0] for w in whats):
        raise FigureError("the %d runs took different steps" % len(runs))
    return runs


def stack(ctx_str):
    return [c.strip() for c in ctx_str.split(">")]


def handler_running(levels):
    return levels[-1] in ("irq", "NMI")


def draw_run(c, x, y0, title, steps, info):
    """One column group: context stack, counter, flag; returns notes."""
    cx, nx, fx = x, x + 3 * LANE + 12, x + 3 * LANE + 12 + 74
    c.text(x, y0 - 40, title, size=12, weight="bold")
    c.text(cx, y0 - 10, "context", size=10, fill=svg.GREY)
    c.text(nx + 30, y0 - 10, "counter", size=10, fill=svg.GREY,
           anchor="middle")
    c.text(fx + 24, y0 - 10, "flag", size=10, fill=svg.GREY,
           anchor="middle")
    bad = []
    for i, s in enumerate(steps):
        y = y0 + i * ROW
        levels = stack(s["ctx"])
        c.context_row(cx, y, LANE, ROW, levels,
                      stack(steps[i - 1]["ctx"]) if i else None,
                      tip="%s: %s" % (s["what"], s["ctx"]))
        odd = s["counter"] & 1
        # A handler running with an even counter: RCU excuses the CPU.
        wrong = handler_running(levels) and not odd
        stuck = levels[-1] in ("idle", "task") and s["flag"] != 0
        c.rect(nx, y + 3, 60, ROW - 6, rx=3,
               fill="#cfe3cf" if odd else "white",
               stroke=svg.BAD if wrong else svg.GREY,
               sw=2.5 if wrong else 0.8)
        c.text(nx + 30, y + 19, "%d %s" % (s["counter"],
                                           "odd" if odd else "even"),
               size=11, anchor="middle", weight="bold" if wrong else None,
               fill=svg.BAD if wrong else svg.INK)
        c.rect(fx, y + 3, 48, ROW - 6, rx=3, fill="white",
               stroke=svg.BAD if stuck else svg.GREY,
               sw=2.5 if stuck else 0.8)
        c.text(fx + 24, y + 19, s["flag"], size=11, anchor="middle",
               fill=svg.BAD if stuck else svg.INK)
        if wrong:
            bad.append((y, "counter even inside %s: the grace-period "
                        "machine excuses this CPU" % (
                            "the NMI" if levels[-1] == "NMI" else
                            "the IRQ handler")))
        if stuck and not (i and steps[i - 1]["flag"] and
                          stack(steps[i - 1]["ctx"])[-1] in ("idle",
                                                             "task")):
            bad.append((y, "flag stuck at %d outside any handler: later "
                        "IRQs count as nested and never make the counter "
                        "odd" % s["flag"]))
        if s["warns"] and not (i and steps[i - 1]["warns"]):
            bad.append((y, "WARN: " + info["warn"].split(": ", 2)[-1]))
    return bad


def make(ctx):
    runs = load(ctx)
    steps0 = runs[0][1]
    n = len(steps0)
    label_w = 250
    col_w = 3 * LANE + 12 + 74 + 60
    gap = 40
    notes_h = 150
    top = 140
    W = label_w + len(runs) * (col_w + gap) + 10
    H = top + n * ROW + notes_h
    c = svg.Canvas(W, H, "dynticks_progress_counter and rcu_update_flag on "
                   "one CPU, step by step (host run of the real code)")
    c.text(12, 42, "Each row: a call, then both variables as it left them. "
               "Counter odd (green): RCU must wait for this CPU; even: "
               "dynticks-idle, excused.", size=11)
    c.text(12, 58, "The NMI lands at the hook point '%s' inside the IRQ's "
               "rcu_irq_enter(), between its two increments." %
               runs[0][2]["nmi_hook"], size=11)
    for i, s in enumerate(steps0):
        y = top + i * ROW
        if i and s["phase"] != steps0[i - 1]["phase"]:
            c.line(8, y, W - 8, y, stroke="#cccccc", dash="4,3")
        c.text(12, y + 19, "%2d  %s" % (i, s["what"]), size=11, mono=True)
    notes = []
    for k, (title, steps, info) in enumerate(runs):
        x = label_w + k * (col_w + gap)
        for y, note in draw_run(c, x, top, title, steps, info):
            notes.append((k, y, note))
    y = top + n * ROW + 22
    c.legend(12, y, [(svg.CONTEXT["task"], "task"),
                     (svg.CONTEXT["idle"], "dynticks-idle"),
                     (svg.CONTEXT["irq entry"], "in rcu_irq_enter()"),
                     (svg.CONTEXT["irq"], "IRQ handler"),
                     (svg.CONTEXT["NMI"], "NMI")])
    y += 22
    for k in range(1, len(runs)):
        if not any(kk == k for kk, _, _ in notes):
            raise FigureError("%s showed no failure" % VARIANTS[k][2])
    for k, ny, note in notes:
        row = (ny - top) // ROW
        c.text(12, y, "%s, step %d: %s" % (VARIANTS[k][2], row, note),
               size=11, fill=svg.BAD)
        y += 17
    for k, v in enumerate(VARIANTS):
        c.text(12, y + 6, "%s: %s" % (("Left", "Middle", "Right")[k],
                                      v[3]), size=10, fill=svg.GREY)
        y += 14
    c.h = y + 24
    c.save(ctx.path("dynticks-timeline.svg"))
    return "%d steps; dynticks.c %s; %s" % (
        n, "clean" if not any(k == 0 for k, _, _ in notes) else "FAILS",
        "; ".join("%s: %d failures" % (v[2], sum(
            1 for k, _, _ in notes if k == i))
            for i, v in enumerate(VARIANTS) if i))
