#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Boot dynrcu scenarios in QEMU and judge their KTAP output.

A scenario file holds "key: value" lines (and # comments):
  cpus:     number of vCPUs (required)
  cmdline:  kernel command line (default: empty, the default suite)
  timeout:  seconds for 4 CPUs under TCG; scaled with the CPU count (up
            to 8 times, at 32 CPUs)
  expect:   pass (default) | fail | timeout
  reason:   for expect fail/timeout, a regex the console must match:
            the run must fail *for that reason* to count as caught
  accel:    any (default) | tcg | kvm: where the scenario may run
  boot:     auto (default) | grub | direct: grub boots the ISO through
            SeaBIOS and GRUB (multiboot2); direct gives QEMU the ELF with
            -kernel (PVH).  auto is direct: it skips SeaBIOS's CD boot,
            GRUB and an ISO per command line (about 0.6 s of CPU a boot
            under TCG, 45 s of wall under this machine's KVM); smp4 and
            tree-smp4 say grub, so make test always boots the ISO too
  desc:     one line saying what the scenario is for
  alone:    no (default) | yes: with --jobs above 1, boot it by itself,
            after the others (a test that needs the host's cores, such as
            the store-buffering litmus test)

A pass needs: a "KTAP version 1" line, a plan "1..N", a result for every
test 1..N in order, no "not ok", no "!!!" line, and QEMU exiting with 33
(isa-debug-exit 0x10).  Anything else, a timeout included, is a failure,
reported with the last console lines.  The run ends with
"N passed, N failed".

Run from the repository root: python3 -m tests.harness [options] SCN...
This file is the scenario command line; booting QEMU, the KVM probe, the
monitor post-mortem, the symbolizer and the KTAP judge are in tools/
(qemu.py, accel.py, monitor.py, symbolize.py, ktap.py).
"""

import argparse
import os
import re
import sys
import threading
import time
import traceback

if not __package__:
    sys.exit("harness: run it from the repository root as "
             "'python3 -m tests.harness ...'")
from tools.accel import pick_accel  # noqa: E402
from tools.ktap import check_cpus, failure_reason, judge_ktap  # noqa: E402
from tools.qemu import (BUILD, MAX_CPUS, boot_args, qemu_cmd,  # noqa: E402
                        run_qemu, tail)
# Also used through this module by tests/mutants/run.py.
from tools.ktap import FAILURE_SIGNAL, first_error  # noqa: E402,F401

KEYS = {"cpus", "cmdline", "timeout", "expect", "reason", "accel", "desc",
        "boot", "alone"}


PRINT_LOCK = threading.Lock()
BIG_CPUS = 32


class ScenarioError(Exception):
    pass


def parse_scenario(path):
    sc = {"cmdline": "", "timeout": "60", "expect": "pass", "accel": "any"}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if ":" not in line:
                raise ScenarioError(f"{path}:{n}: expected 'key: value'")
            key, val = (s.strip() for s in line.split(":", 1))
            if key not in KEYS:
                raise ScenarioError(f"{path}:{n}: unknown key '{key}'")
            sc[key] = val
    sc["name"] = os.path.splitext(os.path.basename(path))[0]
    try:
        sc["cpus"] = int(sc["cpus"])
        sc["timeout"] = int(sc["timeout"])
    except KeyError:
        raise ScenarioError(f"{path}: missing 'cpus'")
    except ValueError as e:
        raise ScenarioError(f"{path}: not a number: {e}")
    if not 1 <= sc["cpus"] <= MAX_CPUS:
        raise ScenarioError(f"{path}: cpus must be 1..{MAX_CPUS}")
    if sc["expect"] not in ("pass", "fail", "timeout"):
        raise ScenarioError(f"{path}: expect must be pass, fail or timeout")
    if sc["expect"] != "pass" and "reason" not in sc:
        raise ScenarioError(f"{path}: expect {sc['expect']} needs a reason")
    if sc["accel"] not in ("any", "tcg", "kvm"):
        raise ScenarioError(f"{path}: accel must be any, tcg or kvm")
    if sc.setdefault("alone", "no") not in ("yes", "no"):
        raise ScenarioError(f"{path}: alone must be yes or no")
    sc.setdefault("boot", "auto")
    if sc["boot"] not in ("auto", "grub", "direct"):
        raise ScenarioError(f"{path}: boot must be auto, grub or direct")
    return sc


def boot_mode(sc, accel):
    return "direct" if sc["boot"] == "auto" else sc["boot"]


def timeout_for(sc, accel, mode):
    # TCG runs every vCPU on 2 host cores: time grows with the CPU count,
    # up to 32; beyond, the tests sample the CPUs they drive, and idle
    # vCPUs cost the host nothing.
    t = sc["timeout"] * max(1.0, min(sc["cpus"], 32) / 4)
    if accel == "kvm" and mode == "grub":
        t += 90        # GRUB's real-mode code is slow under this KVM
    return int(t)


def boot(sc, kernel, accel, log):
    """Boot kernel once as scenario sc says (cpus, cmdline, timeout, boot
    mode): (exit status or None on timeout, console text, the timeout
    used, the boot mode, wall seconds, events: see run_qemu())."""
    mode = boot_mode(sc, accel)
    iso, extra = boot_args(kernel, sc["cmdline"], mode)
    limit = timeout_for(sc, accel, mode)
    t0 = time.monotonic()
    # A run told to go on past its first error is not cut short.
    events = {"no_grace": bool(re.search(
        r"\bpanic_on_(warn|rcu_stall)=(0|off|n)\b", sc["cmdline"]))}
    status, text = run_qemu(qemu_cmd(accel, iso, sc["cpus"], extra), limit,
                            log, kernel=kernel, events=events)
    return status, text, limit, mode, time.monotonic() - t0, events


def run_scenario(sc, kernel, accel):
    """Boot scenario sc and judge it: True if it did what it expects.  The
    verdict is printed in one piece: with --jobs, scenarios end at once."""
    ok, lines = judge_scenario(sc, kernel, accel)
    with PRINT_LOCK:
        print("\n".join(lines), flush=True)
    return ok


def judge_scenario(sc, kernel, accel):
    os.makedirs(os.path.join(BUILD, "logs"), exist_ok=True)
    log = os.path.join(BUILD, "logs", sc["name"] + ".log")
    status, text, limit, mode, secs, events = boot(sc, kernel, accel, log)
    head = f"{sc['name']} ({sc['cpus']} CPUs, {accel}, {mode}, " \
        f"{secs:.1f} s, CPU {events.get('cpu', 0):.1f} s)"
    problems = failure_reason(text, status, limit, events, sc["cpus"])
    if sc["expect"] == "pass":
        if not problems:
            return True, [f"PASS {head}"]
        return False, [f"FAIL {head}: " + "; ".join(problems[:5]),
                       tail(text)]
    # Expected failure: it must fail, in the expected way, for the reason.
    m = re.search(sc["reason"], text, re.M)
    if sc["expect"] == "timeout" and status is not None:
        return False, [f"FAIL {head}: expected a timeout, but QEMU exited "
                       f"{status}", tail(text)]
    if not problems:
        return False, [f"FAIL {head}: expected a failure, but the run "
                       "passed"]
    if not m:
        return False, [f"FAIL {head}: failed, but not for the expected "
                       f"reason /{sc['reason']}/: " +
                       "; ".join(problems[:3]), tail(text)]
    return True, [f"PASS {head}: failed, as expected, because: "
                  f"{' / '.join(m.group(0).strip().splitlines())} "
                  f"({problems[0]})"]


def run_jobs(scenarios, jobs, kernel, accel):
    """Boot scenarios, jobs at a time, each worker taking the first one it
    may start: at most one of more than BIG_CPUS vCPUs at once (two such
    boots side by side took 120 s each instead of 45 s: bring-up runs
    every vCPU thread).  The verdicts, True or False, in any order."""
    pending, results = list(scenarios), []
    state = {"big": False}
    cond = threading.Condition()

    def worker():
        while True:
            with cond:
                while True:
                    if not pending:
                        return
                    sc = next((x for x in pending if x["cpus"] <= BIG_CPUS
                               or not state["big"]), None)
                    if sc:
                        break
                    cond.wait()
                pending.remove(sc)
                big = sc["cpus"] > BIG_CPUS
                state["big"] |= big
            try:
                ok = run_scenario(sc, kernel, accel)
            except Exception:       # counted as a failure, not lost
                with PRINT_LOCK:
                    print(f"FAIL {sc['name']}: the harness raised:\n"
                          + traceback.format_exc(), flush=True)
                ok = False
            with cond:
                results.append(ok)
                if big:
                    state["big"] = False
                cond.notify_all()

    threads = [threading.Thread(target=worker) for _ in range(jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kernel", default=os.path.join(BUILD, "kernel.elf"))
    ap.add_argument("--run", action="store_true",
                    help="boot once with the console live (make run)")
    ap.add_argument("--gdb", action="store_true",
                    help="with --run: wait for gdb on :1234 (-s -S)")
    ap.add_argument("--cpus", type=int, default=4)
    ap.add_argument("--cmdline", default="")
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--jobs", type=int, default=1,
                    help="scenarios booted at once (default 1); each "
                    "result is printed as it comes")
    ap.add_argument("scenarios", nargs="*")
    args = ap.parse_args()
    if not os.path.exists(args.kernel):
        sys.exit(f"harness: no kernel at {args.kernel}: run make first")
    os.makedirs(os.path.join(BUILD, "logs"), exist_ok=True)
    accel = pick_accel(args.kernel)

    if args.run:
        if not 1 <= args.cpus <= MAX_CPUS:
            sys.exit(f"harness: SMP={args.cpus}: expected 1..{MAX_CPUS}")
        # make run/debug: the ISO, as users boot it; direct under KVM.
        iso, extra = boot_args(args.kernel, args.cmdline,
                               "direct" if accel == "kvm" else "grub")
        extra += ["-s", "-S"] if args.gdb else []
        cmd = qemu_cmd(accel, iso, args.cpus, extra)
        print("harness: " + " ".join(cmd), flush=True)
        if args.gdb:
            print("harness: waiting for gdb: run 'make gdb' in another "
                  "terminal", flush=True)
        os.makedirs(os.path.join(BUILD, "logs"), exist_ok=True)
        status, text = run_qemu(cmd, args.timeout,
                                os.path.join(BUILD, "logs", "run.log"),
                                live=True, kernel=args.kernel)
        if status is None:
            print(f"\nharness: timeout after {args.timeout} s; last lines:")
            print(tail(text))
            return 1
        problems = judge_ktap(text, status) + check_cpus(text, args.cpus)
        print(f"\nharness: QEMU exited {status}: "
              + ("pass" if not problems else "; ".join(problems[:5])))
        ok = len(re.findall(r"^ok \d+ ", text, re.M))
        skipped = len(re.findall(r"^ok \d+ .*# SKIP", text, re.M))
        bad = len(re.findall(r"^not ok \d+ ", text, re.M))
        print(f"{ok} passed, {bad} failed"
              + (f" ({skipped} of the passed skipped)" if skipped else ""))
        return 0 if not problems else 1

    if not args.scenarios:
        sys.exit("harness: no scenario files given")
    try:
        scenarios = [parse_scenario(p) for p in args.scenarios]
    except (ScenarioError, OSError) as e:
        sys.exit(f"harness: {e}")
    if args.jobs < 1:
        sys.exit(f"harness: --jobs {args.jobs}: expected 1 or more")
    runnable = []
    for sc in scenarios:
        if sc["accel"] != "any" and sc["accel"] != accel:
            print(f"SKIP {sc['name']}: needs accel {sc['accel']}")
        else:
            runnable.append(sc)
    # --jobs at a time, those with the most CPUs first (they take longest:
    # started last, one would leave the other jobs idle at the end);
    # "alone: yes" ones last, one by one, once nothing else of this run is
    # booted beside them.  With --jobs 1, in the order given.
    shared = [sc for sc in runnable if sc["alone"] == "no" or args.jobs == 1]
    if args.jobs > 1:
        shared.sort(key=lambda sc: -sc["cpus"])
    alone = [sc for sc in runnable if sc not in shared]
    results = run_jobs(shared, args.jobs, args.kernel, accel)
    results += [run_scenario(sc, args.kernel, accel) for sc in alone]
    passed = results.count(True)
    failed = len(results) - passed
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
