#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Sweep mutants through make test's scenarios: which scenario, if any,
catches each one.

  python3 -m tests.mutants.sweep [--jobs N] [--scenarios GLOB] PATCH...

For a mutant whose tests are not yet known, as a blind round's are (bugs
written by someone who has not read tests/): a patch needs no preamble,
only its diff.  Each is built as tests/mutants/run.py builds a mutant (a
copy of the tree, patch -p1 --forward, never in the tree) and booted
through the scenarios one at a time, in order, until one fails: that one
caught it, with the run's first error.  A mutant that passes them all
survived.  A patch that changes only one flavour's room (rcu/tree/ or
rcu/rcupreempt/) is booted only in that flavour's scenarios.  A scenario that expects a failure (tests/xfail/) is judged as
make test judges it.  N mutants are swept at once (default 2).  Prints a
table (mutant, verdict, scenario, first error) and "N caught, N survived";
exits 0 whatever the counts, 1 on a patch that does not apply or build.
"""

import argparse
import concurrent.futures
import glob
import os
import re
import sys

if not __package__:
    sys.exit("sweep: run it from the repository root as "
             "'python3 -m tests.mutants.sweep ...'")
from tests import harness  # noqa: E402
from tests.mutants import run  # noqa: E402


def flavour_only(path):
    """"tree" or "rcupreempt" if every file the patch changes is in that
    flavour's room (rcu/tree/, rcu/rcupreempt/), else None.  Code in one
    room runs only under its flavour (docs/rcu.md), so only that
    flavour's scenarios can catch it."""
    rooms = set()
    with open(path) as f:
        for line in f:
            m = re.match(r"\+\+\+ b/(\S+)", line)
            if m:
                parts = m.group(1).split("/")
                rooms.add(parts[1] if len(parts) > 2 and parts[0] == "rcu"
                          and parts[1] in ("tree", "rcupreempt") else None)
    return rooms.pop() if len(rooms) == 1 else None


def uses_flavour(sc, flavour):
    tree = bool(re.search(r"\brcu=tree\b", sc["cmdline"]))
    return tree if flavour == "tree" else not tree


def sweep_one(path, scenarios, accel):
    """(name, verdict, scenario, why) for one patch."""
    name = os.path.basename(path)[:-len(".patch")]
    kernel, why = run.build_mutant(path)
    if not kernel:
        return name, "BROKEN", "-", why
    flavour = flavour_only(path)
    if flavour:
        scenarios = [sc for sc in scenarios if uses_flavour(sc, flavour)]
    for sc in scenarios:
        log = os.path.join(run.ROOT, "build", "logs",
                           f"sweep-{name}-{sc['name']}.log")
        status, text, limit, _, _, events = harness.boot(sc, kernel, accel,
                                                         log)
        problems = harness.failure_reason(text, status, limit, events,
                                          sc["cpus"])
        if sc["expect"] != "pass":
            # An expected failure catches the mutant when it does not
            # fail the way it should (judged as make test judges it).
            ok, lines = harness.judge_scenario(sc, kernel, accel)
            if not ok:
                return name, "CAUGHT", sc["name"], lines[0][:160]
            continue
        if problems:
            first = harness.first_error(text)
            line = first[1] if first else problems[0]
            return name, "CAUGHT", sc["name"], line.strip()[:160]
    return name, "SURVIVED", "-", f"{len(scenarios)} scenarios passed"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=2,
                    help="mutants swept at once (default 2)")
    ap.add_argument("--scenarios", default="tests/scenarios/*.scn",
                    help="a glob of scenarios, in the order tried")
    ap.add_argument("patches", nargs="+")
    args = ap.parse_args()
    if args.jobs < 1:
        sys.exit(f"sweep: --jobs {args.jobs}: expected 1 or more")
    for p in args.patches:
        if not p.endswith(".patch") or not os.path.isfile(p):
            sys.exit(f"sweep: {p}: not a .patch file")
    paths = sorted(glob.glob(os.path.join(run.ROOT, args.scenarios)))
    if not paths:
        sys.exit(f"sweep: --scenarios {args.scenarios}: matches nothing")
    scenarios = [harness.parse_scenario(p) for p in paths]
    kernel = os.path.join(run.ROOT, "build", "kernel.elf")
    if not os.path.exists(kernel):
        sys.exit("sweep: no build/kernel.elf: run make first")
    accel = harness.pick_accel(kernel)
    os.makedirs(os.path.join(run.ROOT, "build", "logs"), exist_ok=True)
    rows = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        futs = [ex.submit(sweep_one, os.path.abspath(p), scenarios, accel)
                for p in args.patches]
        for f in concurrent.futures.as_completed(futs):
            row = f.result()
            print(f"sweep {row[0]}: {row[1]} ({row[2]}): {row[3]}",
                  flush=True)
            rows.append(row)
    rows.sort()
    print("\n| mutant | verdict | scenario | first error |")
    print("|---|---|---|---|")
    for name, verdict, sc, why in rows:
        why = why.replace("|", "\\|")
        print(f"| {name} | {verdict.lower()} | {sc} | {why} |")
    caught = sum(r[1] == "CAUGHT" for r in rows)
    survived = sum(r[1] == "SURVIVED" for r in rows)
    broken = sum(r[1] == "BROKEN" for r in rows)
    print(f"{caught} caught, {survived} survived"
          + (f", {broken} broken" if broken else ""))
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
