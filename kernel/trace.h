/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The event trace: a per-CPU ring of TSC-timestamped events, dumped over
 * the console at the end of a run and turned into a Perfetto timeline by
 * tools/trace2json.py.  Turned on with trace=on on the command line.
 *
 * Each hook is one line at its site.  While tracing is off a hook costs
 * one load and one not-taken branch (unlikely(), so the compiler puts
 * the call out of line); the arguments are not even evaluated.  The
 * recording path is lock-free and NMI-safe (kernel/trace.c).
 */
#ifndef KERNEL_TRACE_H
#define KERNEL_TRACE_H

#include "kernel/compiler.h"

/* Event types.  The dump prints the number; keep trace2json.py in step. */
enum trace_type {
	TRACE_NONE,		/* a slot never written */
	TRACE_IDLE_ENTER,	/* dynticks idle: after rcu_enter_nohz() */
	TRACE_IDLE_EXIT,	/* before rcu_exit_nohz() */
	TRACE_IRQ_ENTER,	/* a: vector, b: hardirq depth */
	TRACE_IRQ_EXIT,		/* a: vector, b: hardirq depth */
	TRACE_NMI_ENTER,
	TRACE_NMI_EXIT,
	TRACE_DYNTICKS,		/* b: new dynticks_progress_counter */
	TRACE_GP_STATE,		/* a: from << 8 | to, b: completed */
	TRACE_FLIP_ACK,		/* b: completed acknowledged */
	TRACE_MB_ACK,		/* b: completed */
	TRACE_READER_BEGIN,	/* sampled; a: index, b: pid */
	TRACE_READER_END,	/* sampled; a: index, b: pid */
	TRACE_CALLBACK,		/* b: the callback function's address */
	TRACE_MARK,		/* for benchmarks and tests */
	TRACE_TREE_GP,		/* rcu=tree; a: RCU_GP_* state, b: gp_seq */
	TRACE_TREE_FQS,		/* rcu=tree; a: first scan, b: CPUs excused */
	TRACE_NR_TYPES,
};

/*
 * Read on every hook.  Written only at boot (the trace= option), by
 * trace_start(), trace_dump() and the benchmarks; no ordering is needed against hooks
 * in flight: a hook that saw it set records one more event, harmlessly.
 */
extern unsigned int trace_enabled;

void __trace_event(unsigned int type, u32 a, u32 b);
void trace_prepare_cpu(int cpu);
void trace_start(void);

#define trace_event(type, a, b) do {					\
	if (unlikely(READ_ONCE(trace_enabled)))				\
		__trace_event((type), (a), (b));			\
} while (0)

/* From the IRQ core: the kind's vector, and the hardirq nesting depth. */
#define trace_irq(type, kind)						\
	trace_event((type), arch_irq_vector(kind),			\
		    hardirq_count() >> HARDIRQ_SHIFT)

/* From the flip machine: a transition, and the completed it leaves. */
#define trace_gp_state(from, to, completed)				\
	trace_event(TRACE_GP_STATE, (from) << 8 | (to), (completed))

/* Dump every CPU's ring as "~" lines, then the per-type counts. */
void trace_dump(void);
/* Events recorded since boot, per type (for tests and benchmarks). */
u64 trace_count(unsigned int type);

#endif
