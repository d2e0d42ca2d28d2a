/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Static keys: a branch whose direction is set at boot by rewriting the
 * instruction at each of its sites, so that the hot path loads nothing
 * to decide.  The names are Linux's (include/linux/jump_label.h); the
 * scope is smaller: a key starts false, can only be enabled, and only
 * while one CPU runs with interrupts off (before jump_label_seal(),
 * which kernel_main_late() calls just before the secondaries start), so
 * no CPU can be executing a site while its bytes change.
 *
 *	DEFINE_STATIC_KEY_FALSE(k);
 *	if (static_branch_unlikely(&k))	site: a 5-byte NOP until enabled
 *	if (static_branch_likely(&k))	site: a jump to the false side until
 *					enabled, then a NOP: the true side is
 *					the fall-through
 *
 * The arch (asm/jump_label.h) emits each site as 5 bytes, either a NOP
 * or a "jmp rel32", and records it as a struct jump_entry in the
 * __jump_table section; arch_jump_label_transform() rewrites a site.
 */
#ifndef KERNEL_JUMP_LABEL_H
#define KERNEL_JUMP_LABEL_H

#include "kernel/compiler.h"

struct static_key {
	int enabled;
};

/* A key that starts false; the type keeps a key from being misused. */
struct static_key_false {
	struct static_key key;
};

#define DEFINE_STATIC_KEY_FALSE(name)					\
	struct static_key_false name = { .key = { .enabled = 0 } }
#define DECLARE_STATIC_KEY_FALSE(name)					\
	extern struct static_key_false name

/* One site.  Absolute addresses: the kernel is linked where it runs. */
struct jump_entry {
	unsigned long code;	/* the site's first byte */
	unsigned long target;	/* where the jump form goes */
	unsigned long key;	/* struct static_key *, | JUMP_ENTRY_INIT_JUMP */
};
#define JUMP_ENTRY_INIT_JUMP	1UL	/* the site is built as a jump */

#include "asm/jump_label.h"

/*
 * arch_static_branch(key, init_jump) is true when the site jumps, and a
 * site jumps when the key's state differs from how it was built: a
 * NOP-built site once the key is on, a jump-built one while it is off.
 */
#define static_branch_unlikely(x)					\
	__builtin_expect(arch_static_branch(&(x)->key, false), 0)
#define static_branch_likely(x)						\
	__builtin_expect(!arch_static_branch(&(x)->key, true), 1)

/* The key's state, from memory: for slow paths and tests. */
static inline bool static_key_enabled(struct static_key_false *x)
{
	return READ_ONCE(x->key.enabled);
}

/*
 * Turn x on and rewrite every site of it.  Boot only: one CPU running,
 * interrupts off, before jump_label_seal(); asserted.
 */
void static_branch_enable(struct static_key_false *x);
/* No more rewriting: called just before the secondaries start. */
void jump_label_seal(void);

/* The table, for tests: every site the link put in __jump_table. */
const struct jump_entry *jump_label_entries(size_t *nr);

static inline struct static_key *jump_entry_key(const struct jump_entry *e)
{
	return (struct static_key *)(e->key & ~JUMP_ENTRY_INIT_JUMP);
}

/* Should the site jump, given its key's state now? */
static inline bool jump_entry_wants_jump(const struct jump_entry *e)
{
	return !!jump_entry_key(e)->enabled !=
	       !!(e->key & JUMP_ENTRY_INIT_JUMP);
}

#endif
