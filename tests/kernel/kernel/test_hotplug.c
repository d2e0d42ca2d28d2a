// SPDX-License-Identifier: GPL-2.0
/*
 * CPU hotplug (kernel/hotplug.c), judged on guest state only.
 *
 * hotplug_errors: cpu_down()/cpu_up() refuse CPU 0, numbers out of range
 * and a CPU already in the state asked for, each with its own error.
 *
 * hotplug_cycle: every CPU but 0 goes down and comes back
 * hotplug_rounds times, each time with work pending on it: a task pinned
 * to it (sleeping), a roaming task that keeps moving onto it, and a timer
 * armed there.  While it is down: it is not online, its state is parked,
 * it takes no interrupt and no tick (its counters stand still across a
 * sleep of the test's), the timer fires on another CPU at or after its
 * expiry, the pinned task runs elsewhere, the roamer never runs on it.
 * Back up: its ticks run again and the pinned task runs on it again.
 *
 * hotplug_sender_sync: cpu_down()'s sync (docs/hotplug.md) covers a
 * sender on another CPU that read the dying CPU online with IRQs off: it
 * may still send, and its IPI must never find the CPU parked.  A task on
 * the going CPU keeps preemption off (IRQs on) for 100 ms after GOING, so
 * that the CPU answers IPIs while still online.  A sender on another CPU
 * waits, IRQs on, until it has answered a call since cpu_down() began
 * (the sync's, in a kernel that syncs too early); then, if it reads the
 * CPU going but still online with IRQs off, it holds until the CPU is
 * parked (or 1 s after OUT) and sends it an IPI.  A correct sync comes after OUT, when the
 * CPU is offline: the sender never holds for it.  A sync that ran while
 * the CPU was online lets it park under the sender: "IPI sent to offline
 * cpuN".
 */
#include "asm/arch.h"
#include "kernel/errno.h"
#include "kernel/hotplug.h"
#include "kernel/irq.h"
#include "kernel/param.h"
#include "kernel/percpu.h"
#include "kernel/sched.h"
#include "kernel/time.h"
#include "kernel/string.h"
#include "kernel/timer.h"
#include "kernel/wait.h"
#include "rcu/rcupdate.h"
#include "tests/kernel/kernel/util.h"

static unsigned int hotplug_rounds = 3;
kparam_uint("hotplug_rounds", hotplug_rounds, 1, 1000,
	    "hotplug_cycle: down/up rounds per CPU");
/* Shared with tests/kernel/rcu/test_hotplug.c (util.h). */
unsigned int hotplug_max_cpus = 8;
kparam_uint("hotplug_max_cpus", hotplug_max_cpus, 1, NR_CPUS,
	    "hotplug tests: CPUs (other than 0) each one takes down and up, sampled evenly");

KTEST_HOOK(hotplug_errors)
{
	int n = (int)nr_cpus_present, bad = 0;

	bad |= KT_EXPECT(cpu_down(0) == -EBUSY, "cpu_down(0)");
	bad |= KT_EXPECT(cpu_up(0) == -EBUSY, "cpu_up(0)");
	bad |= KT_EXPECT(cpu_down(-1) == -EINVAL, "cpu_down(-1)");
	bad |= KT_EXPECT(cpu_up(-1) == -EINVAL, "cpu_up(-1)");
	bad |= KT_EXPECT(cpu_down(n) == -EINVAL, "cpu_down(%d)", n);
	bad |= KT_EXPECT(cpu_up(n) == -EINVAL, "cpu_up(%d)", n);
	bad |= KT_EXPECT(cpu_down(NR_CPUS) == -EINVAL, "cpu_down(NR_CPUS)");
	if (n < 2)
		return bad ? bad : KTEST_SKIP;
	bad |= KT_EXPECT(cpu_up(n - 1) == -EALREADY, "cpu_up(online)");
	if (cpu_down(n - 1) == -EOPNOTSUPP) {
		ktap_diag("this RCU flavour cannot take a CPU offline");
		return bad;
	}
	bad |= KT_EXPECT(!cpu_online(n - 1), "cpu%d offline", n - 1);
	bad |= KT_EXPECT(cpu_down(n - 1) == -EALREADY, "cpu_down(offline)");
	bad |= KT_EXPECT(cpu_up(n - 1) == 0, "cpu_up(cpu%d)", n - 1);
	bad |= KT_EXPECT(cpu_online(n - 1), "cpu%d back online", n - 1);
	bad |= KT_EXPECT(cpu_up(n - 1) == -EALREADY, "cpu_up(online)");
	return bad;
}

/* ---- hotplug_cycle ----------------------------------------------- */

struct cycle {
	int cpu;			/* the CPU going down and up */
	volatile int stop;
	/* the pinned task: wakes every 2 ms, notes where it ran */
	volatile int pinned_last_cpu;
	volatile u64 pinned_runs;
	/* the roamer: moves CPU at every tick; counts runs on cpu */
	volatile u64 roamer_on_dead;
	volatile int roamer_checking;
	/* the timer, armed on cpu */
	struct timer timer;
	u64 timer_expires;
	volatile int timer_fired_cpu;
	volatile u64 timer_fired_ns;
	struct completion done;
};

static int cycle_pinned(void *arg)
{
	struct cycle *c = arg;

	while (!READ_ONCE(c->stop)) {
		msleep(2);
		WRITE_ONCE(c->pinned_last_cpu, raw_smp_processor_id());
		c->pinned_runs++;
	}
	complete(&c->done);
	return 0;
}

static int cycle_roamer(void *arg)
{
	struct cycle *c = arg;

	while (!READ_ONCE(c->stop)) {
		/* IRQs off: the CPU we read is the CPU we run on. */
		local_irq_disable();
		if (READ_ONCE(c->roamer_checking) &&
		    raw_smp_processor_id() == c->cpu)
			c->roamer_on_dead++;
		local_irq_enable();
		busy_wait_ns(100 * NSEC_PER_USEC);
	}
	complete(&c->done);
	return 0;
}

static void cycle_timer_fn(struct timer *t)
{
	struct cycle *c = container_of(t, struct cycle, timer);

	WRITE_ONCE(c->timer_fired_ns, ktime_get_ns());
	smp_store_release(&c->timer_fired_cpu, raw_smp_processor_id());
}

/*
 * On c->cpu: arm the timer there, 200 ms out: past the cpu_down() that
 * follows, unless the host stalls us that long (then the round judges
 * nothing about the timer, and says so).
 */
static void cycle_arm(void *arg)
{
	struct cycle *c = arg;

	c->timer_fired_cpu = -1;
	c->timer_expires = ktime_get_ns() + 200 * NSEC_PER_MSEC;
	preempt_disable();
	add_timer(&c->timer, c->timer_expires);
	preempt_enable();
}

static void cycle_where(void *arg)
{
	*(int *)arg = raw_smp_processor_id();
}

static int cycle_one(struct cycle *c)
{
	struct percpu *pc = per_cpu_area(c->cpu);
	u64 irqs, ticks, runs, t_down;
	int bad = 0, err, where = -1;

	run_on_cpu(c->cpu, cycle_arm, c);
	WRITE_ONCE(c->roamer_checking, 0);
	err = cpu_down(c->cpu);
	if (err)
		return KT_EXPECT(err == 0, "cpu_down(%d) = %d", c->cpu, err);
	t_down = ktime_get_ns();
	WRITE_ONCE(c->roamer_checking, 1);
	bad |= KT_EXPECT(!cpu_online(c->cpu), "cpu%d offline", c->cpu);
	bad |= KT_EXPECT(READ_ONCE(pc->hp_state) == CPUHP_DEAD,
			 "cpu%d parked: state %d", c->cpu, pc->hp_state);
	/* Parked: nothing reaches it, however long we look. */
	irqs = READ_ONCE(pc->stats.irqs);
	ticks = READ_ONCE(pc->stats.ticks);
	runs = c->pinned_runs;
	/*
	 * Sleep past the timer's expiry, until the pinned task ran twice:
	 * at most 15 s of guest time (a task or timer left on the offline
	 * CPU never runs; a host that stalls a vCPU that long is broken).
	 */
	while ((ktime_get_ns() < c->timer_expires ||
		READ_ONCE(c->pinned_runs) < runs + 2 ||
		smp_load_acquire(&c->timer_fired_cpu) < 0) &&
	       ktime_get_ns() - t_down < 15 * NSEC_PER_SEC)
		msleep(5);
	bad |= KT_EXPECT(READ_ONCE(c->pinned_runs) >= runs + 2,
			 "the task pinned to offline cpu%d did not run for 15 s",
			 c->cpu);
	bad |= KT_EXPECT(smp_load_acquire(&c->timer_fired_cpu) >= 0,
			 "the timer of offline cpu%d did not fire for 15 s",
			 c->cpu);
	bad |= KT_EXPECT(READ_ONCE(pc->stats.irqs) == irqs &&
			 READ_ONCE(pc->stats.ticks) == ticks,
			 "cpu%d took %llu IRQs, %llu ticks while offline",
			 c->cpu,
			 (unsigned long long)(pc->stats.irqs - irqs),
			 (unsigned long long)(pc->stats.ticks - ticks));
	if (c->timer_fired_ns <= t_down)
		ktap_diag("cpu%d: the host held us past the timer's expiry: not judged",
			  c->cpu);
	else
		bad |= KT_EXPECT(c->timer_fired_cpu != c->cpu &&
			 c->timer_fired_ns >= c->timer_expires,
			 "timer of cpu%d fired on cpu%d, %lld ns from expiry",
			 c->cpu, c->timer_fired_cpu,
			 (long long)(c->timer_fired_ns - c->timer_expires));
	bad |= KT_EXPECT(READ_ONCE(c->pinned_last_cpu) != c->cpu,
			 "pinned task ran on offline cpu%d", c->cpu);
	WRITE_ONCE(c->roamer_checking, 0);
	/* Read after the flag: counts only from the down window. */
	smp_mb();
	bad |= KT_EXPECT(c->roamer_on_dead == 0,
			 "roamer ran %llu times on offline cpu%d",
			 (unsigned long long)c->roamer_on_dead, c->cpu);
	c->roamer_on_dead = 0;
	err = cpu_up(c->cpu);
	bad |= KT_EXPECT(err == 0, "cpu_up(%d) = %d", c->cpu, err);
	bad |= KT_EXPECT(cpu_online(c->cpu) &&
			 READ_ONCE(pc->hp_state) == CPUHP_ONLINE,
			 "cpu%d online again", c->cpu);
	ticks = READ_ONCE(pc->stats.ticks);
	run_on_cpu(c->cpu, cycle_where, &where);
	bad |= KT_EXPECT(where == c->cpu, "pinned to cpu%d, ran on cpu%d",
			 c->cpu, where);
	/* Its tick is back (tickless idle may stop it: keep it on). */
	tick_dep_set_cpu(c->cpu);
	preempt_disable();
	arch_send_ipi(c->cpu, IRQ_RESCHEDULE);
	preempt_enable();
	for (int i = 0; i < HOST_STALL_MS &&
	     READ_ONCE(pc->stats.ticks) == ticks; i++)
		msleep(1);
	tick_dep_clear_cpu(c->cpu);
	bad |= KT_EXPECT(READ_ONCE(pc->stats.ticks) != ticks,
			 "cpu%d took no tick back online", c->cpu);
	/* The pinned task goes home at its next switch. */
	for (int i = 0; i < HOST_STALL_MS &&
	     READ_ONCE(c->pinned_last_cpu) != c->cpu; i++)
		msleep(1);
	bad |= KT_EXPECT(READ_ONCE(c->pinned_last_cpu) == c->cpu,
			 "pinned task still away from cpu%d (on cpu%d)",
			 c->cpu, c->pinned_last_cpu);
	return bad;
}

KTEST_HOOK(hotplug_cycle)
{
	static struct cycle c;
	static int cpus[NR_CPUS];
	int n, bad = 0, cycles = 0;

	if (nr_cpus_present < 2 || !rcu_hotplug_supported())
		return KTEST_SKIP;
	n = sample_online_cpus(cpus, (int)hotplug_max_cpus, 0);
	ktap_diag_cpus("hotplug_cycle", cpus, n);
	for (int i = 0; i < n && !bad; i++) {
		int cpu = cpus[i];
		struct task *roamer;

		memset(&c, 0, sizeof(c));
		c.cpu = cpu;
		timer_init(&c.timer, cycle_timer_fn);
		init_completion(&c.done);
		kthread_run(cycle_pinned, &c, cpu, "hp-pinned");
		roamer = kthread_run(cycle_roamer, &c, ANY_CPU, "hp-roamer");
		kthread_set_roaming(roamer, 1);
		for (unsigned int r = 0; r < hotplug_rounds && !bad; r++) {
			bad |= cycle_one(&c);
			cycles++;
		}
		WRITE_ONCE(c.stop, 1);
		wait_for_completion(&c.done);
		wait_for_completion(&c.done);
	}
	ktap_diag("%d down/up cycles over %d CPUs", cycles, n);
	return bad;
}

/* ---- hotplug_sender_sync ------------------------------------------ */

static struct {
	int target;
	volatile int stop, busy, ready;
	volatile unsigned long sent, held_to_park;
	struct completion done;
} ss;

/*
 * Hold (IRQs off) until the target is parked, or 1 s after it was seen at
 * OUT (2 s at most), and then send.  Called only once this CPU has
 * answered a call since cpu_down() began, with the target going but
 * still online: a correct cpu_down() syncs after OUT, so it never gets here
 * but for some other call, and then it cannot store PARK while we hold
 * (its sync waits for us).  A sync that came before OUT (while the
 * target answered it, busy) stores PARK right after OUT, inside the
 * margin, under our hold.
 */
static void ss_hold_and_send(void)
{
	u64 t0 = ktime_get_ns(), out = 0, now;

	while (!cpu_is_parked(ss.target)) {
		now = ktime_get_ns();
		if (!out && READ_ONCE(per_cpu_area(ss.target)->hp_state) ==
		    CPUHP_OUT)
			out = now;
		if ((out && now - out > NSEC_PER_SEC) ||
		    now - t0 > 2 * NSEC_PER_SEC)
			break;
		arch_cpu_relax();
	}
	if (cpu_is_parked(ss.target))
		ss.held_to_park++;
	/* It read the CPU online: a correct sender sends. */
	arch_send_ipi(ss.target, IRQ_TEST_LOW);
	ss.sent++;
}

/* The calls this CPU has answered (its IRQ_CALL_FUNC vector's count). */
static u32 ss_calls(void)
{
	return READ_ONCE(this_cpu()->stats.irq_by_vector[
		arch_irq_vector(IRQ_CALL_FUNC)]);
}

static int ss_sender(void *arg)
{
	unsigned long flags;
	u32 calls;

	(void)arg;
	/* Before cpu_down() begins: a sync may follow GOING at once. */
	calls = ss_calls();
	smp_store_release(&ss.ready, 1);
	while (!READ_ONCE(ss.stop)) {
		local_irq_save(flags);
		if (ss_calls() != calls && cpu_is_going(ss.target) &&
		    cpu_online(ss.target))
			ss_hold_and_send();
		local_irq_restore(flags);
		/*
		 * A gap with IRQs on that spans basic blocks, so that the
		 * sync's call (and TCG's interrupt check) gets in.
		 */
		for (int i = 0; i < 64; i++)
			arch_cpu_relax();
	}
	complete(&ss.done);
	return 0;
}

static int ss_busy(void *arg)
{
	u64 t0 = 0;

	(void)arg;
	preempt_disable();
	smp_store_release(&ss.busy, 1);
	while (!t0 || ktime_get_ns() - t0 < 100 * NSEC_PER_MSEC) {
		if (!t0 && cpu_is_going(ss.target))
			t0 = ktime_get_ns();
		arch_cpu_relax();
	}
	preempt_enable();
	complete(&ss.done);
	return 0;
}

KTEST_HOOK(hotplug_sender_sync)
{
	static int cpus[NR_CPUS];
	int n, bad = 0, err, sender_cpu;

	if (nr_cpus_present < 2 || !rcu_hotplug_supported())
		return KTEST_SKIP;
	n = sample_online_cpus(cpus, (int)hotplug_max_cpus, 0);
	for (int i = 0; i < n && !bad; i++) {
		memset((void *)&ss, 0, sizeof(ss));
		ss.target = cpus[i];
		init_completion(&ss.done);
		/* Another CPU than the target's and than ours, if there is. */
		sender_cpu = num_online_cpus() > 2 && ss.target != 1 ? 1 :
			     num_online_cpus() > 2 ? 2 : 0;
		kthread_run(ss_busy, NULL, ss.target, "hp-busy");
		while (!smp_load_acquire(&ss.busy))
			msleep(1);
		kthread_run(ss_sender, NULL, sender_cpu, "hp-sender");
		while (!smp_load_acquire(&ss.ready))
			msleep(1);
		err = cpu_down(ss.target);
		WRITE_ONCE(ss.stop, 1);
		wait_for_completion(&ss.done);
		wait_for_completion(&ss.done);
		bad |= KT_EXPECT(err == 0, "cpu_down(%d) = %d", ss.target,
				 err);
		bad |= KT_EXPECT(ss.held_to_park == 0,
				 "cpu%d parked while a sender on cpu%d that read it online held IRQs off",
				 ss.target, sender_cpu);
		ktap_diag("cpu%d: %lu IPIs from a sender that answered a call while it was online (0: the sync came after OUT)",
			  ss.target, ss.sent);
		err = cpu_up(ss.target);
		bad |= KT_EXPECT(err == 0, "cpu_up(%d) = %d", ss.target, err);
	}
	return bad;
}
