# model: dyntickRCU-atomic.spin
# what: the interrupt handler does not wait while an NMI runs
/^#define EXECUTE_IRQ/,/dyntick_irq_done = 1;/s/in_dyntick_nmi/0/g
