// SPDX-License-Identifier: GPL-2.0
/*
 * Preemptable RCU, after Linux 2.6.25's kernel/rcupreempt.c: the read
 * side (per-CPU flip counters), the four-state grace-period ("flip")
 * machine driven from the scheduling-clock tick, and the callback lists.
 * The design, state by state, is docs/rcu.md; the dynticks half lives in
 * rcu/rcupreempt/dynticks.c.
 *
 * Summary of the grace-period machine, one transition per tick at most:
 *   idle    -> waitack:  completed++, then ask every CPU to ack the flip
 *   waitack -> waitzero: every CPU acked (or is excused by dynticks)
 *   waitzero-> waitmb:   no reader still uses the old counter index
 *   waitmb  -> idle:     every CPU executed a memory barrier (or excused)
 */
#include "kernel/compiler.h"
#include "kernel/barrier.h"
#include "kernel/bug.h"
#include "kernel/irqflags.h"
#include "kernel/lockdep.h"
#include "kernel/mm.h"
#include "kernel/percpu.h"
#include "kernel/preempt.h"
#include "kernel/sched.h"
#include "kernel/softirq.h"
#include "kernel/spinlock.h"
#include "kernel/time.h"
#include "kernel/trace.h"
#include "kernel/wait.h"
#include "rcu/rcupdate.h"
#include "rcu/rcupreempt/rcupreempt.h"
#include "rcu/rcu.h"

/*
 * The counters start odd even before rcupreempt_init(): a CPU that takes an
 * interrupt that early is running, not dynticks-idle.
 */
struct rcu_data rcu_data[NR_CPUS] = {
	[0 ... NR_CPUS - 1] = { .dynticks_progress_counter = 1 },
};

/*
 * The CPUs the flip machine waits for, 2.6.25's rcu_cpu_online_map:
 * changed under fliplock only, by rcu_online_cpu() as a CPU comes up and
 * rcu_offline_cpu() once it is dead.  Not cpu_online_mask: a dying CPU
 * leaves that first, while its IRQ readers still count on its
 * rcu_flipctr[] and before its callbacks move.
 */
struct cpumask rcu_cpu_online_map;

struct rcu_ctrlblk rcu_ctrlblk = {
	.fliplock = SPINLOCK_INIT("rcu_fliplock"),
	.completed = 0,
	.rcu_try_flip_state = rcu_try_flip_idle_state,
};

static const char *const rcu_try_flip_state_names[] = {
	[rcu_try_flip_idle_state] = "idle",
	[rcu_try_flip_waitack_state] = "waitack",
	[rcu_try_flip_waitzero_state] = "waitzero",
	[rcu_try_flip_waitmb_state] = "waitmb",
};

const char *rcu_try_flip_state_name(int state)
{
	if (state < 0 || state >= RCU_TRY_FLIP_NR_STATES)
		return "?";
	return rcu_try_flip_state_names[state];
}

long rcupreempt_batches_completed(void)
{
	return READ_ONCE(rcu_ctrlblk.completed);
}

/* ------------------------------------------------------------------ */
/* Read side                                                          */
/* ------------------------------------------------------------------ */

/*
 * Interrupt or NMI handlers that run readers nest inside the interrupted
 * task's counters: `current` is still that task, so a handler's reader
 * either just bumps the task's nesting (the task is in a reader) or does a
 * complete, balanced inc/dec of this CPU's rcu_flipctr[] (it is not).
 * Every step below is one READ_ONCE()/WRITE_ONCE(), in an order chosen so
 * that an NMI reader landing between any two of them is harmless.
 *
 * No CPU memory barrier on the read side: ordering against the flip
 * machine comes from the other end.  The tick's acknowledgement (two mbs
 * in __rcu_advance_callbacks()) separates this CPU's uses of the old index
 * from its uses of the new one, and the waitmb state makes every CPU
 * execute an mb after the old counters were seen to sum to zero, before
 * callbacks run.  Readers therefore cost two counter updates and an
 * interrupt disable/enable, nothing more.
 */
/*
 * A reader started while this CPU's dynticks_progress_counter is even: the
 * kernel is running code (a task, or a handler outside rcu_irq_enter())
 * on a CPU it told RCU was idle, and grace periods may end under it.
 * Report once per CPU (this may be NMI context, where printk buffers).
 */
static noinline void rcu_read_lock_idle_report(struct rcu_data *rdp,
					       struct task *t)
{
	if (rdp->idle_reader_reported)
		return;
	rdp->idle_reader_reported = 1;
	WARN(1, "rcu_read_lock: cpu %d task %s: reader while dynticks-idle, dynticks_progress_counter %ld rcu_update_flag %d",
	     raw_smp_processor_id(), t->name,
	     READ_ONCE(rdp->dynticks_progress_counter),
	     READ_ONCE(rdp->rcu_update_flag));
}

/* Set only by a running torture test (torture_lock_delay_us). */
static void (*rcu_read_lock_delay_hook)(void);

static void rcupreempt_read_lock_delay_set(void (*hook)(void))
{
	WRITE_ONCE(rcu_read_lock_delay_hook, hook);
}

void __rcu_read_lock(void)
{
	struct task *t = current;
	int nesting;
	int idx;
	unsigned long flags;
	struct rcu_data *rdp;

	nesting = READ_ONCE(t->rcu_read_lock_nesting);
	if (nesting != 0) {
		/* An enclosing __rcu_read_lock() covers us; just count it. */
		WRITE_ONCE(t->rcu_read_lock_nesting, nesting + 1);
		return;
	}

	/*
	 * Interrupts off: (1) the tick must not acknowledge a flip on this
	 * CPU between our load of completed and our counter increment,
	 * since the ack promises never to increment the old counter again;
	 * (2) we must not migrate between choosing the CPU and incrementing
	 * its counter.  NMIs can still arrive and run readers.
	 */
	local_irq_save(flags);
	rdp = RCU_DATA_CPU(raw_smp_processor_id());
	/*
	 * Invariant check (one load of a field on this line, outermost lock
	 * only): a reader on a CPU that RCU believes dynticks-idle is not
	 * waited for by the flip machine at all.
	 */
	if (unlikely(!(READ_ONCE(rdp->dynticks_progress_counter) & 0x1)))
		rcu_read_lock_idle_report(rdp, t);
	idx = READ_ONCE(rcu_ctrlblk.completed) & 0x1;
	/*
	 * Torture hook (torture_lock_delay_us, rcu/torture.c): widen the
	 * window between the load of completed and the increment, which
	 * only the flip acknowledgement keeps safe, so that a broken
	 * acknowledgement shows up.  Off (one predictable branch) otherwise.
	 */
	if (unlikely(READ_ONCE(rcu_read_lock_delay_hook)))
		rcu_read_lock_delay_hook();
	WRITE_ONCE(rdp->rcu_flipctr[idx], READ_ONCE(rdp->rcu_flipctr[idx]) + 1);
	/*
	 * The counter is incremented, so we are now protected against NMI
	 * readers on this CPU; setting the nesting lets them just count.
	 * (An NMI between the load and the store of the increment above
	 * did a balanced inc/dec of its own, so nothing is lost.)
	 */
	WRITE_ONCE(t->rcu_read_lock_nesting, 1);
	/*
	 * NMI readers no longer touch rcu_flipctr_idx (nesting != 0), so
	 * it is safe to record which counter the matching unlock must
	 * decrement.
	 */
	WRITE_ONCE(t->rcu_flipctr_idx, idx);
	trace_event(TRACE_READER_BEGIN, idx, t->pid);
	local_irq_restore(flags);
}

void __rcu_read_unlock(void)
{
	struct task *t = current;
	int nesting;
	int idx;
	unsigned long flags;
	struct rcu_data *rdp;

	nesting = READ_ONCE(t->rcu_read_lock_nesting);
	if (nesting > 1) {
		WRITE_ONCE(t->rcu_read_lock_nesting, nesting - 1);
		return;
	}
	if (WARN(nesting < 1,
		 "rcu_read_unlock: cpu %d task %s: unbalanced, rcu_read_lock_nesting %d",
		 raw_smp_processor_id(), t->name, nesting))
		return;	/* touching the counters would corrupt them */

	local_irq_save(flags);
	/* First fetch the index, while NMIs still leave it alone ... */
	idx = READ_ONCE(t->rcu_flipctr_idx);
	/*
	 * ... then drop the nesting.  From here an NMI reader does its own
	 * inc/dec of the per-CPU counter (and may overwrite
	 * rcu_flipctr_idx, which we no longer need).
	 */
	WRITE_ONCE(t->rcu_read_lock_nesting, nesting - 1);
	trace_event(TRACE_READER_END, idx, t->pid);
	/*
	 * Decrement the counter of the CPU we are on *now*, which may not
	 * be the one we locked on: only the sum over CPUs means anything.
	 */
	rdp = RCU_DATA_CPU(raw_smp_processor_id());
	WRITE_ONCE(rdp->rcu_flipctr[idx], READ_ONCE(rdp->rcu_flipctr[idx]) - 1);
	local_irq_restore(flags);
}

/* ------------------------------------------------------------------ */
/* Callback advancing                                                 */
/* ------------------------------------------------------------------ */

/*
 * Move callbacks along by one stage if a flip happened since this CPU last
 * looked, then acknowledge any pending flip.  Called on this CPU with its
 * rdp->lock held and interrupts off.
 */
static void __rcu_advance_callbacks(struct rcu_data *rdp)
{
	long completed = READ_ONCE(rcu_ctrlblk.completed);
	int i;

	lockdep_assert_held(&rdp->lock);
	/* The tick takes rdp->lock too, and the ack speaks for this CPU. */
	lockdep_assert_irqs_disabled();
	if (rdp->completed != completed) {
		/* waitlist[last] has waited out enough flips: it is done. */
		if (rdp->waitlist[GP_STAGES - 1] != NULL) {
			*rdp->donetail = rdp->waitlist[GP_STAGES - 1];
			rdp->donetail = rdp->waittail[GP_STAGES - 1];
		}
		for (i = GP_STAGES - 2; i >= 0; i--) {
			if (rdp->waitlist[i] != NULL) {
				rdp->waitlist[i + 1] = rdp->waitlist[i];
				rdp->waittail[i + 1] = rdp->waittail[i];
			} else {
				rdp->waitlist[i + 1] = NULL;
				rdp->waittail[i + 1] = &rdp->waitlist[i + 1];
			}
		}
		if (rdp->nextlist != NULL) {
			rdp->waitlist[0] = rdp->nextlist;
			rdp->waittail[0] = rdp->nexttail;
			rdp->nextlist = NULL;
			rdp->nexttail = &rdp->nextlist;
		} else {
			rdp->waitlist[0] = NULL;
			rdp->waittail[0] = &rdp->waitlist[0];
		}
		/*
		 * One stage per observed change, however many flips it
		 * covered: that only ever delays callbacks.
		 */
		rdp->completed = completed;
	}

	/*
	 * Acknowledge the flip: a promise that this CPU never again
	 * increments the old rcu_flipctr[] index.
	 */
	if (READ_ONCE(rdp->rcu_flip_flag) == rcu_flipped) {
		/*
		 * Orders our load of rcu_flip_flag (it saw rcu_flipped,
		 * which the flip machine stored after the new
		 * rcu_ctrlblk.completed) before our store of rcu_flip_seen
		 * and before this CPU's later loads of completed in
		 * __rcu_read_lock(): once we ack, our readers use the new
		 * index.  Also orders this CPU's earlier rcu_flipctr[]
		 * updates before the ack.
		 */
		smp_mb();
		WRITE_ONCE(rdp->rcu_flip_flag, rcu_flip_seen);
		trace_event(TRACE_FLIP_ACK, 0, completed);
		/*
		 * Orders the store of rcu_flip_seen before the accesses of
		 * this CPU's subsequent RCU read-side critical sections, so
		 * the flip machine sees the ack before their effects.
		 */
		smp_mb();
	}
}

/* ------------------------------------------------------------------ */
/* The grace-period ("flip") state machine                            */
/* ------------------------------------------------------------------ */

/*
 * Idle: start a grace period if this CPU wants one.  Flip the index that
 * new readers use and ask every CPU to acknowledge.
 */
static int rcu_try_flip_idle(void)
{
	int cpu;

	if (!rcu_pending(raw_smp_processor_id()))
		return 0;

	WRITE_ONCE(rcu_ctrlblk.completed, rcu_ctrlblk.completed + 1);
	/*
	 * Orders the store of the new rcu_ctrlblk.completed before the
	 * stores of rcu_flipped below and before the loads of
	 * dynticks_progress_counter in dyntick_save_progress_counter():
	 * a CPU that sees rcu_flipped, or whose snapshot shows it idle,
	 * sees the new completed in its next __rcu_read_lock().
	 */
	smp_mb();
	for_each_cpu(cpu, &rcu_cpu_online_map) {
		WRITE_ONCE(RCU_DATA_CPU(cpu)->rcu_flip_flag, rcu_flipped);
		dyntick_save_progress_counter(cpu);
	}
	return 1;
}

/* Waitack: wait until every CPU acked the flip or is excused. */
static int rcu_try_flip_waitack(void)
{
	int cpu;

	for_each_cpu(cpu, &rcu_cpu_online_map)
		if (rcu_try_flip_waitack_needed(cpu) &&
		    READ_ONCE(RCU_DATA_CPU(cpu)->rcu_flip_flag) !=
		    rcu_flip_seen)
			return 0;
	/*
	 * Orders the loads of rcu_flip_flag (the acks) above before the
	 * loads of rcu_flipctr[] in the waitzero state: the sum must not
	 * be taken before the acks that make it meaningful.
	 */
	smp_mb();
	return 1;
}

/* Waitzero: wait until no reader uses the old index any more. */
static int rcu_try_flip_waitzero(void)
{
	int cpu;
	int lastidx = !(READ_ONCE(rcu_ctrlblk.completed) & 0x1);
	long sum = 0;

	for_each_cpu(cpu, &rcu_cpu_online_map)
		sum += READ_ONCE(RCU_DATA_CPU(cpu)->rcu_flipctr[lastidx]);
	if (sum != 0)
		return 0;
	/*
	 * Orders the loads of rcu_flipctr[] that summed to zero before
	 * the stores of rcu_mb_needed below (and the snapshot loads): a
	 * CPU asked for a memory barrier is asked after the old readers
	 * were seen gone.
	 */
	smp_mb();
	for_each_cpu(cpu, &rcu_cpu_online_map) {
		WRITE_ONCE(RCU_DATA_CPU(cpu)->rcu_mb_flag, rcu_mb_needed);
		dyntick_save_progress_counter(cpu);
	}
	return 1;
}

/* Waitmb: wait until every CPU executed a memory barrier or is excused. */
static int rcu_try_flip_waitmb(void)
{
	int cpu;

	for_each_cpu(cpu, &rcu_cpu_online_map)
		if (rcu_try_flip_waitmb_needed(cpu) &&
		    READ_ONCE(RCU_DATA_CPU(cpu)->rcu_mb_flag) != rcu_mb_done)
			return 0;
	/*
	 * Orders the loads of rcu_mb_flag (the mb responses) above before
	 * the next flip's store to rcu_ctrlblk.completed, and before
	 * callbacks that this grace period releases can run.
	 */
	smp_mb();
	return 1;
}

/*
 * One step of the state machine.  Whoever gets fliplock does the step;
 * everybody else just goes on (the next tick will try again).
 */
static void rcu_try_flip(void)
{
	unsigned long flags;
	int state;
	int next;
	int moved = 0;

	local_irq_save(flags);
	if (unlikely(!spin_trylock(&rcu_ctrlblk.fliplock))) {
		local_irq_restore(flags);
		return;
	}

	state = rcu_ctrlblk.rcu_try_flip_state;
	next = state;
	switch (state) {
	case rcu_try_flip_idle_state:
		if (rcu_try_flip_idle()) {
			next = rcu_try_flip_waitack_state;
			moved = 1;
		}
		break;
	case rcu_try_flip_waitack_state:
		if (rcu_try_flip_waitack()) {
			next = rcu_try_flip_waitzero_state;
			moved = 1;
		}
		break;
	case rcu_try_flip_waitzero_state:
		if (rcu_try_flip_waitzero()) {
			next = rcu_try_flip_waitmb_state;
			moved = 1;
		}
		break;
	case rcu_try_flip_waitmb_state:
		if (rcu_try_flip_waitmb()) {
			next = rcu_try_flip_idle_state;
			moved = 1;
		}
		break;
	}
	WRITE_ONCE(rcu_ctrlblk.rcu_try_flip_state, next);

	/* Bookkeeping, off the read-side fast path: transitions only. */
	if (moved) {
		u64 now = ktime_get_ns();

		trace_gp_state(state, next, rcu_ctrlblk.completed);
		if (state == rcu_try_flip_idle_state)
			rcu_stall_gp_start(now);
		rcu_stats_state_change(state, next, now);
	} else if (state != rcu_try_flip_idle_state) {
		rcu_stall_check(ktime_get_ns());
	}

	spin_unlock_irqrestore(&rcu_ctrlblk.fliplock, flags);
}

/* If the flip machine asked this CPU for a memory barrier, do it. */
static void rcu_check_mb(int cpu)
{
	struct rcu_data *rdp = RCU_DATA_CPU(cpu);

	lockdep_assert_irqs_disabled();
	if (READ_ONCE(rdp->rcu_mb_flag) == rcu_mb_needed) {
		/*
		 * Orders every access of this CPU's prior RCU read-side
		 * critical sections before the store of rcu_mb_done: once
		 * the flip machine sees it, it may end the grace period.
		 */
		smp_mb();
		WRITE_ONCE(rdp->rcu_mb_flag, rcu_mb_done);
		trace_event(TRACE_MB_ACK, 0, rcu_ctrlblk.completed);
	}
}

/*
 * The per-tick entry point: hardirq context, interrupts off, on cpu.
 */
void rcu_check_callbacks(int cpu)
{
	struct rcu_data *rdp = RCU_DATA_CPU(cpu);
	int have_done;

	lockdep_assert_irqs_disabled();
	lockdep_assert_not_in_nmi();	/* takes rdp->lock */
	rcu_check_mb(cpu);
	if (READ_ONCE(rcu_ctrlblk.completed) == rdp->completed)
		rcu_try_flip();
	spin_lock(&rdp->lock);
	__rcu_advance_callbacks(rdp);
	have_done = rdp->donelist != NULL;
	spin_unlock(&rdp->lock);
	if (have_done)
		raise_softirq(RCU_SOFTIRQ);
}

/*
 * RCU_SOFTIRQ: invoke this CPU's done callbacks, outside the lock and with
 * interrupts enabled.
 */
void rcu_process_callbacks(void)
{
	unsigned long flags;
	struct rcu_head *next, *list;
	struct rcu_data *rdp;
	u64 n = 0;

	lockdep_assert_not_in_nmi();	/* takes rdp->lock */
	local_irq_save(flags);
	rdp = RCU_DATA_CPU(raw_smp_processor_id());
	spin_lock(&rdp->lock);
	list = rdp->donelist;
	if (list == NULL) {
		spin_unlock_irqrestore(&rdp->lock, flags);
		return;
	}
	rdp->donelist = NULL;
	rdp->donetail = &rdp->donelist;
	/* rcu_barrier() must not miss callbacks that are in our hands. */
	rdp->invoking++;
	spin_unlock_irqrestore(&rdp->lock, flags);

	while (list) {
		next = list->next;
		trace_event(TRACE_CALLBACK, 0, (u32)(unsigned long)list->func);
		list->func(list);
		list = next;
		n++;
	}

	spin_lock_irqsave(&rdp->lock, flags);
	rdp->invoking--;
	rdp->n_cb_invoked += n;
	spin_unlock_irqrestore(&rdp->lock, flags);
}

/* ------------------------------------------------------------------ */
/* Callback API                                                       */
/* ------------------------------------------------------------------ */

void rcupreempt_call_rcu(struct rcu_head *head, void (*func)(struct rcu_head *head))
{
	unsigned long flags;
	struct rcu_data *rdp;

	lockdep_assert_not_in_nmi();	/* takes rdp->lock */
	head->func = func;
	head->next = NULL;
	local_irq_save(flags);
	rdp = RCU_DATA_CPU(raw_smp_processor_id());
	spin_lock(&rdp->lock);
	/*
	 * Advance first, so that the new callback goes behind whatever
	 * flip this CPU has not noticed yet (and so that it may ack it).
	 */
	__rcu_advance_callbacks(rdp);
	*rdp->nexttail = head;
	rdp->nexttail = &head->next;
	/* Pairs with local_irq_save() + spin_lock(), as spin_lock_irqsave(). */
	spin_unlock_irqrestore(&rdp->lock, flags);
}

/*
 * rcu_barrier()'s step (rcu/rcupdate_wait.c): queue head behind cpu's
 * callbacks.  Only the owning CPU advances and invokes its lists, in
 * order; a CPU with nothing queued and nothing being invoked is skipped
 * (only that CPU can make its own lists non-empty again, and its tick may
 * be stopped).
 */
bool rcupreempt_barrier_entrain(int cpu, struct rcu_head *head)
{
	struct rcu_data *rdp = RCU_DATA_CPU(cpu);
	unsigned long flags;
	bool queued;

	spin_lock_irqsave(&rdp->lock, flags);
	queued = rcupreempt_needs_cpu(cpu) || rdp->invoking;
	if (queued) {
		*rdp->nexttail = head;
		rdp->nexttail = &head->next;
	}
	spin_unlock_irqrestore(&rdp->lock, flags);
	return queued;
}

/*
 * The polled API.  This flavour has no grace-period sequence: a cookie is
 * a `completed` value far enough ahead that every reader running at the
 * get has finished once `completed` reaches it (a callback queued at the
 * get is done after GP_STAGES + 1 flips at most).  It has no
 * start_poll_synchronize_rcu(): its flips run only while some CPU has
 * callbacks, and nothing here queues one, so the op is NULL and
 * rcu/update.c hands out get_state's cookie.  Poll may then stay false
 * while nothing else asks for grace periods; cond_synchronize_rcu()
 * still works.
 */
static unsigned long rcupreempt_get_state_synchronize_rcu(void)
{
	/* Orders the caller's prior accesses before the load of completed. */
	smp_mb();
	return (unsigned long)rcupreempt_batches_completed() + GP_STAGES + 1;
}

static bool rcupreempt_poll_state_synchronize_rcu(unsigned long cookie)
{
	bool done = (long)((unsigned long)rcupreempt_batches_completed() -
			   cookie) >= 0;

	/* Orders the load of completed before the caller's later frees. */
	smp_mb();
	return done;
}

/* ------------------------------------------------------------------ */
/* Queries for the tick and the idle loop                             */
/* ------------------------------------------------------------------ */

/* Does this CPU have callbacks anywhere?  Caller holds rdp->lock or owns
 * the CPU with interrupts off; a stale answer only delays idling. */
static int rcu_has_callbacks(struct rcu_data *rdp)
{
	int i;

	if (READ_ONCE(rdp->donelist) != NULL ||
	    READ_ONCE(rdp->nextlist) != NULL)
		return 1;
	for (i = 0; i < GP_STAGES; i++)
		if (READ_ONCE(rdp->waitlist[i]) != NULL)
			return 1;
	return 0;
}

int rcu_pending(int cpu)
{
	struct rcu_data *rdp = RCU_DATA_CPU(cpu);

	/* The CPU has at least one callback queued somewhere. */
	if (rcu_has_callbacks(rdp))
		return 1;

	/* The RCU core needs an acknowledgement from this CPU. */
	if (READ_ONCE(rdp->rcu_flip_flag) == rcu_flipped ||
	    READ_ONCE(rdp->rcu_mb_flag) == rcu_mb_needed)
		return 1;

	/* This CPU has fallen behind the global grace-period number. */
	if (READ_ONCE(rdp->completed) != READ_ONCE(rcu_ctrlblk.completed))
		return 1;

	return 0;
}

/*
 * True while cpu has callbacks: its tick must keep running so that they
 * advance.  A CPU without callbacks owes the flip machine nothing that the
 * dynticks check cannot excuse, so it may stop its tick.
 */
int rcupreempt_needs_cpu(int cpu)
{
	return rcu_has_callbacks(RCU_DATA_CPU(cpu));
}

static long rcu_list_len(struct rcu_head *h)
{
	long n = 0;

	for (; h; h = h->next)
		n++;
	return n;
}

/*
 * How many callbacks wait on cpu, counted on the lists themselves: the
 * watchdog asks this of CPUs whose tick has stopped, and must not trust
 * rcupreempt_needs_cpu(), whose answer stopped it.
 */
static long rcupreempt_cb_count(int cpu)
{
	struct rcu_data *rdp = RCU_DATA_CPU(cpu);
	unsigned long flags;
	long n;
	int i;

	spin_lock_irqsave(&rdp->lock, flags);
	n = rcu_list_len(rdp->nextlist) + rcu_list_len(rdp->donelist);
	for (i = 0; i < GP_STAGES; i++)
		n += rcu_list_len(rdp->waitlist[i]);
	spin_unlock_irqrestore(&rdp->lock, flags);
	return n;
}

/* ------------------------------------------------------------------ */
/* CPU hotplug, as 2.6.25's CPU_UP_PREPARE and CPU_DEAD notifiers did    */
/* ------------------------------------------------------------------ */

/*
 * Move list (from *head to the tail pointer tail) to the end of *list;
 * 2.6.25's rcu_offline_cpu_enqueue().
 */
static void rcu_offline_cpu_enqueue(struct rcu_head *head,
				    struct rcu_head **tail,
				    struct rcu_head ***list_tail)
{
	if (head == NULL)
		return;
	**list_tail = head;
	*list_tail = tail;
}

/* rdp's callback lists, every stage empty: at boot, and once emptied. */
static void rcu_data_lists_init(struct rcu_data *rdp)
{
	int i;

	rdp->nextlist = NULL;
	rdp->nexttail = &rdp->nextlist;
	for (i = 0; i < GP_STAGES; i++) {
		rdp->waitlist[i] = NULL;
		rdp->waittail[i] = &rdp->waitlist[i];
	}
	rdp->donelist = NULL;
	rdp->donetail = &rdp->donelist;
}

/*
 * cpu is dead (parked, IRQs off for ever): on a surviving CPU, take its
 * place.  Its callbacks join ours, in order, as new ones (they wait a
 * whole grace period more, as 2.6.25's did: simple, and never early).
 * Under fliplock: its owed ack and memory barrier are given for it (it
 * runs no reader any more), its rcu_flipctr[] counts move to ours (a
 * reader it counted, preempted and migrated, still decrements on the CPU
 * it unlocks on: only the sum means anything), and it leaves the map.
 */
static void rcu_offline_cpu(int cpu)
{
	struct rcu_data *rdp = RCU_DATA_CPU(cpu);
	struct rcu_head *list = NULL, **tail = &list;
	struct rcu_data *me;
	unsigned long flags;
	int i;

	spin_lock_irqsave(&rdp->lock, flags);
	rcu_offline_cpu_enqueue(rdp->donelist, rdp->donetail, &tail);
	for (i = GP_STAGES - 1; i >= 0; i--)
		rcu_offline_cpu_enqueue(rdp->waitlist[i], rdp->waittail[i],
					&tail);
	rcu_offline_cpu_enqueue(rdp->nextlist, rdp->nexttail, &tail);
	rcu_data_lists_init(rdp);
	spin_unlock(&rdp->lock);

	/* IRQs stay off: me is this CPU's until the end. */
	me = RCU_DATA_CPU(raw_smp_processor_id());
	spin_lock(&rcu_ctrlblk.fliplock);
	if (READ_ONCE(rdp->rcu_mb_flag) == rcu_mb_needed)
		WRITE_ONCE(rdp->rcu_mb_flag, rcu_mb_done);
	if (READ_ONCE(rdp->rcu_flip_flag) == rcu_flipped)
		WRITE_ONCE(rdp->rcu_flip_flag, rcu_flip_seen);
	for (i = 0; i < 2; i++) {
		WRITE_ONCE(me->rcu_flipctr[i], READ_ONCE(me->rcu_flipctr[i]) +
			   READ_ONCE(rdp->rcu_flipctr[i]));
		WRITE_ONCE(rdp->rcu_flipctr[i], 0);
	}
	cpumask_clear_cpu(cpu, &rcu_cpu_online_map);
	/*
	 * The acks given above and the counts moved: fliplock's release
	 * orders them before the next flip-machine step, which takes
	 * fliplock (trylock) and reads them.  The dead CPU's own last
	 * stores were ordered before this by cpu_die()'s release of DEAD
	 * and cpu_down()'s acquire of it.
	 */
	spin_unlock(&rcu_ctrlblk.fliplock);

	spin_lock(&me->lock);
	*me->nexttail = list;
	if (list)
		me->nexttail = tail;
	spin_unlock_irqrestore(&me->lock, flags);
}

/*
 * On cpu as it comes up, IRQs off, before its first reader: the flip
 * machine waits for it from the next step on.  It joins with its ack and
 * memory barrier given (rcu_offline_cpu() left them so; a CPU never
 * offline starts so): a flip already under way needs neither from a CPU
 * that had no reader, and its readers from now on take the index of
 * rcu_ctrlblk.completed as fliplock shows it.
 */
static void rcu_online_cpu(int cpu)
{
	struct rcu_data *rdp = RCU_DATA_CPU(cpu);

	lockdep_assert_irqs_disabled();
	spin_lock(&rcu_ctrlblk.fliplock);
	WARN_ON(READ_ONCE(rdp->rcu_flip_flag) != rcu_flip_seen ||
		READ_ONCE(rdp->rcu_mb_flag) != rcu_mb_done ||
		rdp->rcu_flipctr[0] || rdp->rcu_flipctr[1]);
	cpumask_set_cpu(cpu, &rcu_cpu_online_map);
	spin_unlock(&rcu_ctrlblk.fliplock);
}

/* ------------------------------------------------------------------ */
/* Boot                                                               */
/* ------------------------------------------------------------------ */

void rcupreempt_init(void)
{
	int cpu;

	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		struct rcu_data *rdp = RCU_DATA_CPU(cpu);

		spin_lock_init(&rdp->lock, "rcu_data");
		rdp->completed = 0;
		rdp->rcu_flipctr[0] = 0;
		rdp->rcu_flipctr[1] = 0;
		rdp->rcu_flip_flag = rcu_flip_seen;
		rdp->rcu_mb_flag = rcu_mb_done;
		rcu_data_lists_init(rdp);
		rdp->invoking = 0;
		rdp->n_cb_invoked = 0;
		rdp->idle_reader_reported = 0;
		rcu_dynticks_init_cpu(cpu);
	}
	cpumask_clear(&rcu_cpu_online_map);	/* CPUs join as they start */
	spin_lock_init(&rcu_ctrlblk.fliplock, "rcu_fliplock");
	rcu_ctrlblk.completed = 0;
	rcu_ctrlblk.rcu_try_flip_state = rcu_try_flip_idle_state;
	rcu_stats_init(ktime_get_ns());
	open_softirq(RCU_SOFTIRQ, rcu_process_callbacks);
}

/* ------------------------------------------------------------------ */
/* The flavour's table (rcu/update.c dispatches through it)           */
/* ------------------------------------------------------------------ */

static bool rcupreempt_cpu_watching(int cpu)
{
	return READ_ONCE(RCU_DATA_CPU(cpu)->dynticks_progress_counter) & 0x1;
}

static long rcupreempt_cpu_watching_counter(int cpu)
{
	return READ_ONCE(RCU_DATA_CPU(cpu)->dynticks_progress_counter);
}

static bool rcupreempt_entered_from_idle(unsigned int depth)
{
	int cpu = raw_smp_processor_id();

	return READ_ONCE(RCU_DATA_CPU(cpu)->rcu_update_flag) == (int)depth;
}

static const char *rcupreempt_gp_state_name(void)
{
	return rcu_try_flip_state_name(READ_ONCE(rcu_ctrlblk.rcu_try_flip_state));
}

/*
 * rcu/torture.c's flip-acknowledgement check.  g0 was read with IRQs off
 * just before the reader's outermost __rcu_read_lock(), so this CPU could
 * not acknowledge a flip in between: the lock used completed == g0, or
 * g0 + 1 if a flip started meanwhile, and the reader's index tells which
 * (g1).  While the reader holds that index, the flip to g1 + 1 cannot
 * finish its waitzero state, so completed stays <= g1 + 1 and the machine
 * does not reach waitmb of that flip; otherwise the flip was not
 * acknowledged before the sum was taken.  completed is read on both sides
 * of the state, so the state belongs to that flip.
 */
static bool rcupreempt_torture_gp_passed(long g0)
{
	long g1 = g0 + ((g0 & 1) != READ_ONCE(current->rcu_flipctr_idx));
	long ga, gb;
	int st;

	ga = rcupreempt_batches_completed();
	st = READ_ONCE(rcu_ctrlblk.rcu_try_flip_state);
	gb = rcupreempt_batches_completed();
	return gb >= g1 + 2 ||
	       (ga == g1 + 1 && gb == ga && st == rcu_try_flip_waitmb_state);
}

const struct rcu_flavor_ops rcupreempt_flavor_ops = {
	.name = "rcupreempt",
	.init = rcupreempt_init,
	.call_rcu = rcupreempt_call_rcu,
	.barrier_entrain = rcupreempt_barrier_entrain,
	.batches_completed = rcupreempt_batches_completed,
	.get_state_synchronize_rcu = rcupreempt_get_state_synchronize_rcu,
	.poll_state_synchronize_rcu = rcupreempt_poll_state_synchronize_rcu,
	.sched_clock_irq = rcu_check_callbacks,
	.needs_cpu = rcupreempt_needs_cpu,
	.cb_count = rcupreempt_cb_count,
	.stall_report = rcu_stall_report,
	.cpu_starting = rcu_online_cpu,
	.cpu_dead = rcu_offline_cpu,
	.idle_enter = rcu_enter_nohz,
	.idle_exit = rcu_exit_nohz,
	.irq_enter = rcu_irq_enter,
	.irq_exit = rcu_irq_exit,
	.nmi_enter = rcu_irq_enter,	/* 2.6.25: NMIs share the IRQ hooks */
	.nmi_exit = rcu_irq_exit,
	.cpu_watching = rcupreempt_cpu_watching,
	.cpu_watching_counter = rcupreempt_cpu_watching_counter,
	.entered_from_idle = rcupreempt_entered_from_idle,
	.gp_state_name = rcupreempt_gp_state_name,
	.stats_print = rcupreempt_stats_print,
	.stats_get = rcupreempt_stats_get,
	.read_lock_delay_set = rcupreempt_read_lock_delay_set,
	.torture_gp_passed = rcupreempt_torture_gp_passed,
};
