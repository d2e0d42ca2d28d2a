/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Forced into rcu/tree/context_tracking.c, and only there, by host.mk
 * (-include): every READ_ONCE() and WRITE_ONCE() of context tracking is a
 * hook point where a test can inject a simulated NMI (tests/host/shim.c),
 * beside the reads of the CPU number that every this_ct() makes.  Then an
 * NMI can land between any two of its steps: between the counter's
 * atomic step and the nmi_nesting update it goes with, in particular,
 * where no CPU-number read falls.  The 2008 files keep their hook points
 * as they were (their tests count them).
 */
#ifndef TESTS_HOST_TREE_CT_HOOKS_H
#define TESTS_HOST_TREE_CT_HOOKS_H

#include "kernel/compiler.h"
#include "kernel/percpu.h"	/* shim_hook(), through the shim's asm/ */

#undef READ_ONCE
#undef WRITE_ONCE
#define READ_ONCE(x)	(shim_hook("READ_ONCE(" #x ")"),		\
			 *(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (shim_hook("WRITE_ONCE(" #x ")"),		\
			  *(volatile __typeof__(x) *)&(x) = (v))

#endif
