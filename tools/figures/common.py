# SPDX-License-Identifier: GPL-2.0
"""What the picture generators share besides drawing (svg.py): reading C
sources, the host probe (probe.c, built by make), and Spin runs in the
pictures' own build directory."""

import concurrent.futures
import hashlib
import json
import os
import re
import subprocess

from tools import spin

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))


class FigureError(Exception):
    """A generator cannot make its picture; the message says why."""


# ---- C sources ----------------------------------------------------------

# Where the generators read the C from: the tree, or a copy of it that
# the tests break on purpose (tools/figures/test_figures.py).
SRC_ROOT = os.environ.get("DYNRCU_FIGURES_SRC") or ROOT


def read_source(rel):
    path = os.path.join(SRC_ROOT, rel)
    try:
        with open(path) as f:
            return f.read()
    except OSError as e:
        raise FigureError("cannot read %s: %s" % (rel, e.strerror))


def strip_comments(text):
    """text with every comment blanked out: the same length and the same
    newlines, so that an offset into the result is one into text, and an
    error can name the line (line_of())."""
    return re.sub(r"/\*.*?\*/|//[^\n]*",
                  lambda m: re.sub(r"[^\n]", " ", m.group(0)), text,
                  flags=re.S)


def line_of(text, offset):
    return text.count("\n", 0, offset) + 1


def not_understood(rel, text, offset, why, end=None):
    """The error of a generator that meets C it does not know: file:line,
    the construct's text (up to its end, or its line), and why it cannot
    draw it.  A picture never silently leaves a construct out."""
    if end is None:
        end = text.find("\n", offset)
        end = len(text) if end < 0 else end
    return FigureError("%s:%d: %s: %s" % (
        rel, line_of(text, offset), squash(text[offset:end])[:100], why))


def balanced(text, start):
    """The text inside the bracket pair that opens at text[start]."""
    pairs = {"(": ")", "{": "}", "[": "]"}
    close = pairs[text[start]]
    depth = 0
    for i in range(start, len(text)):
        if text[i] == text[start]:
            depth += 1
        elif text[i] == close:
            depth -= 1
            if depth == 0:
                return text[start + 1:i]
    raise FigureError("unbalanced %s at offset %d" % (text[start], start))


def function_span(text, name, rel):
    """Where the body of C function `name` is: (start, end) offsets of
    the text between its braces."""
    code = strip_comments(text)
    m = re.search(r"^[\w \t\*]*\b%s\s*\([^)]*\)\s*\{" % re.escape(name),
                  code, re.M)
    if not m:
        raise FigureError("%s: no function %s()" % (rel, name))
    return m.end(), m.end() + len(balanced(code, m.end() - 1))


def function_body(text, name, rel):
    """The body of C function `name` (comments blanked)."""
    start, end = function_span(text, name, rel)
    return strip_comments(text)[start:end]


def enum_values(text, name, rel):
    """The enumerators of `enum name` in order, as [(name, value)]."""
    code = strip_comments(text)
    m = re.search(r"\benum\s+%s\s*\{" % re.escape(name), code)
    if not m:
        raise FigureError("%s: no enum %s" % (rel, name))
    out, v = [], 0
    at = m.end()
    for item in balanced(code, m.end() - 1).split(","):
        off = at + len(item) - len(item.lstrip())
        at += len(item) + 1
        item = item.strip()
        if not item:
            continue
        k, _, init = item.partition("=")
        if not re.fullmatch(r"\w+", k.strip()) or init.strip() and \
                not re.fullmatch(r"(?:0x[0-9a-fA-F]+|\d+)", init.strip()):
            raise not_understood(rel, code, off, "an enumerator that is "
                                 "not NAME or NAME = number", off + len(item))
        if init.strip():
            v = int(init.strip(), 0)
        out.append((k.strip(), v))
        v += 1
    return out


def unwrap(expr, macro):
    """Replace every macro(x) in expr by x, nested ones included."""
    while True:
        m = re.search(r"\b%s\s*\(" % re.escape(macro), expr)
        if not m:
            return expr
        inner = balanced(expr, m.end() - 1)
        expr = expr[:m.start()] + inner + expr[m.end() + len(inner) + 1:]


def squash(expr):
    return re.sub(r"\s+", " ", expr).strip()


# ---- the host probe ------------------------------------------------------

def probe(out_dir, variant, what):
    """Build (make) and run build/figures/host/probe[-variant] `what`;
    return its JSON lines as dicts."""
    name = "probe" + ("-" + variant if variant else "")
    binary = os.path.join(out_dir, "host", name)
    target = os.path.relpath(binary, ROOT)
    p = subprocess.run(["make", "-s", "--no-print-directory", target],
                       cwd=ROOT, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True)
    if p.returncode:
        raise FigureError("make %s failed:\n%s" % (
            target, "\n".join(p.stdout.strip().splitlines()[-12:])))
    p = subprocess.run([binary, what], cwd=ROOT, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True,
                       timeout=60)
    if p.returncode:
        raise FigureError("%s %s exited %d: %s" % (
            target, what, p.returncode, p.stderr.strip()))
    rows = []
    for line in p.stdout.splitlines():
        if line.startswith("{"):
            try:
                rows.append(json.loads(line))
            except ValueError:
                raise FigureError("%s %s: bad output line: %s" % (
                    target, what, line))
    if not rows:
        raise FigureError("%s %s printed nothing" % (target, what))
    return rows


# ---- Spin ----------------------------------------------------------------

# What a check's result keeps in the cache (verify_one's fields).
RESULT_KEYS = ("states", "depth", "mem", "secs", "errors", "msg", "ok",
               "dir")


def spin_key(c, scratch):
    """What decides a check's outcome: the model as Spin reads it (after
    the check's sed scripts), Spin's version, and every option."""
    spin.BUILD = scratch
    d, err = spin.prepare(c)
    if err:
        return None
    with open(os.path.join(d, c["model"])) as f:
        text = f.read()
    opts = {k: c[k] for k in ("bounds", "defs", "opt", "cflags", "panargs",
                              "expect", "caught_by")}
    version = subprocess.run(["spin", "-V"], stdout=subprocess.PIPE,
                             universal_newlines=True).stdout
    return hashlib.sha256((text + version + json.dumps(
        opts, sort_keys=True)).encode()).hexdigest()


def spin_checks(out_dir, checks):
    """Build and run Spin checks (tools/spin.py) under out_dir/spin, not
    under build/spin (make verify's, which may run at the same time);
    returns [(check, result)] in order.  Two builds at a time, as
    tests/spin/run.py does.  A check whose model, options and Spin are
    unchanged since the last run here is not run again: its result comes
    from out_dir/spin/results.json, and its directory (trail included)
    is still there."""
    spin.need_tools()
    base = os.path.join(out_dir, "spin")
    cache_path = os.path.join(base, "results.json")
    try:
        with open(cache_path) as f:
            cache = json.load(f)
    except (OSError, ValueError):
        cache = {}
    keys = [spin_key(c, os.path.join(base, "scratch")) for c in checks]
    spin.BUILD = base
    results = {}
    todo = []
    for c, key in zip(checks, keys):
        hit = cache.get(c["name"])
        if key and hit and hit["key"] == key and \
                os.path.isfile(os.path.join(hit["dir"], "pan.out")):
            results[c["name"]] = hit
        else:
            todo.append(c)
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for c, res in zip(todo, pool.map(spin.build_one, todo)):
            res = spin.verify_one(c, res)
            results[c["name"]] = {k: res[k] for k in RESULT_KEYS}
    for c, key in zip(checks, keys):
        results[c["name"]]["key"] = key
    cache.update(results)
    with open(cache_path, "w") as f:
        json.dump(cache, f, indent=1, sort_keys=True)
    return [(c, results[c["name"]]) for c in checks]


def spin_trail(c, res):
    """The replayed trail of a check that found an error (spin -t)."""
    out = spin.trail(c, res)
    if "Error" not in out:
        raise FigureError("spin -t replay of %s gave no error trail" %
                          c['name'])
    return out
