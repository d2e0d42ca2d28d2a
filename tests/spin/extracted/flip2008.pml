/*
 * Harness of the extracted 2008 flip model (docs/spin-extracted.md):
 * preemptable RCU's read side and grace-period machine, as
 * rcu/rcupreempt/rcupreempt.c has them, made into Promela by
 * tools/extract (flip2008-layout.pml and flip2008-gen.pml under
 * build/spin/extracted/).  Where dynticks2008.pml checks the idle
 * protocol, with readers that are just the code between the hooks, this
 * one checks what the flip counters, the acknowledgements and the
 * callback stages promise, with both CPUs busy (their dynticks counters
 * stay odd: the idle protocol is the other model's).
 *
 *   reader()    CPU 1's task: __rcu_read_lock(), a read-side critical
 *               section (loads removed, then freed),
 *               __rcu_read_unlock(), MAX_DYNTICK_LOOP_NOHZ times
 *   tick1()     CPU 1's scheduling-clock interrupt, where its task has
 *               IRQs on, whenever CPU 1 owes the machine something: the
 *               flip acknowledgement of __rcu_advance_callbacks()
 *               (written out, common.pml) and rcu_check_mb()
 *   gp()        CPU 0: the updater unlinks the element and queues its
 *               callback, then CPU 0's ticks run rcu_check_callbacks()'s
 *               order: rcu_check_mb(); the machine's next state, if CPU
 *               0 has seen the last flip (the extracted
 *               rcu_try_flip(): its switch on the state, and the
 *               state's function); then the callback
 *               advance: the callback moves one stage for each change of
 *               completed that CPU 0 sees, and is invoked (the element
 *               freed) after GP_STAGES + 1 of them; then CPU 0's own
 *               flip acknowledgement.
 * Only CPU 0's ticks drive the machine (in the kernel, any CPU's may).
 * GP_STAGES is read from rcu/rcupreempt/rcupreempt.h by the extractor.
 *
 * Checks: a reader must not see its element freed; the flip machine
 * must not go further than it may while the reader holds its index (the
 * torture test's check, rcu/torture.c: the extracted
 * rcupreempt_torture_gp_passed(), with g0 read as the torture reader
 * reads it); the extracted WARN()s; and liveness: once CPU 1's task has stopped and CPU 1 owes
 * nothing (its acknowledgement and memory barrier are in memory), every
 * try of the machine must move it on.
 */

#define NCPU	2
#define NTASK	1
#define GPCPU	0
#define IDLE	1	/* CPU 1, busy here, named as in common.pml */

#define C_MAIN	0	/* CPU 1's task */
#define C_IRQ	1	/* CPU 1's tick */
#define C_NMI	2	/* (no NMI here) */
#define C_GP	3	/* CPU 0 */

/* What the inlines use that is this harness's own. */
#define CURRENT(c, x)		0	/* CPU 1's one task */
#define RCU_PENDING(c)		1
#define IN_INTERRUPT(c, x)	((x) != C_MAIN)
/* local_irq_save()/local_irq_restore(): CPU 1's task's IRQ flag; CPU 0
 * (rcu_try_flip()) has none here: nothing interrupts it. */
#define IRQ_SAVE(c, x, t) \
	if \
	:: (x) == C_MAIN -> t = irqs_off; irqs_off = 1 \
	:: else -> t = 0 \
	fi
#define IRQ_RESTORE(c, x, f) \
	if \
	:: (x) == C_MAIN -> irqs_off = (f) \
	:: else -> skip \
	fi

/*
 * HOIST=1 (memory model TSO+LB,hoist): the reader's first
 * critical-section load may also be satisfied before its
 * __rcu_read_lock(), as on a CPU that reorders loads with earlier loads
 * and stores without a barrier between (not x86, and none of the three
 * memory models of memory.pml), though not before a barrier that comes
 * before the lock: no tick lands in between.
 */
#ifndef HOIST
#define HOIST	0
#endif

#define GEN	"flip2008-gen.pml"
#include "flip2008-layout.pml"
#include "common.pml"


/* Does CPU 1 owe the machine an acknowledgement or a barrier (as
 * memory shows it)? */
#define OWED1 \
	(mem[A_rcu_data_rcu_flip_flag(IDLE)] == 1 || \
	 mem[A_rcu_data_rcu_mb_flag(IDLE)] == 1)

proctype reader()
{
	DECL___rcu_read_lock
	DECL___rcu_read_unlock
	DECL_rcupreempt_torture_gp_passed
	short pmem[NLOC];	/* the task's own fields */
	short g0;		/* completed before the outermost lock */
	bit passed;
	bit hoisted;		/* HOIST: this reader's first load came early */
	byte i = 0;

	do
	FINISH(MAX_DYNTICK_LOOP_NOHZ, C_MAIN, nohz_done)
	:: i < MAX_DYNTICK_LOOP_NOHZ ->
#if HOIST
		/* The first critical-section load early: before the lock
		 * (load->load and load->store reordering; not x86), but
		 * after every barrier before the lock: no tick (whose
		 * acknowledgement has two) lands in between. */
		if
		:: LOAD_CS(IDLE, C_MAIN, R(C_MAIN, 0), A_removed, HID_READ,
			   irqs_off = 1); hoisted = 1
		:: skip
		fi;
#endif
		/* rcu/torture.c's reader: g0 and the lock with IRQs off. */
		atomic { LOAD(IDLE, C_MAIN, g0, A_rcu_ctrlblk_completed, 0);
			 irqs_off = 1 };
		__rcu_read_lock(IDLE, C_MAIN);
		if
		:: hoisted ->
			/* A tick may land before the second load: its
			 * acknowledgement lets the machine go on to the
			 * free, so the two stay apart. */
			atomic { irqs_off = 0; hoisted = 0 };
			LOAD_CS(IDLE, C_MAIN, R(C_MAIN, 1), A_freed,
				HID_READ_1, skip)
		:: else -> READER(C_MAIN, irqs_off = 0, skip)
		fi;
		rcupreempt_torture_gp_passed(IDLE, C_MAIN, g0, passed);
		assert(!passed);
		atomic { g0 = 0 };
		__rcu_read_unlock(IDLE, C_MAIN);
		i++
	od
}

proctype tick1()
{
	DECL_rcu_check_mb
	int t;

end:	do
	:: atomic { !irqs_off && OWED1 && DELIVERED -> in_irq = 1 };
		FLIP_ACK(IDLE, C_IRQ, LOAD, STORE, t);
		rcu_check_mb(IDLE, C_IRQ, IDLE);
		atomic { DELIVERED -> in_irq = 0 }
	od
}

proctype gp()
{
	DECL_rcu_try_flip
	DECL_rcu_check_mb
	int t;
	byte state = 0;		/* the machine's state before a try */
	short seen = 0;		/* CPU 0's rdp->completed */
	byte stage = 0;		/* changes of completed the callback saw */
	bit shouldexit;		/* CPU 1 stopped, owing nothing, at the try */
	short pmem[NLOC];	/* the machine's private fields */

	STORE(GPCPU, C_GP, A_removed, 1, HID_REMOVED);
	do
	:: rcu_check_mb(GPCPU, C_GP, GPCPU);
		atomic { LOAD(GPCPU, C_GP, t, A_rcu_ctrlblk_completed, 0);
			 LOAD(GPCPU, C_GP, state,
			      A_rcu_ctrlblk_rcu_try_flip_state, 0);
			 shouldexit = nohz_done && !OWED1 };
		if
		:: t == seen ->
			/* One step of the machine: the extracted
			 * rcu_try_flip(), its switch on the state. */
			rcu_try_flip(GPCPU, C_GP);
			/* Liveness: CPU 1 was done and owed nothing before
			 * this try, so it moves the machine on. */
			atomic { LOAD(GPCPU, C_GP, t,
				      A_rcu_ctrlblk_rcu_try_flip_state, 0);
				 assert(!shouldexit || t != state);
				 shouldexit = 0; state = 0; t = 0 }
		:: else -> shouldexit = 0; state = 0
		fi;
		/* __rcu_advance_callbacks(): one stage per change seen. */
		atomic { LOAD(GPCPU, C_GP, t, A_rcu_ctrlblk_completed, 0) };
		if
		:: t != seen -> seen = t; stage++
		:: else -> skip
		fi;
		t = 0;
		if
		:: stage > GP_STAGES -> break
		:: else -> skip
		fi;
		FLIP_ACK(GPCPU, C_GP, LOAD, STORE, t)
	od;
	/* rcu_process_callbacks() takes the list under rdp->lock (a full
	 * barrier on x86), then the callback frees the element. */
	MB(GPCPU, C_GP, 0);
	STORE(GPCPU, C_GP, A_freed, 1, HID_FREED)
}

init {
	atomic {
		/* Both CPUs busy: their dynticks counters odd. */
		mem[A_rcu_data_dynticks_progress_counter(GPCPU)] = 1;
		mem[A_rcu_data_dynticks_progress_counter(IDLE)] = 1;
		irq_done = 1;
		nmi_done = 1;
		START(MAX_DYNTICK_LOOP_NOHZ, reader, nohz_done);
		run tick1();
		run gp();
		START_MEMORY
	}
}
