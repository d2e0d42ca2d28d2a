/*
 * Harness of the extracted modern model (docs/spin-extracted.md):
 * Linux 6.12's context tracking and Tree RCU's idle protocol, as
 * rcu/tree/context_tracking.c, rcu/tree/tree.c and
 * rcu/tree/tree_plugin.c have them, made into Promela by tools/extract
 * (tree612-layout.pml and tree612-gen.pml under build/spin/extracted/).
 *
 * CPU 1 is the idle CPU (common.pml):
 *   mainline()  its idle loop: ct_idle_exit(), a task's reader
 *               (__rcu_tree_read_lock(), the load of removed, perhaps a
 *               preemption, the load of freed, __rcu_tree_read_unlock()),
 *               ct_idle_enter(), MAX_DYNTICK_LOOP_NOHZ times
 *   irq()       interrupts, MAX_DYNTICK_LOOP_IRQ of them, where mainline
 *               has IRQs on: ct_irq_enter(), the tick
 *               (rcu_tree_sched_clock_irq(), with
 *               rcu_flavor_sched_clock_irq()'s rule: it reports a
 *               quiescent state outside the task's readers), a reader,
 *               ct_irq_exit()
 *   nmi()       NMIs, MAX_DYNTICK_LOOP_NMI of them, anywhere:
 *               ct_nmi_enter(), a reader, ct_nmi_exit() (the variants
 *               whose accesses to nesting, nmi_nesting, the task's
 *               reader count and its special bits, which only CPU 1
 *               touches, join their neighbouring steps: nothing on CPU 1
 *               interrupts an NMI)
 * CPU 0 is the updater and the grace-period kthread:
 *   gp()        unlinks the element (removed = 1); starts the grace
 *               period (rcu_gp_init(): its barrier, then under the
 *               leaf's lock its gp_seq, qsmask and the blocked tasks'
 *               hold, written here); the first force-quiescent-state
 *               scan (rcu_gp_fqs()'s smp_mb(), written here, then the
 *               extracted rcu_watching_snap_save()); then, until CPU 1
 *               is excused or has reported, later scans
 *               (rcu_watching_snap_recheck()); then until no blocked
 *               task holds it (the extracted
 *               rcu_preempt_blocked_readers_cgp()); the end of the grace
 *               period (rcu_gp_fqs_loop()'s smp_mb()); frees the element
 * memory_system() drains store buffers and satisfies deferred loads.
 *
 * Not extracted, written here: rcu_gp_init(), rcu_gp_fqs() and
 * force_qs_rnp() (rcu_node locks and loops, a function pointer),
 * rcu_report_qs_rdp() (REPORT_QS: the report, under the leaf's lock, a
 * full barrier on x86), the preemption (PREEMPT: what
 * rcu_tree_note_context_switch() and rcu_preempt_ctxt_queue() do to a
 * task in a reader) and the slow path of the unlock
 * (UNLOCK_SPECIAL: rcu_read_unlock_special()), both list and pointer
 * work.  Abstracted by the spec (tests/spin/extract.py): one leaf; the
 * CPU's noticed gp_seq stays at the grace period before the modelled
 * one; the deferred work rcu_preempt_deferred_qs() would do in the tick
 * is left to the task's own unlock; the torture test's delay hook is
 * DELAY_HOOK; preempt_count() is PREEMPT_COUNT() below.
 *
 * Checks: a reader must not see its element freed; the extracted
 * WARN()s and lockdep_assert_irqs_disabled(); the first scan excuses
 * exactly a CPU whose snapshot shows it idle (the contract of
 * rcu_watching_snap_save() in tree.c); the task's outermost unlock takes
 * it off blkd_tasks (what the boot test rcu_tree_blocked_reader checks);
 * with the delay hook on, every outermost rcu_read_lock() runs it, after
 * its count, and no nested one does; and liveness as in the article's
 * models: once CPU 1 has stopped, the next scan must end the grace
 * period (shouldexit).
 */

#define NCPU	2
#define NTASK	1
#define GPCPU	0
#define IDLE	1

#define C_MAIN	0	/* CPU 1's task: its idle loop and reader */
#define C_IRQ	1	/* CPU 1's interrupt handler */
#define C_NMI	2	/* CPU 1's NMI handler */
#define C_GP	3	/* CPU 0 */

/* CT_NESTING_IRQ_NONIDLE, 2^62: Promela's int has 32 bits.  Any value
 * far above the interrupt nesting behaves the same (the spec says). */
#define NONIDLE		16
#define CT_WATCHING	4	/* CT_RCU_WATCHING */

/* What the inlines use that is this harness's own. */
bit queued;	/* CPU 1's task is on the leaf's blkd_tasks list */
bit blocks_gp;	/* ... and holds the grace period (its rcu_blocks_gp) */
#define CURRENT(c, x)	0	/* CPU 1's one task */
/*
 * rcu_read_unlock_special(), which the extracted __rcu_tree_read_unlock()
 * calls when its outermost unlock finds special set (the spec's
 * UNLOCK_SPECIAL), written here.  In an NMI it returns; in an interrupt
 * handler it defers (raise_softirq()), and the interrupted task, which
 * is in its own outermost unlock between its count's store and its load
 * of special (only the task is ever queued), does the work.  The task
 * (IRQs and preemption on: rcu_preempt_deferred_qs_irqrestore()) clears
 * special.b.blocked, leaves blkd_tasks, and, if it held the grace
 * period, drops n_gp_tasks and reports (rcu_report_unblock_qs_rnp()),
 * under the leaf's lock.  Only blocked is ever set here (need_qs and the
 * expedited bits are left out), so special.s is blocked.
 */
#define UNLOCK_SPECIAL(c, x) \
	atomic { CAN_RUN(c, x) && ((x) != C_MAIN || \
				   (QUIET(c) && !node_locked)) -> \
		if \
		:: (x) == C_MAIN -> \
			mem[A_task_rcu_read_unlock_special__s(0)] = 0; \
			queued = 0; \
			if \
			:: blocks_gp -> blocks_gp = 0; \
				mem[A_rcu_node_n_gp_tasks(0)] = \
				    mem[A_rcu_node_n_gp_tasks(0)] - 1 \
			:: else -> skip \
			fi \
		:: else -> skip \
		fi }

/* The queued task holds the grace period (under the leaf's lock). */
#define HOLD_GP \
	blocks_gp = 1; \
	mem[A_rcu_node_n_gp_tasks(0)] = mem[A_rcu_node_n_gp_tasks(0)] + 1
/* rcu_preempt_check_blocked_tasks_gp_init() (the spec's HOLD_BLOCKED),
 * in rcu_gp_init(), under the leaf's lock: a task already queued holds
 * the new grace period. */
#define HOLD_BLOCKED(c, x) \
	CAN_RUN(c, x); \
	if \
	:: queued && !blocks_gp -> HOLD_GP \
	:: else -> skip \
	fi

/*
 * A preemption of CPU 1's task inside its reader (between its loads of
 * removed and of freed, or not at all), written here:
 * __schedule() calls rcu_tree_note_context_switch() with IRQs off, which
 * queues the task on the leaf under the leaf's lock
 * (rcu_preempt_ctxt_queue(): special.b.blocked set, on blkd_tasks, and
 * holding the grace period if that still waits on CPU 1), then reports
 * the CPU's quiescent state (REPORT_QS).  Not extracted: the queue is
 * list and pointer work.  The task runs again at once (what ran in its
 * place is not modelled).
 */
#define PREEMPT(c, x) \
	atomic { CAN_RUN(c, x) && QUIET(c) && !node_locked -> \
		irqs_off = 1; \
		mem[A_task_rcu_read_unlock_special__s(0)] = 1; \
		queued = 1; \
		if \
		:: QSMASK & (1 << (c)) -> HOLD_GP \
		:: else -> skip \
		fi }; \
	atomic { REPORT_QS(c, x); irqs_off = 0 }

/*
 * The torture test's delay hook (rcu_read_lock_delay_hook, the spec's
 * DELAY_HOOK: off, or on with -DDELAY_HOOK=1, the ",delay" runs).  The
 * extracted __rcu_tree_read_lock() calls LOCK_DELAY where it calls the
 * hook; the hook runs with the count already set (CPU 1's own view of
 * it is 1: a grace period that starts during the delay waits for the
 * reader), and delay_check(), after the lock, says that an outermost
 * lock (count 1) ran it exactly when the hook is on, a nested one never.
 */
#ifndef DELAY_HOOK
#define DELAY_HOOK	0
#endif
bit delay_ran[3];	/* context x's last rcu_read_lock() ran the hook */
hidden short delay_t;	/* a scratch register, inside one step */
#define LOCK_DELAY(c, x) \
	LOAD(c, x, delay_t, A_task_rcu_read_lock_nesting(0), 0); \
	assert(delay_t == 1); delay_ran[x] = 1; delay_t = 0

/*
 * preempt_count() of CPU 1, as the tick's rule
 * (rcu_preempt_interrupted_atomic()) reads it: the hardirq count while
 * the interrupt handler runs (one handler at a time: no interrupt nests
 * in another here), the NMI count while the NMI does.  The preemption
 * and softirq bits are 0: mainline's task is preemptible (PREEMPT()
 * preempts it) and softirq context is not modelled.  HARDIRQ_OFFSET and
 * NMI_OFFSET are kernel/preempt.h's (the spec's export).
 */
#define PREEMPT_COUNT(c, x) \
	((in_irq -> HARDIRQ_OFFSET : 0) + (in_nmi -> NMI_OFFSET : 0))

#define GEN	"tree612-gen.pml"
#include "tree612-layout.pml"
#include "tree-gp.pml"
/* The harness writes special.s (PREEMPT) even where the code does not
 * read it (a mutant's unlock that skips its slow path). */
#ifndef A_task_rcu_read_unlock_special__s
#define A_task_rcu_read_unlock_special__s(i)	(EX_NLOC + 2 + (i))
#define H_NLOC	NTASK
#endif
#include "common.pml"


/* Mainline's reader, between its two loads: preempted, or not. */
inline preemption()
{
	if
	:: PREEMPT(IDLE, C_MAIN)
	:: skip
	fi
}

/* Joins the step of a reader's first load (READER()'s pro). */
inline delay_check(x)
{
	LOAD(IDLE, x, delay_t, A_task_rcu_read_lock_nesting(0), 0);
	assert(delay_ran[x] == (DELAY_HOOK && delay_t == 1));
	delay_ran[x] = 0;
	delay_t = 0
}

proctype mainline()
{
	DECL_ct_idle_exit
	DECL_ct_idle_enter
	DECL___rcu_tree_read_lock
	DECL___rcu_tree_read_unlock
	byte i = 0;

	do
	FINISH(MAX_DYNTICK_LOOP_NOHZ, C_MAIN, nohz_done)
	:: atomic { i < MAX_DYNTICK_LOOP_NOHZ && CAN_RUN(IDLE, C_MAIN) ->
		    irqs_off = 1 };
		ct_idle_exit(IDLE, C_MAIN);
		atomic { CAN_RUN(IDLE, C_MAIN) -> irqs_off = 0 };
		__rcu_tree_read_lock(IDLE, C_MAIN);
		READER_MID(C_MAIN, delay_check(C_MAIN), preemption(), skip);
		__rcu_tree_read_unlock(IDLE, C_MAIN);
		/* Its outermost unlock took it off blkd_tasks. */
		atomic { CAN_RUN(IDLE, C_MAIN) -> assert(!queued);
			 irqs_off = 1 };
		ct_idle_enter(IDLE, C_MAIN);
		atomic { CAN_RUN(IDLE, C_MAIN) -> irqs_off = 0; i++ }
	od
}

proctype irq()
{
	DECL_ct_irq_enter
	DECL_ct_irq_exit
	DECL_rcu_tree_sched_clock_irq
	DECL___rcu_tree_read_lock
	DECL___rcu_tree_read_unlock
	byte i = 0;
	short pmem[NLOC];	/* the tick's private field, cpu_no_qs */

	do
	FINISH(MAX_DYNTICK_LOOP_IRQ, C_IRQ, irq_done)
	:: i < MAX_DYNTICK_LOOP_IRQ ->
		atomic { !irqs_off && !in_nmi && DELIVERED -> in_irq = 1 };
		ct_irq_enter(IDLE, C_IRQ);
		rcu_tree_sched_clock_irq(IDLE, C_IRQ, IDLE);
		__rcu_tree_read_lock(IDLE, C_IRQ);
		READER(C_IRQ, delay_check(C_IRQ), skip);
		__rcu_tree_read_unlock(IDLE, C_IRQ);
		ct_irq_exit(IDLE, C_IRQ);
		atomic { CAN_RUN(IDLE, C_IRQ) && DELIVERED -> in_irq = 0; i++ }
	od
}

proctype nmi()
{
	DECL_ct_nmi_enter_nmi
	DECL_ct_nmi_exit_nmi
	DECL___rcu_tree_read_lock_nmi
	DECL___rcu_tree_read_unlock_nmi
	byte i = 0;

	do
	FINISH(MAX_DYNTICK_LOOP_NMI, C_NMI, nmi_done)
	:: i < MAX_DYNTICK_LOOP_NMI ->
		atomic { DELIVERED -> in_nmi = 1 };
		ct_nmi_enter_nmi(IDLE, C_NMI);
		__rcu_tree_read_lock_nmi(IDLE, C_NMI);
		READER(C_NMI, delay_check(C_NMI), skip);
		__rcu_tree_read_unlock_nmi(IDLE, C_NMI);
		ct_nmi_exit_nmi(IDLE, C_NMI);
		atomic { DELIVERED -> in_nmi = 0; i++ }
	od
}

proctype gp()
{
	DECL_rcu_gp_init
	DECL_rcu_gp_fqs
	DECL_rcu_gp_done
	int r;
	bit first, scanned;
	bit shouldexit;
	short pmem[NLOC];	/* the kthread's private fields */

	STORE(GPCPU, C_GP, A_removed, 1, HID_REMOVED);
	/* The extracted rcu_gp_init(): the new gp_seq (rcu_seq_start()),
	 * then under the leaf's lock its qsmask, gp_seq and the blocked
	 * tasks' hold; then the kthread's own quiescent state. */
	rcu_gp_init(GPCPU, C_GP);
	gp_fqs_loop(STOPPED);
	/* rcu_gp_fqs_loop()'s smp_mb(), then the callbacks run. */
	MB(GPCPU, C_GP, 0);
	STORE(GPCPU, C_GP, A_freed, 1, HID_FREED)
}

init {
	atomic {
		/* CPU 1 starts idle: not watching (CT_STATE_IDLE), nesting
		 * and nmi_nesting 0.  CPU 0 is watching, in the kernel. */
		mem[A_context_tracking_state(IDLE)] = 1;
		mem[A_context_tracking_state(GPCPU)] = CT_WATCHING;
		START(MAX_DYNTICK_LOOP_NOHZ, mainline, nohz_done);
		START(MAX_DYNTICK_LOOP_IRQ, irq, irq_done);
		START(MAX_DYNTICK_LOOP_NMI, nmi, nmi_done);
		run gp();
		START_MEMORY
	}
}
