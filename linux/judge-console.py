#!/usr/bin/env python3
"""Judge an rcutorture console log the way rcutorture's parse-console.sh does.

A run passes when the test printed "End of test: SUCCESS", no "!!!" line
(a "!!!" is a failure even beside SUCCESS), no FAILURE, statistics lines
whose "ver:" rises from each to the next (the final "VER:" lines, after
the updater's stop, are not counted), and the kernel printed no splat
(WARNING, BUG, Oops, lockdep report, RCU stall of either kind, a
starved kthread, an unknown NMI, an NMI handler that x86 says took
NMI_SLOW_MS or longer).  With
--parse-console DIR, the tree's own rcutorture parse-console.sh (in DIR)
must also find nothing.

With --expect fail (a mutant), the run must instead have failed (no
clean SUCCESS: a FAILURE, a "!!!", a kernel splat, a crash or a hang) for
the mutant's own reason: a line matching --error REGEX (any console line:
the test's "!!!" reports, or the warning of a check in the kernel), or,
without --error, a "!!!" line of the test.  parse-console.sh, when run,
must report something too.

Prints the figures (readers per context, readers on idle CPUs, grace
periods, time to the first error) and, when the verdict is not the expected
one or QEMU timed out, the last console lines.  Exit status 0 when the
verdict is the expected one.
"""
import argparse
import os
import re
import subprocess
import sys

# A kernel crash: what ends a run before the test can print its verdict.
CRASH = re.compile(r"BUG:|Oops|Kernel panic|general protection fault|"
                   r"Unable to handle kernel|Internal error: |"
                   r"Unhandled .* exception on CPU")
BADNESS = re.compile(
    r"WARNING:|BUG:|Oops|Call Trace:|Kernel panic|general protection fault|"
    r"detected stalls on CPUs|self-detected stall|INFO: task .* blocked|"
    r"possible recursive locking|possible circular locking|"
    r"inconsistent lock state|suspicious RCU usage|Unable to handle kernel|"
    r"detected expedited stalls|rcu_.*kthread starved for|"
    r"Stall ended before state dump start|"
    r"NMI received for unknown reason|Dazed and confused|Badness|"
    r"BUG: KCSAN:|"
    # arm64's own (arch/arm64/kernel/traps.c, entry-common.c, smp.c): a
    # die() ("Internal error: Oops - BUG" and the like), an exception the
    # entry code does not handle, an SError, an IPI it does not know, a
    # secondary CPU that failed to start or to stop.
    r"Internal error: |Unhandled .* exception on CPU|"
    r"SError Interrupt on CPU|Unknown IPI message|"
    r"Insufficient stack space to handle exception|"
    r"CPU\d+: (failed to come online|died during early boot|"
    r"may not have shut down cleanly|is stuck in kernel|will not boot)")
# The series' statistics line: per context (hardirq, softirq, NMI) the
# requests that found an extended quiescent state / all sent, and the NMI
# requests that arrived outside NMI context (not-NMI).
EQS_LINE = re.compile(r"torture: eqs: (\d+)/(\d+) (\d+)/(\d+) (\d+)/(\d+) "
                      r".*not-NMI: (\d+)")
ANSI = re.compile(r"\x1b\[[0-9;]*m")
# x86 reports every NMI handler that ran longer than its nmi_longest_ns
# (1 ms).  Under TCG the guest clock is the host's, so the time includes
# the host preempting the vCPU mid-handler: boots with the series' NMI
# readers on this 2-core host drew 1.0 to 15.5 ms alone, and up to 167 ms
# beside three other QEMUs and builds.  A run fails on a handler of
# NMI_SLOW_MS or more, which a reader that took rcutorture's long delay
# (300 ms) in NMI context would still print.
SLOW_NMI = re.compile(r"INFO: NMI handler \(.*\) took too long to run: "
                      r"(\d+\.\d+) msecs")
NMI_SLOW_MS = 250
# What caught a failing run, from its first error line: the series' own
# check (a grace period that ended under one of its readers), a check
# rcutorture already had, or one the kernel already had (named by the
# function that warned, as the WARNING line gives it).
SERIES_CHECK = re.compile(r"grace period ended under an? \w+ reader|"
                          r"!!! eqs_readers: |!!! eqs: |!!! tp_readers: ")
WARN_AT = re.compile(r"WARNING: .* at (\S+?):\d+ (\w+)")


def label_of(line):
    """Who caught it: "series", "rcutorture" or "kernel: <what>"."""
    if SERIES_CHECK.search(line):
        return "series"
    if "-torture:" in line or "End of test: FAILURE" in line:
        return "rcutorture"
    m = WARN_AT.search(line)
    if m:
        return f"kernel: WARNING in {m.group(2)}() ({m.group(1)})"
    for what in ("suspicious RCU usage", "detected stalls on CPUs",
                 "self-detected stall", "detected expedited stalls",
                 "inconsistent lock state", "possible recursive locking",
                 "possible circular locking", "BUG:", "Oops",
                 "Kernel panic", "Internal error: "):
        if what in line:
            return "kernel: " + what.rstrip(": ")
    return "kernel: " + TS.sub("", line).strip()[:60]


def parse_console(bindir, log, title):
    """The output of rcutorture's parse-console.sh, colours stripped: empty
    when it finds nothing wrong."""
    env = dict(os.environ, TORTURE_SUITE="rcu",
               PATH=bindir + os.pathsep + os.environ.get("PATH", ""))
    r = subprocess.run(["bash", os.path.join(bindir, "parse-console.sh"),
                        log, title], cwd=bindir, env=env,
                       capture_output=True, text=True, timeout=120)
    return [ANSI.sub("", l) for l in (r.stdout + r.stderr).splitlines()
            if l.strip()]
TS = re.compile(r"^\[\s*(\d+\.\d+)\]")


def ts_of(line):
    m = TS.match(line)
    return float(m.group(1)) if m else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("log")
    ap.add_argument("--expect", choices=["pass", "fail"], default="pass")
    ap.add_argument("--qemu-rc", type=int, default=0)
    ap.add_argument("--wall", type=float, default=None)
    ap.add_argument("--require", action="append", default=[],
                    help="with --expect pass: for each line of this (a "
                    "scenario's .require), some console line must match "
                    "it (what the scenario is there to reach); may be "
                    "given more than once")
    ap.add_argument("--nmi-readers", action="store_true",
                    help="with --expect pass: the last 'eqs:' line must "
                    "show NMI requests sent and none that arrived outside "
                    "NMI context (arm64: they ran as pseudo-NMIs)")
    ap.add_argument("--nmi-from-eqs", action="store_true",
                    help="with --expect pass: the last 'eqs:' line must "
                    "show NMI readers that found an extended quiescent "
                    "state")
    ap.add_argument("--stopped", action="store_true",
                    help="the harness stopped QEMU after the first --error "
                    "line: no verdict line of the test is expected")
    ap.add_argument("--error", default=None,
                    help="with --expect fail: a '!!!' line must match this")
    ap.add_argument("--parse-console", metavar="DIR", default=None,
                    help="also run DIR/parse-console.sh (rcutorture's)")
    args = ap.parse_args()

    try:
        with open(args.log, "rb") as f:
            text = f.read().decode("utf-8", "replace")
    except OSError as e:
        print(f"judge: cannot read console log: {e}")
        return 1
    lines = [l.rstrip("\r") for l in text.splitlines()]

    success = any("End of test: SUCCESS" in l for l in lines)
    failure = any("FAILURE" in l for l in lines)
    bangs = [l for l in lines if "!!!" in l]
    test_bangs = [l for l in bangs if "-torture:" in l]
    slow_nmi = [(l, float(m.group(1)))
                for l in lines for m in [SLOW_NMI.search(l)] if m]
    bad = [l for l in lines if BADNESS.search(l)] + \
        [l for l, ms in slow_nmi if ms >= NMI_SLOW_MS]
    vers = []
    final_ver = None
    for l in lines:
        # The writer's lines only, as parse-console.sh reads them: "ver:"
        # in lower case.  rcutorture prints "VER:" (capitals, rtc 0) once
        # the writer has stopped, and does so twice at the end (the stats
        # kthread's last line and cleanup's); neither need rise over the
        # last "ver:" line, which may fall in the writer's last stutter
        # pause, a few seconds long, before shutdown.
        m = re.search(r"torture:.*\bver: (\d+)", l)
        if m:
            vers.append(int(m.group(1)))
        m = re.search(r"torture:.*\bVER: (\d+)", l)
        if m:
            final_ver = int(m.group(1))
    # "ver:" must rise from each statistics line to the next, as
    # parse-console.sh wants; a repeat is a stalled updater.  And the
    # writer must be seen to move at all: two "ver:" lines, or one and a
    # final "VER:" above it (the stats kthread, in a run with CPU
    # hotplug every 100 jiffies, has printed its first line 21 s into a
    # 30 s test, and then only the final one).
    ver_rising = (all(b > a for a, b in zip(vers, vers[1:])) and
                  (len(vers) >= 2 or
                   (len(vers) == 1 and final_ver is not None and
                    final_ver > vers[0])))
    timed_out = args.qemu_rc in (124, 137)

    start_ts = next((ts_of(l) for l in lines if "Start of test" in l), None)

    # Figures: the last statistics block.
    print(f"judge: {args.log}")
    for key in ("torture: rtc:", "torture: eqs:", "torture: rtgpe:"):
        last = [l for l in lines if key in l]
        if last:
            print("judge:   " + TS.sub("", last[-1]).strip())
    for l in test_bangs[:8]:
        print("judge:   " + TS.sub("", l).strip())
    if args.wall is not None:
        print(f"judge: QEMU wall time {args.wall:.1f} s, exit status {args.qemu_rc}")
    for l in bad[:10]:
        print("judge:   kernel: " + l.strip())
    if slow_nmi:
        print(f"judge: x86's slow-NMI-handler lines: {len(slow_nmi)}, the "
              f"longest {max(ms for _, ms in slow_nmi):.1f} ms (a run "
              f"fails at {NMI_SLOW_MS} ms)")
    print(f"judge: stats lines {len(vers)} ver rising {ver_rising}, "
          f"SUCCESS {success}, FAILURE {failure}, '!!!' lines {len(bangs)}, "
          f"kernel splat lines {len(bad)}, timed out {timed_out}")

    pc = None
    if args.parse_console:
        pc = parse_console(args.parse_console, args.log, args.expect)
        for l in pc[:8]:
            print("judge:   parse-console.sh: " + l)
        print(f"judge: parse-console.sh: {len(pc)} lines")
    if args.error:
        wanted = [l for l in lines if re.search(args.error, l)]
        print(f"judge: lines matching /{args.error}/: {len(wanted)}")
    else:
        wanted = test_bangs
    first_ts = next((ts_of(l) for l in wanted), None)
    if start_ts is not None and first_ts is not None:
        print(f"judge: first error {first_ts - start_ts:.2f} s after Start of test")
    if wanted:
        print(f"judge: caught by: {label_of(wanted[0])}")
    # How far the test got, in guest time: a loaded host slows the guest's
    # clock, so a timed-out boot may have watched less than its test length.
    last_ts = next((ts_of(l) for l in reversed(lines)
                    if ts_of(l) is not None), None)
    if start_ts is not None and last_ts is not None:
        print(f"judge: test time reached {last_ts - start_ts:.2f} s")
    crashed = any(CRASH.search(l) for l in lines)
    clean = success and not failure and not bangs and not bad
    reached = True
    for req in (r for arg in args.require for r in arg.splitlines() if r):
        found = any(re.search(req, l) for l in lines)
        print(f"judge: a line matching /{req}/: {found}")
        reached = reached and found
    if args.nmi_readers or args.nmi_from_eqs:
        eqs = [m for l in lines for m in [EQS_LINE.search(l)] if m]
        if eqs:
            found, sent, not_nmi = (int(eqs[-1].group(i)) for i in (5, 6, 7))
            print(f"judge: NMI readers: {found} of {sent} found an EQS, "
                  f"not-NMI {not_nmi}")
        else:
            print("judge: NMI readers: no 'eqs:' line")
        if args.nmi_readers:
            ok_nmi = bool(eqs) and sent > 0 and not_nmi == 0
            print(f"judge: NMI requests sent and all in NMI context: {ok_nmi}")
            reached = reached and ok_nmi
        if args.nmi_from_eqs:
            ok_eqs = bool(eqs) and found > 0
            print(f"judge: NMI readers that found an EQS: {ok_eqs}")
            reached = reached and ok_eqs
    if args.expect == "pass":
        ok = clean and ver_rising and not timed_out and not pc and reached
    else:
        # The bug's later damage may hang or crash the kernel before the
        # test's verdict: the error came first, and the run failed.
        ok = bool(wanted) and not clean and (pc is None or bool(pc) or
                                             timed_out or crashed)
    if timed_out:
        print("judge: QEMU TIMED OUT")
    if args.stopped:
        print("judge: QEMU stopped by the harness after the first error")
    if not ok or timed_out or crashed:
        print("judge: last console lines:")
        for l in lines[-40:]:
            print("  | " + l)
    print(f"judge: verdict {'as expected' if ok else 'NOT as expected'} "
          f"(expected {args.expect})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
