/*
 * Model 3 of 7 ("Validating Liveness", first version): model 2 plus a
 * liveness check, with rcu_try_flip_waitack_needed() as it was in
 * 2.6.25-rc4: its second test checks snap, not curr, for evenness.
 * This model is EXPECTED TO FAIL: once dyntick_nohz() has finished with
 * the CPU idle, a snapshot taken while the CPU was busy (odd) and a
 * current value one higher (even) satisfies neither exit condition, so
 * grace_period() loops for ever, and the liveness assertion fires.
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

/* Set when dyntick_nohz() has finished: nothing can change after that. */
bit dyntick_nohz_done = 0;

/*
 * Liveness trick: once every other process is done, nothing can change
 * the counter, so a loop that does not exit on the pass that first sees
 * "done" never will.  shouldexit is set on that pass and asserted clear
 * on the next one.
 */
proctype grace_period()
{
	byte curr;
	byte snap;
	bit shouldexit;

	grace_period_state = GP_IDLE;
	atomic {
		printf("MAX_DYNTICK_LOOP_NOHZ = %d\n", MAX_DYNTICK_LOOP_NOHZ);
		shouldexit = 0;
		snap = dynticks_progress_counter;
		grace_period_state = GP_WAITING;
	}
	/* rcu_try_flip_waitack() / rcu_try_flip_waitack_needed() */
	do
	:: 1 ->
		atomic {
			assert(!shouldexit);
			shouldexit = dyntick_nohz_done;
			curr = dynticks_progress_counter;
			if
			:: (curr == snap) && ((curr & 1) == 0) ->
				break;
			/* The 2.6.25-rc4 bug: tests snap, should test curr. */
			:: (curr - snap) > 2 || (snap & 1) == 0 ->
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
			shouldexit = dyntick_nohz_done;
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

proctype dyntick_nohz()
{
	byte tmp;
	byte i = 0;
	bit old_gp_idle;

	do
	:: i >= MAX_DYNTICK_LOOP_NOHZ -> break;
	:: i < MAX_DYNTICK_LOOP_NOHZ ->
		/* rcu_exit_nohz() */
		tmp = dynticks_progress_counter;
		atomic {
			dynticks_progress_counter = tmp + 1;
			old_gp_idle = (grace_period_state == GP_IDLE);
			assert((dynticks_progress_counter & 1) == 1);
		}
		/* rcu_enter_nohz() */
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
	dyntick_nohz_done = 1;
}

init {
	atomic {
		run dyntick_nohz();
		run grace_period();
	}
}
