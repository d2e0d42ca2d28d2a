# model: dyntickRCU-unbounded.spin
# what: as R-missing-update-flag-inc, on the abstract model
# suite: unbounded (make verify-unbounded runs it, bounded and unbounded)
/if (!in_interrupt() \&\& counter even)/,/^stmt2_else:/s/EXECUTE_IRQ(rcu_update_flag = tmp; n_inc(rcu_update_flag); tmp = 0)/EXECUTE_IRQ(tmp = 0)/
