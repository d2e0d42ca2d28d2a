# model: dyntickRCU-irq-nmi-ssl-reduced.spin
# what: as 7-nmi-early-gp-sample, on the reduced model, with the sample moved inside block A (the audit's edit): block A then holds two visible accesses, which the reduction does not allow; the NMI_VISIBLE check must catch it (without it the reduced model passed at every bound up to (3,3,3))
# survives: NMI=0
# caught-by: assertion violated (nmi_visible==0)
/^proctype dyntick_nmi/,/dyntick_nmi_done = 1;/{
/^\t\t\tNMI_GP_SAMPLE(old_gp_idle);$/d
s/^\t\t\tin_dyntick_nmi = 1;$/&\n\t\t\tNMI_GP_SAMPLE(old_gp_idle);/
}
