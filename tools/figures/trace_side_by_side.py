# SPDX-License-Identifier: GPL-2.0
"""trace-side-by-side.svg: one workload (make trace's TRACE_CMDLINE: a
short torture run with IRQ and NMI readers on dynticks-idle CPUs) traced
under rcu=rcupreempt and under rcu=tree, one timeline above the other on
the same time scale, and a few totals of each trace.  Two QEMU boots,
one at a time, under nice -n 5 (tools/boot.py); each timeline is
tools/trace2json.py's SVG of its trace."""

import os
import subprocess
import sys

from tools import trace2json
from tools.figures import svg
from tools.figures.common import FigureError, ROOT

FLAVOURS = ["rcupreempt", "tree"]
WINDOW_US = 20000.0
BOOT_TIMEOUT = 120


def boot(ctx, flavour):
    """Boot the kernel with the trace on; return the trace2json Model."""
    d = ctx.path("trace-" + flavour)
    os.makedirs(d, exist_ok=True)
    log = os.path.join(d, "console.log")
    cmdline = "rcu=%s %s" % (flavour, ctx.trace_cmdline)
    p = subprocess.run(
        ["nice", "-n", "5", sys.executable, "-m", "tools.boot",
         "--kernel", ctx.kernel, "--cpus", str(ctx.cpus), "--cmdline",
         cmdline, "--timeout", str(BOOT_TIMEOUT), "--log", log],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        universal_newlines=True)
    if p.returncode:
        raise FigureError("the rcu=%s boot failed: %s" % (
            flavour, p.stdout.strip().splitlines()[-1:]))
    with open(log, errors="replace") as f:
        text = f.read().replace("\r", "")
    try:
        header, events, wrapped, vectors = trace2json.parse(text)
        return trace2json.Model(header, events, wrapped, vectors,
                                trace2json.symbols(ctx.kernel)), cmdline
    except trace2json.TraceError as e:
        raise FigureError("rcu=%s: %s" % (flavour, e))


def busiest(m):
    """Start (us) of the window of WINDOW_US that shows the most: the
    one, among windows starting 1 ms before each grace period, that
    overlaps the most grace-period states and NMIs."""
    marks = [(s, e) for _, s, e in m.states] + [
        (s, e) for _, _, s, e, _, k in m.slices if k == "nmi"]
    # Away from boot and from the end of the run, when the CPUs idle.
    end = (m.t1 - m.t0) / m.tpu
    best, best_n = 0.0, -1
    for _, s, _ in m.gps:
        start = max(0.0, s - 1000.0)
        if start < 0.1 * end or start + WINDOW_US > 0.9 * end:
            continue
        n = sum(1 for a, b in marks if b >= start and a <= start + WINDOW_US)
        if n > best_n:
            best, best_n = start, n
    return best


def totals(m):
    """Per-second rates over the trace's window, for the table."""
    secs = (m.t1 - m.t0) / m.tpu / 1e6
    n = m.counts
    done = [e - s for _, s, e in m.gps]
    return [("trace window", "%.0f ms" % (secs * 1000)),
            ("grace periods / s", "%.0f" % (len(m.gps) / secs)),
            ("mean GP length", "%.2f ms" % (sum(done) / len(done) / 1000)
             if done else "-"),
            ("idle entries / s", "%.0f" % (n[trace2json.IDLE_ENTER] / secs)),
            ("IRQs / s", "%.0f" % (n[trace2json.IRQ_ENTER] / secs)),
            ("NMIs / s", "%.0f" % (n[trace2json.NMI_ENTER] / secs)),
            ("counter changes / s", "%.0f" % (n[trace2json.DYNTICKS] /
                                              secs))]


def make(ctx):
    if not os.path.isfile(ctx.kernel):
        raise FigureError("no %s: make builds it" % ctx.kernel)
    runs = [(f,) + boot(ctx, f) for f in FLAVOURS]
    panels = [m.svg(busiest(m), WINDOW_US) for _, m, _ in runs]
    ph = [int(p.split('height="', 1)[1].split('"', 1)[0]) for p in panels]
    pw = int(panels[0].split('width="', 1)[1].split('"', 1)[0])
    table_h = 30 + 18 * len(totals(runs[0][1]))
    W, top = pw + 20, 70
    c = svg.Canvas(W, top + sum(ph) + 30 * len(panels) + table_h,
                   "One workload traced under rcu=rcupreempt and "
                   "rcu=tree")
    c.text(12, 42, "Each boot: %s CPUs, kernel command line 'rcu=... %s'."
           % (ctx.cpus, runs[0][2].split(" ", 1)[1]), size=11)
    c.text(12, 57, "Shown: of each trace, the %.0f ms with the most grace-"
           "period states and NMIs (same time scale).  Below: totals over "
           "the whole trace." % (WINDOW_US / 1000), size=11)
    y = top
    for (flavour, m, _), panel, h in zip(runs, panels, ph):
        c.text(12, y + 14, "rcu=" + flavour, size=13, weight="bold",
               fill=svg.IRQ)
        c.nest(10, y + 20, panel)
        y += h + 30
    rows = [totals(m) for _, m, _ in runs]
    x = [100, 330, 480]
    c.text(x[0], y, "over the whole trace", size=11, weight="bold")
    for k, (flavour, _, _) in enumerate(runs):
        c.text(x[k + 1], y, "rcu=" + flavour, size=11, weight="bold")
    for i, (name, _) in enumerate(rows[0]):
        yy = y + 18 * (i + 1)
        c.text(x[0], yy, name, size=11)
        for k in range(len(runs)):
            c.text(x[k + 1], yy, rows[k][i][1], size=11, mono=True)
    c.save(ctx.path("trace-side-by-side.svg"))
    return "; ".join("rcu=%s: %d GPs, %d NMIs in %.0f ms" % (
        f, len(m.gps), m.counts[trace2json.NMI_ENTER],
        (m.t1 - m.t0) / m.tpu / 1000) for f, m, _ in runs)
