// SPDX-License-Identifier: GPL-2.0
/*
 * Context tracking (rcu=tree), after Linux 6.12's kernel/context_tracking.c:
 * the hooks by which idle, IRQ and NMI entry and exit tell RCU whether it
 * must watch this CPU.  The step-for-step model is
 * tests/spin/dyntickRCU-tree.spin, whose header names the function
 * behind each of its steps (tests/spin/dyntickRCU-atomic.spin is the
 * article's proposal, before Linux built it).
 *
 *   2008 (rcu/rcupreempt/dynticks.c)            here
 *   rcu_exit_nohz()                  ct_idle_exit()
 *   rcu_enter_nohz()                 ct_idle_enter()
 *   rcu_irq_enter(), IRQ and NMI     ct_irq_enter() -> ct_nmi_enter()
 *   rcu_irq_exit(), IRQ and NMI      ct_irq_exit()  -> ct_nmi_exit()
 *   rcu_update_flag                  nmi_nesting == 1
 *   in_interrupt() test              rcu_is_watching_curr_cpu()
 *   counter++ then smp_mb()          ct_state_inc(): atomic add-return
 */
#include "kernel/bug.h"
#include "kernel/irqflags.h"
#include "kernel/lockdep.h"
#include "kernel/percpu.h"
#include "kernel/trace.h"
#include "rcu/tree/context_tracking.h"

/* Every CPU starts in the kernel, watched, at process level. */
struct context_tracking context_tracking[NR_CPUS] = {
	[0 ... NR_CPUS - 1] = {
		.state = CT_RCU_WATCHING | CT_STATE_KERNEL,
		.nesting = 1,
		.nmi_nesting = CT_NESTING_IRQ_NONIDLE,
	},
};

static inline struct context_tracking *this_ct(void)
{
	return &context_tracking[raw_smp_processor_id()];
}

/*
 * The one step: a fully ordered atomic add (a locked xadd on x86).  It is
 * the only way the counter changes, and it is both barriers of the 2008
 * code at once, so neither can be misplaced:
 *
 * - Into idle (ct_idle_enter(), or ct_nmi_exit() of the handler that woke
 *   RCU): every access of this CPU's readers before the step is ordered
 *   before the new, not-watching value.  Pairs with the acquire load in
 *   rcu_watching_snap_save()/rcu_watching_snap_recheck() (tree.c) and in
 *   sync_rcu_exp_select_node_cpus() (tree_exp.c): a scan that reads the
 *   new value also sees those readers finished, and the rcu_node locks
 *   and rcu_seq_end() carry that to whoever waits for the grace period.
 *   This is the seed patch's mb() before rcu_enter_nohz()'s increment.
 * - Out of idle (ct_idle_exit(), or ct_nmi_enter() on an idle CPU): the
 *   new, watching value is ordered before every access of the readers
 *   that follow.  Pairs with the smp_mb() in rcu_gp_fqs() (and the one
 *   before sync_rcu_exp_select_node_cpus()), which orders the grace
 *   period's start before the scan's load of this counter: if the scan
 *   still read the old, idle value, this store-buffering pair of full
 *   barriers means the readers after the step see everything that came
 *   before the grace period (the updater's removal), so excusing the CPU
 *   is safe.  This is the seed patch's mb() after rcu_exit_nohz()'s
 *   increment.
 */
static inline int ct_state_inc(int incby)
{
	return __atomic_add_fetch(&this_ct()->state, incby, __ATOMIC_SEQ_CST);
}

/*
 * This CPU's own view: no barrier.  Only this CPU writes its state, and a
 * handler that interrupts us has finished its steps (restoring the bit)
 * before we run again.
 */
bool rcu_is_watching_curr_cpu(void)
{
	return READ_ONCE(this_ct()->state) & CT_RCU_WATCHING;
}

void ct_init_cpu(int cpu)
{
	struct context_tracking *ct = &context_tracking[cpu];

	WRITE_ONCE(ct->nesting, 1);
	WRITE_ONCE(ct->nmi_nesting, CT_NESTING_IRQ_NONIDLE);
}

/*
 * Idle entry, IRQs off: the reader section of the idle task's process
 * level is over; from the step on, RCU need not wait for this CPU.
 */
void ct_idle_enter(void)
{
	struct context_tracking *ct = this_ct();
	int seq;

	lockdep_assert_irqs_disabled();
	WARN(READ_ONCE(ct->nmi_nesting) != CT_NESTING_IRQ_NONIDLE,
	     "ct_idle_enter: cpu %d nmi_nesting %ld", raw_smp_processor_id(),
	     READ_ONCE(ct->nmi_nesting));
	/*
	 * The nesting counts first, then the step (the atomic add is also
	 * a compiler barrier, so the order holds): an NMI between the two
	 * finds RCU still watching, adds 2 to 0 and takes it back, never
	 * stepping the counter.  The nesting fields are this CPU's alone
	 * (the stall report and gdb only read them), so they need no
	 * barrier of their own.
	 */
	WRITE_ONCE(ct->nmi_nesting, 0);
	WRITE_ONCE(ct->nesting, 0);
	/* Fully ordered: this CPU's readers before "not watching". */
	seq = ct_state_inc(CT_RCU_WATCHING + CT_STATE_IDLE);
	trace_event(TRACE_DYNTICKS, 0, (u32)seq);
}

/* Idle exit, IRQs off: from the step on, RCU watches this CPU again. */
void ct_idle_exit(void)
{
	struct context_tracking *ct = this_ct();
	int seq;

	lockdep_assert_irqs_disabled();
	/*
	 * Fully ordered: "watching" before the readers that follow.  The
	 * step comes before the nesting counts: an NMI in between finds RCU
	 * watching and nmi_nesting 0, adds 2 and takes it back.
	 */
	seq = ct_state_inc(CT_RCU_WATCHING - CT_STATE_IDLE);
	trace_event(TRACE_DYNTICKS, 0, (u32)seq);
	WRITE_ONCE(ct->nesting, 1);
	WARN(READ_ONCE(ct->nmi_nesting) != 0,
	     "ct_idle_exit: cpu %d nmi_nesting %ld", raw_smp_processor_id(),
	     READ_ONCE(ct->nmi_nesting));
	WRITE_ONCE(ct->nmi_nesting, CT_NESTING_IRQ_NONIDLE);
}

/*
 * Handler entry, IRQ or NMI, before the hardirq count is raised.  If RCU
 * is not watching (the CPU is idle), step the counter to watching and
 * count 1; otherwise count 2.  Interrupts nest strictly, so nothing can
 * change the counter between the test and the step: by the time a nested
 * handler returns it has restored everything it changed.
 */
void ct_nmi_enter(void)
{
	struct context_tracking *ct = this_ct();
	long incby = 2;

	if (!rcu_is_watching_curr_cpu()) {
		/*
		 * Fully ordered: "watching" before the handler's readers (the
		 * pairing is at ct_state_inc()).  The step comes before the
		 * count: an NMI between them finds RCU watching and adds 2,
		 * which it takes back, so our 1 still marks the handler that
		 * woke RCU (the host mutant ct-nmi-enter-counts-before-step
		 * shows the other order failing).
		 */
		int seq = ct_state_inc(CT_RCU_WATCHING);

		trace_event(TRACE_DYNTICKS, 1, (u32)seq);
		incby = 1;
	}
	WRITE_ONCE(ct->nmi_nesting, READ_ONCE(ct->nmi_nesting) + incby);
	/*
	 * The handler's readers stay after the count: a compiler barrier
	 * is enough.  Other CPUs never read nmi_nesting to decide anything;
	 * what they rely on is the counter, ordered by the step above (or,
	 * with 2 added, already watching since the last step, so nothing
	 * new to order).  Only a nested NMI on this CPU reads the count.
	 */
	barrier();
}

/*
 * Handler exit, after the hardirq count is dropped.  A nesting of 1 means
 * this handler woke RCU from idle: step the counter back to idle.
 * Otherwise undo this handler's 2.
 */
void ct_nmi_exit(void)
{
	struct context_tracking *ct = this_ct();
	long nesting = READ_ONCE(ct->nmi_nesting);
	int seq;

	WARN(nesting <= 0 || !rcu_is_watching_curr_cpu(),
	     "ct_nmi_exit: cpu %d nmi_nesting %ld state %d",
	     raw_smp_processor_id(), nesting, READ_ONCE(ct->state));
	/*
	 * The handler's readers stay before the count (compiler only, as at
	 * entry); their order against other CPUs is the step's below.
	 */
	barrier();
	if (nesting != 1) {
		WRITE_ONCE(ct->nmi_nesting, nesting - 2);
		return;
	}
	/*
	 * The count first, then the step: an NMI in between finds RCU still
	 * watching with nmi_nesting 0, adds 2 and takes it back.  Stepping
	 * first would let it find RCU not watching with nmi_nesting 1, wake
	 * RCU and never step back (the host mutant
	 * ct-nmi-exit-steps-before-nesting).
	 */
	WRITE_ONCE(ct->nmi_nesting, 0);
	/* Fully ordered: the handler's readers before "not watching". */
	seq = ct_state_inc(CT_RCU_WATCHING);
	trace_event(TRACE_DYNTICKS, 2, (u32)seq);
}

/*
 * IRQs share the NMI path, as in Linux.  The IRQ entry points check that
 * IRQs are off, as Linux's do; the NMI ones need no check, since the
 * hardware masks IRQs for an NMI and nothing else calls them.
 */
void ct_irq_enter(void)
{
	lockdep_assert_irqs_disabled();
	ct_nmi_enter();
}

void ct_irq_exit(void)
{
	lockdep_assert_irqs_disabled();
	ct_nmi_exit();
}
