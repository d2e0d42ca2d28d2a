# model: dyntickRCU-unbounded.spin
# what: as R-nmi-nested-flag-inc-dropped, on the abstract model
# suite: unbounded (make verify-unbounded runs it, bounded and unbounded)
/Block A: entry/,/NMI_BLOCK_END/{
/:: rcu_update_flag > 0 ->/{
n
s/n_inc(rcu_update_flag);/skip;/
}
}
