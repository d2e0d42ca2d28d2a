# SPDX-License-Identifier: GPL-2.0
"""Tests of the pictures that cannot rot, run by tools/check_docs.py
(the docs suite of make test), or alone: python3 -m
tools.figures.test_figures.

1. Each generator that reads code fails, naming the construct (file:line
   and its text), when a construct it reads is broken: BREAKS edits the
   real sources, one construct at a time, and feeds them to the
   generator's parser.  One of them goes through the command make
   figures runs (python3 -m tools.figures), which must exit 1 with a
   FAILED line naming it; the same command on the unbroken copy must
   draw the picture.
2. The freshness check (fresh.py) flags a committed picture that differs
   from the one make figures drew, or that this run did not draw, and
   no picture that is the same or cannot be compared.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile

from tools.figures import FIGURES, NOT_DETERMINISTIC, ct_state_word, fresh
from tools.figures import data_structures, flip_machine
from tools.figures.common import ROOT, FigureError, read_source

HDR, SRC, DYN = flip_machine.HDR, flip_machine.SRC, flip_machine.DYN
CT = ct_state_word.HDR
TREE = "rcu/tree/tree.h"

# (file, text, its replacement, what the error must quote).  Each is a
# construct the generator reads, changed to one it does not know.
BREAKS = [
    (SRC, "for_each_cpu(cpu, &rcu_cpu_online_map)\n\t\tsum",
     "for_each_possible_cpu(cpu)\n\t\tsum", "for_each_possible_cpu(cpu)"),
    (SRC, "sum += READ_ONCE", "sum -= READ_ONCE", "sum -= READ_ONCE"),
    (SRC, "\t\t\tmoved = 1;\n\t\t}\n\t\tbreak;\n\tcase "
     "rcu_try_flip_waitack_state", "\t\t}\n\t\tbreak;\n\tcase "
     "rcu_try_flip_waitack_state", "case rcu_try_flip_idle_state:"),
    (SRC, "WRITE_ONCE(rdp->rcu_mb_flag, rcu_mb_done);\n\tif",
     "WRITE_ONCE(rdp->rcu_mb_flag, 0);\n\tif",
     "WRITE_ONCE(rdp->rcu_mb_flag, 0)"),
    (DYN, "if (curr != snap)\n\t\treturn 0;",
     "if (curr != snap)\n\t\treturn 2;", "if (curr != snap)"),
    (HDR, "rcu_try_flip_waitmb_state,", "rcu_try_flip_waitmb_state = "
     "RCU_TRY_FLIP_FIRST + 3,", "rcu_try_flip_waitmb_state = "),
    (CT, "#define CT_STATE_MASK\t\t3\n", "#define CT_STATE_MASK\t\t3\n"
     "#define CT_STATE_USER\t\t2\n", "#define CT_STATE_USER 2"),
    (HDR, "\tint rcu_update_flag;", "\tint rcu_update_flag : 4;",
     "int rcu_update_flag : 4"),
    (HDR, "\tint invoking;", "#ifdef CONFIG_STATS\n\tint invoking;\n"
     "#endif", "#ifdef CONFIG_STATS"),
    (TREE, "\tint grpnum;", "\tstruct { int n; } grpnum;",
     "struct { int n"),
    (TREE, "} __cacheline_aligned;\n\n/* Everything Tree RCU",
     "} __packed;\n\n/* Everything Tree RCU", "__packed"),
]

# The structs the data-structures pictures draw, by file.
DS_STRUCTS = {HDR: ("rcu_data", "rcu_ctrlblk"),
              TREE: ("rcu_node", "rcu_tree_data", "rcu_state")}


def parse(texts, rel):
    """Run the parsers of the generators that read rel on texts."""
    if rel == CT:
        ct_state_word.constants(texts[CT])
    for s in DS_STRUCTS.get(rel, ()):
        data_structures.fields(rel, s, texts[rel])
    if rel in (HDR, SRC, DYN):
        flip_machine.model(texts[HDR], texts[SRC], texts[DYN])


def quoted_line(text, quote):
    """The line of text on which the error must point: the first that
    holds quote (the error's squashed text: any run of blanks matches)."""
    m = re.search(r"\s+".join(re.escape(w) for w in quote.split()), text)
    return text.count("\n", 0, m.start()) + 1 if m else 0


def test_breaks():
    out = []
    texts = {rel: read_source(rel) for rel in (HDR, SRC, DYN, CT, TREE)}
    for rel in (HDR, SRC, CT, TREE):
        try:
            parse(texts, rel)
            out.append((True, "%s as it is: its generator understands it"
                        % rel))
        except Exception as e:
            out.append((False, "%s as it is: %s: %s" % (
                rel, type(e).__name__, e)))
    for rel, old, new, quote in BREAKS:
        if texts[rel].count(old) != 1:
            out.append((False, "%s: the construct to break is not there "
                        "once: %r" % (rel, old)))
            continue
        broken = dict(texts)
        broken[rel] = texts[rel].replace(old, new)
        want = "%s:%d: " % (rel, quoted_line(broken[rel], quote))
        try:
            parse(broken, rel)
            out.append((False, "%s with %r: the generator drew it" % (
                rel, quote)))
        except Exception as e:
            # A crash names nothing: as much a failure as a drawing.
            msg = str(e) if isinstance(e, FigureError) else \
                "crashed: %s: %s" % (type(e).__name__, e)
            out.append((msg.startswith(want) and quote in msg,
                        "%s with %r: fails naming %s%s" % (
                            rel, quote, want, "" if msg.startswith(want)
                            and quote in msg else " (said: %s)" % msg)))
    return out


def run_figures(src_root, out):
    """make figures' command, for the flip machine only, reading the C
    from src_root."""
    env = dict(os.environ, DYNRCU_FIGURES_SRC=src_root)
    return subprocess.run([sys.executable, "-m", "tools.figures", "--only",
                           "flip-machine", "--out", out], cwd=ROOT,
                          env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, universal_newlines=True)


def test_make_figures_fails():
    out = []
    rel, old, new, quote = BREAKS[0]
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "src")
        shutil.copytree(os.path.join(ROOT, os.path.dirname(SRC)),
                        os.path.join(src, os.path.dirname(SRC)))
        r = run_figures(src, os.path.join(tmp, "good"))
        out.append((r.returncode == 0 and os.path.isfile(os.path.join(
            tmp, "good", "flip-machine.svg")), "python3 -m tools.figures "
            "--only flip-machine on a copy of the C: exit %d, picture drawn"
            % r.returncode))
        path = os.path.join(src, rel)
        with open(path) as f:
            text = f.read()
        with open(path, "w") as f:
            f.write(text.replace(old, new))
        r = run_figures(src, os.path.join(tmp, "bad"))
        want = "FAILED: %s:%d: %s" % (
            rel, quoted_line(text.replace(old, new), quote), quote)
        out.append((r.returncode == 1 and want in r.stdout,
                    "python3 -m tools.figures --only flip-machine with %s: "
                    "exit %d, says '%s'%s" % (
                        quote, r.returncode, want, "" if want in r.stdout
                        else " (said: %s)" % r.stdout.strip()[-200:])))
    return out


def test_fresh():
    out = []
    names = [n for n, _ in FIGURES]
    with tempfile.TemporaryDirectory() as tmp:
        for d in (fresh.BUILD, fresh.DOCS):
            os.makedirs(os.path.join(tmp, d))
            for n in names:
                with open(os.path.join(tmp, d, n), "w") as f:
                    f.write("<svg>%s</svg>\n" % n)
        got = fresh.stale(tmp, set(names))
        out.append((got == [], "fresh: every committed picture as drawn: "
                    "none stale (%s)" % got))
        victim = "flip-machine.svg"
        with open(os.path.join(tmp, fresh.DOCS, victim), "a") as f:
            f.write("<!-- an older drawing -->\n")
        for n in NOT_DETERMINISTIC:
            with open(os.path.join(tmp, fresh.DOCS, n), "a") as f:
                f.write("<!-- another run -->\n")
        got = [n for n, _ in fresh.stale(tmp, set(names))]
        out.append((got == [victim], "fresh: a committed picture that "
                    "differs is stale, one that cannot be compared is not "
                    "(%s)" % got))
        got = [n for n, _ in fresh.stale(tmp, set(names) - {
            "waitack-grid.svg"})]
        out.append((got == [victim, "waitack-grid.svg"] or
                    sorted(got) == sorted([victim, "waitack-grid.svg"]),
                    "fresh: a picture this run did not draw is flagged "
                    "(%s)" % got))
    return out


def run():
    """[(ok, what)] of every test here."""
    return test_breaks() + test_make_figures_fails() + test_fresh()


def main():
    results = run()
    for ok, what in results:
        print("%s %s" % ("ok  " if ok else "FAIL", what))
    bad = sum(1 for ok, _ in results if not ok)
    print("%d passed, %d failed" % (len(results) - bad, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
