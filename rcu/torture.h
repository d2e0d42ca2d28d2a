/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The RCU torture test (rcu/torture.c), after Linux's rcutorture.  The
 * options are torture_* on the kernel command line; see docs/torture.md.
 */
#ifndef RCU_TORTURE_H
#define RCU_TORTURE_H

/*
 * Run one torture test with the command-line options and print its
 * rcutorture-style report.  Task context.  Returns 0 on SUCCESS.
 */
int rcu_torture_run(void);

#endif
