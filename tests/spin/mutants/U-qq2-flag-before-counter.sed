# model: dyntickRCU-unbounded.spin
# what: as R-qq2-flag-before-counter, on the abstract model
# suite: unbounded (make verify-unbounded runs it, bounded and unbounded)
/if (!in_interrupt() \&\& counter even)/,/^stmt2_else:/{
s/EXECUTE_IRQ(irq_load())/EXECUTE_IRQ(@A@)/
s/EXECUTE_IRQ(irq_store(1))/EXECUTE_IRQ(@B@)/
s/EXECUTE_IRQ(tmp = rcu_update_flag)/EXECUTE_IRQ(irq_load())/
s/EXECUTE_IRQ(rcu_update_flag = tmp; n_inc(rcu_update_flag); tmp = 0)/EXECUTE_IRQ(irq_store(1))/
s/@A@/tmp = rcu_update_flag/
s/@B@/rcu_update_flag = tmp; n_inc(rcu_update_flag); tmp = 0/
}
