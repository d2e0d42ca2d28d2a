#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Host test of make bench-linux's parsers (tools/bench_linux.py) on
stored consoles: a Linux 6.12 boot running refscale and rcuscale under
linux/bench-init, and a dynrcu tests=bench_linux boot, both from real
runs (tools/testdata/bench-linux/).  The clean consoles must give the
figures they hold; each change of Linux's or dynrcu's output format
(a renamed line, a changed column, a missing row) must fail loudly with
a ParseError, never give a figure.  Needs no kernel.  Ends with
"N passed, N failed"."""

import os
import re
import sys

from tools import bench_linux as bl

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "testdata", "bench-linux")
LINUX_CPUS = 4

results = []


def check(ok, what):
    results.append(bool(ok))
    print(f"{'ok' if ok else 'not ok'} {len(results)} - {what}")


def read(name):
    with open(os.path.join(DATA, name), errors="replace") as f:
        return f.read().replace("\r", "")


def fails(parse, text, what):
    try:
        parse(text)
    except bl.ParseError as e:
        check(True, f"{what}: fails ({e})")
        return
    check(False, f"{what}: parsed without an error")


def sub1(pattern, repl, text):
    """text with the first match of pattern replaced; the pattern must
    match (else the mutation tests nothing)."""
    new, n = re.subn(pattern, repl, text, count=1, flags=re.M)
    assert n == 1, f"mutation pattern {pattern!r} matches nothing"
    return new


def subn(pattern, repl, text):
    new, n = re.subn(pattern, repl, text, flags=re.M)
    assert n >= 1, f"mutation pattern {pattern!r} matches nothing"
    return new


def main():
    linux = read(f"linux-smp{LINUX_CPUS}.log")
    dyn = read(f"dynrcu-tree-smp{LINUX_CPUS}.log")

    def plinux(t):
        return bl.parse_linux(t, LINUX_CPUS)

    # The clean consoles.
    try:
        r = plinux(linux)
        m = bl.metrics("linux", r, LINUX_CPUS)
        check(set(r["ref"]) == {lx for lx, _ in bl.REF_MODES},
              f"linux: every refscale mode parsed ({sorted(r['ref'])})")
        check(all(v > 0 for v in r["ref"].values()),
              "linux: every refscale median is positive")
        check(r["gp"]["sync"]["gps"] >= 100 and
              r["gp"]["exp"]["gps"] >= 100,
              f"linux: rcuscale's writer durations, "
              f"{r['gp']['sync']['gps']} and {r['gp']['exp']['gps']} GPs")
        check(r["gp"]["sync"]["irqs"]["LOC"] >= 0 and
              r["gp"]["sync"]["batches"] > 0,
              f"linux: idle CPUs' interrupts over {r['gp']['sync']['batches']}"
              f" GPs: {r['gp']['sync']['irqs']}")
        check(r["cb"]["n"] == bl.KFREE_NUM * bl.KFREE_LOOPS and
              m["cb_per_s"] > 0,
              f"linux: kfree_rcu() throughput {m['cb_per_s']:.0f}/s")
    except bl.ParseError as e:
        check(False, f"linux: the stored console does not parse: {e}")
    try:
        d = bl.parse_dynrcu(dyn)
        dm = bl.metrics("tree", d, LINUX_CPUS)
        check(dm["rcu_ns"] > 0 and dm["sync_us"] > 0 and dm["cb_per_s"] > 0,
              f"dynrcu: read pair {dm['rcu_ns']:.2f} ns, sync "
              f"{dm['sync_us']:.1f} us, {dm['cb_per_s']:.0f} callbacks/s")
    except bl.ParseError as e:
        check(False, f"dynrcu: the stored console does not parse: {e}")

    # Linux's output format, changed one way at a time.
    fails(plinux, sub1(r"Runs\tTime\(ns\)", "Runs Time(ns)", linux),
          "refscale's 'Runs<TAB>Time(ns)' header changed")
    fails(plinux, subn(r"^(\[\s*[\d.]+\] )?(\d+)\t(\d+\.\d{3})$",
                       r"\1\2\t\3 ns", linux),
          "refscale's run lines gain a unit")
    fails(plinux, sub1(r"^(\[\s*[\d.]+\] )?3\t\d+\.\d{3}\n", "", linux),
          "refscale prints one run fewer")
    fails(plinux, subn(r"END OF TEST", "End of test", linux),
          "refscale's 'END OF TEST' renamed")
    fails(plinux, subn(r"writer-duration:", "writer_duration:", linux),
          "rcuscale's 'writer-duration:' renamed")
    fails(plinux, sub1(r"rcu-scale:\s+0 writer-duration:\s+\d+ \d+\n", "",
                       linux),
          "rcuscale prints one writer duration fewer than its gps:")
    fails(plinux, subn(r" batches: (-?\d+)\n", r" gp_seqs: \1\n", linux),
          "rcuscale's 'batches:' renamed")
    fails(plinux, subn(r"Total time taken by all kfree'ers",
                       "Total time of all kfree'ers", linux),
          "rcuscale's kfree 'Total time taken' line changed")
    fails(plinux, subn(r"^(bench-init: irq (?:before|after) gp-sync: )"
                       r"\s*LOC:.*\n", "", linux),
          "/proc/interrupts without its LOC row")
    fails(plinux, subn(r"^(bench-init: irq before gp-exp: )\s*CPU0.*$",
                       r"\1 CPU0", linux),
          "/proc/interrupts header with the wrong CPU count")
    fails(plinux, sub1(r"^(bench-init: irq after gp-sync: \s*RES:)",
                       r"\1 x", linux),
          "a /proc/interrupts row that does not parse")
    fails(plinux, sub1(r"^bench-init: begin ref-srcu$",
                       "bench-init: start ref-srcu", linux),
          "bench-init's section marker changed")

    # dynrcu's own lines.
    fails(bl.parse_dynrcu, sub1(r"^# bench lx_ref .*mode=rcu .*\n", "", dyn),
          "dynrcu: no lx_ref mode=rcu line")
    fails(bl.parse_dynrcu, sub1(r" min_ns=([\d.]+)", r" fastest=\1", dyn),
          "dynrcu: lx_ref's min_ns renamed")
    fails(bl.parse_dynrcu, sub1(r"^# bench lx_cb .*\n", "", dyn),
          "dynrcu: no lx_cb line")

    # The command-line checks.
    for bad in ("1,x", "0", "1,16", ""):
        try:
            bl.parse_cpus(bad)
            check(False, f"--cpus '{bad}' accepted")
        except SystemExit as e:
            check("bench-linux:" in str(e), f"--cpus '{bad}' refused: {e}")

    npass = sum(results)
    print(f"{npass} passed, {len(results) - npass} failed")
    return 0 if npass == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
