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
 * model's lost update).  Each copy is kept twice: T - S (nohz_cd,
 * irq_cd, saturated as ctr_d; DEAD when no copy is held), which a store
 * needs, and C - T (nohz_ce, irq_ce, saturated at E_TOP = DLO), which a
 * snapshot needs: at S' = C, T - S' = -(C - T), exactly.  While both
 * copies are held, cp_f keeps T_irq - T_nohz, which mainline's C - T
 * becomes at the interrupt's store.  The NMI steps C atomically and
 * holds no copy.  The only nondeterminism left is +1 from D_BOT.
 * COPIES_OK asserts, at every update of C, that no held copy exceeds C
 * and that the two views of each copy agree: the invariant the
 * abstraction rests on is checked, not assumed.
 *
 * The interrupt nesting depth is abstracted too (depth_up(),
 * depth_down()): exact below NEST_TOP; at NEST_TOP it means "NEST_TOP or
 * more", rcu_update_flag and in_interrupt are then kept relative to the
 * depth where they follow it, and an exit at NEST_TOP may leave the
 * depth there or take it to NEST_TOP - 1.
 *
 * Every concrete step has an abstract step that matches it, so a pass
 * here is a pass of the concrete model, for safety and for liveness
 * (docs/spin-unbounded.md gives the argument and the validation).
 *
 * With MAX_DYNTICK_LOOP_NOHZ, _IRQ and _NMI all defined, the loops are
 * bounded exactly as in the reduced model, with its liveness check
 * (shouldexit); that mode exists to compare verdicts with the concrete
 * model.  Without them:
 *	- mainline, the interrupt handler and the NMI handler run forever,
 *	  or stop for good (mainline in idle, the others between
 *	  handlers), so that weak fairness forces none of them to go on;
 *	  interrupts nest to any depth;
 *	- the grace period runs grace periods forever;
 *	- safety is the same assertions (pan -DSAFETY -DNOCLAIM);
 *	- liveness is the LTL property gp_ends under weak fairness (pan -a
 *	  -f): a grace period that starts waiting stops waiting, provided
 *	  mainline passes nohz_ack, the top of its idle loop, infinitely
 *	  often (it is there, and it is elsewhere, infinitely often: a
 *	  mainline parked at nohz_ack behind an endless interrupt does not
 *	  count) or stays idle for good, the CPU leaves interrupt handlers
 *	  infinitely often, and, while one grace period waits for ever,
 *	  ctr_d is not D_BOT infinitely often.  The last premise holds for
 *	  every concrete run that meets the others: each of mainline's
 *	  stores is above the one before, and C never falls below
 *	  mainline's last store (a copy that another process stores back
 *	  was loaded after it); once mainline has stopped, each interrupt
 *	  or NMI from idle leaves C 2 higher.  So with S fixed, C - S ends
 *	  up above -DLO for good, or C stops changing with the CPU idle,
 *	  and then the grace period does not wait.  The premise removes
 *	  only abstract runs that count up from D_BOT for ever.
 */

#ifdef MAX_DYNTICK_LOOP_NOHZ
#define BOUNDED
#endif
#ifndef NEST_TOP
#define NEST_TOP	2
#endif
#ifndef DLO
#define DLO	2
#endif

/*
 * rcu_update_flag and in_interrupt, with the interrupt nesting depth d
 * abstracted (dyntick_irq() keeps depth = min(d, NEST_TOP)).  A value is
 * either absolute (a byte, wrapping as the concrete byte does) or, once
 * depth is NEST_TOP, relative to d: REL(r) stands for d + r, r in -1..3.
 * Since NEST_TOP >= 2, REL(r) is never 0, so every test of these
 * variables (== 0, != 0, > 0) reads the encoding directly.  An update
 * that leaves the encodable range fails "nesting encoding", which is
 * neither a pass nor a catch.
 */
#define REL_BASE	64
#define REL(r)		(REL_BASE + (r))
#define IS_REL(v)	((v) >= REL(-1) && (v) <= REL(3))
byte rcu_update_flag = 0;
byte in_interrupt = 0;

/* x++ and x-- on an encoded value */
inline n_inc(v)
{
	if
	:: IS_REL(v) -> assert(v < REL(3));	/* nesting encoding */
	:: else -> assert(v != REL(-1) - 1);	/* nesting encoding */
	fi;
	v++;
}

inline n_dec(v)
{
	if
	:: IS_REL(v) -> assert(v > REL(-1));	/* nesting encoding */
	:: else -> assert(v != REL(3) + 1);	/* nesting encoding */
	fi;
	v--;
}

/* d goes from NEST_TOP - 1 to NEST_TOP, exactly: relative where it can be */
inline n_to_rel(v)
{
	if
	:: !IS_REL(v) && v >= NEST_TOP && v <= NEST_TOP + 3 ->
		v = REL(v - NEST_TOP);
	:: else -> skip;
	fi;
}

/* d goes from exactly NEST_TOP to NEST_TOP - 1: back to absolute */
inline n_to_abs(v)
{
	if
	:: IS_REL(v) -> v = v - REL_BASE + NEST_TOP;
	:: else -> skip;
	fi;
}

/* d changes by k while above NEST_TOP: a relative value moves by -k */
inline n_shift(v, k)
{
	if
	:: IS_REL(v) ->
		v = v - k;
		assert(IS_REL(v));		/* nesting encoding */
	:: else -> skip;
	fi;
}

/* d++ at the end of an interrupt's entry */
inline depth_up()
{
	if
	:: depth + 1 < NEST_TOP -> depth++;
	:: depth + 1 == NEST_TOP ->
		depth++;
		n_to_rel(rcu_update_flag);
		n_to_rel(in_interrupt);
	:: else ->
		n_shift(rcu_update_flag, 1);
		n_shift(in_interrupt, 1);
	fi;
}

/* d-- at the end of an interrupt's exit; at NEST_TOP, d was exactly
 * NEST_TOP or more, and the abstraction does not know which */
inline depth_down()
{
	if
	:: depth < NEST_TOP -> depth--;
	:: else ->
		/* (an explicit guard: a bare inner if would make its else
		 * relative to this selection, as spin flattens them) */
		if
		:: 1 ->	depth--;
			n_to_abs(rcu_update_flag);
			n_to_abs(in_interrupt);
		:: 1 ->	n_shift(rcu_update_flag, -1);
			n_shift(in_interrupt, -1);
		fi;
	fi;
}

/*
 * dynticks_progress_counter, abstracted (see above): C - S in ctr_d,
 * and, for each held copy T, T - S in *_cd and C - T in *_ce; while
 * both copies are held, T_irq - T_nohz in cp_f.
 */
#define D_BOT	0
#define D_ZERO	DLO
#define D_TOP	(DLO + 3)
#define DEAD	255
#define E_TOP	DLO
byte ctr_d = D_ZERO;
bit ctr_par = 0;
byte nohz_cd = DEAD;
bit nohz_cp = 0;
byte nohz_ce = 0;
byte irq_cd = DEAD;
bit irq_cp = 0;
byte irq_ce = 0;
byte cp_f = 0;

/* x + 1 on a saturated difference from the snapshot. */
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

/* x + 1 on a saturated C - T (E_TOP: DLO or more) */
inline e_inc(x)
{
	if
	:: x < E_TOP -> x++;
	:: else -> skip;
	fi;
}

/* T - S' = -(C - T) at a snapshot S' = C: exact (E_TOP maps to D_BOT) */
#define E_NEG(e)	(D_ZERO - (e))

/*
 * The invariant the abstraction rests on, checked rather than assumed: a
 * held copy T never exceeds the counter (T - S <= C - S), and its two
 * views agree ((T - S) + (C - T) can equal C - S); while both are held,
 * mainline's copy never exceeds the interrupt's ((C - T_nohz) can equal
 * (T_irq - T_nohz) + (C - T_irq)).  Bounds of each saturated value:
 */
#define LO_D(x)		((x) == D_BOT -> -100 : (x) - DLO)
#define HI_D(x)		((x) == D_TOP -> 100 : (x) - DLO)
#define HI_E(e)		((e) == E_TOP -> 100 : (e))
#define COPY_OK(cd, ce) \
	((cd) == DEAD || \
	 (LO_D(cd) <= HI_D(ctr_d) && \
	  LO_D(cd) + (ce) <= HI_D(ctr_d) && \
	  HI_D(cd) + HI_E(ce) >= LO_D(ctr_d)))
#define COPIES_OK \
	assert(COPY_OK(nohz_cd, nohz_ce) && COPY_OK(irq_cd, irq_ce) && \
	       (nohz_cd == DEAD || irq_cd == DEAD || \
		(cp_f + irq_ce <= HI_E(nohz_ce) && \
		 HI_E(cp_f) + HI_E(irq_ce) >= nohz_ce)))

/* mainline: tmp = dynticks_progress_counter */
inline nohz_load()
{
	nohz_cd = ctr_d;
	nohz_cp = ctr_par;
	nohz_ce = 0;
}

/* mainline: dynticks_progress_counter = tmp + k (k = 1; 0 for a write-
 * back); no interrupt holds a copy while mainline runs */
inline nohz_store(k)
{
	assert(irq_cd == DEAD);
	ctr_d = nohz_cd;
	if
	:: k -> d_inc(ctr_d);
	:: else -> skip;
	fi;
	ctr_par = nohz_cp ^ k;
	nohz_cd = DEAD;
	nohz_cp = 0;
	nohz_ce = 0;
	COPIES_OK;
}

/* interrupt: tmp = dynticks_progress_counter */
inline irq_load()
{
	irq_cd = ctr_d;
	irq_cp = ctr_par;
	irq_ce = 0;
	if
	:: nohz_cd != DEAD -> cp_f = nohz_ce;
	:: else -> skip;
	fi;
	COPIES_OK;
}

/* interrupt: dynticks_progress_counter = tmp + k; mainline's copy, if
 * held, is then (T_irq - T_nohz) + k below the counter */
inline irq_store(k)
{
	ctr_d = irq_cd;
	if
	:: k -> d_inc(ctr_d);
	:: else -> skip;
	fi;
	ctr_par = irq_cp ^ k;
	if
	:: nohz_cd != DEAD ->
		nohz_ce = cp_f;
		if
		:: k -> e_inc(nohz_ce);
		:: else -> skip;
		fi;
	:: else -> skip;
	fi;
	irq_cd = DEAD;
	irq_cp = 0;
	irq_ce = 0;
	cp_f = 0;
	COPIES_OK;
}

/* dynticks_progress_counter++, atomically (the NMI) */
inline ctr_inc()
{
	d_inc(ctr_d);
	ctr_par = 1 - ctr_par;
	if
	:: nohz_cd != DEAD -> e_inc(nohz_ce);
	:: else -> skip;
	fi;
	if
	:: irq_cd != DEAD -> e_inc(irq_ce);
	:: else -> skip;
	fi;
	COPIES_OK;
}

/* snap = dynticks_progress_counter: each held copy T becomes T - C */
inline snapshot()
{
	COPIES_OK;
	if
	:: nohz_cd != DEAD -> nohz_cd = E_NEG(nohz_ce);
	:: else -> skip;
	fi;
	if
	:: irq_cd != DEAD -> irq_cd = E_NEG(irq_ce);
	:: else -> skip;
	fi;
	ctr_d = D_ZERO;
	COPIES_OK;
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
#define IRQ_DONE	(i >= MAX_DYNTICK_LOOP_IRQ && depth == 0)
#define IRQ_STEP	i++
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
/* mainline may also stay idle for good (it stops at the top of its
 * loop, where the CPU is idle) */
#define NOHZ_DONE	1
bit nohz_stopped = 0;
#define NOHZ_STEP	skip
/*
 * Interrupts nest to any depth (depth_up() and depth_down() abstract
 * it).  Interrupts and NMIs may also stop for good (between handlers),
 * so that weak fairness does not force infinitely many of them.
 */
#define IRQ_MORE	1
#define IRQ_DONE	(depth == 0)
#define IRQ_STEP	skip
#define NMI_MORE	1
#define NMI_DONE	1
#define NMI_STEP	skip
#define SHOULDEXIT_CHECK	skip
#define SHOULDEXIT_CLEAR	skip
#define GP_LOOP_BEGIN	do :: 1 ->
#define GP_LOOP_END	od;
#endif

proctype grace_period()
{
#ifdef BOUNDED
	bit shouldexit;
#endif

	GP_LOOP_BEGIN
	grace_period_state = GP_IDLE;
	atomic {
		SHOULDEXIT_CLEAR;
		/* snap = dynticks_progress_counter */
		/* C: dyntick_save_progress_counter */
		snapshot();
		/* C: end */
		grace_period_state = GP_WAITING;
	}
	/* C: rcu_try_flip_waitack_needed */
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
	/* C: end */
	grace_period_state = GP_DONE;
	grace_period_state = GP_IDLE;
	atomic {
		SHOULDEXIT_CLEAR;
		/* C: dyntick_save_progress_counter */
		snapshot();
		/* C: end */
		grace_period_state = GP_WAITING;
	}
	/* C: rcu_try_flip_waitmb_needed */
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
	/* C: end */
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
		/* C: rcu_exit_nohz */
		/* rcu_exit_nohz() */
nohz_ack:	EXECUTE_MAINLINE(nohz_load())
		EXECUTE_MAINLINE(
			nohz_store(1);
			old_gp_idle = (grace_period_state == GP_IDLE);
			assert(ctr_par == 1))
		/* C: end */
		/* C: rcu_enter_nohz */
		/* rcu_enter_nohz() */
		EXECUTE_MAINLINE(
			nohz_load();
			assert(!old_gp_idle || grace_period_state != GP_DONE);
			old_gp_idle = 0)
		EXECUTE_MAINLINE(
			nohz_store(1);
			assert(ctr_par == 0))
		/* C: end */
		NOHZ_STEP;
	od;
#ifdef BOUNDED
	dyntick_nohz_done = 1;
#else
	nohz_stopped = 1;
#endif
}

/* Run stmt atomically once no NMI handler is running. */
#define EXECUTE_IRQ(stmt)	atomic { !in_dyntick_nmi -> stmt }

proctype dyntick_irq()
{
	byte tmp;
	byte i = 0;		/* entries, when bounded */
	byte depth = 0;		/* min(nesting depth, NEST_TOP) */
	bit old_gp_idle;
	bit outermost;

	do
	:: IRQ_DONE -> break;
	:: IRQ_MORE ->
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
		EXECUTE_IRQ(rcu_update_flag = tmp; n_inc(rcu_update_flag); tmp = 0)
stmt1_else:
		/* if (!in_interrupt() && counter even) { ++; mb; flag++ } */
		atomic {
			!in_dyntick_nmi;
			if
			:: !in_interrupt && ctr_par == 0 -> skip;
			:: else -> goto stmt2_else;
			fi;
		}
		EXECUTE_IRQ(irq_load())
		EXECUTE_IRQ(irq_store(1))
		EXECUTE_IRQ(tmp = rcu_update_flag)
		EXECUTE_IRQ(rcu_update_flag = tmp; n_inc(rcu_update_flag); tmp = 0)
stmt2_else:
		/* C: end */
		/* __irq_enter(): add_preempt_count() */
		EXECUTE_IRQ(tmp = in_interrupt)
		EXECUTE_IRQ(in_interrupt = tmp; n_inc(in_interrupt); tmp = 0)
		/* The outermost handler's reader starts here. */
		EXECUTE_IRQ(
			if
			:: outermost ->
				old_gp_idle = (grace_period_state == GP_IDLE);
			:: else -> skip;
			fi;
			outermost = 0;
			IRQ_STEP;
			depth_up())
	:: depth > 0 ->
		/* The outermost handler's reader ends here. */
		EXECUTE_IRQ(
			if
			:: depth == 1 ->
				assert(!old_gp_idle ||
				       grace_period_state != GP_DONE);
				old_gp_idle = 0;
			:: else -> skip;
			fi)
		/* __irq_exit(): sub_preempt_count() */
		EXECUTE_IRQ(tmp = in_interrupt)
		EXECUTE_IRQ(in_interrupt = tmp; n_dec(in_interrupt); tmp = 0)
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
		EXECUTE_IRQ(rcu_update_flag = tmp; n_dec(rcu_update_flag); tmp = 0)
		atomic {
			!in_dyntick_nmi;
			if
			:: rcu_update_flag == 0 -> skip;
			:: else -> goto stmt9_else;
			fi;
		}
		EXECUTE_IRQ(irq_load())
		EXECUTE_IRQ(irq_store(1))
		/* C: end */
stmt9_else:
		atomic {
			depth_down();
			in_dyntick_irq = (depth != 0);
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
			/* C: rcu_irq_enter_nmi */
			/* rcu_irq_enter() */
			if
			:: rcu_update_flag > 0 ->
				n_inc(rcu_update_flag);
			:: else -> skip;
			fi;
			if
			:: !in_interrupt && ctr_par == 0 ->
				NMI_COUNTER_INC();
				n_inc(rcu_update_flag);
			:: else -> skip;
			fi;
			/* C: end */
			/* __irq_enter() */
			n_inc(in_interrupt);
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
			n_dec(in_interrupt);
			/* C: rcu_irq_exit_nmi */
			/* rcu_irq_exit() */
			if
			:: rcu_update_flag != 0 ->
				n_dec(rcu_update_flag);
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
		/* C: end */
nmi_next:	skip;
	od;
#ifdef BOUNDED
	dyntick_nmi_done = 1;
#endif
}

#ifndef BOUNDED
/*
 * A grace period that starts waiting stops waiting, as long as mainline
 * keeps passing the top of its idle loop or stays idle for good, and the
 * CPU keeps leaving interrupt handlers (see the header for the last
 * premise).  With
 *	p: mainline is at nohz_ack,
 *	s: mainline has stopped, idle for good,
 *	h: an interrupt handler runs,
 *	q: the grace period is waiting,
 *	r: ctr_d is D_BOT,
 * the property is (([]<>p && []<>!p) || <>s) && []<>!h &&
 * !(<>[]q && []<>r) -> [](q -> <>!q).  A stopped mainline stays stopped,
 * so ([]<>p && []<>!p) || <>s is []<>(p || s) && []<>(!p || s), the form
 * below, which spin translates in seconds rather than minutes.  (A mainline that cycles
 * implies []<>!h, since it runs only outside handlers; a stopped one
 * does not, and without []<>!h spin finds a handler that nested
 * interrupts keep from returning for ever, busy, which no grace period
 * can end.)  Since [](q -> <>!q) fails exactly when <>[]q, that
 * is the same as the formula below, which spin turns into a never claim
 * in a fraction of a second rather than a minute.
 *
 * The two claims after it check that weak fairness forces neither
 * interrupts nor NMIs: each must fail (unbounded.py runs them by name).
 */
#define nohz_at_ack	dyntick_nohz[1]@nohz_ack
#define gp_waiting	(grace_period_state == GP_WAITING)
#define d_bottom	(ctr_d == D_BOT)
ltl gp_ends {
	!(([]<> (nohz_at_ack || nohz_stopped)) &&
	  ([]<> (!nohz_at_ack || nohz_stopped)) &&
	  ([]<> !in_dyntick_irq) &&
	  (<>[] (gp_waiting && !d_bottom)))
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
