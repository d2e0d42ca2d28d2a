// SPDX-License-Identifier: GPL-2.0
/*
 * Ticket spinlocks.  Taking a lock disables preemption (the holder must
 * not be switched out while others spin).  Unlocking checks the owner,
 * and relocking on the owning CPU panics: both are always bugs.
 */
#include "asm/arch.h"
#include "kernel/barrier.h"
#include "kernel/bug.h"
#include "kernel/preempt.h"
#include "kernel/spinlock.h"

void spin_lock_init(struct spinlock *lock, const char *name)
{
	lock->owner = 0;
	lock->next = 0;
	lock->owner_cpu = -1;
	lock->name = name;
}

void spin_lock(struct spinlock *lock)
{
	preempt_disable();
	int cpu = raw_smp_processor_id();

	if (unlikely(READ_ONCE(lock->owner_cpu) == cpu))
		panic("spinlock %s: recursive lock on cpu%d", lock->name, cpu);
	/* Locked xadd: a full barrier, so the critical section stays after. */
	u16 ticket = __atomic_fetch_add(&lock->next, 1, __ATOMIC_ACQUIRE);

	while (__atomic_load_n(&lock->owner, __ATOMIC_ACQUIRE) != ticket)
		arch_cpu_relax();
	lock->owner_cpu = cpu;
}

bool spin_trylock(struct spinlock *lock)
{
	preempt_disable();
	u16 owner = __atomic_load_n(&lock->owner, __ATOMIC_RELAXED);
	u32 old = ((u32)owner << 16) | owner;	/* free: next == owner */
	u32 new = ((u32)(u16)(owner + 1) << 16) | owner;

	/* owner and next are adjacent u16s: compare-and-swap them as one. */
	_Static_assert(__builtin_offsetof(struct spinlock, next) == 2, "layout");
	if (__atomic_compare_exchange_n((u32 *)lock, &old, new, false,
					__ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
		lock->owner_cpu = raw_smp_processor_id();
		return true;
	}
	preempt_enable();
	return false;
}

void __spin_release(struct spinlock *lock)
{
	if (unlikely(lock->owner_cpu != raw_smp_processor_id()))
		panic("spinlock %s: unlock by cpu%d, owner cpu%d", lock->name,
		      raw_smp_processor_id(), lock->owner_cpu);
	lock->owner_cpu = -1;
	/* Release: the critical section's accesses complete before handoff. */
	__atomic_store_n(&lock->owner, (u16)(lock->owner + 1),
			 __ATOMIC_RELEASE);
}

void preempt_enable_after_unlock(void)
{
	preempt_enable();
}

void spin_unlock(struct spinlock *lock)
{
	__spin_release(lock);
	preempt_enable();
}

bool spin_is_locked(struct spinlock *lock)
{
	return READ_ONCE(lock->owner) != READ_ONCE(lock->next);
}

bool spin_held(struct spinlock *lock)
{
	return READ_ONCE(lock->owner_cpu) == raw_smp_processor_id();
}
