#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Host test of make bench-linux's tool (tools/bench_linux.py) on stored
consoles: Linux 6.12 boots (as shipped and latency-tuned) running
refscale and rcuscale under linux/bench-init, and a dynrcu
tests=bench_linux boot, all from real runs (tools/testdata/bench-linux/).
The clean consoles must give the figures they hold; each change of
Linux's or dynrcu's output format (a renamed line, a changed column, a
missing row) must fail loudly with a ParseError, never give a figure.
Then the logic on top: the ABBA order of the boots, the fastest-window
throughput, the background subtraction, and the calibration rows, which
must keep every other row out of the table at a CPU count where they
disagree.  Each check is also shown a broken input, which it must
catch.  Needs no kernel.  Ends with "N passed, N failed"."""

import copy
import os
import re
import sys

from tools import bench_linux as bl

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "testdata", "bench-linux")
NCPUS = 2

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


def plinux(t):
    return bl.parse_linux(t, NCPUS)


def clean_consoles(linux, tuned, dyn):
    """The stored consoles parse, into figures of the right shape."""
    ms = {}
    for name, text in (("linux", linux), ("linux-tuned", tuned)):
        try:
            r = plinux(text)
            ms[name] = bl.metrics(name, r, NCPUS)
            check(set(r["ref"]) == {lx for lx, _ in bl.REF_MODES} and
                  all(v > 0 for v in r["ref"].values()),
                  f"{name}: every refscale mode, positive "
                  f"({sorted(r['ref'])})")
            check(all(r["gp"][k]["gps"] >= bl.GPS for k in bl.GP_KINDS),
                  f"{name}: rcuscale's writer durations for "
                  f"{', '.join(bl.GP_KINDS)}")
            g = r["gp"]["sync"]
            check(g["ctl_ns"] > 0 and g["ns"] > 0 and g["irqs"] >= 0,
                  f"{name}: the other CPUs' interrupts, test "
                  f"{g['irqs']} in {g['ns']} ns, control {g['ctl_irqs']} "
                  f"in {g['ctl_ns']} ns")
            check(all(len(r["cb"][k]) == bl.CB_NUM for k in bl.CB_KINDS)
                  and ms[name]["cb_pool_per_s"] > 0,
                  f"{name}: {bl.CB_NUM} posts each from gp_async=1, pool "
                  f"{ms[name]['cb_pool_per_s']:.0f}/s, alloc "
                  f"{ms[name]['cb_alloc_per_s']:.0f}/s")
            check(1000 < r["tsc_mhz"] < 10000,
                  f"{name}: TSC {r['tsc_mhz']} MHz")
        except bl.ParseError as e:
            check(False, f"{name}: the stored console does not parse: {e}")
    try:
        d = bl.parse_dynrcu(dyn)
        ms["tree"] = bl.metrics("tree", d, NCPUS)
        dm = ms["tree"]
        check(dm["rcu_ns"] > 0 and dm["sync_us"] > 0 and
              dm["busy_us"] > 0 and dm["cb_alloc_per_s"] > 0 and
              dm["tsc_mhz"] > 0,
              f"dynrcu: read pair {dm['rcu_ns']:.2f} ns, sync "
              f"{dm['sync_us']:.1f} us, busy {dm['busy_us']:.0f} us, "
              f"{dm['cb_pool_per_s']:.0f} pool posts/s, TSC "
              f"{dm['tsc_mhz']} MHz")
    except bl.ParseError as e:
        check(False, f"dynrcu: the stored console does not parse: {e}")
    return ms


def linux_formats(linux):
    """Linux's output format, changed one way at a time."""
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
    fails(plinux, sub1(r"^.*rcu-scale:\s+0 writer-duration:\s+5 \d+\n", "",
                       linux),
          "rcuscale skips a writer duration")
    fails(plinux, subn(r" batches: (-?\d+)\n", r" gp_seqs: \1\n", linux),
          "rcuscale's 'start: ... batches:' line changed")
    fails(plinux, sub1(r"other-cpu-irqs test: ", "other-cpu-irqs run: ",
                       linux),
          "the bench patch's 'other-cpu-irqs test:' line renamed")
    fails(plinux, sub1(r"^.*other-cpu-irqs control: .*\n", "", linux),
          "no control window in gp-sync")
    fails(plinux, sub1(r"(other-cpu-irqs test: .*) dev: (\d+)", r"\1",
                       linux),
          "an interrupt kind missing from 'other-cpu-irqs'")
    fails(plinux, sub1(r"^bench-init: begin gp-busy$",
                       "bench-init: start gp-busy", linux),
          "bench-init's section marker changed")
    fails(plinux, sub1(r"^bench-init: done$", "bench-init: FAIL gp-pool: "
                       "insmod rcuscale\nbench-init: done", linux),
          "a bench-init FAIL line")
    fails(plinux, subn(r"^(bench-init: .*)tsc: .*MHz.*\n", "", linux),
          "no TSC frequency line")
    # gp-pool with 99 posts: its 100th and later dropped, and its gps:
    # saying so (the other sections' lines look the same: cut it out).
    a = linux.index("bench-init: begin gp-pool")
    b = linux.index("bench-init: end gp-pool")
    pool = linux[a:b]
    n = len(bl.writer_durations(bl.sections(linux)["gp-pool"], "gp-pool"))
    for j in range(99, n):
        pool = sub1(rf"^.*rcu-scale:\s+0 writer-duration:\s+{j} \d+\n", "",
                    pool)
    pool = sub1(rf"(duration: \d+ gps: ){n}( batches)", r"\g<1>99\2", pool)
    fails(plinux, linux[:a] + pool + linux[b:],
          "gp-pool with fewer than 100 posts")
    fails(plinux, sub1(r"^bench-init: done\n", "", linux),
          "a Linux boot that did not finish")


def dynrcu_formats(dyn):
    fails(bl.parse_dynrcu, sub1(r"^# bench lx_ref .*mode=rcu .*\n", "", dyn),
          "dynrcu: no lx_ref mode=rcu line")
    fails(bl.parse_dynrcu, sub1(r" min_ns=([\d.]+)", r" fastest=\1", dyn),
          "dynrcu: lx_ref's min_ns renamed")
    fails(bl.parse_dynrcu, sub1(r"^# bench lx_cb .*kind=pool.*\n", "", dyn),
          "dynrcu: no lx_cb kind=pool line")
    fails(bl.parse_dynrcu, sub1(r"^# bench lx_cb_ns kind=alloc first=20 "
                                r".*\n", "", dyn),
          "dynrcu: an lx_cb_ns line missing (fewer durations than n=)")
    fails(bl.parse_dynrcu, sub1(r" ctl_irqs=\d+", "", dyn),
          "dynrcu: lx_gp without its control window")
    fails(bl.parse_dynrcu, sub1(r"TSC [\d.]+ MHz", "TSC ? MHz", dyn),
          "dynrcu: no TSC frequency")


def is_abba(order, rounds):
    """Every system once per round, and each pair of rounds mirrored."""
    orders = [tuple(order(r)) for r in range(1, rounds + 1)]
    return (all(sorted(o) == sorted(bl.SYSTEMS) for o in orders) and
            all(orders[i + 1] == orders[i][::-1]
                for i in range(0, rounds - 1, 2)) and
            orders[0].index("tree") < orders[0].index("linux"))


def ordering():
    check(is_abba(bl.round_order, 6),
          f"ABBA: {bl.round_order(1)} then {bl.round_order(2)}")
    check(not is_abba(lambda r: bl.SYSTEMS, 6),
          "the check catches the same order every round")
    check(not is_abba(lambda r: bl.SYSTEMS[:-1], 2),
          "the check catches a round without one of the kernels")


def reductions():
    durs = [500] * 10 + [100] * 10 + [100] * 9 + [100000]
    check(bl.best_window_rate(durs) == 10 * 1e9 / 1000,
          "throughput: the fastest window of 10 posts, the slow ones and "
          "the one with an outlier left out")
    check(bl.best_window_rate([100] * 10 + [1000] * 10) !=
          bl.best_window_rate([1000] * 20),
          "throughput: a fast window is not averaged away")
    try:
        bl.best_window_rate([100] * 9)
        check(False, "throughput: fewer posts than a window accepted")
    except bl.ParseError:
        check(True, "throughput: fewer posts than a window refused")
    g = {"gps": 100, "irqs": 10, "ns": 10**9, "ctl_irqs": 5,
         "ctl_ns": 5 * 10**8}
    check(bl.net_irqs(g) == 0,
          "background: 10 interrupts in 1 s less 5 per 0.5 s is 0")
    check(bl.net_irqs(dict(g, irqs=30)) == 200,
          "background: 20 left over 100 GPs is 200 per 1000")
    check(bl.net_irqs(dict(g, ctl_ns=0)) is None,
          "background: no control window, no figure")


def calibration(ms):
    """The table from two rounds of the stored figures, the calibration
    rows made equal on both sides, then broken one at a time."""
    if not {"tree", "linux", "linux-tuned"} <= set(ms):
        check(False, "calibration: the stored consoles did not parse")
        return
    base = {}
    for s in bl.SYSTEMS:
        m = copy.deepcopy(ms["tree" if s in bl.FLAVORS else s])
        for key, _, _ in bl.CALIBRATION:
            m[key] = ms["linux"][key]
        base[(s, NCPUS)] = [m, copy.deepcopy(m)]
    head = "`rcu_read_lock()`/`unlock()` pair"

    def table(res):
        return "\n".join(bl.table(res, [NCPUS]))

    t = table(base)
    check(head in t and "disagree" not in t and bl.UNREAD not in t,
          "calibration agrees: every row is in the table, every ratio read")
    for key, _, _ in bl.CALIBRATION:
        # "A few percent": 2% is read, 10% either way is not, and only
        # the pairs of the flavour whose boots disagree go unread.
        for factor, readable in ((1.02, True), (1.10, False),
                                 (0.90, False)):
            res = copy.deepcopy(base)
            for m in res[("rcupreempt", NCPUS)]:
                m[key] *= factor
            t = table(res)
            head_row = next((l for l in t.splitlines()
                             if l.startswith("| " + head)), "")
            cells = head_row.split(" | ")[-4:]
            ok = bool(head_row) and \
                (cells[2:] == [bl.UNREAD, bl.UNREAD + " |"]) != readable \
                and bl.UNREAD not in "".join(cells[:2]) and \
                ("disagree" in t) != readable
            check(ok, f"calibration {key} x{factor:.3f} on rcupreempt: "
                  + ("still read" if readable else
                     "its ratios unread, the tree's still read"))
        res = copy.deepcopy(base)
        for s in bl.LINUXES:
            for m in res[(s, NCPUS)]:
                m[key] *= 1.10
        t = table(res)
        check(head not in t and "every other row is left out" in t,
              f"calibration {key} x1.100 on both Linux columns: no pair "
              "is read, the rows are left out")
    res = copy.deepcopy(base)
    res[("linux-tuned", NCPUS)] = [None, None]
    t = table(res)
    check(head in t and "no dynrcu tree ÷ Linux tuned round" in t,
          "calibration: a Linux column with no round leaves its pairs "
          "unread, the other Linux's read")


def retry():
    """Only a console whose benchmarks never began is booted again."""
    oops = "[    1.2] Oops: int3: 0000 [#1] PREEMPT SMP\n"
    check(bl.died_before_measuring(oops),
          "retry: an oops before bench-init's first begin is booted again")
    check(not bl.died_before_measuring(
        "bench-init: begin ref-rcu\n" + oops),
        "retry: an oops after a benchmark began is a failure, not retried")


def header():
    run = {"dynrcu": "0123456789ab", "config": "cafe12345678",
           "qemu": "7.2.0", "when": "now"}
    h = "\n".join(bl.header(1, [2], run))
    check(all(x in h for x in ("0123456789ab", "cafe12345678", "7.2.0"))
          and "a trial" in h,
          "header: commit, .config hash, QEMU version; 1 round is a trial")
    h = "\n".join(bl.header(bl.MIN_ROUNDS, [2], run))
    check("a trial" not in h, f"header: {bl.MIN_ROUNDS} rounds are not")


def main():
    linux = read(f"linux-smp{NCPUS}.log")
    tuned = read(f"linux-tuned-smp{NCPUS}.log")
    dyn = read(f"dynrcu-tree-smp{NCPUS}.log")
    ms = clean_consoles(linux, tuned, dyn)
    check("pinned rcu_preempt to CPU 0" in tuned and
          "pinned" not in linux,
          "tuned Linux pinned its grace-period kthread; shipped did not")
    linux_formats(linux)
    dynrcu_formats(dyn)
    ordering()
    reductions()
    calibration(ms)
    retry()
    header()
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
