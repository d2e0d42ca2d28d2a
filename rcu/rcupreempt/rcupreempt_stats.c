// SPDX-License-Identifier: GPL-2.0
/*
 * RCU statistics: grace periods completed, grace-period latency (from the
 * flip to the return to idle), time spent in each flip state, callbacks
 * invoked.  Recorded only at state transitions, under fliplock, so the
 * read side and the tick's common path pay nothing.  Printed as KTAP "# "
 * diagnostics by rcupreempt_stats_print().
 */
#include "kernel/compiler.h"
#include "kernel/ktap.h"
#include "kernel/lockdep.h"
#include "kernel/percpu.h"
#include "kernel/time.h"
#include "rcu/rcupreempt/rcupreempt.h"

/* Latency samples kept for the median: the most recent ones. */
#define RCU_STATS_NR_SAMPLES	1024

static struct {
	u64 gp_completed;
	u64 flips;
	u64 state_enter_ns;		/* when the current state began */
	u64 state_ns[RCU_TRY_FLIP_NR_STATES];
	u64 flip_ns;			/* when the current GP flipped */
	u64 lat_min_ns;
	u64 lat_max_ns;
	u64 samples[RCU_STATS_NR_SAMPLES];
	u64 stalls;
} rcu_stats;

/* Scratch for the median; only rcupreempt_stats_get() uses it. */
static u64 rcu_stats_sorted[RCU_STATS_NR_SAMPLES];

void rcu_stats_init(u64 now)
{
	int i;

	rcu_stats.gp_completed = 0;
	rcu_stats.flips = 0;
	rcu_stats.state_enter_ns = now;
	for (i = 0; i < RCU_TRY_FLIP_NR_STATES; i++)
		rcu_stats.state_ns[i] = 0;
	rcu_stats.flip_ns = now;
	rcu_stats.lat_min_ns = 0;
	rcu_stats.lat_max_ns = 0;
	rcu_stats.stalls = 0;
}

void rcu_stats_state_change(int from, int to, u64 now)
{
	u64 lat;

	lockdep_assert_held(&rcu_ctrlblk.fliplock);
	rcu_stats.state_ns[from] += now - rcu_stats.state_enter_ns;
	rcu_stats.state_enter_ns = now;
	if (from == rcu_try_flip_idle_state) {
		rcu_stats.flips++;
		rcu_stats.flip_ns = now;
	}
	if (to != rcu_try_flip_idle_state)
		return;

	lat = now - rcu_stats.flip_ns;
	if (rcu_stats.gp_completed == 0 || lat < rcu_stats.lat_min_ns)
		rcu_stats.lat_min_ns = lat;
	if (lat > rcu_stats.lat_max_ns)
		rcu_stats.lat_max_ns = lat;
	rcu_stats.samples[rcu_stats.gp_completed % RCU_STATS_NR_SAMPLES] = lat;
	WRITE_ONCE(rcu_stats.gp_completed, rcu_stats.gp_completed + 1);
}

void rcu_stats_stall_reported(void)
{
	rcu_stats.stalls++;
}

/*
 * Racy against a concurrent transition (we do not take fliplock, which is
 * trylock-only): a sample may be torn between old and new, never invalid.
 * Not reentrant (shared sort scratch): call from one task at a time.
 */
void rcupreempt_stats_get(struct rcu_stats_snapshot *s)
{
	u64 n = READ_ONCE(rcu_stats.gp_completed);
	u64 i, j;
	int cpu;

	s->gp_completed = n;
	s->flips = READ_ONCE(rcu_stats.flips);
	s->gp_lat_min_ns = READ_ONCE(rcu_stats.lat_min_ns);
	s->gp_lat_max_ns = READ_ONCE(rcu_stats.lat_max_ns);
	for (i = 0; i < RCU_TRY_FLIP_NR_STATES; i++)
		s->state_ns[i] = READ_ONCE(rcu_stats.state_ns[i]);
	s->stalls = READ_ONCE(rcu_stats.stalls);
	s->cb_invoked = 0;
	for (cpu = 0; cpu < NR_CPUS; cpu++)
		s->cb_invoked += READ_ONCE(RCU_DATA_CPU(cpu)->n_cb_invoked);

	/* Median of the kept samples, by insertion sort of a copy. */
	if (n > RCU_STATS_NR_SAMPLES)
		n = RCU_STATS_NR_SAMPLES;
	for (i = 0; i < n; i++) {
		u64 v = READ_ONCE(rcu_stats.samples[i]);

		for (j = i; j > 0 && rcu_stats_sorted[j - 1] > v; j--)
			rcu_stats_sorted[j] = rcu_stats_sorted[j - 1];
		rcu_stats_sorted[j] = v;
	}
	s->gp_lat_median_ns = n ? rcu_stats_sorted[n / 2] : 0;
}

static unsigned long long ns_to_us(u64 ns)
{
	return ns / NSEC_PER_USEC;
}

/* Nearest whole number of scheduling-clock ticks. */
static unsigned long long ns_to_ticks(u64 ns)
{
	return (ns * tick_hz + NSEC_PER_SEC / 2) / NSEC_PER_SEC;
}

void rcupreempt_stats_print(void)
{
	struct rcu_stats_snapshot s;

	rcupreempt_stats_get(&s);
	ktap_diag("rcu: grace periods completed %llu, flips %llu, completed counter %ld",
		  (unsigned long long)s.gp_completed,
		  (unsigned long long)s.flips, rcupreempt_batches_completed());
	ktap_diag("rcu: gp latency min/median/max %llu/%llu/%llu us = %llu/%llu/%llu ticks (HZ=%u)",
		  ns_to_us(s.gp_lat_min_ns),
		  ns_to_us(s.gp_lat_median_ns),
		  ns_to_us(s.gp_lat_max_ns),
		  ns_to_ticks(s.gp_lat_min_ns),
		  ns_to_ticks(s.gp_lat_median_ns),
		  ns_to_ticks(s.gp_lat_max_ns), tick_hz);
	ktap_diag("rcu: time in state idle/waitack/waitzero/waitmb %llu/%llu/%llu/%llu us",
		  ns_to_us(s.state_ns[rcu_try_flip_idle_state]),
		  ns_to_us(s.state_ns[rcu_try_flip_waitack_state]),
		  ns_to_us(s.state_ns[rcu_try_flip_waitzero_state]),
		  ns_to_us(s.state_ns[rcu_try_flip_waitmb_state]));
	ktap_diag("rcu: callbacks invoked %llu, stall reports %llu",
		  (unsigned long long)s.cb_invoked,
		  (unsigned long long)s.stalls);
}
