# SPDX-License-Identifier: GPL-2.0
"""ct-state-word.svg: rcu=tree's per-CPU context-tracking state word,
its bit fields derived from the constants of rcu/tree/context_tracking.h
(parsed and evaluated here), then the word and nmi_nesting step by step
through IRQs, a nested IRQ and NMIs on a busy and on an idle CPU: a host
run of the real rcu/tree/context_tracking.c (the probe, probe.c ct)."""

import ast
import operator
import re

from tools.figures import svg
from tools.figures.common import (FigureError, not_understood, probe,
                                  read_source, strip_comments)

HDR = "rcu/tree/context_tracking.h"
NEEDED = ("CT_STATE_KERNEL", "CT_STATE_IDLE", "CT_STATE_MASK",
          "CT_RCU_WATCHING", "CT_NESTING_IRQ_NONIDLE")
ULONG = (1 << 64) - 1
WORD_BITS = 32          # the state word is an int
ROW = 26


def c_eval(expr, env):
    """Evaluate a constant C integer expression (unsigned long wraps)."""
    e = re.sub(r"\b(0x[0-9a-fA-F]+|\d+)[uUlL]+\b", r"\1", expr)
    ops = {ast.Add: operator.add, ast.Sub: operator.sub,
           ast.Mult: operator.mul, ast.RShift: operator.rshift,
           ast.LShift: operator.lshift, ast.BitOr: operator.or_,
           ast.BitAnd: operator.and_}

    def ev(n):
        if isinstance(n, ast.Constant) and isinstance(n.value, int):
            return n.value
        if isinstance(n, ast.Name) and n.id in env:
            return env[n.id]
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.Invert):
            return ~ev(n.operand) & ULONG
        if isinstance(n, ast.BinOp) and type(n.op) in ops:
            return ops[type(n.op)](ev(n.left), ev(n.right)) & ULONG
        raise FigureError("%s: cannot evaluate '%s'" % (HDR, expr))
    try:
        return ev(ast.parse(e.strip(), mode="eval").body)
    except SyntaxError:
        raise FigureError("%s: cannot parse '%s'" % (HDR, expr))


def constants(text):
    """The header's CT_ constants, evaluated.  Each must be an object-like
    #define the picture draws (NEEDED); any other CT_ definition is an
    error naming it (file:line and text), not left out of the picture."""
    env = {}
    code = strip_comments(text)
    for m in re.finditer(r"^[ \t]*#[ \t]*define[ \t]+(\w+)(.*)$", code,
                         re.M):
        name, rest = m.group(1), m.group(2)
        if not name.startswith("CT_"):
            continue
        if name not in NEEDED or rest.startswith("(") or not rest.strip():
            raise not_understood(HDR, code, m.start(), "a CT_ definition "
                                 "the state-word picture does not draw")
        try:
            env[name] = c_eval(rest, env)
        except FigureError as e:
            raise not_understood(HDR, code, m.start(), str(e))
    missing = [k for k in NEEDED if k not in env]
    if missing:
        raise FigureError("%s defines no %s" % (HDR, ", ".join(missing)))
    return env


def nesting_name(v, k):
    """nmi_nesting as the header's names say it."""
    base = k["CT_NESTING_IRQ_NONIDLE"]
    if v >= base // 2:
        return "CT_NESTING_IRQ_NONIDLE" + ("" if v == base else
                                           " %+d" % (v - base))
    return str(v)


def draw_word(c, x, y, k):
    """The 32 bits of the state word, fields named from the constants."""
    mask, watch = k["CT_STATE_MASK"], k["CT_RCU_WATCHING"]
    if watch & (watch - 1) or watch & mask:
        raise FigureError("CT_RCU_WATCHING (%d) is not one bit above "
                          "CT_STATE_MASK (%d)" % (watch, mask))
    bw = 26
    wbit = watch.bit_length() - 1
    for i in range(WORD_BITS):
        bit = WORD_BITS - 1 - i
        fill = ("#dde6f3" if (1 << bit) & mask else
                svg.WATCHED if bit == wbit else "#f0e6c8")
        c.rect(x + i * bw, y, bw, 26, fill=fill, stroke="#888", sw=0.6)
        c.text(x + i * bw + bw / 2, y + 17, bit, size=9, anchor="middle",
               fill="white" if bit == wbit else svg.INK)
    right = x + WORD_BITS * bw
    lo = mask.bit_length()
    # Field braces under the word.
    fields = [(wbit, WORD_BITS - 1, "#b09040",
               "the counter: state & ~CT_STATE_MASK, stepped by "
               "CT_RCU_WATCHING (%d)" % watch),
              (wbit, wbit, svg.WATCHED,
               "CT_RCU_WATCHING (%d): set while RCU watches the CPU" %
               watch),
              (0, lo - 1, svg.IRQ,
               "CT_STATE_MASK (%d): context, CT_STATE_KERNEL = %d, "
               "CT_STATE_IDLE = %d" % (mask, k["CT_STATE_KERNEL"],
                                        k["CT_STATE_IDLE"]))]
    yy = y + 40
    for lo_b, hi_b, col, label in fields:
        x1 = right - (hi_b + 1) * bw + 2
        x2 = right - lo_b * bw - 2
        c.path("M%.1f,%d L%.1f,%d L%.1f,%d L%.1f,%d" % (
            x1, yy - 8, x1, yy, x2, yy, x2, yy - 8), stroke=col, sw=1.5)
        lx = min(x1, right - 420)
        c.line((x1 + x2) / 2, yy, (x1 + x2) / 2, yy + 8, stroke=col)
        c.text(max(lx, x), yy + 20, label, size=11, fill=col)
        yy += 34
    return yy


def make(ctx):
    k = constants(read_source(HDR))
    rows = probe(ctx.out, None, "ct")
    if any(r["warns"] for r in rows):
        raise FigureError("context tracking WARNed in the host run")
    c = svg.Canvas(960, 10, "Context tracking's state word (rcu=tree) and "
                   "nmi_nesting")
    c.text(12, 42, "struct context_tracking.state, one int per CPU, "
           "changed only by fully ordered atomic adds (ct_state_inc()); "
           "fields from %s:" % HDR, size=11)
    y = draw_word(c, 60, 58, k)
    y += 6
    c.text(12, y, "A host run of rcu/tree/context_tracking.c: the word and "
           "nmi_nesting after each call (CPU 0, IRQs off as the kernel "
           "calls them)", size=12, weight="bold")
    y += 24
    cols = [12, 230, 390, 560, 640]
    for x, h in zip(cols, ("context", "call", "state: value, low 8 bits",
                           "watching", "nmi_nesting")):
        c.text(x, y, h, size=10, fill=svg.GREY)
    y += 6
    mask, watch = k["CT_STATE_MASK"], k["CT_RCU_WATCHING"]
    prev = None
    for r in rows:
        levels = [p.strip() for p in r["ctx"].split(">")]
        c.context_row(cols[0], y, 50, ROW - 2, levels, prev,
                      tip=r["ctx"])
        prev = levels
        st = r["state"]
        watched = bool(st & watch)
        if watched != bool(r["watching"]):
            raise FigureError("rcu_is_watching_curr_cpu() disagrees with "
                              "the CT_RCU_WATCHING bit")
        c.text(cols[1], y + 16, r["what"], size=11, mono=True)
        b = format(st & 0xff, "08b")
        c.text(cols[2], y + 16, "%3d  %s %s %s" % (
            st, b[:-mask.bit_length() - 1], b[-mask.bit_length() - 1],
            b[-mask.bit_length():]), size=11, mono=True)
        c.rect(cols[3], y + 4, 50, ROW - 10, rx=3,
               fill=svg.WATCHED if watched else "white", stroke=svg.GREY,
               sw=0.6)
        c.text(cols[3] + 25, y + 16, "yes" if watched else "no", size=10,
               anchor="middle", fill="white" if watched else svg.INK)
        c.text(cols[4], y + 16, nesting_name(r["nmi_nesting"], k),
               size=11, mono=True)
        y += ROW
    y += 14
    notes = [
        "ct_nmi_enter() (IRQs too) adds 1 to nmi_nesting when it made an "
        "idle CPU watched, 2 otherwise: 1 marks the outermost handler that "
        "woke RCU,",
        "the 2008 code's rcu_update_flag; ct_nmi_exit() steps the counter "
        "back to idle only when it finds 1.  On a busy CPU nmi_nesting "
        "counts from",
        "CT_NESTING_IRQ_NONIDLE = %d (%s): no handler nesting reaches it, "
        "so a busy CPU never looks idle." % (
            k["CT_NESTING_IRQ_NONIDLE"],
            "2^%d" % (k["CT_NESTING_IRQ_NONIDLE"].bit_length() - 1)
            if k["CT_NESTING_IRQ_NONIDLE"] & (
                k["CT_NESTING_IRQ_NONIDLE"] - 1) == 0 else "hex %x" %
            k["CT_NESTING_IRQ_NONIDLE"])]
    y = c.lines(12, y, notes, size=11)
    c.legend(12, y + 8, [(svg.CONTEXT["task"], "task"),
                         (svg.CONTEXT["idle"], "idle"),
                         (svg.CONTEXT["irq"], "IRQ"),
                         (svg.CONTEXT["NMI"], "NMI"),
                         (svg.WATCHED, "RCU watching")])
    c.h = y + 24
    c.save(ctx.path("ct-state-word.svg"))
    return "fields from %d constants; %d steps of the host run" % (
        len(k), len(rows))
