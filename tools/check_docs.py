#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The map stays true: every code reference in the reading pages resolves.

python3 -m tools.check_docs [FILE.md ...]

Reads every explanatory page (docs/*.md but docs/records/, and
README.md; or the files given) and resolves every reference it makes, in
the syntax documented at the top of docs/article.md.  Inside
`backticks`:

  path/to/file, path/dir/, path/*.glob   exists (at least one match)
  path/to/file.c:name()                  the file defines name: a C or
                                         Promela definition line, a
                                         #define, a KTEST*(name), a Python
                                         def/class
  make TARGET ...                        TARGET is a rule of Makefile or
                                         of a */*.mk it includes
  tests=a,b (anywhere in the span)       each is a KTAP test: KTEST(a),
                                         KTEST_HOOK(a) or KTEST_LONG(a)
                                         under tests/kernel/
  mutant:NAME                            a mutant of some layer: Spin
                                         (tests/spin/mutants/NAME.sed), host
                                         or kernel (tests/mutants/*/*/
                                         NAME.patch), Linux (linux/mutants/
                                         NAME.patch) or gdb (a name in a
                                         MUTANTS list of tools/gdb/test.py)
  count(GLOB) = N                        GLOB matches N files
  count(file.py:LIST) = N                the Python list LIST in file.py
                                         has N entries
  python3 -m pkg.mod ...                 pkg/mod.py exists

Lines between <!-- check_docs: off --> and <!-- check_docs: on --> are
not read (the page that documents this syntax uses placeholders).  A
span must not break across lines: the check reads a line at a time.

A path is a word whose first component is a top-level directory of the
repository (rcu/, kernel/, tests/, ...); other words are prose (so a
path of another tree is written from its own root, linux-source-6.12/...).
Markdown links [text](target) to a local file must resolve too, and a
link's #anchor must be a heading of its page (GitHub's anchors); a link to
docs/figures/NAME.svg is a picture that "make figures" writes as
build/figures/NAME.svg: the check runs that target and requires each
linked picture.  If the Makefile has no figures target yet, that part is
skipped and says so.

Two rules tie what a page says to the command that shows it.  Both
read a page as units: a paragraph, a list item, a table row, a fenced
block.  A table row's or list item's unit also takes in the table's
header and the paragraph just before the table or list (its caption); a
fenced block's takes in the paragraph just before it.

  runners   each `mutant:NAME` sits in a unit that names, in backticks,
            a command that runs that mutant: for a Spin mutant with a
            "# suite: unbounded" line `make verify-unbounded` (or
            python3 -m tests.spin.unbounded), for any other Spin mutant
            `make verify` (tests.spin.run; also `make verify-big` for the
            7- and R- ones); a kernel mutant `python3 -m
            tests.mutants.run` (and `make verify` if it has "Spin:"
            lines); a host mutant `make host-test` or `make
            host-mutants`; a Linux mutant `make linux-test-all` (and
            `make linux-test` for the two it boots); a gdb mutant `make
            gdb-test`.  `make test` runs all but the unbounded Spin ones
            and the Linux ones linux-test leaves out.
  numbers   a measured number (followed by states, passed, failed, s,
            ms, us, ns, min, MB, GB, cycles or checks, outside
            backticks; binary sizes, KiB and up, are design sizes here)
            sits in a unit, or under a heading, that names in backticks
            the command that produces it: `make TARGET` or `python3 -m
            MODULE`, in backticks or, in a code block, as its own
            command line; on a page that begins "Written by `make
            TARGET`", that command covers the page.  A bound or a
            setting is not a measurement: a number right after "up to", "at most", "at least", "every",
            "within", "after", "than", "per", "each", "limit",
            "timeout", "budget" or "default", or given as the value of
            a name in backticks ("`NAME` (3 ms)"), is not read, nor is
            a quotation in double quotes (the article's own numbers).

The explanatory pages (docs/*.md but docs/records/) must also cite no
issue numbers and no path outside the repository.

Before all that, a self-test runs the checker on a small fixture with one
good and one dead reference of each kind, and a good and a broken unit
for each rule: each dead one must be flagged and no good one, so a
checker that cannot fail fails.

Ends with "N passed, N failed"; exit status 1 on any failure.
"""

import glob
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The pages checked when none is given: every explanatory page
# (explanatory_pages()); docs/records/ keeps dated logs and is not read.
PAGES = None
TOPS = ("arch", "boot", "build", "docs", "kernel", "linux", "rcu", "tests",
        "tools")

SPAN = re.compile(r"`([^`\n]+)`")
LINK = re.compile(r"\]\(([^)\s]+)\)")
PATHWORD = re.compile(r"^(?:%s)/[\w./*+-]*" % "|".join(TOPS))
FUNCREF = re.compile(r"^([\w./*-]+):(\w+)\(\)$")
COUNT = re.compile(r"^count\(([^)]+)\)\s*=\s*(\d+)$")
MUTANT = re.compile(r"mutant:([\w.+-]+)")
TESTS = re.compile(r"\btests=([\w,]+)")
MAKE = re.compile(r"^make\s+(.*)$")
PYMOD = re.compile(r"python3 -m ([\w.]+)")


class Repo:
    """What references resolve against, read once from a tree."""

    def __init__(self, root):
        self.root = root
        self._targets = None
        self._ktests = None
        self._mutants = None

    def path(self, p):
        return os.path.join(self.root, p)

    def exists(self, p):
        if any(c in p for c in "*?["):
            return bool(glob.glob(self.path(p)))
        return os.path.exists(self.path(p))

    def read(self, p):
        with open(self.path(p), errors="replace") as f:
            return f.read()

    def defines(self, p, name):
        """Does file p define name (a function, macro, proctype, test)?"""
        text = self.read(p)
        n = re.escape(name)
        pats = [
            # C: the name and its parameters at the start of a line or
            # after a type, in a line that is not a declaration or call.
            r"^(?![ \t])(?:[\w*]+[ \t*]+)*%s\s*\([^;]*$" % n,
            r"^#\s*define\s+%s\b" % n,
            r"^\s*(?:active\s+)?(?:proctype|inline)\s+%s\s*\(" % n,
            r"\bKTEST\w*\(\s*%s\s*\)" % n,
            r"^\s*(?:def|class)\s+%s\b" % n,
        ]
        return any(re.search(pt, text, re.M) for pt in pats)

    def make_files(self):
        files = ["Makefile"]
        files += sorted(glob.glob(self.path("*/*.mk")))
        files += sorted(glob.glob(self.path("*/*/*.mk")))
        return [os.path.relpath(f, self.root) if os.path.isabs(f) else f
                for f in files]

    def targets(self):
        if self._targets is None:
            t = set()
            for f in self.make_files():
                if not os.path.exists(self.path(f)):
                    continue
                for m in re.finditer(r"^([\w./%$() -]+?)\s*::?(?!=)",
                                     self.read(f), re.M):
                    t.update(m.group(1).split())
            self._targets = t
        return self._targets

    def ktests(self):
        if self._ktests is None:
            names = set()
            for f in glob.glob(self.path("tests/kernel/**/*.c"),
                               recursive=True):
                with open(f, errors="replace") as fh:
                    names.update(re.findall(r"\bKTEST\w*\(\s*(\w+)\s*\)",
                                            fh.read()))
            self._ktests = names
        return self._ktests

    def mutants(self):
        if self._mutants is None:
            names = set()
            for g in ("tests/spin/mutants/*.sed", "tests/spin/wmm/*.sed",
                      "tests/mutants/*/*/*.patch", "linux/mutants/*.patch"):
                for f in glob.glob(self.path(g)):
                    names.add(os.path.splitext(os.path.basename(f))[0])
            gdb = self.path("tools/gdb/test.py")
            if os.path.exists(gdb):
                names.update(self.list_names("tools/gdb/test.py"))
            self._mutants = names
        return self._mutants

    def runners(self, name):
        """The commands that run mutant name: a set of ("make", TARGET)
        and ("python3 -m", MODULE) pairs, over every layer that has a
        mutant of that name (empty if none has)."""
        out = set()
        verify = {("make", "verify"), ("python3 -m", "tests.spin.run"),
                  ("make", "test")}
        for d in ("tests/spin/mutants", "tests/spin/wmm"):
            f = "%s/%s.sed" % (d, name)
            if not self.exists(f):
                continue
            if re.search(r"^#\s*suite:\s*unbounded", self.read(f), re.M):
                out |= {("make", "verify-unbounded"),
                        ("python3 -m", "tests.spin.unbounded")}
            else:
                out |= verify
                if d.endswith("mutants") and name[:2] in ("7-", "R-"):
                    out |= {("make", "verify-big"),
                            ("python3 -m", "tests.spin.big")}
        for f in glob.glob(self.path("tests/mutants/kernel/*/%s.patch"
                                     % name)):
            out |= {("python3 -m", "tests.mutants.run"), ("make", "test")}
            with open(f, errors="replace") as fh:
                if re.search(r"^Spin:\s+\w+\s+\d", fh.read(), re.M):
                    out |= verify
        if glob.glob(self.path("tests/mutants/host/*/%s.patch" % name)):
            out |= {("make", "host-test"), ("make", "host-mutants"),
                    ("make", "test")}
        if self.exists("linux/mutants/%s.patch" % name):
            out |= {("make", "linux-test-all")}
            quick = ""
            if self.exists("linux/linux-test.sh"):
                m = re.search(r'^quick_mutants="([^"]*)"',
                              self.read("linux/linux-test.sh"), re.M)
                quick = m.group(1) if m else ""
            if name in quick.split():
                out |= {("make", "linux-test"), ("make", "test")}
        if self.exists("tools/gdb/test.py") and \
                name in self.list_names("tools/gdb/test.py"):
            out |= {("make", "gdb-test"), ("python3 -m", "tools.gdb.test"),
                    ("make", "test")}
        return out

    def anchors(self, p):
        """The anchors of page p's headings, as GitHub makes them:
        lower case, punctuation dropped, spaces to hyphens, a repeated
        one numbered."""
        seen = {}
        out = set()
        fence = False
        for line in self.read(p).splitlines():
            if line.lstrip().startswith("```"):
                fence = not fence
            m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
            if fence or not m:
                continue
            a = re.sub(r"[^\w\- ]", "", m.group(1).lower()).replace(" ", "-")
            n = seen.get(a, 0)
            seen[a] = n + 1
            out.add(a if n == 0 else "%s-%d" % (a, n))
        return out

    def list_entries(self, p, var):
        """The entries (first string of each tuple) of list var in p."""
        m = re.search(r"^%s\s*=\s*\[(.*?)^\]" % re.escape(var),
                      self.read(p), re.M | re.S)
        if not m:
            return None
        return re.findall(r"^\s*\(\s*\"([^\"]+)\"", m.group(1), re.M)

    def list_names(self, p):
        names = []
        for var in re.findall(r"^(\w*MUTANTS)\s*=\s*\[", self.read(p), re.M):
            names += self.list_entries(p, var) or []
        return names


def check_span(repo, span):
    """Problems (strings) with one backtick span; [] if it resolves."""
    bad = []
    s = span.strip()
    m = COUNT.match(s)
    if m:
        what, want = m.group(1).strip(), int(m.group(2))
        fm = re.match(r"^([\w./-]+\.py):(\w+)$", what)
        if fm:
            if not repo.exists(fm.group(1)):
                return [f"no file {fm.group(1)}"]
            got = repo.list_entries(fm.group(1), fm.group(2))
            if got is None:
                return [f"no list {fm.group(2)} in {fm.group(1)}"]
            got = len(got)
        else:
            got = len(glob.glob(repo.path(what)))
        if got != want:
            bad.append(f"{what}: counted {got}, the page says {want}")
        return bad
    m = FUNCREF.match(s)
    if m:
        f, name = m.groups()
        if not repo.exists(f):
            return [f"no file {f}"]
        if not repo.defines(f, name):
            bad.append(f"{f} defines no {name}()")
        return bad
    m = MAKE.match(s)
    if m:
        words = m.group(1).split()
        mk = None
        targets = []
        i = 0
        while i < len(words):
            w = words[i]
            if w == "-f" and i + 1 < len(words):
                mk = words[i + 1]
                i += 2
                continue
            if not w.startswith("-") and "=" not in w and \
                    re.match(r"^[\w.-]+$", w):
                targets.append(w)
            i += 1
        if mk and not repo.exists(mk):
            bad.append(f"no makefile {mk}")
        for t in targets:
            if t == "figures" and t not in repo.targets():
                continue        # not wired yet: figures_made() says so
            if t not in repo.targets():
                bad.append(f"no make target {t}")
    for names in TESTS.findall(s):
        for n in names.split(","):
            if n and n != "default" and n not in repo.ktests():
                bad.append(f"no KTAP test {n}")
    for n in MUTANT.findall(s):
        if n not in repo.mutants():
            bad.append(f"no mutant {n}")
    for mod in PYMOD.findall(s):
        p = mod.replace(".", "/")
        if not (repo.exists(p + ".py") or repo.exists(p + "/__main__.py")
                or repo.exists(p + "/__init__.py")):
            bad.append(f"no Python module {mod}")
    if not m:
        for w in s.split():
            w = w.strip("\"'(),;")
            if w.startswith("CMDLINE="):
                continue
            pm = PATHWORD.match(w)
            if not pm or pm.group(0) != w:
                continue
            if w.startswith("build/") or w.startswith("docs/figures/"):
                continue        # generated: made by a command, not kept
            if not repo.exists(w.rstrip(".")):
                bad.append(f"no path {w}")
    return bad


def check_page(repo, page, text, figures):
    """[(line, reference, problem)] for a page's dead references."""
    dead = []
    base = os.path.dirname(page)
    off = False
    fence = False
    for ln, line in enumerate(text.splitlines(), 1):
        if "<!-- check_docs: off -->" in line:
            off = True
        if "<!-- check_docs: on -->" in line:
            off = False
        if off:
            continue
        if line.lstrip().startswith("```"):
            fence = not fence
        elif not fence and line.count("`") % 2:
            dead.append((ln, line.strip()[:40], "a backtick span broken "
                         "across lines: keep it on one line, where the "
                         "check can read it"))
        for span in SPAN.findall(line):
            for p in check_span(repo, span):
                dead.append((ln, span, p))
        for target in LINK.findall(line):
            if re.match(r"^[a-z]+:", target):
                continue
            t, _, anchor = target.partition("#")
            rel = os.path.normpath(os.path.join(base, t)) if t else page
            if anchor and rel.endswith(".md") and repo.exists(rel):
                if anchor not in repo.anchors(rel):
                    dead.append((ln, target, f"{rel} has no heading "
                                 f"#{anchor}"))
                continue
            if not t:
                continue
            if rel.startswith("docs/figures/") and rel.endswith(".svg"):
                name = os.path.basename(rel)
                if figures is None:
                    continue
                if name not in figures:
                    dead.append((ln, target, "make figures does not "
                                 f"write build/figures/{name}"))
                continue
            if not repo.exists(rel):
                dead.append((ln, target, f"link to missing {rel}"))
    return dead


def commands(span):
    """The commands a backtick span names: ("make", TARGET) for each
    target of a make command in it, ("python3 -m", MODULE) for a Python
    module run."""
    out = set()
    m = re.search(r"(?:^|[\s;(])make\s+(.*)$", span)
    if m:
        words = m.group(1).split()
        i = 0
        while i < len(words):
            w = words[i]
            if w == "-f":
                i += 2
                continue
            if w in (";", "&&", "|", "||"):
                break
            if not w.startswith("-") and "=" not in w and \
                    re.match(r"^[\w.-]+$", w):
                out.add(("make", w))
            i += 1
    for mod in PYMOD.findall(span):
        out.add(("python3 -m", mod))
    return out


HEADING = re.compile(r"^#{1,6}\s")
LISTITEM = re.compile(r"^\s{0,3}(?:[-*+]|\d+\.)\s")
TABLEROW = re.compile(r"^\s*\|")


def units(text):
    """The page read as units (see the docstring): a list with, for each
    unit, (first line, last line, the lines of its context: the unit's
    own, its table header and caption, or its lead-in paragraph, the
    heading it sits under, and whether it is a fenced block).  Lines are numbered from 1; check_docs off
    regions are left out."""
    lines = text.splitlines()
    out = []
    heading = None          # line number of the current heading
    para = None             # [start, end] of the paragraph being read
    last_para = None        # the paragraph that ended just before
    table = None            # (header line, caption) of the current table
    lead = None             # the lead-in paragraph of the current list
    item = None             # [start, end] of the current list item
    fence = None            # start of the current fenced block
    off = False

    code = None             # the caption of an indented code block

    def close_para():
        nonlocal para, last_para, code
        if para:
            ctx = list(range(para[0], para[1] + 1))
            if code:            # an indented block: its caption counts
                ctx += list(range(code[0], code[1] + 1))
            out.append((para[0], para[1], ctx, heading, bool(code)))
            last_para = None if code else para
        para, code = None, None

    def close_item():
        nonlocal item
        if item:
            ctx = list(range(item[0], item[1] + 1))
            if lead:
                ctx += list(range(lead[0], lead[1] + 1))
            out.append((item[0], item[1], ctx, heading, False))
        item = None

    for ln, line in enumerate(lines, 1):
        if "<!-- check_docs: off -->" in line:
            close_para()
            close_item()
            off = True
            continue
        if "<!-- check_docs: on -->" in line:
            off = False
            last_para = None
            continue
        if off:
            continue
        if fence is not None:
            if line.lstrip().startswith("```"):
                ctx = list(range(fence, ln + 1))
                if last_para:
                    ctx += list(range(last_para[0], last_para[1] + 1))
                out.append((fence, ln, ctx, heading, True))
                fence = None
                last_para = None
            continue
        if line.lstrip().startswith("```"):
            close_para()
            close_item()
            lead = None
            fence = ln
            continue
        if not line.strip():
            if item:
                item[2] = True          # a blank: the item may go on
            else:
                close_para()
            table = None
            continue
        if HEADING.match(line):
            close_para()
            close_item()
            heading, last_para, table, lead = ln, None, None, None
            continue
        if TABLEROW.match(line):
            close_item()
            lead = None
            if table is None:
                caption = last_para if para is None else para
                close_para()
                table, last_para = (ln, caption), None
                continue                # the header row
            if re.match(r"^\s*\|[\s:|-]+\|\s*$", line):
                continue                # the separator row
            ctx = [ln, table[0]]
            if table[1]:
                ctx += list(range(table[1][0], table[1][1] + 1))
            out.append((ln, ln, ctx, heading, False))
            continue
        table = None
        if LISTITEM.match(line):
            if item is None:
                lead = para if para is not None else last_para
                close_para()
            close_item()
            item = [ln, ln, False]
            continue
        if item is not None:
            if item[2] and not line.startswith((" ", "\t")):
                close_item()            # a paragraph after the list
                lead = None
            else:
                item[0:2] = [item[0], ln]
                item[2] = False
                continue
        if para is None:
            para = [ln, ln]
            if line.startswith("    "):
                code = last_para or [ln, ln]
        else:
            para[1] = ln
    close_para()
    close_item()
    if fence is not None:
        out.append((fence, len(lines), list(range(fence, len(lines) + 1)),
                    heading, True))
    return out


def spans_of(lines, numbers):
    return [sp for n in numbers for sp in SPAN.findall(lines[n - 1])]


# A measured figure: a number, perhaps a range, then a unit or a count
# word.  Outside backticks only (a command's arguments are not figures).
FIGURE = re.compile(
    r"(?<![\w.,-])(?:~|about |under |over )?\d[\d,]*(?:\.\d+)?"
    r"(?:\s*(?:-|–|to)\s*\d[\d,]*(?:\.\d+)?)?\s*"
    r"(states|passed|failed|s|ms|us|µs|ns|min|MB|GB|cycles"
    r"|checks)(?![\w/])")


# A bound or a setting, not a measurement: a figure right after one of
# these words, or given as the value of a name in backticks ("`NAME`
# (3 ms)", "`NAME` = 3 ms").
SETTING = re.compile(r"(?:\b(?:[Uu]p to|[Aa]t most|[Aa]t least|[Ee]very|"
                     r"[Ww]ithin|[Aa]fter|than|[Pp]er|[Ee]ach|[Ll]imit|"
                     r"[Tt]imeout|[Bb]udget|[Dd]efault)|`\s*(?:\(|=|:))"
                     r"\s*(?:~|about\s)?$")


# A quotation ("about 40GB of main memory", the article's) is not a
# figure of this project's.
QUOTE = re.compile(r'"[^"\n]*"|“[^”\n]*”')


def written_by(repo, text):
    """The commands that write a whole page: its first paragraph begins
    "Written by" and names them (a page that make bench writes)."""
    lines = text.splitlines()
    for first, last, ctx, heading, _ in units(text):
        if not lines[first - 1].startswith("Written by"):
            return set()
        out = set()
        for sp in spans_of(lines, ctx):
            out |= commands(sp)
        return out
    return set()


def check_rules(repo, page, text):
    """[(line, what, problem)] for the runners and numbers rules."""
    lines = text.splitlines()
    bad = []
    written = written_by(repo, text)
    for first, last, ctx, heading, fenced in units(text):
        named = set()
        for sp in spans_of(lines, ctx):
            named |= commands(sp)
        if fenced:              # a command line in the block itself
            for ln in range(first, last + 1):
                named |= commands(lines[ln - 1])
        under = set()
        if heading:
            for sp in SPAN.findall(lines[heading - 1]):
                under |= commands(sp)
        for ln in range(first, last + 1):
            line = lines[ln - 1]
            for sp in SPAN.findall(line):
                for n in MUTANT.findall(sp):
                    want = repo.runners(n)
                    if want and not (want & named):
                        runs = sorted("%s %s" % w for w in want
                                      if w != ("make", "test"))
                        bad.append((ln, "mutant:" + n, "cited without "
                                    "the command that runs it (" +
                                    " or ".join("`%s`" % r for r in runs)
                                    + ") in its paragraph, row or item"))
            prose = SPAN.sub(lambda m: "`" + " " * (len(m.group(0)) - 2)
                             + "`", line)
            prose = QUOTE.sub(lambda m: '"' + " " * (len(m.group(0)) - 2)
                              + '"', prose)
            for m in FIGURE.finditer(prose):
                if SETTING.search(prose[:m.start()]):
                    continue
                if not (named or under or written):
                    bad.append((ln, m.group(0).strip(), "a measured number "
                                "with no command that produces it (`make ...` or "
                                "`python3 -m ...`) in its paragraph, "
                                "row, item or heading"))
    return bad


def explanatory_pages(repo):
    pages = sorted(glob.glob(repo.path("docs/*.md")))
    pages.append(repo.path("README.md"))
    return [os.path.relpath(p, repo.root) for p in pages]


# Paths that name something outside the repository: the session's
# shared folder and absolute paths into the machine's work area.  Spelt
# in pieces so that this file does not match its own grep.
OUTSIDE = re.compile(r"(?<![\w.])(?:/" + "work/|" + "shared" +
                     r"/(?:design|seeds)/)")


def check_records_apart(repo, page, text):
    """An explanatory page names no issue and no path outside the tree."""
    out = []
    for ln, line in enumerate(text.splitlines(), 1):
        if re.search(r"\b[Ii]ssues? [0-9]+", line):
            out.append((ln, line.strip()[:60], "issue number on an "
                        "explanatory page (it belongs in docs/records/)"))
        if OUTSIDE.search(line):
            out.append((ln, line.strip()[:60], "path outside the "
                        "repository"))
    return out


def figures_made(repo, ok, quiet=False):
    """Run make figures; the names of the SVGs it wrote (this run, not
    a stale one), or None if the tree has no figures target yet."""
    if "figures" not in repo.targets():
        if not quiet:
            print("# make figures: no such target in this tree yet; the "
                  "docs/figures/*.svg links are not checked")
        return None
    start = time.time() - 1
    r = subprocess.run(["make", "--no-print-directory", "figures"],
                       cwd=repo.root, capture_output=True, text=True)
    made = {os.path.basename(f)
            for f in glob.glob(repo.path("build/figures/*.svg"))
            if os.path.getmtime(f) >= start}
    tail = (r.stdout + r.stderr).strip().splitlines()[-10:]
    ok(r.returncode == 0, f"make figures: exit {r.returncode}, "
       f"{len(made)} SVGs written", tail if r.returncode else ())
    return made


def check_figures_fresh(repo, ok, made):
    """Pictures that cannot rot: the tests of the generators' strictness
    and of the freshness check (tools/figures/test_figures.py); then that
    check on a fixture with one stale picture, which must fail; then each
    deterministic picture that make figures just drew (made: its names;
    None if there is no figures target) against its committed copy in
    docs/figures/ (tools/figures/fresh.py), failing on a stale one and
    naming it."""
    from tools.figures import FIGURES, fresh, test_figures

    def compare(root, names, report):
        bad = fresh.stale(root, names)
        report(not bad, f"docs/figures: {len(names)} pictures drawn, "
               f"{len(bad)} committed ones stale",
               [f"{fresh.DOCS}/{n}: {why}" for n, why in bad])

    for good, what in test_figures.run():
        ok(good, "self-test (fresh figures): " + what)
    with tempfile.TemporaryDirectory() as tmp:
        names = {n for n, _ in FIGURES}
        for d in (fresh.BUILD, fresh.DOCS):
            os.makedirs(os.path.join(tmp, d))
            for n in names:
                with open(os.path.join(tmp, d, n), "w") as f:
                    f.write("<svg/>\n" if d == fresh.BUILD or
                            n != "model-states.svg" else "<svg>old</svg>\n")
        got = []
        compare(tmp, names, lambda c, what, detail: got.append(
            (bool(c), list(detail))))
        ok(len(got) == 1 and not got[0][0] and len(got[0][1]) == 1 and
           "model-states.svg" in got[0][1][0], "self-test (fresh "
           "figures): a stale committed model-states.svg fails the check, "
           "naming it")
    if made is not None:
        compare(repo.root, made, ok)


# The self-test's fixture: a small tree and a page with one good and one
# dead reference of each kind.  GOOD lines must resolve, DEAD lines must
# each be flagged.
FIXTURE_FILES = {
    "Makefile": "include tools/x.mk\nall: build/k\nrun:\n\t@true\n",
    "tools/x.mk": ".PHONY: verify\nverify:\n\t@true\n",
    "tools/gdb/test.py": 'MUTANTS = [\n    ("gdb-bad",\n     "a", "b"),\n]\n',
    "tools/mod.py": "def helper():\n    pass\n",
    "rcu/a.c": "static int\nfoo(int cpu)\n{\n\treturn bar(cpu);\n}\n"
               "int baz(void);\n#define QUX(x) (x)\n",
    "tests/kernel/t.c": "KTEST(alpha)\n{\n}\nKTEST_HOOK(beta)\n{\n}\n",
    "tests/spin/m.spin": "proctype grace_period()\n{\n}\n",
    "tests/spin/mutants/7-bad.sed": "s/a/b/\n",
    "tests/spin/mutants/U-bad.sed": "# suite: unbounded\ns/a/b/\n",
    "tests/mutants/kernel/rcu/k-bad.patch": "",
    "tests/mutants/kernel/rcu/k-spin.patch":
        "Spin: dynticks2008 1,0,0 SC caught\n",
    "linux/mutants/l-bad.patch": "",
    "docs/other.md": "# other\n",
}
FIXTURE_PAGE = """\
GOOD `rcu/a.c`
GOOD `rcu/a.c:foo()`
GOOD `rcu/a.c:QUX()`
GOOD `tests/spin/m.spin:grace_period()`
GOOD `tests/kernel/t.c:alpha()`
GOOD `make run`
GOOD `make verify`
GOOD `make run CMDLINE="tests=alpha,beta"`
GOOD `tests=alpha`
GOOD `mutant:7-bad`
GOOD `mutant:k-bad`
GOOD `mutant:l-bad`
GOOD `mutant:gdb-bad`
GOOD `count(tests/spin/mutants/*.sed) = 2`
GOOD `count(tools/gdb/test.py:MUTANTS) = 1`
GOOD `python3 -m tools.mod`
GOOD `tests/spin/*.spin`
GOOD [link](other.md)
GOOD [anchor](other.md#other)
GOOD [picture](figures/flip.svg)
GOOD `a/b is prose, not a path`
<!-- check_docs: off -->
GOOD `rcu/placeholder.c:NAME()`
<!-- check_docs: on -->
DEAD `rcu/b.c`
DEAD `rcu/a.c:baz()`
DEAD `rcu/a.c:bar()`
DEAD `make nosuch`
DEAD `tests=gamma`
DEAD `make run CMDLINE="tests=alpha,gamma"`
DEAD `mutant:no-such`
DEAD `count(tests/spin/mutants/*.sed) = 3`
DEAD `count(tools/gdb/test.py:MUTANTS) = 3`
DEAD `python3 -m tools.nosuch`
DEAD `rcu/nosuch/*.c`
DEAD [link](missing.md)
DEAD [anchor](other.md#no-such-heading)
DEAD [picture](figures/nosuch.svg)
DEAD `tests/spin/m.spin:dyntick_nmi()`
DEAD a span `make
DEAD verify` broken across two lines
"""
FIXTURE_RECORDS = ("GOOD the design, explained\n"
                   "DEAD as issue 12 decided\n"
                   "DEAD see /" "work/notes.md\n"
                   "DEAD see " "shared" "/design/tree.md\n")

# The runners and numbers rules: one unit a marker, GOOD ones must pass
# and each DEAD one be flagged on its line.
FIXTURE_RULES = """\
GOOD `mutant:7-bad` is caught by `make verify`.

DEAD `mutant:U-bad` (suite: unbounded) is cited beside `make verify`.

GOOD `mutant:U-bad` is caught by `make verify-unbounded`.

DEAD `mutant:k-bad` is cited beside `make verify` only.

GOOD `mutant:k-bad` is caught by `python3 -m tests.mutants.run`.

GOOD `mutant:k-spin` has Spin: lines, so `make verify` runs it too.

A lead-in that names `make verify-unbounded`:
- GOOD `mutant:U-bad`, an item under it
- DEAD `mutant:7-bad`, an item under it

Spin runs these (`make verify`):

| mutant | caught |
|---|---|
| GOOD `mutant:7-bad` | yes, the caption names its runner |
| DEAD `mutant:U-bad` | not by the caption's command |

GOOD 691 states, from `make verify`.

DEAD 691 states, and no command named.

DEAD the run took 42.0 s.

GOOD the run took 42.0 s (`python3 -m tools.mod`).

GOOD the options `-w24 -DMEMLIM=4096 128 MB` are in backticks.

The output of `make verify`:

```
GOOD ok 1 base 691 states, in a block whose caption names its command
```

```
GOOD make verify   # about 54 s, a block that holds its command line
```

DEAD 3-5 min, a range with no command.

The same from the command line, `python3 -m tools.mod`:

    GOOD 4 passed, 1 failed: an indented block under its caption

GOOD a bound, not a measurement: it waits up to 15 ms.

GOOD a setting's value: `fwd_hold_ms` (3 ms) is not measured.

DEAD a setting without its name: it sleeps 3 ms.

GOOD a quotation: the article's "about 40GB of main memory, 40 GB".

## Results (`make verify`)

GOOD 964 states, under a heading that names the command.
"""


FIGURES_GOOD = ("figures:\n\tmkdir -p build/figures && "
                "echo '<svg/>' > build/figures/flip.svg\n")
FIGURES_BROKEN = "figures:\n\t@echo 'figures: cannot draw' >&2; false\n"


def self_test_figures(ok):
    """The figures part: a working target gives its names, a broken one
    fails the check, and a page's links are resolved against them."""
    for name, rule, want_fail in (("a working figures target",
                                   FIGURES_GOOD, False),
                                  ("a broken figures target",
                                   FIGURES_BROKEN, True)):
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, "Makefile"), "w") as f:
                f.write(rule)
            got = []
            made = figures_made(Repo(tmp), lambda c, *a, **k:
                                got.append(bool(c)), quiet=True)
            failed = got == [False]
            ok(failed == want_fail, f"self-test (figures): {name} "
               f"{'fails the check' if want_fail else 'passes'}")
            if not want_fail:
                page = "[a](figures/flip.svg)\n[b](figures/nosuch.svg)\n"
                dead = {ln for ln, _, _ in
                        check_page(Repo(tmp), "docs/x.md", page, made)}
                ok(dead == {2}, "self-test (figures): a link to a picture "
                   "the target does not write is flagged, one it writes "
                   "resolves")


def self_test_rules(ok, repo):
    """Each GOOD unit of FIXTURE_RULES passes, each DEAD one is flagged
    on its own line."""
    flagged = {ln for ln, _, _ in check_rules(repo, "docs/fixture.md",
                                               FIXTURE_RULES)}
    for ln, line in enumerate(FIXTURE_RULES.splitlines(), 1):
        m = re.match(r"^[\s|*-]*(GOOD|DEAD) (.*)$", line)
        if not m:
            continue
        want = m.group(1) == "DEAD"
        rule = "numbers" if "mutant:" not in line else "runners"
        ok(want == (ln in flagged), f"self-test ({rule}): "
           f"{m.group(2)[:60]} {'is flagged' if want else 'passes'}")
    for first, want in (("Written by `make verify`: the whole page.", False),
                        ("Made by hand, `make verify` aside.", True)):
        page = first + "\n\n# Results\n\n691 states\n"
        got = bool(check_rules(repo, "docs/fixture.md", page))
        ok(got == want, "self-test (numbers): a page that begins "
           f"{first[:24]!r} {'is flagged' if want else 'passes'} for a "
           "number far from any command")


def self_test(ok):
    self_test_figures(ok)
    with tempfile.TemporaryDirectory() as tmp:
        for p, body in FIXTURE_FILES.items():
            os.makedirs(os.path.dirname(os.path.join(tmp, p)) or tmp,
                        exist_ok=True)
            with open(os.path.join(tmp, p), "w") as f:
                f.write(body)
        repo = Repo(tmp)
        for name, text, fn in (
                ("references", FIXTURE_PAGE,
                 lambda t: check_page(repo, "docs/fixture.md", t,
                                    {"flip.svg"})),
                ("records apart", FIXTURE_RECORDS,
                 lambda t: check_records_apart(repo, "docs/fixture.md",
                                               t))):
            flagged = {ln for ln, _, _ in fn(text)}
            for ln, line in enumerate(text.splitlines(), 1):
                if not line.startswith(("GOOD", "DEAD")):
                    continue
                want = line.startswith("DEAD")
                got = ln in flagged
                ok(want == got, f"self-test ({name}): {line[5:]} "
                   f"{'is flagged' if want else 'resolves'}")
        self_test_rules(ok, repo)


def main(argv):
    results = []

    def ok(cond, what, detail=()):
        results.append(bool(cond))
        print(f"{'ok' if cond else 'not ok'} {len(results)} - {what}")
        for d in detail:
            print(f"#   {d}")

    self_test(ok)
    repo = Repo(ROOT)
    pages = argv or PAGES or explanatory_pages(repo)
    figures = figures_made(repo, ok) if not argv else None
    if not argv:
        check_figures_fresh(repo, ok, figures)
    for page in pages:
        if not repo.exists(page):
            ok(False, f"{page}: no such page")
            continue
        dead = check_page(repo, page, repo.read(page), figures)
        n = sum(len(SPAN.findall(ln)) + len(LINK.findall(ln))
                for ln in repo.read(page).splitlines())
        ok(not dead, f"{page}: {n} references, {len(dead)} dead",
           [f"{page}:{ln}: `{ref}`: {why}" for ln, ref, why in dead])
        bad = check_rules(repo, page, repo.read(page))
        ok(not bad, f"{page}: each mutant cited with its runner, each "
           "measured number with its command",
           [f"{page}:{ln}: {what}: {why}" for ln, what, why in bad])
    if not argv:
        for page in explanatory_pages(repo):
            bad = check_records_apart(repo, page, repo.read(page))
            ok(not bad, f"{page}: no issue numbers, nothing outside the "
               "repository", [f"{page}:{ln}: {why}: {t}"
                              for ln, t, why in bad])
    passed = sum(results)
    print(f"{passed} passed, {len(results) - passed} failed")
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
