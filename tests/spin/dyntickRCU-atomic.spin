/*
 * The simpler design of the article's conclusion: the dynticks counter
 * is updated only with atomic instructions.  rcu_exit_nohz() and
 * rcu_enter_nohz() use atomic_inc(); an interrupt or NMI handler entry
 * uses cmpxchg() to make an even (idle) counter odd, remembering on its
 * own stack that it did so, and its exit undoes exactly that with another
 * atomic increment.  No rcu_update_flag, no in_interrupt() test, and no
 * window for a nested handler or NMI to land in the middle of a
 * read-modify-write: interrupts nest strictly, so by the time a handler
 * exits, everything that interrupted it has restored the counter.
 * (value-returning atomics are full barriers in Linux, so the seed
 * patch's ordering question does not arise.)
 *
 * Same processes, checks and bounds as model 7, so that the state counts
 * can be compared.  Expected to pass.
 *
 * The kernel's rcu=tree implements this model (rcu/tree/context_tracking.c,
 * rcu/tree/tree.c); each step below is one statement there.  The counter is
 * ct->state / CT_RCU_WATCHING, odd here = the CT_RCU_WATCHING bit set
 * there; did_inc at a nesting level is "nmi_nesting == 1" there (the
 * outermost handler woke RCU: ct_nmi_enter() added 1, not 2).
 *   dyntick_nohz stmt1   ct_idle_exit(): ct_state_inc(CT_RCU_WATCHING -
 *                        CT_STATE_IDLE), one atomic_add_return()
 *   dyntick_nohz stmt2   ct_idle_enter(): ct_state_inc(CT_RCU_WATCHING +
 *                        CT_STATE_IDLE)
 *   dyntick_irq stmt1,   ct_irq_enter() -> ct_nmi_enter(): if
 *   dyntick_nmi entry    !rcu_is_watching_curr_cpu(), ct_state_inc() and
 *                        nmi_nesting += 1, else nmi_nesting += 2.  The
 *                        model's cmpxchg is that test and add: handlers
 *                        nest strictly, so nothing changes the counter
 *                        between them.
 *   dyntick_irq stmt2,   ct_irq_exit() -> ct_nmi_exit(): nmi_nesting == 1
 *   dyntick_nmi exit     ? (nmi_nesting = 0, ct_state_inc()) : nmi_nesting
 *                        -= 2
 *   grace_period, snap   rcu_gp_fqs(true) -> rcu_watching_snap_save():
 *                        snap = ct_rcu_watching_cpu_acquire(); even
 *                        (not watching) excuses the CPU
 *   grace_period, curr   rcu_gp_fqs(false) -> rcu_watching_snap_recheck():
 *                        curr != snap (the CPU passed through idle) or
 *                        curr even excuses it
 * The model's two waits are the 2008 waitack and waitmb; the tree waits
 * once per grace period, with the same two tests.
 *
 * Bounds may be overridden:
 *	spin -DMAX_DYNTICK_LOOP_NOHZ=1 -DMAX_DYNTICK_LOOP_IRQ=2 \
 *	     -DMAX_DYNTICK_LOOP_NMI=1 -a <file>
 */

#ifndef MAX_DYNTICK_LOOP_NOHZ
#define MAX_DYNTICK_LOOP_NOHZ 3
#endif
#ifndef MAX_DYNTICK_LOOP_IRQ
#define MAX_DYNTICK_LOOP_IRQ 3
#endif
#ifndef MAX_DYNTICK_LOOP_NMI
#define MAX_DYNTICK_LOOP_NMI 3
#endif

/* One CPU's counter: even while dynticks-idle; it starts idle. */
byte dynticks_progress_counter = 0;

/* Set while a handler runs: what it interrupted waits. */
bit in_dyntick_irq = 0;
bit in_dyntick_nmi = 0;

#define GP_IDLE		0
#define GP_WAITING	1
#define GP_DONE		2
byte grace_period_state = GP_DONE;

bit dyntick_nohz_done = 0;
bit dyntick_irq_done = 0;
bit dyntick_nmi_done = 0;

proctype grace_period()
{
	byte curr;
	byte snap;
	bit shouldexit;

	grace_period_state = GP_IDLE;
	atomic {
		printf("MAX_DYNTICK_LOOP_NOHZ = %d\n", MAX_DYNTICK_LOOP_NOHZ);
		printf("MAX_DYNTICK_LOOP_IRQ = %d\n", MAX_DYNTICK_LOOP_IRQ);
		printf("MAX_DYNTICK_LOOP_NMI = %d\n", MAX_DYNTICK_LOOP_NMI);
		shouldexit = 0;
		/* C: rcu_watching_snap_save */
		snap = dynticks_progress_counter;
		/* C: end */
		grace_period_state = GP_WAITING;
	}
	/* C: rcu_watching_snap_recheck */
	/* rcu_try_flip_waitack() / rcu_try_flip_waitack_needed() */
	do
	:: 1 ->
		atomic {
			assert(!shouldexit);
			shouldexit = dyntick_nohz_done &&
				     dyntick_irq_done &&
				     dyntick_nmi_done;
			curr = dynticks_progress_counter;
			if
			:: (curr == snap) && ((curr & 1) == 0) ->
				break;
			:: (curr - snap) > 2 || (curr & 1) == 0 ->
				break;
			:: else -> skip;
			fi;
		}
	od;
	/* C: end */
	grace_period_state = GP_DONE;
	grace_period_state = GP_IDLE;
	atomic {
		shouldexit = 0;
		/* C: rcu_watching_snap_save */
		snap = dynticks_progress_counter;
		/* C: end */
		grace_period_state = GP_WAITING;
	}
	/* C: rcu_watching_snap_recheck */
	/* rcu_try_flip_waitmb() / rcu_try_flip_waitmb_needed() */
	do
	:: 1 ->
		atomic {
			assert(!shouldexit);
			shouldexit = dyntick_nohz_done &&
				     dyntick_irq_done &&
				     dyntick_nmi_done;
			curr = dynticks_progress_counter;
			if
			:: (curr == snap) && ((curr & 1) == 0) ->
				break;
			:: (curr != snap) ->
				break;
			:: else -> skip;
			fi;
		}
	od;
	/* C: end */
	grace_period_state = GP_DONE;
}

#define EXECUTE_MAINLINE(label, stmt) \
label: skip; \
	atomic { \
		if \
		:: in_dyntick_irq || in_dyntick_nmi -> goto label; \
		:: else -> stmt; \
		fi; \
	}

#define EXECUTE_IRQ(label, stmt) \
label: skip; \
	atomic { \
		if \
		:: in_dyntick_nmi -> goto label; \
		:: else -> stmt; \
		fi; \
	}

/* Task level: each increment is one atomic_inc(). */
proctype dyntick_nohz()
{
	byte i = 0;
	bit old_gp_idle;

	do
	:: i >= MAX_DYNTICK_LOOP_NOHZ -> break;
	:: i < MAX_DYNTICK_LOOP_NOHZ ->
		/* C: ct_idle_exit */
		/* rcu_exit_nohz(): atomic_inc(); a reader may follow. */
		EXECUTE_MAINLINE(stmt1,
			dynticks_progress_counter++;
			old_gp_idle = (grace_period_state == GP_IDLE);
			assert((dynticks_progress_counter & 1) == 1))
		/* C: end */
		/* C: ct_idle_enter */
		/* rcu_enter_nohz(): the reader is over; atomic_inc(). */
		EXECUTE_MAINLINE(stmt2,
			assert(!old_gp_idle || grace_period_state != GP_DONE);
			dynticks_progress_counter++;
			assert((dynticks_progress_counter & 1) == 0))
		/* C: end */
		i++;
	od;
	dyntick_nohz_done = 1;
}

/*
 * Nested interrupts as in model 7.  did_inc[] is each nesting level's
 * stack: whether that level's entry found the CPU idle and made it busy.
 */
proctype dyntick_irq()
{
	byte i = 0;
	byte j = 0;
	bit did_inc[MAX_DYNTICK_LOOP_IRQ];
	bit old_gp_idle;
	bit outermost;

	do
	:: i >= MAX_DYNTICK_LOOP_IRQ && j >= MAX_DYNTICK_LOOP_IRQ -> break;
	:: i < MAX_DYNTICK_LOOP_IRQ ->
		atomic {
			outermost = (in_dyntick_irq == 0);
			in_dyntick_irq = 1;
		}
		/* C: ct_irq_enter */
		/* rcu_irq_enter(): cmpxchg(&counter, even, even + 1) */
		EXECUTE_IRQ(stmt1,
			if
			:: (dynticks_progress_counter & 1) == 0 ->
				dynticks_progress_counter++;
				did_inc[i - j] = 1;
			:: else -> skip;
			fi;
			assert((dynticks_progress_counter & 1) == 1);
			if
			:: outermost ->
				old_gp_idle = (grace_period_state == GP_IDLE);
			:: else -> skip;
			fi)
		/* C: end */
		i++;
	:: j < i ->
		/* C: ct_irq_exit */
		/* rcu_irq_exit(): undo this level's increment, if any. */
		EXECUTE_IRQ(stmt2,
			if
			:: j + 1 == i ->
				assert(!old_gp_idle ||
				       grace_period_state != GP_DONE);
			:: else -> skip;
			fi;
			if
			:: did_inc[i - j - 1] ->
				dynticks_progress_counter++;
				did_inc[i - j - 1] = 0;
			:: else -> skip;
			fi)
		/* C: end */
		atomic {
			j++;
			in_dyntick_irq = (i != j);
		}
	od;
	dyntick_irq_done = 1;
}

/* NMIs: the same entry and exit, never nested. */
proctype dyntick_nmi()
{
	byte i = 0;
	bit did_inc;
	bit old_gp_idle;

	do
	:: i >= MAX_DYNTICK_LOOP_NMI -> break;
	:: i < MAX_DYNTICK_LOOP_NMI ->
		in_dyntick_nmi = 1;
		/* C: ct_nmi_enter_nmi */
		/* rcu_irq_enter(): cmpxchg(&counter, even, even + 1) */
		atomic {
			if
			:: (dynticks_progress_counter & 1) == 0 ->
				dynticks_progress_counter++;
				did_inc = 1;
			:: else -> skip;
			fi;
			assert((dynticks_progress_counter & 1) == 1);
			old_gp_idle = (grace_period_state == GP_IDLE);
		}
		/* C: end */
		/* C: ct_nmi_exit_nmi */
		/* rcu_irq_exit() */
		atomic {
			assert(!old_gp_idle || grace_period_state != GP_DONE);
			if
			:: did_inc ->
				dynticks_progress_counter++;
				did_inc = 0;
			:: else -> skip;
			fi;
		}
		/* C: end */
		atomic {
			i++;
			in_dyntick_nmi = 0;
		}
	od;
	dyntick_nmi_done = 1;
}

init {
	atomic {
		run dyntick_nohz();
		run dyntick_irq();
		run dyntick_nmi();
		run grace_period();
	}
}
