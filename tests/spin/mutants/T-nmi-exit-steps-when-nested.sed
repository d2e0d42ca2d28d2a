# model: dyntickRCU-tree.spin
# what: ct_nmi_exit() steps the counter back to idle when nmi_nesting is not 1 too (the kernel mutant of the same name): a handler that interrupted a watching CPU leaves it looking idle
# suite: unbounded (make verify-unbounded runs it, bounded and unbounded)
s/EXECUTE_IRQ(nmi_nesting = tmp - 2; tmp = 0)/EXECUTE_IRQ(nmi_nesting = tmp - 2; tmp = 0; ctr_step())/
s/^\(\t*\)nmi_nesting = nmi_nesting - 2;$/&\n\1ctr_step();/
