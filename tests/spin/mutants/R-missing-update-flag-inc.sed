# model: dyntickRCU-irq-nmi-ssl-reduced.spin
# what: as 7-missing-update-flag-inc, on the reduced model
/if (!in_interrupt() \&\& counter even)/,/^stmt2_else:/s/EXECUTE_IRQ(rcu_update_flag = tmp + 1; tmp = 0)/EXECUTE_IRQ(tmp = 0)/
