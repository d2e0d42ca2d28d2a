// SPDX-License-Identifier: GPL-2.0
/* Wait queues and completions. */
#include "kernel/bug.h"
#include "kernel/preempt.h"
#include "kernel/sched.h"
#include "kernel/time.h"
#include "kernel/timer.h"
#include "kernel/wait.h"

struct waiter {
	struct list_head node;
	struct task *task;
};

void init_waitqueue_head(struct wait_queue_head *wq)
{
	spin_lock_init(&wq->lock, "waitqueue");
	INIT_LIST_HEAD(&wq->head);
}

/*
 * Sleep until cond(arg) holds, or deadline (0 = none) passes.  The state
 * is set to SLEEPING before cond is tested, so a waker that makes cond
 * true after our test also finds us SLEEPING and wakes us.
 */
static bool wait_event_deadline(struct wait_queue_head *wq,
				bool (*cond)(void *), void *arg, u64 deadline)
{
	struct waiter w = { .task = current };
	unsigned long flags;
	bool ok;

	BUG_ON(in_interrupt());
	spin_lock_irqsave(&wq->lock, flags);
	list_add_tail(&w.node, &wq->head);
	spin_unlock_irqrestore(&wq->lock, flags);
	for (;;) {
		set_current_state(TASK_SLEEPING);
		ok = cond(arg);
		if (ok || (deadline && ktime_get_ns() >= deadline))
			break;
		if (deadline)
			schedule_deadline(deadline);
		else
			schedule();
	}
	current->state = TASK_RUNNING;
	spin_lock_irqsave(&wq->lock, flags);
	list_del_init(&w.node);
	spin_unlock_irqrestore(&wq->lock, flags);
	return ok;
}

void wait_event_fn(struct wait_queue_head *wq, bool (*cond)(void *), void *arg)
{
	wait_event_deadline(wq, cond, arg, 0);
}

/* Wake every waiter on wq.  Caller holds wq->lock. */
static void __wake_up_all_locked(struct wait_queue_head *wq)
{
	struct waiter *w;

	list_for_each_entry(w, &wq->head, node)
		wake_up_process(w->task);
}

void wake_up_all(struct wait_queue_head *wq)
{
	unsigned long flags;

	spin_lock_irqsave(&wq->lock, flags);
	__wake_up_all_locked(wq);
	spin_unlock_irqrestore(&wq->lock, flags);
}

void init_completion(struct completion *c)
{
	c->done = 0;
	init_waitqueue_head(&c->wait);
}

/*
 * Test hook (tests/kernel/kernel/test_sched.c), called between the increment of
 * done and the wake-up.  The test uses it to force the worst ordering: a
 * waiter that can return with done seen does so before the wake-up runs.
 * NULL unless a test sets it; one load and a not-taken branch otherwise.
 */
void (*complete_hook)(struct completion *c);

/*
 * As Linux: done and the wake-up under the wait-queue lock.  A waiter
 * tests and consumes done under the same lock, so it cannot return (and
 * free the completion, often its stack frame) until we have released the
 * lock, and the lock release is our last access to *c.
 */
void complete(struct completion *c)
{
	unsigned long flags;

	spin_lock_irqsave(&c->wait.lock, flags);
	c->done++;
	if (unlikely(READ_ONCE(complete_hook)))
		READ_ONCE(complete_hook)(c);
	__wake_up_all_locked(&c->wait);
	spin_unlock_irqrestore(&c->wait.lock, flags);
}

/*
 * Wait until done is non-zero or deadline (0 = none) passes, and consume
 * one completion.  The test and the decrement are one step under the
 * lock: two waiters cannot both consume a single complete().
 */
static bool do_wait_for_completion(struct completion *c, u64 deadline)
{
	struct waiter w = { .task = current };
	unsigned long flags;
	bool ok;

	BUG_ON(in_interrupt());
	spin_lock_irqsave(&c->wait.lock, flags);
	if (!c->done) {
		list_add_tail(&w.node, &c->wait.head);
		if (!deadline)
			WRITE_ONCE(current->wait_since_ns, ktime_get_ns());
		do {
			/*
			 * SLEEPING before the lock is dropped: complete()
			 * needs the lock to wake us, so it cannot slip in
			 * between our test of done and our sleep.
			 */
			set_current_state(TASK_SLEEPING);
			spin_unlock_irqrestore(&c->wait.lock, flags);
			if (deadline)
				schedule_deadline(deadline);
			else
				schedule();
			spin_lock_irqsave(&c->wait.lock, flags);
		} while (!c->done &&
			 !(deadline && ktime_get_ns() >= deadline));
		current->state = TASK_RUNNING;
		WRITE_ONCE(current->wait_since_ns, 0);
		list_del_init(&w.node);
	}
	ok = c->done != 0;
	if (ok)
		c->done--;
	spin_unlock_irqrestore(&c->wait.lock, flags);
	return ok;
}

void wait_for_completion(struct completion *c)
{
	do_wait_for_completion(c, 0);
}

bool wait_for_completion_timeout(struct completion *c, u64 timeout_ns)
{
	return do_wait_for_completion(c, ktime_get_ns() + timeout_ns);
}

struct sleep_timer {
	struct timer timer;
	struct task *task;
};

static void sleep_timer_fn(struct timer *t)
{
	wake_up_process(container_of(t, struct sleep_timer, timer)->task);
}

/*
 * Sleep until woken or until deadline.  The caller has set the task
 * state to SLEEPING (after which a wake-up cannot be lost).
 */
void schedule_deadline(u64 deadline)
{
	struct sleep_timer st = { .task = current };

	timer_init(&st.timer, sleep_timer_fn);
	preempt_disable();	/* arm on the CPU we will sleep on */
	add_timer(&st.timer, deadline);
	preempt_enable_no_resched();
	schedule();
	/*
	 * Woken early, or by the timer: either way st is on our stack, so
	 * wait until no CPU has it pending or is running sleep_timer_fn()
	 * on it (a roaming task may have moved off the arming CPU).
	 */
	del_timer_sync(&st.timer);
}

void msleep(unsigned int ms)
{
	u64 deadline = ktime_get_ns() + ms * NSEC_PER_MSEC;

	while (ktime_get_ns() < deadline) {
		set_current_state(TASK_SLEEPING);
		schedule_deadline(deadline);
	}
}

void busy_wait_ns(u64 ns)
{
	u64 end = ktime_get_ns() + ns;

	while (ktime_get_ns() < end)
		__asm__ __volatile__("pause" ::: "memory");
}
