# model: dyntickRCU-unbounded.spin
# what: as R-irq-nested-flag-inc-dropped, on the abstract model
# suite: unbounded (make verify-unbounded runs it, bounded and unbounded)
/Entry, then rcu_irq_enter()'s/,/^stmt1_else:/s/EXECUTE_IRQ(rcu_update_flag = tmp; n_inc(rcu_update_flag); tmp = 0)/EXECUTE_IRQ(tmp = 0)/
