/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-CPU timers and the scheduling-clock tick.  A timer runs its function
 * in hardirq context on the CPU it was added on.  While the tick runs,
 * timers are checked every tick; while it is stopped (tickless idle) the
 * local timer is programmed one-shot for the earliest timer, or left off.
 */
#ifndef KERNEL_TIMER_H
#define KERNEL_TIMER_H

#include "kernel/list.h"

struct timer {
	u64 expires_ns;
	void (*fn)(struct timer *t);
	struct list_head node;
	int cpu;		/* -1 when not pending */
};

void timer_init(struct timer *t, void (*fn)(struct timer *t));
/* Arm on this CPU, to fire at ktime_get_ns() >= expires_ns. */
void add_timer(struct timer *t, u64 expires_ns);
/* Disarm, on whichever CPU it is pending; returns whether it was. */
bool del_timer(struct timer *t);
/*
 * Disarm from any CPU, and return only once t is neither pending nor
 * running its function anywhere, so the caller may reuse or free t (a
 * timer on the stack).  Task context, not for a timer whose function
 * re-arms it.
 */
void del_timer_sync(struct timer *t);
/* Test hook: del_timer_sync() calls it before it waits for t (NULL: off). */
extern void (*del_timer_sync_hook)(struct timer *t);

void tick_init_cpu(int cpu);
/* CPU hotplug: the dying CPU stops its tick, moves its timers to to. */
void timers_migrate(int cpu, int to);
/* Idle loop: stop the periodic tick / restart it. */
void tick_nohz_stop(void);
void tick_nohz_restart(void);
/* Reprogram the one-shot for the earliest timer (tick stopped). */
void tick_nohz_reprogram(void);
/* nohz=off keeps the tick running in idle. */
extern unsigned int nohz_enabled;
/*
 * Keep a CPU's tick running through idle, as Linux's tick_dep_set_cpu()
 * does for nohz_full CPUs; a stopped tick restarts at the CPU's next
 * wake-up (send it one).  Tests sample a few CPUs' ticks at a time.
 */
void tick_dep_set_cpu(int cpu);
void tick_dep_clear_cpu(int cpu);

#endif
