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
                                  function_body, function_span,
                                  not_understood, read_source, squash,
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


# The per-CPU loops the picture knows: their statements are drawn "each
# CPU: ..." and their tests "when no CPU has ...".
LOOPS = re.compile(r"for_each_cpu\s*\(\s*cpu\s*,\s*&\s*rcu_cpu_online_map"
                   r"\s*\)|for_each_online_cpu\s*\(\s*cpu\s*\)")
DECL = re.compile(r"(?:int|long|struct\s+\w+\s*\*)\s*(\w+)$")
DECL_INIT = re.compile(r"(?:int|long|struct\s+\w+\s*\*)\s*(\w+)\s*=\s*(.+)$",
                       re.S)


def statement_end(code, i, end, rel):
    """The offset just past the statement that starts at code[i]."""
    if code[i] == "{":
        return i + len(balanced(code, i)) + 2
    m = re.match(r"if\s*\(", code[i:end])
    if m:
        cond = balanced(code, i + m.end() - 1)
        j = i + m.end() + len(cond) + 1
        k = re.compile(r"\S").search(code, j, end)
        if not k:
            raise not_understood(rel, code, i, "an if with no body")
        return statement_end(code, k.start(), end, rel)
    depth = 0
    for j in range(i, end):
        if code[j] in "([{":
            depth += 1
        elif code[j] in ")]}":
            depth -= 1
        elif code[j] == ";" and depth == 0:
            return j + 1
    raise not_understood(rel, code, i, "a statement with no ';'")


def statements(code, start, end, rel, per_cpu=False):
    """The statements of code[start:end] (a function body, comments
    blanked), in order, each (kind, what, per_cpu, offset):
    ('wait', cond) for "if (cond) return 0;", ('do', text) for a store,
    a call or a barrier, ('set', (local, expr)) for a local's value.
    Declarations and the final "return 1;" are known and left out; any
    other construct is an error that names it (file:line and text), so
    that a picture never drops what it does not understand."""
    out = []
    i = start
    nonblank = re.compile(r"\S")
    while True:
        m = nonblank.search(code, i, end)
        if not m:
            return out
        i = m.start()
        rest = code[i:end]
        loop = LOOPS.match(rest)
        if loop:
            k = nonblank.search(code, i + loop.end(), end)
            if not k:
                raise not_understood(rel, code, i, "a loop with no body")
            stop = statement_end(code, k.start(), end, rel)
            out += statements(code, k.start(), stop, rel, True)
            i = stop
            continue
        if re.match(r"(?:for|for_each_\w+|while|do|switch|goto|else)\b",
                    rest):
            raise not_understood(rel, code, i, "a loop or branch the "
                                 "flip-machine picture does not know")
        if rest.startswith("{"):
            stop = statement_end(code, i, end, rel)
            out += statements(code, i + 1, stop - 1, rel, per_cpu)
            i = stop
            continue
        m = re.match(r"if\s*\(", rest)
        if m:
            cond = balanced(code, i + m.end() - 1)
            after = i + m.end() + len(cond) + 1
            r = re.match(r"\s*return\s+0\s*;", code[after:end])
            if not r:
                raise not_understood(rel, code, i, "an if whose body is "
                                     "not 'return 0;'")
            out.append(("wait", cond, per_cpu, i))
            i = after + r.end()
            continue
        stop = statement_end(code, i, end, rel)
        text = squash(code[i:stop - 1])
        out += one_statement(text, per_cpu, i, code, rel)
        i = stop


def one_statement(text, per_cpu, i, code, rel):
    """A simple statement (no ';') as statements() lists it."""
    if text == "return 1" or DECL.match(text):
        return []
    m = DECL_INIT.match(text) or re.match(r"(\w+)\s*=(?!=)\s*(.+)$", text,
                                         re.S)
    if m:
        return [("set", (m.group(1), m.group(2)), per_cpu, i)]
    m = re.match(r"WRITE_ONCE\s*\((.*)\)$", text, re.S)
    if m:
        dst, val = [short(a) for a in m.group(1).split(",", 1)]
        what = dst + "++" if val == dst + " + 1" else "%s = %s" % (dst, val)
        return [("do", what, per_cpu, i)]
    if re.match(r"smp_mb\s*\(\s*\)$", text):
        return [("do", "smp_mb()", per_cpu, i)]
    m = re.match(r"(\w+)\s*\+=\s*(.+)$", text, re.S)
    if m:
        return [("do", "%s += %s" % (m.group(1), short(m.group(2))),
                 per_cpu, i)]
    m = re.match(r"(\w+)\s*\(\s*cpu\s*\)$", text)
    if m:
        return [("do", m.group(1) + "()", per_cpu, i)]
    raise not_understood(rel, code, i, "a statement the flip-machine "
                         "picture does not know", i + len(text))


def step_statements(text, fn):
    """A step function's statements, a local's value drawn as a store."""
    start, end = function_span(text, fn, SRC)
    out = []
    for kind, what, pc, off in statements(strip_comments(text), start, end,
                                          SRC):
        if kind == "set":
            kind, what = "do", "%s = %s" % (what[0], short(what[1]))
        out.append((kind, what, pc, off))
    return out


def excuses(dyn, name, rel=None):
    """The tests of a *_needed() function that excuse a CPU (return 0),
    and what its locals are loaded from: ([test], [(local, field)]).
    Its other statements must be what the picture leaves out on purpose:
    rdp's lookup and the barrier after the loads."""
    rel = rel or DYN
    code = strip_comments(dyn)
    start, end = function_span(dyn, name, rel)
    conds, loads = [], []
    for kind, what, pc, off in statements(code, start, end, rel):
        if kind == "wait":
            conds.append(short(what))
            continue
        if kind == "do" and what == "smp_mb()":
            continue
        if kind == "set":
            local, expr = what[0], squash(what[1])
            if local == "rdp" and re.fullmatch(
                    r"RCU_DATA_CPU\s*\(\s*cpu\s*\)", expr):
                continue
            m = re.fullmatch(r"READ_ONCE\s*\(\s*rdp->(\w+)\s*\)", expr)
            if m:
                loads.append((local, m.group(1)))
                continue
        raise not_understood(rel, code, off, "%s(): the picture shows only "
                             "its excuse tests and their loads" % name)
    if not conds:
        raise FigureError("%s: %s() has no 'return 0' test" % (rel, name))
    return conds, loads


def flag_writes(src, field, values):
    """Every store to rcu_data.field in the file: [(function, value,
    is_init)].  A store whose value is not one of the enum's, or that
    is outside a function, is an error naming it."""
    code = strip_comments(src)
    defs = [(d.group(1), d.end(), d.end() + len(balanced(code, d.end() - 1)))
            for d in re.finditer(r"^[\w][\w \t\*]*?\b(\w+)\s*\([^)]*\)"
                                 r"\s*\{", code, re.M)]
    out = []
    for w in re.finditer(r"\bWRITE_ONCE\s*\(\s*[^,;]*\b%s\s*,|"
                         r"(?:->|\.)%s\s*=(?!=)" % (field, field), code):
        fn = [n for n, a, b in defs if a <= w.start() < b]
        stop = code.index(";", w.start())
        text = squash(code[w.start():stop])
        m = re.fullmatch(r"WRITE_ONCE\s*\(.*,\s*(\w+)\s*\)", text) or \
            re.fullmatch(r"(?:->|\.)\w+\s*=\s*(\w+)", text)
        if not fn or not m or m.group(1) not in values:
            raise not_understood(SRC, code, w.start(), "a store to %s the "
                                 "picture cannot draw (value not one of "
                                 "%s, or outside a function)" % (
                                     field, ", ".join(values)), stop)
        out.append((fn[0], m.group(1), not text.startswith("WRITE_ONCE")))
    return out


CASE = re.compile(r"if\s*\(\s*(\w+)\s*\(\s*\)\s*\)\s*\{\s*next\s*=\s*(\w+)"
                  r"\s*;\s*moved\s*=\s*1\s*;\s*\}\s*break\s*;\s*$")


def transitions(src):
    """The switch of rcu_try_flip(): [(state, step function, next
    state)].  Each case must be "if (step()) { next = S; moved = 1; }
    break;"; any other case, or text outside a case, is an error."""
    code = strip_comments(src)
    start, end = function_span(src, MACHINE, SRC)
    sw = list(re.finditer(r"\bswitch\s*\(\s*state\s*\)\s*\{",
                          code[:end]))
    sw = [m for m in sw if m.start() >= start]
    if len(sw) != 1:
        raise FigureError("%s: %s() has %d 'switch (state)', not one" % (
            SRC, MACHINE, len(sw)))
    open_at = sw[0].end() - 1
    body_end = open_at + 1 + len(balanced(code, open_at))
    cases = list(re.finditer(r"\b(case\s+(\w+)|default)\s*:", code[:body_end]))
    cases = [m for m in cases if m.start() > open_at]
    lead = open_at + 1
    if not cases or code[lead:cases[0].start()].strip():
        raise not_understood(SRC, code, lead if not cases else
                             cases[0].start(), "a switch the picture does "
                             "not know")
    out = []
    for k, m in enumerate(cases):
        stop = cases[k + 1].start() if k + 1 < len(cases) else body_end
        c = CASE.match(code[m.end():stop].strip())
        if not m.group(2) or not c:
            raise not_understood(SRC, code, m.start(), "a case the "
                                 "flip-machine picture does not know",
                                 stop)
        out.append((m.group(2), c.group(1), c.group(2)))
    return out


def model(hdr, src, dyn):
    """States, edges and flags of the machine, from the sources."""
    states = [n for n, _ in enum_values(hdr, MACHINE + "_states", HDR)
              if n != "RCU_TRY_FLIP_NR_STATES"]
    if not states:
        raise FigureError("%s: enum %s_states is empty" % (HDR, MACHINE))
    edges = []
    for frm, fn, to in transitions(src):
        for s in (frm, to):
            if s not in states:
                raise FigureError("%s: %s() moves to %s, not in enum %s_"
                                  "states" % (SRC, MACHINE, s, MACHINE))
        sts = step_statements(src, fn)
        needed = sorted(set(re.findall(r"\b(\w+_needed)\s*\(",
                                       function_body(src, fn, SRC))))
        edges.append(dict(frm=frm, to=to, fn=fn, sts=sts,
                          excuses=[(n, excuses(dyn, n)) for n in needed]))
    if len(edges) != len(states):
        raise FigureError("%s: %s() has %d transitions for %d states" % (
            SRC, MACHINE, len(edges), len(states)))
    flags = []
    for enum in FLAG_ENUMS:
        values = [n for n, _ in enum_values(hdr, enum, HDR)]
        field = enum[:-len("_values")]
        flags.append(dict(field=field, values=values,
                          writes=flag_writes(src, field, values)))
    return states, edges, flags


def label(s):
    return re.sub(r"^%s_(\w+)_state$" % MACHINE, r"\1", s)


def edge_label(e):
    rows = ['<b>%s()</b>' % html.escape(e["fn"])]
    waits = [(c, pc) for k, c, pc, _ in e["sts"] if k == "wait"]
    for c, pc in waits:
        if pc:
            rows.append("when no CPU has")
            rows.append("&nbsp;&nbsp;%s" % html.escape(short(c)))
        else:
            rows.append("when %s" % html.escape(negate(c)))
    # Statements before the last test are how the test is computed.
    last_wait = max([i for i, (k, _, _, _) in enumerate(e["sts"])
                     if k == "wait"], default=-1)
    pre = [("each CPU: " if pc else "") + t
           for i, (k, t, pc, _) in enumerate(e["sts"])
           if k == "do" and i < last_wait]
    post = [(t, pc) for i, (k, t, pc, _) in enumerate(e["sts"])
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
