# All three contexts.  x86 prints "INFO: NMI handler (...) took too long
# to run" for NMI readers on this 2-core host (1.0 to 15.5 ms: under TCG
# the time includes the host preempting the vCPU); the judge fails a run
# only at 250 ms or more (linux/judge-console.py, NMI_SLOW_MS).
rcutorture.stat_interval=10 rcutorture.test_no_idle_hz=1 rcutorture.gp_normal=1 rcutorture.gp_exp=1 rcutorture.eqs_readers=7
