/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86 static-key sites (kernel/jump_label.h).  Each is exactly 5 bytes, a
 * 5-byte NOP or "jmp rel32", so that either form can replace the other
 * in place; the assembler must not shrink the jump to its 2-byte form,
 * hence the hand-written opcode.
 */
#ifndef ARCH_X86_JUMP_LABEL_H
#define ARCH_X86_JUMP_LABEL_H

#define JUMP_LABEL_NOP5		0x0f, 0x1f, 0x44, 0x00, 0x00	/* nopl 0(%rax,%rax) */
#define JUMP_LABEL_JMP32	0xe9				/* jmp rel32 */
#define JUMP_LABEL_SIZE		5

/* The table entry: the site, the jump's target, the key (| init form). */
#define __JUMP_TABLE_ENTRY(init)					\
	".pushsection __jump_table, \"a\"\n\t"				\
	".balign 8\n\t"							\
	".quad 1b, %l[l_yes], %c0 + " #init "\n\t"			\
	".popsection\n\t"

/*
 * True when the site jumps.  init_jump is a constant at every call (the
 * static_branch_*() macros), so one of the two asm gotos folds away.
 */
static __always_inline bool arch_static_branch(struct static_key *key,
					       bool init_jump)
{
	if (init_jump)
		asm goto("1: .byte 0xe9\n\t.long %l[l_yes] - 2f\n2:\n\t"
			 __JUMP_TABLE_ENTRY(1)
			 : : "i"(key) : : l_yes);
	else
		asm goto("1: .byte 0x0f, 0x1f, 0x44, 0x00, 0x00\n\t"
			 __JUMP_TABLE_ENTRY(0)
			 : : "i"(key) : : l_yes);
	return false;
l_yes:
	return true;
}

/* Rewrite e's site to jump (or not); arch/x86/jump_label.c. */
void arch_jump_label_transform(const struct jump_entry *e, bool jump);
/* Does e's site jump now?  Fails the boot on bytes of neither form. */
bool arch_jump_label_site_jumps(const struct jump_entry *e);

#endif
