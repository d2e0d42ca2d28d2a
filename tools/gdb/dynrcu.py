# SPDX-License-Identifier: GPL-2.0
"""gdb helpers for dynrcu, after Linux's scripts/gdb lx-* commands.

  rcu-cpus       one line per online CPU: dynticks counter, snapshot,
                 rcu_update_flag, flip and mb flags, rcu_flipctr[0..1],
                 completed, idle or not, context, current task
  rcu-gp         global completed, flip state, fliplock, and every CPU's
                 callback list lengths
  rcu-readers    tasks with non-zero rcu_read_lock_nesting
  rcu-tree-cpus  rcu=tree: per online CPU, the context-tracking counter
                 (ct->state), its watching bit, nmi_nesting, and the
                 CPU's gp_seq, cpu_no_qs, core_needs_qs, FQS snapshot,
                 callbacks queued, expedited IPIs taken
  rcu-tree-gp    rcu=tree: gp_seq (count and phase), gp_seq_needed, the
                 kthread's state, every rcu_node's masks and blocked
                 tasks (a "*" marks a task that holds the grace period)
  $percpu("field", cpu)
                 percpu_areas[cpu]->field, or rcu_data[cpu].field when struct
                 percpu has no such field; "a.b" paths work
                 ("stats.ticks"); cpu defaults to the selected thread's

Everything is read from the global arrays (percpu_areas[], rcu_data[],
rcu_ctrlblk, the task list), never through %gs or the stack, so the
helpers work wherever the kernel stopped: in a task, an IRQ, or an NMI
handler on its IST stack.  QEMU shows vCPU n as gdb thread n + 1; the
selected thread's CPU is found from its GS base (the per-CPU self
pointer), falling back to the thread number early in boot.

Load with: source tools/gdb/dynrcu.py (make gdb does).
"""

import gdb

FLIP_FLAG = {0: "seen", 1: "flipped"}
MB_FLAG = {0: "done", 1: "needed"}
STATES = {0: "idle", 1: "waitack", 2: "waitzero", 3: "waitmb"}
SOFTIRQ_MASK = 0xff << 8
HARDIRQ_MASK = 0xf << 16
NMI_MASK = 0xf << 20
LIST_LIMIT = 100000     # list walks stop here (a corrupt list may loop)


def sym(name):
    return gdb.parse_and_eval(name)


def nr_cpus():
    """CPUs with a per-CPU area: those the firmware listed."""
    return int(sym("nr_cpus_present"))


def online_cpus():
    bits = sym("cpu_online_mask")["bits"]
    words = int(sym("sizeof(cpu_online_mask.bits) / sizeof(u64)"))
    mask = sum(int(bits[i]) << (64 * i) for i in range(words))
    return [c for c in range(nr_cpus()) if mask >> c & 1]


def pcpu(cpu):
    """struct percpu of cpu (percpu_areas[] holds pointers)."""
    return sym("percpu_areas")[cpu].dereference()


def selected_cpu():
    """The CPU of the selected gdb thread (vCPU)."""
    thread = gdb.selected_thread()
    try:
        gs = int(sym("$gs_base"))
        areas = sym("percpu_areas")
        for cpu in range(nr_cpus()):
            if int(areas[cpu]) == gs:
                return cpu
    except gdb.error:
        pass
    # Before GS is set up (or without $gs_base): QEMU numbers threads
    # from 1 in vCPU order, and the boot order follows it.
    return thread.num - 1 if thread else 0


def task_name(task):
    if int(task) == 0:
        return "-"
    return task["name"].string()


def context(preempt_count):
    if preempt_count & NMI_MASK:
        return "nmi"
    if preempt_count & HARDIRQ_MASK:
        return "irq%d" % ((preempt_count & HARDIRQ_MASK) >> 16)
    if preempt_count & SOFTIRQ_MASK:
        return "softirq"
    return "task"


def list_len(head):
    n = 0
    p = head
    while int(p) != 0 and n < LIST_LIMIT:
        n += 1
        p = p["next"]
    return n


def field(value, path):
    for part in path.split("."):
        value = value[part]
    return value


def has_field(typ, path):
    for part in path.split("."):
        typ = typ.strip_typedefs()
        names = [f.name for f in typ.fields()]
        if part not in names:
            return False
        typ = typ[part].type
    return True


class RcuCpus(gdb.Command):
    """Per-CPU RCU and dynticks state: rcu-cpus"""

    def __init__(self):
        super().__init__("rcu-cpus", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        me = selected_cpu()
        gdb.write("%-4s %8s %8s %3s %-7s %-6s %9s %9s %9s %-4s %-7s %s\n" % (
            "CPU", "dynticks", "snap", "upd", "flip", "mb", "flipctr0",
            "flipctr1", "completed", "idle", "context", "task"))
        for cpu in online_cpus():
            rdp = sym("rcu_data")[cpu]
            pc = pcpu(cpu)
            dyn = int(rdp["dynticks_progress_counter"])
            pcount = int(pc["preempt_count"])
            # RCU's view: an even counter is dynticks-idle.
            idle = "yes" if dyn % 2 == 0 else "no"
            gdb.write("%s%-3d %8d %8d %3d %-7s %-6s %9d %9d %9d %-4s %-7s "
                      "%s\n" % (
                          "*" if cpu == me else " ", cpu, dyn,
                          int(rdp["rcu_dyntick_snapshot"]),
                          int(rdp["rcu_update_flag"]),
                          FLIP_FLAG.get(int(rdp["rcu_flip_flag"]), "?"),
                          MB_FLAG.get(int(rdp["rcu_mb_flag"]), "?"),
                          int(rdp["rcu_flipctr"][0]),
                          int(rdp["rcu_flipctr"][1]),
                          int(rdp["completed"]), idle, context(pcount),
                          task_name(pc["curr_task"])))


class RcuGp(gdb.Command):
    """Grace-period state and callback list lengths: rcu-gp"""

    def __init__(self):
        super().__init__("rcu-gp", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        cb = sym("rcu_ctrlblk")
        state = int(cb["rcu_try_flip_state"])
        lock = cb["fliplock"]
        held = int(lock["owner"]) != int(lock["next"])
        gdb.write("completed %d  state %s (%d)  fliplock %s\n" % (
            int(cb["completed"]), STATES.get(state, "?"), state,
            "held by cpu %d" % int(lock["owner_cpu"]) if held else "free"))
        stages = int(sym("sizeof(rcu_data[0].waitlist) / "
                         "sizeof(rcu_data[0].waitlist[0])"))
        gdb.write("%-4s %6s %s %6s %8s %10s\n" % (
            "CPU", "next",
            " ".join("%6s" % ("wait%d" % i) for i in range(stages)),
            "done", "invoking", "cb_invoked"))
        totals = [0] * (stages + 2)
        for cpu in online_cpus():
            rdp = sym("rcu_data")[cpu]
            lens = [list_len(rdp["nextlist"])]
            lens += [list_len(rdp["waitlist"][i]) for i in range(stages)]
            lens.append(list_len(rdp["donelist"]))
            totals = [a + b for a, b in zip(totals, lens)]
            gdb.write("%-4d %6d %s %6d %8d %10d\n" % (
                cpu, lens[0], " ".join("%6d" % n for n in lens[1:-1]),
                lens[-1], int(rdp["invoking"]), int(rdp["n_cb_invoked"])))
        gdb.write("%-4s %6d %s %6d\n" % (
            "all", totals[0], " ".join("%6d" % n for n in totals[1:-1]),
            totals[-1]))


def tasks_on(head, member):
    """Each struct task on the list whose struct list_head is head, linked
    through the task's member (container_of by the member's offset)."""
    task_type = gdb.lookup_type("struct task")
    offset = [f.bitpos for f in task_type.fields()
              if f.name == member][0] // 8
    stop = int(head.address)
    node = head["next"]
    n = 0
    while int(node) != stop and n < LIST_LIMIT:
        addr = int(node.cast(gdb.lookup_type("unsigned long"))) - offset
        yield gdb.Value(addr).cast(task_type.pointer()).dereference()
        node = node["next"]
        n += 1


class RcuReaders(gdb.Command):
    """Tasks inside an RCU read-side critical section: rcu-readers"""

    def __init__(self):
        super().__init__("rcu-readers", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        running = {}
        for cpu in online_cpus():
            running[int(pcpu(cpu)["curr_task"])] = cpu
        found = 0
        for t in tasks_on(sym("all_tasks"), "all_list"):
            nesting = int(t["rcu_read_lock_nesting"])
            if nesting == 0:
                continue
            if found == 0:
                gdb.write("%5s %-20s %7s %3s %-12s\n" % (
                    "PID", "TASK", "NESTING", "IDX", "WHERE"))
            found += 1
            addr = int(t.address)
            where = ("running cpu%d" % running[addr] if addr in running
                     else "off-cpu (cpu%d)" % int(t["cpu"]))
            gdb.write("%5d %-20s %7d %3d %s\n" % (
                int(t["pid"]), t["name"].string(), nesting,
                int(t["rcu_flipctr_idx"]), where))
        gdb.write("%d reader%s\n" % (found, "" if found == 1 else "s"))


class PerCpu(gdb.Function):
    """$percpu("field", cpu): percpu_areas[cpu]->field, or rcu_data[cpu].field.
cpu defaults to the CPU of the selected thread."""

    def __init__(self):
        super().__init__("percpu")

    def invoke(self, name, cpu=None):
        path = name.string()
        cpu = selected_cpu() if cpu is None else int(cpu)
        if not 0 <= cpu < nr_cpus():
            raise gdb.GdbError("percpu: cpu %d out of range" % cpu)
        for base in (pcpu(cpu), sym("rcu_data")[cpu]):
            if has_field(base.type, path):
                return field(base, path)
        raise gdb.GdbError("percpu: no field '%s' in struct percpu or "
                           "struct rcu_data" % path)


RcuCpus()
RcuGp()
RcuReaders()
PerCpu()

CT_RCU_WATCHING = 4
GP_STATES = {0: "RCU_GP_IDLE", 1: "RCU_GP_INIT", 2: "RCU_GP_WAIT_FQS",
             3: "RCU_GP_DOING_FQS", 4: "RCU_GP_CLEANUP"}
NESTING_NONIDLE = (0xffffffffffffffff >> 2) + 1


def nmi_nesting_str(n):
    """CT_NESTING_IRQ_NONIDLE + k reads as "NONIDLE+k"."""
    if n >= NESTING_NONIDLE:
        return "NONIDLE+%d" % (n - NESTING_NONIDLE)
    return str(n)


def cblist_len(cbl):
    return int(cbl["len"])


class RcuTreeCpus(gdb.Command):
    """rcu=tree per-CPU state: rcu-tree-cpus"""

    def __init__(self):
        super().__init__("rcu-tree-cpus", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        me = selected_cpu()
        gdb.write("%-4s %8s %-8s %-12s %8s %-5s %-5s %8s %4s %6s %-7s %s\n"
                  % ("CPU", "ct.state", "watching", "nmi_nesting",
                     "gp_seq", "no_qs", "needs", "snap", "cbs", "expipi",
                     "context", "task"))
        for cpu in online_cpus():
            ct = sym("context_tracking")[cpu]
            rdp = sym("rcu_tree_data")[cpu]
            pc = pcpu(cpu)
            st = int(ct["state"]) & 0xffffffff
            gdb.write("%s%-3d %8d %-8s %-12s %8d %-5s %-5s %8d %4d %6d "
                      "%-7s %s\n" % (
                          "*" if cpu == me else " ", cpu, st,
                          "yes" if st & CT_RCU_WATCHING else "no",
                          nmi_nesting_str(int(ct["nmi_nesting"]) &
                                          0xffffffffffffffff),
                          int(rdp["gp_seq"]),
                          "yes" if int(rdp["cpu_no_qs"]) else "no",
                          "yes" if int(rdp["core_needs_qs"]) else "no",
                          int(rdp["watching_snap"]),
                          cblist_len(rdp["cblist"]),
                          int(rdp["exp_ipis"]),
                          context(int(pc["preempt_count"])),
                          task_name(pc["curr_task"])))


class RcuTreeGp(gdb.Command):
    """rcu=tree grace-period state and the rcu_node tree: rcu-tree-gp"""

    def __init__(self):
        super().__init__("rcu-tree-gp", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        rs = sym("rcu_state")
        seq = int(rs["gp_seq"])
        need = int(rs["gp_seq_needed"])
        gdb.write("gp_seq %d (grace period %d, %s)  gp_seq_needed %d  "
                  "kthread %s  expedited_sequence %d\n" % (
                      seq, seq >> 2, "in progress" if seq & 3 else "idle",
                      need, GP_STATES.get(int(rs["gp_state"]), "?"),
                      int(rs["expedited_sequence"])))
        gdb.write("%-5s %-5s %-7s %18s %18s %18s %8s %4s %4s  %s\n" % (
            "node", "level", "cpus", "qsmask", "qsmaskinit", "expmask",
            "gp_seq", "gpt", "expt", "blocked tasks"))
        for i in range(int(rs["num_nodes"])):
            rnp = rs["node"][i]
            tasks = ["%s%s" % ("*" if int(t["rcu_blocks_gp"]) else "",
                               t["name"].string())
                     for t in tasks_on(rnp["blkd_tasks"],
                                       "rcu_node_entry")]
            gdb.write("%-5d %-5d %-7s %#18x %#18x %#18x %8d %4d %4d  %s\n" % (
                i, int(rnp["level"]),
                "%d-%d" % (int(rnp["grplo"]), int(rnp["grphi"])),
                int(rnp["qsmask"]), int(rnp["qsmaskinit"]),
                int(rnp["expmask"]), int(rnp["gp_seq"]),
                int(rnp["n_gp_tasks"]), int(rnp["n_exp_tasks"]),
                " ".join(tasks) if tasks else "-"))


RcuTreeCpus()
RcuTreeGp()
