#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tests of linux/hunt.py's parts that need no boot: the console summary,
the table's markers, the state file and the configuration list.  Ends
with "N passed, N failed"."""
import fcntl
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    "hunt", os.path.join(HERE, "hunt.py"))
hunt = importlib.util.module_from_spec(spec)
spec.loader.exec_module(hunt)
judge = hunt.load_judge()

CLEAN = """\
[    1.300000] rcu-torture:--- Start of test: nreaders=3
[   11.300000] rcu-torture: rtc: 0000000000000000 VER: 120 tfle: 0
[   11.300001] rcu-torture: eqs: 10/12 9/9 7/8 aimed: 3 polled: 0 not-NMI: 0
[   61.300000] rcu-torture: rtc: 0000000000000000 VER: 900 tfle: 0
[   61.300001] rcu-torture: eqs: 50/52 40/41 30/33 aimed: 9 polled: 0 not-NMI: 0
[   61.400000] INFO: NMI handler (nmi_cpu_backtrace_handler) took too long to run: 3.100 msecs
[   61.500000] rcu-torture:--- End of test: SUCCESS: nreaders=3
"""
BAD = CLEAN.replace(
    "[   61.300000] rcu-torture: rtc",
    "[   30.000000] WARNING: CPU: 2 PID: 0 at kernel/rcu/tree.c:1 x\n"
    "[   30.000001] Call Trace:\n"
    "[   31.000000] WARNING: CPU: 3 PID: 0 at kernel/rcu/tree.c:1 x\n"
    "[   61.300000] rcu-torture: rtc")

results = []


def check(ok, what):
    results.append(ok)
    print(("ok   " if ok else "FAIL ") + what)


s = hunt.summarize(CLEAN, judge)
check(abs(s["guest_min"] - 1.0037) < 0.001,
      f"guest minutes from Start of test to the last line: "
      f"{s['guest_min']:.4f}")
check(s["eqs"] == "50/52 40/41 30/33", f"the last eqs counts: {s['eqs']}")
u = hunt.summarize(CLEAN.replace("not-NMI: 0\n[   61.4", "not-NMI: 0 user: "
                                 "17\n[   61.4"), judge)
check(u["eqs"] == "50/52 40/41 30/33; user: 17",
      f"a nohz_full run's user-mode count is kept: {u['eqs']}")
check(s["updates"] == 900, f"writer updates from the last rtc line: "
      f"{s['updates']}")
check(s["first_error"] == "-" and s["warnings"] == 0,
      "a clean console has no error (a short slow-NMI line is none)")
b = hunt.summarize(BAD, judge)
check(b["first_error"].startswith("[   30.000000] WARNING: CPU: 2"),
      f"the first error is the first splat line: {b['first_error'][:40]}")
check(b["warnings"] == 2, f"two WARNING lines counted: {b['warnings']}")
e = hunt.summarize("", judge)
check(e["guest_min"] == 0 and e["eqs"] == "-",
      "an empty console (QEMU never started) gives zeros, not a crash")

d = tempfile.mkdtemp(prefix="dynrcu-hunt-test-")
table = os.path.join(d, "t.md")
with open(table, "w") as f:
    f.write("# page\n\ntext\n")
hunt.append_row(table, "| r1 |")
hunt.append_row(table, "| r2 |")
t = open(table).read()
check(t.count(hunt.BEGIN) == 1 and t.index("| r1 |") < t.index("| r2 |")
      < t.index(hunt.END) and t.startswith("# page\n\ntext\n"),
      "rows go in order between the markers, added once, the page kept")
check(hunt.md_cell("a|b") == "a\\|b", "a pipe in a cell is escaped")
with open(table, "w") as f:
    f.write(hunt.END + "\n" + hunt.BEGIN + "\n")
try:
    hunt.append_row(table, "| r |")
    check(False, "markers in the wrong order are refused")
except SystemExit as ex:
    check("without" in str(ex), f"markers in the wrong order are "
          f"refused: {ex}")

state = os.path.join(d, "state.json")
check(hunt.load_state(state) == {"guest_min": {}, "chunks": 0},
      "no state file: totals start at zero")
hunt.save_state(state, {"guest_min": {"A": 1.5}, "chunks": 1})
check(hunt.load_state(state)["guest_min"] == {"A": 1.5},
      "the totals survive a save and a load")
lock = os.path.join(d, "state.lock")
hunt.add_chunk(state, lock, "A", 2.25)
st, n = hunt.add_chunk(state, lock, "B", 1.0)
check(n == 3 and hunt.load_state(state)["guest_min"] == {"A": 3.75,
                                                        "B": 1.0},
      f"a chunk's minutes add to its configuration's total, and the "
      f"chunks are counted: {hunt.load_state(state)}")
with open(state, "w") as f:
    f.write("{broken")
try:
    hunt.load_state(state)
    check(False, "a broken state file is refused")
except SystemExit as ex:
    check("unreadable" in str(ex), f"a broken state file is refused: "
          f"{str(ex)[:60]}")

cfgdir = os.path.join(d, "cfg")
os.makedirs(cfgdir)
with open(os.path.join(cfgdir, "CFLIST"), "w") as f:
    f.write("# comment\nA\nB\n")
with open(os.path.join(cfgdir, "A"), "w") as f:
    f.write("# arch: arm64\nCONFIG_SMP=y\n")
try:
    hunt.configs(cfgdir)
    check(False, "a CFLIST entry without a fragment is refused")
except SystemExit as ex:
    check("has no fragment" in str(ex), "a CFLIST entry without a "
          "fragment is refused")
with open(os.path.join(cfgdir, "B"), "w") as f:
    f.write("CONFIG_SMP=y\n")
check(hunt.configs(cfgdir) == ["A", "B"] and
      hunt.arch_of(cfgdir, "A") == "arm64" and
      hunt.arch_of(cfgdir, "B") == "x86_64",
      "CFLIST read in order, arch from '# arch:', x86_64 by default")
with open(os.path.join(cfgdir, "B.boot"), "w") as f:
    f.write("# arch: arm64\nrcutorture.eqs_readers=7\n")
check(hunt.arch_of(cfgdir, "B") == "arm64",
      "arch from a '# arch:' line of the .boot (a shared fragment)")
with open(os.path.join(cfgdir, "B.boot"), "w") as f:
    f.write("# arch: riscv\n")
try:
    hunt.arch_of(cfgdir, "B")
    check(False, "an unknown arch is refused")
except SystemExit as ex:
    check("riscv" in str(ex) and "B.boot" in str(ex),
          f"an unknown arch is refused, naming it: {str(ex)[:70]}")
lk = os.path.join(d, "lock")
with hunt.Locked(lk):
    # flock(2) locks belong to the open file: a second open of the same
    # path, as another hunt's, must not get the lock while this one has it.
    f2 = open(lk, "a")
    try:
        fcntl.flock(f2, fcntl.LOCK_EX | fcntl.LOCK_NB)
        got = True
    except BlockingIOError:
        got = False
    f2.close()
check(not got, "a hunt's lock keeps a second hunt out")
jl = os.path.join(d, "boot.txt")
with open(jl, "w") as f:
    f.write("judge: x86's slow-NMI-handler lines: 1\n"
            "judge: QEMU TIMED OUT\njudge: verdict NOT as expected\n")
check(hunt.judge_reason(jl) == "QEMU timed out",
      "a chunk that failed with no error line gives the judge's reason")
check(hunt.configs(hunt.CFGDIR)[:1] == ["EQS01"],
      "linux/hunt/CFLIST is readable and every entry has a fragment")

# linux/stock-check.sh refuses bad arguments before it builds anything,
# naming what is wrong, with exit status 2.
sc = os.path.join(HERE, "stock-check.sh")
# A tree of nobody's: a check that let bad arguments through would stop
# at "no Debian tree", never build.
stock_env = dict(os.environ, DYNRCU_LINUX_DIR=os.path.join(d, "none"))
for boots in ("0", "100", "x"):
    r = subprocess.run(["bash", sc, "HUNTRT", "x"], capture_output=True,
                       text=True, timeout=30,
                       env=dict(stock_env, DYNRCU_STOCK_BOOTS=boots))
    check(r.returncode == 2 and "want a count from 1 to 99" in r.stderr,
          f"stock-check.sh with DYNRCU_STOCK_BOOTS={boots}: exit 2, "
          f"refused (got {r.returncode}: {r.stderr.strip()[:60]})")
for args, want in ((["NOPE", "x"], "not in linux/hunt/CFLIST"),
                   (["HUNTRT", "("], "not an extended regular expression"),
                   (["HUNTA64", "x"], "arm64 configuration"),
                   (["HUNTRT", "x", "/nonexistent.patch"], "no such file"),
                   (["HUNTRT"], "usage:")):
    r = subprocess.run(["bash", sc] + args, capture_output=True, text=True,
                       timeout=30, env=stock_env)
    check(r.returncode == 2 and want in r.stderr,
          f"stock-check.sh {' '.join(args)}: exit 2, '{want}' "
          f"(got {r.returncode}: {r.stderr.strip()[:60]})")

# Backports lists (C.backports), through linux-test.sh's plan phase,
# which builds and boots nothing: a configuration with a list builds
# apart from one with the same fragment and none, one with the same list
# shares its build, and a list for CFLIST's first configuration (whose
# tree builds the mutants) or one naming a missing patch is refused.
lt = os.path.join(HERE, "linux-test.sh")
bp = os.path.join(d, "bp")
os.makedirs(bp)
bport = "linux/backports/0001-rcu-nocb-rt-rcuc-offloaded-read.patch"
for name, text in (("CFLIST", "P\nB\nC\nD\n"),
                   ("P", "CONFIG_SMP=y\n"), ("B", "CONFIG_PREEMPT=y\n"),
                   ("C", "CONFIG_PREEMPT=y\n"), ("D", "CONFIG_PREEMPT=y\n"),
                   ("B.backports", f"# why\n\n  # indented\n{bport}\n\n"),
                   ("D.backports", f"{bport}\n")):
    with open(os.path.join(bp, name), "w") as f:
        f.write(text)


def plan(scen):
    env = dict(os.environ, DYNRCU_LINUX_CFGDIR=bp,
               DYNRCU_LINUX_SCENARIOS=scen, DYNRCU_LINUX_SKIP_MUTANT="1",
               DYNRCU_LINUX_DIR=os.path.join(d, "ldir"))
    return subprocess.run(["bash", lt, "plan"], capture_output=True,
                          text=True, env=env, timeout=60)


r = plan("B C D")
check(r.returncode == 0 and
      "plan: B: kernel B, built in " in r.stdout and
      "backports: 0001-rcu-nocb-rt-rcuc-offloaded-read.patch" in r.stdout and
      "plan: C: kernel C, " in r.stdout and
      "plan: D: kernel B, " in r.stdout,
      "plan: a backports list makes a build of its own, the same list "
      f"shares it: {r.stdout.strip()[:200]}")
check("plan: C: kernel C, built in " in r.stdout and
      r.stdout.split("plan: C:")[1].split("\n")[0].endswith("backports: none"),
      "plan: a configuration without a list has no backports")
lab = hunt.config_labels(bp, ["B", "C", "D"])
check(lab == {"B": "B + 0001-rcu-nocb-rt-rcuc-offloaded-read", "C": "C",
              "D": "D + 0001-rcu-nocb-rt-rcuc-offloaded-read"},
      f"the table's rows name each configuration's backports: {lab}")
with open(os.path.join(bp, "P.backports"), "w") as f:
    f.write(f"{bport}\n")
try:
    hunt.config_labels(bp, ["B"])
    check(False, "the hunt refuses a bad backports list before building")
except SystemExit as ex:
    check("first scenario" in str(ex),
          f"the hunt refuses a bad backports list before building: "
          f"{str(ex)[:90]}")
r = plan("B")
check(r.returncode == 1 and "first scenario" in r.stdout,
      f"a list for CFLIST's first configuration is refused: "
      f"{r.stdout.strip()[:100]}")
os.remove(os.path.join(bp, "P.backports"))
with open(os.path.join(bp, "D.backports"), "w") as f:
    f.write("linux/backports/9999-missing.patch\n")
r = plan("D")
check(r.returncode == 1 and "no patch 'linux/backports/9999-missing.patch'"
      in r.stdout, f"a list naming a missing patch is refused: "
      f"{r.stdout.strip()[:100]}")

shutil.rmtree(d, ignore_errors=True)
passed = sum(results)
print(f"{passed} passed, {len(results) - passed} failed")
sys.exit(0 if passed == len(results) else 1)
