# model: dyntickRCU-irq-nmi-ssl-reduced.spin
# what: as 7-nmi-exit-skips-increment, on the reduced model
/Block D: rcu_irq_exit()'s counter step/,/NMI_BLOCK_END/s/NMI_COUNTER_INC();/skip;/
