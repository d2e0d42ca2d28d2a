# model: dyntickRCU-unbounded.spin
# what: as R-nmi-missing-update-flag-inc, on the abstract model
# suite: unbounded (make verify-unbounded runs it, bounded and unbounded)
/Block A: entry/,/NMI_BLOCK_END/{
/NMI_COUNTER_INC();/{
n
s/n_inc(rcu_update_flag);/skip;/
}
}
