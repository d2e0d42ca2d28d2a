# model: dyntickRCU-irq-nmi-ssl.spin
# what: the interrupt handler does not wait while an NMI runs (EXECUTE_IRQ and the open-coded tests ignore in_dyntick_nmi)
/^#define EXECUTE_IRQ/,/dyntick_irq_done = 1;/s/in_dyntick_nmi/0/g
