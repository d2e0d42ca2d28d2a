# model: dyntickRCU-unbounded.spin
# what: as R-qq2-flag-before-counter, on the abstract model
# suite: unbounded (make verify-unbounded runs it, bounded and unbounded)
/if (!in_interrupt() \&\& counter even)/,/^stmt2_else:/{
s/EXECUTE_IRQ(ctr_load(irq_cd, irq_cp))/EXECUTE_IRQ(@A@)/
s/EXECUTE_IRQ(ctr_store_inc(irq_cd, irq_cp))/EXECUTE_IRQ(@B@)/
s/EXECUTE_IRQ(tmp = rcu_update_flag)/EXECUTE_IRQ(ctr_load(irq_cd, irq_cp))/
s/EXECUTE_IRQ(rcu_update_flag = tmp + 1; tmp = 0)/EXECUTE_IRQ(ctr_store_inc(irq_cd, irq_cp))/
s/@A@/tmp = rcu_update_flag/
s/@B@/rcu_update_flag = tmp + 1; tmp = 0/
}
