# model: dyntickRCU-irq-nmi-ssl-reduced.spin
# what: as 7-irq-nested-flag-inc-dropped, on the reduced model
/Entry, then rcu_irq_enter()'s/,/^stmt1_else:/s/EXECUTE_IRQ(rcu_update_flag = tmp + 1; tmp = 0)/EXECUTE_IRQ(tmp = 0)/
