/* SPDX-License-Identifier: GPL-2.0 */
/* Wait queues and completions. */
#ifndef KERNEL_WAIT_H
#define KERNEL_WAIT_H

#include "kernel/list.h"
#include "kernel/spinlock.h"

struct wait_queue_head {
	struct spinlock lock;
	struct list_head head;
};

void init_waitqueue_head(struct wait_queue_head *wq);
/* Sleep until cond() is true; cond is re-evaluated after each wake-up. */
void wait_event_fn(struct wait_queue_head *wq, bool (*cond)(void *), void *arg);
void wake_up_all(struct wait_queue_head *wq);

struct completion {
	unsigned int done;
	struct wait_queue_head wait;
};

void init_completion(struct completion *c);
/* Usable from any context but NMI. */
void complete(struct completion *c);
void wait_for_completion(struct completion *c);
/* Returns false on timeout. */
bool wait_for_completion_timeout(struct completion *c, u64 timeout_ns);

/* Test hook: complete() calls it between its two halves (NULL: off). */
extern void (*complete_hook)(struct completion *c);

#endif
