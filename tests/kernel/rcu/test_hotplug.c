// SPDX-License-Identifier: GPL-2.0
/*
 * RCU across CPU hotplug, either flavour (docs/hotplug.md), judged on
 * guest state.
 *
 * rcu_hotplug_callbacks: callbacks queued on a CPU that then goes down
 * are all invoked within a few grace periods.  A reader on CPU 0 holds
 * from before they are queued until the CPU is down, so none can have
 * run before: they are still on the CPU's lists when it dies.  Waited
 * for first with nothing asking for grace periods (the CPU that adopted
 * them must ask), then with synchronize_rcu(), not rcu_barrier(): a
 * kernel that drops them would drop the barrier's head too and hang
 * instead of failing.
 *
 * rcu_hotplug_reader: a reader that began on a CPU, and is migrated off
 * it as the CPU goes down, still holds the grace period: a callback
 * queued after its rcu_read_lock() does not run until it unlocks, on
 * another CPU.  The dead CPU's share of the reader's accounting (the
 * 2008 flavour's rcu_flipctr[], the tree's leaf) must outlive the CPU.
 * Then a reader on the CPU just back, spinning with preemption off,
 * holds the grace period too.
 *
 * rcu_hotplug_window_reader: a reader in an IRQ handler that runs in the
 * dying CPU's last window (sent by the CPU to itself at OUT, from
 * cpuhp_out_hook) holds both a normal and an expedited grace period that
 * begin while it holds: the CPU is offline, but RCU still counts it
 * until its last RCU step.  Held 200 ms of guest time: grace periods that
 * forgot it end within a few ms.
 *
 * rcu_hotplug_late_nmi: an NMI that reaches a dying CPU after its last
 * RCU step (sent before cpu_down()'s sync, delivered late: the test
 * sends it from cpuhp_rcu_dead_hook, in that window) runs no handler.
 * Were it to run one, its reader would hold no grace period on
 * rcu=tree: the test's handler is such a reader, and fails the test if
 * a grace period it should hold ends under it.
 */
#include "asm/arch.h"
#include "kernel/errno.h"
#include "kernel/hotplug.h"
#include "kernel/irq.h"
#include "kernel/percpu.h"
#include "kernel/sched.h"
#include "kernel/string.h"
#include "kernel/time.h"
#include "kernel/wait.h"
#include "rcu/rcupdate.h"
#include "tests/kernel/kernel/util.h"

#define HP_CBS		16

struct hp_cb {
	struct rcu_head head;
	volatile int ran_on;		/* CPU it ran on, or -1 */
};

static struct hp_cb hp_cbs[HP_CBS];
static volatile int hp_cbs_ran;

static void hp_cb_fn(struct rcu_head *head)
{
	struct hp_cb *c = container_of(head, struct hp_cb, head);

	c->ran_on = raw_smp_processor_id();
	__atomic_add_fetch(&hp_cbs_ran, 1, __ATOMIC_RELEASE);
}

static void hp_queue(void *arg)
{
	(void)arg;
	for (int i = 0; i < HP_CBS; i++) {
		hp_cbs[i].ran_on = -1;
		call_rcu(&hp_cbs[i].head, hp_cb_fn);
	}
}

/* A reader on CPU 0 while *flag is 0: no grace period ends meanwhile. */
static volatile int hold_locked, hold_release;
static struct completion hold_done;

static int hold_reader(void *arg)
{
	(void)arg;
	rcu_read_lock();
	smp_store_release(&hold_locked, 1);
	while (!READ_ONCE(hold_release))
		preempted_wait_ms(1);
	rcu_read_unlock();
	complete(&hold_done);
	return 0;
}

static void hold_start(void)
{
	hold_locked = hold_release = 0;
	init_completion(&hold_done);
	kthread_run(hold_reader, NULL, 0, "hp-hold");
	while (!smp_load_acquire(&hold_locked))
		msleep(1);
}

static void hold_stop(void)
{
	WRITE_ONCE(hold_release, 1);
	wait_for_completion(&hold_done);
}

/*
 * First without asking for a grace period (up to HOST_STALL_MS of guest
 * time, a bound on a host stall): the CPU that adopted the callbacks
 * must have asked for what they need, and nothing else asks here.  Its
 * value: did they all run so.  Then with up to 3 * GP_STAGES grace
 * periods' worth (a moved callback needs 4), to tell late from lost.
 */
static bool hp_wait_cbs(int want)
{
	bool unasked;
	u64 t0 = ktime_get_ns();

	while (READ_ONCE(hp_cbs_ran) < want &&
	       ktime_get_ns() - t0 < HOST_STALL_MS * NSEC_PER_MSEC)
		msleep(1);
	unasked = READ_ONCE(hp_cbs_ran) == want;
	for (int i = 0; i < 12 && READ_ONCE(hp_cbs_ran) < want; i++)
		synchronize_rcu();
	return unasked;
}

KTEST_HOOK(rcu_hotplug_callbacks)
{
	static int cpus[NR_CPUS];
	int n, bad = 0;

	if (nr_cpus_present < 2 || !rcu_hotplug_supported())
		return KTEST_SKIP;
	n = sample_online_cpus(cpus, (int)hotplug_max_cpus, 0);
	for (int i = 0; i < n && !bad; i++) {
		int cpu = cpus[i], err;
		bool unasked;

		hp_cbs_ran = 0;
		hold_start();
		run_on_cpu(cpu, hp_queue, NULL);
		err = cpu_down(cpu);
		bad |= KT_EXPECT(err == 0, "cpu_down(%d) = %d", cpu, err);
		bad |= KT_EXPECT(READ_ONCE(hp_cbs_ran) == 0,
				 "%d callbacks ran under the reader", hp_cbs_ran);
		hold_stop();
		unasked = hp_wait_cbs(HP_CBS);
		bad |= KT_EXPECT(READ_ONCE(hp_cbs_ran) == HP_CBS,
				 "cpu%d went down with %d callbacks; %d ran",
				 cpu, HP_CBS, hp_cbs_ran);
		bad |= KT_EXPECT(unasked || READ_ONCE(hp_cbs_ran) != HP_CBS,
				 "cpu%d's %d callbacks ran only once grace periods were asked for: the CPU that adopted them asked for none",
				 cpu, HP_CBS);
		for (int i = 0; i < HP_CBS; i++)
			bad |= KT_EXPECT(hp_cbs[i].ran_on != cpu,
					 "callback %d ran on cpu%d, which went down before it could",
					 i, cpu);
		err = cpu_up(cpu);
		bad |= KT_EXPECT(err == 0, "cpu_up(%d) = %d", cpu, err);
	}
	return bad;
}

/* ---- rcu_hotplug_reader ------------------------------------------ */

static struct {
	int cpu;
	bool spin;		/* hold without being preempted */
	volatile int locked, release, unlocked_on;
	volatile int cb_ran, cb_ran_while_locked;
	struct rcu_head head;
	struct completion done;
} hr;

static int hr_reader(void *arg)
{
	(void)arg;
	rcu_read_lock();
	smp_store_release(&hr.locked, 1);
	if (hr.spin) {
		/*
		 * Never preempted, so never on the tree's blkd_tasks (where
		 * every new grace period would count it): only the CPU's
		 * own place in the grace period holds it.
		 */
		preempt_disable();
		while (!READ_ONCE(hr.release))
			arch_cpu_relax();
		preempt_enable();
	}
	/* Preempted every 50 us: the going CPU sends us elsewhere. */
	while (!READ_ONCE(hr.release))
		preempted_wait_ms(1);
	/* Read before the unlock: the callback may run right after it. */
	hr.unlocked_on = raw_smp_processor_id();
	rcu_read_unlock();
	complete(&hr.done);
	return 0;
}

static void hr_cb(struct rcu_head *head)
{
	(void)head;
	if (!READ_ONCE(hr.release))
		WRITE_ONCE(hr.cb_ran_while_locked, 1);
	smp_store_release(&hr.cb_ran, 1);
}

/*
 * One reader on cpu, a callback queued after its lock: with down, the
 * CPU goes down under the reader; without, the CPU has just come back
 * and the reader is one of its first (a CPU that RCU did not take back
 * would not be waited for).
 */
static int hr_round(int cpu, bool down)
{
	int bad = 0, err;
	u64 t0;

	memset(&hr, 0, sizeof(hr));
	hr.cpu = cpu;
	hr.spin = !down;
	init_completion(&hr.done);
	kthread_run(hr_reader, NULL, cpu, "hp-reader");
	while (!smp_load_acquire(&hr.locked))
		msleep(1);
	call_rcu(&hr.head, hr_cb);
	if (down) {
		err = cpu_down(cpu);
		bad |= KT_EXPECT(err == 0, "cpu_down(%d) = %d", cpu, err);
	}
	/*
	 * Hold the reader 200 ms of guest time: grace periods that forgot
	 * it would end within a few ticks.
	 */
	t0 = ktime_get_ns();
	while (ktime_get_ns() - t0 < 200 * NSEC_PER_MSEC &&
	       !READ_ONCE(hr.cb_ran))
		msleep(5);
	bad |= KT_EXPECT(!READ_ONCE(hr.cb_ran),
			 "callback ran while a reader of %s cpu%d held on",
			 down ? "offline" : "just onlined", cpu);
	WRITE_ONCE(hr.release, 1);
	wait_for_completion(&hr.done);
	if (down)
		bad |= KT_EXPECT(hr.unlocked_on != cpu,
				 "reader unlocked on offline cpu%d", cpu);
	for (int i = 0; i < 12 && !smp_load_acquire(&hr.cb_ran); i++)
		synchronize_rcu();
	bad |= KT_EXPECT(READ_ONCE(hr.cb_ran) &&
			 !READ_ONCE(hr.cb_ran_while_locked),
			 "callback ran %s", hr.cb_ran ?
			 "while the reader held on" : "never");
	if (down) {
		err = cpu_up(cpu);
		bad |= KT_EXPECT(err == 0, "cpu_up(%d) = %d", cpu, err);
	}
	return bad;
}

/*
 * round(cpu) on up to max of the online CPUs but 0 (sampled), until one
 * fails: 0 or 1, or KTEST_SKIP without a second CPU or hotplug.
 */
static int hp_each_cpu(int max, int (*round)(int cpu))
{
	static int cpus[NR_CPUS];
	int n, bad = 0;

	if (nr_cpus_present < 2 || !rcu_hotplug_supported())
		return KTEST_SKIP;
	n = sample_online_cpus(cpus, max, 0);
	for (int i = 0; i < n && !bad; i++)
		bad |= round(cpus[i]);
	return bad;
}

static int hr_down_then_back(int cpu)
{
	return hr_round(cpu, true) | hr_round(cpu, false);
}

KTEST_HOOK(rcu_hotplug_reader)
{
	return hp_each_cpu((int)hotplug_max_cpus, hr_down_then_back);
}

/* ---- rcu_hotplug_late_nmi ----------------------------------------- */

static struct {
	int cpu;
	volatile int armed;		/* the next NMI on cpu is ours */
	volatile int hook_ran, nmi_ran, gp_ended_under_reader;
	volatile int stop_gps;
	volatile unsigned long gps;	/* grace periods the driver ended */
	u64 ignored_in_hook;		/* cpu's nmis_ignored, hook's delta */
	struct completion driver_done;
} ln;

/*
 * The reader a late NMI must never start: it holds until the driver has
 * ended three grace periods (which a reader that no grace period waits
 * for lets happen), or 500 ms of guest time pass (a reader that does
 * hold them back), and then asks whether its cookie's grace period ended
 * under it.
 */
static void ln_nmi(void)
{
	unsigned long cookie, gps;
	u64 t0;

	if (raw_smp_processor_id() != ln.cpu || !READ_ONCE(ln.armed))
		return;
	WRITE_ONCE(ln.armed, 0);
	rcu_read_lock();
	cookie = get_state_synchronize_rcu();
	gps = READ_ONCE(ln.gps);
	WRITE_ONCE(ln.nmi_ran, 1);
	t0 = ktime_get_ns();
	while (READ_ONCE(ln.gps) - gps < 3 &&
	       ktime_get_ns() - t0 < 500 * NSEC_PER_MSEC)
		arch_cpu_relax();
	/*
	 * Three grace periods ended since the cookie: the one it names has
	 * too, unless this reader held it (or the 500 ms passed first).
	 */
	if (poll_state_synchronize_rcu(cookie))
		WRITE_ONCE(ln.gp_ended_under_reader, 1);
	rcu_read_unlock();
}

/* On the dying CPU, IRQs off, after rcu_report_dead(), before DEAD. */
static void ln_hook(int cpu)
{
	struct cpu_stats *st = &per_cpu_area(cpu)->stats;
	u64 before = st->nmis_ignored, t0;

	if (cpu != ln.cpu)
		return;
	WRITE_ONCE(ln.hook_ran, 1);
	WRITE_ONCE(ln.armed, 1);
	arch_send_nmi_self();
	/*
	 * A self-NMI arrives at once; wait for it, bounded, so that it
	 * lands in this window and not in the park loop after DEAD.
	 */
	t0 = ktime_get_ns();
	while (READ_ONCE(st->nmis_ignored) == before &&
	       !READ_ONCE(ln.nmi_ran) &&
	       ktime_get_ns() - t0 < NSEC_PER_SEC)
		arch_cpu_relax();
	ln.ignored_in_hook = READ_ONCE(st->nmis_ignored) - before;
}

/* Grace periods for the late reader to hold back, from another CPU. */
static int ln_driver(void *arg)
{
	(void)arg;
	while (!READ_ONCE(ln.stop_gps)) {
		synchronize_rcu();
		WRITE_ONCE(ln.gps, ln.gps + 1);
	}
	complete(&ln.driver_done);
	return 0;
}

static int ln_round(int cpu)
{
	int bad = 0, err;

	memset(&ln, 0, sizeof(ln));
	ln.cpu = cpu;
	init_completion(&ln.driver_done);
	kthread_run(ln_driver, NULL, 0, "ln-gps");
	WRITE_ONCE(cpuhp_rcu_dead_hook, ln_hook);
	err = cpu_down(cpu);
	WRITE_ONCE(cpuhp_rcu_dead_hook, NULL);
	WRITE_ONCE(ln.stop_gps, 1);
	wait_for_completion(&ln.driver_done);
	bad |= KT_EXPECT(err == 0, "cpu_down(%d) = %d", cpu, err);
	bad |= KT_EXPECT(!ln.gp_ended_under_reader,
			 "cpu%d: a grace period ended under an NMI reader that began after rcu_report_dead()",
			 cpu);
	bad |= KT_EXPECT(ln.hook_ran && !ln.nmi_ran &&
			 ln.ignored_in_hook == 1,
			 "cpu%d: the NMI after rcu_report_dead() %s", cpu,
			 !ln.hook_ran ? "was never sent" :
			 ln.nmi_ran ? "ran a handler" : "never arrived");
	err = cpu_up(cpu);
	bad |= KT_EXPECT(err == 0, "cpu_up(%d) = %d", cpu, err);
	return bad;
}

KTEST_HOOK(rcu_hotplug_late_nmi)
{
	int bad;

	register_nmi_handler(ln_nmi);
	bad = hp_each_cpu(2, ln_round);
	unregister_nmi_handler(ln_nmi);
	return bad;
}

/* ---- rcu_hotplug_window_reader ------------------------------------ */

static struct {
	int cpu, down_err;
	volatile int armed, in_reader, release, reader_done;
	volatile int exp_under, normal_under;
	struct completion done;
} wr;

/* On the dying CPU just before OUT, IRQs off: the IRQ runs at OUT. */
static void wr_out_hook(int cpu)
{
	if (cpu != wr.cpu || !READ_ONCE(wr.armed))
		return;
	WRITE_ONCE(wr.armed, 0);
	arch_send_ipi(cpu, IRQ_TEST_LOW);
}

static void wr_irq(void)
{
	u64 t0;

	if (raw_smp_processor_id() != wr.cpu || READ_ONCE(wr.in_reader))
		return;
	rcu_read_lock();
	smp_store_release(&wr.in_reader, 1);
	t0 = ktime_get_ns();
	while (!READ_ONCE(wr.release) &&
	       ktime_get_ns() - t0 < 2 * NSEC_PER_SEC)
		arch_cpu_relax();
	WRITE_ONCE(wr.reader_done, 1);	/* before the unlock */
	rcu_read_unlock();
}

/* A grace period begun under the window's reader: arg is the primitive. */
static int wr_waiter(void *arg)
{
	void (*sync)(void) = (void (*)(void))arg;

	sync();
	if (!READ_ONCE(wr.reader_done))
		WRITE_ONCE(*(sync == synchronize_rcu ? &wr.normal_under :
			     &wr.exp_under), 1);
	complete(&wr.done);
	return 0;
}

static int wr_down(void *arg)
{
	(void)arg;
	wr.down_err = cpu_down(wr.cpu);
	complete(&wr.done);
	return 0;
}

static int wr_round(int cpu)
{
	int bad = 0, err;
	u64 t0;

	memset(&wr, 0, sizeof(wr));
	wr.cpu = cpu;
	init_completion(&wr.done);
	WRITE_ONCE(wr.armed, 1);
	kthread_run(wr_down, NULL, 0, "wr-down");
	bad |= KT_EXPECT(wait_flag(&wr.in_reader, HOST_STALL_MS),
			 "cpu%d: no reader in its last window", cpu);
	if (!bad) {
		kthread_run(wr_waiter, (void *)synchronize_rcu_expedited, 0,
			    "wr-exp");
		kthread_run(wr_waiter, (void *)synchronize_rcu, 0, "wr-normal");
		t0 = ktime_get_ns();
		while (ktime_get_ns() - t0 < 200 * NSEC_PER_MSEC)
			msleep(5);
	}
	WRITE_ONCE(wr.release, 1);
	for (int i = 0; i < (bad ? 1 : 3); i++)
		wait_for_completion(&wr.done);
	bad |= KT_EXPECT(wr.down_err == 0, "cpu_down(%d) = %d", cpu,
			 wr.down_err);
	bad |= KT_EXPECT(!wr.exp_under && !wr.normal_under,
			 "cpu%d: %s grace period ended under a reader in the CPU's last window",
			 cpu, wr.exp_under ? "an expedited" : "a normal");
	err = cpu_up(cpu);
	bad |= KT_EXPECT(err == 0, "cpu_up(%d) = %d", cpu, err);
	return bad;
}

KTEST_HOOK(rcu_hotplug_window_reader)
{
	int bad;

	request_irq(IRQ_TEST_LOW, wr_irq);
	WRITE_ONCE(cpuhp_out_hook, wr_out_hook);
	bad = hp_each_cpu(2, wr_round);
	WRITE_ONCE(cpuhp_out_hook, NULL);
	request_irq(IRQ_TEST_LOW, NULL);
	return bad;
}
