/*
 * Harness of the extracted 2008 model (docs/spin-extracted.md): the
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
 *
 * Interrupt delivery drains the store buffer, as on x86 (common.pml).
 * With DELIVERY_DRAINS=0 (hardware that does not), an NMI that lands
 * between rcu_exit_nohz()'s counter store and its smp_mb() finds the
 * new, odd counter by forwarding, skips rcu_irq_enter()'s barrier, and
 * its reader's loads pass the buffered store: make verify runs that
 * too, and it must fail (docs/spin-extracted.md).
 */

#define NCPU	2
#define GPCPU	0
#define IDLE	1

#define C_MAIN	0	/* CPU 1's idle task */
#define C_IRQ	1	/* CPU 1's interrupt handler */
#define C_NMI	2	/* CPU 1's NMI handler */
#define C_GP	3	/* CPU 0 */

/* What the inlines use that is this harness's own. */
byte preempt;		/* CPU 1's hardirq and NMI count */
#define IN_INTERRUPT(c, x)	(preempt != 0)
#define RCU_PENDING(c)		1

#define GEN	"dynticks2008-gen.pml"
#include "dynticks2008-layout.pml"
#include "common.pml"

proctype mainline()
{
	DECL_rcu_exit_nohz
	DECL_rcu_enter_nohz
	byte i = 0;

	do
	FINISH(MAX_DYNTICK_LOOP_NOHZ, C_MAIN, nohz_done)
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
	FINISH(MAX_DYNTICK_LOOP_IRQ, C_IRQ, irq_done)
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
	FINISH(MAX_DYNTICK_LOOP_NMI, C_NMI, nmi_done)
	:: i < MAX_DYNTICK_LOOP_NMI ->
		atomic { DELIVERED -> in_nmi = 1 };
		rcu_irq_enter_nmi(IDLE, C_NMI);
		READER(C_NMI, preempt++, preempt--);
		rcu_irq_exit_nmi(IDLE, C_NMI);
		atomic { DELIVERED -> in_nmi = 0; i++ }
	od
}

/* CPU 0's tick: its flip acknowledgement, then rcu_check_mb().  The
 * flags are the machine's own here (the spec's private). */
#define LOADP_(c, x, d, a, id)	LOADP(c, x, d, a, C_GP)
#define STOREP_(c, x, a, v, id)	STOREP(c, x, a, v, C_GP)
#define TICK0 \
	FLIP_ACK(GPCPU, C_GP, LOADP_, STOREP_, r); \
	rcu_check_mb(GPCPU, C_GP, GPCPU)

/* One try of a state; once CPU 1 has stopped, the next try must do. */
#define TRY(state) \
	do \
	:: atomic { assert(!shouldexit); shouldexit = STOPPED }; \
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

init {
	atomic {
		mem[A_rcu_data_dynticks_progress_counter(GPCPU)] = 1;
		START(MAX_DYNTICK_LOOP_NOHZ, mainline, nohz_done);
		START(MAX_DYNTICK_LOOP_IRQ, irq, irq_done);
		START(MAX_DYNTICK_LOOP_NMI, nmi, nmi_done);
		run gp();
		START_MEMORY
	}
}
