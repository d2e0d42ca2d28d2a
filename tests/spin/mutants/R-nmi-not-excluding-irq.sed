# model: dyntickRCU-irq-nmi-ssl-reduced.spin
# what: as 7-nmi-not-excluding-irq, on the reduced model
/^#define EXECUTE_IRQ/,/dyntick_irq_done = 1;/s/!in_dyntick_nmi/1/g
