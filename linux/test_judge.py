#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The console judge (judge-console.py) against consoles with one fault
each: every fault must turn a passing console into a failing one, and the
clean console must pass (a checker that cannot fail is a defect).  Needs
no kernel: the consoles are written here.  Ends "N passed, N failed".
"""
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
JUDGE = os.path.join(HERE, "judge-console.py")

GOOD = """[    1.412650] rcu-torture:--- Start of test: nreaders=3 eqs_readers=0x7
[   11.696691] rcu-torture: rtc: 00000000ab ver: 426 tfle: 0 rta: 427
[   11.697000] rcu-torture: eqs: 6015/6018 5837/5842 5532/5769 aimed: 2858 polled: 1 exits: 17384/0
[   21.942465] rcu-torture: rtc: 00000000ab ver: 1157 tfle: 0 rta: 1158
[   32.172987] rcu-torture: rtc: 0000000000 VER: 1946 tfle: 0 rta: 1946
[   33.467893] rcu-torture:--- End of test: SUCCESS: nreaders=3 eqs_readers=0x7
"""
BAD = """[    1.412650] rcu-torture:--- Start of test: nreaders=3 eqs_readers=0x7
[    3.000308] rcu-torture:!!! Expedited grace period ended under a softirq reader on CPU 0
[    3.100000] rcu-torture:--- End of test: FAILURE: nreaders=3
"""
# The statistics line as the series prints it, with the not-NMI count.
GOOD_NMI = GOOD.replace("exits: 17384/0", "not-NMI: 0")
WARN = "[    1.5] WARNING: CPU: 0 PID: 0 at kernel/rcu/rcutorture.c:2092 rcu_torture_one_read+0x71/0x639\n"

# EQS02 (nohz_full CPUs in user mode, tracepoint readers): its .require
# wants readers through the user-exit path and at each tracepoint but
# tick_stop (these guests' tick never stops: no clocksource but jiffies).
with open(os.path.join(HERE, "scenarios", "EQS02.require")) as f:
    EQS02_REQUIRE = f.read()
EQS02_GOOD = GOOD.replace(
    "polled: 1 exits: 17384/0",
    "polled: 0 not-NMI: 0 user: 2714\n"
    "[   11.697001] rcu-torture: tp: irq_handler_entry: 4927 "
    "irq_handler_exit: 4926 softirq_entry: 11494 softirq_exit: 11342 "
    "tick_stop: 0")

# (name, console, --expect, extra arguments, verdict wanted: True = pass)
CASES = [
    ("clean console passes", GOOD, "pass", [], True),
    ("a '!!!' beside SUCCESS fails",
     GOOD.replace("[   33.467893]", "[   33.0] rcu-torture: !!! Reader Pipe:  1 2 3\n"
                  "[   33.467893]"), "pass", [], False),
    ("ver: stalled mid-run fails",
     GOOD.replace("ver: 1157", "ver: 426"), "pass", [], False),
    ("ver: stalled in the last interval fails",
     GOOD.replace("[   32.172987]", "[   31.0] rcu-torture: rtc: 00000000ab "
                  "ver: 1157 tfle: 0 rta: 1158\n[   32.172987]"), "pass", [],
     False),
    # An EQS05 hunt chunk of 2026-12-07: the last "ver:" line fell in
    # the writer's last stutter pause, so the two final "VER:" lines
    # (the stats kthread's and cleanup's) repeat its figure.
    ("the final VER: lines may repeat the last ver:",
     GOOD.replace("VER: 1946 tfle: 0 rta: 1946",
                  "VER: 1157 tfle: 0 rta: 1158\n[   32.2] rcu-torture: "
                  "rtc: 0000000000 VER: 1157 tfle: 0 rta: 1158"), "pass", [],
     True),
    # An arm64 EQS03 boot of 2026-12-07 (CPU hotplug every 100
    # jiffies): the stats kthread's first line came 21 s into the test,
    # so one "ver:" line, then the final "VER:" above it.
    ("one ver: line and a final VER: above it passes",
     re.sub(r"\[   11.696691\][^\n]*\n", "", GOOD), "pass", [], True),
    ("one ver: line and a final VER: no higher fails",
     re.sub(r"\[   11.696691\][^\n]*\n", "", GOOD).replace(
         "VER: 1946", "VER: 1157"), "pass", [], False),
    ("no ver: line, only the final VER:, fails",
     re.sub(r"\[   (11.696691|21.942465)\][^\n]*\n", "", GOOD), "pass",
     [], False),
    ("an expedited stall fails",
     GOOD.replace("[   21.942465]", "[   20.0] rcu: INFO: rcu_preempt "
                  "detected expedited stalls on CPUs/tasks: { 1-... }\n"
                  "[   21.942465]"), "pass", [], False),
    ("an unknown NMI fails",
     GOOD.replace("[   21.942465]", "[   20.0] Uhhuh. NMI received for "
                  "unknown reason 2c on CPU 1.\n[   20.1] Dazed and "
                  "confused, but trying to continue\n[   21.942465]"),
     "pass", [], False),
    ("x86's slow-NMI-handler line of 300 ms fails",
     GOOD.replace("[   21.942465]", "[   20.0] INFO: NMI handler "
                  "(nmi_cpu_backtrace_handler) took too long to run: "
                  "300.135 msecs\n[   21.942465]"), "pass", [], False),
    ("x86's slow-NMI-handler line of 15.5 ms (a preempted vCPU) passes",
     GOOD.replace("[   21.942465]", "[   20.0] INFO: NMI handler "
                  "(nmi_cpu_backtrace_handler) took too long to run: "
                  "15.523 msecs\n[   21.942465]"), "pass", [], True),
    ("x86's slow-NMI-handler line of 167 ms (a loaded host) passes",
     GOOD.replace("[   21.942465]", "[   20.0] INFO: NMI handler "
                  "(nmi_cpu_backtrace_handler) took too long to run: "
                  "167.167 msecs\n[   21.942465]"), "pass", [], True),
    ("a starved grace-period kthread fails",
     GOOD.replace("[   21.942465]", "[   20.0] rcu: rcu_preempt kthread "
                  "starved for 2502 jiffies!\n[   21.942465]"),
     "pass", [], False),
    ("no SUCCESS line fails", GOOD.replace("End of test: SUCCESS", ""),
     "pass", [], False),
    ("a required line present passes", GOOD, "pass",
     ["--require", "polled: [1-9]"], True),
    ("a required line absent fails",
     GOOD.replace("polled: 1", "polled: 0"), "pass",
     ["--require", "polled: [1-9]"], False),
    ("EQS02's requirements met pass", EQS02_GOOD, "pass",
     ["--require", EQS02_REQUIRE], True),
    ("EQS02: no reader through the user-exit path fails",
     EQS02_GOOD.replace("user: 2714", "user: 0"), "pass",
     ["--require", EQS02_REQUIRE], False),
] + [
    (f"EQS02: no reader at {tp} fails",
     re.sub(f"{tp}: [0-9]+", f"{tp}: 0", EQS02_GOOD), "pass",
     ["--require", EQS02_REQUIRE], False)
    for tp in ("irq_handler_entry", "irq_handler_exit", "softirq_entry",
               "softirq_exit")
] + [
    ("a mutant's FAILURE with '!!!' is caught", BAD, "fail", [], True),
    ("a mutant caught for its own reason", BAD, "fail",
     ["--error", "Expedited grace period ended under"], True),
    ("a mutant caught for another reason is not",
     BAD, "fail", ["--error", "Normal grace period ended under"], False),
    ("a hang after the mutant's own warning is a catch",
     GOOD.split("\n")[0] + "\n" + WARN, "fail",
     ["--error", "at kernel/rcu/rcutorture.c:[0-9]+ rcu_torture_one_read"],
     True),
    ("a crash with no error line is not a catch",
     "[    2.0] Oops: 0010 [#1] PREEMPT SMP\n", "fail", [], False),
    ("a warning beside a clean SUCCESS is a failed run, so a catch",
     GOOD.replace("[   21.942465]", WARN + "[   21.942465]"), "fail",
     ["--error", "rcu_torture_one_read"], True),
    ("a run stopped after the mutant's error line is a catch",
     "\n".join(BAD.split("\n")[:2]) + "\n", "fail",
     ["--stopped", "--error", "Expedited grace period ended under"], True),
    ("a run stopped after another error line is not",
     "\n".join(BAD.split("\n")[:2]) + "\n", "fail",
     ["--stopped", "--error", "Normal grace period ended under"], False),
    ("a matching line in a clean run is not a catch",
     GOOD, "fail", ["--error", "eqs: "], False),
] + [
    # arm64's own badness lines, each injected into a clean console.
    ("arm64: " + line.split("] ", 1)[1][:40] + " fails",
     GOOD.replace("[   21.942465]", line + "\n[   21.942465]"), "pass", [],
     False)
    for line in [
        "[   20.0] Internal error: Oops - BUG: 00000000f2000800 [#1] PREEMPT SMP",
        "[   20.0] Unhandled 64-bit el1h sync exception on CPU1, ESR "
        "0x0000000096000004 -- DABT (current EL)",
        "[   20.0] SError Interrupt on CPU2, code 0x00000000be000000 -- SError",
        "[   20.0] CPU3: Unknown IPI message 0x9",
        "[   20.0] Insufficient stack space to handle exception!",
        "[   20.0] CPU2: failed to come online",
        "[   20.0] CPU1: may not have shut down cleanly",
    ]
] + [
    # --nmi-readers: NMI requests sent, all run as NMIs; --nmi-from-eqs:
    # some found an EQS.
    ("arm64: NMI readers that ran as NMIs pass",
     GOOD_NMI, "pass", ["--nmi-readers", "--nmi-from-eqs"], True),
    ("arm64: an NMI request that arrived as an IRQ fails",
     GOOD_NMI.replace("not-NMI: 0", "not-NMI: 3"), "pass",
     ["--nmi-readers"], False),
    ("arm64: no NMI request sent fails",
     GOOD_NMI.replace("5532/5769", "0/0"), "pass",
     ["--nmi-readers"], False),
    ("arm64: no NMI reader from an EQS fails --nmi-from-eqs",
     GOOD_NMI.replace("5532/5769", "0/5769"), "pass",
     ["--nmi-from-eqs"], False),
    ("arm64: no NMI reader from an EQS passes --nmi-readers alone",
     GOOD_NMI.replace("5532/5769", "0/5769"), "pass",
     ["--nmi-readers"], True),
    ("arm64: no eqs: line fails",
     "\n".join(l for l in GOOD_NMI.split("\n") if "eqs:" not in l),
     "pass", ["--nmi-readers"], False),
    ("two required lines, both present, pass", GOOD_NMI, "pass",
     ["--require", "polled: [1-9]", "--require", "eqs: [1-9]"], True),
    ("two required lines, one absent, fail", GOOD_NMI, "pass",
     ["--require", "polled: [1-9]", "--require", "Pseudo-NMIs enabled"],
     False),
]

# (name, console, --error, the "caught by:" label wanted): a failing run
# names what caught it, the series' check or one that was there before.
LABELS = [
    ("the series' check is labelled 'series'", BAD,
     "grace period ended", "series"),
    ("an existing warning is labelled by its function",
     BAD.replace("[    3.000308]", WARN.rstrip("\n") + "\n[    3.000308]"),
     "WARNING:|grace period ended",
     "kernel: WARNING in rcu_torture_one_read() (kernel/rcu/rcutorture.c)"),
    ("lockdep's RCU check is labelled as the kernel's", GOOD.replace(
        "[   11.696691]", "[    5.0] =============================\n"
        "[    5.1] WARNING: suspicious RCU usage\n[   11.696691]"),
     "suspicious RCU usage", "kernel: suspicious RCU usage"),
    ("another rcutorture failure is labelled 'rcutorture'",
     GOOD.replace("[   33.467893]", "[   33.0] rcu-torture: !!! Reader "
                  "Pipe:  1 2 3\n[   33.467893]"), "!!!", "rcutorture"),
]


def main():
    npass = nfail = 0
    with tempfile.TemporaryDirectory() as d:
        # linux/rates.py: three boots of 60 s, one caught 10 s into its
        # test, one that timed out after 30 s of guest time (the judge's
        # figure), one whose judge quoted its console up to 45.5 s: 1
        # failure in 85.5 s watched, 42.1 per guest hour, and the exact
        # 95% interval of a count of 1 (0.0253 to 5.57) over 85.5 s.
        files = []
        for i, body in enumerate(["judge: first error 10.00 s after Start "
                                  "of test\njudge: caught by: series\n",
                                  "judge: stats\njudge: test time reached "
                                  "30.00 s\n",
                                  "judge: last console lines:\n"
                                  "  | [   45.500000] rcu-torture: x\n"]):
            files.append(os.path.join(d, f"j{i}.txt"))
            with open(files[-1], "w") as f:
                f.write(body)
        # A boot caught before rcutorture's start and ended there (no
        # "first error ... after Start" line): "boot", no time watched.
        boot = os.path.join(d, "jboot.txt")
        with open(boot, "w") as f:
            f.write("judge: caught by: kernel: lockdep\n")
        for name, args, want in [
                ("a failure per guest time watched, with its 95% interval",
                 files, "1|42.1|1.07–235|10.00 - -|series (1)"),
                ("a catch before the test is 'boot', with no time watched",
                 [files[0], boot],
                 "2|720|87.2–2.6e+03|10.00 boot|kernel: lockdep (1); "
                 "series (1)")]:
            r = subprocess.run([sys.executable,
                                os.path.join(HERE, "rates.py"), "60", *args],
                               capture_output=True, text=True)
            if r.stdout.strip() == want:
                npass += 1
                print(f"ok - rates.py: {name}")
            else:
                nfail += 1
                print(f"not ok - rates.py: {name}: wanted '{want}', got "
                      f"'{r.stdout.strip()}' {r.stderr.strip()}")
        r = subprocess.run([sys.executable, os.path.join(HERE, "rates.py"),
                            "0", *files], capture_output=True, text=True)
        if r.returncode == 2 and "SECONDS" in r.stderr:
            npass += 1
            print("ok - rates.py: a test length of 0 is refused")
        else:
            nfail += 1
            print(f"not ok - rates.py 0: status {r.returncode}, {r.stderr}")
        for name, text, error, want in LABELS:
            log = os.path.join(d, "console.log")
            with open(log, "w") as f:
                f.write(text)
            r = subprocess.run([sys.executable, JUDGE, "--expect", "fail",
                                "--error", error, log],
                               capture_output=True, text=True)
            got = re.search(r"^judge: caught by: (.*)$", r.stdout, re.M)
            if got and got.group(1) == want:
                npass += 1
                print(f"ok - {name}")
            else:
                nfail += 1
                print(f"not ok - {name}: wanted '{want}', got "
                      f"'{got.group(1) if got else None}'")
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
