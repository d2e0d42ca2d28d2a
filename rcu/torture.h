/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The RCU torture test (rcu/torture.c), after Linux's rcutorture.  The
 * options are torture_* on the kernel command line; see docs/torture.md.
 */
#ifndef RCU_TORTURE_H
#define RCU_TORTURE_H

#include "kernel/types.h"

/*
 * Run one torture test with the command-line options and print its
 * rcutorture-style report.  Task context.  Returns 0 on SUCCESS.
 */
int rcu_torture_run(void);
/*
 * Will a torture run set the read-lock hook (torture_lock_delay_us)?
 * Known once the command line is parsed, for flavours that must decide
 * at boot whether their read side calls a hook at all.
 */
bool torture_lock_delay_wanted(void);

/*
 * rcu/torture_onoff.c, the CPU on/off thread.  torture_onoff_loop() is
 * its body until *stop; the rest are its statistics and verdict.
 */
bool torture_onoff_wanted(void);
void torture_onoff_reset(void);
void torture_onoff_loop(const int *stop);
u64 torture_onoff_cycles(void);
bool torture_onoff_enough(void);
bool torture_onoff_failed(void);
void torture_onoff_print(bool diag);

#endif
