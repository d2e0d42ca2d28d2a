# model: dyntickRCU-irq-nmi-ssl.spin
# what: the interrupt's rcu_irq_exit() steps the counter when rcu_update_flag is 1, then decrements the flag; an NMI between the two finds the counter even and the flag set, steps the counter on entry and not on exit, so the CPU looks busy in idle (a window mutant)
# survives: NMI=0
s/EXECUTE_IRQ(stmt9_2, rcu_update_flag = tmp - 1)/EXECUTE_IRQ(stmt9_2, skip)/
/^stmt9_3:/,/^stmt9_3_then:/s/:: !in_dyntick_nmi \&\& rcu_update_flag == 0 ->/:: !in_dyntick_nmi \&\& rcu_update_flag == 1 ->/
/^stmt9_3_else:$/a\
		EXECUTE_IRQ(stmt9_4, rcu_update_flag = rcu_update_flag - 1)
