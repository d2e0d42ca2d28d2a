# model: dyntickRCU-tree.spin
# what: ct_nmi_enter() adds 2 to nmi_nesting even when it woke an idle CPU (the kernel mutant of the same name): ct_nmi_exit() then never sees nesting 1 and leaves the idle CPU watching
# suite: unbounded (make verify-unbounded runs it, bounded and unbounded)
s/:: incby1 -> nmi_nesting = tmp + 1;/:: incby1 -> nmi_nesting = tmp + 2;/
s/:: incby1 -> nmi_nesting = nmi_nesting + 1;/:: incby1 -> nmi_nesting = nmi_nesting + 2;/
