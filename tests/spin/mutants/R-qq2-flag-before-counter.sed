# model: dyntickRCU-irq-nmi-ssl-reduced.spin
# what: as 7-qq2-flag-before-counter, on the reduced model
# survives: NMI=0
/if (!in_interrupt() \&\& counter even)/,/^stmt2_else:/{
s/EXECUTE_IRQ(tmp = dynticks_progress_counter)/EXECUTE_IRQ(tmp = @FLAG@)/
s/EXECUTE_IRQ(dynticks_progress_counter = tmp + 1; tmp = 0)/EXECUTE_IRQ(@FLAG@ = tmp + 1; tmp = 0)/
s/EXECUTE_IRQ(tmp = rcu_update_flag)/EXECUTE_IRQ(tmp = dynticks_progress_counter)/
s/EXECUTE_IRQ(rcu_update_flag = tmp + 1; tmp = 0)/EXECUTE_IRQ(dynticks_progress_counter = tmp + 1; tmp = 0)/
s/@FLAG@/rcu_update_flag/g
}
