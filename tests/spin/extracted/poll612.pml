/*
 * Harness of the extracted polled-API model (docs/spin.md, section 10):
 * Linux 6.12's get_state_synchronize_rcu() and
 * poll_state_synchronize_rcu() as rcu/tree/tree.c has them
 * (rcu_tree_get_state_synchronize_rcu(),
 * rcu_tree_poll_state_synchronize_rcu()), against the grace period that
 * the extracted rcu_gp_init(), rcu_gp_fqs(), rcu_gp_done() and
 * rcu_gp_cleanup() run, and an idle CPU's context tracking
 * (poll612-layout.pml and poll612-gen.pml under build/spin/extracted/).
 * The polled API's full barriers order the caller's own accesses, which
 * a store buffer can reorder: so three CPUs, the updater apart from the
 * grace-period kthread.
 *
 *   mainline()  CPU 1, the idle CPU: ct_idle_exit(), a reader (the code
 *               between the hooks: its load of removed, then of freed),
 *               ct_idle_enter(), MAX_DYNTICK_LOOP_NOHZ times; IRQs off
 *               around each hook
 *   gp()        CPU 0, the grace-period kthread: rcu_gp_init(), the
 *               scans (gp_fqs_loop(), tree-gp.pml), rcu_gp_fqs_loop()'s
 *               smp_mb(), rcu_gp_cleanup() (the grace period's end in
 *               gp_seq: rcu_seq_end())
 *   updater()   CPU 2, busy: unlinks the element (removed = 1), takes a
 *               cookie (get_state_synchronize_rcu()), then polls
 *               (poll_state_synchronize_rcu()) until the cookie's grace
 *               period has passed, and frees the element; between polls
 *               it sleeps, and its CPU reports a quiescent state (a
 *               context switch: REPORT_QS); if the cookie needs a later
 *               grace period than the one modelled, it stops once that
 *               one has ended
 * memory_system() drains the three store buffers (memory.pml).
 *
 * Checks: a reader must not see its element freed; the first scan
 * excuses CPU 1 if its snapshot shows it idle; liveness: once CPU 1 has
 * stopped and CPU 2's bit is clear, the next scan ends the grace period.
 * No interrupts or NMIs here (tree612.pml has them).  The spec is
 * tree612's (tests/spin/extract.py).
 */

#define NCPU	3
#define NTASK	1
#define GPCPU	0
#define IDLE	1
#define UPD	2	/* the updater's CPU */

#define C_MAIN	0	/* CPU 1's idle task */
#define C_IRQ	1	/* (no interrupt here) */
#define C_NMI	2	/* (no NMI here) */
#define C_GP	3	/* CPU 0 */
#define C_UPD	4	/* CPU 2 */

#define NONIDLE		16	/* CT_NESTING_IRQ_NONIDLE (tree612.pml) */
#define CT_WATCHING	4	/* CT_RCU_WATCHING */

#define CURRENT(c, x)	0
/* No task is ever preempted in a reader here: nothing is queued. */
#define HOLD_BLOCKED(c, x)	CAN_RUN(c, x)
#define PREEMPT_COUNT(c, x)	0
#define DELAY_HOOK	0

bit gp_ended;		/* rcu_gp_cleanup() has run */
/* CPU 1 has stopped, and CPU 2 owes the grace period nothing. */
#define STOPPED		(nohz_done && !(QSMASK & (1 << UPD)))

#define GEN	"poll612-gen.pml"
#include "poll612-layout.pml"
#include "tree-gp.pml"
#include "common.pml"

proctype mainline()
{
	DECL_ct_idle_exit
	DECL_ct_idle_enter
	byte i = 0;

	do
	FINISH(MAX_DYNTICK_LOOP_NOHZ, C_MAIN, nohz_done)
	:: atomic { i < MAX_DYNTICK_LOOP_NOHZ -> irqs_off = 1 };
		ct_idle_exit(IDLE, C_MAIN);
		READER(C_MAIN, irqs_off = 0, irqs_off = 1);
		ct_idle_enter(IDLE, C_MAIN);
		atomic { irqs_off = 0; i++ }
	od
}

proctype gp()
{
	DECL_rcu_gp_init
	DECL_rcu_gp_fqs
	DECL_rcu_gp_done
	DECL_rcu_gp_cleanup
	int r;
	bit first, scanned;
	bit shouldexit;
	short pmem[NLOC];	/* the kthread's private fields */

	rcu_gp_init(GPCPU, C_GP);
	gp_fqs_loop(STOPPED);
	/* rcu_gp_fqs_loop()'s smp_mb(), then rcu_gp_cleanup(). */
	MB(GPCPU, C_GP, 0);
	rcu_gp_cleanup(GPCPU, C_GP);
	gp_ended = 1
}

proctype updater()
{
	DECL_rcu_tree_get_state_synchronize_rcu
	DECL_rcu_tree_poll_state_synchronize_rcu
	int cookie, r;

	STORE(UPD, C_UPD, A_removed, 1, HID_REMOVED);
	rcu_tree_get_state_synchronize_rcu(UPD, C_UPD, cookie);
	do
	:: rcu_tree_poll_state_synchronize_rcu(UPD, C_UPD, cookie, r);
		if
		:: r ->
			STORE(UPD, C_UPD, A_freed, 1, HID_FREED);
			break
		:: else ->
			/* Polling again finds what this poll found, unless
			 * the grace period is still under way; meanwhile the
			 * updater sleeps, and its CPU's context switch reports
			 * a quiescent state. */
			if
			:: gp_ended -> break
			:: else -> REPORT_QS(UPD, C_UPD)
			fi
		fi
	od
}

init {
	atomic {
		/* CPU 1 starts idle; CPUs 0 and 2 are watching. */
		mem[A_context_tracking_state(IDLE)] = 1;
		mem[A_context_tracking_state(GPCPU)] = CT_WATCHING;
		mem[A_context_tracking_state(UPD)] = CT_WATCHING;
		irq_done = 1;
		nmi_done = 1;
		START(MAX_DYNTICK_LOOP_NOHZ, mainline, nohz_done);
		run gp();
		run updater();
		START_MEMORY
	}
}
