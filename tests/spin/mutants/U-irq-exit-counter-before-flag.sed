# model: dyntickRCU-unbounded.spin
# what: as R-irq-exit-counter-before-flag, on the abstract model
# note: its "== 1" reads a value kept relative to the depth as not 1, exact below NEST_TOP only; it is caught below it
# suite: unbounded (make verify-unbounded runs it, bounded and unbounded)
/\/\* rcu_irq_exit() \*\//,/^stmt9_else:/{
s/EXECUTE_IRQ(rcu_update_flag = tmp; n_dec(rcu_update_flag); tmp = 0)/EXECUTE_IRQ(tmp = 0)/
/:: rcu_update_flag == 0 -> skip;/{
s/== 0/== 1/
n
s/goto stmt9_else;/goto stmt9_dec;/
}
s/^stmt9_else:/stmt9_dec:\tEXECUTE_IRQ(n_dec(rcu_update_flag))\nstmt9_else:/
}
