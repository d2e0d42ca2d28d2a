#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn a dynrcu trace dump (console log with trace=on) into Chrome/Perfetto
JSON and an SVG timeline.

The kernel (kernel/trace.c) dumps at the end of the run:
  ~trace v1 cpus N tsc_per_us K entries E
  ~cpu C recorded R kept K         (R > K: the ring wrapped)
  ~C DT TYPE A B                   (DT: signed TSC delta; A, B hex)
  ~end

The JSON has one track per CPU with nested slices idle > IRQ > NMI, acks
and callbacks as instant events, per-CPU dynticks_progress_counter
counters, a "grace periods" track (each GP a slice with its flip states
nested inside), a "completed" counter, and sampled readers as async
slices.  Open it at https://ui.perfetto.dev or chrome://tracing.

Usage: trace2json.py LOG [-o out.json] [--svg out.svg] [--elf kernel.elf]
                     [--svg-start MS] [--svg-ms MS]
"""

import argparse
import bisect
import json
import re
import subprocess
import sys

# enum trace_type in kernel/trace.h
(NONE, IDLE_ENTER, IDLE_EXIT, IRQ_ENTER, IRQ_EXIT, NMI_ENTER, NMI_EXIT,
 DYNTICKS, GP_STATE, FLIP_ACK, MB_ACK, READER_BEGIN, READER_END, CALLBACK,
 MARK, TREE_GP, TREE_FQS) = range(17)
TYPE_NAMES = ["none", "idle_enter", "idle_exit", "irq_enter", "irq_exit",
              "nmi_enter", "nmi_exit", "dynticks", "gp_state", "flip_ack",
              "mb_ack", "reader_begin", "reader_end", "callback", "mark",
              "tree_gp", "tree_fqs"]
STATES = ["idle", "waitack", "waitzero", "waitmb"]
# rcu=tree: enum of RCU_GP_* states in rcu/tree/tree.h, and the bit of the
# context-tracking state word (TRACE_DYNTICKS's b there) that says RCU
# watches the CPU (CT_RCU_WATCHING in rcu/tree/context_tracking.h).
TREE_STATES = ["idle", "init", "wait_fqs", "doing_fqs", "cleanup"]
CT_RCU_WATCHING = 4
GP_TID = 1000
PID = 1


class TraceError(Exception):
    pass


def parse(text):
    """Return (header dict, {cpu: [(tsc, seq, type, a, b)]}, wrapped set,
    {vector: name})."""
    header = None
    events = {}
    wrapped = set()
    tsc = {}
    vectors = {}
    seq = 0
    ended = False
    for line in text.splitlines():
        line = line.strip()
        m = re.match(r"# stats cpu\d+: vector (0x[0-9a-f]+) \((\S+)\)", line)
        if m:
            vectors[int(m.group(1), 16)] = m.group(2)
            continue
        if not line.startswith("~"):
            continue
        f = line[1:].split()
        if f[0] == "trace":
            kv = dict(zip(f[2::2], f[3::2]))
            header = {"cpus": int(kv["cpus"]),
                      "tsc_per_us": int(kv["tsc_per_us"]),
                      "entries": int(kv["entries"])}
        elif f[0] == "cpu":
            cpu = int(f[1])
            events[cpu] = []
            tsc[cpu] = 0
            if int(f[3]) > int(f[5]):
                wrapped.add(cpu)
        elif f[0] == "end":
            ended = True
        else:
            cpu = int(f[0])
            if cpu not in events:
                raise TraceError(f"event for cpu {cpu} before its ~cpu line")
            tsc[cpu] += int(f[1])
            seq += 1
            events[cpu].append((tsc[cpu], seq, int(f[2]), int(f[3], 16),
                                int(f[4], 16)))
    if header is None:
        raise TraceError("no '~trace' header: was the kernel run with "
                         "trace=on, and did the run reach its end?")
    if not ended:
        raise TraceError("no '~end' line: the dump is truncated")
    for cpu in events:
        events[cpu].sort()
    return header, events, wrapped, vectors


def window(events, wrapped):
    """Common time window: a CPU whose ring wrapped lost its early events,
    so everything starts at the latest first event among those."""
    firsts = [ev[0][0] for c, ev in events.items() if ev]
    lasts = [ev[-1][0] for c, ev in events.items() if ev]
    if not firsts:
        raise TraceError("the trace holds no events")
    w = [events[c][0][0] for c in wrapped if events[c]]
    return (max(w) if w else min(firsts)), max(lasts)


def symbols(elf):
    syms = {}
    if not elf:
        return syms
    try:
        out = subprocess.run(["nm", elf], capture_output=True, text=True,
                             check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return syms
    for line in out.splitlines():
        p = line.split()
        if len(p) == 3 and p[1] in "tT":
            syms[int(p[0], 16)] = p[2]
    return syms


def span(s, e):
    """ts and dur of a slice from rounded endpoints, so that slices that
    share an endpoint still nest or abut exactly after rounding."""
    ts, end = round(s, 3), round(e, 3)
    return {"ts": ts, "dur": round(max(end - ts, 0.0), 3)}


class Model:
    """Slices, instants and counters, in microseconds from the start."""

    def __init__(self, header, events, wrapped, vectors, syms):
        self.cpus = sorted(events)
        self.tpu = header["tsc_per_us"]
        self.t0, self.t1 = window(events, wrapped)
        self.vectors = vectors
        self.syms = syms
        self.slices = []        # (tid, name, start, end, depth, kind)
        self.instants = []      # (tid, name, ts, kind)
        self.counters = []      # (name, ts, value)
        self.readers = []       # (cpu, pid, start, end)
        self.gps = []           # (completed, start, end)
        self.states = []        # (state, start, end)
        self.counts = [0] * len(TYPE_NAMES)
        self.tree_events = []   # (ts, RCU_GP_* state, gp_seq): rcu=tree
        gp_events = []
        open_readers = {}
        allev = []
        for cpu in self.cpus:
            evs = [e for e in events[cpu] if e[0] >= self.t0]
            self.per_cpu(cpu, evs, gp_events)
            allev += [(e[0], cpu, e) for e in evs]
        for ts, cpu, (tsc, _, typ, a, b) in sorted(allev):
            if typ == READER_BEGIN:
                open_readers[b] = (cpu, self.us(tsc))
            elif typ == READER_END and b in open_readers:
                c, start = open_readers.pop(b)
                self.readers.append((c, b, start, self.us(tsc)))
        # A trace of rcu=tree has TREE_GP events and no GP_STATE ones.
        self.tree = bool(self.tree_events)
        self.state_names = TREE_STATES if self.tree else STATES
        if self.tree:
            self.tree_gp_track(sorted(self.tree_events))
        else:
            self.gp_track(sorted(gp_events))

    def watched(self, v):
        """Does this TRACE_DYNTICKS value say RCU watches the CPU?"""
        return bool(v & (CT_RCU_WATCHING if self.tree else 1))

    def us(self, tsc):
        return (tsc - self.t0) / self.tpu

    def irq_name(self, vec):
        n = self.vectors.get(vec)
        return f"irq 0x{vec:x}" + (f" {n}" if n else "")

    def per_cpu(self, cpu, evs, gp_events):
        stack = []      # (kind, name, start)
        end_all = self.us(self.t1)

        def close(kind, now):
            # Close inner slices left open (their exit fell off the ring).
            while stack:
                k, name, start = stack.pop()
                self.slices.append((cpu, name, start, now, len(stack), k))
                if k == kind:
                    return
            # The matching entry predates the window.
            self.slices.append((cpu, name_of(kind), 0.0, now, 0, kind))

        def name_of(kind):
            return {"idle": "idle", "nmi": "NMI", "irq": "irq"}[kind]

        for tsc, _, typ, a, b in evs:
            self.counts[typ] += 1
            now = self.us(tsc)
            if typ == IDLE_ENTER:
                stack.append(("idle", "idle", now))
            elif typ == IRQ_ENTER:
                stack.append(("irq", self.irq_name(a), now))
            elif typ == NMI_ENTER:
                stack.append(("nmi", "NMI", now))
            elif typ in (IDLE_EXIT, IRQ_EXIT, NMI_EXIT):
                kind = {IDLE_EXIT: "idle", IRQ_EXIT: "irq",
                        NMI_EXIT: "nmi"}[typ]
                if any(k == kind for k, _, _ in stack):
                    close(kind, now)
                else:
                    # Began before the window: it encloses what is open.
                    name = self.irq_name(a) if kind == "irq" else \
                        name_of(kind)
                    self.slices.append((cpu, name, 0.0, now, 0, kind))
            elif typ == DYNTICKS:
                self.counters.append((f"cpu{cpu} dynticks", now, b))
            elif typ == GP_STATE:
                gp_events.append((now, a >> 8, a & 0xff, b))
            elif typ == TREE_GP:
                self.tree_events.append((now, a, b))
            elif typ == FLIP_ACK:
                self.instants.append((cpu, f"flip ack {b}", now, "flip"))
            elif typ == MB_ACK:
                self.instants.append((cpu, f"mb ack {b}", now, "mb"))
            elif typ == CALLBACK:
                name = self.syms.get(b, f"0x{b:x}")
                self.instants.append((cpu, f"callback {name}", now, "cb"))
            elif typ == MARK:
                self.instants.append((cpu, f"mark {a} {b}", now, "mark"))
        while stack:
            k, name, start = stack.pop()
            self.slices.append((cpu, name, start, end_all, len(stack), k))

    def gp_track(self, gp_events):
        end_all = self.us(self.t1)
        state_start = None
        gp_start = None
        gp_completed = None
        for now, frm, to, completed in gp_events:
            self.counters.append(("completed", now, completed))
            if frm != 0:
                self.states.append((frm, state_start
                                    if state_start is not None else 0.0,
                                    now))
            if frm == 0:
                gp_start, gp_completed = now, completed
            if to == 0:
                self.gps.append((completed, gp_start
                                 if gp_start is not None else 0.0, now))
                gp_start = None
            state_start = now
        if gp_start is not None:
            self.gps.append((gp_completed, gp_start, end_all))
            if state_start is not None and gp_events:
                self.states.append((gp_events[-1][2], state_start, end_all))

    def tree_gp_track(self, events):
        """rcu=tree: a GP runs from its RCU_GP_INIT phase to the next
        RCU_GP_IDLE, named by the gp_seq it started (odd, carried by the
        INIT event after rcu_seq_start()); its states are the RCU_GP_*
        phases in between."""
        end_all = self.us(self.t1)
        cur = None              # (state, start)
        gp = None               # [gp_seq or None, start]
        for now, state, seq in events:
            self.counters.append(("gp_seq", now, seq))
            if cur and cur[0] != state:
                if cur[0] != 0:
                    self.states.append((cur[0], cur[1], now))
                cur = None
            if cur is None:
                cur = (state, now)
                if state != 0 and gp is None:
                    gp = [None, now]
            if gp is not None and gp[0] is None and seq & 1:
                gp[0] = seq
            if state == 0 and gp is not None:
                self.gps.append((gp[0], gp[1], now))
                gp = None
        if cur and cur[0] != 0:
            self.states.append((cur[0], cur[1], end_all))
        if gp is not None:
            self.gps.append((gp[0], gp[1], end_all))

    def chrome(self):
        ev = [{"ph": "M", "pid": PID, "name": "process_name",
               "args": {"name": "dynrcu"}},
              {"ph": "M", "pid": PID, "tid": GP_TID, "name": "thread_name",
               "args": {"name": "grace periods"}},
              {"ph": "M", "pid": PID, "tid": GP_TID,
               "name": "thread_sort_index", "args": {"sort_index": -1}}]
        for cpu in self.cpus:
            ev.append({"ph": "M", "pid": PID, "tid": cpu,
                       "name": "thread_name", "args": {"name": f"cpu{cpu}"}})
            ev.append({"ph": "M", "pid": PID, "tid": cpu,
                       "name": "thread_sort_index",
                       "args": {"sort_index": cpu}})
        # Outer slices first at equal start times, so nesting is kept.
        for tid, name, s, e, depth, kind in sorted(
                self.slices, key=lambda x: (x[0], x[2], -x[3])):
            ev.append({"ph": "X", "pid": PID, "tid": tid, "name": name,
                       "cat": kind, **span(s, e)})
        for c, s, e in self.gps:
            ev.append({"ph": "X", "pid": PID, "tid": GP_TID,
                       "name": f"GP {c}", "cat": "gp", **span(s, e)})
        for st, s, e in self.states:
            ev.append({"ph": "X", "pid": PID, "tid": GP_TID,
                       "name": self.state_names[st]
                       if st < len(self.state_names) else str(st),
                       "cat": "gp", **span(s, e)})
        for tid, name, ts, kind in self.instants:
            ev.append({"ph": "i", "s": "t", "pid": PID, "tid": tid,
                       "name": name, "cat": kind, "ts": round(ts, 3)})
        for name, ts, v in self.counters:
            ev.append({"ph": "C", "pid": PID, "name": name,
                       "ts": round(ts, 3), "args": {"value": v}})
        for n, (cpu, pid, s, e) in enumerate(self.readers):
            common = {"pid": PID, "tid": cpu, "cat": "reader",
                      "name": f"reader pid {pid}", "id": n}
            ev.append(dict(common, ph="b", ts=round(s, 3)))
            ev.append(dict(common, ph="e", ts=round(e, 3)))
        return {"traceEvents": ev, "displayTimeUnit": "ns",
                "otherData": {"source": "dynrcu kernel/trace.c",
                              "tsc_per_us": self.tpu}}

    # ---- SVG ----------------------------------------------------------

    def longest_nmi_in_idle(self):
        """(start, end) of the longest NMI nested in an idle slice, else
        of the longest NMI, else None."""
        idle = {}
        for cpu, _, s, e, _, k in self.slices:
            if k == "idle":
                idle.setdefault(cpu, []).append((s, e))
        nmis = [(e - s, s, e, cpu) for cpu, _, s, e, _, k in self.slices
                if k == "nmi"]
        inside = [n for n in nmis
                  if any(a <= n[1] and n[2] <= b
                         for a, b in idle.get(n[3], []))]
        best = max(inside or nmis, default=None)
        return (best[1], best[2]) if best else None

    def busiest(self, length):
        """Start (us) of the SVG window of `length` us: around the first
        NMI, else where grace-period transitions are densest."""
        # An NMI shows the most (a reader where RCU thought the CPU
        # idle): if there is one, start shortly before the first.
        nmis = sorted(s for _, n, s, _, _, k in self.slices if k == "nmi")
        if nmis:
            return max(0.0, nmis[0] - length / 4)
        marks = [s for _, s, _ in self.states]
        if not marks:
            return 0.0
        marks.sort()
        # Windows starting a quarter-length before each mark: the event
        # and what follows it.
        best, best_n = 0.0, -1
        for m in marks:
            s = max(0.0, m - length / 4)
            n = bisect.bisect_right(marks, s + length) - \
                bisect.bisect_left(marks, s)
            if n > best_n:
                best_n, best = n, s
        return best

    def svg(self, start=None, length=None):
        if length is None:
            # Auto: around the longest NMI that found its CPU dynticks-
            # idle (its reader is one RCU must wait for), else 20 ms.
            length = 20000.0
            nmi = self.longest_nmi_in_idle()
            if nmi and start is None:
                d = max(nmi[1] - nmi[0], length / 2.25)
                start = max(0.0, nmi[0] - d / 4)
                length = d * 2.25
        if start is None:
            start = self.busiest(length)
        end = start + length
        W, left, lane, gap = 1200, 90, 34, 8
        plot = W - left - 40
        rows = ["gp"] + self.cpus
        H = 50 + len(rows) * (lane + gap) + 60

        def x(t):
            return left + (min(max(t, start), end) - start) * plot / length

        def vis(s, e):
            return e >= start and s <= end

        out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" '
               f'height="{H}" font-family="sans-serif" font-size="11">',
               f'<rect width="{W}" height="{H}" fill="white"/>',
               f'<text x="{left}" y="16" font-size="13">dynrcu trace'
               f'{" (rcu=tree)" if self.tree else ""}: '
               f'{start / 1000:.1f} ms to {end / 1000:.1f} ms</text>']
        y0 = {}
        for i, r in enumerate(rows):
            y = 30 + i * (lane + gap)
            y0[r] = y
            label = "GP" if r == "gp" else f"cpu{r}"
            out.append(f'<text x="8" y="{y + lane / 2 + 4}">{label}</text>')
            out.append(f'<rect x="{left}" y="{y}" width="{plot}" '
                       f'height="{lane}" fill="#f7f7f7" stroke="#ddd"/>')
        colors = {"idle": "#c8d8c8", "irq": "#4a7fd0", "nmi": "#d03030"}
        for cpu, name, s, e, depth, kind in sorted(
                self.slices, key=lambda t: t[4]):
            if not vis(s, e):
                continue
            y = y0[cpu]
            if kind == "idle":
                yy, hh = y, lane
            elif kind == "irq":
                yy, hh = y + lane * 0.35 + depth * 3, lane * 0.45
            else:
                yy, hh = y + lane * 0.15, lane * 0.7
            w = max(x(e) - x(s), 0.8)
            out.append(f'<rect x="{x(s):.1f}" y="{yy:.1f}" width="{w:.1f}" '
                       f'height="{hh:.1f}" fill="{colors[kind]}">'
                       f'<title>{name} {s:.1f}-{e:.1f} us</title></rect>')
        palette = ["#f0a030", "#e8d040", "#9060c0", "#40a0a0"]
        scol = {st: palette[st - 1] for st in
                range(1, min(len(self.state_names), len(palette) + 1))}
        for st, s, e in self.states:
            if vis(s, e) and st in scol:
                out.append(f'<rect x="{x(s):.1f}" y="{y0["gp"] + 4}" '
                           f'width="{max(x(e) - x(s), 0.8):.1f}" '
                           f'height="{lane - 8}" fill="{scol[st]}">'
                           f'<title>{self.state_names[st]}</title></rect>')
        last_lbl = -1e9
        for c, s, e in self.gps:
            if vis(s, s) and x(s) - last_lbl > 40:
                out.append(f'<text x="{x(s) + 1:.1f}" y="{y0["gp"] - 1}" '
                           f'font-size="9">{c}</text>')
                last_lbl = x(s)
        ic = {"flip": "#000", "mb": "#888", "cb": "#2a2", "mark": "#c0c"}
        for cpu, name, ts, kind in self.instants:
            if vis(ts, ts):
                y = y0[cpu]
                out.append(f'<line x1="{x(ts):.1f}" x2="{x(ts):.1f}" '
                           f'y1="{y}" y2="{y + 8}" stroke="{ic[kind]}">'
                           f'<title>{name}</title></line>')
        # A strip under each lane, dark while RCU watches the CPU (the
        # counter odd; rcu=tree: CT_RCU_WATCHING set), absent while it is
        # dynticks-idle.
        by_cpu = {}
        for name, ts, v in self.counters:
            m = re.match(r"cpu(\d+) dynticks", name)
            if m:
                by_cpu.setdefault(int(m.group(1)), []).append((ts, v))
        for cpu in self.cpus:
            # Every change flips watching, so before the first one it was
            # the opposite; a CPU with no change at all stayed watched.
            pts = [(t, self.watched(v)) for t, v in by_cpu.get(cpu, [])]
            pts.insert(0, (0.0, not pts[0][1] if pts else True))
            pts.append((end, None))
            for (t, v), (t2, _) in zip(pts, pts[1:]):
                if v and vis(t, t2):
                    out.append(f'<rect x="{x(t):.1f}" y="{y0[cpu] + lane - 3}"'
                               f' width="{max(x(t2) - x(t), 0.5):.1f}" '
                               f'height="3" fill="#205020"/>')
        ya = 30 + len(rows) * (lane + gap)
        for k in range(11):
            t = start + length * k / 10
            out.append(f'<line x1="{x(t):.1f}" x2="{x(t):.1f}" y1="{ya - 4}" '
                       f'y2="{ya}" stroke="#444"/>')
            out.append(f'<text x="{x(t):.1f}" y="{ya + 14}" '
                       f'text-anchor="middle">{t / 1000:.1f} ms</text>')
        legend = [("#c8d8c8", "dynticks idle"), ("#4a7fd0", "IRQ"),
                  ("#d03030", "NMI"), ("#205020", "RCU watching")]
        legend += [(scol[st], self.state_names[st]) for st in sorted(scol)]
        if not self.tree:
            legend += [("#000", "flip ack"), ("#888", "mb ack")]
        legend += [("#2a2", "callback")]
        lx = left
        for col, name in legend:
            out.append(f'<rect x="{lx}" y="{ya + 24}" width="10" height="10" '
                       f'fill="{col}"/><text x="{lx + 13}" y="{ya + 33}">'
                       f'{name}</text>')
            lx += 20 + 6.5 * len(name)
        out.append("</svg>")
        return "\n".join(out) + "\n"


def check(path):
    """Re-read the JSON and check that each track's slices nest (Perfetto
    drops or misplaces ones that overlap).  Returns a list of problems."""
    with open(path) as f:
        doc = json.load(f)
    tracks = {}
    for e in doc["traceEvents"]:
        if e.get("ph") == "X":
            tracks.setdefault(e["tid"], []).append(
                (e["ts"], -e["dur"], e["ts"] + e["dur"], e["name"]))
    problems = []
    for tid, sl in tracks.items():
        sl.sort()
        stack = []
        for s, _, end, name in sl:
            while stack and stack[-1][0] <= s + 1e-9:
                stack.pop()
            if stack and end > stack[-1][0] + 1e-9:
                problems.append(f"track {tid}: {name} at {s} us overlaps "
                                f"{stack[-1][1]} ending {stack[-1][0]} us")
            stack.append((end, name))
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("log")
    ap.add_argument("-o", "--output", help="JSON file (default: stdout)")
    ap.add_argument("--svg", help="also write an SVG timeline here")
    ap.add_argument("--elf", help="kernel ELF, to name callbacks (uses nm)")
    ap.add_argument("--svg-start", type=float,
                    help="SVG window start in ms (default: the busiest)")
    ap.add_argument("--svg-ms", type=float,
                    help="SVG window length in ms (default: around the "
                    "first NMI, else 20)")
    ap.add_argument("--check", action="store_true",
                    help="re-read the JSON written with -o and check that "
                    "slices nest; exit 1 if not")
    args = ap.parse_args()
    with open(args.log, errors="replace") as f:
        text = f.read().replace("\r", "")
    try:
        header, events, wrapped, vectors = parse(text)
        model = Model(header, events, wrapped, vectors, symbols(args.elf))
    except TraceError as e:
        sys.exit(f"trace2json: {args.log}: {e}")
    doc = model.chrome()
    if args.output:
        with open(args.output, "w") as f:
            json.dump(doc, f)
    else:
        json.dump(doc, sys.stdout)
    if args.svg:
        start = args.svg_start * 1000 if args.svg_start is not None else None
        with open(args.svg, "w") as f:
            f.write(model.svg(start, args.svg_ms * 1000
                              if args.svg_ms else None))
    counts = ", ".join(f"{TYPE_NAMES[t]} {n}"
                       for t, n in enumerate(model.counts) if n)
    print(f"trace2json: {len(model.cpus)} CPUs, "
          f"{(model.t1 - model.t0) / model.tpu / 1000:.1f} ms "
          f"({'wrapped: ' + ','.join(map(str, sorted(wrapped))) if wrapped else 'complete'}); "
          f"{counts}; {len(model.gps)} GPs, {len(model.readers)} readers; "
          f"{len(doc['traceEvents'])} JSON events", file=sys.stderr)
    if args.check and args.output:
        problems = check(args.output)
        for p in problems[:10]:
            print(f"trace2json: check: {p}", file=sys.stderr)
        print(f"trace2json: check: JSON parses; "
              f"{len(problems)} overlapping slices", file=sys.stderr)
        return 1 if problems else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
