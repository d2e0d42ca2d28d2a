// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests: the checks and main().  Prints "N passed, N failed"
 * last and exits non-zero on any failure; an argument echoes the
 * simulated console.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tests/host/check.h"
#include "tests/host/shim.h"

const char *cur_test;
int n_pass, n_fail;

int check(int ok, int line, const char *expr, const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		n_pass++;
		return 1;
	}
	n_fail++;
	printf("FAIL %s (line %d): %s: ", cur_test, line, expr);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	return 0;
}

int count_substr(const char *s, const char *sub)
{
	int n = 0;

	while ((s = strstr(s, sub)) != NULL) {
		n++;
		s++;
	}
	return n;
}

int main(int argc, char **argv)
{
	(void)argv;
	shim_console_echo = argc > 1;
	host_test_dynticks();
	host_test_rcupreempt();
	host_test_rcupreempt_stall();
	host_test_rcupreempt_stats();
	host_test_segcblist();
	host_test_context_tracking();
	host_test_rcu_seq();
	host_test_time();
	printf("%d passed, %d failed\n", n_pass, n_fail);
	return n_fail ? 1 : 0;
}
