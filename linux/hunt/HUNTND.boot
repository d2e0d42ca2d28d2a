rcutorture.stat_interval=60 rcutorture.test_no_idle_hz=1 rcutorture.gp_normal=1 rcutorture.gp_exp=1 rcutorture.eqs_readers=7 rcutorture.onoff_interval=200 rcutorture.onoff_holdoff=2
