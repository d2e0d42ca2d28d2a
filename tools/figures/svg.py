# SPDX-License-Identifier: GPL-2.0
"""The SVG helpers every picture shares: a canvas of shapes and text,
its colours, and a rough text width (no font metrics: an estimate that
is generous enough that labels sized with it do not overflow)."""

from xml.sax.saxutils import escape

FONT = "DejaVu Sans, Verdana, sans-serif"
MONO = "DejaVu Sans Mono, Menlo, monospace"

# One palette for every picture: the same meaning, the same colour.
IDLE = "#c8d8c8"        # dynticks-idle, extended quiescent state
IRQ = "#4a7fd0"
NMI = "#d03030"
WATCHED = "#205020"     # counter odd / RCU watching
BAD = "#d03030"
GOOD = "#2a8a2a"
WAIT = "#f0a030"        # the flip machine must wait for this CPU
EXCUSED = "#cfe8cf"
GREY = "#888888"
LIGHT = "#f4f4f4"
INK = "#222222"


# What a CPU runs, outermost first, in the step-by-step pictures.
CONTEXT = {"task": "#b8b8b8", "idle": IDLE, "irq": IRQ,
           "irq entry": "#9db8e6", "NMI": NMI}


def text_width(s, size=11, mono=False):
    """Estimated width in px of s at font size `size`."""
    return len(str(s)) * size * (0.62 if mono else 0.58)


def fmt(v):
    """A number for an attribute: short, no trailing zeros."""
    if isinstance(v, float):
        return ("%.1f" % v).rstrip("0").rstrip(".")
    return str(v)


class Canvas:
    """Shapes appended in order (later ones on top); save() writes the
    file with a white background."""

    def __init__(self, width, height, title=None):
        self.w, self.h = width, height
        self.items = []
        self.defs = []
        if title:
            self.text(12, 22, title, size=15, weight="bold")

    def _attrs(self, **kw):
        out = []
        for k, v in kw.items():
            if v is None:
                continue
            out.append('%s="%s"' % (k.rstrip("_").replace("_", "-"),
                                    escape(fmt(v), {'"': "&quot;"})))
        return " ".join(out)

    def raw(self, s):
        self.items.append(s)

    def rect(self, x, y, w, h, fill="none", stroke=None, sw=1, rx=None,
             tip=None, dash=None, opacity=None):
        a = self._attrs(x=x, y=y, width=max(w, 0.5), height=max(h, 0.5),
                        fill=fill, stroke=stroke,
                        stroke_width=sw if stroke else None, rx=rx,
                        stroke_dasharray=dash, fill_opacity=opacity)
        if tip:
            self.items.append("<rect %s><title>%s</title></rect>" %
                              (a, escape(tip)))
        else:
            self.items.append("<rect %s/>" % a)

    def line(self, x1, y1, x2, y2, stroke=INK, sw=1, dash=None, arrow=False):
        if arrow:
            self._arrow_def(stroke)
        self.items.append("<line %s/>" % self._attrs(
            x1=x1, y1=y1, x2=x2, y2=y2, stroke=stroke, stroke_width=sw,
            stroke_dasharray=dash,
            marker_end=("url(#arrow%s)" % stroke.strip("#")) if arrow
            else None))

    def path(self, d, stroke=INK, sw=1, fill="none", dash=None, arrow=False):
        if arrow:
            self._arrow_def(stroke)
        self.items.append("<path %s/>" % self._attrs(
            d=d, stroke=stroke, stroke_width=sw, fill=fill,
            stroke_dasharray=dash,
            marker_end=("url(#arrow%s)" % stroke.strip("#")) if arrow
            else None))

    def _arrow_def(self, colour):
        key = "arrow%s" % colour.strip("#")
        if any(key in d for d in self.defs):
            return
        self.defs.append(
            '<marker id="%s" viewBox="0 0 10 10" refX="9" refY="5" '
            'markerWidth="7" markerHeight="7" orient="auto-start-reverse">'
            '<path d="M0,0 L10,5 L0,10 z" fill="%s"/></marker>' %
            (key, colour))

    def text(self, x, y, s, size=11, anchor="start", fill=INK, weight=None,
             mono=False, italic=False, tip=None):
        a = self._attrs(x=x, y=y, font_size=size, text_anchor=anchor,
                        fill=fill, font_weight=weight,
                        font_family=MONO if mono else None,
                        font_style="italic" if italic else None)
        body = escape(str(s))
        if tip:
            body += "<title>%s</title>" % escape(tip)
        self.items.append("<text %s>%s</text>" % (a, body))

    def lines(self, x, y, rows, size=11, step=None, **kw):
        """Several lines of text from (x, y) down; returns the y after."""
        step = step or size + 4
        for r in rows:
            self.text(x, y, r, size=size, **kw)
            y += step
        return y

    def legend(self, x, y, entries, size=11):
        """Swatches in a row: [(colour, label)]; returns the x after."""
        for colour, label in entries:
            self.rect(x, y - size + 1, size, size, fill=colour,
                      stroke=GREY, sw=0.5)
            self.text(x + size + 4, y, label, size=size)
            x += size + 16 + text_width(label, size)
        return x

    def nest(self, x, y, svg_text):
        """Place a whole SVG document (another tool's) at (x, y)."""
        body = svg_text.split(">", 1)[1].rsplit("</svg>", 1)[0]
        head = svg_text.split(">", 1)[0] + ">"
        head = head.replace("<svg ", '<svg x="%s" y="%s" ' % (fmt(x), fmt(y)),
                            1)
        self.items.append(head + body + "</svg>")

    def context_row(self, x, y, lane, height, levels, prev, tip=None):
        """One step's context stack (outermost first) as cells side by
        side, each `lane` wide; a cell is named where it begins (not in
        `prev`, the step before's stack at that depth)."""
        for d, kind in enumerate(levels):
            self.rect(x + d * lane, y, lane - 2, height,
                      fill=CONTEXT.get(kind, LIGHT), tip=tip)
            if prev is None or prev[d:d + 1] != [kind]:
                self.text(x + d * lane + 4, y + 13, kind, size=9,
                          fill="white" if kind in ("irq", "NMI") else INK)

    def render(self):
        out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%s" '
               'height="%s" viewBox="0 0 %s %s" font-family="%s" '
               'font-size="11">' % (fmt(self.w), fmt(self.h), fmt(self.w),
                                    fmt(self.h), FONT)]
        if self.defs:
            out.append("<defs>%s</defs>" % "".join(self.defs))
        out.append('<rect width="100%" height="100%" fill="white"/>')
        out += self.items
        out.append("</svg>")
        return "\n".join(out) + "\n"

    def save(self, path):
        with open(path, "w") as f:
            f.write(self.render())
