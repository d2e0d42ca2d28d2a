/*
 * Model 2 of 7 ("Validating Safety"): model 1 plus a safety check.
 * grace_period() publishes its progress in grace_period_state.  When the
 * CPU leaves dynticks-idle it may start an RCU reader, so dyntick_nohz()
 * notes whether the grace period was idle then, and asserts, before it
 * goes idle again, that the grace period has not meanwhile reached
 * GP_DONE: a reader may span that whole interval.
 * Written from the listings of the 2008 LWN article "Integrating and
 * Validating dynticks and Preemptable RCU".
 *
 * Bounds may be overridden: spin -DMAX_DYNTICK_LOOP_NOHZ=2 -a <file>
 */

#ifndef MAX_DYNTICK_LOOP_NOHZ
#define MAX_DYNTICK_LOOP_NOHZ 3
#endif

/* One CPU's per-CPU variables; the CPU starts dynticks-idle (even). */
byte dynticks_progress_counter = 0;
byte rcu_update_flag = 0;
byte in_interrupt = 0;

#define GP_IDLE		0
#define GP_WAITING	1
#define GP_DONE		2
byte grace_period_state = GP_DONE;

proctype grace_period()
{
	byte curr;
	byte snap;

	grace_period_state = GP_IDLE;
	atomic {
		printf("MAX_DYNTICK_LOOP_NOHZ = %d\n", MAX_DYNTICK_LOOP_NOHZ);
		snap = dynticks_progress_counter;
		grace_period_state = GP_WAITING;
	}
	/* rcu_try_flip_waitack() / rcu_try_flip_waitack_needed() */
	do
	:: 1 ->
		atomic {
			curr = dynticks_progress_counter;
			if
			:: (curr == snap) && ((curr & 1) == 0) ->
				break;
			:: (curr - snap) > 2 || (snap & 1) == 0 ->
				break;
			:: 1 -> skip;
			fi;
		}
	od;
	/*
	 * Two separate assignments: the reader processes must be able to
	 * see GP_DONE (Quick Quiz 8), and each Promela statement is a
	 * separate step, so they can.
	 */
	grace_period_state = GP_DONE;
	grace_period_state = GP_IDLE;
	/* rcu_try_flip_waitzero(): snapshot again. */
	atomic {
		snap = dynticks_progress_counter;
		grace_period_state = GP_WAITING;
	}
	/* rcu_try_flip_waitmb() / rcu_try_flip_waitmb_needed() */
	do
	:: 1 ->
		atomic {
			curr = dynticks_progress_counter;
			if
			:: (curr == snap) && ((curr & 1) == 0) ->
				break;
			:: (curr != snap) ->
				break;
			:: 1 -> skip;
			fi;
		}
	od;
	grace_period_state = GP_DONE;
}

proctype dyntick_nohz()
{
	byte tmp;
	byte i = 0;
	bit old_gp_idle;

	do
	:: i >= MAX_DYNTICK_LOOP_NOHZ -> break;
	:: i < MAX_DYNTICK_LOOP_NOHZ ->
		/* rcu_exit_nohz(): from here on readers may run. */
		tmp = dynticks_progress_counter;
		atomic {
			dynticks_progress_counter = tmp + 1;
			old_gp_idle = (grace_period_state == GP_IDLE);
			assert((dynticks_progress_counter & 1) == 1);
		}
		/* rcu_enter_nohz(): a reader may have lasted until here. */
		atomic {
			tmp = dynticks_progress_counter;
			assert(!old_gp_idle || grace_period_state != GP_DONE);
		}
		atomic {
			dynticks_progress_counter = tmp + 1;
			assert((dynticks_progress_counter & 1) == 0);
		}
		i++;
	od;
}

init {
	atomic {
		run dyntick_nohz();
		run grace_period();
	}
}
