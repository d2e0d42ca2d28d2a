# model: dyntickRCU-unbounded.spin
# what: as R-nmi-not-excluding-irq, on the abstract model
/^#define EXECUTE_IRQ/,/dyntick_irq_done = 1;/s/!in_dyntick_nmi/1/g
