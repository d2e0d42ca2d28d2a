# model: dyntickRCU-irq-nmi-ssl-reduced.spin
# what: as 7-nmi-missing-update-flag-inc, on the reduced model
/Block A: entry/,/NMI_BLOCK_END/{
/NMI_COUNTER_INC();/{
n
s/rcu_update_flag++;/skip;/
}
}
