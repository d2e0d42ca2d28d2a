# model: dyntickRCU-unbounded.spin
# what: as R-irq-enter-writeback, on the abstract model: it must pass here too (it made the abstraction fail before the copies kept their distance from the counter)
# expect: pass
# suite: unbounded (make verify-unbounded runs it, bounded and unbounded)
/__irq_enter(): add_preempt_count()/,/n_inc(in_interrupt)/{
s/EXECUTE_IRQ(tmp = in_interrupt)/EXECUTE_IRQ(tmp = in_interrupt; irq_load())/
s/EXECUTE_IRQ(in_interrupt = tmp; n_inc(in_interrupt); tmp = 0)/EXECUTE_IRQ(in_interrupt = tmp; n_inc(in_interrupt); tmp = 0; irq_store(0))/
}
