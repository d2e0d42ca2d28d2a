# arch: arm64
# HUNTA64 with arm64's polling idle loop (nohlt): arm64's default idle
# loop takes interrupts only after leaving the EQS, so there only NMI
# readers find one; polling, hardirq and softirq readers do too.
nohlt rcutorture.stat_interval=10 rcutorture.test_no_idle_hz=1 rcutorture.gp_normal=1 rcutorture.gp_exp=1 rcutorture.eqs_readers=7
