#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make bench-linux: dynrcu's two RCU implementations side by side with
Linux 6.12 under the same QEMU (TCG, -cpu max, 256 MiB, the same vCPU
counts), in one run.

Linux (linux/bench-build.sh's kernel and initramfs) runs its own refscale
and rcuscale modules (linux/bench-init loads them); dynrcu runs
tests=bench_linux (tests/kernel/rcu/bench_linux.c), which takes the same
figures the same way.  For each CPU count and each round: a dynrcu boot
per flavour, then a Linux boot, so that the host's load falls on both
alike.  Each metric's ratio to Linux is taken within a round; the table
gives the median over the rounds and the range.

Writes build/bench/linux.md (the section that make docs-figures splices
into docs/benchmarks.md with tools/splice.py), prints it, and keeps every
console in build/bench/linux/.  Never fails on performance: only on a
failed boot or a console it cannot parse.

Usage: python3 -m tools.bench_linux [--cpus 1,2,4,8] [--rounds 3]
                                    [--from-logs]
"""

import argparse
import os
import re
import statistics
import sys
import time

from tools import boot
from tools.ktap import judge_ktap
from tools.qemu import ROOT

BENCH_DIR = os.path.join(ROOT, "build", "bench")
LOG_DIR = os.path.join(BENCH_DIR, "linux")
OUT = os.path.join(BENCH_DIR, "linux.md")
LINUX_DIR = os.environ.get("DYNRCU_LINUX_DIR", "/var/tmp/dynrcu-linux")
LINUX_OUT = os.path.join(LINUX_DIR, "out", "bench")
FLAVORS = ("tree", "rcupreempt")
SYSTEMS = FLAVORS + ("linux",)
MAX_CPUS = 8            # CONFIG_NR_CPUS of linux/bench-fragment
# The same sizes on both sides.
LOOPS = 20000           # refscale loops / bench_lx_loops
RUNS = 15               # refscale nruns / bench_lx_runs
KFREE_NUM = 8000        # rcuscale kfree_alloc_num / bench_lx_cb_batch
KFREE_LOOPS = 10        # rcuscale kfree_loops
GPS = 100               # rcuscale's MIN_MEAS / bench_lx_gps
# refscale modes: Linux's name, and dynrcu's (None: no counterpart).
REF_MODES = (("empty", "empty"), ("irqsave", "irq"), ("rcu", "rcu"),
             ("srcu", None), ("refcnt", "refcnt"), ("lock", "lock"))


class ParseError(Exception):
    """A console that lacks a figure the bench needs, or has it in a form
    the parser does not know: Linux's output format changed, or a run
    failed."""


# ---------------------------------------------------------------------
# Parsers
# ---------------------------------------------------------------------

LINUX_TS = r"^(?:\[\s*\d+\.\d+\]\s?)?"


def _kv(s):
    return dict(p.split("=", 1) for p in s.split() if "=" in p)


def parse_dynrcu(text):
    """{"ref": {mode: ns}, "gp": {kind: {...}}, "cb": {...}} from
    tests=bench_linux's "# bench lx_..." lines."""
    res = {"ref": {}, "gp": {}, "cb": None}
    for line in text.splitlines():
        m = re.match(r"# bench (lx_\w+) (.*)", line.strip())
        if not m:
            continue
        kv = _kv(m.group(2))
        try:
            if m.group(1) == "lx_ref":
                res["ref"][kv["mode"]] = float(kv["min_ns"])
            elif m.group(1) == "lx_gp":
                res["gp"][kv["kind"]] = {
                    "median_us": int(kv["median_ns"]) / 1000,
                    "gps": int(kv["gps"]),
                    "idle_irqs": int(kv["idle_irqs"]),
                    "idle_ticks": int(kv["idle_ticks"])}
            elif m.group(1) == "lx_cb":
                res["cb"] = {"n": int(kv["n"]),
                             "post_ns": int(kv["post_ns"]),
                             "all_ns": int(kv["all_invoked_ns"])}
        except (KeyError, ValueError) as e:
            raise ParseError(f"dynrcu: bad line {line.strip()!r}: {e}")
    for mode in ("empty", "irq", "rcu", "rcu_direct", "refcnt", "lock"):
        if mode not in res["ref"]:
            raise ParseError(f"dynrcu: no 'lx_ref mode={mode}' line")
    for kind in ("sync", "exp"):
        if kind not in res["gp"]:
            raise ParseError(f"dynrcu: no 'lx_gp kind={kind}' line")
    if not res["cb"]:
        raise ParseError("dynrcu: no 'lx_cb' line")
    return res


def sections(text):
    """{label: [lines]} between bench-init's begin and end markers, the
    kernel's timestamps removed."""
    out, cur = {}, None
    for raw in text.splitlines():
        line = re.sub(LINUX_TS, "", raw.rstrip())
        m = re.match(r"bench-init: (begin|end) (\S+)$", line)
        if m and m.group(1) == "begin":
            cur = out.setdefault(m.group(2), [])
        elif m:
            cur = None
        elif cur is not None:
            cur.append(line)
    return out


def parse_interrupts(lines, which, label, ncpus):
    """The /proc/interrupts rows bench-init printed ("irq before LABEL:"):
    {row name: [count per CPU]}."""
    pre = f"bench-init: irq {which} {label}: "
    rows = [l[len(pre):] for l in lines if l.startswith(pre)]
    if not rows:
        raise ParseError(f"linux: {label}: no 'irq {which}' lines")
    cpus = rows[0].split()
    if cpus != [f"CPU{i}" for i in range(len(cpus))] or len(cpus) != ncpus:
        raise ParseError(f"linux: {label}: /proc/interrupts header "
                         f"{rows[0].strip()!r} is not CPU0..CPU{ncpus - 1}")
    table = {}
    for r in rows[1:]:
        m = re.match(r"\s*(\w+):((?:\s+\d+)+)", r)
        if not m:
            raise ParseError(f"linux: {label}: /proc/interrupts row "
                             f"{r.strip()!r} unknown")
        vals = [int(v) for v in m.group(2).split()]
        if len(vals) >= ncpus:
            table[m.group(1)] = vals[:ncpus]
    for name in ("LOC", "CAL", "RES"):
        if name not in table:
            raise ParseError(f"linux: {label}: no {name} row in "
                             "/proc/interrupts")
    return table


def idle_irqs(lines, label, ncpus):
    """Interrupts on CPUs 1..N-1 from before to after: LOC, CAL, RES and
    every per-CPU row."""
    if ncpus < 2:
        return None
    a = parse_interrupts(lines, "before", label, ncpus)
    b = parse_interrupts(lines, "after", label, ncpus)
    d = {n: sum(b[n][c] - a[n][c] for c in range(1, ncpus))
         for n in a if n in b}
    return {"LOC": d["LOC"], "CAL": d["CAL"], "RES": d["RES"],
            "all": sum(d.values())}


def parse_linux(text, ncpus):
    """The same shape as parse_dynrcu, from refscale's and rcuscale's own
    lines, and bench-init's /proc/interrupts snapshots."""
    sec = sections(text)
    res = {"ref": {}, "gp": {}, "cb": None}
    for lx, _ in REF_MODES:
        lines = sec.get(f"ref-{lx}")
        if lines is None:
            raise ParseError(f"linux: no 'bench-init: begin ref-{lx}' "
                             "section")
        if any("FAIL" in l for l in lines if l.startswith("bench-init:")):
            raise ParseError(f"linux: ref-{lx}: bench-init says "
                             + next(l for l in lines if "FAIL" in l))
        try:
            i = next(i for i, l in enumerate(lines)
                     if re.search(rf"^{re.escape(lx)}-ref-scale: END OF "
                                  "TEST", l))
            j = next(j for j in range(i, len(lines))
                     if re.fullmatch(r"Runs\tTime\(ns\)", lines[j]))
        except StopIteration:
            raise ParseError(f"linux: ref-{lx}: no '{lx}-ref-scale: END "
                             "OF TEST' then 'Runs<TAB>Time(ns)' lines")
        runs = []
        for l in lines[j + 1:]:
            m = re.fullmatch(r"(\d+)\t(\d+\.\d{3})", l)
            if not m:
                break
            runs.append(float(m.group(2)))
        if len(runs) != RUNS:
            raise ParseError(f"linux: ref-{lx}: {len(runs)} runs after "
                             f"'Runs<TAB>Time(ns)', expected {RUNS}")
        res["ref"][lx] = min(runs)
    for kind in ("sync", "exp"):
        label = f"gp-{kind}"
        lines = sec.get(label)
        if lines is None:
            raise ParseError(f"linux: no 'bench-init: begin {label}' "
                             "section")
        durs = [int(m.group(1)) for m in
                (re.fullmatch(r"rcu-scale:\s+0 writer-duration:\s+\d+ "
                              r"(\d+)", l) for l in lines) if m]
        summ = [re.search(r"rcu-scale: start: \d+ end: \d+ duration: "
                          r"(\d+) gps: (\d+) batches: (-?\d+)", l)
                for l in lines]
        summ = [m for m in summ if m]
        if not durs or not summ:
            raise ParseError(f"linux: {label}: no rcuscale "
                             "'writer-duration' or 'start: ... batches:' "
                             "lines")
        gps = int(summ[0].group(2))
        if len(durs) != gps:
            raise ParseError(f"linux: {label}: {len(durs)} "
                             f"writer-duration lines, 'gps: {gps}'")
        res["gp"][kind] = {"median_us": statistics.median(durs) / 1000,
                           "gps": gps,
                           "batches": int(summ[0].group(3)),
                           "irqs": idle_irqs(lines, label, ncpus)}
    lines = sec.get("gp-kfree")
    if lines is None:
        raise ParseError("linux: no 'bench-init: begin gp-kfree' section")
    m = [re.search(r"Total time taken by all kfree'ers: (\d+) ns, loops: "
                   r"(\d+), batches: (-?\d+)", l) for l in lines]
    m = [x for x in m if x]
    p = [re.search(r"kfree_rcu_test: .*kfree_alloc_num=(\d+) "
                   r"kfree_loops=(\d+)", l) for l in lines]
    p = [x for x in p if x]
    if not m or not p:
        raise ParseError("linux: gp-kfree: no 'Total time taken by all "
                         "kfree'ers' or '--- kfree_rcu_test:' line")
    res["cb"] = {"n": int(p[0].group(1)) * int(p[0].group(2)),
                 "post_ns": int(m[0].group(1)), "all_ns": None}
    return res


# ---------------------------------------------------------------------
# Metrics and the table
# ---------------------------------------------------------------------

def metrics(sysname, r, ncpus):
    """{metric: value} for one boot (None: not measured there)."""
    ref = r["ref"]
    empty = ref["empty"]
    irq = ref["irqsave" if sysname == "linux" else "irq"]
    out = {"rcu_ns": ref["rcu"] - empty, "irq_ns": irq - empty}
    out["rcu_over_irq"] = (out["rcu_ns"] / out["irq_ns"]
                           if out["irq_ns"] > 0 else None)
    # Linux's rcu_read_lock() is its direct call already.
    out["rcu_direct_ns"] = (out["rcu_ns"] if sysname == "linux" else
                            ref["rcu_direct"] - empty)
    out["refcnt_ns"] = ref["refcnt"] - empty
    out["lock_ns"] = ref["lock"] - empty
    out["srcu_ns"] = ref["srcu"] - empty if "srcu" in ref else None
    for kind in ("sync", "exp"):
        g = r["gp"][kind]
        out[f"{kind}_us"] = g["median_us"]
        if ncpus < 2:
            out[f"{kind}_irqs"] = None
        elif sysname == "linux":
            # Per writer call, as dynrcu's: rcuscale's gp_seq difference
            # ("batches") counts every grace period, and one
            # synchronize_rcu() can take two.
            n = g["gps"]
            out[f"{kind}_irqs"] = (g["irqs"]["all"] * 1000 / n
                                   if n > 0 else None)
            out[f"{kind}_loc_cal_res"] = "/".join(
                f"{g['irqs'][k] * 1000 / n:.0f}" if n > 0 else "-"
                for k in ("LOC", "CAL", "RES"))
        else:
            out[f"{kind}_irqs"] = g["idle_irqs"] * 1000 / g["gps"]
    cb = r["cb"]
    out["cb_per_s"] = cb["n"] / (cb["post_ns"] / 1e9)
    return out


# (key, heading, unit, lower is better)
METRICS = (("rcu_ns", "`rcu_read_lock()`/`unlock()` pair, net of the loop",
            "ns", True),
           ("rcu_direct_ns", "the same, the flavour's functions called "
            "directly (no boot-time dispatch; Linux: its pair again)", "ns",
            True),
           ("irq_ns", "bare IRQ save/restore pair, net of the loop", "ns",
            True),
           ("rcu_over_irq", "read pair ÷ own IRQ pair", "×", True),
           ("refcnt_ns", "refcnt: atomic inc + dec, net", "ns", True),
           ("lock_ns", "lock: spin lock + unlock, net", "ns", True),
           ("srcu_ns", "srcu: `srcu_read_lock()`/`unlock()`, net", "ns",
            True),
           ("sync_us", "`synchronize_rcu()`, N−1 idle, median", "µs", True),
           ("exp_us", "`synchronize_rcu_expedited()`, N−1 idle, median",
            "µs", True),
           ("cb_per_s", "callbacks posted per second (allocation + "
            "`call_rcu()`; Linux: `kfree_rcu()`)", "/s", False),
           ("sync_irqs", "interrupts on the idle CPUs per 1000 "
            "`synchronize_rcu()`", "", True),
           ("exp_irqs", "interrupts on the idle CPUs per 1000 "
            "`synchronize_rcu_expedited()`", "", True))


def fmt(v, unit=""):
    if v is None:
        return "–"
    if v == 0:
        return "0"
    if unit == "/s":
        return f"{v / 1e6:.2f} M" if v >= 1e6 else f"{v / 1e3:.0f} k"
    if abs(v) >= 100:
        return f"{v:.0f}"
    return f"{v:.2f}" if abs(v) < 10 else f"{v:.1f}"


def ratio_cell(pairs):
    """Median (min–max) of the per-round ratios dynrcu ÷ Linux."""
    rs = [a / b for a, b in pairs if a is not None and b not in (None, 0)]
    if not rs:
        return "–"

    def r(x):
        if x == 0 or x >= 100:
            return f"{x:.0f}"
        return f"{x:.2f}" if x >= 0.01 else f"{x:.2g}"
    return (f"{r(statistics.median(rs))} ({r(min(rs))}–{r(max(rs))})"
            if len(rs) > 1 else r(rs[0]))


def table(results, cpus, rounds):
    """results[(system, n)] = [metrics of each round] (None: failed)."""
    L = ["| metric | CPUs | dynrcu tree | dynrcu rcupreempt | Linux 6.12 "
         "| tree ÷ Linux | rcupreempt ÷ Linux |",
         "|---|---:|---:|---:|---:|---:|---:|"]
    for key, title, unit, _ in METRICS:
        for n in cpus:
            med, per = {}, {}
            for s in SYSTEMS:
                vals = [m.get(key) if m else None
                        for m in results.get((s, n), [])]
                per[s] = vals
                ok = [v for v in vals if v is not None]
                med[s] = statistics.median(ok) if ok else None
            if all(v is None for v in med.values()):
                continue
            cells = [ratio_cell(list(zip(per[f], per["linux"])))
                     for f in FLAVORS]
            L.append(f"| {title}{' (' + unit + ')' if unit and unit != '×' else ''} "
                     f"| {n} | {fmt(med['tree'], unit)} "
                     f"| {fmt(med['rcupreempt'], unit)} "
                     f"| {fmt(med['linux'], unit)} | {cells[0]} "
                     f"| {cells[1]} |")
    L += ["", "Linux's interrupts on the idle CPUs per 1000 calls, "
          "by kind (LOC local timer / CAL function-call IPI / RES "
          "reschedule IPI), medians over the rounds:", "",
          "| CPUs | normal: LOC/CAL/RES | expedited: LOC/CAL/RES |",
          "|---:|---|---|"]
    for n in cpus:
        ms = [m for m in results.get(("linux", n), []) if m]
        if n < 2 or not ms:
            continue
        L.append(f"| {n} | {ms[len(ms) // 2].get('sync_loc_cal_res', '–')} "
                 f"| {ms[len(ms) // 2].get('exp_loc_cal_res', '–')} |")
    return L


def parse_cpus(s):
    try:
        cpus = [int(c) for c in s.split(",")]
    except ValueError:
        raise SystemExit(f"bench-linux: BENCH_CPUS/--cpus '{s}': expected "
                         "a comma-separated list of CPU counts, e.g. "
                         "1,2,4,8")
    bad = [c for c in cpus if not 1 <= c <= MAX_CPUS]
    if bad or not cpus:
        raise SystemExit(f"bench-linux: BENCH_CPUS/--cpus '{s}': each count "
                         f"must be 1 to {MAX_CPUS} (Linux's CONFIG_NR_CPUS "
                         "in linux/bench-fragment)")
    return cpus


def linux_cmdline():
    # no_timer_check: as linux/linux-test.sh boots (the IO-APIC timer
    # check judges the host's speed and panics on a loaded one).
    return ("console=ttyS0 panic=-1 quiet no_timer_check "
            f"benchlx.ref={','.join(lx for lx, _ in REF_MODES)} "
            f"benchlx.gp=sync,exp,kfree benchlx.loops={LOOPS} "
            f"benchlx.runs={RUNS} benchlx.kfree_num={KFREE_NUM} "
            f"benchlx.kfree_loops={KFREE_LOOPS}")


def dynrcu_cmdline(fl):
    return (f"rcu={fl} tests=bench_linux bench_lx_loops={LOOPS} "
            f"bench_lx_runs={RUNS} bench_lx_gps={GPS} "
            f"bench_lx_cb_num={KFREE_NUM * KFREE_LOOPS} "
            f"bench_lx_cb_batch={KFREE_NUM}")


def one_boot(sysname, n, rnd, timeout, from_logs):
    """(metrics or None, seconds, problem or None)."""
    log = os.path.join(LOG_DIR, f"{sysname}-smp{n}-r{rnd}.log")
    t0 = time.monotonic()
    if from_logs:
        with open(log, errors="replace") as f:
            text = f.read().replace("\r", "")
        status = 0 if sysname == "linux" else 33
    elif sysname == "linux":
        status, text, _ = boot.boot(
            os.path.join(LINUX_OUT, "bzImage"), n, linux_cmdline(), timeout,
            log, ["-initrd", os.path.join(LINUX_OUT, "initramfs.cpio.gz")])
    else:
        status, text, _ = boot.boot(os.path.join(ROOT, "build",
                                                 "kernel.elf"), n,
                                    dynrcu_cmdline(sysname), timeout, log)
    secs = time.monotonic() - t0
    if status is None:
        return None, secs, f"timeout after {timeout} s ({log})"
    try:
        if sysname == "linux":
            if "bench-init: done" not in text:
                raise ParseError("linux: no 'bench-init: done' line")
            r = parse_linux(text, n)
        else:
            problems = judge_ktap(text, status)
            if problems:
                raise ParseError("; ".join(problems[:3]))
            r = parse_dynrcu(text)
    except ParseError as e:
        return None, secs, f"{e} ({log})"
    return metrics(sysname, r, n), secs, None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cpus", default=os.environ.get("BENCH_CPUS",
                                                     "1,2,4,8"))
    ap.add_argument("--rounds", default="3")
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--check-args", action="store_true",
                    help="only check --cpus and --rounds (before a build)")
    ap.add_argument("--from-logs", action="store_true",
                    help="no boots: the table from build/bench/linux/")
    args = ap.parse_args()
    cpus = parse_cpus(args.cpus)
    if not args.rounds.isdigit() or int(args.rounds) < 1:
        raise SystemExit(f"bench-linux: --rounds '{args.rounds}': expected "
                         "a positive number (3 or more for the docs)")
    rounds = int(args.rounds)
    if args.check_args:
        return 0
    for f in ("bzImage", "initramfs.cpio.gz"):
        if not args.from_logs and not os.path.exists(os.path.join(LINUX_OUT,
                                                                  f)):
            raise SystemExit(f"bench-linux: no {LINUX_OUT}/{f}: run "
                             "linux/bench-build.sh (make bench-linux does)")
    os.makedirs(LOG_DIR, exist_ok=True)
    t_start = time.monotonic()
    results, bad = {}, 0
    for n in cpus:
        for rnd in range(1, rounds + 1):
            for s in SYSTEMS:
                m, secs, prob = one_boot(s, n, rnd, args.timeout,
                                         args.from_logs)
                results.setdefault((s, n), []).append(m)
                print(f"# bench-linux: {s} {n} CPUs round {rnd}: "
                      f"{secs:.0f} s"
                      + (f"; PROBLEM: {prob}" if prob else ""), flush=True)
                bad += prob is not None
    try:
        load = " ".join(open("/proc/loadavg").read().split()[:3])
    except OSError:
        load = "?"
    # The run's own circumstances, kept beside its consoles for --from-logs.
    run_file = os.path.join(LOG_DIR, "run.txt")
    if args.from_logs:
        try:
            with open(run_file) as f:
                run = f.read().strip()
        except OSError:
            run = "circumstances of the run not recorded"
    else:
        run = (f"boots took {time.monotonic() - t_start:.0f} s in all; "
               f"host load average {load} at the end; "
               + time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime()))
        with open(run_file, "w") as f:
            f.write(run + "\n")
    accel = (os.environ.get("ACCEL") or "tcg").upper()
    L = ["## Side by side with Linux 6.12", "",
         f"Written by `make bench-linux` (`tools/bench_linux.py`): "
         f"{rounds} rounds at each of {', '.join(map(str, cpus))} CPUs, "
         f"each round a dynrcu boot per flavour then a Linux boot, all "
         f"under QEMU {accel} with `-cpu max` and 256 MiB; {run}. "
         "Values are medians over the rounds; a ratio is dynrcu ÷ Linux "
         "taken within each round, given as the median and (the range) "
         "over the rounds: below 1 is dynrcu ahead (for callbacks per "
         "second, above 1). How each side measures, and why the figures "
         "differ: [linux-bench.md](linux-bench.md).",
         ""]
    L += table(results, cpus, rounds)
    with open(OUT, "w") as f:
        f.write("\n".join(L) + "\n")
    for l in L:
        print("# " + l if l else "#")
    print(f"bench-linux: wrote {os.path.relpath(OUT, ROOT)}"
          + (f"; {bad} boots failed" if bad else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
