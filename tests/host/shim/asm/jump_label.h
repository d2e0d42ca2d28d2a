/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim for arch/x86/include/asm/jump_label.h: no code is rewritten
 * on the host, so a site tests its key in memory; it jumps exactly when
 * the x86 site would (the key's state differs from how it was built).
 */
#ifndef ARCH_X86_JUMP_LABEL_H
#define ARCH_X86_JUMP_LABEL_H

static inline bool arch_static_branch(struct static_key *key, bool init_jump)
{
	return !!READ_ONCE(key->enabled) != init_jump;
}

#endif
