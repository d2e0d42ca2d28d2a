// SPDX-License-Identifier: GPL-2.0
/*
 * Static keys (kernel/jump_label.h): enabling a key rewrites its sites.
 * The table is unsorted and scanned whole: keys are enabled a handful of
 * times, once each, at boot.
 */
#include "asm/arch.h"
#include "kernel/bug.h"
#include "kernel/irqflags.h"
#include "kernel/jump_label.h"

extern const struct jump_entry __jump_table_start[], __jump_table_end[];

/* Set once the secondaries may run: from then on no site may change. */
static bool jump_label_sealed;

void jump_label_seal(void)
{
	jump_label_sealed = true;
}

const struct jump_entry *jump_label_entries(size_t *nr)
{
	*nr = __jump_table_end - __jump_table_start;
	return __jump_table_start;
}

void static_branch_enable(struct static_key_false *x)
{
	const struct jump_entry *e;

	/*
	 * Another CPU could be fetching a site while its 5 bytes change,
	 * and an interrupt handler on this one could run a half-written
	 * site: both are ruled out, not handled.
	 */
	BUG_ON(jump_label_sealed);
	BUG_ON(!irqs_disabled());
	if (x->key.enabled)
		return;
	x->key.enabled = 1;
	for (e = __jump_table_start; e < __jump_table_end; e++)
		if (jump_entry_key(e) == &x->key)
			arch_jump_label_transform(e, jump_entry_wants_jump(e));
}
