/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers shared by the in-kernel tests. */
#ifndef TESTS_KERNEL_UTIL_H
#define TESTS_KERNEL_UTIL_H

#include "kernel/ktap.h"
#include "kernel/sched.h"

/*
 * Run fn(cpu, arg) in a thread pinned to each online CPU, at most 16 at
 * a time (fn must not wait for other CPUs' calls); wait for all.
 */
void run_on_each_cpu(void (*fn)(int cpu, void *arg), void *arg);
/* Run fn(arg) in a thread pinned to cpu and wait for it. */
void run_on_cpu(int cpu, void (*fn)(void *arg), void *arg);
/* Spin until *flag is nonzero or timeout_ms passes; false on timeout. */
bool wait_flag(volatile int *flag, unsigned int timeout_ms);
/*
 * An involuntary context switch, now (task context, IRQs on): other tasks
 * on this CPU run, and the caller stays runnable.  Legal inside an RCU
 * reader, which may be preempted but must not sleep (rcu=tree WARNs).
 */
void preempt_self(void);
/* Wait ms, preempted every 50 us: inside a reader, instead of msleep(). */
void preempted_wait_ms(unsigned int ms);
/*
 * How long a test waits for another vCPU to do something it does in
 * microseconds (handle an IPI or an NMI, start a thread): a bound on how
 * long the host may stall that vCPU, not a figure.  Guest time is host
 * time under TCG, so 1-2 s bounds failed correct kernels under load.
 */
#define HOST_STALL_MS	5000

/*
 * Wait (sleeping, up to HOST_STALL_MS) until cpu is idle with its tick
 * stopped; true if it got there.  A fixed sleep "to let it settle" is a
 * guess at the host's speed: a host stall of that CPU outlasts it.
 */
bool wait_tickless_idle(int cpu);
/*
 * wait_tickless_idle() for every online CPU but self (a diagnostic names
 * any that never got there), then 20 ms more: for tests that count what
 * idle CPUs take while this one works.
 */
void wait_others_tickless_idle(int self);
/*
 * A CPU's tick intervals over a whole measuring window, copied from its
 * 64-entry ring (stats.tick_gap_us) by tick_gaps_harvest() at least every
 * TICK_HARVEST_MS.  The ring alone held the window's last 64 ms: a host
 * that stalled the vCPU through them failed a correct kernel (tickless_idle
 * under make test-under-load: period 1210 us from a window that had taken
 * 65% of its ticks).
 */
#define TICK_GAPS_MAX	2048
#define TICK_HARVEST_MS	20

struct tick_gaps {
	int cpu;
	u32 idx;		/* the ring's next index still to copy */
	u32 n;
	u32 gap[TICK_GAPS_MAX];
	/*
	 * The period the CPU's timer counts, arch_timer_period_ns(): taken
	 * on that CPU while its tick runs.  0: check_tick_rate() takes it,
	 * by a call to the CPU (whose tick must still be on).
	 */
	u64 timer_ns;
};

/*
 * arch_timer_period_ns() on this CPU (IRQs on, its tick running), tried up
 * to TIMER_PERIOD_TRIES times while it finds no reload to time: 0 only if
 * every try found none.
 */
#define TIMER_PERIOD_TRIES	8
u64 timer_period_measured(void);

/* Start collecting cpu's intervals from now. */
void tick_gaps_start(struct tick_gaps *g, int cpu);
/* Copy the intervals cpu took since the last call. */
void tick_gaps_harvest(struct tick_gaps *g);

/*
 * The tick period, in us, from the collected intervals: the lower
 * quartile of the averages of neighbouring intervals.  Averaging pairs
 * cancels the jitter of a tick delivered late and its successor early
 * (the LAPIC timer keeps its schedule).  A host that stalls the vCPU
 * lengthens intervals, by merging ticks: the lower quartile stays right
 * while up to three quarters of the pairs are stretched (the median
 * failed beside make test's background jobs).  A wrong period moves
 * every interval, and shows.
 */
u64 tick_period_us(const struct tick_gaps *g);
/*
 * The tick-rate check: the period the CPU's timer counts
 * (arch_timer_period_ns()) within 20% of 1/HZ; at most 120% of HZ's
 * ticks taken in the window; and, when the CPU took at least
 * TICK_SHARE_MIN percent of them, intervals no longer than 120% of 1/HZ.
 */
#define TICK_SHARE_MIN	80
int check_tick_rate(const struct tick_gaps *g, u64 ticks, u64 window_ns);

/* What an idle CPU should not do, counted: for before/after deltas. */
struct cpu_counts {
	u64 ticks;
	u64 wakeups;	/* IRQs, IPIs and NMIs: each one ends a hlt */
};

/* Every online CPU's counts, in a kmalloc'd array of NR_CPUS: kfree it. */
struct cpu_counts *cpu_counts_snap(void);
/*
 * The ticks and wake-ups each online CPU but busy took since before,
 * summed into *sum (if not NULL).  Prints a line for each CPU that took
 * any, and for every CPU on a machine of 8 or fewer, prefixed with what;
 * returns how many idle CPUs took any.
 */
int idle_cpus_delta(const struct cpu_counts *before, int busy,
		    const char *what, struct cpu_counts *sum);

/*
 * Up to max online CPUs other than exclude (-1: none), spread evenly over
 * them from an offset that changes from boot to boot, in ascending order
 * in cpus[]; returns how many.  Every one of them if there are max or
 * fewer.  For tests whose cost grows with the CPUs they drive: sampling
 * keeps the verdict from depending on how many vCPUs share the host's
 * cores, and boots in turn cover different CPUs.
 */
int sample_online_cpus(int *cpus, int max, int exclude);
/* hotplug_max_cpus=: how many CPUs a hotplug test takes down and up. */
extern unsigned int hotplug_max_cpus;
/* "what: N of M CPUs: a b c ..." as a KTAP diagnostic. */
void ktap_diag_cpus(const char *what, const int *cpus, int n);

/* A small pseudo-random generator for tests (xorshift). */
u64 test_rand(u64 *state);

#endif
