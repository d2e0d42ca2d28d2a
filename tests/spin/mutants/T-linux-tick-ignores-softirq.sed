# model: dyntickRCU-tree.spin
# what: Linux's rcu_flavor_sched_clock_irq() without its preempt_count() SOFTIRQ test: a tick nested in a softirq reports a quiescent state inside its BH-disabled reader
# defines: -DLINUX_RULES
# suite: unbounded (make verify-unbounded runs it, bounded and unbounded)
s/^#define TICK_QS\t\t\t(rcu_nesting == 0 \&\& !softirq)$/#define TICK_QS\t\t\t(rcu_nesting == 0)/
