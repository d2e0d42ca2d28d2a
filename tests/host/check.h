/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host unit tests' checks and suites.  Each test file under
 * tests/host/{kernel,rcu,rcupreempt,tree}/ (mirroring the code's rooms)
 * exports one suite, declared here; main.c runs them all.  Simulated CPUs
 * run one at a time (tests/host/shim.h).
 */
#ifndef TESTS_HOST_CHECK_H
#define TESTS_HOST_CHECK_H

/* The test running now, named in each FAIL line. */
extern const char *cur_test;
extern int n_pass, n_fail;

/* Count one check; print a FAIL line (the message's format) if !ok. */
__attribute__((format(printf, 4, 5)))
int check(int ok, int line, const char *expr, const char *fmt, ...);
#define CHECK(cond, ...) check(!!(cond), __LINE__, #cond, __VA_ARGS__)

/* How many times sub occurs in s (console lines, say). */
int count_substr(const char *s, const char *sub);

/* kernel/ */
void host_test_time(void);		/* kernel/time.h conversions */
/* rcu/ (shared) */
void host_test_rcu_seq(void);		/* rcu/rcu.h gp_seq helpers */
/* rcu/rcupreempt/ */
void host_test_dynticks(void);		/* dynticks.c, NMIs included */
void host_test_rcupreempt(void);	/* the flip machine, callbacks */
void host_test_rcupreempt_stall(void);
void host_test_rcupreempt_stats(void);
/* rcu/tree/ */
void host_test_segcblist(void);
void host_test_context_tracking(void);	/* NMIs between every step */

#endif
