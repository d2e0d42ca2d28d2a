// SPDX-License-Identifier: GPL-2.0
/*
 * memset_edges: memset() stores whole words between an unaligned head
 * and tail (kernel/string.c), so every start alignment and every length
 * around a word is tried: each byte of the range must hold the value,
 * and each byte outside it must be as it was.  The value has its top bit
 * set, so a word built from a sign-extended byte (0xff in every byte
 * instead of 0xa5) or a word stored past the end both show.
 */
#include "kernel/string.h"
#include "tests/kernel/kernel/util.h"

#define STR_BUF		64
#define STR_GUARD	0x3c
#define STR_FILL	0xa5

KTEST(memset_edges)
{
	static u8 buf[STR_BUF] __attribute__((aligned(8)));
	int bad = 0;

	for (int off = 0; off <= 8 && !bad; off++) {
		for (int len = 0; len <= 3 * 8 + 1 && !bad; len++) {
			for (int i = 0; i < STR_BUF; i++)
				buf[i] = STR_GUARD;
			if (memset(buf + off, (s8)STR_FILL, len) != buf + off)
				return KT_EXPECT(0, "memset returned another pointer");
			for (int i = 0; i < STR_BUF && !bad; i++) {
				u8 want = i >= off && i < off + len ?
					  STR_FILL : STR_GUARD;

				bad |= KT_EXPECT(buf[i] == want,
						 "memset(buf+%d, 0x%x, %d): byte %d is 0x%x, want 0x%x",
						 off, STR_FILL, len, i, buf[i],
						 want);
			}
		}
	}
	return bad;
}
