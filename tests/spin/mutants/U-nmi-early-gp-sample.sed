# model: dyntickRCU-unbounded.spin
# what: as R-nmi-early-gp-sample, on the abstract model
# suite: unbounded (make verify-unbounded runs it, bounded and unbounded)
# caught-by: assertion violated (nmi_visible==0)
/^proctype dyntick_nmi/,/dyntick_nmi_done = 1;/{
/^\t\t\tNMI_GP_SAMPLE(old_gp_idle);$/d
s/^\t\t\tin_dyntick_nmi = 1;$/&\n\t\t\tNMI_GP_SAMPLE(old_gp_idle);/
}
