# SPDX-License-Identifier: GPL-2.0
"""The gdb side of the rcu=tree helpers' batch test (run by
tools/gdb/test.py; what every session does is in session.py).

QEMU boots rcu=tree with tests=rcu_tree_blocked_reader and waits at reset.
The session stops in rcu_tree_poll_state_synchronize_rcu(), called while the
test's reader is preempted inside its critical section (queued on its leaf's
blkd_tasks, holding a grace period in progress), runs rcu-tree-cpus and
rcu-tree-gp, and checks each column against plain gdb expressions.  Then
it loads each broken copy of the helpers (DYNRCU_GDB_MUTANTS) at the same
stop and requires each to fail at least one check.
"""

import re

from tools.gdb.session import (ev, finish, mutants, online, report, run,
                               session, start, stop_at, task_exprs)

NONIDLE = (0xffffffffffffffff >> 2) + 1


def check_cpus(quiet):
    out = run("rcu-tree-cpus").splitlines()
    rows = {}
    for line in out[1:]:
        f = line.lstrip("*").split()
        rows[int(f[0])] = f
    ok = report(sorted(rows) == online(), "rcu-tree-cpus: one row per "
                "online CPU", quiet)
    for cpu in online():
        f = rows.get(cpu)
        if not f:
            continue
        st = int(ev("context_tracking[%d].state" % cpu)) & 0xffffffff
        nest = int(ev("context_tracking[%d].nmi_nesting" % cpu)) & \
            0xffffffffffffffff
        want_nest = ("NONIDLE+%d" % (nest - NONIDLE) if nest >= NONIDLE
                     else str(nest))
        watching = "yes" if st & 4 else "no"
        gp = int(ev("rcu_tree_data[%d].gp_seq" % cpu))
        ok &= report(f[1] == str(st) and f[2] == watching and
                     f[3] == want_nest and f[4] == str(gp),
                     "rcu-tree-cpus cpu %d: state %s watching %s nmi_nesting "
                     "%s gp_seq %s (gdb: %d %s %s %d)" % (
                         cpu, f[1], f[2], f[3], f[4], st, watching,
                         want_nest, gp), quiet)
    return ok


def check_gp(quiet):
    out = run("rcu-tree-gp").splitlines()
    seq = int(ev("rcu_state.gp_seq"))
    m = re.match(r"gp_seq (\d+) \(grace period (\d+), (\S+ ?\S*)\)", out[0])
    ok = report(bool(m) and int(m.group(1)) == seq and
                int(m.group(2)) == seq >> 2 and
                m.group(3) == ("in progress" if seq & 3 else "idle"),
                "rcu-tree-gp: gp_seq %d, phase (%s)" % (seq, out[0][:60]),
                quiet)
    held = int(ev("(unsigned long)held.task"))
    for i in range(int(ev("rcu_state.num_nodes"))):
        line = out[2 + i].split()
        n = "rcu_state.node[%d]" % i
        qs = int(ev(n + ".qsmask"))
        ok &= report(int(line[0]) == i and int(line[3], 16) == qs,
                     "rcu-tree-gp node %d: qsmask %s (gdb %#x)" % (
                         i, line[3], qs), quiet)
        # Is the held reader queued on this node, holding the GP?
        names = [("*" if int(ev(t + "->rcu_blocks_gp")) else "") +
                 ev(t + "->name").string()
                 for t in task_exprs(n + ".blkd_tasks", "rcu_node_entry")]
        shown = line[9:] if line[9:] != ["-"] else []
        ok &= report(shown == names,
                     "rcu-tree-gp node %d: blocked tasks %s (gdb %s)" % (
                         i, shown, names), quiet)
        if held and any(n.endswith("held-reader") for n in names):
            ok &= report("*held-reader" in shown, "the preempted reader "
                         "is shown holding the grace period", quiet)
    return ok


def stop(quiet):
    a = check_cpus(quiet)
    b = check_gp(quiet)
    return a and b


def main():
    start()
    stop_at("rcu_tree_poll_state_synchronize_rcu")
    print("# rcu-tree-gp:\n" + run("rcu-tree-gp"), flush=True)
    print("# rcu-tree-cpus:\n" + run("rcu-tree-cpus"), flush=True)
    stop(False)
    caught = set()
    mutants(stop, caught)
    finish("session_tree", caught)


session(main)
