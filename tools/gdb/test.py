#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make gdb-test: the gdb helpers, checked in batch mode against a live
kernel.

Boots build/kernel.elf in QEMU (TCG, -S, gdb stub on a free local port)
with tests=rcu_sync_basic,rcu_nmi_reader_on_idle_cpu, runs gdb -batch with
tools/gdb/session_rcupreempt.py, which stops in the grace-period machine
and in an NMI handler, runs every helper, and checks their output; then
the same with rcu=tree and session_tree.py.  It also loads
broken copies of the helpers (MUTANTS below) at the same stops and
requires each to be caught, so a check that cannot fail fails the suite.

Ends with "N passed, N failed"; exit status 1 on any failure.
"""

import os
import re
import socket
import subprocess
import sys
import tempfile

from tools.qemu import ROOT, qemu_cmd

HERE = os.path.dirname(os.path.abspath(__file__))

CMDLINE = "tests=rcu_sync_basic,rcu_nmi_reader_on_idle_cpu"
# The rcu=tree helpers' session (session_tree.py); the rcu=rcupreempt
# one is session_rcupreempt.py.
TREE_CMDLINE = "rcu=tree tests=rcu_tree_blocked_reader"
CPUS = 4
TIMEOUT = 240

# (name, text in dynrcu.py, its broken replacement): each must be caught.
MUTANTS = [
    ("flip-flag-names-swapped",
     'FLIP_FLAG = {0: "seen", 1: "flipped"}',
     'FLIP_FLAG = {0: "flipped", 1: "seen"}'),
    ("rcu-cpus-reads-next-cpu",
     'rdp = sym("rcu_data")[cpu]\n            pc =',
     'rdp = sym("rcu_data")[cpu + 1]\n            pc ='),
    ("selected-cpu-off-by-one",
     "if int(areas[cpu]) == gs:\n                return cpu",
     "if int(areas[cpu]) == gs:\n                return cpu + 1"),
    ("readers-nesting-ignored",
     "if nesting == 0:\n                continue",
     "if nesting < 0:\n                continue"),
    ("gp-lists-miss-waitlist1",
     'lens += [list_len(rdp["waitlist"][i]) for i in range(stages)]',
     'lens += [list_len(rdp["waitlist"][0]) for i in range(stages)]'),
    ("idle-from-task-not-counter",
     'idle = "yes" if dyn % 2 == 0 else "no"',
     'idle = "yes" if int(pc["in_idle"]) else "no"'),
]


TREE_MUTANTS = [
    ("tree-watching-from-bit0",
     '"yes" if st & CT_RCU_WATCHING else "no"',
     '"yes" if st & 1 else "no"'),
    ("tree-cpus-reads-next-cpu",
     'ct = sym("context_tracking")[cpu]',
     'ct = sym("context_tracking")[cpu + 1]'),
    ("tree-gp-no-holder-mark",
     '"*" if int(t["rcu_blocks_gp"]) else ""',
     '""'),
]


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def make_mutants(tmp, mutants=MUTANTS):
    src = open(os.path.join(HERE, "dynrcu.py")).read()
    paths = []
    for name, old, new in mutants:
        if src.count(old) != 1:
            sys.exit(f"gdb-test: mutant {name}: its text is not in "
                     "dynrcu.py exactly once; update MUTANTS")
        p = os.path.join(tmp, name + ".py")
        with open(p, "w") as f:
            f.write(src.replace(old, new))
        paths.append(p)
    return paths


def session(kernel, logdir, cmdline, script, mutants, tag):
    """One QEMU stopped at reset and one gdb -batch running script."""
    port = free_port()
    accel = os.environ.get("ACCEL") or "tcg"
    qemu = qemu_cmd(accel, None, CPUS,
                    ["-kernel", kernel, "-append", cmdline, "-S",
                     "-gdb", f"tcp:127.0.0.1:{port}"])
    with tempfile.TemporaryDirectory() as tmp, \
            open(os.path.join(logdir, f"gdb-test{tag}-console.log"),
                 "w") as con:
        # gdb's Python is not started with -m: the repository root in
        # PYTHONPATH lets the session import tools.gdb.session, as
        # python3 -m does from the root.
        env = dict(os.environ, PYTHONPATH=ROOT,
                   DYNRCU_GDB_HELPERS=os.path.join(HERE, "dynrcu.py"),
                   DYNRCU_GDB_MUTANTS=":".join(make_mutants(tmp, mutants)),
                   DYNRCU_GDB_PORT=str(port))
        q = subprocess.Popen(qemu, stdout=con, stderr=subprocess.STDOUT,
                             stdin=subprocess.DEVNULL)
        try:
            g = subprocess.run(["gdb", "-nx", "-batch", kernel, "-x",
                                os.path.join(HERE, script)],
                               env=env, capture_output=True, text=True,
                               timeout=TIMEOUT)
            out = g.stdout + g.stderr
        except subprocess.TimeoutExpired as e:
            out = (e.stdout or b"").decode() if isinstance(
                e.stdout, bytes) else (e.stdout or "")
            out += f"\nnot ok - gdb session timed out after {TIMEOUT} s\n"
        finally:
            q.kill()
            q.wait()
    with open(os.path.join(logdir, f"gdb-test{tag}.log"), "w") as f:
        f.write(out)
    return out


def main():
    kernel = os.path.join(ROOT, "build", "kernel.elf")
    if not os.path.exists(kernel):
        sys.exit("gdb-test: no build/kernel.elf: run make first")
    logdir = os.path.join(ROOT, "build", "logs")
    os.makedirs(logdir, exist_ok=True)
    passed = failed = 0
    out = session(kernel, logdir, CMDLINE, "session_rcupreempt.py", MUTANTS,
                  "")
    out += "\n" + session(kernel, logdir, TREE_CMDLINE, "session_tree.py",
                          TREE_MUTANTS, "-tree")
    for line in out.splitlines():
        if re.match(r"(not )?ok\b", line) or line.startswith("# "):
            print(line)
        if re.match(r"ok \d+", line):
            passed += 1
        elif line.startswith("not ok"):
            failed += 1
    if passed == 0 and failed == 0:
        print("gdb-test: no results; last gdb output:")
        print("\n".join(out.splitlines()[-20:]))
        failed = 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
