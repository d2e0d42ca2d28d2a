# model: dyntickRCU-base.spin
# what: rcu_enter_nohz() adds 2
/rcu_enter_nohz() \*\//,/dynticks_progress_counter = tmp + 1;/s/tmp + 1;/tmp + 2;/
