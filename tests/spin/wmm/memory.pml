/*
 * The memory models of the extracted models (docs/spin-extractor.md):
 * dyntickRCU-wmm.spin's macros, generalised from its one counter to
 * every shared location, and from its one CPU to NCPU of them.
 *
 *   MM=0  sequential consistency: every access hits mem[] at once.
 *   MM=1  x86-TSO: a CPU's stores go into its FIFO store buffer (SB
 *         entries), which memory_system() drains, oldest first, at any
 *         later moment; the CPU's loads are forwarded from its own
 *         newest buffered store to the same address; MB() and every
 *         atomic read-modify-write wait until the buffer is empty (a
 *         locked instruction drains it).  Loads are never delayed.
 *   MM=2  TSO plus load buffering: a load the harness marks deferrable
 *         (LOAD_CS(), the readers' critical sections) may be issued and
 *         satisfied later, after later stores of its CPU have become
 *         visible, but no later than the CPU's next MB(), RMB() or
 *         atomic read-modify-write.
 *
 * The harness, included before this file, defines NCPU, NLOC, CAN_RUN(c,
 * x) (may context x of CPU c run now?), NREG (the deferrable loads'
 * registers), REG_CPU(r) (whose CPU each register is) and
 * LOADED(r) (what to do once register r holds its value).  The
 * extracted inlines call LOAD/STORE/RMW_ADD/MB/RMB/WMB; every step's
 * last argument is its id in the source map, which only the replay's
 * printf()s use: the ids live in hidden variables, outside the state.
 *
 * Replay events (printf, read by tests/spin/extract.py):
 *   MM store C ID       a store enters CPU C's buffer (program order)
 *   MM visible C ID     it reaches memory
 *   MM load C ID        a load of CPU C reads memory, not its buffer
 *   MM defer C ID       a deferrable load is left pending (MM=2)
 *   MM satisfy C ID     the pending load reads memory now
 */

#ifndef MM
#define MM	0
#endif
/*
 * Store-buffer entries per CPU: a store that finds them full waits for
 * the oldest to drain (a bound of the model; x86 has dozens).  Four hold
 * every run of stores between two barriers in the extracted code up to
 * its reader's loads (ct_idle_exit()'s, then the reader's count: with
 * two, the buffer's filling up drained the counter's step before the
 * reader loaded, and a missing barrier went unseen).
 */
#ifndef SB
#define SB	4
#endif

short mem[NLOC];
hidden byte mem_id[NLOC];

#if MM != 0
byte sb_n[NCPU];
byte sb_a[NCPU * SB];
short sb_v[NCPU * SB];
hidden byte sb_id[NCPU * SB];
hidden byte sb_k;	/* a loop index inside one atomic step */
hidden byte sb_hit;
#define SLOT(c, k)	((c) * SB + (k))
#define SB_EMPTY(c)	(sb_n[c] == 0)
#else
#define SB_EMPTY(c)	1
#endif

/* The deferrable loads (MM=2): pending, and from where. */
bit pend[NREG];
byte pend_a[NREG];
short reg[NREG];
byte pend_n[NCPU];
hidden byte pend_id[NREG];
#define NO_PENDING(c)	(pend_n[c] == 0)

/* A barrier may run once CPU c's buffer is empty and no load pending. */
#define QUIET(c)	(SB_EMPTY(c) && NO_PENDING(c))

#if MM == 0

#define LOAD(c, x, d, a, id) \
	atomic { CAN_RUN(c, x) -> d = mem[a] }
#define STORE(c, x, a, v, id) \
	atomic { CAN_RUN(c, x) -> mem[a] = (v); \
		 printf("MM store %d %d\n", c, id); \
		 printf("MM visible %d %d\n", c, id) }

#else

/* The newest buffered store of CPU c to address a, else memory. */
#define LOAD(c, x, d, a, id) \
	atomic { CAN_RUN(c, x) -> \
		sb_k = sb_n[c]; sb_hit = 0; \
		do \
		:: sb_k > 0 && !sb_hit -> sb_k--; \
			if \
			:: sb_a[SLOT(c, sb_k)] == (a) -> \
				d = sb_v[SLOT(c, sb_k)]; sb_hit = 1 \
			:: else -> skip \
			fi \
		:: else -> break \
		od; \
		if \
		:: !sb_hit -> d = mem[a]; printf("MM load %d %d\n", c, id) \
		:: else -> skip \
		fi; \
		sb_k = 0; sb_hit = 0 }
#define STORE(c, x, a, v, id) \
	atomic { CAN_RUN(c, x) && sb_n[c] < SB -> \
		 sb_a[SLOT(c, sb_n[c])] = (a); \
		 sb_v[SLOT(c, sb_n[c])] = (v); \
		 sb_id[SLOT(c, sb_n[c])] = (id); \
		 sb_n[c]++; \
		 printf("MM store %d %d\n", c, id) }
/* memory_system(): CPU c's oldest buffered store reaches memory. */
#define DRAIN(c) \
	atomic { sb_n[c] > 0 -> \
		 mem[sb_a[SLOT(c, 0)]] = sb_v[SLOT(c, 0)]; \
		 printf("MM visible %d %d\n", c, sb_id[SLOT(c, 0)]); \
		 sb_k = 1; \
		 do \
		 :: sb_k < sb_n[c] -> \
			sb_a[SLOT(c, sb_k - 1)] = sb_a[SLOT(c, sb_k)]; \
			sb_v[SLOT(c, sb_k - 1)] = sb_v[SLOT(c, sb_k)]; \
			sb_id[SLOT(c, sb_k - 1)] = sb_id[SLOT(c, sb_k)]; \
			sb_k++ \
		 :: else -> break \
		 od; \
		 sb_n[c]--; \
		 sb_a[SLOT(c, sb_n[c])] = 0; \
		 sb_v[SLOT(c, sb_n[c])] = 0; \
		 sb_k = 0 }

#endif

/* smp_mb(): the store buffer drained, no load pending. */
#define MB(c, x, id)	atomic { CAN_RUN(c, x) && QUIET(c) -> skip }
/* smp_rmb(): loads in order (only deferred loads could pass). */
#define RMB(c, x, id)	atomic { CAN_RUN(c, x) && NO_PENDING(c) -> skip }
/* smp_wmb(): stores leave the buffer in order anyway. */
#define WMB(c, x, id)	atomic { CAN_RUN(c, x) -> skip }
/*
 * barrier(): a compiler barrier.  The models never reorder one
 * context's accesses at compile time (each is a step, in program
 * order; tools/extract refuses plain accesses to fields the code also
 * marks, whose order the compiler would not keep), so it orders
 * nothing more here: a step of the source map, joined to the one
 * before it.
 */
#define CBARRIER(c, x, id)	skip
/* A locked read-modify-write: a full barrier on x86, whatever its C
 * memory order; d gets the new value. */
#define RMW_ADD(c, x, d, a, v, id) \
	atomic { CAN_RUN(c, x) && QUIET(c) -> \
		 mem[a] = mem[a] + (v); d = mem[a]; \
		 printf("MM store %d %d\n", c, id); \
		 printf("MM visible %d %d\n", c, id) }

/*
 * A location the spec calls private to context o: only o ever touches
 * it, so its accesses commute with every other process's steps and join
 * the step before them (Lipton); the assertion checks the claim.  It
 * lives in the owner's own array, pmem[] (a local of the owner's
 * proctype, which Spin's partial-order reduction then knows is private
 * too), and its stores skip the store buffer: no one else reads them.
 */
#define LOADP(c, x, d, a, o)	assert((x) == (o)); d = pmem[a]
#define STOREP(c, x, a, v, o)	assert((x) == (o)); pmem[a] = (v)

/*
 * A location the spec says only context o writes (sole_writer): o's
 * loads of it join the step before them, as nothing another process
 * does changes what they read; the assertions check the claim.
 */
#define LOAD_OWN(c, x, d, a, id, o)	assert((x) == (o)); LOAD(c, x, d, a, id)
#define STORE_OWN(c, x, a, v, id, o) \
	assert((x) == (o)); STORE(c, x, a, v, id)

/*
 * A critical section's load into register r: at once, or (MM=2) left
 * pending for memory_system() to satisfy; also, a statement of the
 * harness's that joins the step.  The readers store nothing to what
 * they read, so a late load reads memory, never the buffer.
 */
#if MM == 2
#define LOAD_CS(c, x, r, a, id, also) \
	if \
	:: atomic { LOAD(c, x, reg[r], a, id); LOADED(r); also } \
	:: atomic { CAN_RUN(c, x) -> pend[r] = 1; pend_a[r] = (a); \
		    pend_id[r] = (id); pend_n[c]++; \
		    printf("MM defer %d %d\n", c, id); also } \
	fi
/* memory_system(): satisfy pending load r. */
#define SATISFY(r) \
	atomic { pend[r] -> reg[r] = mem[pend_a[r]]; pend[r] = 0; \
		 pend_a[r] = 0; pend_n[REG_CPU(r)]--; \
		 printf("MM satisfy %d %d\n", REG_CPU(r), pend_id[r]); \
		 LOADED(r) }
#else
#define LOAD_CS(c, x, r, a, id, also) \
	atomic { LOAD(c, x, reg[r], a, id); LOADED(r); also }
#define SATISFY(r)	false
#endif
