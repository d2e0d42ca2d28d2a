# model: dyntickRCU-unbounded.spin
# what: as R-irq-exit-counter-before-flag, on the abstract model
# suite: unbounded (make verify-unbounded runs it, bounded and unbounded)
/\/\* rcu_irq_exit() \*\//,/^stmt9_else:/{
s/EXECUTE_IRQ(rcu_update_flag = tmp - 1; tmp = 0)/EXECUTE_IRQ(tmp = 0)/
/:: rcu_update_flag == 0 -> skip;/{
s/== 0/== 1/
n
s/goto stmt9_else;/goto stmt9_dec;/
}
s/^stmt9_else:/stmt9_dec:\tEXECUTE_IRQ(rcu_update_flag = rcu_update_flag - 1)\nstmt9_else:/
}
