# model: dyntickRCU-irq-nmi-ssl-reduced.spin
# what: the nested interrupt's rcu_update_flag increment saturates at 2 (the audit's nesting mutant): a third nested level leaves the flag one short, and the second level's exit steps the counter under the outermost handler
# bounds: NOHZ=1,IRQ=3,NMI=1
# caught-by: assertion violated ( !(old_gp_idle)||(grace_period_state!=2))
/Entry, then rcu_irq_enter()'s/,/^stmt1_else:/s/EXECUTE_IRQ(rcu_update_flag = tmp + 1; tmp = 0)/EXECUTE_IRQ(rcu_update_flag = (tmp < 2 -> tmp + 1 : 2); tmp = 0)/
