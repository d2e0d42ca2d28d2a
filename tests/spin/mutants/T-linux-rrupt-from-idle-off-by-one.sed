# model: dyntickRCU-tree.spin
# what: the Linux mutant rrupt-from-idle-off-by-one: rcu_is_cpu_rrupt_from_idle() tests nesting > 3 instead of > 1, so an expedited IPI nested (nmi_nesting 3) in a softirq on the exit of an interrupt from idle reports a quiescent state inside the softirq's BH-disabled reader
# defines: -DLINUX_RULES
# suite: unbounded (make verify-unbounded runs it, bounded and unbounded)
s/^#define RRUPT_FROM_IDLE\t\t(nmi_nesting <= 1 \&\& ct_nesting == 0)$/#define RRUPT_FROM_IDLE\t\t(nmi_nesting <= 3 \&\& ct_nesting == 0)/
