/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-CPU areas.  Each CPU's struct percpu is reached through the arch's
 * per-CPU base register (GS on x86) whose first word is a self pointer.
 * Subsystems keep their own per-CPU state in arrays indexed by CPU number,
 * one cache-line-aligned struct per CPU (see rcu/).
 */
#ifndef KERNEL_PERCPU_H
#define KERNEL_PERCPU_H

#include "kernel/compiler.h"

/*
 * xAPIC IDs are 8 bits and 0xff is the broadcast ID: 255 CPUs at most
 * without x2APIC (which QEMU 7.2's TCG lacks).  256 keeps masks whole.
 */
#define NR_CPUS		256
#define NR_VECTORS	256

#include "kernel/cpumask.h"
#include "kernel/mm.h"

struct task;

struct cpu_stats {
	u64 ticks;		/* scheduling-clock ticks taken */
	u64 idle_enter;		/* entries to dynticks idle */
	u64 idle_exit;
	u64 idle_ns;		/* time spent in dynticks idle */
	u64 idle_halts;		/* idle-loop passes that halted */
	u64 idle_spins;		/* passes that neither halted nor scheduled */
	u64 irqs;		/* all device IRQs and IPIs */
	u64 nmis;
	u64 irqs_from_idle;	/* IRQs that found the CPU dynticks-idle */
	u64 nmis_from_idle;
	u64 nmis_ignored;	/* NMIs after the CPU's last RCU step */
	u32 max_irq_depth;	/* deepest hardirq nesting seen */
	u64 last_tick_ns;	/* for the tick-interval ring below */
	u32 tick_gap_idx;
	u32 tick_gap_us[64];	/* the last 64 intervals between ticks */
	u32 irq_by_vector[NR_VECTORS];
};

struct percpu {
	struct percpu *self;		/* must stay first: arch reads %gs:0 */
	int cpu;			/* logical CPU number, 0 = boot CPU */
	u32 apic_id;
	unsigned int preempt_count;	/* see kernel/preempt.h */
	int need_resched;
	struct task *curr_task;	/* "current" */
	struct task *idle;
	void *arch;			/* arch-private per-CPU data */
	int tick_stopped;		/* the idle loop stopped the tick */
	int tick_dep;			/* keep the tick in idle (tick_dep_set_cpu()) */
	int in_idle;			/* in the idle loop's sleep section */
	int hp_state;			/* enum cpuhp_state, kernel/hotplug.h */
	u64 idle_since_ns;
	unsigned long nmi_interrupted_ip;	/* where the current NMI hit */
	unsigned long nmi_interrupted_fp;	/* its frame pointer */
	/*
	 * Depth of nmi_enter()..nmi_exit(), whole: in_nmi() is false in
	 * their RCU steps (the count is raised after rcu_irq_enter() and
	 * dropped before rcu_irq_exit()), yet a WARN there is still in an
	 * NMI and must not take the console lock.
	 */
	int nmi_path;
	/*
	 * Set by cpu_die() just before the CPU's last RCU step, cleared by
	 * cpu_start() once RCU watches the CPU again: while set, an NMI
	 * runs no handler (handle_nmi()).  Read only by NMIs on this CPU.
	 */
	bool nmi_ignore;
	struct km_cpu_cache km;		/* kernel/mm.c: kmalloc()'s blocks */
	struct cpu_stats stats;
} __cacheline_aligned;

/* Present CPUs' areas (percpu_setup()); NULL for the absent. */
extern struct percpu *percpu_areas[NR_CPUS];
extern unsigned int nr_cpu_ids;		/* CPUs brought up */
extern unsigned int nr_cpus_present;	/* CPUs the firmware lists */
extern struct cpumask cpu_online_mask;
extern struct cpumask cpu_booted_mask;	/* ever online */

void percpu_setup(unsigned int present);
void *percpu_alloc(int cpu, size_t size);
size_t percpu_footprint(int cpu);
/* Mark cpu online: it takes IPIs and runs tasks from now on. */
void set_cpu_online(int cpu);
/* Mark cpu offline: no new IPI, task or timer is sent to it. */
void set_cpu_offline(int cpu);

#include "asm/percpu.h"

/* struct percpu of this CPU; only stable while preemption is off. */
#define this_cpu()		arch_this_cpu()
/* Single-instruction accesses: safe against preemption and migration. */
#define this_cpu_read(f)	arch_this_cpu_read(f)
#define this_cpu_write(f, v)	arch_this_cpu_write(f, v)
#define this_cpu_inc(f)		arch_this_cpu_add(f, 1)
#define this_cpu_dec(f)		arch_this_cpu_add(f, -1)
#define this_cpu_add(f, v)	arch_this_cpu_add(f, v)

#define per_cpu_area(cpu)	(percpu_areas[(cpu)])

/* No check: for code that tolerates a stale answer (statistics, printk). */
#define raw_smp_processor_id()	this_cpu_read(cpu)
/* Panics if the caller could migrate (preemptible with IRQs on). */
int smp_processor_id(void);

static inline bool cpu_online(int cpu)
{
	return cpumask_test_cpu(cpu, &cpu_online_mask);
}

#define for_each_online_cpu(c) \
	for ((c) = 0; (c) < NR_CPUS; (c)++) if (!cpu_online(c)) {} else

/* Every CPU that has (or will have) its per-CPU memory. */
#define for_each_present_cpu(c) \
	for ((c) = 0; (c) < (int)nr_cpus_present; (c)++)

/* cpu has been online before: its bring-up is a return, not a first. */
static inline bool cpu_booted(int cpu)
{
	return cpumask_test_cpu(cpu, &cpu_booted_mask);
}

static inline unsigned int num_online_cpus(void)
{
	return cpumask_weight(&cpu_online_mask);
}

#endif
