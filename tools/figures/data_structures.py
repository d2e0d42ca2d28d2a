# SPDX-License-Identifier: GPL-2.0
"""data-structures-2008.svg and data-structures-tree.svg: the structs of
each RCU design, read from their C definitions: one box per struct, one
row per field (its type, name and trailing comment), an arrow from each
field that points to or embeds another drawn struct, and the extern
declarations that say which structs are per CPU (an array of NR_CPUS)
and which are global.  The parser knows plain members (TYPE name, TYPE
*name, TYPE name[N], TYPE a, b), function pointers and union members;
anything else in a drawn struct (a bit field, a nested definition, a
preprocessor line) is an error naming it, file:line and text.  Drawn by
graphviz dot.  Used by data_structures_2008.py and
data_structures_tree.py."""

import html
import re
import subprocess

from tools.figures.common import (FigureError, balanced, line_of,
                                  not_understood, read_source, squash,
                                  strip_comments)
from tools.figures import svg

TYPE = (r"(?:const\s+)?(?:unsigned\s+(?:long|int|char)|long|int|char|bool|"
        r"void|u8|u16|u32|u64|struct\s+\w+|union\s+\w+)")
MEMBER = re.compile(r"(%s)\s*((?:\**\s*\w+\s*(?:\[\s*\w+\s*\])?\s*,\s*)*"
                    r"\**\s*\w+\s*(?:\[\s*\w+\s*\])?)$" % TYPE)
FUNC_PTR = re.compile(r"(%s\s*\**)\s*\(\s*\*\s*(\w+)\s*\)\s*\(([^()]*)\)$"
                      % TYPE)
# What may follow a struct's closing brace.
ATTRIBUTES = ("", "__cacheline_aligned")


def fields(rel, name, text=None):
    """The members of struct name in rel (text: its contents, if not to
    be read), in order: [dict(type, name, dim, note, line, target,
    embeds)]."""
    if text is None:
        text = read_source(rel)
    code = strip_comments(text)
    m = re.search(r"^struct\s+%s\s*\{" % re.escape(name), code, re.M)
    if not m:
        raise FigureError("%s: no definition of struct %s" % (rel, name))
    start = m.end()
    body = balanced(code, m.end() - 1)
    end = start + len(body)
    after = code[end + 1:code.index(";", end)]
    if squash(after) not in ATTRIBUTES:
        raise not_understood(rel, code, end + 1, "after struct %s: not "
                             "one of the attributes the picture knows (%s)"
                             % (name, ", ".join(a for a in ATTRIBUTES if a)))
    lines = text.splitlines()
    out = []
    i = start
    while True:
        k = re.compile(r"\S").search(code, i, end)
        if not k:
            return out
        i = k.start()
        stop = code.find(";", i, end)
        decl = squash(code[i:stop if stop >= 0 else end])
        if stop < 0 or "{" in decl or decl.startswith("#") or ":" in decl:
            raise not_understood(rel, code, i, "a member of struct %s the "
                                 "data-structures picture does not know"
                                 % name, stop if stop >= 0 else None)
        ln = line_of(code, i)
        # The comment that ends the member's last line, if any.
        tail = re.search(r"/\*\s*(.*?)\s*\*/\s*$|//\s*(.*)$",
                         lines[line_of(code, stop) - 1])
        note = (tail.group(1) or tail.group(2)) if tail else ""
        f = FUNC_PTR.match(decl)
        if f:
            out.append(dict(type=squash(f.group(1)) + " (*)(%s)" %
                            squash(f.group(3)), name=f.group(2), dim="",
                            note=note, line=ln, target=None, embeds=False))
            i = stop + 1
            continue
        m = MEMBER.match(decl)
        if not m:
            raise not_understood(rel, code, i, "a member of struct %s the "
                                 "data-structures picture does not know"
                                 % name, stop)
        base = squash(m.group(1))
        for d in m.group(2).split(","):
            d = squash(d)
            stars = d.count("*")
            n = re.search(r"(\w+)\s*(?:\[\s*(\w+)\s*\])?$", d)
            target = re.match(r"struct\s+(\w+)$", base)
            out.append(dict(type=base + " " + "*" * stars if stars
                            else base, name=n.group(1),
                            dim=n.group(2) or "", note=note, line=ln,
                            target=target.group(1) if target else None,
                            embeds=not stars))
        i = stop + 1


def externs(rel):
    """{struct: (variable, dimension or '')}: the header's extern
    declarations of struct variables."""
    out = {}
    code = strip_comments(read_source(rel))
    for m in re.finditer(r"^extern\s+struct\s+(\w+)\s+(\w+)\s*"
                         r"(?:\[\s*(\w+)\s*\])?\s*;", code, re.M):
        out[m.group(1)] = (m.group(2), m.group(3) or "")
    return out


def row(f, port):
    dim = "[%s]" % f["dim"] if f["dim"] else ""
    # graphviz rejects an empty <font>: no comment, an empty cell.
    note = '<font color="%s" point-size="9">%s</font>' % (
        svg.GREY, html.escape(f["note"])) if f["note"] else ""
    # The port is the last cell: arrows leave the box on its right.
    return ('<tr><td align="left"><font face="monospace" point-size="9">'
            '%s</font></td><td align="left"><b>%s</b>%s</td>'
            '<td port="%s" align="left">%s</td></tr>' % (
                html.escape(f["type"]), html.escape(f["name"]),
                html.escape(dim), port, note))


def dot_source(design, boxes, instances):
    """boxes: [(struct, rel, fields, only, where)], only: the names drawn
    (None: all), where: what the header says of its instances (None: from
    instances, {struct: (variable, dim)})."""
    drawn = {s for s, _, _, _, _ in boxes}
    out = ['digraph ds {',
           '  graph [rankdir=LR, nodesep=0.3, ranksep=0.6, '
           'fontname="DejaVu Sans", fontsize=12, labelloc=t, '
           'label=<<b>%s</b><br/>%s<br/> >];' % (
               html.escape(design["title"]), html.escape(design["sub"])),
           '  node [shape=plaintext, fontname="DejaVu Sans", '
           'fontsize=10];',
           '  edge [fontname="DejaVu Sans", fontsize=9, color="#4a7fd0"];']
    edges = []
    for s, rel, fs, only, where in boxes:
        var = instances.get(s)
        inside = [t for t, _, tfs, _, _ in boxes for f in tfs
                  if f["target"] == s and f["embeds"]]
        if where:
            head, fill = where, svg.LIGHT
        elif inside:
            head, fill = "inside struct %s" % inside[0], svg.LIGHT
        elif var:
            head = "%s%s" % (var[0], "[%s]: one per CPU" % var[1]
                             if var[1] else ": global")
            fill = "#e3ecf8" if var[1] else "#fde9c8"
        else:
            head = "reached through pointers"
            fill = svg.LIGHT
        rows = ['<tr><td colspan="3" bgcolor="%s"><b>struct %s</b>'
                '<br/><font point-size="9">%s (%s)</font></td></tr>' % (
                    fill, s, html.escape(head), rel)]
        if only is not None:
            rows.append('<tr><td colspan="3"><font point-size="9" '
                        'color="%s">its RCU fields only</font></td></tr>'
                        % svg.GREY)
        for k, f in enumerate(fs):
            if only is not None and f["name"] not in only:
                continue
            port = "f%d" % k
            rows.append(row(f, port))
            if f["target"] in drawn:
                edges.append('  %s:%s:e -> %s [%s];' % (
                    s, port, f["target"], "arrowtail=diamond, dir=both, "
                    "label=\"contains\"" if f["embeds"] else ""))
        out.append('  %s [label=<<table border="0" cellborder="1" '
                   'cellspacing="0" cellpadding="3">%s</table>>];' % (
                       s, "".join(rows)))
    out += edges
    out.append('}')
    return "\n".join(out) + "\n"


def draw(ctx, design):
    """Parse design's structs, write its picture; the summary line."""
    boxes = []
    instances = {}
    for rel in design["externs"]:
        instances.update(externs(rel))
    for rel, s, only, where in design["structs"]:
        fs = fields(rel, s)
        if only is not None:
            missing = [n for n in only if n not in [f["name"] for f in fs]]
            if missing:
                raise FigureError("%s: struct %s has no %s" % (
                    rel, s, ", ".join(missing)))
        boxes.append((s, rel, fs, only, where))
    dot = dot_source(design, boxes, instances)
    base = ctx.path(design["svg"][:-len(".svg")])
    with open(base + ".dot", "w") as f:
        f.write(dot)
    p = subprocess.run(["dot", "-Tsvg", "-o", base + ".svg"], input=dot,
                       universal_newlines=True, stderr=subprocess.PIPE)
    if p.returncode:
        raise FigureError("dot failed: %s" % p.stderr.strip())
    return "%d structs, %d fields drawn" % (len(boxes), sum(
        len(fs) if only is None else len(only)
        for _, _, fs, only, _ in boxes))
