# HUNTRT's kernel with the polling idle loop: IPI functions, the series'
# hardirq readers among them, run from the idle task's
# flush_smp_call_function_queue(), where PREEMPT_RT warns once if they
# raise a softirq other than SCHED_SOFTIRQ.
idle=poll rcutorture.stat_interval=10 rcutorture.test_no_idle_hz=1 rcutorture.gp_normal=1 rcutorture.gp_exp=1 rcutorture.eqs_readers=7
