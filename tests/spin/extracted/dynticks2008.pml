/*
 * Harness of the extracted 2008 model (docs/spin.md, section 10): the
 * processes that call the Promela that tools/extract made from
 * rcu/rcupreempt/dynticks.c and rcu/rcupreempt/rcupreempt.c (generated
 * as dynticks2008-layout.pml and dynticks2008-gen.pml under
 * build/spin/extracted/, never edited).
 *
 * Two CPUs.  CPU 1 is the idle CPU of the article's models:
 *   mainline()  its idle loop: rcu_exit_nohz(), a reader,
 *               rcu_enter_nohz(), MAX_DYNTICK_LOOP_NOHZ times; IRQs off
 *               around each hook, on elsewhere (also while idle)
 *   irq()       interrupts, one at a time, MAX_DYNTICK_LOOP_IRQ of them,
 *               landing wherever mainline has IRQs on: irq_enter()'s
 *               rcu_irq_enter() and hardirq count, a reader,
 *               irq_exit()'s count and rcu_irq_exit() (kernel/irq.c)
 *   nmi()       NMIs, MAX_DYNTICK_LOOP_NMI of them, landing anywhere,
 *               inside an interrupt too: the same hooks (rcupreempt's
 *               nmi_enter/nmi_exit are rcu_irq_enter/rcu_irq_exit)
 * CPU 0 is the updater and the grace-period machine:
 *   gp()        unlinks the element (removed = 1), then runs the flip
 *               machine once through its four states by calling the
 *               extracted rcu_try_flip_idle(), rcu_try_flip_waitack(),
 *               rcu_try_flip_waitzero() and rcu_try_flip_waitmb() until
 *               each moves on (rcu_try_flip()'s switch and trylock are
 *               not extracted), then frees the element (freed = 1).
 *               Between the calls CPU 0's own tick acknowledges for
 *               CPU 0: the flip ack of __rcu_advance_callbacks(), written
 *               out here (its callback lists are not extracted), and the
 *               extracted rcu_check_mb().
 * memory_system() drains store buffers and satisfies deferred loads
 * (MM=1, MM=2: tests/spin/wmm/memory.pml).
 *
 * A reader loads removed, then freed; it must not see the element
 * still linked and already freed.  Readers here are only the article's:
 * the code between the hooks (the flip counters of __rcu_read_lock() are
 * not used, so waitzero's sum is always 0).  The other checks are the
 * extracted WARN()s and lockdep_assert_irqs_disabled(), and liveness as
 * in the article's models: once CPU 1 has stopped, the machine must
 * finish at its next try (shouldexit).
 *
 * Abstractions: in_interrupt() is CPU 1's hardirq/NMI count (the
 * harness's preempt); rcu_pending() is 1; every CPU is online; the
 * counter of CPU 1 starts even (idle), CPU 0's odd (running).
 */

#ifndef MAX_DYNTICK_LOOP_NOHZ
#define MAX_DYNTICK_LOOP_NOHZ	1
#endif
#ifndef MAX_DYNTICK_LOOP_IRQ
#define MAX_DYNTICK_LOOP_IRQ	1
#endif
#ifndef MAX_DYNTICK_LOOP_NMI
#define MAX_DYNTICK_LOOP_NMI	1
#endif

#define NCPU	2
#define GPCPU	0
#define IDLE	1

#define C_MAIN	0	/* CPU 1's idle task */
#define C_IRQ	1	/* CPU 1's interrupt handler */
#define C_NMI	2	/* CPU 1's NMI handler */
#define C_GP	3	/* CPU 0 */

/* The addresses of what the extracted code touches; its inlines come
 * after every macro they use (cpp expands them where they stand). */
#include "dynticks2008-layout.pml"

/* The element the readers look at, after the extracted locations. */
#define A_removed	(EX_NLOC)
#define A_freed		(EX_NLOC + 1)
#define NLOC		(EX_NLOC + 2)

/* The harness's own accesses, as the replay names them. */
#define HID_REMOVED	200	/* gp(): the updater unlinks the element */
#define HID_FREED	201	/* gp(): the element is freed */
#define HID_READ	210	/* mainline's reader: its load of removed */
#define HID_READ_1	211	/* mainline's reader: its load of freed */
#define HID_READ_2	212	/* the interrupt's reader: load of removed */
#define HID_READ_3	213	/* the interrupt's reader: load of freed */
#define HID_READ_4	214	/* the NMI's reader: its load of removed */
#define HID_READ_5	215	/* the NMI's reader: its load of freed */

/* The readers' registers: context x's load of removed, then of freed. */
#define NREG		6
#define R(x, k)		((x) * 2 + (k))
#define REG_CPU(r)	IDLE

bit in_irq;		/* CPU 1 is in its interrupt handler */
bit in_nmi;		/* CPU 1 is in its NMI handler */
bit irqs_off;		/* CPU 1's mainline has IRQs off */
byte preempt;		/* CPU 1's hardirq and NMI count */
bit got[NREG];		/* register r holds its value */
bit nohz_done, irq_done, nmi_done;

/* An NMI runs whatever it interrupted; an interrupt, mainline. */
#define CAN_RUN(c, x) \
	((x) == C_GP || (x) == C_NMI || ((x) == C_IRQ && !in_nmi) || \
	 ((x) == C_MAIN && !in_irq && !in_nmi))
#define IN_INTERRUPT(c, x)	(preempt != 0)
#define IRQS_DISABLED(c, x)	((x) != C_MAIN || irqs_off)
#define RCU_PENDING(c)		1

/* Once both loads of context x's reader have their values, check. */
#define CHECK(x) \
	if \
	:: got[R(x, 0)] && got[R(x, 1)] -> \
		assert(!(reg[R(x, 0)] == 0 && reg[R(x, 1)] == 1)); \
		reg[R(x, 0)] = 0; reg[R(x, 1)] = 0; \
		got[R(x, 0)] = 0; got[R(x, 1)] = 0 \
	:: else -> skip \
	fi
#define LOADED(r)	got[r] = 1; CHECK((r) / 2)

#include "memory.pml"
#include "dynticks2008-gen.pml"

/*
 * x86 drains the store buffer when an interrupt or exception is
 * generated, and IRET is serializing (Intel SDM vol. 3A, 11.10 "Store
 * Buffer", and 8.3): a handler starts and ends with CPU 1's buffer
 * empty.  With DELIVERY_DRAINS=0 (hardware that does not), an NMI that
 * lands between rcu_exit_nohz()'s counter store and its smp_mb() finds
 * the new, odd counter by forwarding, skips rcu_irq_enter()'s barrier,
 * and its reader's loads pass the buffered store: make verify runs that
 * too, and it must fail (docs/spin.md, section 10).
 */
#ifndef DELIVERY_DRAINS
#define DELIVERY_DRAINS	1
#endif
#if DELIVERY_DRAINS
#define DELIVERED	QUIET(IDLE)
#else
#define DELIVERED	1
#endif

/*
 * A read-side critical section of context x: removed, then freed; pro
 * joins the first load's step, epi the second's.  Mainline passes its
 * IRQ enable and disable: an interrupt that would land between either
 * and the load beside it only reads what the reader's loads read, or
 * writes what they do not, so the two orders are the same run
 * (Lipton), and the windows are dropped.
 */
#define READER(x, pro, epi) \
	LOAD_CS(IDLE, x, R(x, 0), A_removed, HID_READ + 2 * (x), pro); \
	LOAD_CS(IDLE, x, R(x, 1), A_freed, HID_READ + 2 * (x) + 1, epi)

/* Each process's last step waits for CPU 1's store buffer to drain
 * (stores do drain, eventually), so that liveness is not judged on a
 * store that is merely late. */
proctype mainline()
{
	DECL_rcu_exit_nohz
	DECL_rcu_enter_nohz
	byte i = 0;

	do
	:: atomic { i >= MAX_DYNTICK_LOOP_NOHZ && CAN_RUN(IDLE, C_MAIN) &&
		    QUIET(IDLE) -> nohz_done = 1 }; break
	:: atomic { i < MAX_DYNTICK_LOOP_NOHZ && CAN_RUN(IDLE, C_MAIN) ->
		    irqs_off = 1 };
		rcu_exit_nohz(IDLE, C_MAIN);
		READER(C_MAIN, irqs_off = 0, irqs_off = 1);
		rcu_enter_nohz(IDLE, C_MAIN);
		atomic { CAN_RUN(IDLE, C_MAIN) -> irqs_off = 0; i++ }
	od
}

proctype irq()
{
	DECL_rcu_irq_enter
	DECL_rcu_irq_exit
	byte i = 0;

	do
	:: atomic { i >= MAX_DYNTICK_LOOP_IRQ && CAN_RUN(IDLE, C_IRQ) &&
		    QUIET(IDLE) -> irq_done = 1 }; break
	:: i < MAX_DYNTICK_LOOP_IRQ ->
		atomic { !irqs_off && !in_nmi && DELIVERED -> in_irq = 1 };
		rcu_irq_enter(IDLE, C_IRQ);
		atomic { CAN_RUN(IDLE, C_IRQ) -> preempt++ };
		READER(C_IRQ, skip, skip);
		atomic { CAN_RUN(IDLE, C_IRQ) -> preempt-- };
		rcu_irq_exit(IDLE, C_IRQ);
		atomic { CAN_RUN(IDLE, C_IRQ) && DELIVERED -> in_irq = 0; i++ }
	od
}

/*
 * Nothing on CPU 1 interrupts an NMI, and CPU 0 never touches
 * rcu_update_flag or the preempt count, so the NMI runs the variants of
 * rcu_irq_enter()/rcu_irq_exit() whose accesses to rcu_update_flag join
 * their neighbouring steps (the spec's cpu_private), and its count
 * changes join its reader's loads.  Its steps that CPU 0 can see stay
 * apart: the counter's loads and stores, and the reader's loads.
 */
proctype nmi()
{
	DECL_rcu_irq_enter_nmi
	DECL_rcu_irq_exit_nmi
	byte i = 0;

	do
	:: atomic { i >= MAX_DYNTICK_LOOP_NMI && QUIET(IDLE) -> nmi_done = 1 };
	   break
	:: i < MAX_DYNTICK_LOOP_NMI ->
		atomic { DELIVERED -> in_nmi = 1 };
		rcu_irq_enter_nmi(IDLE, C_NMI);
		READER(C_NMI, preempt++, preempt--);
		rcu_irq_exit_nmi(IDLE, C_NMI);
		atomic { DELIVERED -> in_nmi = 0; i++ }
	od
}

/* CPU 0's tick: __rcu_advance_callbacks()'s flip acknowledgement (as
 * written in rcu/rcupreempt/rcupreempt.c), then rcu_check_mb(). */
#define TICK0 \
	LOADP(GPCPU, C_GP, r, A_rcu_data_rcu_flip_flag(GPCPU), C_GP); \
	if \
	:: r == 1 -> \
		MB(GPCPU, C_GP, 0); \
		STOREP(GPCPU, C_GP, A_rcu_data_rcu_flip_flag(GPCPU), 0, C_GP); \
		MB(GPCPU, C_GP, 0) \
	:: else -> skip \
	fi; \
	r = 0; \
	rcu_check_mb(GPCPU, C_GP, GPCPU)

/* One try of a state; once CPU 1 has stopped, the next try must do. */
#define TRY(state) \
	do \
	:: atomic { assert(!shouldexit); \
		    shouldexit = nohz_done && irq_done && nmi_done }; \
	   state(GPCPU, C_GP, r); \
	   if \
	   :: r -> r = 0; shouldexit = 0; break \
	   :: else -> TICK0 \
	   fi \
	od

proctype gp()
{
	DECL_rcu_try_flip_idle
	DECL_rcu_try_flip_waitack
	DECL_rcu_try_flip_waitzero
	DECL_rcu_try_flip_waitmb
	DECL_rcu_check_mb
	int r;
	bit shouldexit;
	short pmem[NLOC];	/* the machine's private fields */

	STORE(GPCPU, C_GP, A_removed, 1, HID_REMOVED);
	TRY(rcu_try_flip_idle);
	TICK0;
	TRY(rcu_try_flip_waitack);
	TRY(rcu_try_flip_waitzero);
	TICK0;
	TRY(rcu_try_flip_waitmb);
	STORE(GPCPU, C_GP, A_freed, 1, HID_FREED)
}

#if MM != 0
proctype memory_system()
{
end:	do
	:: DRAIN(0)
	:: DRAIN(1)
	:: SATISFY(0)
	:: SATISFY(1)
	:: SATISFY(2)
	:: SATISFY(3)
	:: SATISFY(4)
	:: SATISFY(5)
	od
}
#endif

init {
	atomic {
		mem[A_rcu_data_dynticks_progress_counter(GPCPU)] = 1;
		/* A process with nothing to do is not started: its last
		 * step would only add interleavings. */
#if MAX_DYNTICK_LOOP_NOHZ > 0
		run mainline();
#else
		nohz_done = 1;
#endif
#if MAX_DYNTICK_LOOP_IRQ > 0
		run irq();
#else
		irq_done = 1;
#endif
#if MAX_DYNTICK_LOOP_NMI > 0
		run nmi();
#else
		nmi_done = 1;
#endif
		run gp();
#if MM != 0
		run memory_system();
#endif
	}
}
