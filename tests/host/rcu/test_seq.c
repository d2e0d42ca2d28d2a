// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of the shared grace-period sequence helpers (rcu/rcu.h):
 * a snapshot is done only once a full grace period has elapsed after it,
 * whether taken while idle or during a grace period, across wrap-around.
 */
#include "rcu/rcu.h"
#include "tests/host/check.h"

/* From idle at seq, and during the grace period started from it. */
static void seq_from(unsigned long seq)
{
	unsigned long sp = seq, idle_snap, gp_snap;

	CHECK(rcu_seq_state(sp) == 0, "0x%lx idle", sp);
	idle_snap = rcu_seq_snap(&sp);
	CHECK(!rcu_seq_done(&sp, idle_snap), "0x%lx: snap done at once", seq);
	rcu_seq_start(&sp);
	CHECK(rcu_seq_state(sp) == 1, "0x%lx: started, state %d", seq,
	      rcu_seq_state(sp));
	/* Taken during a GP: that one may have missed it; the next may not. */
	gp_snap = rcu_seq_snap(&sp);
	CHECK(gp_snap == idle_snap + (1UL << RCU_SEQ_CTR_SHIFT),
	      "0x%lx: snap during the GP 0x%lx, idle's 0x%lx", seq, gp_snap,
	      idle_snap);
	CHECK(!rcu_seq_done(&sp, idle_snap), "0x%lx: done mid-GP", seq);
	rcu_seq_end(&sp);
	CHECK(sp == seq + (1UL << RCU_SEQ_CTR_SHIFT), "0x%lx: ended at 0x%lx",
	      seq, sp);
	CHECK(rcu_seq_done(&sp, idle_snap), "0x%lx: idle snap not done", seq);
	CHECK(!rcu_seq_done(&sp, gp_snap),
	      "0x%lx: mid-GP snap done after the GP it was taken in", seq);
	rcu_seq_start(&sp);
	rcu_seq_end(&sp);
	CHECK(rcu_seq_done(&sp, gp_snap),
	      "0x%lx: mid-GP snap not done after the next GP", seq);
}

static void test_rcu_seq(void)
{
	cur_test = "rcu_seq";
	seq_from(0);
	seq_from(40);
	/* The counter wraps: ULONG_CMP_GE() compares across it. */
	seq_from(~0UL & ~RCU_SEQ_STATE_MASK);
	seq_from((~0UL & ~RCU_SEQ_STATE_MASK) - (1UL << RCU_SEQ_CTR_SHIFT));
}

void host_test_rcu_seq(void)
{
	test_rcu_seq();
}
