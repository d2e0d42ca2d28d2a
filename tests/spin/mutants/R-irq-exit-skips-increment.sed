# model: dyntickRCU-irq-nmi-ssl-reduced.spin
# what: as 7-irq-exit-skips-increment, on the reduced model
/\/\* rcu_irq_exit() \*\//,/^stmt9_else:/s/dynticks_progress_counter = tmp + 1; tmp = 0/dynticks_progress_counter = tmp; tmp = 0/
