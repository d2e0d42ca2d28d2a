/*
 * Model 6 of 7 ("Validating Nested Interrupt Handlers"): model 5 with
 * the interrupt handler split into entry and exit halves so that
 * interrupts can nest.  i counts entries and j exits; an exit is allowed
 * whenever j < i, so any nesting up to MAX_DYNTICK_LOOP_IRQ deep occurs.
 * The safety check samples grace_period_state on entry to the outermost
 * handler and checks it on exit from the outermost handler.
 * Expected to pass.
 * Written from the listings of the 2008 LWN article "Integrating and
 * Validating dynticks and Preemptable RCU".
 *
 * Bounds may be overridden:
 *	spin -DMAX_DYNTICK_LOOP_NOHZ=1 -DMAX_DYNTICK_LOOP_IRQ=2 -a <file>
 */

#ifndef MAX_DYNTICK_LOOP_NOHZ
#define MAX_DYNTICK_LOOP_NOHZ 3
#endif
#ifndef MAX_DYNTICK_LOOP_IRQ
#define MAX_DYNTICK_LOOP_IRQ 3
#endif

/* One CPU's per-CPU variables; the CPU starts dynticks-idle (even). */
byte dynticks_progress_counter = 0;
byte rcu_update_flag = 0;
byte in_interrupt = 0;

/* Set while the interrupt handler runs, so that mainline can wait. */
bit in_dyntick_irq = 0;

#define GP_IDLE		0
#define GP_WAITING	1
#define GP_DONE		2
byte grace_period_state = GP_DONE;

/* Set when each process has finished, for the liveness check. */
bit dyntick_nohz_done = 0;
bit dyntick_irq_done = 0;

proctype grace_period()
{
	byte curr;
	byte snap;
	bit shouldexit;

	grace_period_state = GP_IDLE;
	atomic {
		printf("MAX_DYNTICK_LOOP_NOHZ = %d\n", MAX_DYNTICK_LOOP_NOHZ);
		printf("MAX_DYNTICK_LOOP_IRQ = %d\n", MAX_DYNTICK_LOOP_IRQ);
		shouldexit = 0;
		snap = dynticks_progress_counter;
		grace_period_state = GP_WAITING;
	}
	/* rcu_try_flip_waitack() / rcu_try_flip_waitack_needed() */
	do
	:: 1 ->
		atomic {
			assert(!shouldexit);
			shouldexit = dyntick_nohz_done && dyntick_irq_done;
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
	grace_period_state = GP_DONE;
	grace_period_state = GP_IDLE;
	atomic {
		shouldexit = 0;
		snap = dynticks_progress_counter;
		grace_period_state = GP_WAITING;
	}
	/* rcu_try_flip_waitmb() / rcu_try_flip_waitmb_needed() */
	do
	:: 1 ->
		atomic {
			assert(!shouldexit);
			shouldexit = dyntick_nohz_done && dyntick_irq_done;
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
	grace_period_state = GP_DONE;
}

/*
 * Run stmt atomically, but only when no interrupt handler is running;
 * otherwise branch out of the atomic block and try again.
 */
#define EXECUTE_MAINLINE(label, stmt) \
label: skip; \
	atomic { \
		if \
		:: in_dyntick_irq -> goto label; \
		:: else -> stmt; \
		fi; \
	}

proctype dyntick_nohz()
{
	byte tmp;
	byte i = 0;
	bit old_gp_idle;

	do
	:: i >= MAX_DYNTICK_LOOP_NOHZ -> break;
	:: i < MAX_DYNTICK_LOOP_NOHZ ->
		/* rcu_exit_nohz() */
		EXECUTE_MAINLINE(stmt1, tmp = dynticks_progress_counter)
		EXECUTE_MAINLINE(stmt2,
			dynticks_progress_counter = tmp + 1;
			old_gp_idle = (grace_period_state == GP_IDLE);
			assert((dynticks_progress_counter & 1) == 1))
		/* rcu_enter_nohz() */
		EXECUTE_MAINLINE(stmt3,
			tmp = dynticks_progress_counter;
			assert(!old_gp_idle || grace_period_state != GP_DONE))
		EXECUTE_MAINLINE(stmt4,
			dynticks_progress_counter = tmp + 1;
			assert((dynticks_progress_counter & 1) == 0))
		i++;
	od;
	dyntick_nohz_done = 1;
}

/*
 * Up to MAX_DYNTICK_LOOP_IRQ interrupt entries and as many exits, in any
 * nesting.  in_dyntick_irq stays set until the outermost handler exits.
 */
proctype dyntick_irq()
{
	byte tmp;
	byte i = 0;
	byte j = 0;
	bit old_gp_idle;
	bit outermost;

	do
	:: i >= MAX_DYNTICK_LOOP_IRQ && j >= MAX_DYNTICK_LOOP_IRQ -> break;
	:: i < MAX_DYNTICK_LOOP_IRQ ->
		/* Interrupt entry; tell dyntick_nohz() to stall. */
		atomic {
			outermost = (in_dyntick_irq == 0);
			in_dyntick_irq = 1;
		}
		/* rcu_irq_enter() */
		if
		:: rcu_update_flag > 0 ->
			tmp = rcu_update_flag;
			rcu_update_flag = tmp + 1;
		:: else -> skip;
		fi;
		if
		:: !in_interrupt && (dynticks_progress_counter & 1) == 0 ->
			tmp = dynticks_progress_counter;
			dynticks_progress_counter = tmp + 1;
			tmp = rcu_update_flag;
			rcu_update_flag = tmp + 1;
		:: else -> skip;
		fi;
		/* __irq_enter(): add_preempt_count() */
		tmp = in_interrupt;
		in_interrupt = tmp + 1;
		/* The outermost handler's reader starts here. */
		atomic {
			if
			:: outermost ->
				old_gp_idle = (grace_period_state == GP_IDLE);
			:: else -> skip;
			fi;
		}
		i++;
	:: j < i ->
		/* Exit; the outermost handler's reader ends here. */
		atomic {
			if
			:: j + 1 == i ->
				assert(!old_gp_idle ||
				       grace_period_state != GP_DONE);
			:: else -> skip;
			fi;
		}
		/* __irq_exit(): sub_preempt_count() */
		tmp = in_interrupt;
		in_interrupt = tmp - 1;
		/* rcu_irq_exit() */
		if
		:: rcu_update_flag != 0 ->
			tmp = rcu_update_flag;
			rcu_update_flag = tmp - 1;
			if
			:: rcu_update_flag == 0 ->
				tmp = dynticks_progress_counter;
				dynticks_progress_counter = tmp + 1;
			:: else -> skip;
			fi;
		:: else -> skip;
		fi;
		/* Let mainline go once the outermost handler is gone. */
		atomic {
			j++;
			in_dyntick_irq = (i != j);
		}
	od;
	dyntick_irq_done = 1;
}

init {
	atomic {
		run dyntick_nohz();
		run dyntick_irq();
		run grace_period();
	}
}
