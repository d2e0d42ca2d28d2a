/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPU hotplug: take any CPU but CPU 0 offline at run time and bring it
 * back (kernel/hotplug.c; the design is docs/hotplug.md).
 */
#ifndef KERNEL_HOTPLUG_H
#define KERNEL_HOTPLUG_H

#include "kernel/percpu.h"

/*
 * A CPU's hotplug state, struct percpu's hp_state.  A CPU goes
 * ONLINE -> GOING (cpu_down() asked) -> OUT (it cleared its online bit
 * and sent its tasks and timers away) -> PARK (every IPI sender that
 * could have seen it online is done: cpu_down() allows it to stop) ->
 * DEAD (parked, IRQs off, in hlt), and UP -> ONLINE through the normal
 * bring-up path.  A CPU never started is DEAD.
 */
enum cpuhp_state {
	CPUHP_DEAD,
	CPUHP_UP,
	CPUHP_ONLINE,
	CPUHP_GOING,
	CPUHP_OUT,
	CPUHP_PARK,
};

/*
 * Take cpu offline / bring it back.  Task context (they sleep).  0, or
 * -EINVAL for no such CPU, -EBUSY for CPU 0, -EALREADY for a CPU already
 * in that state, -EOPNOTSUPP if the RCU flavour cannot (yet).
 */
int cpu_down(int cpu);
int cpu_up(int cpu);

/*
 * Hold off cpu_down() and cpu_up() (task context, sleeps).  Linux's
 * names; here it is one lock, not a reader-writer one: its only user,
 * rcu_barrier()'s entrain loop, is rare.
 */
void cpus_read_lock(void);
void cpus_read_unlock(void);

/* True once cpu may take no interrupt: an IPI or NMI to it is a bug. */
static inline bool cpu_is_parked(int cpu)
{
	int st = READ_ONCE(per_cpu_area(cpu)->hp_state);

	return st == CPUHP_PARK || st == CPUHP_DEAD;
}

/* The scheduler asks: is this CPU on its way out (GOING or later)? */
static inline bool cpu_is_going(int cpu)
{
	return READ_ONCE(per_cpu_area(cpu)->hp_state) >= CPUHP_GOING;
}

/* The idle loop of a GOING CPU: leave, and never return. */
__noreturn void cpu_die(void);

/*
 * Torture hook: called on the dying CPU just before it stores OUT, IRQs
 * off, so that what it sends itself is taken in its last window, once
 * IRQs are on at OUT (rcu/torture.c, torture_onoff_window_irq).  Not
 * after the store: cpu_down() may park the CPU as soon as it sees OUT.
 * NULL unless set; one load and a not-taken branch otherwise.
 */
extern void (*cpuhp_out_hook)(int cpu);

/*
 * Test hook: called on the dying CPU right after its last RCU step
 * (rcu_report_dead()), IRQs off, before DEAD: the window in which an
 * NMI sent before cpu_down()'s sync and delivered late must run no
 * reader (tests/kernel/rcu/test_hotplug.c, rcu_hotplug_late_nmi).
 */
extern void (*cpuhp_rcu_dead_hook)(int cpu);

/* Statistics: completed offline and online operations, their times. */
struct cpuhp_stats {
	u64 n_offline, n_online;
	u64 offline_ns_total, offline_ns_max;
	u64 online_ns_total, online_ns_max;
};
void cpuhp_stats_get(struct cpuhp_stats *s);

#endif
