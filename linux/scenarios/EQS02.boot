nohz_full=2-3 rcutorture.stat_interval=10 rcutorture.test_no_idle_hz=1 rcutorture.gp_normal=1 rcutorture.gp_exp=1 rcutorture.eqs_readers=7 rcutorture.tp_readers=1
