# model: dyntickRCU-irqnn-ssl.spin
# what: rcu_irq_enter() increments the counter but not rcu_update_flag, so rcu_irq_exit() never makes the counter even again
/!in_interrupt \&\& (dynticks_progress_counter \& 1) == 0 ->/,/rcu_update_flag = tmp + 1;/s/rcu_update_flag = tmp + 1;/skip;/
