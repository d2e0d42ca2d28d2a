# model: dyntickRCU-irq-nmi-ssl.spin
# what: the NMI's reader samples grace_period_state before its rcu_irq_enter(): the grace period may snapshot the still-even counter, excuse the CPU and end while the reader runs (a window mutant)
# survives: NMI=0
/^proctype dyntick_nmi/,/dyntick_nmi_done = 1;/{
/^\t\told_gp_idle = (grace_period_state == GP_IDLE);$/d
s/^\t\tin_dyntick_nmi = 1;$/&\n\t\told_gp_idle = (grace_period_state == GP_IDLE);/
}
