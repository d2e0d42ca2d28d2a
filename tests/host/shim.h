/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Control interface of the host shim (tests/host/shim.c) for the unit
 * tests: simulated CPUs, simulated NMIs injected at hook points, captured
 * console output, a settable clock, softirqs run on demand.
 */
#ifndef TESTS_HOST_SHIM_H
#define TESTS_HOST_SHIM_H

#include "kernel/types.h"

struct task;
struct completion;

extern int shim_cpu;

/* Simulated NMI: run fn at the countdown-th hook point from now. */
void shim_nmi_arm(int countdown, void (*fn)(void));
void shim_nmi_disarm(void);
/* Where the last armed NMI fired, or NULL if it has not. */
extern const char *shim_nmi_fired_at;
extern int shim_in_nmi;
/* Number of hook points passed since the counter was last cleared. */
extern long shim_hook_count;

/* smp_mb() executions, total. */
extern long shim_mb_count;
/* If set, called at every smp_mb() outside simulated NMIs. */
extern void (*shim_mb_probe)(void);

/* WARN()s seen, kernel_mark_failed() calls, and the last WARN text. */
extern int shim_warn_count;
extern int shim_failed_count;
extern char shim_last_warn[512];

/* Console capture. */
void shim_console_clear(void);
const char *shim_console(void);
extern int shim_console_echo;

/* Clock. */
extern u64 shim_now_ns;

/* Softirqs. */
int shim_softirq_pending(int cpu);
void shim_run_softirqs(int cpu);

/* Task list seen by sched_for_each_task(). */
void shim_register_task(struct task *t);
void shim_reset_tasks(void);

/* Called by wait_for_completion() until the completion is done. */
extern void (*shim_wait_driver)(void);
/* wait_for_completion() calls that gave up (driver made no progress). */
extern int shim_wait_timeouts;

/* Make t the task running on cpu. */
void shim_set_current(int cpu, struct task *t);

/* Reset per-CPU simulated state (IF flags, preempt counts). */
void shim_reset(unsigned int ncpus);

#endif
