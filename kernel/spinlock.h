/* SPDX-License-Identifier: GPL-2.0 */
/* Ticket spinlocks with an owner check. */
#ifndef KERNEL_SPINLOCK_H
#define KERNEL_SPINLOCK_H

#include "kernel/types.h"
#include "kernel/irqflags.h"

/*
 * FIFO ticket lock: next is taken with a locked xadd, owner is advanced by
 * the holder.  owner_cpu is for the owner check only (-1 = free).
 */
struct spinlock {
	u16 owner;
	u16 next;
	int owner_cpu;
	const char *name;
};

#define SPINLOCK_INIT(n) \
	{ .owner = 0, .next = 0, .owner_cpu = -1, .name = (n) }

void spin_lock_init(struct spinlock *lock, const char *name);
/* spin_lock() disables preemption; spin_unlock() re-enables it. */
void spin_lock(struct spinlock *lock);
void spin_unlock(struct spinlock *lock);
/* Never waits; true if the lock was taken. */
bool spin_trylock(struct spinlock *lock);
bool spin_is_locked(struct spinlock *lock);
/* True if this CPU holds the lock (for assertions). */
bool spin_held(struct spinlock *lock);

/* Release without re-enabling preemption (see spin_unlock_irqrestore). */
void __spin_release(struct spinlock *lock);
void preempt_enable_after_unlock(void);

#define spin_lock_irqsave(lock, flags) \
	do { local_irq_save(flags); spin_lock(lock); } while (0)
/*
 * Interrupts back on before preemption is re-enabled, as in Linux: a
 * reschedule that came due while we held the lock can then happen here
 * rather than being missed until the next interrupt.
 */
#define spin_unlock_irqrestore(lock, flags)				\
	do {								\
		__spin_release(lock);					\
		local_irq_restore(flags);				\
		preempt_enable_after_unlock();				\
	} while (0)

#endif
