/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Preemptible Tree RCU (rcu=tree) internals, shared by rcu/tree*.c and the
 * tests.  Names follow Linux 6.12's kernel/rcu/tree.h where the concept is
 * the same; the per-CPU struct is rcu_tree_data because the 2008 flavour's
 * rcu_data lives in the same kernel.
 */
#ifndef RCU_TREE_H
#define RCU_TREE_H

#include "kernel/compiler.h"
#include "kernel/list.h"
#include "kernel/lockdep.h"
#include "kernel/percpu.h"
#include "kernel/sched.h"
#include "kernel/spinlock.h"
#include "kernel/wait.h"
#include "rcu/tree/context_tracking.h"
#include "rcu/rcu.h"
#include "rcu/tree/rcu_segcblist.h"
#include "rcu/tree/tree_read.h"

/*
 * The most a tree of NR_CPUS can need, at rcu_fanout_leaf=2 and
 * rcu_fanout=2: 128 leaves, then 64, 32, ..., 1: eight levels and 255
 * nodes.
 */
#define RCU_MAX_LEVELS	8
#define RCU_MAX_NODES	NR_CPUS

/* Expedited waiters' queues per node, by snapshot (a power of 2). */
#define RCU_EXP_WQS	4

/*
 * One node of the combining tree.  A leaf covers CPUs grplo..grphi (bit i
 * of its masks is CPU grplo + i); an inner node's bit i is its child i.
 * lock protects every field that changes.
 */
struct rcu_node {
	struct spinlock lock;
	unsigned long gp_seq;		/* the grace period this node is in */
	unsigned long qsmask;		/* still to report, this GP */
	/*
	 * What rcu_gp_init() copies into qsmask: the online CPUs (or the
	 * children covering one) as of the last grace-period start.
	 * CPU hotplug changes qsmaskinitnext (leaves only, under the lock
	 * and rcu_state.ofl_lock) at once; rcu_gp_init() applies it to
	 * qsmaskinit, and up the tree, at the next grace period's start.
	 */
	unsigned long qsmaskinit;
	unsigned long qsmaskinitnext;
	/*
	 * All this leaf's CPUs went offline while tasks were blocked on
	 * it: its bit stays in its parent's qsmaskinit until they leave.
	 */
	bool wait_blkd_tasks;
	unsigned long expmask;		/* still to report, expedited GP */
	/* Every child: the expedited selection handles offline CPUs. */
	unsigned long expmaskinit;
	unsigned long grpmask;		/* our bit in the parent's masks */
	int grplo, grphi;		/* CPUs covered */
	int grpnum;			/* our bit number in the parent */
	int level;			/* 0 is the root */
	struct rcu_node *parent;
	/*
	 * Tasks preempted inside a reader on one of this leaf's CPUs
	 * (leaves only).  n_gp_tasks of them hold the current grace period
	 * (their rcu_blocks_gp is set), n_exp_tasks the expedited one.
	 */
	struct list_head blkd_tasks;
	int n_gp_tasks;
	int n_exp_tasks;
	/*
	 * The expedited funnel (tree_exp.c, exp_funnel_lock()): exp_lock
	 * protects exp_seq_rq, the latest expedited grace period a caller
	 * asked for through this node; callers that find theirs asked for
	 * already sleep on exp_wq[] until it ends.
	 */
	struct spinlock exp_lock;
	unsigned long exp_seq_rq;
	struct wait_queue_head exp_wq[RCU_EXP_WQS];
} __cacheline_aligned;

/* Everything Tree RCU keeps per CPU, in one struct. */
struct rcu_tree_data {
	int cpu;
	struct rcu_node *mynode;	/* our leaf */
	unsigned long grpmask;		/* our bit in mynode's masks */

	/* Quiescent states: owned by this CPU, read under mynode->lock. */
	unsigned long gp_seq;		/* the GP this CPU has noticed */
	bool cpu_no_qs;			/* no QS yet in the noticed GP */
	bool core_needs_qs;		/* and the GP waits for one */
	int watching_snap;		/* FQS: counter snapshot (ct->state) */
	/*
	 * FQS asks this CPU, watching and holding the grace period for
	 * RCU_SCHED_QS_MS, for a quiescent state now: its tick asks for a
	 * reschedule (Linux's rcu_urgent_qs).
	 */
	bool rcu_urgent_qs;
	u64 n_urgent_qs;		/* reschedules the tick asked for */

	/* Expedited grace periods. */
	bool exp_deferred_qs;		/* this CPU owes the expedited GP */
	int exp_watching_snap;		/* counter when selected (watching) */
	u64 exp_ipis;			/* rcu_exp_handler() runs here */
	/*
	 * A deferral's self-IPI is on its way (Linux: its irq_work): set
	 * when it is sent, cleared by its handler, IRQs off, this CPU only.
	 */
	bool defer_qs_iw_pending;
	u64 n_defer_qs_iw;		/* those self-IPIs sent */

	/* Callbacks: lock protects cblist and invoking. */
	struct spinlock lock;
	struct rcu_segcblist cblist;
	int invoking;			/* softirq has callbacks in hand */
	/*
	 * Forward progress under a call_rcu() flood (rcu_do_batch(),
	 * rcu_tree_call_rcu()), under lock: the batch limit now (blimit, or
	 * DEFAULT_MAX_RCU_BLIMIT while overloaded), and the queue length at
	 * the last overload step.
	 */
	long blimit;
	long qlen_last_fqs_check;
	u64 n_cbs_overload;		/* overload steps taken */
	/*
	 * Since when (guest ns; 0: not) a grace period that this CPU's
	 * callbacks wait for has been beyond rcu_state.gp_seq_needed:
	 * rcu_check_cbs_requested(), this CPU's tick only.
	 */
	u64 cbs_unasked_since_ns;
	long n_batch_max;		/* the largest batch invoked */
	u64 n_cb_invoked;
	u64 n_fqs_reads;		/* FQS scans that read our counter */
	u64 n_fqs_excused;		/* QSs reported for us by FQS */
} __cacheline_aligned;

/*
 * A CPU's batch limit while its queue is overloaded (Linux 6.12's
 * DEFAULT_MAX_RCU_BLIMIT): it drains in a few softirq passes.
 */
#define DEFAULT_MAX_RCU_BLIMIT	10000
extern unsigned int blimit, qhimark, qlowmark, rcu_divisor;

/* Grace-period kthread states, for the stall report and gdb. */
enum rcu_gp_state {
	RCU_GP_IDLE,			/* waiting for a GP request */
	RCU_GP_INIT,			/* rcu_gp_init() */
	RCU_GP_WAIT_FQS,		/* sleeping until the next FQS scan */
	RCU_GP_DOING_FQS,		/* rcu_gp_fqs() */
	RCU_GP_CLEANUP,			/* rcu_gp_cleanup() */
	RCU_GP_NR_STATES,
};

struct rcu_state {
	struct rcu_node node[RCU_MAX_NODES];	/* breadth first, root first */
	struct rcu_node *level[RCU_MAX_LEVELS];	/* first node of each level */
	int num_levels;
	int num_nodes;
	int ncpus;			/* CPUs the tree covers */

	unsigned long gp_seq;		/* the grace-period sequence */
	unsigned long gp_seq_needed;	/* the furthest one asked for */
	struct task *gp_kthread;
	int gp_state;			/* enum rcu_gp_state */
	bool gp_wake;			/* a request or the root's last QS */
	u64 gp_start_ns;
	u64 gp_activity_ns;		/* the kthread last did something */
	u64 stall_next_ns;		/* 0: no report due */
	/*
	 * Serialises CPU hotplug's qsmaskinitnext updates against
	 * rcu_gp_init()'s pass that applies them (Linux's ofl_lock).
	 * Taken before any rcu_node lock.
	 */
	struct spinlock ofl_lock;

	/*
	 * Expedited GPs: one worker at a time (exp_mutex, a sleeping lock
	 * whose waiters sleep on exp_mutex_wq); callers share them through
	 * expedited_sequence.
	 */
	int exp_mutex;
	struct wait_queue_head exp_mutex_wq;
	unsigned long expedited_sequence;
	struct completion *exp_done;	/* completed when the root empties */

	/* Statistics. */
	u64 n_gp_completed;
	u64 n_gp_started;
	u64 n_exp_completed;
	u64 n_fqs_scans;
	u64 n_stalls;
	u64 gp_lat_min_ns, gp_lat_max_ns, gp_lat_sum_ns;
};

extern struct rcu_state rcu_state;
extern struct rcu_tree_data rcu_tree_data[NR_CPUS];
extern unsigned int rcu_fanout_leaf;
extern unsigned int rcu_fanout;

/* The caller holds rnp's lock (Linux 6.12 names it the same). */
#define raw_lockdep_assert_held_rcu_node(rnp) \
	lockdep_assert_held(&(rnp)->lock)

#define rcu_get_root()	(&rcu_state.node[0])
static inline bool rcu_is_leaf_node(struct rcu_node *rnp)
{
	return rnp->level == rcu_state.num_levels - 1;
}

#define rcu_for_each_node_breadth_first(rnp)				\
	for ((rnp) = &rcu_state.node[0];				\
	     (rnp) < &rcu_state.node[rcu_state.num_nodes]; (rnp)++)
#define rcu_for_each_leaf_node(rnp)					\
	for ((rnp) = rcu_state.level[rcu_state.num_levels - 1];		\
	     (rnp) < &rcu_state.node[rcu_state.num_nodes]; (rnp)++)

/* rcu/tree/tree.c */
void rcu_report_qs_rnp(unsigned long mask, struct rcu_node *rnp,
		       unsigned long gps, unsigned long flags);
void rcu_report_qs_rdp(struct rcu_tree_data *rdp);
void rcu_report_unblock_qs_rnp(struct rcu_node *rnp, unsigned long flags);
bool rcu_note_gp_changes_locked(struct rcu_node *rnp,
				struct rcu_tree_data *rdp);
void rcu_gp_kthread_wake(void);
const char *rcu_tree_gp_state_name(void);
bool rcu_is_cpu_rrupt_from_idle(void);

/* rcu/tree/tree_plugin.c */
void rcu_tree_note_context_switch(bool preempt);
void rcu_tree_read_lock_delay_set(void (*hook)(void));
bool rcu_preempt_need_deferred_qs(struct task *t);
void rcu_preempt_deferred_qs(struct task *t);
void rcu_preempt_deferred_qs_handler(void);
bool rcu_preempt_interrupted_atomic(void);
void rcu_preempt_check_blocked_tasks_gp_init(struct rcu_node *rnp);
bool rcu_flavor_sched_clock_irq(int cpu);
bool rcu_preempt_blocked_readers_cgp(struct rcu_node *rnp);

/*
 * Test-only points of the expedited grace period, where a test forces an
 * interleaving (tests/kernel/tree/test_tree_exp_races.c).  Off (NULL)
 * unless a test sets rcu_exp_test_hook: one load and a not-taken branch
 * per point.
 */
enum rcu_exp_hook_point {
	RCU_EXP_HOOK_STARTED,	/* worker: GP set up, no leaf selected yet */
	RCU_EXP_HOOK_SELECTED,	/* worker: a leaf selected, no IPI sent yet */
	RCU_EXP_HOOK_IPIS_SENT,	/* worker: a leaf's IPIs sent, its report not */
	RCU_EXP_HOOK_CLIMB,	/* a report let rnp go, its parent not locked */
	RCU_EXP_HOOK_UNBLOCKED,	/* a task holding the GP left rnp's blkd list */
};

extern void (*rcu_exp_test_hook)(enum rcu_exp_hook_point point,
				 struct rcu_node *rnp);

static inline void rcu_exp_hook(enum rcu_exp_hook_point point,
				struct rcu_node *rnp)
{
	call_test_hook(rcu_exp_test_hook, point, rnp);
}

/*
 * Test-only points of the grace-period kthread, each between
 * rcu_state.gp_seq's step and the rcu_nodes' (rcu_gp_init(),
 * rcu_gp_cleanup()), or between two nodes' ends, no lock held: a test
 * holds the kthread there to check the polled API against rcu_state and
 * every node (tests/kernel/tree/test_tree_polled.c).  The hook may
 * sleep.  Off (NULL) unless a test sets rcu_gp_test_hook.
 */
enum rcu_gp_hook_point {
	RCU_GP_HOOK_STARTED,	/* rcu_state.gp_seq started, no node yet */
	RCU_GP_HOOK_ENDED,	/* rcu_state.gp_seq ended, no node yet */
	RCU_GP_HOOK_NODE_ENDED,	/* rnp's gp_seq ended, the next node's not */
};

extern void (*rcu_gp_test_hook)(enum rcu_gp_hook_point point,
				struct rcu_node *rnp);

static inline void rcu_gp_hook(enum rcu_gp_hook_point point,
			       struct rcu_node *rnp)
{
	call_test_hook(rcu_gp_test_hook, point, rnp);
}

/* rcu/tree/tree_exp.c */
void rcu_tree_synchronize_rcu_expedited(void);
void rcu_report_exp_rdp(struct rcu_tree_data *rdp);
void rcu_report_exp_cpu_mult(struct rcu_node *rnp, unsigned long mask);
void rcu_report_exp_rnp(struct rcu_node *rnp);
bool sync_rcu_exp_done(struct rcu_node *rnp);
void rcu_exp_init(void);

/* rcu/tree/tree_stall.c; tree_exp.c reports its stalls with the same timing */
/* After the first report (rcu_cpu_stall_timeout), one every 3 timeouts. */
#define RCU_STALL_REPEAT_FACTOR	3

void record_gp_stall_check_time(u64 now);
void check_cpu_stall(u64 now);
/* The report alone, also for the watchdog's stranded-work check. */
void print_other_cpu_stall(u64 now);

#endif
