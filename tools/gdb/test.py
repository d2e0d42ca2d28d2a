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

Last, the worked session of docs/gdb.md: the gdb commands of its marked
block are run again, as make gdb runs gdb, against a kernel booted with
the page's command line, and the block must be what they print, numbers
and addresses aside (walkthrough()).  The facts the page draws from it
(the CPU idle at the breakpoint, its counter odd and rcu_update_flag 1
after rcu_irq_enter() returns) are checked on the new output, and a
block with a wrong line must fail the comparison.

Ends with "N passed, N failed"; exit status 1 on any failure.
"""

import difflib
import os
import re
import shlex
import socket
import subprocess
import sys
import tempfile
import time

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


# docs/gdb.md's worked session: the page's block between these markers,
# and the command line the page boots (make debug CMDLINE="...").
WALK_PAGE = os.path.join(ROOT, "docs", "gdb.md")
WALK_BEGIN = "<!-- gdb-walkthrough: begin -->"
WALK_END = "<!-- gdb-walkthrough: end -->"
WALK_CMDLINE = "tests=rcu_irq_reader_on_idle_cpu"


def walk_block():
    """The page's block: the lines inside the code fence between the
    markers, or None."""
    try:
        text = open(WALK_PAGE).read()
    except OSError:
        return None
    m = re.search(re.escape(WALK_BEGIN) + r"\s*```[^\n]*\n(.*?)```\s*" +
                  re.escape(WALK_END), text, re.S)
    return m.group(1).splitlines() if m else None


def walk_normal(lines):
    """What must match: every line but gdb's thread notices (which and
    whether one is printed depends on the vCPU that stops), blank lines
    dropped, addresses, numbers and the stopped CPU's flip and mb flags
    as placeholders, runs of blanks as one."""
    out = []
    for line in lines:
        if re.match(r"\[(New Thread|Switching to Thread)", line) or \
                not line.strip():
            continue
        # rcu-cpus's flip and mb flags: where the grace period is when
        # the interrupt comes.
        if line.startswith("*"):
            line = re.sub(r" (seen|flipped) +(done|needed) ", " FLIP MB ",
                          line)
        line = re.sub(r"0x[0-9a-f]+", "0x?", line)
        line = re.sub(r"\d+", "N", line)
        out.append(" ".join(line.split()))
    return out


def walk_gdb_argv(port):
    """make gdb's gdb command (make -n gdb), in batch mode, on port."""
    p = subprocess.run(["make", "-n", "--no-print-directory", "gdb"],
                       cwd=ROOT, capture_output=True, text=True)
    cmd = [l for l in p.stdout.replace("\\\n", " ").splitlines()
           if l.startswith("gdb ")]
    if len(cmd) != 1:
        return None
    argv = [a.replace("localhost:1234", "localhost:%d" % port)
            for a in shlex.split(cmd[0])]
    return argv[:1] + ["-nx", "-batch"] + argv[1:]


def walk_rows(lines):
    """rcu-cpus's row of the stopped CPU ('*'), each time it is printed:
    [(dynticks, upd, idle)]."""
    rows = []
    for line in lines:
        f = line[1:].split()
        if line.startswith("*") and len(f) >= 10:
            rows.append((int(f[1]), int(f[3]), f[9]))
    return rows


def walk_compare(page, got):
    """[] if the page's block is what gdb printed, else a diff."""
    want, have = walk_normal(page), walk_normal(got)
    if want == have:
        return []
    return list(difflib.unified_diff(want, have, "docs/gdb.md", "gdb now",
                                     lineterm="", n=1))[:20]


def walkthrough(kernel, logdir):
    """Run docs/gdb.md's session again; "ok"/"not ok" lines."""
    out = []
    done = []

    def report(ok, what, detail=()):
        done.append(ok)
        out.append("%sok %d - gdb.md: %s" % ("" if ok else "not ",
                                             len(done), what))
        out.extend("#   " + d for d in detail)

    block = walk_block()
    if not block:
        report(False, "no block between %s and %s" % (WALK_BEGIN, WALK_END))
        return out
    page = open(WALK_PAGE).read()
    report('make debug CMDLINE="%s"' % WALK_CMDLINE in page,
           'the page boots make debug CMDLINE="%s"' % WALK_CMDLINE)
    cmds = [l[len("(gdb) "):] for l in block if l.startswith("(gdb) ")]
    port = free_port()
    argv = walk_gdb_argv(port)
    if not argv or not cmds:
        report(False, "no make gdb command (%s) or no (gdb) line" % argv)
        return out
    script = os.path.join(logdir, "gdb-walkthrough.gdb")
    with open(script, "w") as f:
        for c in cmds:
            # gdb -batch shows no prompt: print it, as the page does.
            f.write("echo (gdb) %s\\n\n%s\n" % (
                c.replace("\\", "\\\\").replace('"', '\\"'), c))
    qemu = qemu_cmd(os.environ.get("ACCEL") or "tcg", None, CPUS,
                    ["-kernel", kernel, "-append", WALK_CMDLINE, "-S",
                     "-gdb", f"tcp:127.0.0.1:{port}"])
    with open(os.path.join(logdir, "gdb-walkthrough-console.log"),
              "w") as con:
        q = subprocess.Popen(qemu, stdout=con, stderr=subprocess.STDOUT,
                             stdin=subprocess.DEVNULL)
        try:
            # QEMU listens within a second; gdb retries nothing.
            time.sleep(1)
            g = subprocess.run(argv + ["-x", script], cwd=ROOT,
                               capture_output=True, text=True,
                               timeout=TIMEOUT)
            got = (g.stdout + g.stderr).splitlines()
        except subprocess.TimeoutExpired:
            got = ["gdb timed out after %d s" % TIMEOUT]
        finally:
            q.kill()
            q.wait()
    # gdb's goodbye, after the page's last command, is not shown there.
    got = [l for l in got if not l.startswith("[Inferior 1 (process")]
    with open(os.path.join(logdir, "gdb-walkthrough.log"), "w") as f:
        f.write("\n".join(got) + "\n")
    diff = walk_compare(block, got)
    report(not diff, "its block is what the %d commands print now "
           "(build/logs/gdb-walkthrough.log)" % len(cmds), diff)
    rows = walk_rows(got)
    report(len(rows) == 2 and rows[0][0] % 2 == 0 and rows[0][1:] ==
           (0, "yes") and rows[1] == (rows[0][0] + 1, 1, "no"),
           "stopped in rcu_irq_enter() on an idle CPU (counter even, flag "
           "0), and after finish counter + 1, odd, flag 1: %s" % rows)
    # The comparison can fail: the same output against the page's block
    # with the stopped CPU shown busy at the breakpoint.
    wrong = list(block)
    at = [i for i, l in enumerate(wrong) if l.startswith("*")][:1]
    if at:
        wrong[at[0]] = wrong[at[0]].replace(" yes ", " no  ")
    report(bool(at) and walk_compare(wrong, got) != [],
           "self-test: a block whose first stopped row says idle 'no' "
           "does not match")
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
    out += "\n" + "\n".join(walkthrough(kernel, logdir))
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
