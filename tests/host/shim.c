// SPDX-License-Identifier: GPL-2.0
/*
 * Hosted implementations of the kernel services rcu/ uses, for the unit
 * tests.  Single-threaded: "CPUs" are simulated by switching shim_cpu.
 * Deliberately does not include kernel/printk.h (it declares snprintf
 * and friends, which come from libc here).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/hotplug.h"
#include "kernel/percpu.h"
#include "kernel/preempt.h"
#include "kernel/sched.h"
#include "kernel/spinlock.h"
#include "kernel/softirq.h"
#include "rcu/rcu.h"
#include "kernel/wait.h"
#include "kernel/time.h"
#include "kernel/trace.h"
#include "kernel/bug.h"
#include "kernel/ktap.h"
#include "kernel/mm.h"
#include "kernel/printk.h"
#include "tests/host/shim.h"

struct percpu shim_percpu[NR_CPUS];
struct percpu *percpu_areas[NR_CPUS];
unsigned int nr_cpu_ids;
unsigned int nr_cpus_present;
struct cpumask cpu_online_mask;
int shim_cpu;

/* kernel/trace.c: off on the host, so its hooks in rcu/ never record. */
unsigned int trace_enabled;
void __trace_event(unsigned int type, u32 a, u32 b)
{
}

/* kernel/mm.c: the host's allocator (zeroed, as kmalloc() is). */
void *kmalloc(size_t size)
{
	return calloc(1, size);
}

void kfree(void *p)
{
	free(p);
}

/* ---- simulated NMIs ---- */

static int shim_nmi_countdown;
static void (*shim_nmi_fn)(void);
const char *shim_nmi_fired_at;
int shim_in_nmi;
long shim_hook_count;

void shim_nmi_arm(int countdown, void (*fn)(void))
{
	shim_nmi_countdown = countdown;
	shim_nmi_fn = fn;
	shim_nmi_fired_at = NULL;
}

void shim_nmi_disarm(void)
{
	shim_nmi_countdown = 0;
	shim_nmi_fn = NULL;
}

void shim_hook(const char *where)
{
	if (shim_in_nmi)
		return;		/* NMIs do not nest */
	shim_hook_count++;
	if (shim_nmi_countdown > 0 && --shim_nmi_countdown == 0 &&
	    shim_nmi_fn) {
		void (*fn)(void) = shim_nmi_fn;

		shim_nmi_fn = NULL;
		shim_nmi_fired_at = where;
		shim_in_nmi = 1;
		fn();
		shim_in_nmi = 0;
	}
}

long shim_mb_count;
void (*shim_mb_probe)(void);

void shim_mb(void)
{
	shim_hook("smp_mb");
	__asm__ __volatile__("" ::: "memory");
	shim_mb_count++;
	if (shim_mb_probe && !shim_in_nmi)
		shim_mb_probe();
}

int smp_processor_id(void)
{
	shim_hook("smp_processor_id");
	return shim_cpu;
}

/* ---- interrupt flags ---- */

static int shim_if_off[NR_CPUS];

unsigned long shim_local_irq_save(void)
{
	unsigned long old = shim_if_off[shim_cpu];

	shim_hook("local_irq_save");
	shim_if_off[shim_cpu] = 1;
	return old;
}

void shim_local_irq_restore(unsigned long flags)
{
	shim_if_off[shim_cpu] = (int)flags;
}

void shim_local_irq_disable(void)
{
	shim_if_off[shim_cpu] = 1;
}

void shim_local_irq_enable(void)
{
	shim_if_off[shim_cpu] = 0;
}

int shim_irqs_disabled(void)
{
	return shim_if_off[shim_cpu];
}

void shim_reset(unsigned int ncpus)
{
	unsigned int i;

	for (i = 0; i < NR_CPUS; i++) {
		shim_if_off[i] = 0;
		percpu_areas[i] = &shim_percpu[i];
		shim_percpu[i].self = &shim_percpu[i];
		shim_percpu[i].cpu = (int)i;
		shim_percpu[i].preempt_count = 0;
	}
	nr_cpu_ids = ncpus;
	nr_cpus_present = ncpus;
	cpumask_set_first(&cpu_online_mask, (int)ncpus);
	shim_cpu = 0;
	shim_nmi_disarm();
	shim_in_nmi = 0;
}

void preempt_schedule(void)
{
}

/* ---- console, WARN, panic ---- */

static char shim_console_buf[1 << 16];
static size_t shim_console_len;
int shim_console_echo;

void shim_console_clear(void)
{
	shim_console_len = 0;
	shim_console_buf[0] = '\0';
}

const char *shim_console(void)
{
	return shim_console_buf;
}

static void shim_vconsole(const char *prefix, const char *fmt, va_list ap)
{
	char line[1024];
	int n;

	n = snprintf(line, sizeof(line), "%s", prefix);
	vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	n = (int)strlen(line);
	if (n == 0 || line[n - 1] != '\n')
		strncat(line, "\n", sizeof(line) - strlen(line) - 1);
	if (shim_console_echo)
		fputs(line, stdout);
	if (shim_console_len + strlen(line) + 1 < sizeof(shim_console_buf)) {
		memcpy(shim_console_buf + shim_console_len, line,
		       strlen(line) + 1);
		shim_console_len += strlen(line);
	}
}

void printk(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	shim_vconsole("", fmt, ap);
	va_end(ap);
}

void cprintf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	shim_vconsole("", fmt, ap);
	va_end(ap);
}

void ktap_diag(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	shim_vconsole("# ", fmt, ap);
	va_end(ap);
}

int shim_warn_count;
int shim_failed_count;
char shim_last_warn[512];
volatile int kernel_failed;

void kernel_mark_failed(void)
{
	shim_failed_count++;
	kernel_failed = 1;
}

/* rcu/update.c's option (the host build has no dispatch); tests set it. */
unsigned int rcu_cpu_stall_timeout = 5;

/* The host tests count reports; they never end the process on one. */
void kernel_report_done(const char *why, bool stall)
{
	(void)why;
	(void)stall;
	kernel_mark_failed();
}

void warn_slowpath(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(shim_last_warn, sizeof(shim_last_warn), "WARNING: %s:%d: ",
		     file, line);
	va_start(ap, fmt);
	vsnprintf(shim_last_warn + n, sizeof(shim_last_warn) - (size_t)n, fmt, ap);
	va_end(ap);
	printk("%s", shim_last_warn);
	shim_warn_count++;
	kernel_mark_failed();
}

void panic(const char *fmt, ...)
{
	va_list ap;

	fputs("PANIC: ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputs("\n", stdout);
	fflush(stdout);
	exit(2);
}

/* ---- spinlocks: single-threaded, so holding one twice is a deadlock ---- */

void spin_lock_init(struct spinlock *lock, const char *name)
{
	lock->owner = 0;
	lock->next = 0;
	lock->owner_cpu = -1;
	lock->name = name;
}

void spin_lock(struct spinlock *lock)
{
	if (lock->owner_cpu != -1)
		panic("deadlock: spin_lock(%s) held by cpu %d, wanted by cpu %d",
		      lock->name, lock->owner_cpu, shim_cpu);
	lock->owner_cpu = shim_cpu;
	preempt_count_add(PREEMPT_OFFSET);
}

void __spin_release(struct spinlock *lock)
{
	if (lock->owner_cpu != shim_cpu)
		panic("unlock of %s by cpu %d, owner %d", lock->name,
		      shim_cpu, lock->owner_cpu);
	lock->owner_cpu = -1;
}

void spin_unlock(struct spinlock *lock)
{
	__spin_release(lock);
	preempt_count_sub(PREEMPT_OFFSET);
}

void preempt_enable_after_unlock(void)
{
	preempt_count_sub(PREEMPT_OFFSET);
}

bool spin_trylock(struct spinlock *lock)
{
	if (lock->owner_cpu != -1)
		return false;
	spin_lock(lock);
	return true;
}

bool spin_is_locked(struct spinlock *lock)
{
	return lock->owner_cpu != -1;
}

bool spin_held(struct spinlock *lock)
{
	return lock->owner_cpu == shim_cpu;
}

/* ---- softirqs ---- */

static void (*shim_softirq_action[NR_SOFTIRQS])(void);
static unsigned int shim_softirq_bits[NR_CPUS];

/* CPU hotplug: the host simulations take no CPU down concurrently. */
void cpus_read_lock(void)
{
}

void cpus_read_unlock(void)
{
}

void open_softirq(int nr, void (*action)(void))
{
	shim_softirq_action[nr] = action;
}

void raise_softirq(int nr)
{
	if (shim_in_nmi)
		panic("raise_softirq from NMI");
	shim_softirq_bits[shim_cpu] |= 1U << nr;
}

int shim_softirq_pending(int cpu)
{
	return shim_softirq_bits[cpu] != 0;
}

void shim_run_softirqs(int cpu)
{
	int saved = shim_cpu;
	int nr;

	shim_cpu = cpu;
	while (shim_softirq_bits[cpu]) {
		for (nr = 0; nr < NR_SOFTIRQS; nr++) {
			if (!(shim_softirq_bits[cpu] & (1U << nr)))
				continue;
			shim_softirq_bits[cpu] &= ~(1U << nr);
			preempt_count_add(SOFTIRQ_OFFSET);
			if (shim_softirq_action[nr])
				shim_softirq_action[nr]();
			preempt_count_sub(SOFTIRQ_OFFSET);
		}
	}
	shim_cpu = saved;
}

/* ---- time ---- */

u64 shim_now_ns;
unsigned int tick_hz = 1000;

u64 ktime_get_ns(void)
{
	return shim_now_ns;
}

u64 get_cycles(void)
{
	return shim_now_ns;
}

/* ---- tasks ---- */

static struct task *shim_tasks[64];
static int shim_nr_tasks;

void shim_register_task(struct task *t)
{
	if (shim_nr_tasks < 64)
		shim_tasks[shim_nr_tasks++] = t;
}

void shim_reset_tasks(void)
{
	shim_nr_tasks = 0;
}

void sched_for_each_task(void (*fn)(struct task *t, void *arg), void *arg)
{
	int i;

	for (i = 0; i < shim_nr_tasks; i++)
		fn(shim_tasks[i], arg);
}

/* ---- completions: the wait drives the simulation ---- */

void (*shim_wait_driver)(void);
int shim_wait_timeouts;

void init_waitqueue_head(struct wait_queue_head *wq)
{
	spin_lock_init(&wq->lock, "wq");
	INIT_LIST_HEAD(&wq->head);
}

void init_completion(struct completion *c)
{
	c->done = 0;
	init_waitqueue_head(&c->wait);
}

void complete(struct completion *c)
{
	c->done++;
}

void wait_for_completion(struct completion *c)
{
	int saved = shim_cpu;
	long i;

	for (i = 0; i < 1000000 && !c->done; i++) {
		if (!shim_wait_driver)
			break;
		shim_wait_driver();
	}
	shim_cpu = saved;
	if (!c->done) {
		shim_wait_timeouts++;
		return;
	}
	c->done--;
}

bool wait_for_completion_timeout(struct completion *c, u64 timeout_ns)
{
	(void)timeout_ns;
	wait_for_completion(c);
	return true;
}

void shim_set_current(int cpu, struct task *t)
{
	shim_percpu[cpu].curr_task = t;
}
