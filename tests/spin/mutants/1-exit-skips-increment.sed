# model: dyntickRCU-base.spin
# what: rcu_exit_nohz() stores the counter back unincremented (base has only the WARN_ON checks)
0,/dynticks_progress_counter = tmp + 1;/s//dynticks_progress_counter = tmp;/
