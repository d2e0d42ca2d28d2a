# SPDX-License-Identifier: GPL-2.0
"""The gdb side of the rcu=rcupreempt helpers' batch test (run by
tools/gdb/test.py; what every session does is in session.py).

Runs inside gdb, attached to a QEMU that waits at reset.  Stops twice:
  1. in the NMI handler of the rcu_nmi_reader_on_idle_cpu test, inside its
     20 ms reader on a CPU that was dynticks-idle;
  2. in rcu_try_flip_waitack_needed(): the grace-period machine, with
     fliplock held by the stopped CPU, in the waitack state.
At each stop it runs every helper and checks their output against values
it reads itself with plain gdb expressions (not through the helpers).
Then it loads each broken copy of the helpers (DYNRCU_GDB_MUTANTS) at the
same stops and requires each to fail at least one check.
"""

import re

import gdb

from tools.gdb.session import (ev, finish, mutants, online, report, run,
                               session, start, stop_at, task_exprs)

FLIP = {0: "seen", 1: "flipped"}
MB = {0: "done", 1: "needed"}


def task_list():
    """Every task, walked with plain expressions."""
    return [(int(ev(t + "->pid")), ev(t + "->name").string(),
             int(ev(t + "->rcu_read_lock_nesting")))
            for t in task_exprs("all_tasks", "all_list")]


def check_cpus(quiet, me):
    """rcu-cpus against the raw per-CPU state.  me: the stopped CPU."""
    out = run("rcu-cpus").splitlines()
    ok = True
    rows = [l for l in out[1:] if l.strip()]
    ok &= report(len(rows) == len(online()),
                 "rcu-cpus: one line per online CPU (%d)" % len(online()),
                 quiet)
    for line, cpu in zip(rows, online()):
        f = line[1:].split()
        r = "rcu_data[%d]." % cpu
        want = [str(cpu), str(int(ev(r + "dynticks_progress_counter"))),
                str(int(ev(r + "rcu_dyntick_snapshot"))),
                str(int(ev(r + "rcu_update_flag"))),
                FLIP[int(ev(r + "rcu_flip_flag"))],
                MB[int(ev(r + "rcu_mb_flag"))],
                str(int(ev(r + "rcu_flipctr[0]"))),
                str(int(ev(r + "rcu_flipctr[1]"))),
                str(int(ev(r + "completed"))),
                # RCU's idea of idle: an even counter.
                "no" if int(ev(r + "dynticks_progress_counter")) & 1
                else "yes"]
        task = ev("percpu_areas[%d]->curr_task->name" % cpu).string()
        ok &= report(f[:10] == want and f[-1] == task,
                     "rcu-cpus cpu%d: %s matches %s task %s"
                     % (cpu, f, want, task), quiet)
        ok &= report((line[0] == "*") == (cpu == me),
                     "rcu-cpus cpu%d: '*' marks the stopped CPU %d"
                     % (cpu, me), quiet)
    return ok, rows


def check_percpu(quiet, me):
    ok = True
    for cpu in online():
        got = int(ev('$percpu("cpu", %d)' % cpu))
        dyn = int(ev('$percpu("dynticks_progress_counter", %d)' % cpu))
        ticks = int(ev('$percpu("stats.ticks", %d)' % cpu))
        want = (cpu, int(ev("rcu_data[%d].dynticks_progress_counter" % cpu)),
                int(ev("percpu_areas[%d]->stats.ticks" % cpu)))
        ok &= report((got, dyn, ticks) == want,
                     '$percpu("cpu"/"dynticks_progress_counter"/'
                     '"stats.ticks", %d) = %s, want %s'
                     % (cpu, (got, dyn, ticks), want), quiet)
    got = int(ev('$percpu("cpu")'))
    ok &= report(got == me, '$percpu("cpu") = %d: the stopped CPU %d'
                 % (got, me), quiet)
    return ok


def check_readers(quiet, expect=None):
    out = run("rcu-readers")
    want = [(p, n, k) for p, n, k in task_list() if k]
    got = []
    for line in out.splitlines():
        m = re.match(r"\s*(\d+) (\S+)\s+(\d+)\s+\d+\s", line)
        if m:
            got.append((int(m.group(1)), m.group(2), int(m.group(3))))
    ok = report(sorted(got) == sorted(want) and
                ("%d reader" % len(want)) in out,
                "rcu-readers lists %s" % (want,), quiet)
    if expect:
        ok &= report(any(n == expect for _, n, _ in got),
                     "rcu-readers shows %s" % expect, quiet)
    return ok


def check_gp(quiet, me, state, in_flip=False):
    """rcu-gp against the raw state.  in_flip: stopped inside the flip
    machine, so fliplock must show as held by the stopped CPU (in any
    other stop it may be free whatever the state)."""
    out = run("rcu-gp")
    completed = int(ev("rcu_ctrlblk.completed"))
    ok = report(("completed %d " % completed) in out and
                ("state %s " % state) in out,
                "rcu-gp: completed %d, state %s" % (completed, state), quiet)
    if in_flip:
        ok &= report("fliplock held by cpu %d" % me in out,
                     "rcu-gp: fliplock held by cpu %d" % me, quiet)
    for cpu in online():
        lens = []
        for lst in ("nextlist", "waitlist[0]", "waitlist[1]", "donelist"):
            n = 0
            p = int(ev("(unsigned long)rcu_data[%d].%s" % (cpu, lst)))
            while p and n < 100000:
                n += 1
                p = int(ev("(unsigned long)((struct rcu_head *)%d)->next"
                           % p))
            lens.append(n)
        row = [l for l in out.splitlines() if l.split()[:1] == [str(cpu)]]
        got = [int(x) for x in row[0].split()[1:5]] if row else None
        ok &= report(got == lens, "rcu-gp cpu%d: list lengths %s, want %s"
                     % (cpu, got, lens), quiet)
    return ok


def stop1(quiet):
    me = int(ev("rcu_ctrlblk.fliplock.owner_cpu"))
    ok, _ = check_cpus(quiet, me)
    ok &= check_gp(quiet, me, "waitack", in_flip=True)
    ok &= check_percpu(quiet, me)
    ok &= check_readers(quiet)
    return ok


def stop2(quiet):
    me = int(ev("hr.target"))
    pc = int(ev("percpu_areas[%d]->preempt_count" % me))
    ok = report(pc & (0xf << 20) != 0,
                "stopped in NMI context on cpu%d (preempt_count %#x)"
                % (me, pc), quiet)
    good, rows = check_cpus(quiet, me)
    ok &= good
    row = [r for r in rows if r[1:].split()[:1] == [str(me)]]
    ok &= report(bool(row) and row[0].split()[-2] == "nmi" and
                 row[0].split()[-3] == "no" and row[0][1:].split()[3] == "1",
                 "rcu-cpus: cpu%d in nmi, not idle, rcu_update_flag 1: %s"
                 % (me, row), quiet)
    ok &= check_gp(quiet, me, ["idle", "waitack", "waitzero", "waitmb"]
                   [int(ev("rcu_ctrlblk.rcu_try_flip_state"))])
    ok &= check_percpu(quiet, me)
    ok &= check_readers(quiet, expect="idle/%d" % me)
    return ok


def show(n):
    print("# stop %d: %s" % (n, run("frame").splitlines()[0]), flush=True)
    print(run("rcu-cpus") + run("rcu-gp") + run("rcu-readers"), flush=True)


def main():
    caught = set()
    start()
    # The NMI test runs first (tests run in link order): stop in its
    # handler's reader, on the CPU that took the NMI.
    stop_at("nmi_reader")
    stop_at("rcu_batches_completed", gdb.selected_thread().num)
    show(1)
    print("# backtrace in the NMI:\n" + run("bt 8"), flush=True)
    stop2(False)
    mutants(stop2, caught)

    # Then the grace-period machine, in the waitack state.
    stop_at("rcu_try_flip_waitack_needed")
    show(2)
    stop1(False)
    mutants(stop1, caught)
    finish("session", caught)


session(main)
