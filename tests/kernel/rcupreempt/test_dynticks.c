// SPDX-License-Identifier: GPL-2.0
/*
 * dynticks_parity: the article's counter protocol, checked on every CPU
 * with real interrupts.  dynticks_progress_counter must be odd in a task,
 * odd inside IRQ handlers, nested IRQ handlers and NMI handlers that
 * interrupt an idle CPU, and even again once they return.
 *
 * "Even while idle with no handler running" is seen from inside the next
 * handler: rcu_irq_enter() increments the counter (and sets
 * rcu_update_flag to 1) only if it found it even.  So a handler that
 * interrupted the idle loop itself, and finds rcu_update_flag == 1 and
 * the counter odd, proves the counter was even just before it; one that
 * finds rcu_update_flag == 0 caught the idle CPU with an odd counter.
 *
 * NMIs are sent in bursts right behind an IPI, so that some land inside
 * the IRQ handler and inside rcu_irq_enter()/rcu_irq_exit() themselves
 * (the interleavings of the article's NMI model); where each landed is
 * classified from the interrupted instruction pointer and reported.
 */
#include "asm/arch.h"
#include "kernel/irq.h"
#include "kernel/percpu.h"
#include "kernel/string.h"
#include "kernel/time.h"
#include "rcu/rcupreempt/rcupreempt.h"
#include "tests/kernel/kernel/util.h"

#define ROUNDS_PER_CPU	600
/* CPUs interrupted, sampled on a big machine: the test takes 0.2 s each. */
#define PARITY_TARGETS	8

enum window {
	W_IDLE,			/* the idle loop itself */
	W_IRQ_ENTER,		/* inside rcu_irq_enter() of an IRQ */
	W_IRQ_EXIT,		/* inside rcu_irq_exit() of an IRQ */
	W_IRQ_PATH,		/* IRQ entry/exit, hardirq count not raised */
	W_IRQ_HANDLER,		/* inside an IRQ handler (count raised) */
	W_OTHER,		/* anything else (a thread) */
	NR_WINDOWS,
};

static const char *const window_names[NR_WINDOWS] = {
	"idle", "rcu_irq_enter", "rcu_irq_exit", "irq entry/exit path",
	"irq handler", "other",
};

/* Functions of the idle loop's sleep, and of the IRQ entry/exit path. */
static const char *const idle_fns[] = {
	"arch_idle_sleep", "idle_nohz", "cpu_idle_loop",
};
static const char *const irq_path_fns[] = {
	"trap_common", "trap_dispatch", "handle_irq", "irq_enter",
	"irq_exit", "count_entry",
};

static bool fn_in(const char *fn, const char *const *list, int n)
{
	for (int i = 0; fn && i < n; i++)
		if (!strcmp(fn, list[i]))
			return true;
	return false;
}

struct parity_stats {
	u64 checks;
	u64 bad;
	u64 irq_from_idle;
	u64 nested;
	u64 nmi_window[NR_WINDOWS];
	long bad_counter;
	int bad_flag;
	const char *bad_where;
} __cacheline_aligned;

static struct parity_stats pstats[NR_CPUS];
static volatile int parity_target = -1;
static volatile int irq_started, irq_done;
static volatile u64 handler_spin_ns;
static volatile int handler_waits_for_nmi;

static long counter(int cpu)
{
	return READ_ONCE(RCU_DATA_CPU(cpu)->dynticks_progress_counter);
}

static int update_flag(int cpu)
{
	return READ_ONCE(RCU_DATA_CPU(cpu)->rcu_update_flag);
}

static void record_bad(struct parity_stats *ps, long c, int flag,
		       const char *where)
{
	if (!ps->bad++) {
		ps->bad_counter = c;
		ps->bad_flag = flag;
		ps->bad_where = where;
	}
}

/* Runs inside a handler: the counter must be odd. */
static void check_odd(struct parity_stats *ps, int cpu, const char *where)
{
	long c = counter(cpu);

	ps->checks++;
	if (!(c & 1))
		record_bad(ps, c, update_flag(cpu), where);
}

/* A handler that interrupted the idle loop itself found it even. */
static void check_from_idle(struct parity_stats *ps, int cpu, int expect,
			    const char *where)
{
	int flag = update_flag(cpu);

	ps->checks++;
	if (flag != expect)
		record_bad(ps, counter(cpu), flag, where);
}

static void parity_high(void)
{
	int cpu = raw_smp_processor_id();
	struct parity_stats *ps = &pstats[cpu];

	check_odd(ps, cpu, "nested irq");
	ps->nested++;
}

static volatile int high_seen;

static void parity_low(void)
{
	int cpu = raw_smp_processor_id();
	struct parity_stats *ps = &pstats[cpu];
	/* Depth 1 and in the idle loop's sleep: this IRQ woke an idle CPU. */
	bool from_idle = READ_ONCE(this_cpu()->in_idle) &&
			 hardirq_count() == HARDIRQ_OFFSET;

	WRITE_ONCE(irq_started, 1);
	check_odd(ps, cpu, "irq");
	if (from_idle) {
		ps->irq_from_idle++;
		check_from_idle(ps, cpu, 1, "irq from idle");
	}
	/* Every fourth IRQ nests the high vector inside itself. */
	if ((ps->checks & 3) == 0) {
		high_seen = 0;
		local_irq_enable();
		arch_send_ipi(cpu, IRQ_TEST_HIGH);
		for (int i = 0; i < 1000000 && !READ_ONCE(high_seen); i++)
			arch_cpu_relax();
		local_irq_disable();
		/* Back from the nested handler: still odd here. */
		check_odd(ps, cpu, "irq after nested irq");
	}
	busy_wait_ns(handler_spin_ns);	/* a target for NMIs */
	if (handler_waits_for_nmi) {
		/* Hold the handler open until an NMI lands in it (bounded). */
		u64 seen = READ_ONCE(ps->nmi_window[W_IRQ_HANDLER]);
		u64 end = ktime_get_ns() + 2 * NSEC_PER_MSEC;

		while (READ_ONCE(ps->nmi_window[W_IRQ_HANDLER]) == seen &&
		       ktime_get_ns() < end)
			arch_cpu_relax();
	}
	check_odd(ps, cpu, "irq");
	WRITE_ONCE(irq_done, 1);
}

static void parity_high_wrap(void)
{
	parity_high();
	WRITE_ONCE(high_seen, 1);
}

static enum window classify(unsigned long ip)
{
	const char *fn = arch_symbol_name(ip);

	if (fn && !strcmp(fn, "rcu_irq_enter"))
		return W_IRQ_ENTER;
	if (fn && !strcmp(fn, "rcu_irq_exit"))
		return W_IRQ_EXIT;
	/* The NMI's own count is in hardirq_count(): subtract it. */
	if (hardirq_count() > HARDIRQ_OFFSET)
		return W_IRQ_HANDLER;
	if (fn_in(fn, irq_path_fns, ARRAY_SIZE(irq_path_fns)))
		return W_IRQ_PATH;
	if (this_cpu()->in_idle && fn_in(fn, idle_fns, ARRAY_SIZE(idle_fns)))
		return W_IDLE;
	return W_OTHER;
}

static void parity_nmi(void)
{
	int cpu = raw_smp_processor_id();
	struct parity_stats *ps = &pstats[cpu];

	if (cpu != READ_ONCE(parity_target))
		return;
	enum window w = classify(this_cpu()->nmi_interrupted_ip);

	ps->nmi_window[w]++;
	check_odd(ps, cpu, "nmi");
	if (w == W_IDLE)
		check_from_idle(ps, cpu, 1, "nmi from idle");
}

/* In a task, on every CPU, many times: odd. */
static void task_parity(int cpu, void *arg)
{
	(void)arg;
	for (int i = 0; i < 1000; i++) {
		pstats[cpu].checks++;
		if (!(counter(cpu) & 1))
			record_bad(&pstats[cpu], counter(cpu),
				   update_flag(cpu), "task");
	}
}

static void wait_idle(int cpu)
{
	for (int i = 0; i < 100000 && !READ_ONCE(per_cpu_area(cpu)->in_idle);
	     i++)
		arch_cpu_relax();
}

KTEST(dynticks_parity)
{
	int self = raw_smp_processor_id(), cpu, bad = 0, targets;
	int target[PARITY_TARGETS];
	u64 seed = 0x9e3779b97f4a7c15ULL;

	if (rcu_flavor_is_tree()) {
		/* rcu=tree has its own: ct_nesting. */
		ktap_diag("rcu/rcupreempt/dynticks.c's counter: rcu=rcupreempt only");
		return KTEST_SKIP;
	}
	memset(pstats, 0, sizeof(pstats));
	run_on_each_cpu(task_parity, NULL);
	request_irq(IRQ_TEST_LOW, parity_low);
	request_irq(IRQ_TEST_HIGH, parity_high_wrap);
	register_nmi_handler(parity_nmi);
	targets = sample_online_cpus(target, PARITY_TARGETS, self);
	ktap_diag_cpus("dynticks_parity: interrupting", target, targets);
	for (int t = 0; t < targets; t++) {
		cpu = target[t];
		WRITE_ONCE(parity_target, cpu);
		for (int r = 0; r < ROUNDS_PER_CPU; r++) {
			wait_idle(cpu);
			irq_started = irq_done = 0;
			handler_spin_ns = test_rand(&seed) % 20000;
			long c0 = counter(cpu);

			arch_send_ipi(cpu, IRQ_TEST_LOW);
			/*
			 * Aim the burst: an NMI pending with the IPI is taken
			 * first (in idle), so wait for the IRQ to get going.
			 * Mode 0: no wait; 1: until rcu_irq_enter() made the
			 * counter odd; 2: until the handler runs (which then
			 * waits for the NMI, so this window is always hit);
			 * 3: until it is done (the exit path).  Where modes 0,
			 * 1 and 3 land depends on timing: they are reported,
			 * not required.
			 */
			int mode = (int)(test_rand(&seed) % 4);

			handler_waits_for_nmi = mode == 2;

			if (mode == 1)
				for (int i = 0; i < 1000000 &&
				     counter(cpu) == c0; i++)
					arch_cpu_relax();
			else if (mode == 2)
				wait_flag(&irq_started, 100);
			else if (mode == 3)
				wait_flag(&irq_done, 100);
			int burst = 1 + (int)(test_rand(&seed) % 3);

			for (int b = 0; b < burst; b++) {
				busy_wait_ns(test_rand(&seed) % 4000);
				arch_send_nmi(cpu);
			}
			if (!wait_flag(&irq_done, HOST_STALL_MS)) {
				ktap_diag("cpu%d: test IRQ never completed", cpu);
				bad = 1;
				break;
			}
			/* Failed already: say so now, not after 600 rounds. */
			if (READ_ONCE(pstats[cpu].bad))
				break;
		}
		/* Quiet again: read from here, the idle counter is even. */
		msleep(2);
		long c = counter(cpu);

		if (READ_ONCE(per_cpu_area(cpu)->in_idle) && (c & 1) &&
		    !update_flag(cpu) && counter(cpu) == c) {
			msleep(1);
			if (counter(cpu) == c)
				record_bad(&pstats[cpu], c, 0, "idle, remote");
		}
	}
	WRITE_ONCE(parity_target, -1);
	unregister_nmi_handler(parity_nmi);
	request_irq(IRQ_TEST_LOW, NULL);
	request_irq(IRQ_TEST_HIGH, NULL);

	u64 total[NR_WINDOWS] = { 0 }, checks = 0;

	for_each_online_cpu(cpu) {
		struct parity_stats *ps = &pstats[cpu];

		checks += ps->checks;
		for (int w = 0; w < NR_WINDOWS; w++)
			total[w] += ps->nmi_window[w];
		if (!ps->irq_from_idle && !ps->bad)
			continue;	/* not a target: task checks only */
		ktap_diag("cpu%d: %lu checks, %lu IRQs from idle, %lu nested, NMIs in idle/rcu_irq_enter/rcu_irq_exit/path/handler: %lu/%lu/%lu/%lu/%lu",
			  cpu, ps->checks, ps->irq_from_idle, ps->nested,
			  ps->nmi_window[W_IDLE], ps->nmi_window[W_IRQ_ENTER],
			  ps->nmi_window[W_IRQ_EXIT],
			  ps->nmi_window[W_IRQ_PATH],
			  ps->nmi_window[W_IRQ_HANDLER]);
		if (ps->bad) {
			ktap_diag("cpu%d: %lu parity violations; first in %s: dynticks_progress_counter=%ld rcu_update_flag=%d",
				  cpu, ps->bad, ps->bad_where, ps->bad_counter,
				  ps->bad_flag);
			bad = 1;
		}
	}
	for (int w = 0; w < NR_WINDOWS; w++)
		ktap_diag("NMI window %s: hit %lu times", window_names[w],
			  total[w]);
	ktap_diag("%lu parity checks in all", checks);
	if (!targets) {
		ktap_diag("task parity only: needs a second CPU to interrupt");
		return bad;
	}
	bad |= KT_EXPECT(total[W_IDLE] > 0 && total[W_IRQ_HANDLER] > 0,
			 "NMIs never reached idle or an IRQ handler");
	return bad;
}
