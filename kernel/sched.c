// SPDX-License-Identifier: GPL-2.0
/*
 * The scheduler: per-CPU FIFO run queues of kernel threads, round-robin
 * with a time slice enforced from the tick, plus an idle thread per CPU.
 *
 * Switching: __schedule() runs with IRQs off and takes its run queue's
 * lock; the lock is held across arch_switch_to() and dropped by the task
 * switched to (finish_task_switch()), as in Linux, so no other CPU can
 * see a half-switched task.  A task leaving a CPU for another (pinning,
 * roaming) is queued on the new CPU only in finish_task_switch(), once
 * its registers are saved.
 */
#include "asm/arch.h"
#include "kernel/barrier.h"
#include "kernel/bug.h"
#include "kernel/hotplug.h"
#include "kernel/irq.h"
#include "kernel/lockdep.h"
#include "kernel/mm.h"
#include "kernel/printk.h"
#include "kernel/sched.h"
#include "kernel/spinlock.h"
#include "kernel/string.h"
#include "kernel/time.h"
#include "rcu/rcupdate.h"

#define TIME_SLICE_NS	(10 * NSEC_PER_MSEC)

struct runqueue {
	struct spinlock lock;
	struct list_head tasks;
	unsigned int nr_running;
	struct task *prev;		/* for finish_task_switch() */
	int prev_dest;			/* CPU prev moves to, or -1 */
	/*
	 * Its CPU is going or gone (sched_cpu_dying()); written under
	 * lock, so whoever holds lock and sees it clear may queue here.
	 */
	int offline;
} __cacheline_aligned;

static struct runqueue runqueues[NR_CPUS];
static struct list_head all_tasks = LIST_HEAD_INIT(all_tasks);
static struct spinlock tasklist_lock = SPINLOCK_INIT("tasklist");
static int next_pid = 1;
static struct task idle_tasks[NR_CPUS];

void sched_init(void)
{
	for (int i = 0; i < NR_CPUS; i++) {
		spin_lock_init(&runqueues[i].lock, "runqueue");
		INIT_LIST_HEAD(&runqueues[i].tasks);
	}
}

static void task_list_add(struct task *t)
{
	unsigned long flags;

	spin_lock_irqsave(&tasklist_lock, flags);
	t->pid = next_pid++;
	list_add_tail(&t->all_list, &all_tasks);
	spin_unlock_irqrestore(&tasklist_lock, flags);
}

/*
 * The code running cpu_start() becomes that CPU's idle task: in its
 * first life a new task, in a later one (back from offline) the same
 * task struct on a fresh stack, already on the task list.
 */
void sched_init_cpu(int cpu)
{
	struct task *idle = &idle_tasks[cpu];
	struct percpu *pc = per_cpu_area(cpu);
	struct runqueue *rq = &runqueues[cpu];

	idle->state = TASK_RUNNING;
	idle->cpu = cpu;
	idle->pinned_cpu = cpu;
	snprintf(idle->name, sizeof(idle->name), "idle/%d", cpu);
	if (!cpu_booted(cpu))
		task_list_add(idle);
	pc->idle = idle;
	pc->curr_task = idle;
	spin_lock(&rq->lock);
	WRITE_ONCE(rq->offline, 0);	/* before the CPU's online bit */
	spin_unlock(&rq->lock);
}

static int next_online_cpu(int cpu);

static void enqueue(struct task *t, int cpu)
{
	struct runqueue *rq = &runqueues[cpu];

	lockdep_assert_held(&rq->lock);
	/* Nothing runs there any more: every caller goes elsewhere. */
	WARN(READ_ONCE(rq->offline), "task %s queued on offline cpu%d",
	     t->name, cpu);
	t->cpu = cpu;
	t->on_rq = 1;
	list_add_tail(&t->run_list, &rq->tasks);
	rq->nr_running++;
}

/*
 * Make t runnable on cpu: queue it and poke that CPU.  Caller has IRQs
 * off.  A remote or idle CPU gets a reschedule IPI: it may be halted.
 */
static void activate(struct task *t, int cpu)
{
	struct runqueue *rq = &runqueues[cpu];

	spin_lock(&rq->lock);
	/*
	 * Its CPU went offline after the caller chose it (a roamer's next
	 * CPU, a woken task's last one): queue it on the next online CPU.
	 * Checked under the lock that sched_cpu_dying() sets offline
	 * under, so no task is queued behind its back.
	 */
	while (unlikely(READ_ONCE(rq->offline))) {
		spin_unlock(&rq->lock);
		cpu = next_online_cpu(cpu);
		rq = &runqueues[cpu];
		spin_lock(&rq->lock);
	}
	enqueue(t, cpu);
	WRITE_ONCE(per_cpu_area(cpu)->need_resched, 1);
	spin_unlock(&rq->lock);
	if (cpu != raw_smp_processor_id())
		arch_send_ipi(cpu, IRQ_RESCHEDULE);
}

/*
 * May a task pinned to cpu be queued there?  Not while it is offline;
 * yes before its first bring-up (boot queues the ktap runner on CPU 0
 * before CPU 0 is online).
 */
static bool pinned_cpu_usable(int cpu)
{
	return cpu_online(cpu) || !cpu_booted(cpu);
}

static int pick_cpu(struct task *t)
{
	static int rr;

	/* Pinned to an offline CPU: anywhere until it is back. */
	if (t->pinned_cpu != ANY_CPU && pinned_cpu_usable(t->pinned_cpu))
		return t->pinned_cpu;
	/* Spread new threads round-robin over the online CPUs. */
	for (;;) {
		int c = __atomic_fetch_add(&rr, 1, __ATOMIC_RELAXED) % NR_CPUS;

		if (cpu_online(c))
			return c;
	}
}

static void finish_task_switch(void);

static void kthread_start(void)
{
	struct task *self;

	finish_task_switch();
	self = current;
	local_irq_enable();
	self->fn(self->arg);
	/* Exit: never scheduled again; its stack slot is not reclaimed. */
	local_irq_disable();
	self->state = TASK_DEAD;
	schedule();
	panic("dead task %s scheduled", self->name);
}

struct task *kthread_run(int (*fn)(void *), void *arg, int cpu,
			 const char *name)
{
	struct task *t = kmalloc(sizeof(*t));
	size_t size;
	unsigned long flags;

	if (!t)
		panic("kthread_run: out of memory for %s", name);
	BUG_ON(cpu != ANY_CPU && (cpu < 0 || cpu >= NR_CPUS));
	t->stack = arch_alloc_stack(&size);
	t->ksp = arch_task_stack_init((char *)t->stack + size, kthread_start);
	t->fn = fn;
	t->arg = arg;
	t->pinned_cpu = cpu;
	t->state = TASK_RUNNING;
	strlcpy(t->name, name, sizeof(t->name));
	task_list_add(t);
	local_irq_save(flags);
	activate(t, pick_cpu(t));
	local_irq_restore(flags);
	return t;
}

void kthread_set_roaming(struct task *t, int roaming)
{
	WRITE_ONCE(t->roaming, roaming);
}

static int next_online_cpu(int cpu)
{
	for (int i = 1; i <= NR_CPUS; i++)
		if (cpu_online((cpu + i) % NR_CPUS))
			return (cpu + i) % NR_CPUS;
	return cpu;
}

static void finish_task_switch(void)
{
	struct runqueue *rq = &runqueues[raw_smp_processor_id()];
	struct task *prev = rq->prev;
	int dest = rq->prev_dest;

	rq->prev = NULL;
	/* Under the lock: wake_up_process() decides on on_cpu holding it. */
	WRITE_ONCE(prev->on_cpu, 0);
	/* Keep preemption off: the count must be as __schedule() left it. */
	__spin_release(&rq->lock);
	if (dest >= 0) {
		/* prev's registers are saved: another CPU may run it now. */
		activate(prev, dest);
	}
	preempt_count_sub(PREEMPT_OFFSET);
}

/*
 * IRQs off on entry and exit.  preempt: an involuntary switch (interrupt
 * return, preempt_enable()).  A task preempted after it set
 * TASK_SLEEPING but before it armed its wake-up (msleep() sets the state,
 * then adds its timer) must stay runnable, as Linux's PREEMPT_ACTIVE
 * ensures, or nothing would ever wake it.  It is requeued here, on this
 * CPU, with its state left SLEEPING: it sleeps for real when it reaches
 * its own schedule().
 */
static void __schedule(bool preempt)
{
	int cpu = raw_smp_processor_id();
	struct runqueue *rq = &runqueues[cpu];
	struct percpu *pc = this_cpu();
	struct task *prev = pc->curr_task, *next;

	rcu_note_context_switch(preempt);	/* rcu=tree: QS, blkd_tasks */
	spin_lock(&rq->lock);
	pc->need_resched = 0;
	rq->prev_dest = -1;
	if (prev->state == TASK_RUNNING && prev != pc->idle) {
		int dest = cpu;

		/* Pinned to an offline CPU: stays where it is meanwhile. */
		if (prev->pinned_cpu != ANY_CPU &&
		    pinned_cpu_usable(prev->pinned_cpu))
			dest = prev->pinned_cpu;
		else if (READ_ONCE(prev->roaming))
			dest = next_online_cpu(cpu);
		/* A CPU on its way out keeps no task but its idle one. */
		if (dest == cpu && unlikely(cpu_is_going(cpu)))
			dest = next_online_cpu(cpu);
		if (dest == cpu) {
			enqueue(prev, cpu);
		} else {
			rq->prev_dest = dest;
			/*
			 * t->cpu changes only under the lock of the run queue
			 * it leaves: a waker that locks that queue and finds
			 * t->cpu still naming it knows t cannot move under it
			 * (wake_up_process()).
			 */
			WRITE_ONCE(prev->cpu, dest);
		}
	} else if (preempt && prev->state == TASK_SLEEPING &&
		   prev != pc->idle) {
		enqueue(prev, cpu);
	}
	/*
	 * A going CPU runs only its idle task, which takes it down
	 * (cpu_die()); sched_cpu_dying() moves the queue away.
	 */
	if (!list_empty(&rq->tasks) && likely(!cpu_is_going(cpu))) {
		next = list_first_entry(&rq->tasks, struct task, run_list);
		list_del_init(&next->run_list);
		next->on_rq = 0;
		rq->nr_running--;
	} else {
		next = pc->idle;
	}
	next->slice_end_ns = ktime_get_ns() + TIME_SLICE_NS;
	if (next == prev) {
		spin_unlock(&rq->lock);
		return;
	}
	next->cpu = cpu;
	next->on_cpu = 1;
	__cpumask_set_cpu(cpu, &next->ran_on_mask);	/* under rq->lock */
	next->nr_switches++;
	rq->prev = prev;
	this_cpu_write(curr_task, next);
	arch_switch_to(&prev->ksp, next->ksp);
	finish_task_switch();
}

void schedule(void)
{
	unsigned long flags;

	if (unlikely(preempt_count() & ~PREEMPT_MASK) ||
	    unlikely((preempt_count() & PREEMPT_MASK) != 0))
		panic("BUG: scheduling while atomic: %s, preempt_count %x",
		      current->name, preempt_count());
	local_irq_save(flags);
	__schedule(false);
	local_irq_restore(flags);
}

void preempt_schedule(void)
{
	unsigned long flags;

	if (preempt_count() || irqs_disabled())
		return;
	local_irq_save(flags);
	__schedule(true);
	local_irq_restore(flags);
}

/* From interrupt return: IRQs off, count zero, the frame on our stack. */
void preempt_schedule_irq(void)
{
	do {
		__schedule(true);
	} while (this_cpu_read(need_resched));
}

void yield(void)
{
	this_cpu_write(need_resched, 1);
	schedule();
}

void set_current_state(int state)
{
	WRITE_ONCE(current->state, state);
	/*
	 * Order the state store before the caller's load of its wake-up
	 * condition; pairs with the waker's condition store, then its
	 * (locked, hence fully ordered) state compare-and-swap.
	 */
	smp_mb();
}

/* A sleeping pinned task away from its CPU, which is back online. */
static bool wake_home(struct task *t, int cpu)
{
	int home = t->pinned_cpu;

	return home != ANY_CPU && home != cpu && cpu_online(home);
}

int wake_up_process(struct task *t)
{
	unsigned long flags;
	int cpu, woke = 0;

	local_irq_save(flags);
	/*
	 * t may have roamed since we read t->cpu: the old queue's lock would
	 * not serialise us against its __schedule() on the new CPU, and we
	 * could see on_cpu, leave t to requeue itself, and lose it.  t->cpu
	 * only changes under the lock of the queue it leaves, so recheck it
	 * under that lock and retry until it is stable.
	 */
	struct runqueue *rq;

	for (;;) {
		cpu = READ_ONCE(t->cpu);
		rq = &runqueues[cpu];
		spin_lock(&rq->lock);
		if (likely(READ_ONCE(t->cpu) == cpu))
			break;
		spin_unlock(&rq->lock);
	}
	if (__atomic_compare_exchange_n(&t->state, &(int){ TASK_SLEEPING },
					TASK_RUNNING, false, __ATOMIC_SEQ_CST,
					__ATOMIC_SEQ_CST)) {
		woke = 1;
		/*
		 * Still on its CPU (it has not finished switching out): its
		 * own __schedule() sees RUNNING and requeues it, and holding
		 * rq->lock means it cannot be half way through that.
		 */
		if (READ_ONCE(t->on_rq)) {
			/* Preempted before it slept: still queued. */
			woke = 2;
		} else if (unlikely(READ_ONCE(rq->offline) ||
				    wake_home(t, cpu))) {
			/*
			 * It last ran on a CPU now offline (so it is neither
			 * queued nor running there): wake it on another.  Or
			 * it is pinned, and ran away from its CPU while that
			 * was offline: wake it at home.  We hold the lock of
			 * the queue it leaves, as a change of t->cpu needs;
			 * activate() takes the new one.
			 */
			int dest = wake_home(t, cpu) ? t->pinned_cpu :
				   next_online_cpu(cpu);

			WRITE_ONCE(t->cpu, dest);
			spin_unlock(&rq->lock);
			activate(t, dest);
			local_irq_restore(flags);
			return 1;
		} else if (!READ_ONCE(t->on_cpu)) {
			enqueue(t, cpu);
			WRITE_ONCE(per_cpu_area(cpu)->need_resched, 1);
		} else {
			woke = 2;
		}
	}
	spin_unlock(&rq->lock);
	if (woke == 1 && cpu != raw_smp_processor_id())
		arch_send_ipi(cpu, IRQ_RESCHEDULE);
	local_irq_restore(flags);
	return woke != 0;
}

/*
 * On the dying CPU, IRQs off, its idle task running: mark its run queue
 * offline, then clear its online bit (in that order: a waker that finds
 * the CPU online still finds the queue open, and its task is moved
 * below), then send every queued task to the online CPUs.  After this
 * no task is queued here: activate() and wake_up_process() see offline
 * under the queue lock and go elsewhere.
 */
void sched_cpu_dying(int cpu)
{
	struct runqueue *rq = &runqueues[cpu];
	struct list_head moving = LIST_HEAD_INIT(moving);
	struct task *t;

	lockdep_assert_irqs_disabled();
	BUG_ON(current != this_cpu()->idle || cpu != raw_smp_processor_id());
	spin_lock(&rq->lock);
	WRITE_ONCE(rq->offline, 1);
	set_cpu_offline(cpu);
	while (!list_empty(&rq->tasks)) {
		t = list_first_entry(&rq->tasks, struct task, run_list);
		list_del_init(&t->run_list);
		/*
		 * on_rq stays set until activate() queues it again: a task
		 * preempted as it went to sleep is SLEEPING here, and a
		 * waker that found on_rq clear would queue it a second time.
		 */
		rq->nr_running--;
		/* Under the lock of the queue it leaves, as t->cpu needs. */
		WRITE_ONCE(t->cpu, next_online_cpu(cpu));
		list_add_tail(&t->run_list, &moving);
	}
	spin_unlock(&rq->lock);
	while (!list_empty(&moving)) {
		t = list_first_entry(&moving, struct task, run_list);
		list_del_init(&t->run_list);
		activate(t, t->cpu);
	}
}

void sched_for_each_task(void (*fn)(struct task *t, void *arg), void *arg)
{
	unsigned long flags;
	struct task *t;

	spin_lock_irqsave(&tasklist_lock, flags);
	list_for_each_entry(t, &all_tasks, all_list)
		fn(t, arg);
	spin_unlock_irqrestore(&tasklist_lock, flags);
}

void scheduler_tick(void)
{
	struct task *t = current;

	if (t != this_cpu()->idle && ktime_get_ns() >= t->slice_end_ns &&
	    !list_empty(&runqueues[raw_smp_processor_id()].tasks))
		this_cpu_write(need_resched, 1);
	/* Roamers move on at every tick so they migrate often. */
	if (READ_ONCE(t->roaming) && num_online_cpus() > 1)
		this_cpu_write(need_resched, 1);
}

int smp_processor_id(void)
{
	if (unlikely(preemptible()) && current->pinned_cpu == ANY_CPU)
		panic("BUG: smp_processor_id() in preemptible code: %s",
		      current->name);
	return raw_smp_processor_id();
}
