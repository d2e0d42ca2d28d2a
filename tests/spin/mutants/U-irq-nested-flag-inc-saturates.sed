# model: dyntickRCU-unbounded.spin
# what: as R-irq-nested-flag-inc-saturates, on the abstract model (a value kept relative to the depth is 2 or more, so it becomes 2)
# suite: unbounded (make verify-unbounded runs it, bounded and unbounded)
/Entry, then rcu_irq_enter()'s/,/^stmt1_else:/s/EXECUTE_IRQ(rcu_update_flag = tmp; n_inc(rcu_update_flag); tmp = 0)/EXECUTE_IRQ(rcu_update_flag = (tmp < 2 -> tmp + 1 : 2); tmp = 0)/
