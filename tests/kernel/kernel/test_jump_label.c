// SPDX-License-Identifier: GPL-2.0
/*
 * Static keys (kernel/jump_label.h): every site in the table holds the
 * form its key's state asks for, byte for byte, each form of branch
 * reads as its key's state, and rcu_read_lock()'s key matches the
 * flavour that booted.  Run in both flavours' boots, so
 * each flavour's readers are shown to go through patched sites.
 */
#include "kernel/jump_label.h"
#include "kernel/sched.h"
#include "rcu/rcupdate.h"
#include "tests/kernel/kernel/util.h"

KTEST(jump_label_sites)
{
	size_t nr;
	const struct jump_entry *e = jump_label_entries(&nr);
	int bad = 0, rcu_sites = 0, jumping = 0, nesting;

	for (size_t i = 0; i < nr; i++) {
		/* Panics, naming the site, on bytes of neither form. */
		bool jumps = arch_jump_label_site_jumps(&e[i]);

		jumping += jumps;
		bad |= KT_EXPECT(jumps == jump_entry_wants_jump(&e[i]),
				 "site %p (key %p) %s", (void *)e[i].code,
				 (void *)jump_entry_key(&e[i]),
				 jumps ? "jumps" : "falls through");
		if (jump_entry_key(&e[i]) == &rcu_flavor_tree_key.key)
			rcu_sites++;
	}
	ktap_diag("%lu sites, %d of them jump; rcu_read_lock()/unlock(): %d sites, %s",
		  (unsigned long)nr, jumping, rcu_sites,
		  static_key_enabled(&rcu_flavor_tree_key) ?
		  "rcu=tree inline" : "a jump to rcupreempt's calls");
	/* Both read functions are inlined in many callers. */
	bad |= KT_EXPECT(rcu_sites >= 2, "only %d rcu_read_lock() sites",
			 rcu_sites);
	bad |= KT_EXPECT(static_key_enabled(&rcu_flavor_tree_key) ==
			 rcu_flavor_is_tree(), "key %d for rcu=%s",
			 static_key_enabled(&rcu_flavor_tree_key),
			 rcu_flavor_name());
	/*
	 * Each form's value, read through its own site, is its key's state:
	 * a likely site (built as a jump) and an unlikely one (built as a
	 * NOP), whichever way rcu= set the keys.
	 */
	bad |= KT_EXPECT(static_branch_likely(&rcu_flavor_tree_key) ==
			 static_key_enabled(&rcu_flavor_tree_key),
			 "static_branch_likely() says %d, the key %d",
			 (int)static_branch_likely(&rcu_flavor_tree_key),
			 static_key_enabled(&rcu_flavor_tree_key));
	bad |= KT_EXPECT(static_branch_unlikely(&rcu_tree_lock_delay_key) ==
			 static_key_enabled(&rcu_tree_lock_delay_key),
			 "static_branch_unlikely() says %d, the key %d",
			 (int)static_branch_unlikely(&rcu_tree_lock_delay_key),
			 static_key_enabled(&rcu_tree_lock_delay_key));
	/* A reader through a patched site is one (both flavours count). */
	preempt_disable();
	nesting = current->rcu_read_lock_nesting;
	rcu_read_lock();
	bad |= KT_EXPECT(current->rcu_read_lock_nesting == nesting + 1,
			 "nesting %d inside a reader, %d outside",
			 current->rcu_read_lock_nesting, nesting);
	rcu_read_unlock();
	bad |= KT_EXPECT(current->rcu_read_lock_nesting == nesting,
			 "nesting %d after the reader", nesting);
	preempt_enable();
	return bad;
}
