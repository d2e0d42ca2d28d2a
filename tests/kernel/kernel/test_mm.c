// SPDX-License-Identifier: GPL-2.0
/*
 * kmalloc_classes: a freed kmalloc() block goes back to its own size
 * class's list, and only there.  A 40-byte block freed and then a 16-byte
 * one asked for must not come back as the 16-byte one (it is in the
 * 64-byte class); asked for again at 40 bytes, it must (each list is last
 * in, first out).  IRQs stay off, so that nothing else on this CPU
 * allocates in between; another CPU could, so the check is made on a few
 * blocks and needs one of them to come back.
 *
 * kfree() once read the class after writing the free-list link over the
 * header, so it took the link's upper half (0) as the class: every block
 * went on the 32-byte class's list, linked to its own class's list, and
 * a block could be handed out twice.
 */
#include "kernel/irqflags.h"
#include "kernel/mm.h"
#include "tests/kernel/kernel/util.h"

#define MM_TRIES	8

KTEST(kmalloc_classes)
{
	void *big, *small, *again;
	unsigned long flags;
	int bad = 0, same = 0;

	for (int i = 0; i < MM_TRIES && !bad; i++) {
		local_irq_save(flags);
		big = kmalloc(40);
		kfree(big);
		small = kmalloc(16);
		again = kmalloc(40);
		local_irq_restore(flags);
		bad |= KT_EXPECT(big && small && again, "kmalloc failed");
		bad |= KT_EXPECT(small != big,
				 "a freed 40-byte block came back for 16 bytes: %p",
				 small);
		bad |= KT_EXPECT(kmalloc_block_size(small) == 32 &&
				 kmalloc_block_size(again) == 64,
				 "block sizes %zu and %zu, want 32 and 64",
				 kmalloc_block_size(small),
				 kmalloc_block_size(again));
		same += again == big;
		kfree(small);
		kfree(again);
	}
	bad |= KT_EXPECT(bad || same,
			 "a freed 40-byte block never came back for 40 bytes in %d tries",
			 MM_TRIES);
	return bad;
}

/*
 * kmalloc_cpu_lists: enough blocks of one class, taken and given back
 * with IRQs on as any thread does, that kmalloc() refills its CPU's list
 * from the shared one and kfree() drains it back several times over.
 * Every block must be distinct, zeroed when handed out, and keep what
 * was written to it until it is freed.  kmalloc() and kfree() trade with
 * the shared lists with IRQs off (they assert it): this CPU's IRQ
 * handlers use the same per-CPU list.
 */
#define MM_BLOCKS	200	/* over 6 times a CPU's KM_CPU_MAX */

KTEST(kmalloc_cpu_lists)
{
	static u64 *blk[2 * MM_BLOCKS];
	int bad = 0;

	/*
	 * Round 0 fills and drains the CPU's list; round 1 holds twice as
	 * many blocks at once, so it takes all the CPU's list holds and
	 * then refills from the shared list: a block left on both lists is
	 * handed out twice within the round.
	 */
	for (int round = 0, n = MM_BLOCKS; round < 2 && !bad;
	     round++, n *= 2) {
		for (int i = 0; i < n; i++) {
			blk[i] = kmalloc(48);
			if (!blk[i])
				return KT_EXPECT(0, "kmalloc(48) failed at %d", i);
			bad |= KT_EXPECT(blk[i][0] == 0 && blk[i][5] == 0,
					 "block %d handed out not zeroed", i);
			blk[i][0] = blk[i][5] = i + 1;
		}
		for (int i = 0; i < n && !bad; i++)
			bad |= KT_EXPECT(blk[i][0] == (u64)i + 1 &&
					 blk[i][5] == (u64)i + 1,
					 "block %d (%p) was handed out twice: it holds %lu",
					 i, blk[i], blk[i][0]);
		for (int i = 0; i < n; i++)
			kfree(blk[i]);
	}
	return bad;
}
