# SPDX-License-Identifier: GPL-2.0
"""model-states.svg: the states Spin stores for every model of make
verify (tests/spin/checks.py: the article's seven, the weak-memory,
atomic, reduced, abstract and tree models), each at its bounds, beside
the article's count where it gives one; then how the state count of the
article's models 1 to 6 grows with the bound.  Everything is run here
(tools/spin.py, in build/figures/spin): nothing is copied from a log."""

import math

from tests.spin.checks import CHECKS
from tools import spin
from tools.figures import svg
from tools.figures.common import FigureError, spin_checks

# The growth panel: these models at every bound from 1 to GROW_MAX.
GROW = ("1 ", "2 ", "4 ", "5 ", "6 ")
GROW_MAX = 3
ROW = 22


def grow_checks():
    """The GROW models again at bounds 1 .. GROW_MAX - 1 (make verify's
    own bound, GROW_MAX, is the first panel's run)."""
    out = []
    for c in CHECKS:
        if not c["name"].startswith(GROW):
            continue
        if set(c["bounds"].values()) != {GROW_MAX}:
            raise FigureError("%s: bounds %s, expected all %d" % (
                c["name"], spin.bounds_str(c["bounds"]), GROW_MAX))
        for b in range(1, GROW_MAX):
            g = dict(c, bounds={k: b for k in c["bounds"]},
                     name="%s at %d" % (c["name"], b))
            out.append(g)
    return out


def log_x(x0, width, lo, hi):
    a, b = math.log10(lo), math.log10(hi)
    return lambda v: x0 + (math.log10(max(v, lo)) - a) / (b - a) * width


def axis(c, x, y, lo, hi, fx):
    e = int(math.log10(lo))
    while 10 ** e <= hi:
        xx = fx(10 ** e)
        if 10 ** e >= lo:
            c.line(xx, y, xx, y + 4, stroke=svg.GREY)
            c.text(xx, y + 15, "{:,}".format(10 ** e), size=9,
                   anchor="middle", fill=svg.GREY)
        e += 1


def make(ctx):
    runs = spin_checks(ctx.out, CHECKS + grow_checks())
    main = runs[:len(CHECKS)]
    grow = runs[len(CHECKS):]
    bad = [c["name"] for c, r in runs if r["states"] is None]
    if bad:
        raise FigureError("no state count from Spin for %s" %
                          ", ".join(bad))
    wrong = [c["name"] for c, r in main if not r["ok"]]
    if wrong:
        raise FigureError("make verify's verdict does not hold for %s" %
                          ", ".join(wrong))
    lo = 100
    hi = 10 ** math.ceil(math.log10(max(r["states"] for _, r in runs)))
    x0, bar_w = 370, 520
    fx = log_x(x0, bar_w, lo, hi)
    W = x0 + bar_w + 280
    c = svg.Canvas(W, 10, "Spin's state counts, every model at its bounds "
                   "(make verify's checks, run here)")
    c.text(12, 42, "Bar: states stored (log scale).  Black tick: the "
           "article's count.  Red bar: a model that must fail (Spin finds "
           "the error it was built to show).", size=11)
    y = 70
    c.text(12, y, "model", size=10, fill=svg.GREY)
    c.text(230, y, "bounds", size=10, fill=svg.GREY)
    y += 8
    for ch, r in main:
        c.text(12, y + 15, ch["name"], size=11)
        c.text(230, y + 15, spin.bounds_str(ch["bounds"]), size=10,
               mono=True)
        fails = ch["expect"] == "error"
        c.rect(x0, y + 4, fx(r["states"]) - x0, ROW - 8,
               fill=svg.BAD if fails else svg.IRQ,
               tip="%s: %s states" % (ch["name"], "{:,}".format(
                   r["states"])))
        txt = "{:,}".format(r["states"])
        tx = fx(r["states"])
        if ch["art_n"]:
            ax = fx(ch["art_n"])
            c.line(ax, y + 1, ax, y + ROW - 1, stroke=svg.INK, sw=2)
            txt += "  (article: %s)" % ch["article"]
            tx = max(tx, ax)
        elif fails:
            txt += "  (fails, as expected)"
        c.text(tx + 6, y + 15, txt, size=10)
        # checks.py's note where the article gives no count.
        if not ch["art_n"] and ch["article"] not in ("-", "fails"):
            c.text(tx + 12 + svg.text_width(txt, 10), y + 15,
                   ch["article"], size=10, fill=svg.GREY)
        y += ROW
    axis(c, x0, y + 2, lo, hi, fx)
    y += 50
    # Growth with the bound.
    c.text(12, y, "The article's models %s as the bound grows (NOHZ, "
           "and IRQ where the model has it, all set to %s)" % (
               ", ".join(g.strip() for g in GROW),
               ", ".join(str(b) for b in range(1, GROW_MAX + 1))),
           size=12, weight="bold")
    y += 14
    series = {}
    for ch, r in main + grow:
        if ch["name"].startswith(GROW):
            name = ch["name"].split(" at ")[0]
            b = max(ch["bounds"].values())
            series.setdefault(name, {})[b] = r["states"]
    gx, gw, gh = 80, 460, 220
    gy = y + 10
    lo_g = 10 ** math.floor(math.log10(min(
        v for s in series.values() for v in s.values())))
    hi_g = 10 ** math.ceil(math.log10(max(
        v for s in series.values() for v in s.values())))
    a, b = math.log10(lo_g), math.log10(hi_g)

    def fy(v):
        return gy + gh - (math.log10(v) - a) / (b - a) * gh

    def bx(bound):
        return gx + (bound - 1) / (GROW_MAX - 1) * gw

    c.rect(gx, gy, gw, gh, fill="#fafafa", stroke="#ddd")
    e = int(a)
    while e <= b:
        c.line(gx - 4, fy(10 ** e), gx + gw, fy(10 ** e), stroke="#e4e4e4")
        c.text(gx - 8, fy(10 ** e) + 4, "{:,}".format(10 ** e), size=9,
               anchor="end", fill=svg.GREY)
        e += 1
    for bound in range(1, GROW_MAX + 1):
        c.text(bx(bound), gy + gh + 16, "bound %d" % bound, size=10,
               anchor="middle", fill=svg.GREY)
    colours = ["#4a7fd0", "#2a8a2a", "#f0a030", "#9060c0", "#d03030"]
    ly = gy + 6
    for (name, pts), col in zip(sorted(series.items()), colours):
        xs = sorted(pts)
        c.path("M" + " L".join("%.1f,%.1f" % (bx(k), fy(pts[k]))
                                for k in xs), stroke=col, sw=2)
        for k in xs:
            c.rect(bx(k) - 3, fy(pts[k]) - 3, 6, 6, fill=col)
        c.text(gx + gw + 20, ly + 10, "%s: %s" % (name, ", ".join(
            "{:,}".format(pts[k]) for k in xs)), size=10, fill=col)
        ly += 18
    c.h = gy + gh + 34
    c.save(ctx.path("model-states.svg"))
    return "%d checks at make verify's bounds, %d growth runs; largest " \
        "%s states (%s)" % (len(main), len(grow), "{:,}".format(
            max(r["states"] for _, r in main)), max(
            main, key=lambda t: t[1]["states"])[0]["name"])
