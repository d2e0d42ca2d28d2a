/*
 * Model 7 of 7 ("Validating NMI Handlers"): model 6 plus a never-nesting
 * NMI handler that runs the same rcu_irq_enter()/rcu_irq_exit() code.
 * An NMI can interrupt both mainline and the interrupt handler, at any
 * point, so both of them stall while in_dyntick_nmi is set
 * (EXECUTE_MAINLINE, EXECUTE_IRQ).  Steps of dyntick_irq() that touch
 * only its own local state need not stall.  Expected to pass.
 * Written from the listings of the 2008 LWN article "Integrating and
 * Validating dynticks and Preemptable RCU".
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

/* One CPU's per-CPU variables; the CPU starts dynticks-idle (even). */
byte dynticks_progress_counter = 0;
byte rcu_update_flag = 0;
byte in_interrupt = 0;

/* Set while the interrupt handler runs, so that mainline can wait. */
bit in_dyntick_irq = 0;

/* Set while the NMI handler runs: mainline and interrupts wait. */
bit in_dyntick_nmi = 0;

#define GP_IDLE		0
#define GP_WAITING	1
#define GP_DONE		2
byte grace_period_state = GP_DONE;

/* Set when each process has finished, for the liveness check. */
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
		snap = dynticks_progress_counter;
		grace_period_state = GP_WAITING;
	}
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
	grace_period_state = GP_DONE;
}

/*
 * Run stmt atomically, but only when no interrupt or NMI handler is
 * running; otherwise branch out of the atomic block and try again.
 */
#define EXECUTE_MAINLINE(label, stmt) \
label: skip; \
	atomic { \
		if \
		:: in_dyntick_irq || in_dyntick_nmi -> goto label; \
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
 * Run stmt atomically, but only when no NMI handler is running: an NMI
 * runs to completion before the interrupted handler continues.
 */
#define EXECUTE_IRQ(label, stmt) \
label: skip; \
	atomic { \
		if \
		:: in_dyntick_nmi -> goto label; \
		:: else -> stmt; \
		fi; \
	}

/*
 * Model 6's interrupt handler with every access to shared state wrapped
 * in EXECUTE_IRQ().  An "if" whose branches must not run atomically is
 * open-coded as an excluded test that jumps to then/else labels.
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
		atomic {
			outermost = (in_dyntick_irq == 0);
			in_dyntick_irq = 1;
		}
		/* rcu_irq_enter(): if (rcu_update_flag) rcu_update_flag++ */
stmt1:		skip;
		atomic {
			if
			:: in_dyntick_nmi -> goto stmt1;
			:: !in_dyntick_nmi && rcu_update_flag ->
				goto stmt1_then;
			:: else -> goto stmt1_else;
			fi;
		}
stmt1_then:	skip;
		EXECUTE_IRQ(stmt1_1, tmp = rcu_update_flag)
		EXECUTE_IRQ(stmt1_2, rcu_update_flag = tmp + 1)
stmt1_else:	skip;
		/* if (!in_interrupt() && counter even) { ++; mb; flag++ } */
stmt2:		skip;
		atomic {
			if
			:: in_dyntick_nmi -> goto stmt2;
			:: !in_dyntick_nmi &&
			   !in_interrupt &&
			   (dynticks_progress_counter & 1) == 0 ->
				goto stmt2_then;
			:: else -> goto stmt2_else;
			fi;
		}
stmt2_then:	skip;
		EXECUTE_IRQ(stmt2_1, tmp = dynticks_progress_counter)
		EXECUTE_IRQ(stmt2_2, dynticks_progress_counter = tmp + 1)
		EXECUTE_IRQ(stmt2_3, tmp = rcu_update_flag)
		EXECUTE_IRQ(stmt2_4, rcu_update_flag = tmp + 1)
stmt2_else:	skip;
		/* __irq_enter(): add_preempt_count() */
		EXECUTE_IRQ(stmt3, tmp = in_interrupt)
		EXECUTE_IRQ(stmt4, in_interrupt = tmp + 1)
		/*
		 * The outermost handler's reader starts here.  The article's
		 * listing retries at stmt4, not stmt5, while an NMI runs;
		 * kept as written: redoing "in_interrupt = tmp + 1" after an
		 * NMI (which restores in_interrupt) stores the same value.
		 */
stmt5:		skip;
		atomic {
			if
			:: in_dyntick_nmi -> goto stmt4;
			:: !in_dyntick_nmi && outermost ->
				old_gp_idle = (grace_period_state == GP_IDLE);
			:: else -> skip;
			fi;
		}
		i++;
	:: j < i ->
		/* The outermost handler's reader ends here. */
stmt6:		skip;
		atomic {
			if
			:: in_dyntick_nmi -> goto stmt6;
			:: !in_dyntick_nmi && j + 1 == i ->
				assert(!old_gp_idle ||
				       grace_period_state != GP_DONE);
			:: else -> skip;
			fi;
		}
		/* __irq_exit(): sub_preempt_count() */
		EXECUTE_IRQ(stmt7, tmp = in_interrupt);
		EXECUTE_IRQ(stmt8, in_interrupt = tmp - 1);
		/* rcu_irq_exit() */
stmt9:		skip;
		atomic {
			if
			:: in_dyntick_nmi -> goto stmt9;
			:: !in_dyntick_nmi && rcu_update_flag != 0 ->
				goto stmt9_then;
			:: else -> goto stmt9_else;
			fi;
		}
stmt9_then:	skip;
		EXECUTE_IRQ(stmt9_1, tmp = rcu_update_flag)
		EXECUTE_IRQ(stmt9_2, rcu_update_flag = tmp - 1)
stmt9_3:	skip;
		atomic {
			if
			:: in_dyntick_nmi -> goto stmt9_3;
			:: !in_dyntick_nmi && rcu_update_flag == 0 ->
				goto stmt9_3_then;
			:: else -> goto stmt9_3_else;
			fi;
		}
stmt9_3_then:	skip;
		EXECUTE_IRQ(stmt9_3_1, tmp = dynticks_progress_counter)
		EXECUTE_IRQ(stmt9_3_2, dynticks_progress_counter = tmp + 1)
stmt9_3_else:
stmt9_else:	skip;
		atomic {
			j++;
			in_dyntick_irq = (i != j);
		}
	od;
	dyntick_irq_done = 1;
}

/*
 * Up to MAX_DYNTICK_LOOP_NMI NMIs.  They never nest, and nothing on this
 * CPU interrupts them, so only grace_period() interleaves with them.
 */
proctype dyntick_nmi()
{
	byte tmp;
	byte i = 0;
	bit old_gp_idle;

	do
	:: i >= MAX_DYNTICK_LOOP_NMI -> break;
	:: i < MAX_DYNTICK_LOOP_NMI ->
		in_dyntick_nmi = 1;
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
		/* __irq_enter() */
		tmp = in_interrupt;
		in_interrupt = tmp + 1;
		/* The NMI handler's reader. */
		old_gp_idle = (grace_period_state == GP_IDLE);
		assert(!old_gp_idle || grace_period_state != GP_DONE);
		/* __irq_exit() */
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
