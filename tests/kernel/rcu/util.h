/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers shared by the in-kernel RCU tests, both flavours. */
#ifndef TESTS_KERNEL_RCU_UTIL_H
#define TESTS_KERNEL_RCU_UTIL_H

/*
 * An online CPU other than ours and other than not (-1: none) that is in
 * the idle loop with RCU not watching it right now, or -1 if none is
 * found within about a second.
 */
int find_idle_cpu(int not);

#endif
