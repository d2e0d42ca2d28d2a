# model: dyntickRCU-irq-nmi-ssl.spin
# what: Quick Quiz 2's ordering: the interrupt's rcu_irq_enter() increments rcu_update_flag before the counter; an NMI that lands between the two finds the flag set, counts itself nested and does not step the counter back on exit, so the counter's parity turns (a window mutant: it needs the NMI there)
# survives: NMI=0
s/EXECUTE_IRQ(stmt2_1, tmp = dynticks_progress_counter)/EXECUTE_IRQ(stmt2_1, tmp = rcu_update_flag)/
s/EXECUTE_IRQ(stmt2_2, dynticks_progress_counter = tmp + 1)/EXECUTE_IRQ(stmt2_2, rcu_update_flag = tmp + 1)/
s/EXECUTE_IRQ(stmt2_3, tmp = rcu_update_flag)/EXECUTE_IRQ(stmt2_3, tmp = dynticks_progress_counter)/
s/EXECUTE_IRQ(stmt2_4, rcu_update_flag = tmp + 1)/EXECUTE_IRQ(stmt2_4, dynticks_progress_counter = tmp + 1)/
