/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Preconditions checked in code, named after Linux's lockdep_assert_*()
 * family so that a reader of Linux recognises them.  There is no lock
 * validator behind them: each tests the one fact it names, now, on this
 * CPU.  A failure is a WARN_ONCE naming the function that was called in
 * the wrong state (__func__ where the macro is used), e.g.
 *   WARNING: at rcu/tree/tree.c:206: rcu_report_qs_rnp() called without
 *   rcu_node held (holder cpu -1)
 * on one line, which ends a test run (panic_on_warn, kernel/panic.c).
 *
 * Cost when the check passes: lockdep_assert_irqs_disabled() is a flags
 * read (pushf) and a branch; lockdep_assert_not_in_nmi() a per-CPU load
 * of preempt_count and a branch; lockdep_assert_held() a call to
 * spin_held(), a compare of the lock's owner CPU with this CPU's.
 */
#ifndef KERNEL_LOCKDEP_H
#define KERNEL_LOCKDEP_H

#include "kernel/bug.h"
#include "kernel/irqflags.h"
#include "kernel/preempt.h"
#include "kernel/spinlock.h"

/* The caller needs local interrupts off (its per-CPU state is stable). */
#define lockdep_assert_irqs_disabled()					\
	do {								\
		WARN_ONCE(!irqs_disabled(),				\
			  "%s() called with IRQs enabled", __func__);	\
	} while (0)

/*
 * This CPU holds lock: the spinlock records its holder's CPU (owner_cpu,
 * kernel/spinlock.c), so "held by someone" is not enough.
 */
#define lockdep_assert_held(lock)					\
	do {								\
		WARN_ONCE(!spin_held(lock),				\
			  "%s() called without %s held (holder cpu %d)", \
			  __func__, (lock)->name,			\
			  READ_ONCE((lock)->owner_cpu));		\
	} while (0)

/*
 * Not in an NMI handler: the caller takes a spinlock, and an NMI that
 * lands while its CPU holds that lock would spin on it for ever (NMIs
 * are not masked by local_irq_save()).  Linux's lockdep finds this as
 * an inconsistent lock state; here it is checked where the lock is taken.
 */
#define lockdep_assert_not_in_nmi()					\
	do {								\
		WARN_ONCE(in_nmi(), "%s() called in NMI", __func__);	\
	} while (0)

#endif
