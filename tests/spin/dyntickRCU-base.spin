/*
 * Model 1 of 7 ("Basic Model"): the process-level dynticks entry/exit code
 * of Linux 2.6.25-rc4 against the grace-period side, written from the
 * listings of the 2008 LWN article "Integrating and Validating dynticks
 * and Preemptable RCU".  No safety or liveness checks yet: it only shows
 * that the model runs.
 *
 * Bounds may be overridden from the command line:
 *	spin -DMAX_DYNTICK_LOOP_NOHZ=2 -a dyntickRCU-base.spin
 * A bound of N covers every run of 0..N loops.
 */

#ifndef MAX_DYNTICK_LOOP_NOHZ
#define MAX_DYNTICK_LOOP_NOHZ 3
#endif

/*
 * One CPU's per-CPU variables, modelled as globals (Quick Quiz 7: the
 * grace-period code handles each CPU independently, so one is enough).
 * The counter starts even: the modelled CPU starts dynticks-idle, which
 * is why the loop below exits idle before it enters it (Quick Quiz 6).
 */
byte dynticks_progress_counter = 0;
byte rcu_update_flag = 0;
byte in_interrupt = 0;

/*
 * dyntick_save_progress_counter(), rcu_try_flip_waitack_needed() and
 * rcu_try_flip_waitmb_needed() as called during one grace period.
 */
proctype grace_period()
{
	byte curr;
	byte snap;

	/* rcu_try_flip_idle(): take the snapshot. */
	atomic {
		printf("MAX_DYNTICK_LOOP_NOHZ = %d\n", MAX_DYNTICK_LOOP_NOHZ);
		snap = dynticks_progress_counter;
	}

	/* Each pass is one scheduling-clock tick in rcu_try_flip_waitack(). */
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

	/* rcu_try_flip_waitzero(): snapshot again. */
	snap = dynticks_progress_counter;

	/* Each pass is one tick in rcu_try_flip_waitmb(). */
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
}

/*
 * rcu_exit_nohz() then rcu_enter_nohz(), MAX_DYNTICK_LOOP_NOHZ times.
 * The increments are split into a load and a store because the C "++"
 * is not atomic; the WARN_ON()s are folded into the store's atomic block
 * because they are checks, not part of the algorithm.
 */
proctype dyntick_nohz()
{
	byte tmp;
	byte i = 0;

	do
	:: i >= MAX_DYNTICK_LOOP_NOHZ -> break;
	:: i < MAX_DYNTICK_LOOP_NOHZ ->
		/* rcu_exit_nohz() */
		tmp = dynticks_progress_counter;
		atomic {
			dynticks_progress_counter = tmp + 1;
			assert((dynticks_progress_counter & 1) == 1);
		}
		/* rcu_enter_nohz() */
		tmp = dynticks_progress_counter;
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
