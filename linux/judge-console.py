#!/usr/bin/env python3
"""Judge an eqstorture console log the way rcutorture's parse-console.sh does.

A run passes when the test printed "End of test: SUCCESS", no "!!!" line
(a "!!!" is a failure even beside SUCCESS), no FAILURE, statistics lines
whose "ver:" rises on every line but the last (the last follows the
updater's stop), and the kernel printed no splat (WARNING, BUG, Oops,
lockdep report, RCU stall of either kind, a starved kthread, an unknown
NMI).  With --parse-console DIR, the tree's own rcutorture
parse-console.sh (in DIR) must also find nothing.

With --expect fail (a mutant), the run must instead end with
"End of test: FAILURE" and at least one eqs-torture "!!!" line: the test
itself, not only a kernel warning, must have caught the bug (a kernel
crash after the test's first "!!!" may stand in for the FAILURE line,
which it prevents); with
--error REGEX, a "!!!" line must match REGEX (the mutant's own kind of
error), and parse-console.sh must report the FAILURE too.

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
                   r"Unable to handle kernel")
BADNESS = re.compile(
    r"WARNING:|BUG:|Oops|Call Trace:|Kernel panic|general protection fault|"
    r"detected stalls on CPUs|self-detected stall|INFO: task .* blocked|"
    r"possible recursive locking|possible circular locking|"
    r"inconsistent lock state|suspicious RCU usage|Unable to handle kernel|"
    r"detected expedited stalls|rcu_.*kthread starved for|"
    r"Stall ended before state dump start|"
    r"NMI received for unknown reason|Dazed and confused|Badness|"
    r"BUG: KCSAN:")
ANSI = re.compile(r"\x1b\[[0-9;]*m")


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
    eqs_bangs = [l for l in bangs if "-torture:" in l]
    bad = [l for l in lines if BADNESS.search(l)]
    vers = []
    for l in lines:
        m = re.search(r"torture:.*ver: (\d+)", l)
        if m:
            vers.append(int(m.group(1)))
    # "ver:" must rise from each statistics line to the next, as
    # parse-console.sh wants; a repeat mid-run is a stalled updater.  Only
    # the final block, printed after the updater stopped, may repeat.
    ver_rising = (len(vers) >= 2 and vers[-1] >= vers[-2] and
                  all(b > a for a, b in zip(vers[:-2], vers[1:-1])))
    timed_out = args.qemu_rc in (124, 137)

    start_ts = next((ts_of(l) for l in lines if "Start of test" in l), None)
    first_bang_ts = next((ts_of(l) for l in eqs_bangs), None)

    # Figures: the last statistics block.
    print(f"judge: {args.log}")
    for key in ("ver:", "retired:", "readers irq:", "readers nmi:",
                "readers nested-nmi:", "readers polled:",
                "readers-on-idle-cpus:", "nested-faults:"):
        last = [l for l in lines if f"eqs-torture: {key}" in l]
        if last:
            print("judge:   " + TS.sub("", last[-1]).strip())
    # The final report: the "!!!" lines after the last statistics line.
    last_ver = max((i for i, l in enumerate(lines) if "eqs-torture: ver:" in l),
                   default=-1)
    for l in [l for l in lines[last_ver + 1:] if "!!!" in l][:8]:
        print("judge:   " + TS.sub("", l).strip())
    if start_ts is not None and first_bang_ts is not None:
        print(f"judge: first '!!!' {first_bang_ts - start_ts:.2f} s after Start of test")
    if args.wall is not None:
        print(f"judge: QEMU wall time {args.wall:.1f} s, exit status {args.qemu_rc}")
    for l in bad[:10]:
        print("judge:   kernel: " + l.strip())
    print(f"judge: stats lines {len(vers)} ver rising {ver_rising}, "
          f"SUCCESS {success}, FAILURE {failure}, '!!!' lines {len(bangs)}, "
          f"kernel splat lines {len(bad)}, timed out {timed_out}")

    pc = None
    if args.parse_console:
        pc = parse_console(args.parse_console, args.log, args.expect)
        for l in pc[:8]:
            print("judge:   parse-console.sh: " + l)
        print(f"judge: parse-console.sh: {len(pc)} lines")
    wanted = [l for l in eqs_bangs if args.error and re.search(args.error, l)]
    if args.error:
        print(f"judge: '!!!' lines matching /{args.error}/: {len(wanted)}")
    crashed = False
    if args.expect == "pass":
        ok = (success and not failure and not bangs and not bad and ver_rising
              and not timed_out and not pc)
    else:
        # The bug's later damage may crash the kernel before the test's
        # verdict (seen once: a handler run with RCU not watching, then an
        # oops at shutdown).  The test's own '!!!' came first: caught.
        first = next((i for i, l in enumerate(lines)
                      if "eqs-torture:!!!" in l), None)
        crashed = first is not None and any(
            CRASH.search(l) for l in lines[first:])
        if crashed and not failure:
            print("judge: the kernel crashed after the test's first '!!!', "
                  "before its verdict: counted as caught (the crash is in "
                  "the last console lines)")
        ok = (bool(eqs_bangs) and not success and
              (not args.error or bool(wanted)) and
              ((failure and (pc is None or
                             any("FAILURE" in l for l in pc))) or
               (crashed and not failure)))
    if timed_out:
        print("judge: QEMU TIMED OUT")
    if not ok or timed_out or (crashed and not failure):
        print("judge: last console lines:")
        for l in lines[-40:]:
            print("  | " + l)
    print(f"judge: verdict {'as expected' if ok else 'NOT as expected'} "
          f"(expected {args.expect})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
