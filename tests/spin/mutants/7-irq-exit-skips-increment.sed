# model: dyntickRCU-irq-nmi-ssl.spin
# what: interrupt's rcu_irq_exit() leaves the outermost handler without incrementing the counter
s/EXECUTE_IRQ(stmt9_3_2, dynticks_progress_counter = tmp + 1)/EXECUTE_IRQ(stmt9_3_2, dynticks_progress_counter = tmp)/
