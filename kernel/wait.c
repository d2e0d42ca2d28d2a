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

void wake_up_all(struct wait_queue_head *wq)
{
	unsigned long flags;
	struct waiter *w;

	spin_lock_irqsave(&wq->lock, flags);
	list_for_each_entry(w, &wq->head, node)
		wake_up_process(w->task);
	spin_unlock_irqrestore(&wq->lock, flags);
}

void init_completion(struct completion *c)
{
	c->done = 0;
	init_waitqueue_head(&c->wait);
}

void complete(struct completion *c)
{
	__atomic_add_fetch(&c->done, 1, __ATOMIC_SEQ_CST);
	wake_up_all(&c->wait);
}

static bool completion_done(void *arg)
{
	struct completion *c = arg;

	return __atomic_load_n(&c->done, __ATOMIC_ACQUIRE) != 0;
}

static void completion_consume(struct completion *c)
{
	__atomic_sub_fetch(&c->done, 1, __ATOMIC_SEQ_CST);
}

void wait_for_completion(struct completion *c)
{
	wait_event_fn(&c->wait, completion_done, c);
	completion_consume(c);
}

bool wait_for_completion_timeout(struct completion *c, u64 timeout_ns)
{
	if (!wait_event_deadline(&c->wait, completion_done, c,
				 ktime_get_ns() + timeout_ns))
		return false;
	completion_consume(c);
	return true;
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
