#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make bench: boot the benchmark hooks (tests/kernel/rcu/bench.c) once per CPU
count, one QEMU at a time, and put their "# bench ..." diagnostics
together into one table: printed as KTAP diagnostics and written to
build/bench/benchmarks.md (make docs-figures copies it to docs/).

Benchmarks never pass or fail on performance; this exits non-zero only
when a boot fails or prints no figures.

Above FULL_MAX CPUs a boot runs only tests=bench_scale, the figures taken
with the other CPUs idle (all-busy and nohz=off runs of 254 vCPUs on 2
host cores would take hours).  Every count goes into the scaling curve,
drawn as build/bench/scaling.svg.

Usage: python3 -m tools.bench [--cpus 1,2,4,8,...,255]
                              [--out build/bench/benchmarks.md]
"""

import argparse
import math
import os
import re
import subprocess
import sys
import time

from tools import boot
from tools.ktap import judge_ktap
from tools.qemu import ROOT

FULL_MAX = 8
BENCH_DIR = os.path.join(ROOT, "build", "bench")
# Beside the table, which links it by this name (docs/ has both, copied
# by make docs-figures).
SCALE_SVG = os.path.join(BENCH_DIR, "scaling.svg")
TESTS = ("bench_gp_latency,bench_idle_ticks,bench_reader_cost,"
         "bench_irq_cost,bench_trace_cost")


def parse(text):
    """[(name, {key: value})] from '# bench NAME k=v ...' lines."""
    out = []
    for line in text.splitlines():
        m = re.match(r"# bench (\w+) (.*)", line.strip())
        if m:
            kv = dict(p.split("=", 1) for p in m.group(2).split()
                      if "=" in p)
            out.append((m.group(1), kv))
    return out


def find(figs, name, **match):
    for n, kv in figs:
        if n == name and all(kv.get(k) == v for k, v in match.items()):
            return kv
    return None


def ratio(a, b):
    try:
        a, b = float(a), float(b)
    except (TypeError, ValueError):
        return "n/a"
    return f"{a / b:.2f}" if b else "n/a"


def ticks(t10):
    return f"{int(t10) / 10:.1f}"


def summary(runs):
    """The issue's headline figures: for the largest N, idle-CPU ticks per
    1000 GPs and the GP latency ratio to N=1."""
    cpus = sorted(runs)
    if not cpus:
        return []
    n = cpus[-1]
    on = find(runs[n]["figs"], "idle_ticks", nohz="on")
    off = find(runs[n]["figs"], "idle_ticks", nohz="off")
    i1 = find(runs[cpus[0]]["figs"], "gp_latency", mode="idle")
    i = find(runs[n]["figs"], "gp_latency", mode="idle")
    t = find(runs[n]["figs"], "trace_cost")
    L = ["## Summary", ""]
    if on and off:
        L.append(f"- **N = {n}, {on['idle_cpus']} CPUs idle:** the idle "
                 f"CPUs took **{on['ticks_per_1000gp']} ticks and "
                 f"{on['wakeups_per_1000gp']} wake-ups per 1000 grace "
                 f"periods** with tickless idle, against "
                 f"{off['ticks_per_1000gp']} ticks per 1000 with "
                 f"`nohz=off` in the same boot.")
    if i and i1:
        L.append(f"- **GP latency ratio to N = 1** (median "
                 f"`synchronize_rcu()`, N−1 idle): "
                 f"**{ratio(i['median_us'], i1['median_us'])}** "
                 f"({i['median_us']} µs vs {i1['median_us']} µs)"
                 + (": the idle CPUs, excused by the dynticks check, add "
                    "no wait." if ratio(i['median_us'], i1['median_us'])
                    != "n/a" and float(ratio(i['median_us'],
                                             i1['median_us'])) < 1.5
                    else "."))
    if t:
        L.append(f"- **Trace off:** a hook site costs "
                 f"{float(t['off_c']) - float(t['loop_c']):.2f} cycles "
                 f"over the empty loop (a load, a test, a not-taken "
                 f"branch); on, {t['on_c']} cycles per event.")
    L += ["",
          "Why the other figures look as they do here (interpretation, "
          "not separately measured):",
          "- *All busy* is slower than *N−1 idle*, more so with more "
          "CPUs: a busy CPU must acknowledge each flip and memory-barrier "
          "request from its own tick, and under TCG the busy vCPUs share "
          "2 host cores, so their ticks come late (the timer loses ticks "
          "under load; see the nohz=off tick counts, far below 1000/s per "
          "CPU).",
          "- With `nohz=off` the idle CPUs are no longer excused: every "
          "GP waits for each of them to ack from its tick, and their "
          "ticking vCPUs take host time from CPU 0. With 2 CPUs it can "
          "come out even or faster, since `rcu_try_flip()` then also runs "
          "from the second CPU's tick.",
          "- Cycle costs: the outermost `rcu_read_lock()`/`unlock()` pair "
          "is two out-of-line calls each with an IRQ save/restore plus the "
          "counter updates, hence several times a bare IRQ pair; a nested "
          "pair only touches the task's nesting count. `rcu_irq_enter()`/"
          "`exit()` from idle pay two `smp_mb()`s and two counter "
          "increments that the busy case skips.",
          ""]
    return L


def table(runs, accel, host):
    """Markdown lines for benchmarks.md."""
    L = summary(runs)
    cpus = sorted(runs)
    base = find(runs[cpus[0]]["figs"], "gp_latency", mode="idle") \
        if cpus else None
    L += ["## synchronize_rcu() latency",
          "",
          "200 calls from a thread on CPU 0, first with the other CPUs "
          "idle (dynticks-idle, tick stopped), then with a busy-looping "
          "thread on every other CPU. Median and p99 in µs and in ticks "
          "(HZ=1000). *busy/idle* is measured in the same boot; *÷ N=1* "
          "divides by the median of the N=1 boot.",
          "",
          "| CPUs | N−1 idle: median | p99 | all busy: median | p99 | "
          "busy/idle (median) | idle ÷ N=1 | busy ÷ N=1 |",
          "|---:|---:|---:|---:|---:|---:|---:|---:|"]
    base_busy = find(runs[cpus[0]]["figs"], "gp_latency", mode="busy") \
        if cpus else None
    for n in cpus:
        i = find(runs[n]["figs"], "gp_latency", mode="idle")
        b = find(runs[n]["figs"], "gp_latency", mode="busy")
        if not i or not b:
            L.append(f"| {n} | (no figures) | | | | | | |")
            continue
        L.append(
            f"| {n} | {i['median_us']} µs ({ticks(i['median_tick10'])} t) "
            f"| {i['p99_us']} µs ({ticks(i['p99_tick10'])} t) "
            f"| {b['median_us']} µs ({ticks(b['median_tick10'])} t) "
            f"| {b['p99_us']} µs ({ticks(b['p99_tick10'])} t) "
            f"| {ratio(b['median_us'], i['median_us'])} "
            f"| {ratio(i['median_us'], base['median_us'])} "
            f"| {ratio(b['median_us'], base_busy['median_us'])} |")
    L += ["",
          "## Idle-loop passes per 100 grace periods",
          "",
          "Counted over the same 200 synchronize_rcu() calls, summed over "
          "all CPUs: passes of the idle loop that halted (`hlt`) and "
          "passes that neither halted nor scheduled (a spin). A CPU "
          "whose thread waits in synchronize_rcu() has callbacks queued "
          "and keeps its tick; it must still halt between ticks, so "
          "spins should be 0.",
          "",
          "| CPUs | N−1 idle: halts | spins | all busy: halts | spins |",
          "|---:|---:|---:|---:|---:|"]
    for n in cpus:
        i = find(runs[n]["figs"], "idle_passes", mode="idle")
        b = find(runs[n]["figs"], "idle_passes", mode="busy")
        if not i or not b:
            L.append(f"| {n} | (no figures) | | | |")
            continue
        L.append(f"| {n} | {i['halts_per_100gp']} | {i['spins_per_100gp']} "
                 f"| {b['halts_per_100gp']} | {b['spins_per_100gp']} |")
    L += ["",
          "## Idle CPUs: ticks and wake-ups per 1000 grace periods",
          "",
          "CPU 0 runs synchronize_rcu() back to back; the other CPUs have "
          "nothing to do. Ticks are scheduling-clock ticks the idle CPUs "
          "took; wake-ups are all interrupts they took (each one ends a "
          "`hlt`). Then, in the same boot, tickless idle is switched off "
          "(`nohz_enabled = 0`, the `nohz=off` setting, applied at run "
          "time) and the same is measured again (300 GPs, scaled to 1000). "
          "*ms/GP* is the wall time per grace period in each mode.",
          "",
          "| CPUs | idle CPUs | nohz=on ticks | wake-ups | ms/GP "
          "| nohz=off ticks | wake-ups | ms/GP | GP time off/on |",
          "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for n in cpus:
        on = find(runs[n]["figs"], "idle_ticks", nohz="on")
        off = find(runs[n]["figs"], "idle_ticks", nohz="off")
        if not on or not off:
            L.append(f"| {n} | 0 | n/a (no idle CPU) | | | | | | |")
            continue
        ms_on = int(on["ms"]) / max(int(on["gps"]), 1)
        ms_off = int(off["ms"]) / max(int(off["gps"]), 1)
        L.append(f"| {n} | {on['idle_cpus']} | {on['ticks_per_1000gp']} "
                 f"| {on['wakeups_per_1000gp']} | {ms_on:.1f} "
                 f"| {off['ticks_per_1000gp']} | {off['wakeups_per_1000gp']} "
                 f"| {ms_off:.1f} | {ratio(ms_off, ms_on)} |")

    L += ["",
          "## Costs in TSC cycles (per iteration, fastest of 15 runs of "
          "5000, after a warm-up run)",
          "",
          "Measured on CPU 0 of each boot; *loop* is the empty measuring "
          "loop, included in every other figure. Under TCG the TSC follows "
          "host time, so these are host-time costs of emulated code: "
          "compare them with each other, not with real hardware.",
          "",
          "| CPUs | loop | local_irq_save/restore | rcu_read_lock/unlock "
          "outermost | nested | outermost ÷ irq pair | nested ÷ outermost "
          "| outermost, trace on (readers sampled 1 in 8) |",
          "|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for n in cpus:
        r = find(runs[n]["figs"], "reader_cost")
        if r:
            L.append(f"| {n} | {r['loop_c']} | {r['irq_pair_c']} "
                     f"| {r['outer_pair_c']} | {r['nested_pair_c']} "
                     f"| {ratio(r['outer_pair_c'], r['irq_pair_c'])} "
                     f"| {ratio(r['nested_pair_c'], r['outer_pair_c'])} "
                     f"| {r['outer_pair_trace_c']} |")
    L += ["",
          "| CPUs | loop | rcu_irq_enter/exit from busy | from idle "
          "| idle ÷ busy | from idle, trace on |",
          "|---:|---:|---:|---:|---:|---:|"]
    for n in cpus:
        r = find(runs[n]["figs"], "irq_cost")
        if r:
            L.append(f"| {n} | {r['loop_c']} | {r['busy_pair_c']} "
                     f"| {r['idle_pair_c']} "
                     f"| {ratio(r['idle_pair_c'], r['busy_pair_c'])} "
                     f"| {r['idle_pair_trace_c']} |")
    L += ["",
          "One `trace_event()` site in the same loop: off, it adds one "
          "load and a not-taken branch (*off − loop*); on, it records an "
          "event.",
          "",
          "| CPUs | loop | site, trace off | off − loop | site, trace on "
          "| on ÷ off |",
          "|---:|---:|---:|---:|---:|---:|"]
    for n in cpus:
        r = find(runs[n]["figs"], "trace_cost")
        if r:
            L.append(f"| {n} | {r['loop_c']} | {r['off_c']} "
                     f"| {float(r['off_c']) - float(r['loop_c']):.2f} "
                     f"| {r['on_c']} | {ratio(r['on_c'], r['off_c'])} |")
    L += ["",
          "## Boot to the first KTAP line",
          "",
          "*kernel*: the kernel's clock (from its first instruction's TSC "
          "mark) when the first test starts, just after `KTAP version 1`. "
          "*host*: wall time from starting QEMU (direct `-kernel` boot) to "
          "that line on the serial port.",
          "",
          "| CPUs | kernel | host | kernel ÷ host |",
          "|---:|---:|---:|---:|"]
    for n in cpus:
        r = find(runs[n]["figs"], "boot")
        h = runs[n]["host_ktap_s"]
        if r:
            k = int(r["to_first_test_us"]) / 1e6
            L.append(f"| {n} | {k * 1000:.0f} ms | "
                     + (f"{h * 1000:.0f} ms | {k / h:.2f} |" if h else
                        "n/a | n/a |"))
    return L


def off_path(kernel):
    """What a trace site costs in the code: every load of trace_enabled
    outside trace.c and the benchmarks, and the two instructions after."""
    try:
        dis = subprocess.run(["objdump", "-d", "--no-show-raw-insn", kernel],
                             capture_output=True, text=True,
                             check=True).stdout.splitlines()
    except (OSError, subprocess.CalledProcessError):
        return ["(objdump failed)"]
    func, sites, shapes = None, {}, {}
    skip = ("__trace_event", "trace_dump", "trace_count", "reader_cost",
            "irq_cost", "trace_cost", "trace_start", "trace_prepare_cpu")
    for i, line in enumerate(dis):
        m = re.match(r"[0-9a-f]+ <(\S+)>:", line)
        if m:
            func = m.group(1)
            continue
        if "<trace_enabled>" not in line or func in skip:
            continue
        # The load, then up to 4 more instructions until the branch; the
        # compiler may schedule unrelated ones in between.
        ops, other = ["mov"], 0
        for j in range(i + 1, min(i + 6, len(dis))):
            fields = dis[j].split(":", 1)
            if len(fields) < 2 or not fields[1].split():
                break       # the function ended
            op = fields[1].split()[0]
            if op == "test" or op.startswith("j"):
                ops.append(op)
            else:
                other += 1
            if op.startswith("j"):
                break
        ops = " ; ".join(ops) + (f" (+{other} unrelated)" if other else "")
        sites[func] = sites.get(func, 0) + 1
        shapes[ops] = shapes.get(ops, 0) + 1
    out = ["| function | sites |", "|---|---:|"]
    out += [f"| `{f}` | {n} |" for f, n in sorted(sites.items())]
    out += ["", "| instructions at the site, load to branch | sites |",
            "|---|---:|"]
    out += [f"| `{k}` | {n} |" for k, n in sorted(shapes.items())]
    return out


FLAVORS = ("rcupreempt", "tree")


def flavor_runs(kernel, cpus, timeout, from_logs):
    """One boot per CPU count and RCU flavour of the bench_flavor hook."""
    figs, bad = {}, 0
    for n in cpus:
        for fl in FLAVORS:
            log = os.path.join(BENCH_DIR, f"{fl}-smp{n}.log")
            if from_logs:
                with open(log, errors="replace") as f:
                    text = f.read().replace("\r", "")
                status = 33
            else:
                # Up to FULL_MAX CPUs the same boot floods call_rcu().
                hook = ("bench_flavor,rcu_fwd_flood" if n <= FULL_MAX
                        else "bench_scale")
                t0 = time.monotonic()
                status, text, _ = boot.boot(kernel, n, f"rcu={fl} "
                                            "test_timeout=900 "
                                            f"tests={hook}", timeout,
                                            log)
                print(f"# bench: rcu={fl} {n} CPUs: {hook} took "
                      f"{time.monotonic() - t0:.0f} s", flush=True)
            problems = (["timeout"] if status is None
                        else judge_ktap(text, status))
            got = parse(text)
            print(f"# bench: rcu={fl} {n} CPUs: {len(got)} figures"
                  + (f"; PROBLEM: {'; '.join(problems[:3])}" if problems
                     else "") + f" ({log})", flush=True)
            if problems or not got:
                bad += 1
            figs[(fl, n)] = got
    return figs, bad


def scale_points(figs, cpus):
    """{flavour: [(N, {figure: value})]} for the scaling curve."""
    out = {}
    for fl in FLAVORS:
        pts = []
        for n in cpus:
            f = figs.get((fl, n), [])
            gi = find(f, "flavor_gp", mode="idle") or {}
            inn = find(f, "flavor_idle", kind="normal") or {}
            bt = find(f, "boot") or {}
            v = {"boot_ms": int(bt.get("to_first_test_us", 0)) / 1000,
                 "sync_us": gi.get("sync_median_us"),
                 "ticks": inn.get("idle_ticks_per_1000gp", "0" if n == 1
                                  else None),
                 "wakeups": inn.get("idle_wakeups_per_1000gp",
                                    "0" if n == 1 else None),
                 "mach": inn.get("machinery_cycles_per_gp")}
            if gi:
                pts.append((n, {k: (float(x) if x is not None else None)
                                for k, x in v.items()}))
        out[fl] = pts
    return out


def svg_panels(pts, panels, path):
    """Small multiples, x = N on a log2 axis, one line per flavour."""
    W, H, M = 330, 230, 48
    colours = {"rcupreempt": "#c0392b", "tree": "#2471a3"}
    ns = sorted({n for p in pts.values() for n, _ in p}) or [1]
    xmax = max(ns)

    def x(n):
        return M + (W - M - 12) * (math.log2(n) / math.log2(xmax)
                                   if xmax > 1 else 0)
    s = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{2 * W}" '
         f'height="{2 * H + 30}" font-family="sans-serif" font-size="11">',
         f'<rect width="{2 * W}" height="{2 * H + 30}" fill="white"/>']
    for i, (key, title, logy) in enumerate(panels):
        ox, oy = (i % 2) * W, (i // 2) * H
        vals = [v[key] for p in pts.values() for _, v in p
                if v.get(key) is not None]
        ymax = max(vals + [1.0]) * 1.1
        # Log panels span the decades of their values (from 1 at least).
        pos = [x for x in vals if x > 0] or [1.0]
        lo = math.floor(math.log10(max(min(pos), 1.0)))
        hi = max(math.ceil(math.log10(ymax)), lo + 1)

        def y(v):
            if logy:
                f = (math.log10(max(v, 10 ** lo)) - lo) / (hi - lo)
            else:
                f = v / ymax
            return oy + H - 30 - (H - 60) * f
        s.append(f'<text x="{ox + M}" y="{oy + 16}" font-weight="bold">'
                 f'{title}</text>')
        s.append(f'<line x1="{ox + M}" y1="{oy + H - 30}" x2="{ox + W - 12}"'
                 f' y2="{oy + H - 30}" stroke="black"/>')
        s.append(f'<line x1="{ox + M}" y1="{oy + 30}" x2="{ox + M}" '
                 f'y2="{oy + H - 30}" stroke="black"/>')
        for n in ns:
            s.append(f'<text x="{ox + x(n)}" y="{oy + H - 16}" '
                     f'text-anchor="middle">{n}</text>')
        ticks = ([10 ** d for d in range(lo, hi + 1)] if logy else
                 [ymax / 1.1 * f for f in (0, 0.5, 1)])
        for v in ticks:
            s.append(f'<text x="{ox + M - 4}" y="{y(v) + 4:.1f}" '
                     f'text-anchor="end">{v:.4g}</text>')
        for fl, p in pts.items():
            xy = [(ox + x(n), y(v[key])) for n, v in p
                  if v.get(key) is not None]
            if not xy:
                continue
            s.append('<polyline fill="none" stroke-width="2" stroke="'
                     + colours.get(fl, "black") + '" points="'
                     + " ".join(f"{a:.1f},{b:.1f}" for a, b in xy) + '"/>')
            for a, b in xy:
                s.append(f'<circle cx="{a:.1f}" cy="{b:.1f}" r="2.5" '
                         f'fill="{colours.get(fl, "black")}"/>')
    for j, (fl, c) in enumerate(colours.items()):
        s.append(f'<rect x="{M + 160 * j}" y="{2 * H + 8}" width="14" '
                 f'height="10" fill="{c}"/><text x="{M + 160 * j + 20}" '
                 f'y="{2 * H + 17}">rcu={fl}</text>')
    s.append(f'<text x="{2 * W - 12}" y="{2 * H + 17}" text-anchor="end">'
             f'x: CPUs (log scale)</text></svg>')
    with open(path, "w") as f:
        f.write("\n".join(s) + "\n")


def scale_section(figs, cpus):
    """The scaling curve: a table, scaling.svg, and the ratios."""
    pts = scale_points(figs, cpus)
    panels = [("boot_ms", "boot to the first test (guest ms)", False),
              ("sync_us", "synchronize_rcu(), N-1 idle (median us, log)",
               True),
              ("wakeups", "idle CPUs' wake-ups per 1000 GPs", False),
              ("mach", "GP machinery cycles per GP (log)", True)]
    svg_panels(pts, panels, SCALE_SVG)
    out = ["## Scaling: 1 to 255 CPUs", "",
           "One boot per CPU count and flavour; above "
           f"{FULL_MAX} CPUs `tests=bench_scale` (the idle-CPU figures "
           "only). ![scaling curves](scaling.svg)", "",
           "| CPUs | rcu= | boot to first test (ms) | sync idle (us) "
           "| ÷ N=1 | idle ticks/1000 GP | idle wake-ups/1000 GP "
           "| machinery c/GP |",
           "|---:|---|---:|---:|---:|---:|---:|---:|"]
    for fl, p in pts.items():
        base = p[0][1]["sync_us"] if p and p[0][0] == 1 else None
        for n, v in p:
            def g(k):
                return "-" if v.get(k) is None else f"{v[k]:.0f}"
            out.append(f"| {n} | {fl} | {g('boot_ms')} | {g('sync_us')} "
                       f"| {ratio(v['sync_us'], base)} | {g('ticks')} "
                       f"| {g('wakeups')} | {g('mach')} |")
    out += ["", "What each curve says:",
            "- **Boot** grows linearly with N for both: the APs start one "
            "at a time, and each waits out the 10 ms after INIT that the "
            "MP specification asks for (3 s at 255 CPUs).",
            "- **`synchronize_rcu()` with N−1 idle.** rcu=rcupreempt stays "
            "at 12 ms, the twelve ticks its flip machine needs on CPU 0: "
            "its O(N) scan of the idle CPUs' counters runs inside those "
            "ticks and adds nothing to the wait. rcu=tree needs no tick "
            "(the kthread starts the first FQS scan right after "
            "`rcu_gp_init()`), so its grace period is microseconds long, "
            "and at large N that scan, one counter read per idle CPU, is "
            "most of it: the tree's ratio to N = 1 misses the 1.2 aim, "
            "by a few tens of microseconds in absolute terms.",
            "- **Wake-ups** are 0 per 1000 grace periods at every N for "
            "both: an idle CPU is excused by reading its counter, never by "
            "waking it (and it takes no tick).",
            "- **GP machinery** (cycles per grace period on the CPUs that "
            "drive it): rcu=rcupreempt's tick handler walks every online "
            "CPU's `rcu_data` at each state transition of the flip "
            "machine; rcu=tree's kthread reads each idle CPU once per "
            "grace period, leaf by leaf. Both grow with N; the tree stays "
            "well below the 2008 design at every N."]
    for fl, p in pts.items():
        if len(p) > 1 and p[0][0] == 1:
            n, v = p[-1]
            out.append("")
            out.append(f"- **rcu={fl}:** `synchronize_rcu()` with "
                       f"{n - 1} idle CPUs ÷ N = 1: "
                       f"**{ratio(v['sync_us'], p[0][1]['sync_us'])}**; "
                       f"machinery per GP ÷ N = 2: "
                       f"{ratio(v['mach'], p[1][1]['mach'])}; idle wake-ups "
                       f"per 1000 GPs at N = {n}: {v['wakeups']:.0f}.")
    return out


def flavor_table(figs, cpus):
    out = ["## rcu=rcupreempt (2008) and rcu=tree side by side", "",
           "`tests=bench_flavor`, one boot per flavour and CPU count. "
           "Read side: the outermost `rcu_read_lock()`/`rcu_read_unlock()` "
           "pair through its static-key site (docs/static-keys.md: "
           "rcu=tree's inline, rcupreempt's a jump to its calls), that "
           "pair divided by a bare `local_irq_save()`/`local_irq_restore()` "
           "pair, and the flavour's own functions called directly (the "
           "difference is what choosing at boot costs). Latencies are "
           "medians of 200; "
           "idle CPUs' ticks and wake-ups per 1000 grace periods; GP "
           "machinery: cycles in the tick hook on every CPU plus the "
           "tree's kthread, per grace period.", "",
           "| CPUs | rcu= | read pair (c) | ÷ irq pair | undispatched (c) "
           "| sync idle (us) | exp idle (us) | sync busy (us) "
           "| exp busy (us) | idle ticks/1000 GP | idle wake-ups/1000 GP "
           "| exp: idle ticks, wake-ups/1000 | machinery c/GP |",
           "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for n in [c for c in cpus if c <= FULL_MAX]:
        for fl in FLAVORS:
            f = figs.get((fl, n), [])
            rd = find(f, "flavor_read") or {}
            gi = find(f, "flavor_gp", mode="idle") or {}
            gb = find(f, "flavor_gp", mode="busy") or {}
            inn = find(f, "flavor_idle", kind="normal") or {}
            ie = find(f, "flavor_idle", kind="expedited") or {}
            out.append(
                f"| {n} | {fl} | {rd.get('outer_pair_c', '-')} "
                f"| {rd.get('outer_over_irq', '-')} "
                f"| {rd.get('undispatched_pair_c', '-')} "
                f"| {gi.get('sync_median_us', '-')} "
                f"| {gi.get('exp_median_us', '-')} "
                f"| {gb.get('sync_median_us', '-')} "
                f"| {gb.get('exp_median_us', '-')} "
                f"| {inn.get('idle_ticks_per_1000gp', '-')} "
                f"| {inn.get('idle_wakeups_per_1000gp', '-')} "
                f"| {ie.get('idle_ticks_per_1000gp', '-')}, "
                f"{ie.get('idle_wakeups_per_1000gp', '-')} "
                f"| {inn.get('machinery_cycles_per_gp', '-')} |")
    return out


def fwd_table(figs, cpus):
    """The call_rcu() flood of rcu_fwd_flood, both flavours."""
    out = ["## Forward progress: a call_rcu() flood", "",
           "`tests=rcu_fwd_flood` in the same boot as `bench_flavor`: a "
           "thread on every CPU queues `call_rcu()` callbacks as fast as "
           "it can allocate them for 1 s (until 3 grace periods were "
           "seen to end, at least), and sleeps 1 ms whenever 30000 are "
           "in flight (`fwd_max_inflight`). Callbacks invoked per second "
           "and grace periods per second over the flood; the peak "
           "queued and the memory the flood allocated (invoked "
           "callbacks are kept for reuse, on the CPU that invoked "
           "them); the throttle's sleeps. The host's load moves these "
           "figures far more than the flavours' differences do. "
           "rcu=tree lifts a CPU's batch limit once its queue grows by "
           "`qhimark` (10000); the 2008 design invokes every ready "
           "callback at once (docs/torture.md).", "",
           "| CPUs | rcu= | callbacks/s | peak queued | peak memory (KiB) "
           "| GPs/s | throttle sleeps |",
           "|---:|---|---:|---:|---:|---:|---:|"]
    for n in [c for c in cpus if 1 < c <= FULL_MAX]:
        for fl in FLAVORS:
            f = find(figs.get((fl, n), []), "fwd_flood") or {}
            out.append(f"| {n} | {fl} | {f.get('cbs_per_s', '-')} "
                       f"| {f.get('peak_queued', '-')} "
                       f"| {f.get('peak_kib', '-')} "
                       f"| {f.get('gps_per_s', '-')} "
                       f"| {f.get('throttled', '-')} |")
    return out


def tick_on_table(figs, cpus):
    """synchronize_rcu() with the idle CPUs' ticks on, both flavours."""
    out = ["## Idle CPUs whose tick keeps running", "",
           "`tests=bench_flavor`, the same boots: median of 200 "
           "`synchronize_rcu()` (and `synchronize_rcu_expedited()`) "
           "with the N−1 other CPUs idle and tickless (*idle*), idle "
           "but each holding RCU callbacks, which keep its tick on "
           "(*callbacks*: a callback on each that queues itself again), "
           "and idle with `nohz=off` set at run time. rcu=tree's idle "
           "is an extended quiescent state tick or no tick (as Linux "
           "6.12's), so the FQS scan excuses those CPUs; rcu=rcupreempt "
           "is dynticks-idle only with the tick stopped, and its flip "
           "machine waits for their ticks. *÷ idle* divides by the "
           "tickless run of the same boot; *rcupreempt ÷ tree* divides "
           "the flavours' medians, CPU count by CPU count.", "",
           "| CPUs | rcu= | sync idle (us) | callbacks (us) | ÷ idle "
           "| nohz=off (us) | ÷ idle | exp callbacks (us) "
           "| exp nohz=off (us) |",
           "|---:|---|---:|---:|---:|---:|---:|---:|---:|"]
    for n in [c for c in cpus if 1 < c <= FULL_MAX]:
        med = {}
        for fl in FLAVORS:
            f = figs.get((fl, n), [])
            gi = find(f, "flavor_gp", mode="idle") or {}
            gc = find(f, "flavor_gp", mode="idle-cbs") or {}
            go = find(f, "flavor_gp", mode="nohz-off") or {}
            med[fl] = (gi.get("sync_median_us"), gc.get("sync_median_us"),
                       go.get("sync_median_us"))
            out.append(
                f"| {n} | {fl} | {gi.get('sync_median_us', '-')} "
                f"| {gc.get('sync_median_us', '-')} "
                f"| {ratio(gc.get('sync_median_us'), gi.get('sync_median_us'))} "
                f"| {go.get('sync_median_us', '-')} "
                f"| {ratio(go.get('sync_median_us'), gi.get('sync_median_us'))} "
                f"| {gc.get('exp_median_us', '-')} "
                f"| {go.get('exp_median_us', '-')} |")
        t, r = med.get("tree"), med.get("rcupreempt")
        if t and r:
            out.append(f"| {n} | rcupreempt ÷ tree | {ratio(r[0], t[0])} "
                       f"| {ratio(r[1], t[1])} | | {ratio(r[2], t[2])} "
                       "| | | |")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cpus", default=os.environ.get("BENCH_CPUS",
                                                     "1,2,4,8"))
    ap.add_argument("--out", default=os.path.join(BENCH_DIR,
                                                  "benchmarks.md"))
    ap.add_argument("--timeout", type=int, default=900)
    ap.add_argument("--from-logs", action="store_true",
                    help="no boots: rebuild the table from build/bench/")
    ap.add_argument("--flavors-only", action="store_true",
                    help="only the rcu=rcupreempt/rcu=tree comparison")
    args = ap.parse_args()
    kernel = os.path.join(ROOT, "build", "kernel.elf")
    cpus = [int(c) for c in args.cpus.split(",")]
    os.makedirs(BENCH_DIR, exist_ok=True)
    ffigs, fbad = flavor_runs(kernel, cpus, args.timeout, args.from_logs)
    ftable = (flavor_table(ffigs, cpus) + [""] + tick_on_table(ffigs, cpus)
              + [""] + fwd_table(ffigs, cpus))
    if args.flavors_only:
        if len(cpus) > 1:
            ftable += [""] + scale_section(ffigs, cpus)
        for l in ftable:
            print("# " + l if l else "#")
        return 1 if fbad else 0
    accel = os.environ.get("ACCEL") or "tcg"
    runs = {}
    bad = 0
    for n in [c for c in cpus if c <= FULL_MAX]:
        log = os.path.join(BENCH_DIR, f"smp{n}.log")
        t0 = time.monotonic()
        if args.from_logs:
            with open(log, errors="replace") as f:
                text = f.read().replace("\r", "")
            with open(log + ".host") as f:
                status, t = f.read().split()
            status = None if status == "None" else int(status)
            t = None if t == "None" else float(t)
        else:
            status, text, t = boot.boot(kernel, n, "tests=" + TESTS,
                                        args.timeout, log)
            with open(log + ".host", "w") as f:
                f.write(f"{status} {t}\n")
        problems = (["timeout"] if status is None
                    else judge_ktap(text, status))
        figs = parse(text)
        print(f"# bench: {n} CPUs: {len(figs)} figures in "
              f"{time.monotonic() - t0:.0f} s"
              + (f"; PROBLEM: {'; '.join(problems[:3])}" if problems
                 else "") + f" ({log})", flush=True)
        if problems or not figs:
            bad += 1
        runs[n] = {"figs": figs, "host_ktap_s": t}
    try:
        load = open("/proc/loadavg").read().split()[:3]
    except OSError:
        load = ["?"]
    rev = subprocess.run(["git", "-C", ROOT, "describe", "--always",
                          "--dirty"], capture_output=True,
                         text=True).stdout.strip()
    host = (f"QEMU {accel.upper()}, `-cpu max`, 256 MiB, direct boot; "
            f"host load average {' '.join(load)} at the end; "
            f"kernel {rev}; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    lines = table(runs, accel, host) + [""] + ftable
    if len(cpus) > 1:
        lines += [""] + scale_section(ffigs, cpus)
    bad += fbad
    lines += ["", "## The trace's off path in the code", "",
              "`objdump` of this kernel: every load of `trace_enabled` at a "
              "hook site, and the instructions after it. Off, a site is "
              "this load, a `test` and a not-taken conditional jump to "
              "the out-of-line call.", ""] + off_path(kernel)
    for l in lines:
        print("# " + l if l else "#")
    doc = ["# Benchmarks", "",
           "Written by `make bench` (`tools/bench.py`, hooks in "
           "`tests/kernel/rcu/bench.c`) and copied here by `make "
           "docs-figures`: one boot per CPU count, every "
           "comparison (busy vs idle, nohz on vs off, trace on vs off) "
           "made inside one boot. Raw console logs: `build/bench/`.",
           "", f"Measured with {host}.", "",
           "This is a shared 2-core build machine: TCG runs every vCPU "
           "on those 2 cores, next to other jobs, and its LAPIC timer "
           "loses ticks under load, so absolute latencies are inflated "
           "and noisy (p99 especially). The ratios within one boot are "
           "the figures to read. Above 8 CPUs only the figures taken "
           "with the other CPUs idle are measured (see the scaling "
           "section).",
           ""] + lines
    with open(args.out, "w") as f:
        f.write("\n".join(doc) + "\n")
    print(f"bench: wrote {os.path.relpath(args.out, ROOT)}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
