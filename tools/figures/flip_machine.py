# SPDX-License-Identifier: GPL-2.0
"""flip-machine.svg: the 2008 grace-period ("flip") state machine, read
from the C.  States: enum rcu_try_flip_states (rcupreempt.h).  Edges: the
switch in rcu_try_flip() (case S: if (step()) next = T).  Each edge says
when its step function lets the machine move (its "return 0" tests),
what it does then, and, for a step that waits for CPUs, the excuse tests
of the *_needed() function it calls (dynticks.c).  The per-CPU flags
(enum rcu_flip_flag_values, rcu_mb_flag_values) are drawn beside it,
each value change labelled with the function that stores it.  Drawn by
graphviz dot."""

import html
import re
import subprocess

from tools.figures.common import (FigureError, balanced, enum_values,
                                  function_body, read_source, squash,
                                  strip_comments, unwrap)
from tools.figures import svg

HDR = "rcu/rcupreempt/rcupreempt.h"
SRC = "rcu/rcupreempt/rcupreempt.c"
DYN = "rcu/rcupreempt/dynticks.c"
MACHINE = "rcu_try_flip"
FLAG_ENUMS = ("rcu_flip_flag_values", "rcu_mb_flag_values")


def short(expr):
    """A C expression as the picture shows it."""
    e = squash(expr)
    for m in ("READ_ONCE", "likely", "unlikely"):
        e = unwrap(e, m)
    e = re.sub(r"RCU_DATA_CPU\(cpu\)->(\w+)(\[\w+\])?", r"\1[cpu]\2", e)
    e = re.sub(r"rcu_ctrlblk\.", "", e)
    e = re.sub(r"raw_smp_processor_id\(\)", "this CPU", e)
    e = re.sub(r"\brcu_try_flip_(\w+)\(", r"\1(", e)
    # Parentheses around a lone name (not a call's): drop them.
    e = re.sub(r"(?<![\w\]])\(\s*(\w+(?:\[\w+\])*)\s*\)", r"\1", e)
    return e


def negate(cond):
    c = short(cond)
    if c.startswith("!") and re.fullmatch(r"!\w+\([^()]*\)", c):
        return c[1:]
    for a, b in (("!=", "=="), ("==", "!=")):
        if c.count(a) == 1 and "&&" not in c and "||" not in c:
            return c.replace(a, b)
    return "!(%s)" % c


def statements(body):
    """The step function's statements that matter, in order:
    ('wait', cond, per_cpu) for "if (cond) return 0;", ('do', text,
    per_cpu) for a store, a call or a barrier."""
    out = []
    pat = re.compile(r"for_each_online_cpu\s*\(\s*cpu\s*\)|\bif\s*\(|"
                     r"\bWRITE_ONCE\s*\(|\bsmp_mb\s*\(\s*\)|"
                     r"\b(?:int|long)\s+\w+\s*=|\b\w+\s*\+=|"
                     r"\b(dyntick_\w+)\s*\(\s*cpu\s*\)")
    per_cpu_end = -1
    i = 0
    while True:
        m = pat.search(body, i)
        if not m:
            return out
        tok = m.group(0)
        per_cpu = m.start() < per_cpu_end
        i = m.end()
        if tok.startswith("for_each_online_cpu"):
            rest = body[i:].lstrip()
            if rest.startswith("{"):
                start = len(body) - len(rest)
                per_cpu_end = start + len(balanced(body, start)) + 2
            else:
                per_cpu_end = body.index(";", i) + 1
                # "for (...) if (...) return 0;" spans two statements.
                if re.match(r"if\s*\(", rest):
                    cond = balanced(body, body.index("(", i))
                    per_cpu_end = body.index(";", body.index("(", i) +
                                             len(cond)) + 1
        elif tok.startswith("if"):
            cond = balanced(body, m.end() - 1)
            after = body[m.end() + len(cond) + 1:]
            if re.match(r"\s*return\s+0\s*;", after):
                out.append(("wait", cond, per_cpu))
            i = m.end() + len(cond)
        elif tok.startswith("WRITE_ONCE"):
            args = balanced(body, m.end() - 1)
            dst, val = [a.strip() for a in args.split(",", 1)]
            d, v = short(dst), short(val)
            if v == d + " + 1":
                out.append(("do", d + "++", per_cpu))
            else:
                out.append(("do", "%s = %s" % (d, v), per_cpu))
            i = m.end() + len(args)
        elif tok.startswith("smp_mb"):
            out.append(("do", "smp_mb()", per_cpu))
        elif "+=" in tok or "=" in tok:
            end = body.index(";", m.start())
            text = body[m.start():end]
            text = re.sub(r"^(?:int|long)\s+", "", text)
            out.append(("do", short(text), per_cpu))
            i = end
        else:
            out.append(("do", m.group(1) + "()", per_cpu))


def excuses(dyn, name):
    """The tests of a *_needed() function that excuse a CPU (return 0),
    and what its locals are loaded from: ([test], [(local, field)])."""
    body = function_body(dyn, name, DYN)
    conds = [short(c) for kind, c, _ in statements(body) if kind == "wait"]
    if not conds:
        raise FigureError("%s: %s() has no 'return 0' test" % (DYN, name))
    loads = re.findall(r"\b(\w+)\s*=\s*READ_ONCE\s*\(\s*rdp->(\w+)\s*\)",
                       body)
    return conds, loads


def model(hdr, src, dyn):
    """States, edges and flags of the machine, from the sources."""
    states = [n for n, _ in enum_values(hdr, MACHINE + "_states", HDR)
              if n != "RCU_TRY_FLIP_NR_STATES"]
    if not states:
        raise FigureError("%s: enum %s_states is empty" % (HDR, MACHINE))
    switch = function_body(src, MACHINE, SRC)
    edges = []
    for m in re.finditer(r"case\s+(\w+)\s*:\s*if\s*\(\s*(\w+)\s*\(\s*\)\s*\)"
                         r"\s*\{\s*next\s*=\s*(\w+)\s*;", switch):
        frm, fn, to = m.groups()
        for s in (frm, to):
            if s not in states:
                raise FigureError("%s: %s() moves to %s, not in enum %s_"
                                  "states" % (SRC, MACHINE, s, MACHINE))
        body = function_body(src, fn, SRC)
        sts = statements(body)
        needed = sorted(set(re.findall(r"\b(\w+_needed)\s*\(", body)))
        edges.append(dict(frm=frm, to=to, fn=fn, sts=sts,
                          excuses=[(n, excuses(dyn, n)) for n in needed]))
    if len(edges) != len(states):
        raise FigureError("%s: %s() has %d transitions for %d states" % (
            SRC, MACHINE, len(edges), len(states)))
    flags = []
    code = strip_comments(src)
    defs = list(re.finditer(r"^[\w][\w \t\*]*?\b(\w+)\s*\([^)]*\)\s*\{",
                            code, re.M))
    for enum in FLAG_ENUMS:
        values = [n for n, _ in enum_values(hdr, enum, HDR)]
        field = enum[:-len("_values")]
        writes = []
        for d in defs:
            body = balanced(code, d.end() - 1)
            for w in re.finditer(r"WRITE_ONCE\s*\([^,]*->%s\s*,\s*(\w+)\)|"
                                 r"->%s\s*=\s*(\w+)\s*;" % (field, field),
                                 body):
                val = w.group(1) or w.group(2)
                if val in values:
                    writes.append((d.group(1), val, bool(w.group(2))))
        flags.append(dict(field=field, values=values, writes=writes))
    return states, edges, flags


def label(s):
    return re.sub(r"^%s_(\w+)_state$" % MACHINE, r"\1", s)


def edge_label(e):
    rows = ['<b>%s()</b>' % html.escape(e["fn"])]
    waits = [(c, pc) for k, c, pc in e["sts"] if k == "wait"]
    for c, pc in waits:
        if pc:
            rows.append("when no CPU has")
            rows.append("&nbsp;&nbsp;%s" % html.escape(short(c)))
        else:
            rows.append("when %s" % html.escape(negate(c)))
    # Statements before the last test are how the test is computed.
    last_wait = max([i for i, (k, _, _) in enumerate(e["sts"])
                     if k == "wait"], default=-1)
    pre = [("each CPU: " if pc else "") + t
           for i, (k, t, pc) in enumerate(e["sts"])
           if k == "do" and i < last_wait]
    post = [(t, pc) for i, (k, t, pc) in enumerate(e["sts"])
            if k == "do" and i > last_wait]
    if pre:
        rows.insert(1, '<font color="%s">%s</font>' % (
            svg.GREY, html.escape("; ".join(pre))))
    if post:
        rows.append("then " + html.escape("; ".join(
            t for t, pc in post if not pc)) if any(not pc for t, pc in post)
            else "then")
        each = [t for t, pc in post if pc]
        if each:
            rows.append("&nbsp;&nbsp;each CPU: " + html.escape(
                "; ".join(each)))
    for name, (conds, loads) in e["excuses"]:
        rows.append('<font color="%s">a CPU is excused (%s() == 0) if</font>'
                    % (svg.GOOD, html.escape(short(name + "(").rstrip("("))))
        for c in conds:
            rows.append('<font color="%s">&nbsp;&nbsp;%s</font>' % (
                svg.GOOD, html.escape(c)))
        rows.append('<font color="%s">&nbsp;&nbsp;(%s)</font>' % (
            svg.GREY, html.escape(", ".join("%s = %s" % l for l in loads))))
    return "<" + '<br align="left"/>'.join(rows) + '<br align="left"/>>'


def dot_source(states, edges, flags):
    """The machine as a ring: each transition's step function is a box
    between its two states, so the long labels never cross an arrow.
    With four states the ring is a square (first row left to right,
    second right to left); otherwise a column."""
    out = ['digraph flip {',
           '  graph [nodesep=0.35, ranksep=0.3, newrank=true, '
           'fontname="DejaVu Sans", fontsize=12, labelloc=t, '
           'label=<<b>The flip state machine: rcu_try_flip() in %s</b><br/>'
           'one step per scheduling-clock tick, under fliplock; a step '
           'whose test fails returns 0 and is tried again at the next '
           'tick<br/>'
           'orange: the states that wait for every CPU, except the CPUs '
           'that their excuse tests let off (green)<br/> >];' % SRC,
           '  node [fontname="DejaVu Sans", fontsize=11];',
           '  edge [fontname="DejaVu Sans", fontsize=10];',
           '  subgraph cluster_machine {',
           '    label="rcu_ctrlblk.rcu_try_flip_state"; style=rounded; '
           'color="#999999";']
    for s in states:
        waits = any(e["frm"] == s and e["excuses"] for e in edges)
        out.append('    %s [label="%s", shape=ellipse, style=filled, '
                   'fillcolor="%s", tooltip="%s"];' % (
                       s, label(s), svg.WAIT if waits else "#dde6f3", s))
    order = {s: i for i, s in enumerate(states)}
    edges = sorted(edges, key=lambda e: order[e["frm"]])
    square = len(states) == 4 and [
        (e["frm"], e["to"]) for e in edges] == [
        (states[i], states[(i + 1) % 4]) for i in range(4)]
    for i, e in enumerate(edges):
        box = "step_" + e["fn"]
        out.append('    %s [shape=box, style="rounded", color="#bbbbbb", '
                   'margin="0.12,0.06", label=%s];' % (box, edge_label(e)))
        if square and i >= 2:
            # Second row, right to left: laid out left to right, drawn
            # with reversed arrowheads.
            out.append('    %s -> %s [dir=back];' % (box, e["frm"]))
            out.append('    %s -> %s [dir=back];' % (e["to"], box))
        else:
            out.append('    %s -> %s;' % (e["frm"], box))
            out.append('    %s -> %s;' % (box, e["to"]))
    if square:
        a, b, c, d = states
        f = ["step_" + e["fn"] for e in edges]
        out.append('    {rank=same; %s; %s; %s}' % (a, f[0], b))
        out.append('    {rank=same; %s; %s}' % (f[3], f[1]))
        out.append('    {rank=same; %s; %s; %s}' % (d, f[2], c))
        out.append('    %s -> %s [style=invis];' % (f[3], f[1]))
    out.append('  }')
    # The flags go under the machine: below its last row.
    for f in flags:
        first = f["values"][0]
        top = ["init_%s" % v for _, v, init in f["writes"] if init]
        out.append('  %s -> %s [style=invis];' % (
            states[-1], top[0] if top else first))
    for n, f in enumerate(flags):
        out.append('  subgraph cluster_flag%d {' % n)
        out.append('    label="per CPU: rcu_data.%s"; style=rounded; '
                   'color="#999999"; fontsize=11;' % f["field"])
        for v in f["values"]:
            out.append('    %s [shape=box, style="rounded,filled", '
                       'fillcolor="#f4f4f4"];' % v)
        for fn, val, init in f["writes"]:
            if init:
                out.append('    init_%s [shape=point];' % val)
                out.append('    init_%s -> %s [label="%s()", '
                           'style=dashed];' % (val, val, fn))
                continue
            for other in f["values"]:
                if other != val:
                    out.append('    %s -> %s [label="%s()"];' % (
                        other, val, fn))
        out.append('  }')
    out.append('}')
    return "\n".join(out) + "\n"


def make(ctx):
    hdr, src, dyn = (read_source(p) for p in (HDR, SRC, DYN))
    states, edges, flags = model(hdr, src, dyn)
    dot = dot_source(states, edges, flags)
    with open(ctx.path("flip-machine.dot"), "w") as f:
        f.write(dot)
    p = subprocess.run(["dot", "-Tsvg", "-o", ctx.path("flip-machine.svg")],
                       input=dot, universal_newlines=True,
                       stderr=subprocess.PIPE)
    if p.returncode:
        raise FigureError("dot failed: %s" % p.stderr.strip())
    return "%d states, %d transitions, flags %s" % (
        len(states), len(edges), ", ".join(f["field"] for f in flags))
