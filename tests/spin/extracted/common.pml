/*
 * What the harnesses of the extracted models share
 * (docs/spin-extracted.md): CPU 1 is the idle CPU of the article's
 * models, whose contexts are its idle task (mainline), an interrupt
 * handler and an NMI handler; CPU 0 runs the grace period (and, but in
 * poll612.pml, the updater); CPU 2, if any, is another busy CPU.  A
 * harness defines GEN (its generated inlines' file name) and the
 * macros those inlines use that are its own, includes its generated
 * layout, then this file, which includes the memory model and then the
 * inlines (cpp expands their macros where they stand, so everything
 * they use comes first).
 */

#ifndef MAX_DYNTICK_LOOP_NOHZ
#define MAX_DYNTICK_LOOP_NOHZ	1
#endif
#ifndef MAX_DYNTICK_LOOP_IRQ
#define MAX_DYNTICK_LOOP_IRQ	1
#endif
#ifndef MAX_DYNTICK_LOOP_NMI
#define MAX_DYNTICK_LOOP_NMI	1
#endif

/*
 * The element the readers look at, after the extracted locations; then
 * H_NLOC locations a harness keeps for itself (a field it writes that a
 * mutant's code no longer touches, and so the layout left out).
 */
#ifndef H_NLOC
#define H_NLOC		0
#endif
#define A_removed	(EX_NLOC)
#define A_freed		(EX_NLOC + 1)
#define NLOC		(EX_NLOC + 2 + H_NLOC)

/* The harness's own accesses, as the replay names them. */
#define HID_REMOVED	200	/* the updater unlinks the element */
#define HID_FREED	201	/* the element is freed */
#define HID_READ	210	/* mainline's reader: its load of removed */
#define HID_READ_1	211	/* mainline's reader: its load of freed */
#define HID_READ_2	212	/* the interrupt's reader: load of removed */
#define HID_READ_3	213	/* the interrupt's reader: load of freed */
#define HID_READ_4	214	/* the NMI's reader: its load of removed */
#define HID_READ_5	215	/* the NMI's reader: its load of freed */

/* The readers' registers: context x's load of removed, then of freed. */
#define NREG		6
#define R(x, k)		((x) * 2 + (k))
#define REG_CPU(r)	IDLE

bit in_irq;		/* CPU 1 is in its interrupt handler */
bit in_nmi;		/* CPU 1 is in its NMI handler */
bit irqs_off;		/* CPU 1's mainline has IRQs off */
bit got[NREG];		/* register r holds its value */
bit nohz_done, irq_done, nmi_done;
#ifndef STOPPED
#define STOPPED		(nohz_done && irq_done && nmi_done)
#endif

/* An NMI runs whatever it interrupted; an interrupt, mainline; the
 * contexts from C_GP on are other CPUs'. */
#define CAN_RUN(c, x) \
	((x) >= C_GP || (x) == C_NMI || ((x) == C_IRQ && !in_nmi) || \
	 ((x) == C_MAIN && !in_irq && !in_nmi))
#define IRQS_DISABLED(c, x)	((x) != C_MAIN || irqs_off)

/* Once both loads of context x's reader have their values, check. */
#define CHECK(x) \
	if \
	:: got[R(x, 0)] && got[R(x, 1)] -> \
		assert(!(reg[R(x, 0)] == 0 && reg[R(x, 1)] == 1)); \
		reg[R(x, 0)] = 0; reg[R(x, 1)] = 0; \
		got[R(x, 0)] = 0; got[R(x, 1)] = 0 \
	:: else -> skip \
	fi
#define LOADED(r)	got[r] = 1; CHECK((r) / 2)

#include "memory.pml"
#include GEN

/*
 * x86 drains the store buffer when an interrupt or exception is
 * generated, and IRET is serializing (Intel SDM vol. 3A, 11.10 "Store
 * Buffer", and 8.3): a handler starts and ends with CPU 1's buffer
 * empty.  DELIVERY_DRAINS=0 models hardware that does not.
 */
#ifndef DELIVERY_DRAINS
#define DELIVERY_DRAINS	1
#endif
#if DELIVERY_DRAINS
#define DELIVERED	QUIET(IDLE)
#else
#define DELIVERED	1
#endif

/*
 * A read-side critical section of context x: removed, then freed; pro
 * joins the first load's step, epi the second's.  That drops the window
 * between the statement and the load, which is sound (Lipton) only if
 * an interrupt landing there could not let another process store what
 * the load reads.  dynticks2008's interrupts acknowledge nothing (there
 * is no tick there, and on a busy CPU its hooks store nothing CPU 0
 * reads), so mainline's IRQ enable and disable join both loads.
 * flip2008's tick acknowledges flips, which lets the machine go on to
 * the free: its enable joins only the load of removed (stored before
 * any flip), never the load of freed.
 */
#define READER(x, pro, epi)	READER_MID(x, pro, skip, epi)
/* The same, with mid between the two loads. */
#define READER_MID(x, pro, mid, epi) \
	LOAD_CS(IDLE, x, R(x, 0), A_removed, HID_READ + 2 * (x), pro); \
	mid; \
	LOAD_CS(IDLE, x, R(x, 1), A_freed, HID_READ + 2 * (x) + 1, epi)

/*
 * A process's last step waits for CPU 1's store buffer to drain (stores
 * do drain, eventually), so that liveness is not judged on a store that
 * is merely late; a process with nothing to do is not started at all,
 * its last step would only add interleavings.
 */
#define FINISH(bound, x, done) \
	:: atomic { i >= bound && CAN_RUN(IDLE, x) && QUIET(IDLE) -> \
		    done = 1 }; break

#define START(bound, proc, done) \
	if \
	:: bound > 0 -> run proc() \
	:: else -> done = 1 \
	fi

/*
 * The flip acknowledgement of __rcu_advance_callbacks() (2008), written
 * out here because the rest of that function (the callback lists) is
 * not extracted: if CPU c's rcu_flip_flag says rcu_flipped (1), mb,
 * store rcu_flip_seen (0), mb.  load and store are LOAD and STORE, or
 * LOADP and STOREP where the flag is the caller's own; t is a scratch
 * variable; what the id arguments would be, the extracted source map
 * does not cover (0).
 */
#define FLIP_ACK(c, x, load, store, t) \
	atomic { load(c, x, t, A_rcu_data_rcu_flip_flag(c), 0) }; \
	if \
	:: t == 1 -> \
		MB(c, x, 0); \
		atomic { store(c, x, A_rcu_data_rcu_flip_flag(c), 0, 0) }; \
		MB(c, x, 0) \
	:: else -> skip \
	fi; \
	t = 0

#if MM != 0
proctype memory_system()
{
end:	do
	:: DRAIN(0)
	:: DRAIN(1)
#if NCPU > 2
	:: DRAIN(2)
#endif
	:: SATISFY(0)
	:: SATISFY(1)
	:: SATISFY(2)
	:: SATISFY(3)
	:: SATISFY(4)
	:: SATISFY(5)
	od
}
#define START_MEMORY	run memory_system()
#else
#define START_MEMORY	skip
#endif
