# SPDX-License-Identifier: GPL-2.0
"""Judging a dynrcu console: its KTAP results, QEMU's exit status, the
CPU count, and the kernel's first error line.

A pass needs: a "KTAP version 1" line, a plan "1..N", a result for every
test 1..N in order, no "not ok", no "!!!" line, and QEMU exiting with 33
(isa-debug-exit 0x10).
"""

import re

PASS_STATUS = 33
# Lines by which the kernel says something is wrong: the first one is the
# run's failure reason (the kernel's panic_on_warn ends the run there).
FAILURE_SIGNAL = (r"WARNING:|!!!|Kernel panic|EXCEPTION|^not ok |"
                  r"rcu: INFO: |INFO: task .* blocked|hard LOCKUP|"
                  r"cmdline: error|End of test: FAILURE")
# The kernel ends the run at these (panic_on_warn): all but "not ok", after
# which KTAP goes on to the next test.
FATAL_SIGNAL = FAILURE_SIGNAL.replace(r"^not ok |", "")
assert FATAL_SIGNAL != FAILURE_SIGNAL


def judge_ktap(text, status):
    """Return a list of problems; empty means the run passed."""
    problems = []
    lines = text.splitlines()
    if "KTAP version 1" not in lines:
        problems.append("no 'KTAP version 1' line")
    plans = [l for l in lines if re.fullmatch(r"1\.\.\d+", l)]
    if not plans:
        problems.append("no KTAP plan")
    else:
        planned = int(plans[0][3:])
        results = [re.fullmatch(r"(not )?ok (\d+) (\S+)( #.*)?", l)
                   for l in lines]
        results = [m for m in results if m]
        nums = [int(m.group(2)) for m in results]
        if nums != list(range(1, planned + 1)):
            problems.append(f"planned 1..{planned}, got results {nums}")
        for m in results:
            if m.group(1):
                problems.append(f"not ok {m.group(2)} {m.group(3)}")
        if planned == 0:
            problems.append("plan 1..0: no test ran")
    for l in lines:
        if "!!!" in l:
            problems.append(f"error line: {l.strip()}")
            break
    if status != PASS_STATUS:
        problems.append(f"QEMU exit status {status}, expected {PASS_STATUS}")
    return problems


def first_error(text):
    """(guest seconds or None, line) of the first failure line, or None.
    A line without a printk timestamp takes the last one before it."""
    last = None
    for line in text.splitlines():
        ts = re.match(r"\[\s*(\d+\.\d+)\]", line)
        if ts:
            last = float(ts.group(1))
        if re.search(FAILURE_SIGNAL, line):
            return last, line.strip()
    return None


def check_cpus(text, cpus):
    """A kernel that leaves CPUs off passes every test on the rest: say
    so.  Nothing to say if the kernel stopped before bringing them up."""
    m = re.search(r"smp: brought up (\d+) CPUs", text)
    if m and int(m.group(1)) != cpus:
        return [f"the kernel brought up {m.group(1)} CPUs of the {cpus} "
                f"QEMU was given"]
    if not m and "KTAP version 1" in text:
        return ["no 'smp: brought up N CPUs' line"]
    return []


def failure_reason(text, status, limit, events, cpus):
    """The problems of a failed run, first the kernel's first error line
    (with its guest and wall time), then the harness's own findings.
    status None: the run timed out after limit seconds; events: see
    tools.qemu.run_qemu()."""
    problems = [f"timeout after {limit} s"] if status is None and \
        not events.get("stopped") else judge_ktap(text, status)
    problems += check_cpus(text, cpus)
    first = first_error(text)
    if first:
        guest, line = first
        when = [f"guest {guest:.2f} s"] if guest is not None else []
        if "first_error_wall" in events and re.search(FATAL_SIGNAL, line):
            when.append(f"wall {events['first_error_wall']:.1f} s")
        problems.insert(0, f"first error ({', '.join(when)}): {line}")
    return problems
