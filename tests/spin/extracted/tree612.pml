/*
 * Harness of the extracted modern model (docs/spin.md, section 10):
 * Linux 6.12's context tracking and Tree RCU's idle protocol, as
 * rcu/tree/context_tracking.c, rcu/tree/tree.c and
 * rcu/tree/tree_plugin.c have them, made into Promela by tools/extract
 * (tree612-layout.pml and tree612-gen.pml under build/spin/extracted/).
 *
 * CPU 1 is the idle CPU (common.pml):
 *   mainline()  its idle loop: ct_idle_exit(), a reader
 *               (__rcu_tree_read_lock() ... __rcu_tree_read_unlock()),
 *               ct_idle_enter(), MAX_DYNTICK_LOOP_NOHZ times
 *   irq()       interrupts, MAX_DYNTICK_LOOP_IRQ of them, where mainline
 *               has IRQs on: ct_irq_enter(), the tick
 *               (rcu_tree_sched_clock_irq(): its quiescent state, if
 *               the interrupted task is outside a reader), a reader,
 *               ct_irq_exit()
 *   nmi()       NMIs, MAX_DYNTICK_LOOP_NMI of them, anywhere:
 *               ct_nmi_enter(), a reader, ct_nmi_exit() (the variants
 *               whose accesses to nesting, nmi_nesting and the task's
 *               reader count, which only CPU 1 touches, join their
 *               neighbouring steps: nothing on CPU 1 interrupts an NMI)
 * CPU 0 is the updater and the grace-period kthread:
 *   gp()        unlinks the element (removed = 1); starts the grace
 *               period (rcu_gp_init(): its barrier and the leaf's new
 *               gp_seq, written here); the first force-quiescent-state
 *               scan (rcu_gp_fqs()'s smp_mb(), written here, then the
 *               extracted rcu_watching_snap_save()); then, until CPU 1
 *               is excused or has reported, later scans
 *               (rcu_watching_snap_recheck()); the end of the grace
 *               period (rcu_gp_fqs_loop()'s smp_mb()); frees the element
 * memory_system() drains store buffers and satisfies deferred loads.
 *
 * Not extracted, written here: rcu_gp_init(), rcu_gp_fqs() and
 * force_qs_rnp() (rcu_node locks and loops, a function pointer), and
 * rcu_report_qs_rdp() (REPORT_QS: the report, under the leaf's lock, a
 * full barrier on x86).  Abstracted by the spec (tests/spin/extract.py):
 * one leaf; the CPU's noticed gp_seq stays at the grace period before
 * the modelled one; rcu_flavor_sched_clock_irq() and the deferred
 * quiescent states of rcu_read_unlock_special() are left out.
 *
 * Checks: a reader must not see its element freed; the extracted
 * WARN()s and lockdep_assert_irqs_disabled(); the first scan excuses
 * exactly a CPU whose snapshot shows it idle (the contract of
 * rcu_watching_snap_save() in tree.c); and liveness as in the article's
 * models: once CPU 1 has stopped, the next scan must end the grace
 * period (shouldexit).
 */

#define NCPU	2
#define NTASK	1
#define GPCPU	0
#define IDLE	1

#define C_MAIN	0	/* CPU 1's idle task */
#define C_IRQ	1	/* CPU 1's interrupt handler */
#define C_NMI	2	/* CPU 1's NMI handler */
#define C_GP	3	/* CPU 0 */

/* CT_NESTING_IRQ_NONIDLE, 2^62: Promela's int has 32 bits.  Any value
 * far above the interrupt nesting behaves the same (the spec says). */
#define NONIDLE		16
#define CT_WATCHING	4	/* CT_RCU_WATCHING */

/* What the inlines use that is this harness's own. */
bit qs_reported;	/* CPU 1 reported a quiescent state */
#define CURRENT(c, x)	0	/* CPU 1's one task */
/* rcu_report_qs_rdp(): under the leaf's lock, a full barrier. */
#define REPORT_QS(c, x) \
	atomic { CAN_RUN(c, x) && QUIET(c) -> qs_reported = 1 }

#define GEN	"tree612-gen.pml"
#include "tree612-layout.pml"
#include "common.pml"

#define HID_GP_SEQ	202	/* rcu_gp_init(): the leaf's new gp_seq */

proctype mainline()
{
	DECL_ct_idle_exit
	DECL_ct_idle_enter
	DECL___rcu_tree_read_lock
	DECL___rcu_tree_read_unlock
	byte i = 0;

	do
	FINISH(MAX_DYNTICK_LOOP_NOHZ, C_MAIN, nohz_done)
	:: atomic { i < MAX_DYNTICK_LOOP_NOHZ && CAN_RUN(IDLE, C_MAIN) ->
		    irqs_off = 1 };
		ct_idle_exit(IDLE, C_MAIN);
		atomic { CAN_RUN(IDLE, C_MAIN) -> irqs_off = 0 };
		__rcu_tree_read_lock(IDLE, C_MAIN);
		READER(C_MAIN, skip, skip);
		__rcu_tree_read_unlock(IDLE, C_MAIN);
		atomic { CAN_RUN(IDLE, C_MAIN) -> irqs_off = 1 };
		ct_idle_enter(IDLE, C_MAIN);
		atomic { CAN_RUN(IDLE, C_MAIN) -> irqs_off = 0; i++ }
	od
}

proctype irq()
{
	DECL_ct_irq_enter
	DECL_ct_irq_exit
	DECL_rcu_tree_sched_clock_irq
	DECL___rcu_tree_read_lock
	DECL___rcu_tree_read_unlock
	byte i = 0;

	do
	FINISH(MAX_DYNTICK_LOOP_IRQ, C_IRQ, irq_done)
	:: i < MAX_DYNTICK_LOOP_IRQ ->
		atomic { !irqs_off && !in_nmi && DELIVERED -> in_irq = 1 };
		ct_irq_enter(IDLE, C_IRQ);
		rcu_tree_sched_clock_irq(IDLE, C_IRQ, IDLE);
		__rcu_tree_read_lock(IDLE, C_IRQ);
		READER(C_IRQ, skip, skip);
		__rcu_tree_read_unlock(IDLE, C_IRQ);
		ct_irq_exit(IDLE, C_IRQ);
		atomic { CAN_RUN(IDLE, C_IRQ) && DELIVERED -> in_irq = 0; i++ }
	od
}

proctype nmi()
{
	DECL_ct_nmi_enter_nmi
	DECL_ct_nmi_exit_nmi
	DECL___rcu_tree_read_lock_nmi
	DECL___rcu_tree_read_unlock_nmi
	byte i = 0;

	do
	FINISH(MAX_DYNTICK_LOOP_NMI, C_NMI, nmi_done)
	:: i < MAX_DYNTICK_LOOP_NMI ->
		atomic { DELIVERED -> in_nmi = 1 };
		ct_nmi_enter_nmi(IDLE, C_NMI);
		__rcu_tree_read_lock_nmi(IDLE, C_NMI);
		READER(C_NMI, skip, skip);
		__rcu_tree_read_unlock_nmi(IDLE, C_NMI);
		ct_nmi_exit_nmi(IDLE, C_NMI);
		atomic { DELIVERED -> in_nmi = 0; i++ }
	od
}

proctype gp()
{
	DECL_rcu_watching_snap_save
	DECL_rcu_watching_snap_recheck
	int r;
	bit shouldexit;
	short pmem[NLOC];	/* the kthread's private fields */

	STORE(GPCPU, C_GP, A_removed, 1, HID_REMOVED);
	/* rcu_gp_init(): rcu_seq_start()'s smp_mb(), the leaf's gp_seq. */
	MB(GPCPU, C_GP, 0);
	STORE(GPCPU, C_GP, A_rcu_node_gp_seq(0), 1, HID_GP_SEQ);
	/* rcu_gp_fqs(), first time: smp_mb(), rcu_watching_snap_save(). */
	MB(GPCPU, C_GP, 0);
	rcu_watching_snap_save(GPCPU, C_GP, IDLE, r);
	/* The first scan excuses exactly a CPU its snapshot shows idle. */
	assert(r == !(pmem[A_rcu_tree_data_watching_snap(IDLE)] &
		      CT_WATCHING));
	do
	:: r -> break
	:: else ->
		atomic { assert(!shouldexit); shouldexit = STOPPED;
			 r = qs_reported };
		if
		:: r -> skip
		:: else ->
			/* rcu_gp_fqs(), later: rcu_watching_snap_recheck() */
			MB(GPCPU, C_GP, 0);
			rcu_watching_snap_recheck(GPCPU, C_GP, IDLE, r)
		fi
	od;
	/* rcu_gp_fqs_loop()'s smp_mb(), then the callbacks run. */
	MB(GPCPU, C_GP, 0);
	STORE(GPCPU, C_GP, A_freed, 1, HID_FREED)
}

init {
	atomic {
		/* CPU 1 starts idle: not watching (CT_STATE_IDLE), nesting
		 * and nmi_nesting 0.  CPU 0 is watching, in the kernel. */
		mem[A_context_tracking_state(IDLE)] = 1;
		mem[A_context_tracking_state(GPCPU)] = CT_WATCHING;
		START(MAX_DYNTICK_LOOP_NOHZ, mainline, nohz_done);
		START(MAX_DYNTICK_LOOP_IRQ, irq, irq_done);
		START(MAX_DYNTICK_LOOP_NMI, nmi, nmi_done);
		run gp();
		START_MEMORY
	}
}
