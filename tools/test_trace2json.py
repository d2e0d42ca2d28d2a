#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Host tests for tools/trace2json.py on hand-written dumps: nesting,
the grace-period track, readers, a wrapped ring, an NMI's out-of-order
timestamp, a truncated dump.  Ends with "N passed, N failed"."""

import json
import os
import sys
import tempfile

from tools import trace2json as t2j

results = []


def check(ok, what):
    results.append(bool(ok))
    print(f"{'ok' if ok else 'not ok'} {len(results)} - {what}")


def dump(cpus, wrapped=(), end=True, tpu=1000):
    """cpus: {cpu: [(abs_tsc, type, a, b)]} -> dump text."""
    out = [f"~trace v1 cpus {len(cpus)} tsc_per_us {tpu} entries 8192"]
    for cpu, evs in cpus.items():
        n = len(evs)
        out.append(f"~cpu {cpu} recorded {n + (100 if cpu in wrapped else 0)}"
                   f" kept {n}")
        prev = 0
        for tsc, typ, a, b in evs:
            out.append(f"~{cpu} {tsc - prev} {typ} {a:x} {b:x}")
            prev = tsc
    if end:
        out.append("~end")
    return "\n".join(out) + "\n"


def convert(text):
    header, events, wrapped, vectors = t2j.parse(text)
    return t2j.Model(header, events, wrapped, vectors, {})


def slices(model, tid):
    return sorted((s, e, name) for t, name, s, e, _, _ in model.slices
                  if t == tid)


# idle 1000..9000 us containing irq 2000..5000 containing NMI 3000..4000;
# a GP: flip at 1000, waitzero 2000, waitmb 3000, idle 4000.
T = 1000    # TSC per us
basic = {
    0: [(1000 * T, t2j.IDLE_ENTER, 0, 0), (2000 * T, t2j.IRQ_ENTER, 0x40, 1),
        (2001 * T, t2j.DYNTICKS, 1, 7),
        (3000 * T, t2j.NMI_ENTER, 0, 0), (4000 * T, t2j.NMI_EXIT, 0, 0),
        (5000 * T, t2j.IRQ_EXIT, 0x40, 1), (9000 * T, t2j.IDLE_EXIT, 0, 0)],
    1: [(1000 * T, t2j.GP_STATE, 0 << 8 | 1, 5),
        (1500 * T, t2j.FLIP_ACK, 0, 5),
        (2000 * T, t2j.GP_STATE, 1 << 8 | 2, 5),
        (2100 * T, t2j.READER_BEGIN, 0, 42),
        (3000 * T, t2j.GP_STATE, 2 << 8 | 3, 5),
        (3500 * T, t2j.MB_ACK, 0, 5),
        (4000 * T, t2j.GP_STATE, 3 << 8 | 0, 5),
        (4500 * T, t2j.CALLBACK, 0, 0x101000)],
    2: [(2500 * T, t2j.READER_END, 0, 42)],
}
m = convert(dump(basic))
s0 = slices(m, 0)
check([(round(a), round(b), n) for a, b, n in s0] ==
      [(0, 8000, "idle"), (1000, 4000, "irq 0x40"), (2000, 3000, "NMI")],
      f"cpu0: idle > irq > NMI with times from the window start: {s0}")
check([(round(a), round(b)) for _, a, b in m.gps] == [(0, 3000)] and
      m.gps[0][0] == 5, f"one GP, completed 5, 0..3000 us: {m.gps}")
check([(st, round(a), round(b)) for st, a, b in m.states] ==
      [(1, 0, 1000), (2, 1000, 2000), (3, 2000, 3000)],
      f"GP states waitack, waitzero, waitmb: {m.states}")
check([(c, p, round(a), round(b)) for c, p, a, b in m.readers] ==
      [(1, 42, 1100, 1500)],
      f"reader pid 42 begun on cpu1 ended on cpu2 pairs up: {m.readers}")
check(("cpu0 dynticks", 1001.0, 7) in m.counters and
      any(n == "completed" and v == 5 for n, _, v in m.counters),
      "dynticks and completed counters")
check(sorted(k for _, _, _, k in m.instants) == ["cb", "flip", "mb"],
      f"flip ack, mb ack, callback instants: {m.instants}")

with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "t.json")
    doc = m.chrome()
    with open(path, "w") as f:
        json.dump(doc, f)
    check(t2j.check(path) == [], "the JSON parses and its slices nest")
    names = {e["args"]["name"] for e in doc["traceEvents"]
             if e.get("name") == "thread_name"}
    check(names == {"cpu0", "cpu1", "cpu2", "grace periods"},
          f"one track per CPU plus the GP track: {sorted(names)}")
    # The check itself must catch overlapping slices.
    doc["traceEvents"].append({"ph": "X", "pid": 1, "tid": 0, "name": "bad",
                               "ts": 500.0, "dur": 9000.0})
    with open(path, "w") as f:
        json.dump(doc, f)
    check(len(t2j.check(path)) == 1, "--check catches an overlapping slice")
    svg = m.svg()
    check(svg.startswith("<svg") and svg.rstrip().endswith("</svg>") and
          "NMI" in svg, "the SVG is one <svg> element showing the NMI")

# cpu0's ring wrapped: the window starts at its first kept event (5000 us),
# cpu1's earlier events are dropped; exits without entries start at 0.
wrap = {
    0: [(5000 * T, t2j.IRQ_EXIT, 0x40, 1), (6000 * T, t2j.IDLE_EXIT, 0, 0)],
    1: [(1000 * T, t2j.IDLE_ENTER, 0, 0), (7000 * T, t2j.IDLE_EXIT, 0, 0)],
}
m = convert(dump(wrap, wrapped=(0,)))
check([(round(a), round(b), n) for a, b, n in slices(m, 0)] ==
      [(0, 0, "irq 0x40"), (0, 1000, "idle")],
      f"wrapped cpu0: unmatched exits become slices from the start: "
      f"{slices(m, 0)}")
check([(round(a), round(b), n) for a, b, n in slices(m, 1)] ==
      [(0, 2000, "idle")],
      f"cpu1 clipped to the common window: {slices(m, 1)}")

# An NMI that reserved its slot between another event's reservation and
# timestamp: a later slot with an earlier time (negative delta).
race = {0: [(1000 * T, t2j.IRQ_ENTER, 0x40, 1),
            (3000 * T, t2j.IRQ_EXIT, 0x40, 1),
            (2000 * T, t2j.NMI_ENTER, 0, 0),
            (2500 * T, t2j.NMI_EXIT, 0, 0)]}
m = convert(dump(race))
check([n for _, _, n in slices(m, 0)] == ["irq 0x40", "NMI"] and
      t2j.check is not None,
      f"events are sorted by time before nesting: {slices(m, 0)}")

# rcu=tree: RCU_GP_* phases (INIT twice: before and after rcu_seq_start(),
# which makes gp_seq odd), and the context-tracking word, watched while
# its CT_RCU_WATCHING bit (4) is set: 4 busy, 9 idle, 13 in an IRQ.
tree = {
    0: [(1000 * T, t2j.TREE_GP, 1, 4), (1010 * T, t2j.TREE_GP, 1, 5),
        (1100 * T, t2j.TREE_GP, 3, 5), (2000 * T, t2j.TREE_GP, 2, 5),
        (3000 * T, t2j.TREE_GP, 3, 5), (3100 * T, t2j.TREE_GP, 4, 5),
        (3200 * T, t2j.TREE_GP, 0, 8)],
    1: [(1000 * T, t2j.IDLE_ENTER, 0, 0), (1001 * T, t2j.DYNTICKS, 0, 9),
        (2000 * T, t2j.IRQ_ENTER, 0x40, 1), (2001 * T, t2j.DYNTICKS, 1, 13),
        (2500 * T, t2j.IRQ_EXIT, 0x40, 1), (2501 * T, t2j.DYNTICKS, 2, 17)],
}
m = convert(dump(tree))
check(m.tree and [(g, round(a), round(b)) for g, a, b in m.gps] ==
      [(5, 0, 2200)], f"rcu=tree: one GP, gp_seq 5, INIT to IDLE: {m.gps}")
check([(m.state_names[st], round(a), round(b)) for st, a, b in m.states]
      == [("init", 0, 100), ("doing_fqs", 100, 1000),
          ("wait_fqs", 1000, 2000), ("doing_fqs", 2000, 2100),
          ("cleanup", 2100, 2200)], f"rcu=tree: GP phases: {m.states}")
check([m.watched(v) for n, _, v in m.counters if n == "cpu1 dynticks"] ==
      [False, True, False], "rcu=tree: watching follows CT_RCU_WATCHING")
svg = m.svg()
check("wait_fqs" in svg and "waitack" not in svg,
      "rcu=tree: the SVG names the RCU_GP_* phases")

try:
    convert(dump(basic, end=False))
    check(False, "a dump without ~end is refused")
except t2j.TraceError:
    check(True, "a dump without ~end is refused")
try:
    convert("no trace here\n")
    check(False, "a log without a dump is refused")
except t2j.TraceError:
    check(True, "a log without a dump is refused")

print(f"{results.count(True)} passed, {results.count(False)} failed")
sys.exit(0 if all(results) else 1)
