# model: dyntickRCU-unbounded.spin
# what: as R-nmi-exit-skips-increment, on the abstract model
# suite: unbounded (make verify-unbounded runs it, bounded and unbounded)
/Block D: rcu_irq_exit()'s counter step/,/NMI_BLOCK_END/s/NMI_COUNTER_INC();/skip;/
