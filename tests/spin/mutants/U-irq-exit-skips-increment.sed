# model: dyntickRCU-unbounded.spin
# what: as R-irq-exit-skips-increment, on the abstract model: the interrupt's rcu_irq_exit() stores its copy back unstepped
# suite: unbounded (make verify-unbounded runs it, bounded and unbounded)
/\/\* rcu_irq_exit() \*\//,/^stmt9_else:/s/EXECUTE_IRQ(irq_store(1))/EXECUTE_IRQ(irq_store(0))/
