# model: dyntickRCU-irqnn-ssl.spin
# what: rcu_irq_exit() leaves the outermost handler without incrementing the counter
/:: rcu_update_flag == 0 ->/,/dynticks_progress_counter = tmp + 1;/s/dynticks_progress_counter = tmp + 1;/dynticks_progress_counter = tmp;/
