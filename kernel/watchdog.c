// SPDX-License-Identifier: GPL-2.0
/*
 * The watchdog: a once-a-second timer that the boot CPU always keeps
 * armed.  It depends on no CPU's tick, because every CPU may be idle with
 * its tick stopped, and then the tick-driven detectors (the RCU stall
 * warnings, the scheduler) never run.  Each second it asks:
 *
 *  - has the running test overrun test_timeout (kernel/ktap.c)?
 *  - is RCU work stranded on CPUs that all stopped their ticks
 *    (rcu_check_stranded())?
 *  - has a task waited in wait_for_completion() for more than
 *    hung_task_timeout_secs (Linux's hung-task detector)?
 *  - has a CPU that is not idle taken no interrupt for watchdog_thresh
 *    seconds (Linux's hard-lockup detector)?  Its tick would have
 *    interrupted it, so it runs with interrupts off.  Its backtrace is
 *    taken by NMI, which interrupts-off code cannot block.
 *
 * The timer's interrupt wakes CPU 0 once a second without restarting its
 * tick, so the tickless tests see one interrupt a second on CPU 0 and none
 * elsewhere.  What it cannot see: a hard lockup of CPU 0 itself, which
 * stops the watchdog; the harness's timeout and its vCPU dump report that
 * one (tests/xfail/hang.scn, docs/kernel.md).
 */
#include "asm/arch.h"
#include "kernel/bug.h"
#include "kernel/irq.h"
#include "kernel/ktap.h"
#include "kernel/param.h"
#include "kernel/printk.h"
#include "kernel/sched.h"
#include "kernel/time.h"
#include "kernel/timer.h"
#include "rcu/rcupdate.h"

static unsigned int hung_task_timeout_secs = 120;	/* Linux's default */
kparam_uint("hung_task_timeout_secs", hung_task_timeout_secs, 0, 3600,
	    "seconds a task may wait for a completion before it is reported (0: off)");
static unsigned int watchdog_thresh = 10;
kparam_uint("watchdog_thresh", watchdog_thresh, 0, 600,
	    "seconds a busy CPU may take no interrupt before a hard-lockup report (0: off)");


static struct timer watchdog_timer;

/* ---- Hung tasks ---------------------------------------------------- */

struct hung_scan {
	u64 now;
	int found;
};

static void check_hung_task(struct task *t, void *arg)
{
	struct hung_scan *hs = arg;
	u64 since = READ_ONCE(t->wait_since_ns);

	/*
	 * Signed: the task may have started its wait on another CPU after
	 * this check read the clock, so since can be later than now.
	 */
	if (!since || (s64)(hs->now - since) <
	    (s64)hung_task_timeout_secs * (s64)NSEC_PER_SEC)
		return;
	printk("INFO: task %s:%d blocked for more than %u seconds (%llu ms) in wait_for_completion(), last on cpu %d\n",
	       t->name, t->pid, hung_task_timeout_secs,
	       (unsigned long long)((hs->now - since) / NSEC_PER_MSEC),
	       READ_ONCE(t->cpu));
	/* Its stack is still: it is switched out, not running. */
	if (!READ_ONCE(t->on_cpu))
		arch_backtrace_task(t->ksp);
	WRITE_ONCE(t->wait_since_ns, 0);	/* once per wait */
	hs->found++;
}

static void check_hung_tasks(u64 now)
{
	struct hung_scan hs = { now, 0 };

	if (!hung_task_timeout_secs)
		return;
	sched_for_each_task(check_hung_task, &hs);
	if (hs.found)
		kernel_report_done("hung_task: blocked tasks", true);
}

/* ---- Hard lockups -------------------------------------------------- */

struct lockup_state {
	u64 irqs;		/* stats.irqs when last seen moving */
	u64 since_ns;		/* since then (0: moving, or idle) */
	int reported;
};

static struct lockup_state lockup[NR_CPUS];
static volatile int nmi_backtrace_cpu = -1;
static volatile int nmi_backtrace_done;

/* Every NMI comes here; only the CPU asked for prints. */
static void watchdog_nmi(void)
{
	struct percpu *pc = this_cpu();
	char buf[96];

	if (READ_ONCE(nmi_backtrace_cpu) != pc->cpu)
		return;
	snprintf(buf, sizeof(buf), "NMI backtrace for cpu %d (%s):\n",
		 pc->cpu, pc->curr_task ? pc->curr_task->name : "?");
	/* Unlocked: this CPU may hold the console lock, IRQs off. */
	console_emergency_write(buf);
	arch_print_symbol(pc->nmi_interrupted_ip);
	arch_backtrace(pc->nmi_interrupted_fp);
	/* Orders the backtrace's output before the flag the watchdog polls. */
	smp_mb();
	WRITE_ONCE(nmi_backtrace_done, 1);
}

/*
 * How long to wait for the locked-up CPU's backtrace.  An NMI gets through
 * a hard lockup, so only a CPU that cannot take one, or a host that has not
 * run that vCPU, makes us wait: under TCG on a loaded host 500 ms lost the
 * backtrace (guest time is host time), so this bounds a host stall.
 */
#define WATCHDOG_BACKTRACE_WAIT_MS	5000

static void hard_lockup_report(int cpu, u64 now)
{
	u64 end = now + WATCHDOG_BACKTRACE_WAIT_MS * NSEC_PER_MSEC;

	printk("Watchdog detected hard LOCKUP on cpu %d: no interrupt for %llu ms, not idle, running %s\n",
	       cpu, (unsigned long long)((now - lockup[cpu].since_ns) /
					 NSEC_PER_MSEC),
	       READ_ONCE(per_cpu_area(cpu)->curr_task)->name);
	WRITE_ONCE(nmi_backtrace_done, 0);
	WRITE_ONCE(nmi_backtrace_cpu, cpu);
	arch_send_nmi(cpu);
	while (!READ_ONCE(nmi_backtrace_done) && ktime_get_ns() < end)
		arch_cpu_relax();
	if (!READ_ONCE(nmi_backtrace_done))
		printk("watchdog: cpu %d did not answer the backtrace NMI in %d ms\n",
		       cpu, WATCHDOG_BACKTRACE_WAIT_MS);
	WRITE_ONCE(nmi_backtrace_cpu, -1);
	lockup[cpu].reported = 1;
	kernel_report_done("Hard LOCKUP", false);
}

static void check_hard_lockups(u64 now)
{
	int self = raw_smp_processor_id();
	int cpu;

	if (!watchdog_thresh)
		return;
	for_each_online_cpu(cpu) {
		struct percpu *pc = per_cpu_area(cpu);
		struct lockup_state *ls = &lockup[cpu];
		u64 irqs = READ_ONCE(pc->stats.irqs);

		/* Idle with the tick stopped takes no interrupt, rightly. */
		if (cpu == self || READ_ONCE(pc->in_idle) ||
		    irqs != ls->irqs) {
			ls->irqs = irqs;
			ls->since_ns = 0;
			ls->reported = 0;
			continue;
		}
		if (!ls->since_ns)
			ls->since_ns = now;
		else if (!ls->reported && now - ls->since_ns >=
			 (u64)watchdog_thresh * NSEC_PER_SEC)
			hard_lockup_report(cpu, now);
	}
}

/* ---- The timer ----------------------------------------------------- */

static void watchdog_fn(struct timer *t)
{
	u64 now = ktime_get_ns();

	ktap_check_timeout(now);
	rcu_check_stranded(now);
	check_hung_tasks(now);
	check_hard_lockups(now);
	add_timer(t, ktime_get_ns() + NSEC_PER_SEC);
}

/* On the boot CPU, once timers work; the timer stays on this CPU. */
void watchdog_start(void)
{
	register_nmi_handler(watchdog_nmi);
	timer_init(&watchdog_timer, watchdog_fn);
	preempt_disable();
	add_timer(&watchdog_timer, ktime_get_ns() + NSEC_PER_SEC);
	preempt_enable();
}
