# model: dyntickRCU-unbounded.spin
# what: as R-nmi-not-excluding-irq, on the abstract model
# suite: unbounded (make verify-unbounded runs it, bounded and unbounded)
/^#define EXECUTE_IRQ/,/dyntick_irq_done = 1;/s/!in_dyntick_nmi/1/g
