# model: dyntickRCU-irq-nmi-ssl-reduced.spin
# what: as R-nmi-early-gp-sample, but the sample moved into block A is written out raw, bypassing NMI_GP_SAMPLE(); the reduction lint must reject it
# caught-by: reduction lint
/^proctype dyntick_nmi/,/dyntick_nmi_done = 1;/{
/^\t\t\tNMI_GP_SAMPLE(old_gp_idle);$/d
s/^\t\t\tin_dyntick_nmi = 1;$/&\n\t\t\told_gp_idle = (grace_period_state == GP_IDLE);/
}
