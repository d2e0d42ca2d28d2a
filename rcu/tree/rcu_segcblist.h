/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Segmented callback list (rcu=tree), after Linux's rcu_segcblist: one
 * singly linked list of callbacks cut into four segments by tail pointers,
 * each segment (but DONE and NEXT) tagged with the gp_seq value whose
 * completion makes it ready.  The owner holds rdp->lock around every call.
 *
 *   DONE        ready to invoke
 *   WAIT        waiting for the grace period gp_seq[WAIT]
 *   NEXT_READY  waiting for the (later) grace period gp_seq[NEXT_READY]
 *   NEXT        not yet assigned a grace period
 */
#ifndef RCU_RCU_SEGCBLIST_H
#define RCU_RCU_SEGCBLIST_H

#include "rcu/rcupdate.h"

#define RCU_DONE_TAIL		0
#define RCU_WAIT_TAIL		1
#define RCU_NEXT_READY_TAIL	2
#define RCU_NEXT_TAIL		3
#define RCU_CBLIST_NSEGS	4

struct rcu_segcblist {
	struct rcu_head *head;
	struct rcu_head **tails[RCU_CBLIST_NSEGS];
	unsigned long gp_seq[RCU_CBLIST_NSEGS];
	long len;
};

void rcu_segcblist_init(struct rcu_segcblist *rsclp);
bool rcu_segcblist_empty(struct rcu_segcblist *rsclp);
bool rcu_segcblist_ready_cbs(struct rcu_segcblist *rsclp);
void rcu_segcblist_enqueue(struct rcu_segcblist *rsclp,
			   struct rcu_head *rhp);
/* Give NEXT (and mergeable segments) the grace period seq; true if so. */
bool rcu_segcblist_accelerate(struct rcu_segcblist *rsclp, unsigned long seq);
/*
 * The grace period the newest callback that has one waits for, in *seq;
 * false if no callback has one (all are DONE or in NEXT).
 */
bool rcu_segcblist_lastgp(struct rcu_segcblist *rsclp, unsigned long *seq);
/* Move every segment whose grace period is done by seq to DONE. */
void rcu_segcblist_advance(struct rcu_segcblist *rsclp, unsigned long seq);
/*
 * Detach the first max callbacks of the DONE segment (all of them if it
 * has fewer); returns the first and their count in *n.  The rest stay
 * ready at the list's head.
 */
struct rcu_head *rcu_segcblist_extract_done(struct rcu_segcblist *rsclp,
					    long max, long *n);
/*
 * Put back n extracted callbacks not invoked (list, whose last one's
 * ->next is *tail) at the head of DONE, ahead of what is there.
 */
void rcu_segcblist_insert_done(struct rcu_segcblist *rsclp,
			       struct rcu_head *list, struct rcu_head **tail,
			       long n);

#endif
