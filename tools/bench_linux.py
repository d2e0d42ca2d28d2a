#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make bench-linux: dynrcu's two RCU implementations side by side with
Linux 6.12 under the same QEMU (TCG, -cpu max, 256 MiB, the same vCPU
counts), in one run.

Linux (linux/bench-build.sh's kernel and initramfs) runs its own refscale
and rcuscale modules (linux/bench-init loads them), twice: as shipped,
and tuned for latency (the RCU kthreads pinned to CPU 0 and the grace
period's first scan and its waiter's wake-up hurried); dynrcu runs
tests=bench_linux (tests/kernel/rcu/bench_linux.c), which takes the same
figures the same way.  A round boots each of the four once, in the
order dynrcu then Linux in odd rounds and the reverse in even ones
(ABBA), so that a host whose load drifts favours neither side.  Each
ratio is taken within a round; the table gives the median over the
rounds and the range.

Three calibration rows come first: the empty loop, a 32-bit atomic
increment and decrement, and the TSC frequency each kernel calibrated.
They measure the same thing on both sides, so they must agree within
CAL_TOL; at a CPU count where they do not, the other rows are not
printed, since a difference there could be the machine's.

Writes build/bench/linux.md (the section that make docs-figures splices
into docs/benchmarks.md with tools/splice.py), prints it, and keeps every
console in build/bench/linux/.  Never fails on performance: only on a
failed boot or a console it cannot parse.

Usage: python3 -m tools.bench_linux [--cpus 1,2,4,8] [--rounds 5]
                                    [--from-logs]
"""

import argparse
import hashlib
import json
import os
import re
import statistics
import subprocess
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
LINUXES = ("linux", "linux-tuned")
SYSTEMS = FLAVORS + LINUXES
NAMES = {"tree": "dynrcu tree", "rcupreempt": "dynrcu rcupreempt",
         "linux": "Linux 6.12", "linux-tuned": "Linux tuned"}
# What the latency-tuned Linux adds to its command line: the first
# force-quiescent-state scan at once rather than after a few jiffies,
# synchronize_rcu()'s waiter woken by the grace-period kthread itself,
# and (bench-init) the grace-period kthread and the expedited workers on
# CPU 0, where dynrcu's run.
TUNED = ("rcutree.jiffies_till_first_fqs=0 rcutree.rcu_normal_wake_from_gp=1 "
         "benchlx.pin=1")
MAX_CPUS = 8            # CONFIG_NR_CPUS of linux/bench-fragment
MIN_ROUNDS = 5          # fewer make a trial, not a table for the docs
# The same sizes on both sides.
LOOPS = 20000           # refscale loops / bench_lx_loops
RUNS = 15               # refscale nruns / bench_lx_runs
GPS = 100               # rcuscale's MIN_MEAS / bench_lx_gps
CB_NUM = 100            # rcuscale's MIN_MEAS posts / bench_lx_cb_num
CB_WINDOW = 10          # posts per throughput window: the fastest counts
CTL_MS = 500            # rcuscale idle_ctl_ms / bench_lx_ctl_ms
CAL_TOL = 0.05          # calibration rows: dynrcu / Linux within 1 +- this
# refscale modes: Linux's name, and dynrcu's (None: no counterpart).
REF_MODES = (("empty", "empty"), ("irqsave", "irq"), ("rcu", "rcu"),
             ("srcu", None), ("refcnt", "refcnt"), ("lock", "lock"))
GP_KINDS = ("sync", "exp", "busy")      # rcuscale: one writer, no readers
CB_KINDS = ("pool", "alloc")            # rcuscale: gp_async=1
# Interrupt kinds rcuscale's bench patch counts on the other CPUs.
IRQ_KINDS = ("LOC", "RES", "CAL", "TLB", "IWI", "NMI", "dev")


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


def tsc_mhz(text, pattern, who):
    """The last TSC frequency the console states (Linux may refine its
    first one)."""
    found = re.findall(pattern, text)
    if not found:
        raise ParseError(f"{who}: no TSC frequency line ({pattern!r})")
    return float(found[-1])


def parse_dynrcu(text):
    """{"ref": {mode: ns}, "gp": {kind: {...}}, "cb": {kind: [ns]},
    "tsc_mhz": MHz} from tests=bench_linux's "# bench lx_..." lines."""
    res = {"ref": {}, "gp": {}, "cb": {},
           "tsc_mhz": tsc_mhz(text, r"calibrate: LAPIC timer .* TSC "
                              r"([\d.]+) MHz", "dynrcu")}
    counts = {}
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
                    "irqs": int(kv["idle_irqs"]),
                    "ns": int(kv["total_ns"]),
                    "ctl_irqs": int(kv["ctl_irqs"]),
                    "ctl_ns": int(kv["ctl_ns"])}
            elif m.group(1) == "lx_cb":
                counts[kv["kind"]] = int(kv["n"])
                res["cb"][kv["kind"]] = []
            elif m.group(1) == "lx_cb_ns":
                if kv["kind"] not in res["cb"]:
                    raise ParseError(f"dynrcu: {line.strip()!r} before "
                                     f"its 'lx_cb kind={kv['kind']}' line")
                res["cb"][kv["kind"]] += [int(v) for v in
                                          kv["ns"].split(",")]
        except (KeyError, ValueError) as e:
            raise ParseError(f"dynrcu: bad line {line.strip()!r}: {e}")
    for mode in ("empty", "irq", "rcu", "rcu_direct", "refcnt", "lock"):
        if mode not in res["ref"]:
            raise ParseError(f"dynrcu: no 'lx_ref mode={mode}' line")
    for kind in ("sync", "exp"):
        if kind not in res["gp"]:
            raise ParseError(f"dynrcu: no 'lx_gp kind={kind}' line")
    for kind in CB_KINDS:
        if kind not in res["cb"]:
            raise ParseError(f"dynrcu: no 'lx_cb kind={kind}' line")
        if len(res["cb"][kind]) != counts[kind]:
            raise ParseError(f"dynrcu: lx_cb kind={kind}: n={counts[kind]}"
                             f" but {len(res['cb'][kind])} durations")
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


def parse_other_irqs(lines, which, label):
    """rcuscale's "other-cpu-irqs WHICH:" line (linux/bench-patches):
    {"ns": window, kind: count} over every CPU but the writer's."""
    pat = (rf"rcu-scale: other-cpu-irqs {which}: ns: (\d+) "
           + " ".join(rf"{k}: (\d+)" for k in IRQ_KINDS) + "$")
    found = [m for m in (re.search(pat, l) for l in lines) if m]
    if len(found) != 1:
        raise ParseError(f"linux: {label}: {len(found)} 'rcu-scale: "
                         f"other-cpu-irqs {which}: ns: ... dev: ...' "
                         "lines, expected 1")
    vals = [int(v) for v in found[0].groups()]
    return dict(zip(("ns",) + IRQ_KINDS, vals))


def writer_durations(lines, label):
    """rcuscale's writer 0 durations, in its order."""
    durs = [(int(m.group(1)), int(m.group(2))) for m in
            (re.fullmatch(r"rcu-scale:\s+0 writer-duration:\s+(\d+) (\d+)",
                          l) for l in lines) if m]
    if [j for j, _ in durs] != list(range(len(durs))):
        raise ParseError(f"linux: {label}: writer-duration lines not "
                         "numbered 0, 1, 2, ...")
    return [d for _, d in durs]


def parse_linux(text, ncpus):
    """The same shape as parse_dynrcu, from refscale's and rcuscale's own
    lines and bench-init's."""
    if "bench-init: done" not in text:
        raise ParseError("linux: no 'bench-init: done' line")
    fails = [l for l in text.splitlines() if "bench-init: FAIL" in l]
    if fails:
        raise ParseError(f"linux: {fails[0].strip()}")
    sec = sections(text)
    res = {"ref": {}, "gp": {}, "cb": {},
           "tsc_mhz": tsc_mhz(text, r"bench-init: .*tsc: .*?([\d.]+) MHz",
                              "linux")}
    for lx, _ in REF_MODES:
        lines = sec.get(f"ref-{lx}")
        if lines is None:
            raise ParseError(f"linux: no 'bench-init: begin ref-{lx}' "
                             "section")
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
    for kind in GP_KINDS + CB_KINDS:
        label = f"gp-{kind}"
        lines = sec.get(label)
        if lines is None:
            if kind == "busy" and ncpus < 2:
                continue        # bench-init: no other CPU to keep busy
            raise ParseError(f"linux: no 'bench-init: begin {label}' "
                             "section")
        durs = writer_durations(lines, label)
        summ = [m for m in (re.search(r"rcu-scale: start: \d+ end: \d+ "
                                      r"duration: \d+ gps: (\d+) batches: "
                                      r"-?\d+", l) for l in lines) if m]
        if not summ:
            raise ParseError(f"linux: {label}: no rcuscale 'start: ... "
                             "gps: ... batches:' line")
        gps = int(summ[0].group(1))
        if len(durs) != gps:
            raise ParseError(f"linux: {label}: {len(durs)} "
                             f"writer-duration lines, 'gps: {gps}'")
        if kind in CB_KINDS:
            # The posts before the writer's 100th, all while measuring.
            if len(durs) < CB_NUM:
                raise ParseError(f"linux: {label}: {len(durs)} posts, "
                                 f"expected {CB_NUM} or more")
            res["cb"][kind] = durs[:CB_NUM]
            continue
        g = {"median_us": statistics.median(durs) / 1000, "gps": gps}
        if kind != "busy":
            test = parse_other_irqs(lines, "test", label)
            ctl = parse_other_irqs(lines, "control", label)
            g.update(irqs=sum(test[k] for k in IRQ_KINDS), ns=test["ns"],
                     ctl_irqs=sum(ctl[k] for k in IRQ_KINDS),
                     ctl_ns=ctl["ns"], by_kind=test)
        res["gp"][kind] = g
    return res


# ---------------------------------------------------------------------
# Metrics and the table
# ---------------------------------------------------------------------

def best_window_rate(durs, window=CB_WINDOW):
    """Posts per second in the fastest run of `window` consecutive posts:
    the host's other work only ever slows a window down."""
    if len(durs) < window:
        raise ParseError(f"{len(durs)} posts, fewer than one window of "
                         f"{window}")
    best = min(sum(durs[i:i + window])
               for i in range(0, len(durs) - window + 1, window))
    return window * 1e9 / best if best > 0 else None


def net_irqs(g):
    """Interrupts on the other CPUs per 1000 grace periods, less the
    background the control window measured, scaled to the test's length."""
    if g["gps"] <= 0 or g["ctl_ns"] <= 0:
        return None
    background = g["ctl_irqs"] * g["ns"] / g["ctl_ns"]
    return (g["irqs"] - background) * 1000 / g["gps"]


def metrics(sysname, r, ncpus):
    """{metric: value} for one boot (None: not measured there)."""
    ref = r["ref"]
    empty = ref["empty"]
    lx = sysname in LINUXES
    irq = ref["irqsave" if lx else "irq"]
    out = {"empty_ns": empty, "refcnt_ns": ref["refcnt"] - empty,
           "tsc_mhz": r["tsc_mhz"],
           "rcu_ns": ref["rcu"] - empty, "irq_ns": irq - empty}
    out["rcu_over_irq"] = (out["rcu_ns"] / out["irq_ns"]
                           if out["irq_ns"] > 0 else None)
    # Linux's rcu_read_lock() is its direct call already.
    out["rcu_direct_ns"] = (out["rcu_ns"] if lx else
                            ref["rcu_direct"] - empty)
    out["lock_ns"] = ref["lock"] - empty
    out["srcu_ns"] = ref["srcu"] - empty if "srcu" in ref else None
    for kind in GP_KINDS:
        g = r["gp"].get(kind)
        out[f"{kind}_us"] = g["median_us"] if g else None
    for kind in ("sync", "exp"):
        g = r["gp"][kind]
        out[f"{kind}_irqs"] = net_irqs(g) if ncpus > 1 else None
        if lx and ncpus > 1:
            out[f"{kind}_by_kind"] = "/".join(
                f"{g['by_kind'][k] * 1000 / g['gps']:.0f}"
                for k in ("LOC", "CAL", "RES"))
    for kind in CB_KINDS:
        out[f"cb_{kind}_per_s"] = best_window_rate(r["cb"][kind])
    return out


# (key, heading, unit, lower is better)
CALIBRATION = (("empty_ns", "calibration: the empty loop, per iteration",
                "ns"),
               ("refcnt_ns", "calibration: 32-bit atomic inc + dec, net",
                "ns"),
               ("tsc_mhz", "calibration: the TSC frequency the kernel "
                "found", "MHz"))
METRICS = (("rcu_ns", "`rcu_read_lock()`/`unlock()` pair, net of the loop",
            "ns", True),
           ("rcu_direct_ns", "the same, the flavour's functions called "
            "directly (Linux: its pair again)", "ns", True),
           ("irq_ns", "bare IRQ save/restore pair, net of the loop", "ns",
            True),
           ("rcu_over_irq", "read pair ÷ own IRQ pair", "×", True),
           ("lock_ns", "lock: spin lock + unlock, net", "ns", True),
           ("srcu_ns", "srcu: `srcu_read_lock()`/`unlock()`, net", "ns",
            True),
           ("sync_us", "`synchronize_rcu()`, N−1 idle, median", "µs", True),
           ("busy_us", "`synchronize_rcu()`, N−1 busy, median", "µs", True),
           ("exp_us", "`synchronize_rcu_expedited()`, N−1 idle, median",
            "µs", True),
           ("cb_pool_per_s", "`call_rcu()` posts per second, from a "
            "preallocated pool (Linux: rcuscale `gp_async=1`)", "/s", False),
           ("cb_alloc_per_s", "allocate + `call_rcu()` posts per second, "
            "freed by the callback (Linux: the same, `gp_async_alloc=1`)",
            "/s", False),
           ("sync_irqs", "interrupts on the idle CPUs per 1000 "
            "`synchronize_rcu()`, background subtracted", "", True),
           ("exp_irqs", "interrupts on the idle CPUs per 1000 "
            "`synchronize_rcu_expedited()`, background subtracted", "",
            True))
PAIRS = tuple((f, lx) for f in FLAVORS for lx in LINUXES)


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


def ratios(results, key, n, a, b):
    """a ÷ b for each round in which both measured key."""
    pa = [m.get(key) if m else None for m in results.get((a, n), [])]
    pb = [m.get(key) if m else None for m in results.get((b, n), [])]
    return [x / y for x, y in zip(pa, pb)
            if x is not None and y not in (None, 0)]


def ratio_cell(rs):
    """Median (min–max) of per-round ratios."""
    if not rs:
        return "–"

    def r(x):
        if x == 0:
            return "0"     # not "-0", from 0 over a negative net count
        if abs(x) >= 100:
            return f"{x:.0f}"
        return f"{x:.2f}" if abs(x) >= 0.01 else f"{x:.2g}"
    return (f"{r(statistics.median(rs))} ({r(min(rs))}–{r(max(rs))})"
            if len(rs) > 1 else r(rs[0]))


def calibration_problems(results, n):
    """{(flavour, Linux): [problems]} at n CPUs: the calibration rows on
    which that pair disagrees by more than CAL_TOL (median of the
    per-round ratios), or has no round.  Each pair is judged by itself:
    its ratios come from its own boots."""
    probs = {}
    for key, title, _ in CALIBRATION:
        for a, b in PAIRS:
            rs = ratios(results, key, n, a, b)
            if not rs:
                probs.setdefault((a, b), []).append(
                    f"{title}: no {NAMES[a]} ÷ {NAMES[b]} round")
            elif abs(statistics.median(rs) - 1) > CAL_TOL:
                probs.setdefault((a, b), []).append(
                    f"{title}: {NAMES[a]} ÷ {NAMES[b]} = "
                    f"{statistics.median(rs):.3f}")
    return probs


UNREAD = "n/a (calibration)"


def row(results, key, title, unit, n, unread=()):
    """The row of key at n CPUs; the ratio cells of the pairs in unread
    are left out (UNREAD)."""
    med = {}
    for s in SYSTEMS:
        ok = [m.get(key) for m in results.get((s, n), [])
              if m and m.get(key) is not None]
        med[s] = statistics.median(ok) if ok else None
    if all(v is None for v in med.values()):
        return None
    cells = [UNREAD if (a, b) in unread else
             ratio_cell(ratios(results, key, n, a, b)) for a, b in PAIRS]
    u = f" ({unit})" if unit and unit != "×" else ""
    return (f"| {title}{u} | {n} | "
            + " | ".join(fmt(med[s], unit) for s in SYSTEMS) + " | "
            + " | ".join(cells) + " |")


def table(results, cpus):
    """results[(system, n)] = [metrics of each round] (None: failed)."""
    head = ("| metric | CPUs | " + " | ".join(NAMES[s] for s in SYSTEMS)
            + " | " + " | ".join(f"{a} ÷ {NAMES[b]}" for a, b in PAIRS)
            + " |")
    L = [head, "|---|---:|" + "---:|" * (len(SYSTEMS) + len(PAIRS))]
    unreadable = {n: calibration_problems(results, n) for n in cpus}
    for key, title, unit in CALIBRATION:
        for n in cpus:
            r = row(results, key, title, unit, n)
            if r:
                L.append(r)
    for key, title, unit, _ in METRICS:
        for n in cpus:
            # Every pair unreadable: the row would say nothing.
            if len(unreadable[n]) == len(PAIRS):
                continue
            r = row(results, key, title, unit, n, unreadable[n])
            if r:
                L.append(r)
    for n in cpus:
        probs = unreadable[n]
        if not probs:
            continue
        pairs = ", ".join(f"{NAMES[a]} ÷ {NAMES[b]}" for a, b in PAIRS
                          if (a, b) in probs)
        what = ("every other row is left out there"
                if len(probs) == len(PAIRS) else
                f"those ratios read {UNREAD} there")
        L += ["", f"**At {n} CPUs the calibration rows of {pairs} "
              f"disagree by more than {CAL_TOL:.0%}, so {what}, since "
              "a difference could then be the machine's:** "
              + "; ".join(p for a, b in PAIRS for p in probs.get((a, b), []))
              + "."]
    L += ["", "Linux's interrupts on the idle CPUs per 1000 calls, "
          "by kind (LOC local timer / CAL function-call IPI / RES "
          "reschedule IPI), before the background is subtracted, "
          "medians over the rounds:", "",
          "| CPUs | Linux | normal: LOC/CAL/RES | expedited: LOC/CAL/RES |",
          "|---:|---|---|---|"]
    for n in cpus:
        for s in LINUXES:
            ms = [m for m in results.get((s, n), []) if m]
            if n < 2 or not ms:
                continue
            mid = ms[len(ms) // 2]
            L.append(f"| {n} | {NAMES[s]} | {mid.get('sync_by_kind', '–')} "
                     f"| {mid.get('exp_by_kind', '–')} |")
    return L


def round_order(rnd):
    """ABBA: dynrcu first in odd rounds, Linux first in even ones."""
    return SYSTEMS if rnd % 2 else tuple(reversed(SYSTEMS))


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


def linux_cmdline(sysname):
    # no_timer_check: as linux/linux-test.sh boots (the IO-APIC timer
    # check judges the host's speed and panics on a loaded one).
    return ("console=ttyS0 panic=-1 quiet no_timer_check "
            f"benchlx.ref={','.join(lx for lx, _ in REF_MODES)} "
            f"benchlx.gp={','.join(GP_KINDS + CB_KINDS)} "
            f"benchlx.loops={LOOPS} benchlx.runs={RUNS} "
            f"benchlx.ctl_ms={CTL_MS}"
            + (f" {TUNED}" if sysname == "linux-tuned" else ""))


def dynrcu_cmdline(fl):
    return (f"rcu={fl} tests=bench_linux bench_lx_loops={LOOPS} "
            f"bench_lx_runs={RUNS} bench_lx_gps={GPS} "
            f"bench_lx_cb_num={CB_NUM} bench_lx_ctl_ms={CTL_MS}")


# A Linux boot that dies before its first benchmark began measured
# nothing, so it is booted again, up to this many times: with
# JUMP_LABEL=y, some boots under TCG oops on an int3 of the boot-time
# text patching, about a second in.  A boot that dies later is a
# failure, and its round has no figures.
BOOT_RETRIES = 3


def console_log(sysname, n, rnd):
    return os.path.join(LOG_DIR, f"{sysname}-smp{n}-r{rnd}.log")


def died_before_measuring(text):
    """True for a console whose benchmarks never began."""
    return "bench-init: begin" not in text


def one_boot(sysname, n, rnd, timeout, from_logs):
    """(metrics or None, seconds, problem or None, whether the problem is
    a Linux boot that died before measuring)."""
    log = console_log(sysname, n, rnd)
    t0 = time.monotonic()
    if from_logs:
        with open(log, errors="replace") as f:
            text = f.read().replace("\r", "")
        status = 0 if sysname in LINUXES else 33
    elif sysname in LINUXES:
        status, text, _ = boot.boot(
            os.path.join(LINUX_OUT, "bzImage"), n, linux_cmdline(sysname),
            timeout, log,
            ["-initrd", os.path.join(LINUX_OUT, "initramfs.cpio.gz")])
    else:
        status, text, _ = boot.boot(os.path.join(ROOT, "build",
                                                 "kernel.elf"), n,
                                    dynrcu_cmdline(sysname), timeout, log)
    secs = time.monotonic() - t0
    early = sysname in LINUXES and died_before_measuring(text)
    if status is None:
        return None, secs, f"timeout after {timeout} s ({log})", early
    try:
        if sysname in LINUXES:
            r = parse_linux(text, n)
        else:
            problems = judge_ktap(text, status)
            if problems:
                raise ParseError("; ".join(problems[:3]))
            r = parse_dynrcu(text)
        return metrics(sysname, r, n), secs, None, False
    except ParseError as e:
        return None, secs, f"{e} ({log})", early


def _cmd(args):
    try:
        return subprocess.run(args, capture_output=True, text=True,
                              cwd=ROOT).stdout.strip()
    except OSError:
        return ""


def provenance():
    """What the table measured: dynrcu's commit (marked when the tree
    had changes), Linux's .config and QEMU's version."""
    commit = _cmd(["git", "rev-parse", "--short=12", "HEAD"]) or "?"
    if _cmd(["git", "status", "--porcelain", "--untracked-files=no"]):
        commit += " with uncommitted changes"
    try:
        with open(os.path.join(LINUX_OUT, ".config"), "rb") as f:
            config = hashlib.sha256(f.read()).hexdigest()[:12]
    except OSError:
        config = "?"
    qemu = (_cmd(["qemu-system-x86_64", "--version"]).splitlines()
            or ["?"])[0]
    m = re.search(r"version (\S+)", qemu)
    return {"dynrcu": commit, "config": config,
            "qemu": m.group(1) if m else qemu}


def header(rounds, cpus, run):
    accel = (os.environ.get("ACCEL") or "tcg").upper()
    L = ["## Side by side with Linux 6.12", "",
         f"Written by `make bench-linux` (`tools/bench_linux.py`) from "
         f"dynrcu {run['dynrcu']}, Linux's `.config` sha256 "
         f"{run['config']}… (`linux/bench-build.sh`), QEMU {run['qemu']} "
         f"{accel} with `-cpu max` and 256 MiB: {rounds} "
         f"round{'s' if rounds != 1 else ''} at each "
         f"of {', '.join(map(str, cpus))} CPUs, each round a boot of "
         "each kernel, dynrcu first in odd rounds and Linux first in even "
         f"ones; {run['when']}. Values are medians over the rounds; a "
         "ratio is dynrcu ÷ Linux taken within each round, given as the "
         "median and (the range) over the rounds: below 1 is dynrcu "
         "ahead (for posts per second, above 1). How each side measures, "
         "and what is not held equal: "
         "[linux-bench.md](linux-bench.md)."]
    if rounds < MIN_ROUNDS:
        L += ["", f"**{rounds} round{'s' if rounds != 1 else ''}, fewer "
              f"than {MIN_ROUNDS}: a trial "
              "of the method, not a measurement.**"]
    return L + [""]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cpus", default=os.environ.get("BENCH_CPUS",
                                                     "1,2,4,8"))
    ap.add_argument("--rounds", default=str(MIN_ROUNDS))
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--check-args", action="store_true",
                    help="only check --cpus and --rounds (before a build)")
    ap.add_argument("--from-logs", action="store_true",
                    help="no boots: the table from build/bench/linux/")
    args = ap.parse_args()
    cpus = parse_cpus(args.cpus)
    if not args.rounds.isdigit() or int(args.rounds) < 1:
        raise SystemExit(f"bench-linux: --rounds '{args.rounds}': expected "
                         f"a positive number ({MIN_ROUNDS} or more for "
                         "the docs)")
    rounds = int(args.rounds)
    if args.check_args:
        return 0
    for f in ("bzImage", "initramfs.cpio.gz"):
        if not args.from_logs and not os.path.exists(os.path.join(LINUX_OUT,
                                                                  f)):
            raise SystemExit(f"bench-linux: no {LINUX_OUT}/{f}: run "
                             "linux/bench-build.sh (make bench-linux does)")
    os.makedirs(LOG_DIR, exist_ok=True)
    # The run's own circumstances, kept beside its consoles for --from-logs.
    run_file = os.path.join(LOG_DIR, "run.json")
    if args.from_logs:
        try:
            with open(run_file) as f:
                run = json.load(f)
        except (OSError, ValueError):
            run = dict.fromkeys(("dynrcu", "config", "qemu"), "?")
            run["when"] = "circumstances of the run not recorded"
    else:
        run = provenance()
    t_start = time.monotonic()
    results, bad, again = {}, 0, 0
    for n in cpus:
        for rnd in range(1, rounds + 1):
            for s in round_order(rnd):
                for attempt in range(1, BOOT_RETRIES + 2):
                    m, secs, prob, early = one_boot(s, n, rnd, args.timeout,
                                                    args.from_logs)
                    if not early or args.from_logs or \
                            attempt > BOOT_RETRIES:
                        break
                    log = console_log(s, n, rnd)
                    died = log[:-len(".log")] + f".died{attempt}.log"
                    os.replace(log, died)
                    again += 1
                    print(f"# bench-linux: {s} {n} CPUs round {rnd}: died "
                          f"before its first benchmark ({prob}); booting "
                          f"again, its console kept as "
                          f"{os.path.basename(died)}", flush=True)
                results.setdefault((s, n), []).append(m)
                print(f"# bench-linux: {s} {n} CPUs round {rnd}: "
                      f"{secs:.0f} s"
                      + (f"; PROBLEM: {prob}" if prob else ""), flush=True)
                bad += prob is not None
    if not args.from_logs:
        try:
            load = " ".join(open("/proc/loadavg").read().split()[:3])
        except OSError:
            load = "?"
        run["when"] = (f"boots took {time.monotonic() - t_start:.0f} s in "
                       f"all; {again} Linux boots that died before their "
                       "first benchmark were booted again; "
                       f"host load average {load} at the end; "
                       + time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime()))
        with open(run_file, "w") as f:
            json.dump(run, f)
    L = header(rounds, cpus, run) + table(results, cpus)
    with open(OUT, "w") as f:
        f.write("\n".join(L) + "\n")
    for l in L:
        print("# " + l if l else "#")
    print(f"bench-linux: wrote {os.path.relpath(OUT, ROOT)}"
          + (f"; {bad} boots failed" if bad else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
