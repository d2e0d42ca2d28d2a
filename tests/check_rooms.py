#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The three RCU rooms stay apart: neither implementation (rcu/rcupreempt/,
rcu/tree/) includes the other's headers or calls or reads anything the
other defines, and the shared core's torture test (rcu/torture.c)
reaches neither: it goes through rcu/update.c's dispatch, or through the
inline read side that rcu/rcupdate.h builds from each flavour's public
read-side header (READ_SIDE_HEADERS): what those headers declare is
the read side's own entry points, which every caller of rcu_read_lock()
references, as every Linux caller references __rcu_read_unlock().

Includes are read from the sources; calls and data references from the
built objects' symbol tables (nm): an undefined symbol of one room that
another room defines is a crossing.  A self-test first shows that a
crossing of each kind is caught.  Ends with "N passed, N failed"."""

import glob
import os
import re
import subprocess

ROOMS = {
    "rcupreempt": "rcu/rcupreempt",
    "tree": "rcu/tree",
    "torture": "rcu/torture.c",
}
# The inline read side's headers: the names they declare may be used from
# any room (an rcu_read_lock() compiles to references to them).
READ_SIDE_HEADERS = ["rcu/rcupdate.h", "rcu/tree/tree_read.h"]
# Who may not reach whom: (from, to).
FORBIDDEN = [("rcupreempt", "tree"), ("tree", "rcupreempt"),
             ("torture", "rcupreempt"), ("torture", "tree")]

results = []


def check(ok, what):
    results.append(bool(ok))
    print(f"{'ok' if ok else 'not ok'} {len(results)} - {what}")


def sources(room):
    path = ROOMS[room]
    if path.endswith(".c"):
        return [path]
    return sorted(glob.glob(path + "/*.[ch]"))


def includes(files):
    """{file: [included paths]} from #include "..." lines."""
    out = {}
    for f in files:
        with open(f) as fh:
            out[f] = re.findall(r'^\s*#\s*include\s+"([^"]+)"', fh.read(),
                                re.M)
    return out


def symbols(objs):
    """(defined, undefined) symbol sets of the objects."""
    defined, undefined = set(), set()
    for o in objs:
        out = subprocess.run(["nm", o], capture_output=True, text=True,
                             check=True).stdout
        for line in out.splitlines():
            f = line.split()
            if len(f) == 2 and f[0] == "U":
                undefined.add(f[1])
            elif len(f) == 3 and f[1] in "TDBRCtdbr" and f[1].isupper():
                defined.add(f[2])
    return defined, undefined


def read_side_names(headers):
    """Functions and variables the read side's headers declare."""
    names = set()
    for h in headers:
        with open(h) as fh:
            text = fh.read()
        # Prototypes ("void name(...);") and DECLARE_STATIC_KEY_*(name).
        names |= set(re.findall(r'^\w[\w\s*]*?\b(\w+)\([^)]*\);', text,
                                re.M))
        names |= set(re.findall(r'DECLARE_STATIC_KEY_\w+\((\w+)\)', text))
    return names


def crossings(incs, syms, rooms_src, public=frozenset()):
    """[(from, to, what)] for every forbidden include or symbol use,
    but the read side's public names."""
    found = []
    for a, b in FORBIDDEN:
        prefix = ROOMS[b]
        for f, inc in incs[a].items():
            for i in inc:
                if i == prefix or i.startswith(prefix + "/"):
                    found.append((a, b, f"{f} includes {i}"))
        used = (syms[a][1] & syms[b][0]) - public
        for s in sorted(used):
            found.append((a, b, f"{ROOMS[a]} uses {s}, defined in {prefix}"))
    return found


def objects(room):
    return [os.path.join("build", s[:-2] + ".o") for s in sources(room)
            if s.endswith(".c")]


def self_test():
    """A fake tree with one crossing of each kind must be caught."""
    incs = {r: {} for r in ROOMS}
    syms = {r: (set(), set()) for r in ROOMS}
    incs["tree"]["rcu/tree/tree.c"] = ["rcu/rcupreempt/rcupreempt.h"]
    syms["rcupreempt"][0].add("rcu_ctrlblk")
    syms["torture"][1].add("rcu_ctrlblk")
    found = crossings(incs, syms, ROOMS)
    check(any(a == "tree" and "includes" in w for a, _, w in found),
          "self-test: a tree file including a rcupreempt header is caught")
    check(any(a == "torture" and "rcu_ctrlblk" in w for a, _, w in found),
          "self-test: the torture test reading rcu_ctrlblk is caught")
    # A read-side entry point is public; anything else of the tree's
    # stays a crossing even beside one.
    syms["tree"][0].update({"rcu_read_unlock_special", "rcu_state"})
    syms["torture"][1].update({"rcu_read_unlock_special", "rcu_state"})
    found = crossings(incs, syms, ROOMS, {"rcu_read_unlock_special"})
    check(not any("rcu_read_unlock_special" in w for _, _, w in found)
          and any("rcu_state" in w for _, _, w in found),
          "self-test: the read side's entry point is public, rcu_state "
          "is not")


def main():
    self_test()
    missing = [o for r in ROOMS for o in objects(r) if not os.path.exists(o)]
    if missing:
        check(False, f"objects built (make first): missing {missing[0]}")
    else:
        incs = {r: includes(sources(r)) for r in ROOMS}
        syms = {r: symbols(objects(r)) for r in ROOMS}
        public = read_side_names(READ_SIDE_HEADERS)
        found = crossings(incs, syms, ROOMS, public)
        for a, b in FORBIDDEN:
            mine = [w for x, y, w in found if (x, y) == (a, b)]
            check(not mine, f"{ROOMS[a]} does not reach {ROOMS[b]}"
                  + (": " + "; ".join(mine[:5]) if mine else ""))
    npass = sum(results)
    print(f"{npass} passed, {len(results) - npass} failed")
    return 0 if npass == len(results) else 1


if __name__ == "__main__":
    raise SystemExit(main())
