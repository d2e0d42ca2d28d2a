# The series' own rcutorture scenario (configs/rcu/TREE11.boot), line for
# line, plus what the harness's judge needs: statistics every 10 s.
rcutorture.eqs_readers=7
rcutorture.eqs_interval_us=10000
rcutorture.eqs_hold_us=1000
rcutorture.stat_interval=10
