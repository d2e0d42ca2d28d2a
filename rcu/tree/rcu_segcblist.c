// SPDX-License-Identifier: GPL-2.0
/* Segmented callback lists (rcu=tree); see rcu/tree/rcu_segcblist.h. */
#include "rcu/rcu.h"
#include "rcu/tree/rcu_segcblist.h"

void rcu_segcblist_init(struct rcu_segcblist *rsclp)
{
	rsclp->head = NULL;
	for (int i = 0; i < RCU_CBLIST_NSEGS; i++) {
		rsclp->tails[i] = &rsclp->head;
		rsclp->gp_seq[i] = 0;
	}
	rsclp->len = 0;
}

bool rcu_segcblist_empty(struct rcu_segcblist *rsclp)
{
	return READ_ONCE(rsclp->head) == NULL;
}

bool rcu_segcblist_ready_cbs(struct rcu_segcblist *rsclp)
{
	return rsclp->tails[RCU_DONE_TAIL] != &rsclp->head;
}

void rcu_segcblist_enqueue(struct rcu_segcblist *rsclp, struct rcu_head *rhp)
{
	rhp->next = NULL;
	*rsclp->tails[RCU_NEXT_TAIL] = rhp;
	rsclp->tails[RCU_NEXT_TAIL] = &rhp->next;
	rsclp->len++;
}

static bool seg_empty(struct rcu_segcblist *rsclp, int seg)
{
	struct rcu_head **start = seg ? rsclp->tails[seg - 1] : &rsclp->head;

	return start == rsclp->tails[seg];
}

/*
 * Callbacks in NEXT need the grace period that ends at seq.  Find the
 * highest of WAIT and NEXT_READY that holds callbacks for an earlier grace
 * period; everything above it (a segment for seq itself, and NEXT) merges
 * into the segment just above, tagged seq.
 */
bool rcu_segcblist_accelerate(struct rcu_segcblist *rsclp, unsigned long seq)
{
	int i, j;

	if (seg_empty(rsclp, RCU_NEXT_TAIL) &&
	    seg_empty(rsclp, RCU_NEXT_READY_TAIL))
		return false;
	for (i = RCU_NEXT_READY_TAIL; i > RCU_DONE_TAIL; i--)
		if (!seg_empty(rsclp, i) && ULONG_CMP_LT(rsclp->gp_seq[i], seq))
			break;
	/* i is the last segment that must stay as it is. */
	if (++i >= RCU_NEXT_TAIL)
		return false;
	for (j = i; j < RCU_NEXT_TAIL; j++) {
		rsclp->tails[j] = rsclp->tails[RCU_NEXT_TAIL];
		rsclp->gp_seq[j] = seq;
	}
	return true;
}

bool rcu_segcblist_lastgp(struct rcu_segcblist *rsclp, unsigned long *seq)
{
	/* NEXT_READY's grace period is never earlier than WAIT's. */
	for (int i = RCU_NEXT_READY_TAIL; i > RCU_DONE_TAIL; i--) {
		if (!seg_empty(rsclp, i)) {
			*seq = rsclp->gp_seq[i];
			return true;
		}
	}
	return false;
}

void rcu_segcblist_advance(struct rcu_segcblist *rsclp, unsigned long seq)
{
	int i, j;

	for (i = RCU_WAIT_TAIL; i < RCU_NEXT_TAIL; i++) {
		if (ULONG_CMP_LT(seq, rsclp->gp_seq[i]))
			break;
		/* Done (an empty segment's tag is stale; moving it is free). */
		rsclp->tails[RCU_DONE_TAIL] = rsclp->tails[i];
	}
	if (i == RCU_WAIT_TAIL)
		return;
	/* Segments 1..i-1 are now empty: point them at DONE's tail. */
	for (j = RCU_WAIT_TAIL; j < i; j++)
		rsclp->tails[j] = rsclp->tails[RCU_DONE_TAIL];
	/* Close the gap: the still-waiting segments move down. */
	for (j = RCU_WAIT_TAIL; i < RCU_NEXT_TAIL; i++, j++) {
		rsclp->tails[j] = rsclp->tails[i];
		rsclp->gp_seq[j] = rsclp->gp_seq[i];
	}
	/* What is left below NEXT is empty. */
	for (; j < RCU_NEXT_TAIL; j++)
		rsclp->tails[j] = rsclp->tails[j - 1];
}

struct rcu_head *rcu_segcblist_extract_done(struct rcu_segcblist *rsclp,
					    long max, long *n)
{
	struct rcu_head **done_tail = rsclp->tails[RCU_DONE_TAIL];
	struct rcu_head **tail = &rsclp->head;
	struct rcu_head *list = rsclp->head;
	long cnt = 0;

	*n = 0;
	/* Walk at most max callbacks: a flood's DONE segment can be long. */
	while (tail != done_tail && cnt < max) {
		tail = &(*tail)->next;
		cnt++;
	}
	if (!cnt)
		return NULL;
	rsclp->head = *tail;
	*tail = NULL;
	/* Every segment that ended with the last one taken is now empty. */
	for (int i = 0; i < RCU_CBLIST_NSEGS; i++)
		if (rsclp->tails[i] == tail)
			rsclp->tails[i] = &rsclp->head;
	rsclp->len -= cnt;
	*n = cnt;
	return list;
}

void rcu_segcblist_insert_done(struct rcu_segcblist *rsclp,
			       struct rcu_head *list, struct rcu_head **tail,
			       long n)
{
	if (!list)
		return;
	*tail = rsclp->head;
	/* Segments empty so far end where the put-back callbacks end. */
	for (int i = 0; i < RCU_CBLIST_NSEGS; i++)
		if (rsclp->tails[i] == &rsclp->head)
			rsclp->tails[i] = tail;
	rsclp->head = list;
	rsclp->len += n;
}
