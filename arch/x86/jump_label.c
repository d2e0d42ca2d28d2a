// SPDX-License-Identifier: GPL-2.0
/*
 * Rewriting a static-key site (kernel/jump_label.h): 5 bytes, a NOP or a
 * "jmp rel32" to the entry's target.  Only while one CPU runs with
 * interrupts off (the caller asserts it), so the bytes can simply be
 * stored: no CPU can be fetching them.  Kernel text is mapped writable.
 */
#include "asm/arch.h"
#include "kernel/bug.h"
#include "kernel/jump_label.h"
#include "kernel/printk.h"
#include "kernel/string.h"

static const u8 jump_label_nop5[JUMP_LABEL_SIZE] = { JUMP_LABEL_NOP5 };

/* The jump form of e's site: e9, then the target relative to its end. */
static void jump_label_jmp(const struct jump_entry *e, u8 insn[])
{
	s32 rel = (s32)(e->target - (e->code + JUMP_LABEL_SIZE));

	insn[0] = JUMP_LABEL_JMP32;
	memcpy(&insn[1], &rel, sizeof(rel));
}

bool arch_jump_label_site_jumps(const struct jump_entry *e)
{
	const u8 *site = (const u8 *)e->code;
	u8 jmp[JUMP_LABEL_SIZE];

	jump_label_jmp(e, jmp);
	if (!memcmp(site, jmp, JUMP_LABEL_SIZE))
		return true;
	if (!memcmp(site, jump_label_nop5, JUMP_LABEL_SIZE))
		return false;
	/*
	 * Neither form: the site is not what the table says (a compiler
	 * that moved it, or a transform that wrote a wrong offset).
	 */
	panic("jump_label: site %p: bytes %02x %02x %02x %02x %02x are neither a NOP nor a jump to %p",
	      site, site[0], site[1], site[2], site[3], site[4],
	      (void *)e->target);
}

void arch_jump_label_transform(const struct jump_entry *e, bool jump)
{
	u8 insn[JUMP_LABEL_SIZE];
	u32 eax = 0, ebx, ecx = 0, edx;

	/* The site must be intact before we write: never patch garbage. */
	arch_jump_label_site_jumps(e);
	if (jump)
		jump_label_jmp(e, insn);
	else
		memcpy(insn, jump_label_nop5, JUMP_LABEL_SIZE);
	memcpy((void *)e->code, insn, JUMP_LABEL_SIZE);
	/*
	 * Serialise: instructions this CPU has already fetched past the
	 * site are discarded, so it runs the new bytes (what Linux's
	 * sync_core() does after text_poke_early()).
	 */
	__asm__ __volatile__("cpuid"
			     : "+a"(eax), "=b"(ebx), "+c"(ecx), "=d"(edx)
			     : : "memory");
}
