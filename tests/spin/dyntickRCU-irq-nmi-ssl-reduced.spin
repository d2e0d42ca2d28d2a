/*
 * Model 7 restructured for the (3,3,3) proof on a small machine (the
 * answer to the article's Quick Quiz 1).  Same algorithm, same checks,
 * same verdicts as dyntickRCU-irq-nmi-ssl.spin; fewer states, because:
 *
 *  1. Waiting is blocking.  EXECUTE_MAINLINE()/EXECUTE_IRQ() busy-wait
 *     ("label: skip; atomic { if :: flag -> goto label ...") and so add
 *     a "skip" state before every guarded statement plus the spinning
 *     states themselves; "atomic { !flag -> stmt }" reaches the same
 *     values of every variable with neither.
 *  2. Dead values are cleared.  tmp, old_gp_idle and outermost are reset
 *     to 0 in the step that last reads them, so states that differ only
 *     in a value that will never be read again become one state.
 *  3. The NMI handler is reduced (Lipton).  While it runs, mainline and
 *     the interrupt handler are stalled, and grace_period() never touches
 *     rcu_update_flag, in_interrupt or the NMI's locals.  So the NMI's
 *     steps on those commute with every step that can interleave with
 *     them, and the counter loads commute too (grace_period() only reads
 *     the counter).  Each block below therefore holds at most one step
 *     another process can see (a counter store or a grace_period_state
 *     load), preceded only by right-movers (setting in_dyntick_nmi, the
 *     lock acquire) and private steps, and followed only by private
 *     steps and left-movers (clearing in_dyntick_nmi, the release).
 *  4. The interrupt's entry step (setting in_dyntick_irq, a lock acquire
 *     read by no NMI step) waits for no NMI, merging it with the first
 *     test; i++ joins the step before it (it is local).
 *
 * The invariant that keeps 3 sound: every atomic block of dyntick_nmi()
 * holds at most one grace-period-visible access (a store to the counter
 * or a load of grace_period_state), with only private steps and the
 * in_dyntick_nmi acquire before it and only private steps and the
 * release after it.  Two visible accesses in one block hide the window
 * between them: moving the NMI reader's sample of grace_period_state into
 * block A, the audit's edit, made a real bug pass at every bound up to
 * (3,3,3).  The NMI_* macros assert the invariant as the model runs, and
 * run.py's reduction lint rejects an access that bypasses them; the
 * mutants R-nmi-early-gp-sample and R-nmi-early-gp-sample-raw show each
 * check catching such an edit.
 *
 * docs/spin-big.md gives the argument at length.  "make verify" checks that
 * this model catches every mutant of model 7 at small bounds (mutants/R-*);
 * "make verify-big" checks that it agrees with model 7, mutants included,
 * at the largest bounds both can run, (3,2,2).
 *
 * Bounds may be overridden:
 *	spin -DMAX_DYNTICK_LOOP_NOHZ=3 -DMAX_DYNTICK_LOOP_IRQ=3 \
 *	     -DMAX_DYNTICK_LOOP_NMI=3 -a <file>
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
		/* C: dyntick_save_progress_counter */
		snap = dynticks_progress_counter;
		/* C: end */
		grace_period_state = GP_WAITING;
	}
	/* C: rcu_try_flip_waitack_needed */
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
		/* C: dyntick_save_progress_counter */
		snap = dynticks_progress_counter;
		/* C: end */
		grace_period_state = GP_WAITING;
	}
	/* C: rcu_try_flip_waitmb_needed */
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

/* Run stmt atomically once no interrupt or NMI handler is running. */
#define EXECUTE_MAINLINE(stmt) \
	atomic { !in_dyntick_irq && !in_dyntick_nmi -> stmt }

proctype dyntick_nohz()
{
	byte tmp;
	byte i = 0;
	bit old_gp_idle;

	do
	:: i >= MAX_DYNTICK_LOOP_NOHZ -> break;
	:: i < MAX_DYNTICK_LOOP_NOHZ ->
		/* C: rcu_exit_nohz */
		/* rcu_exit_nohz() */
		EXECUTE_MAINLINE(tmp = dynticks_progress_counter)
		EXECUTE_MAINLINE(
			dynticks_progress_counter = tmp + 1;
			tmp = 0;
			old_gp_idle = (grace_period_state == GP_IDLE);
			assert((dynticks_progress_counter & 1) == 1))
		/* C: end */
		/* C: rcu_enter_nohz */
		/* rcu_enter_nohz() */
		EXECUTE_MAINLINE(
			tmp = dynticks_progress_counter;
			assert(!old_gp_idle || grace_period_state != GP_DONE);
			old_gp_idle = 0)
		EXECUTE_MAINLINE(
			dynticks_progress_counter = tmp + 1;
			tmp = 0;
			assert((dynticks_progress_counter & 1) == 0))
		/* C: end */
		i++;
	od;
	dyntick_nohz_done = 1;
}

/* Run stmt atomically once no NMI handler is running. */
#define EXECUTE_IRQ(stmt)	atomic { !in_dyntick_nmi -> stmt }

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
		/* C: rcu_irq_enter */
		/* Entry, then rcu_irq_enter()'s "if (rcu_update_flag)". */
		atomic {
			!in_dyntick_nmi ->
			outermost = (in_dyntick_irq == 0);
			in_dyntick_irq = 1;
			if
			:: rcu_update_flag == 0 -> goto stmt1_else;
			:: else -> skip;
			fi;
		}
		EXECUTE_IRQ(tmp = rcu_update_flag)
		EXECUTE_IRQ(rcu_update_flag = tmp + 1; tmp = 0)
stmt1_else:
		/* if (!in_interrupt() && counter even) { ++; mb; flag++ } */
		atomic {
			!in_dyntick_nmi;
			if
			:: !in_interrupt &&
			   (dynticks_progress_counter & 1) == 0 -> skip;
			:: else -> goto stmt2_else;
			fi;
		}
		EXECUTE_IRQ(tmp = dynticks_progress_counter)
		EXECUTE_IRQ(dynticks_progress_counter = tmp + 1; tmp = 0)
		EXECUTE_IRQ(tmp = rcu_update_flag)
		EXECUTE_IRQ(rcu_update_flag = tmp + 1; tmp = 0)
stmt2_else:
		/* C: end */
		/* __irq_enter(): add_preempt_count() */
		EXECUTE_IRQ(tmp = in_interrupt)
		EXECUTE_IRQ(in_interrupt = tmp + 1; tmp = 0)
		/* The outermost handler's reader starts here. */
		EXECUTE_IRQ(
			if
			:: outermost ->
				old_gp_idle = (grace_period_state == GP_IDLE);
			:: else -> skip;
			fi;
			outermost = 0;
			i++)
	:: j < i ->
		/* The outermost handler's reader ends here. */
		EXECUTE_IRQ(
			if
			:: j + 1 == i ->
				assert(!old_gp_idle ||
				       grace_period_state != GP_DONE);
				old_gp_idle = 0;
			:: else -> skip;
			fi)
		/* __irq_exit(): sub_preempt_count() */
		EXECUTE_IRQ(tmp = in_interrupt)
		EXECUTE_IRQ(in_interrupt = tmp - 1; tmp = 0)
		/* C: rcu_irq_exit */
		/* rcu_irq_exit() */
		atomic {
			!in_dyntick_nmi;
			if
			:: rcu_update_flag != 0 -> skip;
			:: else -> goto stmt9_else;
			fi;
		}
		EXECUTE_IRQ(tmp = rcu_update_flag)
		EXECUTE_IRQ(rcu_update_flag = tmp - 1; tmp = 0)
		atomic {
			!in_dyntick_nmi;
			if
			:: rcu_update_flag == 0 -> skip;
			:: else -> goto stmt9_else;
			fi;
		}
		EXECUTE_IRQ(tmp = dynticks_progress_counter)
		EXECUTE_IRQ(dynticks_progress_counter = tmp + 1; tmp = 0)
		/* C: end */
stmt9_else:
		atomic {
			j++;
			in_dyntick_irq = (i != j);
		}
	od;
	dyntick_irq_done = 1;
}

/*
 * The reduction's invariant, checked while the model runs: each of the
 * NMI's atomic blocks holds at most one grace-period-visible access (a
 * store to the counter, a load of grace_period_state).  Every such access
 * in dyntick_nmi() goes through one of the macros below, which assert
 * that it is the block's first; NMI_BLOCK_END re-arms the check.  The
 * ghost nmi_visible is 0 between steps, so it adds no states.  run.py
 * rejects a raw access in dyntick_nmi() ("reduction lint"), so that an
 * edit cannot bypass the check.
 */
byte nmi_visible = 0;

#define NMI_VISIBLE	assert(nmi_visible == 0); nmi_visible = 1
#define NMI_BLOCK_END	nmi_visible = 0
#define NMI_GP_SAMPLE(v)	NMI_VISIBLE; v = (grace_period_state == GP_IDLE)
#define NMI_GP_CHECK(v) \
	NMI_VISIBLE; assert(!v || grace_period_state != GP_DONE)
#define NMI_COUNTER_INC()	NMI_VISIBLE; dynticks_progress_counter++

/*
 * The NMI handler in four blocks, each with at most one step that
 * another process can observe.
 */
proctype dyntick_nmi()
{
	byte i = 0;
	bit old_gp_idle;
	bit exit_inc;

	do
	:: i >= MAX_DYNTICK_LOOP_NMI -> break;
	:: i < MAX_DYNTICK_LOOP_NMI ->
		/* Block A: entry. */
		atomic {
			in_dyntick_nmi = 1;
			/* C: rcu_irq_enter_nmi */
			/* rcu_irq_enter() */
			if
			:: rcu_update_flag > 0 ->
				rcu_update_flag++;
			:: else -> skip;
			fi;
			if
			:: !in_interrupt &&
			   (dynticks_progress_counter & 1) == 0 ->
				NMI_COUNTER_INC();
				rcu_update_flag++;
			:: else -> skip;
			fi;
			/* C: end */
			/* __irq_enter() */
			in_interrupt++;
			NMI_BLOCK_END;
		}
		/* Block B: the NMI handler's reader starts. */
		d_step {
			NMI_GP_SAMPLE(old_gp_idle);
			NMI_BLOCK_END;
		}
		/* Block C: the reader ends; exit up to the counter step. */
		atomic {
			NMI_GP_CHECK(old_gp_idle);
			old_gp_idle = 0;
			/* __irq_exit() */
			in_interrupt--;
			/* C: rcu_irq_exit_nmi */
			/* rcu_irq_exit() */
			if
			:: rcu_update_flag != 0 ->
				rcu_update_flag--;
				exit_inc = (rcu_update_flag == 0);
			:: else -> skip;
			fi;
			NMI_BLOCK_END;
			if
			:: !exit_inc ->
				i++;
				in_dyntick_nmi = 0;
				goto nmi_next;
			:: else -> skip;
			fi;
		}
		/* Block D: rcu_irq_exit()'s counter step. */
		atomic {
			NMI_COUNTER_INC();
			exit_inc = 0;
			i++;
			in_dyntick_nmi = 0;
			NMI_BLOCK_END;
		}
		/* C: end */
nmi_next:	skip;
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
