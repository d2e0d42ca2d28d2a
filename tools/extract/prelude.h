/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The model's kernel primitives, for tools/extract (clang -include).
 *
 * It pulls in the kernel's own headers first, so that their include
 * guards keep the source file from redefining anything, then replaces
 * the primitives whose meaning the Promela model gives with calls to
 * __spin_*() functions.  The extractor knows each of those calls by
 * name (tools/extract/translate.py, HOOKS); the source file itself is
 * parsed as written.  Everything else keeps its kernel definition, and
 * the extractor fails on what it does not understand (an asm statement
 * left in an inline helper, say).
 */
#ifndef TOOLS_EXTRACT_PRELUDE_H
#define TOOLS_EXTRACT_PRELUDE_H

#include "kernel/compiler.h"
#include "kernel/barrier.h"
#include "kernel/bug.h"
#include "kernel/irqflags.h"
#include "kernel/jump_label.h"
#include "kernel/lockdep.h"
#include "kernel/percpu.h"
#include "kernel/preempt.h"
#include "kernel/sched.h"
#include "kernel/trace.h"

void __spin_mb(void);
void __spin_rmb(void);
void __spin_wmb(void);
void __spin_barrier(void);
int __spin_cpu(void);
int __spin_nr_cpus(void);
int __spin_in_interrupt(void);
unsigned int __spin_preempt_count(void);
int __spin_warn(int cond);
void __spin_assert_irqs_disabled(void);
void __spin_ignore(void);
unsigned long __spin_irq_save(void);
void __spin_no_preempt(void);
void __spin_irq_restore(unsigned long flags);
struct task *__spin_current(void);
int __spin_static_key(void *key);

/* CPU memory barriers: MB(), RMB(), WMB() of the memory model. */
#undef smp_mb
#undef smp_rmb
#undef smp_wmb
#undef mb
#define smp_mb()		__spin_mb()
#define mb()			__spin_mb()
#define smp_rmb()		__spin_rmb()
#define smp_wmb()		__spin_wmb()
/* A compiler barrier: the model keeps program order anyway. */
#undef barrier
#define barrier()		__spin_barrier()
#undef likely
#undef unlikely
#define likely(x)		(x)
#define unlikely(x)		(x)
/*
 * A static key: its state is fixed at boot, so the model takes it as a
 * constant that the spec gives (its "constants"), or fails.
 */
#undef static_branch_likely
#undef static_branch_unlikely
#define static_branch_likely(x)		__spin_static_key(x)
#define static_branch_unlikely(x)	__spin_static_key(x)

/* The CPU the extracted code runs on: the harness passes it. */
#undef raw_smp_processor_id
#define raw_smp_processor_id()	__spin_cpu()
#define smp_processor_id()	__spin_cpu()
/* Every CPU of the model is online. */
#undef for_each_online_cpu
#define for_each_online_cpu(c) \
	for ((c) = 0; (c) < __spin_nr_cpus(); (c)++)
/*
 * The only masks the extracted code walks are online maps (rcupreempt's
 * rcu_cpu_online_map, 2.6.25's name): the model has no hotplug, so they
 * hold every CPU.
 */
#undef for_each_cpu
#define for_each_cpu(c, mask) \
	for ((c) = 0; (c) < __spin_nr_cpus(); (c)++)

/* The harness's view of this CPU's preempt count, and of its IF flag. */
#undef in_interrupt
#define in_interrupt()		__spin_in_interrupt()
#undef preempt_count
#define preempt_count()		__spin_preempt_count()
#undef lockdep_assert_irqs_disabled
#define lockdep_assert_irqs_disabled()	__spin_assert_irqs_disabled()
#undef lockdep_assert_not_in_nmi
#define lockdep_assert_not_in_nmi()	__spin_ignore()
#undef local_irq_save
#undef local_irq_restore
#define local_irq_save(f)	((f) = __spin_irq_save())
#define local_irq_restore(f)	__spin_irq_restore(f)
#undef current
#define current			__spin_current()
/* Preemption off and on: the harness's NO_PREEMPT() (a context that
 * nothing preempts in the model), or a failure there. */
#undef preempt_disable
#undef preempt_enable
#define preempt_disable()	__spin_no_preempt()
#define preempt_enable()	__spin_no_preempt()

/*
 * A WARN is the model's assertion: its condition must be false.  The
 * message and its arguments only reach the console, and are dropped.
 */
#undef WARN
#undef WARN_ON
#undef WARN_ONCE
#define WARN(cond, ...)		__spin_warn(!!(cond))
#define WARN_ON(cond)		__spin_warn(!!(cond))
#define WARN_ONCE(cond, ...)	__spin_warn(!!(cond))

/* Trace events feed only the trace buffer: dropped, arguments too. */
#undef trace_event
#undef trace_gp_state
#define trace_event(...)	__spin_ignore()
#define trace_gp_state(...)	__spin_ignore()

#endif
