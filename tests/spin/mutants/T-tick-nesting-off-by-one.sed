# model: dyntickRCU-tree.spin
# what: dynrcu's tick tests rcu_read_lock_nesting <= 1 instead of == 0: a tick inside an outermost reader reports a quiescent state
# suite: unbounded (make verify-unbounded runs it, bounded and unbounded)
s/^#define TICK_QS\t\t\t(rcu_nesting == 0)$/#define TICK_QS\t\t\t(rcu_nesting <= 1)/
