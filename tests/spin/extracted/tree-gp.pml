/*
 * The grace-period side that the harnesses of the extracted tree models
 * share (tree612.pml, poll612.pml): the leaf's lock and mask as the
 * extracted rcu_gp_init(), rcu_gp_fqs() and rcu_gp_done() use them, the
 * reports, and rcu_gp_fqs_loop(), written here.  A harness includes it
 * after its generated layout and before common.pml.  One leaf, which is
 * the root, covers every CPU.
 */

bit node_locked;	/* the leaf's lock is held */

/* The leaf's qsmask (rcu_gp_init() sets it, the reports clear it). */
#define QSMASK		mem[A_rcu_node_qsmask(0)]

/*
 * The locks the extracted code takes (the spec's SPIN_LOCK(), named by
 * object and field): the leaf's.  Its acquire is a locked instruction
 * (a full barrier); its release is modelled as one too (on x86 a plain
 * store, after which the releasing CPU's own later loads could pass its
 * buffered stores: stronger here).  Linux makes the pair a full barrier
 * anyway (smp_mb__after_unlock_lock()).
 */
#define SPIN_LOCK(c, x, l)	LOCK_##l(c, x)
#define SPIN_UNLOCK(c, x, l)	UNLOCK_##l(c, x)
#define LOCK_rcu_node_lock(c, x) \
	CAN_RUN(c, x) && QUIET(c) && !node_locked -> node_locked = 1
#define UNLOCK_rcu_node_lock(c, x) \
	CAN_RUN(c, x) && QUIET(c) -> node_locked = 0
/* local_irq_save()/restore(), preempt_disable()/enable(): only CPU 0's
 * kthread calls them here, and nothing on CPU 0 interrupts or preempts
 * it. */
#define NO_PREEMPT(c, x)	assert((x) == C_GP)
#define IRQ_SAVE(c, x, t)	assert((x) == C_GP); t = 0
#define IRQ_RESTORE(c, x, f)	assert((x) == C_GP)

/*
 * rcu_report_qs_rdp(): under the leaf's lock, a full barrier.  It clears
 * CPU c's bit of the grace period that has started; a report before
 * that is the earlier grace period's and leaves this one's bit alone.
 */
#define REPORT_QS(c, x) \
	atomic { CAN_RUN(c, x) && QUIET(c) && !node_locked -> \
		 QSMASK = QSMASK & ~(1 << (c)) }
/*
 * rcu_report_qs_rnp(mask) (the spec's REPORT_QS_RNP), called with the
 * leaf's lock held: the mask's CPUs reported, and the lock released.
 * One leaf: what it does upwards is nothing here.
 */
#define REPORT_QS_RNP(c, x, mask) \
	atomic { CAN_RUN(c, x) && QUIET(c) -> QSMASK = QSMASK & ~(mask); \
		 node_locked = 0 }

/*
 * rcu_gp_fqs_loop(), written here (its sleeps and timing are left out):
 * until the extracted rcu_gp_done(), a scan (the extracted
 * rcu_gp_fqs(): its smp_mb(), then force_qs_rnp() with
 * rcu_watching_snap_save() the first time, rcu_watching_snap_recheck()
 * after).  Checks: liveness (stopped, the harness's STOPPED, held
 * before a scan that did not end the grace period), and that the first
 * scan excused CPU IDLE if its snapshot showed it idle (the contract of
 * rcu_watching_snap_save() in tree.c; the CPU may also have reported
 * itself).  The caller declares r, first, scanned and shouldexit (bits,
 * 0), and pmem[], where the snapshots are.
 */
inline gp_fqs_loop(stopped)
{
	do
	:: rcu_gp_done(GPCPU, C_GP, r);
		if
		:: r -> break
		:: atomic { !r ->
			assert(!shouldexit); shouldexit = stopped;
			/* Checked after the first scan, here (the bit, once
			 * clear, stays clear, and only the first scan takes a
			 * snapshot). */
			assert(!scanned || (pmem[A_rcu_tree_data_watching_snap(
				IDLE)] & CT_WATCHING) || !(QSMASK & (1 << IDLE)));
			first = !scanned; scanned = 1 };
			rcu_gp_fqs(GPCPU, C_GP, first)
		fi
	od;
	r = 0
}
