# model: dyntickRCU-irq-nmi-ssl-reduced.spin
# what: a harmless variant, which must pass: __irq_enter()'s preempt-count update is a whole-word read-modify-write that also reads the counter and writes back the value it read (nothing can step the counter in between: it is odd, and an NMI leaves it so)
# expect: pass
/__irq_enter(): add_preempt_count()/,/in_interrupt = tmp + 1/{
s/EXECUTE_IRQ(tmp = in_interrupt)/EXECUTE_IRQ(tmp = in_interrupt; wb = dynticks_progress_counter)/
s/EXECUTE_IRQ(in_interrupt = tmp + 1; tmp = 0)/EXECUTE_IRQ(in_interrupt = tmp + 1; tmp = 0; dynticks_progress_counter = wb; wb = 0)/
}
/^proctype dyntick_irq()/,/^{/s/^{/{\n\tbyte wb;/
