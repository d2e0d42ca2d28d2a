// SPDX-License-Identifier: GPL-2.0
/*
 * The event trace (see kernel/trace.h): one ring per CPU, written only by
 * that CPU, from any context: task, softirq, hardirq and NMI.
 *
 * Recording reserves a slot by bumping the ring's head with one xadd
 * instruction.  Interrupts are off around it, so the writer cannot
 * migrate and no IRQ interleaves; an NMI still can, but an instruction is
 * atomic with respect to interrupts on its own CPU, so an NMI landing
 * anywhere in the sequence reserves the next slot and fills it, and the
 * interrupted writer finishes its own.  No lock prefix is needed (no
 * other CPU writes this ring) and no lock is taken, so NMIs may trace.
 * The ring overwrites its oldest entries; the dump reports how many.
 *
 * The timestamp is read after the slot is reserved, so an NMI between the
 * two leaves a later slot with an earlier time; trace2json.py sorts each
 * CPU's events by time.
 */
#include "asm/arch.h"
#include "kernel/barrier.h"
#include "kernel/irqflags.h"
#include "kernel/ktap.h"
#include "kernel/param.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/sched.h"
#include "kernel/time.h"
#include "kernel/trace.h"

/* Per CPU, a power of two: 8192 * 16 bytes = 128 KiB. */
#define TRACE_ENTRIES	8192

unsigned int trace_enabled;
kparam_bool("trace", trace_enabled,
	    "record the event trace and dump it at the end of the run");
static unsigned int trace_readers = 8;
kparam_uint("trace_readers", trace_readers, 0, 1 << 20,
	    "trace RCU readers in 1 of N windows of 2^20 TSC cycles (0: none)");

struct trace_entry {
	u64 tsc;
	u16 type;		/* enum trace_type; TRACE_NONE: never written */
	u16 a;
	u32 b;
};

struct trace_ring {
	u64 head;		/* slots reserved since boot */
	u64 counts[TRACE_NR_TYPES];
	struct trace_entry ent[TRACE_ENTRIES];
} __cacheline_aligned;

/*
 * Allocated for each present CPU when tracing is first on (at boot for
 * trace=1, else by trace_start()): a boot that never traces spends none
 * of the 128 KiB per CPU.  NULL: nothing recorded on that CPU.
 */
static struct trace_ring *trace_rings[NR_CPUS];

static const char *const trace_type_names[TRACE_NR_TYPES] = {
	[TRACE_NONE] = "none",
	[TRACE_IDLE_ENTER] = "idle_enter", [TRACE_IDLE_EXIT] = "idle_exit",
	[TRACE_IRQ_ENTER] = "irq_enter", [TRACE_IRQ_EXIT] = "irq_exit",
	[TRACE_NMI_ENTER] = "nmi_enter", [TRACE_NMI_EXIT] = "nmi_exit",
	[TRACE_DYNTICKS] = "dynticks", [TRACE_GP_STATE] = "gp_state",
	[TRACE_FLIP_ACK] = "flip_ack", [TRACE_MB_ACK] = "mb_ack",
	[TRACE_READER_BEGIN] = "reader_begin",
	[TRACE_READER_END] = "reader_end",
	[TRACE_CALLBACK] = "callback", [TRACE_MARK] = "mark",
	[TRACE_TREE_GP] = "tree_gp", [TRACE_TREE_FQS] = "tree_fqs",
};

/*
 * Readers are far too frequent to record them all.  Sampling by time
 * window, not by count, keeps a reader's begin and end together: both
 * ends of a short reader fall in the same window, so the converter can
 * pair them by pid.
 */
static bool reader_sampled(u64 tsc)
{
	unsigned int n = READ_ONCE(trace_readers);

	return n && (tsc >> 20) % n == 0;
}

void __trace_event(unsigned int type, u32 a, u32 b)
{
	struct trace_ring *r;
	struct trace_entry *e;
	unsigned long flags;
	u64 idx = 1;
	u64 tsc;

	/* Decide before reserving: an unsampled reader must not use a slot. */
	if ((type == TRACE_READER_BEGIN || type == TRACE_READER_END) &&
	    !reader_sampled(arch_cycles()))
		return;
	local_irq_save(flags);
	r = READ_ONCE(trace_rings[raw_smp_processor_id()]);
	if (!r) {
		local_irq_restore(flags);
		return;
	}
	/* One instruction: atomic against an NMI on this CPU (see top). */
	__asm__ __volatile__("xaddq %0, %1"
			     : "+r"(idx), "+m"(r->head) :: "memory", "cc");
	tsc = arch_cycles();
	e = &r->ent[idx & (TRACE_ENTRIES - 1)];
	e->tsc = tsc;
	e->a = (u16)a;
	e->b = b;
	/*
	 * The type goes last, through WRITE_ONCE(): the dump (on another
	 * CPU, after tracing stopped) treats a slot as valid by its type.
	 * Plain stores suffice on x86 (TSO keeps store order) and the dump
	 * waits for writers to drain anyway.
	 */
	WRITE_ONCE(e->type, (u16)type);
	r->counts[type]++;	/* may lose a count to a racing NMI: stats */
	local_irq_restore(flags);
}

u64 trace_count(unsigned int type)
{
	u64 n = 0;
	int cpu;

	for_each_present_cpu(cpu)
		if (trace_rings[cpu])
			n += READ_ONCE(trace_rings[cpu]->counts[type]);
	return n;
}

static void dump_cpu(int cpu)
{
	struct trace_ring *r = trace_rings[cpu];
	u64 head = r ? READ_ONCE(r->head) : 0;
	u64 first = head > TRACE_ENTRIES ? head - TRACE_ENTRIES : 0;
	u64 prev = 0;
	u64 i;

	cprintf("~cpu %d recorded %lu kept %lu\n", cpu, head, head - first);
	for (i = first; i < head; i++) {
		struct trace_entry *e = &r->ent[i & (TRACE_ENTRIES - 1)];

		if (e->type == TRACE_NONE || e->type >= TRACE_NR_TYPES)
			continue;
		/* Deltas keep lines short; NMI races make some negative. */
		cprintf("~%d %ld %u %x %x\n", cpu, (long)(e->tsc - prev),
			e->type, e->a, e->b);
		prev = e->tsc;
	}
}

/* Before cpu starts: its ring, if tracing is on from boot. */
void trace_prepare_cpu(int cpu)
{
	if (trace_enabled)
		trace_rings[cpu] = percpu_alloc(cpu, sizeof(struct trace_ring));
}

/*
 * Turn tracing on at run time.  Rings missing (trace was off at boot)
 * are allocated first, each published before the flag that lets a CPU
 * use it: the release orders the allocation's zeroing before it.
 */
void trace_start(void)
{
	int cpu;

	for_each_present_cpu(cpu)
		if (!trace_rings[cpu])
			smp_store_release(&trace_rings[cpu],
					  percpu_alloc(cpu,
						       sizeof(struct trace_ring)));
	WRITE_ONCE(trace_enabled, 1);
}

void trace_dump(void)
{
	int cpu;

	if (!trace_enabled)
		return;
	WRITE_ONCE(trace_enabled, 0);
	/* Hooks in flight run with IRQs off for well under 1 ms: drain. */
	busy_wait_ns(NSEC_PER_MSEC);
	cprintf("~trace v1 cpus %u tsc_per_us %lu entries %u\n",
		num_online_cpus(), arch_cycles_per_us(), TRACE_ENTRIES);
	for_each_online_cpu(cpu)
		dump_cpu(cpu);
	cprintf("~end\n");
	for (unsigned int t = 1; t < TRACE_NR_TYPES; t++)
		ktap_diag("trace: %s %lu", trace_type_names[t], trace_count(t));
}
