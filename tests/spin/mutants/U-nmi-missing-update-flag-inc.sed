# model: dyntickRCU-unbounded.spin
# what: as R-nmi-missing-update-flag-inc, on the abstract model
/Block A: entry/,/NMI_BLOCK_END/{
/NMI_COUNTER_INC();/{
n
s/rcu_update_flag++;/skip;/
}
}
