// SPDX-License-Identifier: GPL-2.0
#include "rcu/rcu.h"
#include "rcu/tree/rcu_segcblist.h"
#include "tests/host/check.h"

/*
 * rcu=tree's segmented callback list (rcu/tree/rcu_segcblist.c): callbacks
 * queued in two grace periods' time move to DONE only when the gp_seq
 * they wait for is done, in order, and acceleration merges what it can.
 */
static struct rcu_head seg_cbs[6];

static int seg_count(struct rcu_segcblist *l, int seg)
{
	struct rcu_head **p = seg ? l->tails[seg - 1] : &l->head;
	int n = 0;

	while (p != l->tails[seg]) {
		n++;
		p = &(*p)->next;
	}
	return n;
}

static void test_segcblist(void)
{
	struct rcu_segcblist l;
	unsigned long seq = 0, s1, s2, n_seq = 0;
	struct rcu_head *done;
	long n;

	cur_test = "segcblist";
	rcu_segcblist_init(&l);
	CHECK(rcu_segcblist_empty(&l), "starts empty");
	/* Two callbacks while idle: they need the next GP (ends at 4). */
	rcu_segcblist_enqueue(&l, &seg_cbs[0]);
	rcu_segcblist_enqueue(&l, &seg_cbs[1]);
	s1 = rcu_seq_snap(&seq);
	CHECK(s1 == 4, "snap of idle 0 is %lu", s1);
	CHECK(!rcu_segcblist_lastgp(&l, &n_seq), "NEXT has no grace period");
	CHECK(rcu_segcblist_accelerate(&l, s1), "accelerated");
	CHECK(rcu_segcblist_lastgp(&l, &n_seq) && n_seq == s1,
	      "WAIT waits for %lu", n_seq);
	CHECK(seg_count(&l, RCU_WAIT_TAIL) == 2, "2 in WAIT: %d",
	      seg_count(&l, RCU_WAIT_TAIL));
	/* A GP starts (seq 1); one more callback needs the one after. */
	seq = 1;
	rcu_segcblist_enqueue(&l, &seg_cbs[2]);
	s2 = rcu_seq_snap(&seq);
	CHECK(s2 == 8, "snap during GP 1 is %lu", s2);
	CHECK(rcu_segcblist_accelerate(&l, s2), "accelerated again");
	CHECK(seg_count(&l, RCU_NEXT_READY_TAIL) == 1, "1 in NEXT_READY: %d",
	      seg_count(&l, RCU_NEXT_READY_TAIL));
	CHECK(rcu_segcblist_lastgp(&l, &n_seq) && n_seq == s2,
	      "the newest waits for %lu", n_seq);
	/* Nothing is done while GP 1 runs. */
	rcu_segcblist_advance(&l, seq);
	CHECK(!rcu_segcblist_ready_cbs(&l), "none ready during GP 1");
	/* GP 1 ends (seq 4): the first two are done, the third waits. */
	seq = 4;
	rcu_segcblist_advance(&l, seq);
	CHECK(rcu_segcblist_ready_cbs(&l), "ready after GP 1");
	done = rcu_segcblist_extract_done(&l, LONG_MAX, &n);
	CHECK(n == 2 && done == &seg_cbs[0] && done->next == &seg_cbs[1] &&
	      !seg_cbs[1].next, "extracted the first two in order (%ld)", n);
	CHECK(!rcu_segcblist_empty(&l) && l.len == 1, "one left, len %ld",
	      l.len);
	CHECK(seg_count(&l, RCU_WAIT_TAIL) == 1, "it moved to WAIT: %d",
	      seg_count(&l, RCU_WAIT_TAIL));
	CHECK(rcu_segcblist_lastgp(&l, &n_seq) && n_seq == s2,
	      "it still waits for %lu", n_seq);
	/* GP 2 starts and ends: the third is done. */
	rcu_segcblist_advance(&l, 5);
	CHECK(!rcu_segcblist_ready_cbs(&l), "none ready during GP 2");
	rcu_segcblist_advance(&l, 8);
	done = rcu_segcblist_extract_done(&l, LONG_MAX, &n);
	CHECK(n == 1 && done == &seg_cbs[2], "the third after GP 2");
	CHECK(rcu_segcblist_empty(&l) && l.len == 0, "empty at the end");
}

/*
 * rcu_do_batch()'s limit: a DONE segment taken in two batches keeps its
 * order, the rest stays ready at the head, and the segments behind it
 * (here one callback still waiting) are not touched.
 */
static void test_segcblist_limit(void)
{
	struct rcu_segcblist l;
	struct rcu_head *done;
	long n;

	cur_test = "segcblist_limit";
	rcu_segcblist_init(&l);
	for (int i = 0; i < 5; i++)
		rcu_segcblist_enqueue(&l, &seg_cbs[i]);
	rcu_segcblist_accelerate(&l, 4);
	rcu_segcblist_enqueue(&l, &seg_cbs[5]);
	rcu_segcblist_accelerate(&l, 8);
	rcu_segcblist_advance(&l, 4);
	done = rcu_segcblist_extract_done(&l, 3, &n);
	CHECK(n == 3 && done == &seg_cbs[0] && !seg_cbs[2].next,
	      "first batch: the first three, cut after the third (%ld)", n);
	/* Out of time after the first: the other two go back, in front. */
	rcu_segcblist_insert_done(&l, &seg_cbs[1], &seg_cbs[2].next, 2);
	CHECK(l.len == 5 && seg_count(&l, RCU_DONE_TAIL) == 4 &&
	      l.head == &seg_cbs[1] && seg_cbs[2].next == &seg_cbs[3],
	      "two put back ahead of the rest: len %ld, DONE %d", l.len,
	      seg_count(&l, RCU_DONE_TAIL));
	done = rcu_segcblist_extract_done(&l, 2, &n);
	CHECK(n == 2 && done == &seg_cbs[1] && !seg_cbs[2].next,
	      "the two put back come first (%ld)", n);
	CHECK(l.len == 3 && seg_count(&l, RCU_DONE_TAIL) == 2 &&
	      rcu_segcblist_ready_cbs(&l),
	      "two left ready, len %ld, DONE %d", l.len,
	      seg_count(&l, RCU_DONE_TAIL));
	CHECK(seg_count(&l, RCU_WAIT_TAIL) == 1,
	      "the waiting one untouched: WAIT %d",
	      seg_count(&l, RCU_WAIT_TAIL));
	done = rcu_segcblist_extract_done(&l, 3, &n);
	CHECK(n == 2 && done == &seg_cbs[3] && !seg_cbs[4].next,
	      "second batch: the last two (%ld)", n);
	CHECK(!rcu_segcblist_ready_cbs(&l) && l.len == 1 &&
	      l.head == &seg_cbs[5], "only the waiting one left");
	done = rcu_segcblist_extract_done(&l, 3, &n);
	CHECK(!done && n == 0, "nothing ready: nothing taken");
	/* Put back into an empty DONE: the segments' tails follow. */
	seg_cbs[4].next = NULL;
	rcu_segcblist_insert_done(&l, &seg_cbs[4], &seg_cbs[4].next, 1);
	CHECK(rcu_segcblist_ready_cbs(&l) && l.len == 2 &&
	      seg_count(&l, RCU_DONE_TAIL) == 1 &&
	      seg_count(&l, RCU_WAIT_TAIL) == 1 && seg_cbs[4].next ==
	      &seg_cbs[5], "one put back into an empty DONE, ahead of WAIT");
}

/*
 * A time-limited batch that took every callback the list had, and puts
 * some back: every segment's tail pointed at head, and each must follow
 * the put-back ones, or the next call_rcu() would write over them.
 */
static void test_segcblist_put_back_all(void)
{
	struct rcu_segcblist l;
	struct rcu_head *done;
	long n;

	cur_test = "segcblist_put_back_all";
	rcu_segcblist_init(&l);
	for (int i = 0; i < 3; i++)
		rcu_segcblist_enqueue(&l, &seg_cbs[i]);
	rcu_segcblist_accelerate(&l, 4);
	rcu_segcblist_advance(&l, 4);
	done = rcu_segcblist_extract_done(&l, 3, &n);
	CHECK(n == 3 && done == &seg_cbs[0] && l.len == 0,
	      "the batch took all three (%ld), the list is empty", n);
	/* Out of time after the first: two go back into the empty list. */
	rcu_segcblist_insert_done(&l, &seg_cbs[1], &seg_cbs[2].next, 2);
	rcu_segcblist_enqueue(&l, &seg_cbs[3]);
	CHECK(l.len == 3 && l.head == &seg_cbs[1] &&
	      seg_cbs[2].next == &seg_cbs[3] &&
	      seg_count(&l, RCU_DONE_TAIL) == 2,
	      "the two put back stay ahead of a new callback: len %ld, DONE %d",
	      l.len, seg_count(&l, RCU_DONE_TAIL));
}

void host_test_segcblist(void)
{
	test_segcblist();
	test_segcblist_limit();
	test_segcblist_put_back_all();
}
