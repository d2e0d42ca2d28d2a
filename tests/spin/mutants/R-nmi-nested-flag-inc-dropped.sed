# model: dyntickRCU-irq-nmi-ssl-reduced.spin
# what: as 7-nmi-nested-flag-inc-dropped, on the reduced model
# survives: NMI=0
/Block A: entry/,/NMI_BLOCK_END/{
/:: rcu_update_flag > 0 ->/{
n
s/rcu_update_flag++;/skip;/
}
}
