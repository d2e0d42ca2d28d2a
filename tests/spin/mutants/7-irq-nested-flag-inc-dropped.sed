# model: dyntickRCU-irq-nmi-ssl.spin
# what: the interrupt's rcu_irq_enter() drops "if (rcu_update_flag) rcu_update_flag++": a nested entry does not count itself, so the inner exit takes rcu_update_flag to 0 and steps the counter while the outer handler still runs
s/EXECUTE_IRQ(stmt1_2, rcu_update_flag = tmp + 1)/EXECUTE_IRQ(stmt1_2, skip)/
