# model: dyntickRCU-irq-nmi-ssl.spin
# what: interrupt's rcu_irq_enter() increments the counter but not rcu_update_flag
s/EXECUTE_IRQ(stmt2_4, rcu_update_flag = tmp + 1)/EXECUTE_IRQ(stmt2_4, skip)/
