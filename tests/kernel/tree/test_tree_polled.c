// SPDX-License-Identifier: GPL-2.0
/*
 * rcu_tree_polled_nodes: the polled and conditional API against
 * rcu_state and every rcu_node, at the two moments they disagree.  The
 * grace-period kthread is held at a test point (rcu_gp_test_hook, no
 * lock held) right after rcu_state.gp_seq moved and before any node's
 * did:
 *
 *   STARTED: rcu_state says a grace period G runs, every node still says
 *     idle.  A cookie from before G (start_poll's, which asked for G) is
 *     not done, by rcu_state or by any node.  A cookie taken now waits
 *     for the grace period after G: it is rcu_state's snapshot, later
 *     than the first cookie, and no node has ended it.  start_poll's
 *     cookie taken now is done later with nothing else asking: G's end
 *     starts the grace period it asked for.
 *   ENDED: rcu_state says G ended, every node still says it runs.  G's
 *     cookie is done, and cond_synchronize_rcu() on it returns while the
 *     kthread is held: it needs no grace period.  A cookie taken now is
 *     rcu_state's snapshot and not done.  No node is ahead of rcu_state.
 *   NODE_ENDED: the root has ended G too (its CPUs' callbacks may run):
 *     the same checks; a node ahead of rcu_state here would let a caller
 *     that a callback woke see its cookie not done.
 *
 * Then the kthread goes on, and every node reaches G's end.  Each check
 * reads guest state while the kthread is held: no timing.  On the
 * multi-level trees (rcu_fanout_leaf=2 on 8 CPUs: three levels) the nodes
 * are many; on one node the same checks hold.
 */
#include "kernel/ktap.h"
#include "kernel/sched.h"
#include "kernel/time.h"
#include "rcu/rcupdate.h"
#include "rcu/tree/tree.h"
#include "tests/kernel/tree/util.h"

static struct {
	volatile int armed;	/* 1 + the point to hold at, or 0 */
	unsigned long target;	/* the cookie whose grace period to hold */
	volatile int held, release, left;
	volatile int cond_returned;
	unsigned long cookie;	/* for cond_synchronize_rcu() */
} gh;

/*
 * Is the kthread at point of the grace period that ends at target?  At
 * a node's end, judged by that node: rcu_state is what the test checks.
 */
static bool gh_ours(enum rcu_gp_hook_point point, struct rcu_node *rnp)
{
	unsigned long s = READ_ONCE(rcu_state.gp_seq);

	if (point == RCU_GP_HOOK_STARTED)
		return (s | RCU_SEQ_STATE_MASK) + 1 == gh.target;
	if (point == RCU_GP_HOOK_NODE_ENDED)
		return READ_ONCE(rnp->gp_seq) == gh.target;
	return s == gh.target;
}

static void gh_hook(enum rcu_gp_hook_point point, struct rcu_node *rnp)
{
	if (READ_ONCE(gh.armed) != (int)point + 1 || !gh_ours(point, rnp))
		return;
	WRITE_ONCE(gh.armed, 0);
	smp_store_release(&gh.held, 1);
	while (!READ_ONCE(gh.release))
		msleep(1);
	smp_store_release(&gh.left, 1);
}

/*
 * Start the grace period of a cookie and hold the kthread at point of
 * it.  The point is armed for the cookie that get_state gives before
 * start_poll asks for its grace period; if another grace period began
 * in between, start_poll's cookie differs, and we try again.
 */
static int gh_hold(enum rcu_gp_hook_point point, unsigned long *cookie)
{
	for (int i = 0; i < 5; i++) {
		gh.held = 0;
		gh.release = 0;
		gh.left = 0;
		gh.target = get_state_synchronize_rcu();
		WRITE_ONCE(gh.armed, (int)point + 1);
		*cookie = start_poll_synchronize_rcu();
		if (*cookie == gh.target)
			return KT_EXPECT(poll_until(READ_ONCE(gh.held)),
					 "the grace-period kthread never reached test point %d of cookie 0x%lx",
					 (int)point, *cookie);
		WRITE_ONCE(gh.armed, 0);
		poll_until(poll_state_synchronize_rcu(*cookie));
	}
	return KT_EXPECT(0, "grace periods kept starting under test point %d",
			 (int)point);
}

/* Let the kthread go, and wait until it has left the test point. */
static void gh_go(void)
{
	WRITE_ONCE(gh.armed, 0);
	WRITE_ONCE(gh.release, 1);
	if (READ_ONCE(gh.held))
		poll_until(smp_load_acquire(&gh.left));
}

/* No node has ended the grace period that cookie c waits for. */
static int no_node_done(unsigned long c, const char *what)
{
	struct rcu_node *rnp;
	int bad = 0;

	rcu_for_each_node_breadth_first(rnp)
		bad |= KT_EXPECT(!rcu_seq_done(&rnp->gp_seq, c),
				 "%s: node %d-%d gp_seq 0x%lx has ended cookie 0x%lx",
				 what, rnp->grplo, rnp->grphi,
				 READ_ONCE(rnp->gp_seq), c);
	return bad;
}

/* A cookie taken now is rcu_state's snapshot, and not done. */
static int fresh_cookie(unsigned long after, const char *what)
{
	unsigned long c = get_state_synchronize_rcu();
	unsigned long want = rcu_seq_snap(&rcu_state.gp_seq);
	int bad;

	bad = KT_EXPECT(c == want && ULONG_CMP_LT(after, c),
			"%s: a cookie taken now is 0x%lx, want rcu_state's snapshot 0x%lx, after 0x%lx",
			what, c, want, after);
	bad |= KT_EXPECT(!poll_state_synchronize_rcu(c),
			 "%s: a cookie taken now (0x%lx) is done already", what,
			 c);
	return bad | no_node_done(c, what);
}

static int gh_cond(void *arg)
{
	(void)arg;
	cond_synchronize_rcu(gh.cookie);
	smp_store_release(&gh.cond_returned, 1);
	return 0;
}

static int at_started(void)
{
	unsigned long c, next;
	int bad;

	if (gh_hold(RCU_GP_HOOK_STARTED, &c))
		return 1;
	bad = KT_EXPECT(rcu_seq_state(READ_ONCE(rcu_state.gp_seq)),
			"started: rcu_state.gp_seq 0x%lx shows no grace period",
			READ_ONCE(rcu_state.gp_seq));
	bad |= KT_EXPECT(!poll_state_synchronize_rcu(c),
			 "started: the cookie of the grace period just begun (0x%lx) is done",
			 c);
	bad |= no_node_done(c, "started");
	bad |= fresh_cookie(c, "started");
	/* start_poll during G asks for the grace period after it. */
	next = start_poll_synchronize_rcu();
	gh_go();
	bad |= KT_EXPECT(poll_until(poll_state_synchronize_rcu(c)),
			 "started: cookie 0x%lx never done", c);
	bad |= KT_EXPECT(poll_until(poll_state_synchronize_rcu(next)),
			 "started: cookie 0x%lx from start_poll during a grace period never done, with nothing else asking",
			 next);
	return bad;
}

/*
 * Once the grace period's first node, the root, has ended it (NODE_ENDED:
 * the kthread goes breadth first), and at its end in rcu_state before any
 * node's (ENDED): either way the same checks hold.
 */
static int at_ended(enum rcu_gp_hook_point point)
{
	struct rcu_node *rnp;
	unsigned long c, s;
	bool cond_started;
	int bad;

	if (gh_hold(point, &c))
		return 1;
	s = READ_ONCE(rcu_state.gp_seq);
	bad = 0;
	rcu_for_each_node_breadth_first(rnp)
		bad |= KT_EXPECT(ULONG_CMP_GE(s, READ_ONCE(rnp->gp_seq)),
				 "ended: node %d-%d gp_seq 0x%lx is ahead of rcu_state's 0x%lx",
				 rnp->grplo, rnp->grphi,
				 READ_ONCE(rnp->gp_seq), s);
	bad |= KT_EXPECT(poll_state_synchronize_rcu(c),
			 "ended: cookie 0x%lx not done at its grace period's end (rcu_state.gp_seq 0x%lx)",
			 c, s);
	bad |= fresh_cookie(c, "ended");
	/*
	 * Only if the cookie polls done: otherwise cond_synchronize_rcu()
	 * would wait for a grace period that the held kthread cannot run.
	 */
	gh.cookie = c;
	gh.cond_returned = 0;
	cond_started = !bad;
	if (cond_started) {
		kthread_run(gh_cond, NULL, raw_smp_processor_id(),
			    "polled-cond");
		bad |= KT_EXPECT(poll_until(READ_ONCE(gh.cond_returned)),
				 "ended: cond_synchronize_rcu(0x%lx) waited for a grace period, though rcu_state had ended its own",
				 c);
	}
	gh_go();
	/* The cond caller, if it waited, goes on now. */
	if (cond_started)
		poll_until(READ_ONCE(gh.cond_returned));
	rcu_for_each_node_breadth_first(rnp)
		bad |= KT_EXPECT(poll_until(rcu_seq_done(&rnp->gp_seq, c)),
				 "ended: node %d-%d never reached cookie 0x%lx (gp_seq 0x%lx)",
				 rnp->grplo, rnp->grphi, c,
				 READ_ONCE(rnp->gp_seq));
	return bad;
}

KTEST(rcu_tree_polled_nodes)
{
	int bad;

	TREE_ONLY();
	synchronize_rcu();
	WRITE_ONCE(rcu_gp_test_hook, gh_hook);
	bad = at_started();
	if (!bad)
		bad = at_ended(RCU_GP_HOOK_NODE_ENDED);
	if (!bad)
		bad = at_ended(RCU_GP_HOOK_ENDED);
	gh_go();
	WRITE_ONCE(rcu_gp_test_hook, NULL);
	return bad;
}
