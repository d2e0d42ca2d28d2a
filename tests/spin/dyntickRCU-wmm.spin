/*
 * Weak-memory model of rcu_exit_nohz()/rcu_enter_nohz() (the answer to
 * the article's Quick Quiz 5).  Promela is sequentially consistent, so
 * the article's models cannot tell where the mb() goes.  Here the
 * barrier-free accesses are modelled explicitly:
 *
 *   MM=0  sequential consistency: every access hits memory at once.
 *   MM=1  x86-TSO: the CPU's stores go through a store buffer, which
 *         drains to memory at any later moment; the CPU's own loads of
 *         the buffered location are forwarded from the buffer; mb()
 *         waits until the buffer is empty.  Loads are never delayed.
 *   MM=2  TSO plus load buffering: each load in the RCU read-side
 *         critical section may also be satisfied later, after a later
 *         store has become visible, but no later than the next mb().
 *
 * This file carries the patched barrier placement of the seed patch:
 *   rcu_exit_nohz():  ++counter; mb();
 *   rcu_enter_nohz(): mb(); ++counter;
 * The pre-patch placement is made from it by the sed scripts in wmm/.
 *
 * The reader CPU runs model 4's dyntick_nohz() loop, with an RCU reader
 * between exit and re-entry: it loads "removed" and then "freed".  The
 * grace-period CPU is the updater: it unlinks the element (removed = 1),
 * runs model 4's grace-period code, then frees it (freed = 1).  Safety:
 * a reader that still saw the element linked must not see it freed.
 * The grace-period CPU's own accesses are kept sequentially consistent:
 * the kernel orders them with the smp_mb()s in rcu_try_flip_*(), and the
 * question here is only where the idle CPU's barriers belong.
 *
 * Bounds may be overridden: spin -DMM=1 -DMAX_DYNTICK_LOOP_NOHZ=2 -a ...
 */

#ifndef MAX_DYNTICK_LOOP_NOHZ
#define MAX_DYNTICK_LOOP_NOHZ 2
#endif
#ifndef MM
#define MM 1
#endif

/* Memory. */
byte dynticks_progress_counter = 0;
bit removed = 0;
bit freed = 0;

/* The reader CPU's store buffer: one entry, for the counter. */
bit sb_full = 0;
byte sb_val = 0;

/* The reader's loads that have been issued but not yet satisfied. */
bit pend_removed = 0;
bit pend_freed = 0;

/* What the reader's critical section saw, and how many loads are done. */
bit r_removed = 0;
bit r_freed = 0;
byte cs_loads = 0;

bit dyntick_nohz_done = 0;

/*
 * A store waits for the one buffer entry to be free.  One entry is
 * enough: the reader's only stores are the counter increments, and its
 * critical section lies between two of them.
 */
#if MM == 0
#define STORE_CTR(v)	dynticks_progress_counter = (v)
#else
#define STORE_CTR(v)	atomic { !sb_full -> sb_val = (v); sb_full = 1 }
#endif

/* Store-to-load forwarding: the CPU sees its own buffered store. */
#define LOAD_CTR(t) \
	atomic { \
		if \
		:: sb_full -> t = sb_val; \
		:: else -> t = dynticks_progress_counter; \
		fi; \
	}

/* mb(): wait for the store buffer to drain and pending loads to land. */
#define MB()	atomic { !sb_full && !pend_removed && !pend_freed -> skip }

/* Once both loads of a critical section have their values, check them. */
#define CS_CHECK \
	cs_loads++; \
	assert(cs_loads < 2 || !(r_removed == 0 && r_freed == 1))

#if MM == 2
#define LOAD_CS(reg, var, pend) \
	if \
	:: atomic { reg = var; CS_CHECK } \
	:: pend = 1	/* satisfied later, by memory_system() */ \
	fi
#else
#define LOAD_CS(reg, var, pend)	atomic { reg = var; CS_CHECK }
#endif

proctype dyntick_nohz()
{
	byte tmp;
	byte i = 0;

	do
	:: i >= MAX_DYNTICK_LOOP_NOHZ -> break;
	:: i < MAX_DYNTICK_LOOP_NOHZ ->
		/* C: rcu_exit_nohz */
		/* rcu_exit_nohz() */
		LOAD_CTR(tmp);
		STORE_CTR(tmp + 1);
		MB();	/* exit: CPUs seeing ++ must see subsequent crit sects */
		LOAD_CTR(tmp);
		assert((tmp & 1) == 1);
		/* C: end */

		/* An RCU read-side critical section. */
		cs_loads = 0;
		LOAD_CS(r_removed, removed, pend_removed);
		LOAD_CS(r_freed, freed, pend_freed);

		/* C: rcu_enter_nohz */
		/* rcu_enter_nohz() */
		MB();	/* enter: CPUs seeing ++ must see prior crit sects */
		LOAD_CTR(tmp);
		STORE_CTR(tmp + 1);
		LOAD_CTR(tmp);
		assert((tmp & 1) == 0);
		/* C: end */
		i++;
	od;
	/*
	 * Buffers drain eventually; wait for that so that the liveness
	 * check below does not fire on a store that is merely late.
	 */
	MB();
	dyntick_nohz_done = 1;
}

#if MM != 0
/*
 * The reader CPU's memory system: drains the store buffer and satisfies
 * deferred loads, each at an arbitrary moment.
 */
proctype memory_system()
{
end:	do
	:: atomic { sb_full -> dynticks_progress_counter = sb_val; sb_full = 0 }
	:: atomic { pend_removed -> r_removed = removed; pend_removed = 0;
		    CS_CHECK }
	:: atomic { pend_freed -> r_freed = freed; pend_freed = 0; CS_CHECK }
	od
}
#endif

/* The updater: unlink, wait for a grace period (model 4), free. */
proctype grace_period()
{
	byte curr;
	byte snap;
	bit shouldexit;

	removed = 1;
	atomic {
		printf("MM = %d, MAX_DYNTICK_LOOP_NOHZ = %d\n", MM,
		       MAX_DYNTICK_LOOP_NOHZ);
		shouldexit = 0;
		/* C: dyntick_save_progress_counter */
		snap = dynticks_progress_counter;
		/* C: end */
	}
	/* C: rcu_try_flip_waitack_needed */
	/* rcu_try_flip_waitack() / rcu_try_flip_waitack_needed() */
	do
	:: 1 ->
		atomic {
			assert(!shouldexit);
			shouldexit = dyntick_nohz_done;
			curr = dynticks_progress_counter;
			if
			:: (curr == snap) && ((curr & 1) == 0) ->
				break;
			:: (curr - snap) > 2 || (curr & 1) == 0 ->
				break;
			:: else -> skip;
			fi;
		}
	od;
	/* C: end */
	atomic {
		shouldexit = 0;
		/* C: dyntick_save_progress_counter */
		snap = dynticks_progress_counter;
		/* C: end */
	}
	/* C: rcu_try_flip_waitmb_needed */
	/* rcu_try_flip_waitmb() / rcu_try_flip_waitmb_needed() */
	do
	:: 1 ->
		atomic {
			assert(!shouldexit);
			shouldexit = dyntick_nohz_done;
			curr = dynticks_progress_counter;
			if
			:: (curr == snap) && ((curr & 1) == 0) ->
				break;
			:: (curr != snap) ->
				break;
			:: else -> skip;
			fi;
		}
	od;
	/* C: end */
	freed = 1;
}

init {
	atomic {
		run dyntick_nohz();
#if MM != 0
		run memory_system();
#endif
		run grace_period();
	}
}
