# model: dyntickRCU-tree.spin
# what: Linux's rcu_exp_handler() without its rcu_preempt_depth() test: the expedited IPI reports a quiescent state inside a reader
# defines: -DLINUX_RULES
# suite: unbounded (make verify-unbounded runs it, bounded and unbounded)
s/^#define IPI_QS\t\t\t(rcu_nesting == 0 \&\& (!softirq || RRUPT_FROM_IDLE))$/#define IPI_QS\t\t\t(!softirq || RRUPT_FROM_IDLE)/
