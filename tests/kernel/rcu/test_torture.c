// SPDX-License-Identifier: GPL-2.0
/*
 * rcu_torture: the RCU torture test (rcu/torture.c) as a KTAP test.  In
 * the default suite it runs torture_duration seconds (default 10) with the
 * default options; the torture-*.scn scenarios set longer runs and other
 * mixes on the command line.
 */
#include "kernel/ktap.h"
#include "rcu/torture.h"

KTEST_LONG(rcu_torture)
{
	return rcu_torture_run();
}
