#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The console judge (judge-console.py) against consoles with one fault
each: every fault must turn a passing console into a failing one, and the
clean console must pass (a checker that cannot fail is a defect).  Needs
no kernel: the consoles are written here.  Ends "N passed, N failed".
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
JUDGE = os.path.join(HERE, "judge-console.py")

GOOD = """[    2.620799] eqs-torture: --- Start of test
[    7.740603] eqs-torture: ver: 170 gps: 80 exp-gps: 56 sent: irq 1035 nmi 841
[   12.743095] eqs-torture: ver: 323 gps: 153 exp-gps: 107 sent: irq 2017 nmi 1729
[   17.729720] eqs-torture: ver: 480 gps: 222 exp-gps: 159 sent: irq 2978 nmi 2585
[   17.739720] eqs-torture: ver: 480 gps: 222 exp-gps: 159 sent: irq 2978 nmi 2585
[   17.741000] eqs-torture: --- End of test: SUCCESS
"""
BAD = """[    3.000308] eqs-torture:!!! first: CPU 1 nmi rdr, RCU not watching inside handler
[    3.100000] eqs-torture: --- End of test: FAILURE
"""

# (name, console, --expect, extra arguments, verdict wanted: True = pass)
CASES = [
    ("clean console passes", GOOD, "pass", [], True),
    ("a '!!!' beside SUCCESS fails",
     GOOD.replace("--- End", "!!! 1 x reader saw a freed element\n"
                  "[   17.741000] eqs-torture: --- End"), "pass", [], False),
    ("ver: stalled mid-run fails",
     GOOD.replace("ver: 323", "ver: 170"), "pass", [], False),
    ("an expedited stall fails",
     GOOD.replace("[   12.743095]", "[   11.0] rcu: INFO: rcu_preempt "
                  "detected expedited stalls on CPUs/tasks: { 1-... }\n"
                  "[   12.743095]"), "pass", [], False),
    ("an unknown NMI fails",
     GOOD.replace("[   12.743095]", "[   11.0] Uhhuh. NMI received for "
                  "unknown reason 2c on CPU 1.\n[   11.1] Dazed and "
                  "confused, but trying to continue\n[   12.743095]"),
     "pass", [], False),
    ("a starved grace-period kthread fails",
     GOOD.replace("[   12.743095]", "[   11.0] rcu: rcu_preempt kthread "
                  "starved for 2502 jiffies!\n[   12.743095]"),
     "pass", [], False),
    ("no SUCCESS line fails", GOOD.replace("End of test: SUCCESS", ""),
     "pass", [], False),
    ("a mutant's FAILURE with '!!!' is caught", BAD, "fail", [], True),
    ("a mutant caught for its own reason", BAD, "fail",
     ["--error", "not watching"], True),
    ("a mutant caught for another reason is not",
     BAD, "fail", ["--error", "freed element"], False),
    ("a crash after the test's own '!!!' stands in for FAILURE",
     BAD.replace("[    3.100000] eqs-torture: --- End of test: FAILURE\n",
                 "[    4.0] BUG: unable to handle page fault\n"
                 "[    4.1] Oops: 0010 [#1] PREEMPT SMP\n"),
     "fail", ["--error", "not watching"], True),
    ("a crash before any '!!!' is not a catch",
     "[    2.0] Oops: 0010 [#1] PREEMPT SMP\n", "fail", [], False),
    ("a mutant that only WARNs is not caught",
     "[    3.0] WARNING: CPU: 1 PID: 0 at kernel/rcu/tree.c:1\n"
     "[    3.1] eqs-torture: --- End of test: FAILURE\n", "fail", [], False),
]


def main():
    npass = nfail = 0
    with tempfile.TemporaryDirectory() as d:
        for name, text, expect, extra, want in CASES:
            log = os.path.join(d, "console.log")
            with open(log, "w") as f:
                f.write(text)
            r = subprocess.run([sys.executable, JUDGE, "--expect", expect,
                                *extra, log], capture_output=True, text=True)
            got = r.returncode == 0
            if got == want:
                npass += 1
                print(f"ok - {name}")
            else:
                nfail += 1
                print(f"not ok - {name}: judge said "
                      f"{'as expected' if got else 'NOT as expected'}")
                print(r.stdout[-1500:])
    print(f"{npass} passed, {nfail} failed")
    return 1 if nfail else 0


if __name__ == "__main__":
    sys.exit(main())
