# arch: arm64
# EQS01's kernel configuration and readers (hardirq, softirq, pseudo-NMI)
# on arm64: the fragment is EQS01's, so the build is the arm64 tree's own.
rcutorture.stat_interval=10 rcutorture.test_no_idle_hz=1 rcutorture.gp_normal=1 rcutorture.gp_exp=1 rcutorture.eqs_readers=7
