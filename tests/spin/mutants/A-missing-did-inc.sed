# model: dyntickRCU-atomic.spin
# what: interrupt entry increments but does not record it, so its exit never undoes it (the analogue of the missing rcu_update_flag increment)
s/did_inc\[i - j\] = 1;/skip;/
