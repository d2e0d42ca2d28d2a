#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Print the rcu_torture totals of finished runs from their console logs.

Usage: python3 -m tests.torture_totals LOG...  For each log
(build/logs/NAME.log, as the harness writes them) it prints one line: GPs,
the elements each update-side primitive retired ("n/a": the flavour has
none of its own, "off": its torture_gp_* option is 0), readers by
context and those that preempted themselves, IRQ and NMI readers on
dynticks-idle CPUs (and their share), errors and the verdict, read from
the final "# rcu-torture:" KTAP diagnostics; then the sum over all logs.  A log without a verdict is reported as unfinished; a
missing log (a scenario the harness skipped) is listed and not counted.
"""

import os
import re
import sys

CTX = ("task", "irq", "nested", "nmi")
# The update-side primitives, as rcu/torture.c names them.
GPS = ("sync", "exp", "async", "cond", "poll")


def parse(path):
    with open(path, errors="replace") as f:
        text = f.read()
    r = {"gps": 0, "errors": 0, "verdict": "unfinished"}
    m = re.findall(r"^# rcu-torture: ver (\d+), (\d+) grace periods, "
                   r"(\d+) reads, (\d+) errors", text, re.M)
    if m:
        r["ver"], r["gps"], _, r["errors"] = map(int, m[-1])
    for c in CTX:
        m = re.findall(rf"^# rcu-torture: {c} readers: (\d+), on idle "
                       rf"CPUs: (\d+)", text, re.M)
        r[c], r[c + "_idle"] = map(int, m[-1]) if m else (0, 0)
    m = re.findall(r"^# rcu-torture: gps by primitive:(.*)$", text, re.M)
    counts = dict(re.findall(r"(\w+) (\d+|n/a|off)", m[-1])) if m else {}
    for g in GPS:
        v = counts.get(g, "-")
        r["gp_" + g] = int(v) if v.isdigit() else v
    m = re.findall(r"^# rcu-torture: task readers that migrated: \d+, "
                   r"that preempted themselves: (\d+)", text, re.M)
    r["preempted"] = int(m[-1]) if m else 0
    m = re.findall(r"^# rcu-torture: End of test: (\w+)", text, re.M)
    if m:
        r["verdict"] = m[-1]
    return r


def line(name, r):
    hr = r["irq"] + r["nested"] + r["nmi"]
    hi = r["irq_idle"] + r["nested_idle"] + r["nmi_idle"]
    pct = f"{100 * hi / hr:.0f}%" if hr else "-"
    gps = " ".join(f"{g} {r['gp_' + g]}" for g in GPS)
    return (f"{name}: {r['gps']} GPs; by primitive {gps}; readers task "
            f"{r['task']} (preempted {r['preempted']}), irq "
            f"{r['irq']}, nested irq {r['nested']}, nmi {r['nmi']}; "
            f"IRQ/NMI readers on idle CPUs {hi} of {hr} ({pct}); "
            f"errors {r['errors']}; {r['verdict']}")


def main():
    total = {"gps": 0, "errors": 0, "preempted": 0}
    for c in CTX:
        total[c] = total[c + "_idle"] = 0
    for g in GPS:
        total["gp_" + g] = 0
    ok = True
    for path in sys.argv[1:]:
        if not os.path.exists(path):
            # The harness skips a scenario its accelerator cannot run.
            print(f"{os.path.basename(path)[:-4]}: no log (skipped?)")
            continue
        r = parse(path)
        print(line(os.path.basename(path)[:-4], r))
        ok &= r["verdict"] == "SUCCESS"
        for k in total:
            v = r.get(k, 0)
            # "n/a", "off" and "-" (an older log) add nothing.
            total[k] += v if isinstance(v, int) else 0
    total["verdict"] = "all SUCCESS" if ok else "NOT all SUCCESS"
    print(line("total", total))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
