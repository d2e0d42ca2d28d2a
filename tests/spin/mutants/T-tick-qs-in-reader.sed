# model: dyntickRCU-tree.spin
# what: the tick reports a quiescent state although the task's rcu_read_lock_nesting is not 0 (dynrcu's rule without its test)
# suite: unbounded (make verify-unbounded runs it, bounded and unbounded)
s/^#define TICK_QS\t\t\t(rcu_nesting == 0)$/#define TICK_QS\t\t\t1/
