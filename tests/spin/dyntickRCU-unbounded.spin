/*
 * Model 7 for any number of idle transitions, interrupts and NMIs: the
 * reduced model 7 (dyntickRCU-irq-nmi-ssl-reduced.spin) with its loops
 * unbounded and dynticks_progress_counter abstracted, so that the state
 * space stays finite.
 *
 * The abstraction.  The grace period reads the counter C only through
 * its parity and its difference from the snapshot S: "curr == snap",
 * "curr != snap", "curr - snap > 2".  The handlers read only its parity.
 * So C is kept as
 *	ctr_par	its parity, exactly;
 *	ctr_d	C - S, saturated at both ends: D_BOT means "-DLO or less",
 *		D_TOP means "3 or more", the values between are exact.
 * A process that loads C and later stores C + 1 holds a copy T in
 * between; interrupts and NMIs may step C and the grace period may take
 * a new snapshot meanwhile, and the store then sets C back to T + 1 (the
 * model's lost update).  So each copy is kept the same way, relative to
 * S (nohz_cd/nohz_cp for mainline, irq_cd/irq_cp for the interrupt
 * handler; DEAD when no copy is held).  The NMI steps C atomically and
 * holds no copy.  The operations:
 *	load	copy = (ctr_d, ctr_par);
 *	store	ctr_d = copy + 1, ctr_par = !copy's parity;
 *	step	ctr_d = ctr_d + 1, ctr_par = !ctr_par;
 *	+1	exact below D_TOP; D_TOP stays D_TOP; from D_BOT either
 *		D_BOT or D_BOT + 1 (the abstraction does not know which);
 *	snapshot S = C: ctr_d = 0, and each held copy becomes T - C,
 *		which is at most 0 (a copy never exceeds C) and, where a
 *		saturated value is involved, any value of its range.
 * Every concrete step has an abstract step that matches it, so a pass
 * here is a pass of the concrete model, for safety and for liveness
 * (docs/spin.md, section 7, gives the argument and the validation).
 *
 * With MAX_DYNTICK_LOOP_NOHZ, _IRQ and _NMI all defined, the loops are
 * bounded exactly as in the reduced model, with its liveness check
 * (shouldexit); that mode exists to compare verdicts with the concrete
 * model.  Without them:
 *	- mainline, the interrupt handler and the NMI handler run forever;
 *	  interrupts nest at most MAX_IRQ_NEST deep (any number of them in
 *	  all);
 *	- the grace period runs grace periods forever;
 *	- safety is the same assertions (pan -DSAFETY -DNOCLAIM);
 *	- liveness is the LTL property gp_ends under weak fairness (pan -a
 *	  -f): a grace period that starts waiting stops waiting, provided
 *	  mainline passes nohz_ack, the top of its idle loop, infinitely
 *	  often (it is there, and it is elsewhere, infinitely often: a
 *	  mainline parked at nohz_ack behind an endless interrupt does not
 *	  count), and, while one grace period waits for ever, mainline
 *	  does not find ctr_d at D_BOT at the top of its loop infinitely
 *	  often.  The second premise holds for every concrete run in which
 *	  mainline cycles: each of mainline's stores is above the one
 *	  before, and C never falls below mainline's last store (a copy
 *	  that another process stores back was loaded after it), so with S
 *	  fixed, C - S ends up above -DLO at the top of mainline's loop.
 *	  It removes only abstract runs that count up from D_BOT for ever,
 *	  which no concrete run does.
 */

#ifdef MAX_DYNTICK_LOOP_NOHZ
#define BOUNDED
#endif
#ifndef MAX_IRQ_NEST
#define MAX_IRQ_NEST	2
#endif
#ifndef DLO
#define DLO	2
#endif

/* One CPU's per-CPU variables; the CPU starts dynticks-idle (even). */
byte rcu_update_flag = 0;
byte in_interrupt = 0;

/* dynticks_progress_counter, abstracted (see above). */
#define D_BOT	0
#define D_ZERO	DLO
#define D_TOP	(DLO + 3)
#define DEAD	255
byte ctr_d = D_ZERO;
bit ctr_par = 0;
byte nohz_cd = DEAD;
bit nohz_cp = 0;
byte irq_cd = DEAD;
bit irq_cp = 0;

/* x + 1 on a saturated difference. */
inline d_inc(x)
{
	if
	:: x == D_TOP -> skip;
	:: x == D_BOT ->
		if
		:: skip;
		:: x = D_BOT + 1;
		fi;
	:: else -> x++;
	fi;
}

/* tmp = dynticks_progress_counter */
inline ctr_load(cd, cp)
{
	cd = ctr_d;
	cp = ctr_par;
}

/* dynticks_progress_counter = tmp + 1; the copy dies */
inline ctr_store_inc(cd, cp)
{
	ctr_d = cd;
	d_inc(ctr_d);
	ctr_par = 1 - cp;
	cd = DEAD;
	cp = 0;
}

/* dynticks_progress_counter++, atomically */
inline ctr_inc()
{
	d_inc(ctr_d);
	ctr_par = 1 - ctr_par;
}

/*
 * snap = dynticks_progress_counter: a held copy T becomes T - C, which
 * lies in [lo(T) - hi(C), min(hi(T) - lo(C), 0)]; pick any abstract
 * value there.
 */
inline rebase(cd)
{
	if
	:: cd == DEAD -> skip;
	:: else ->
		lo = (cd == D_BOT -> -100 : cd - DLO) -
		     (ctr_d == D_TOP -> 100 : ctr_d - DLO);
		hi = (cd == D_TOP -> 100 : cd - DLO) -
		     (ctr_d == D_BOT -> -100 : ctr_d - DLO);
		if
		:: hi > 0 -> hi = 0;
		:: else -> skip;
		fi;
		if
		:: hi < -DLO -> hi = -DLO;
		:: else -> skip;
		fi;
		if
		:: lo < -DLO -> lo = -DLO;
		:: else -> skip;
		fi;
		if
		:: lo > hi -> lo = hi;
		:: else -> skip;
		fi;
		cd = lo + DLO;
		do
		:: cd < hi + DLO -> cd++;
		:: break;
		od;
		lo = 0;
		hi = 0;
	fi;
}

/* Set while the interrupt handler runs, so that mainline can wait. */
bit in_dyntick_irq = 0;

/* Set while the NMI handler runs: mainline and interrupts wait. */
bit in_dyntick_nmi = 0;

#define GP_IDLE		0
#define GP_WAITING	1
#define GP_DONE		2
byte grace_period_state = GP_DONE;

#ifdef BOUNDED
/* Set when each process has finished, for the liveness check. */
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
#define GP_LOOP_BEGIN
#define GP_LOOP_END
#else
#define NOHZ_MORE	1
#define NOHZ_DONE	0
#define NOHZ_STEP	skip
#define IRQ_MORE	(i - j < MAX_IRQ_NEST)
#define IRQ_DONE	0
/* Keep only the nesting depth, i - j, so that i and j stay bounded. */
#define IRQ_RESET	i = i - j; j = 0
#define NMI_MORE	1
#define NMI_DONE	0
#define NMI_STEP	skip
#define SHOULDEXIT_CHECK	skip
#define SHOULDEXIT_CLEAR	skip
#define GP_LOOP_BEGIN	do :: 1 ->
#define GP_LOOP_END	od;
#endif

proctype grace_period()
{
	short lo = 0;
	short hi = 0;
#ifdef BOUNDED
	bit shouldexit;
#endif

	GP_LOOP_BEGIN
	grace_period_state = GP_IDLE;
	atomic {
		SHOULDEXIT_CLEAR;
		/* snap = dynticks_progress_counter */
		rebase(nohz_cd);
		rebase(irq_cd);
		ctr_d = D_ZERO;
		grace_period_state = GP_WAITING;
	}
	/* rcu_try_flip_waitack() / rcu_try_flip_waitack_needed() */
	do
	:: 1 ->
		atomic {
			SHOULDEXIT_CHECK;
			if
			:: (ctr_d == D_ZERO) && (ctr_par == 0) ->
				break;
			:: (ctr_d == D_TOP) || (ctr_par == 0) ->
				break;
			:: else -> skip;
			fi;
		}
	od;
	grace_period_state = GP_DONE;
	grace_period_state = GP_IDLE;
	atomic {
		SHOULDEXIT_CLEAR;
		rebase(nohz_cd);
		rebase(irq_cd);
		ctr_d = D_ZERO;
		grace_period_state = GP_WAITING;
	}
	/* rcu_try_flip_waitmb() / rcu_try_flip_waitmb_needed() */
	do
	:: 1 ->
		atomic {
			SHOULDEXIT_CHECK;
			if
			:: (ctr_d == D_ZERO) && (ctr_par == 0) ->
				break;
			:: (ctr_d != D_ZERO) ->
				break;
			:: else -> skip;
			fi;
		}
	od;
	grace_period_state = GP_DONE;
	GP_LOOP_END
}

/* Run stmt atomically once no interrupt or NMI handler is running. */
#define EXECUTE_MAINLINE(stmt) \
	atomic { !in_dyntick_irq && !in_dyntick_nmi -> stmt }

proctype dyntick_nohz()
{
	byte i = 0;
	bit old_gp_idle;

	do
	:: NOHZ_DONE -> break;
	:: NOHZ_MORE ->
		/* rcu_exit_nohz() */
nohz_ack:	EXECUTE_MAINLINE(ctr_load(nohz_cd, nohz_cp))
		EXECUTE_MAINLINE(
			ctr_store_inc(nohz_cd, nohz_cp);
			old_gp_idle = (grace_period_state == GP_IDLE);
			assert(ctr_par == 1))
		/* rcu_enter_nohz() */
		EXECUTE_MAINLINE(
			ctr_load(nohz_cd, nohz_cp);
			assert(!old_gp_idle || grace_period_state != GP_DONE);
			old_gp_idle = 0)
		EXECUTE_MAINLINE(
			ctr_store_inc(nohz_cd, nohz_cp);
			assert(ctr_par == 0))
		NOHZ_STEP;
	od;
#ifdef BOUNDED
	dyntick_nohz_done = 1;
#endif
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
	:: IRQ_DONE -> break;
	:: IRQ_MORE ->
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
			:: !in_interrupt && ctr_par == 0 -> skip;
			:: else -> goto stmt2_else;
			fi;
		}
		EXECUTE_IRQ(ctr_load(irq_cd, irq_cp))
		EXECUTE_IRQ(ctr_store_inc(irq_cd, irq_cp))
		EXECUTE_IRQ(tmp = rcu_update_flag)
		EXECUTE_IRQ(rcu_update_flag = tmp + 1; tmp = 0)
stmt2_else:
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
		EXECUTE_IRQ(ctr_load(irq_cd, irq_cp))
		EXECUTE_IRQ(ctr_store_inc(irq_cd, irq_cp))
stmt9_else:
		atomic {
			j++;
			in_dyntick_irq = (i != j);
			IRQ_RESET;
		}
	od;
#ifdef BOUNDED
	dyntick_irq_done = 1;
#endif
}

byte nmi_visible = 0;

#define NMI_VISIBLE	assert(nmi_visible == 0); nmi_visible = 1
#define NMI_BLOCK_END	nmi_visible = 0
#define NMI_GP_SAMPLE(v)	NMI_VISIBLE; v = (grace_period_state == GP_IDLE)
#define NMI_GP_CHECK(v) \
	NMI_VISIBLE; assert(!v || grace_period_state != GP_DONE)
#define NMI_COUNTER_INC()	NMI_VISIBLE; ctr_inc()

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
	:: NMI_DONE -> break;
	:: NMI_MORE ->
		/* Block A: entry. */
		atomic {
			in_dyntick_nmi = 1;
			/* rcu_irq_enter() */
			if
			:: rcu_update_flag > 0 ->
				rcu_update_flag++;
			:: else -> skip;
			fi;
			if
			:: !in_interrupt && ctr_par == 0 ->
				NMI_COUNTER_INC();
				rcu_update_flag++;
			:: else -> skip;
			fi;
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
				NMI_STEP;
				in_dyntick_nmi = 0;
				goto nmi_next;
			:: else -> skip;
			fi;
		}
		/* Block D: rcu_irq_exit()'s counter step. */
		atomic {
			NMI_COUNTER_INC();
			exit_inc = 0;
			NMI_STEP;
			in_dyntick_nmi = 0;
			NMI_BLOCK_END;
		}
nmi_next:	skip;
	od;
#ifdef BOUNDED
	dyntick_nmi_done = 1;
#endif
}

#ifndef BOUNDED
/*
 * A grace period that starts waiting stops waiting, as long as mainline
 * keeps passing the top of its idle loop (see the header for the second
 * premise).  With
 *	p: mainline is at nohz_ack,
 *	q: the grace period is waiting,
 *	r: ctr_d is D_BOT,
 * the property is ([]<>p && []<>!p && !(<>[]q && []<>(p && r))) ->
 * [](q -> <>!q).  Since [](q -> <>!q) fails exactly when <>[]q, that is
 * the same as the formula below, which spin turns into a never claim in
 * a fraction of a second rather than a minute.
 */
#define nohz_at_ack	dyntick_nohz[1]@nohz_ack
#define gp_waiting	(grace_period_state == GP_WAITING)
#define d_bottom	(ctr_d == D_BOT)
ltl gp_ends {
	!(([]<> nohz_at_ack) && ([]<> !nohz_at_ack) &&
	  (<>[] (gp_waiting && !(nohz_at_ack && d_bottom))))
}
#endif

init {
	atomic {
		run dyntick_nohz();
		run dyntick_irq();
		run dyntick_nmi();
		run grace_period();
	}
}
