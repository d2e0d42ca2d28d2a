/*
 * The modern design's idle protocol: context tracking's atomic counter
 * and nmi_nesting, against Tree RCU's force-quiescent-state scan and the
 * scheduling-clock tick, as in Linux 6.12 (docs/modern.md explains the
 * design; this kernel's code for it is rcu/tree/context_tracking.c and
 * rcu/tree/tree.c).  The steps, and the 6.12 function behind each:
 *
 *   mainline, idle -> kernel	ct_idle_exit() -> ct_kernel_enter():
 *				ct_kernel_enter_state() steps the counter
 *				to watching (one atomic_add_return()),
 *				WARN_ON_ONCE(ct_nmi_nesting()), then
 *				nmi_nesting = CT_NESTING_IRQ_NONIDLE
 *   mainline, kernel -> idle	ct_idle_enter() -> ct_kernel_exit():
 *				WARN_ON_ONCE(nmi_nesting != NONIDLE),
 *				nmi_nesting = 0, then ct_kernel_exit_state()
 *				steps the counter to idle
 *   interrupt or NMI entry	ct_irq_enter() / ct_nmi_enter(): if
 *				!rcu_is_watching_curr_cpu(), step the
 *				counter to watching and add 1 to
 *				nmi_nesting; else add 2
 *   interrupt or NMI exit	ct_irq_exit() / ct_nmi_exit():
 *				WARN_ON_ONCE(nmi_nesting <= 0),
 *				WARN_ON_ONCE(!rcu_is_watching_curr_cpu());
 *				at nesting 1, nmi_nesting = 0 and step the
 *				counter back to idle; else subtract 2
 *   the tick, or the		any interrupt, at any nesting level, may be
 *   expedited IPI		the tick or the expedited grace period's IPI;
 *				it reports a quiescent state by the rule of
 *				the code (below)
 *   softirqs			irq_exit() of the outermost interrupt may run
 *				softirqs, IRQs on, the softirq count raised
 *				(kernel/irq.c, kernel/softirq.c): nested
 *				interrupts may land there; the softirq holds
 *				a reader
 *   FQS, first pass		rcu_watching_snap_save(): snapshot the
 *				counter; a CPU not watching (an extended
 *				quiescent state) is excused
 *   FQS, later passes		rcu_watching_snap_recheck(): a CPU whose
 *				counter moved since the snapshot
 *				(rcu_watching_snap_stopped_since()) is
 *				excused
 *
 * Interrupts run with interrupts disabled, so ct_kernel_enter/exit()
 * cannot be interrupted by an interrupt (irqs_off), but an NMI may land
 * between any two of their steps.  ct_nmi_enter/exit() read nmi_nesting
 * and write it back in two steps, so an NMI may land in an interrupt's
 * window too.  Process level keeps nmi_nesting at NONIDLE (Linux uses
 * LONG_MAX / 2 + 1; any value far above the interrupt nesting does).
 *
 * The counter is abstracted as in dyntickRCU-unbounded.spin: its parity
 * (odd = watching here; CT_RCU_WATCHING in Linux) and whether it moved
 * since the snapshot.  Every update is one atomic step and no process
 * holds a copy, so the counter only grows and the abstraction is exact:
 * the grace period's two tests (snapshot not watching, counter moved)
 * read exactly what it keeps.
 *
 * The quiescent-state rule.  By default, dynrcu's: the tick
 * (rcu_tree_sched_clock_irq(), rcu_flavor_sched_clock_irq()) and the
 * expedited IPI (rcu_exp_handler(), tree_exp.c) report one when the
 * task's rcu_read_lock_nesting is 0, and every reader, the task's, a
 * handler's, a softirq's, counts on the task (rcu_nesting here).  With
 * -DLINUX_RULES, Linux 6.12's for PREEMPT_RCU: the softirq's reader is
 * BH-disabled (the softirq count, not rcu_read_lock()); the tick
 * (rcu_flavor_sched_clock_irq()) reports when rcu_preempt_depth() is 0
 * and preempt_count() has no PREEMPT or SOFTIRQ bits; the IPI
 * (rcu_exp_handler()) when rcu_preempt_depth() is 0 and either no such
 * bits or rcu_is_cpu_rrupt_from_idle(): nmi_nesting <= 1 and
 * ct_nesting() == 0.  No preempt_disable() region is modelled, so the
 * PREEMPT bits are always 0.  The model has one grace period; a report
 * from the IPI ends it as the tick's does, since an expedited grace
 * period owes its readers the same.
 *
 * Checks: the readers' safety assertion (a reader that started before a
 * grace period must not see it end), the WARN_ON_ONCE()s above, and,
 * unbounded, the LTL property gp_ends under weak fairness: a grace period
 * that starts ends, as long as mainline keeps passing the top of its
 * idle loop.  With MAX_DYNTICK_LOOP_NOHZ, _IRQ and _NMI defined, the
 * loops are bounded as in model 7 (two grace periods, liveness by
 * shouldexit), for state counts side by side with it.
 */

#ifdef MAX_DYNTICK_LOOP_NOHZ
#define BOUNDED
#endif
/* Unbounded, interrupts nest at most MAX_IRQ_NEST deep: no less than the
 * bounded runs' (3,3,3), and deep enough for an interrupt nested in a
 * softirq nested in the outermost one's exit. */
#ifndef MAX_IRQ_NEST
#define MAX_IRQ_NEST	3
#endif

#define NONIDLE		16	/* CT_NESTING_IRQ_NONIDLE */

/* ct->state's RCU_WATCHING part, abstracted: parity, moved since snap. */
bit ctr_par = 0;		/* 1: watching */
bit ctr_moved = 0;
bit snap_par = 0;

byte nmi_nesting = 0;		/* ct->nmi_nesting; the CPU starts idle */
bit ct_nesting = 0;		/* ct->nesting: 1 in the kernel, 0 idle */
bit irqs_off = 0;		/* mainline inside ct_kernel_enter/exit() */
byte rcu_nesting = 0;		/* current->rcu_read_lock_nesting */
bit softirq = 0;		/* the softirq count of the outermost exit */
bit qs_reported = 0;		/* rcu_qs() for the current grace period */

#ifdef LINUX_RULES
/* a BH-disabled reader: the softirq count alone */
#define SOFT_READER_LOCK	skip
#define SOFT_READER_UNLOCK	skip
/* rcu_is_cpu_rrupt_from_idle() */
#define RRUPT_FROM_IDLE		(nmi_nesting <= 1 && ct_nesting == 0)
/* rcu_flavor_sched_clock_irq(), PREEMPT_RCU */
#define TICK_QS			(rcu_nesting == 0 && !softirq)
/* rcu_exp_handler(), PREEMPT_RCU */
#define IPI_QS			(rcu_nesting == 0 && (!softirq || RRUPT_FROM_IDLE))
#else
#define SOFT_READER_LOCK	rcu_nesting++
#define SOFT_READER_UNLOCK	rcu_nesting--
/* rcu_tree_sched_clock_irq(), rcu_flavor_sched_clock_irq() */
#define TICK_QS			(rcu_nesting == 0)
/* rcu_exp_handler() */
#define IPI_QS			(rcu_nesting == 0)
#endif

bit in_dyntick_irq = 0;
bit in_dyntick_nmi = 0;

#define GP_IDLE		0
#define GP_WAITING	1
#define GP_DONE		2
byte grace_period_state = GP_DONE;

/* ct_kernel_enter_state() / ct_kernel_exit_state(): atomic_add_return() */
inline ctr_step()
{
	ctr_par = 1 - ctr_par;
	ctr_moved = 1;
}

#ifdef BOUNDED
bit dyntick_nohz_done = 0;
bit dyntick_irq_done = 0;
bit dyntick_nmi_done = 0;
#define NOHZ_MORE	(i < MAX_DYNTICK_LOOP_NOHZ)
#define NOHZ_DONE	(i >= MAX_DYNTICK_LOOP_NOHZ)
#define NOHZ_STEP	i++
#define IRQ_MORE	(i < MAX_DYNTICK_LOOP_IRQ)
#define IRQ_DONE \
	(i >= MAX_DYNTICK_LOOP_IRQ && j >= MAX_DYNTICK_LOOP_IRQ)
#define IRQ_RESET	skip
#define NMI_MORE	(i < MAX_DYNTICK_LOOP_NMI)
#define NMI_DONE	(i >= MAX_DYNTICK_LOOP_NMI)
#define NMI_STEP	i++
#define SHOULDEXIT_CHECK \
	assert(!shouldexit); \
	shouldexit = dyntick_nohz_done && dyntick_irq_done && \
		     dyntick_nmi_done
#define SHOULDEXIT_CLEAR	shouldexit = 0
#define GP_LOOP_BEGIN	do :: gps < 2 -> gps++;
#define GP_LOOP_END	:: else -> break; od;
#else
/* Mainline may stay idle for good, and interrupts and NMIs stop for good
 * (between handlers), so that weak fairness forces none of them on. */
#define NOHZ_MORE	1
#define NOHZ_DONE	1
bit nohz_stopped = 0;
#define NOHZ_STEP	skip
#define IRQ_MORE	(i - j < MAX_IRQ_NEST)
#define IRQ_DONE	(i == j)
#define IRQ_RESET	i = i - j; j = 0
#define NMI_MORE	1
#define NMI_DONE	1
#define NMI_STEP	skip
#define SHOULDEXIT_CHECK	skip
#define SHOULDEXIT_CLEAR	skip
#define GP_LOOP_BEGIN	do :: 1 ->
#define GP_LOOP_END	od;
#endif

/* rcu_gp_kthread(): rcu_gp_init(), the FQS loop, rcu_gp_cleanup(). */
proctype grace_period()
{
#ifdef BOUNDED
	bit shouldexit;
	byte gps = 0;
#endif

	GP_LOOP_BEGIN
	/* rcu_gp_init(): the grace period starts; readers from now on
	 * need not be waited for. */
	grace_period_state = GP_IDLE;
	atomic {
		SHOULDEXIT_CLEAR;
		qs_reported = 0;
		grace_period_state = GP_WAITING;
	}
	/* C: rcu_watching_snap_save */
	/* rcu_gp_fqs(), first pass: rcu_watching_snap_save() */
	atomic {
		snap_par = ctr_par;
		ctr_moved = 0;
		if
		:: qs_reported -> goto gp_end;
		:: snap_par == 0 -> goto gp_end;	/* in an EQS */
		:: else -> skip;
		fi;
	}
	/* C: end */
	/* C: rcu_watching_snap_recheck */
	/* later passes: rcu_watching_snap_recheck() */
	do
	:: 1 ->
		atomic {
			SHOULDEXIT_CHECK;
			if
			:: qs_reported -> break;
			:: ctr_moved -> break;		/* moved since snap */
			:: else -> skip;
			fi;
		}
	od;
	/* C: end */
gp_end:
	/* rcu_gp_cleanup() */
	atomic {
		snap_par = 0;
		grace_period_state = GP_DONE;
	}
	GP_LOOP_END
}

#define EXECUTE_MAINLINE(stmt) \
	atomic { !in_dyntick_irq && !in_dyntick_nmi -> stmt }

/* The idle loop: ct_idle_exit(), a reader, ct_idle_enter(). */
proctype dyntick_nohz()
{
	byte i = 0;
	bit old_gp_idle;

	do
	:: NOHZ_DONE -> break;
	:: NOHZ_MORE ->
		/* C: ct_idle_exit */
		/* ct_idle_exit() -> ct_kernel_enter(), irqs disabled */
nohz_ack:	EXECUTE_MAINLINE(
			irqs_off = 1;
			assert(ctr_par == 0);
			ctr_step();
			assert(ctr_par == 1))
		EXECUTE_MAINLINE(
			ct_nesting = 1;
			assert(nmi_nesting == 0);
			nmi_nesting = NONIDLE;
			irqs_off = 0)
		/* C: end */
		/* rcu_read_lock() ... rcu_read_unlock() */
		EXECUTE_MAINLINE(
			rcu_nesting++;
			old_gp_idle = (grace_period_state == GP_IDLE))
		EXECUTE_MAINLINE(
			assert(!old_gp_idle || grace_period_state != GP_DONE);
			old_gp_idle = 0;
			rcu_nesting--)
		/* C: ct_idle_enter */
		/* ct_idle_enter() -> ct_kernel_exit(), irqs disabled */
		EXECUTE_MAINLINE(
			irqs_off = 1;
			assert(nmi_nesting == NONIDLE);
			nmi_nesting = 0)
		EXECUTE_MAINLINE(
			ct_nesting = 0;
			assert(ctr_par == 1);
			ctr_step();
			assert(ctr_par == 0);
			irqs_off = 0)
		/* C: end */
		NOHZ_STEP;
	od;
#ifdef BOUNDED
	dyntick_nohz_done = 1;
#else
	nohz_stopped = 1;
#endif
}

#define EXECUTE_IRQ(stmt)	atomic { !in_dyntick_nmi -> stmt }

/* Interrupts, nested up to MAX_IRQ_NEST deep; any of them may be the
 * tick or the expedited IPI. */
proctype dyntick_irq()
{
	byte tmp;
	byte i = 0;
	byte j = 0;
	bit incby1;
	bit old_gp_idle;
	bit outermost;

	do
	:: IRQ_DONE -> break;
	:: IRQ_MORE ->
		/* C: ct_irq_enter */
		/* ct_irq_enter() -> ct_nmi_enter() */
		atomic {
			!in_dyntick_nmi && (in_dyntick_irq || !irqs_off) ->
			outermost = (in_dyntick_irq == 0);
			in_dyntick_irq = 1;
			assert(nmi_nesting < 128);	/* WARN: < 0 */
			if
			:: ctr_par == 0 ->
				ctr_step();
				incby1 = 1;
			:: else -> skip;
			fi;
		}
		EXECUTE_IRQ(tmp = nmi_nesting)
		EXECUTE_IRQ(
			if
			:: incby1 -> nmi_nesting = tmp + 1;
			:: else -> nmi_nesting = tmp + 2;
			fi;
			tmp = 0;
			incby1 = 0)
		/* C: end */
		/* The tick or the expedited IPI, or another interrupt. */
		EXECUTE_IRQ(
			if
			:: grace_period_state == GP_WAITING ->
				if
				:: TICK_QS -> qs_reported = 1;	/* tick */
				:: IPI_QS -> qs_reported = 1;	/* IPI */
				:: skip;			/* other */
				fi;
			:: else -> skip;
			fi)
		/* The outermost handler's reader starts here. */
		EXECUTE_IRQ(
			if
			:: outermost ->
				rcu_nesting++;
				old_gp_idle = (grace_period_state == GP_IDLE);
			:: else -> skip;
			fi;
			outermost = 0;
			i++)
	:: j < i ->
		if
		:: j + 1 == i && !softirq ->
			/* The outermost handler's reader ends here. */
			EXECUTE_IRQ(
				assert(!old_gp_idle ||
				       grace_period_state != GP_DONE);
				old_gp_idle = 0;
				rcu_nesting--)
			/* irq_exit(): softirqs run, IRQs on, or none */
			if
			:: EXECUTE_IRQ(
				softirq = 1;
				SOFT_READER_LOCK;
				old_gp_idle = (grace_period_state == GP_IDLE))
			:: skip;
			fi;
		:: j + 1 == i && softirq ->
			/* The softirq's reader ends; softirqs done. */
			EXECUTE_IRQ(
				assert(!old_gp_idle ||
				       grace_period_state != GP_DONE);
				old_gp_idle = 0;
				SOFT_READER_UNLOCK;
				softirq = 0)
		:: j + 1 != i -> skip;
		fi;
		if
		:: j + 1 == i && softirq -> goto irq_next;	/* in softirq */
		:: else -> skip;
		fi;
		/* C: ct_irq_exit */
		/* ct_irq_exit() -> ct_nmi_exit() */
		EXECUTE_IRQ(
			tmp = nmi_nesting;
			assert(tmp > 0 && tmp < 128);	/* WARN: <= 0 */
			assert(ctr_par == 1))		/* WARN: !watching */
		if
		:: tmp != 1 ->
			EXECUTE_IRQ(nmi_nesting = tmp - 2; tmp = 0)
		:: else ->
			EXECUTE_IRQ(nmi_nesting = 0; tmp = 0)
			EXECUTE_IRQ(ctr_step())
		fi;
		/* C: end */
		atomic {
			j++;
			in_dyntick_irq = (i != j);
			IRQ_RESET;
		}
irq_next:	skip;
	od;
#ifdef BOUNDED
	dyntick_irq_done = 1;
#endif
}

/* NMIs: ct_nmi_enter(), a reader, ct_nmi_exit(); never nested. */
proctype dyntick_nmi()
{
	byte i = 0;
	bit old_gp_idle;
	bit incby1;

	do
	:: NMI_DONE -> break;
	:: NMI_MORE ->
		/* C: ct_nmi_enter_nmi */
		atomic {
			in_dyntick_nmi = 1;
			assert(nmi_nesting < 128);
			if
			:: ctr_par == 0 ->
				ctr_step();
				incby1 = 1;
			:: else -> skip;
			fi;
			if
			:: incby1 -> nmi_nesting = nmi_nesting + 1;
			:: else -> nmi_nesting = nmi_nesting + 2;
			fi;
			incby1 = 0;
		}
		/* C: end */
		old_gp_idle = (grace_period_state == GP_IDLE);
		atomic {
			assert(!old_gp_idle || grace_period_state != GP_DONE);
			old_gp_idle = 0;
			/* C: ct_nmi_exit_nmi */
			assert(nmi_nesting > 0 && nmi_nesting < 128);
			assert(ctr_par == 1);
			if
			:: nmi_nesting != 1 ->
				nmi_nesting = nmi_nesting - 2;
				NMI_STEP;
				in_dyntick_nmi = 0;
				goto nmi_next;
			:: else ->
				nmi_nesting = 0;
			fi;
		}
		atomic {
			ctr_step();
			NMI_STEP;
			in_dyntick_nmi = 0;
		}
		/* C: end */
nmi_next:	skip;
	od;
#ifdef BOUNDED
	dyntick_nmi_done = 1;
#endif
}

#ifndef BOUNDED
/*
 * A grace period that starts ends, as long as mainline keeps passing the
 * top of its idle loop or stays idle for good, and the CPU keeps leaving
 * interrupt handlers; written, as in dyntickRCU-unbounded.spin, as the
 * negation of "all that, and the grace period waits for ever".  The
 * claims after it must fail: weak fairness forces neither interrupts
 * nor NMIs.
 */
#define nohz_at_ack	dyntick_nohz[1]@nohz_ack
#define gp_waiting	(grace_period_state == GP_WAITING)
ltl gp_ends {
	!(([]<> (nohz_at_ack || nohz_stopped)) &&
	  ([]<> (!nohz_at_ack || nohz_stopped)) &&
	  ([]<> !in_dyntick_irq) && (<>[] gp_waiting))
}
ltl irqs_forced { []<> in_dyntick_irq }
ltl nmis_forced { []<> in_dyntick_nmi }
#endif

init {
	atomic {
		run dyntick_nohz();
		run dyntick_irq();
		run dyntick_nmi();
		run grace_period();
	}
}
