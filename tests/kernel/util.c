// SPDX-License-Identifier: GPL-2.0
#include "tests/kernel/util.h"
#include "kernel/bug.h"
#include "kernel/mm.h"
#include "kernel/time.h"
#include "kernel/wait.h"

struct each_cpu {
	void (*fn)(int cpu, void *arg);
	void (*fn1)(void *arg);
	void *arg;
	int cpu;
	struct completion *done;
};

static int each_cpu_thread(void *p)
{
	struct each_cpu *e = p;

	if (e->fn)
		e->fn(e->cpu, e->arg);
	else
		e->fn1(e->arg);
	complete(e->done);
	return 0;
}

void run_on_each_cpu(void (*fn)(int cpu, void *arg), void *arg)
{
	struct each_cpu e[NR_CPUS];
	struct completion done;
	int cpu, n = 0;

	init_completion(&done);
	for_each_online_cpu(cpu) {
		e[cpu] = (struct each_cpu){ fn, NULL, arg, cpu, &done };
		kthread_run(each_cpu_thread, &e[cpu], cpu, "test-each");
		n++;
	}
	while (n--)
		wait_for_completion(&done);
}

void run_on_cpu(int cpu, void (*fn)(void *arg), void *arg)
{
	struct completion done;
	struct each_cpu e = { NULL, fn, arg, cpu, &done };

	init_completion(&done);
	kthread_run(each_cpu_thread, &e, cpu, "test-on-cpu");
	wait_for_completion(&done);
}

bool wait_flag(volatile int *flag, unsigned int timeout_ms)
{
	u64 end = ktime_get_ns() + timeout_ms * NSEC_PER_MSEC;

	while (!READ_ONCE(*flag))
		if (ktime_get_ns() > end)
			return false;
	return true;
}

u64 test_rand(u64 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}
