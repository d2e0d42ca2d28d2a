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
