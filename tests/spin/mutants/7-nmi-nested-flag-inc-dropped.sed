# model: dyntickRCU-irq-nmi-ssl.spin
# what: the NMI's rcu_irq_enter() drops "if (rcu_update_flag) rcu_update_flag++": an NMI that lands in an interrupt handler's window, with rcu_update_flag set, takes it to 0 on exit and steps the counter under the handler (a window mutant)
# survives: NMI=0
/^proctype dyntick_nmi/,/dyntick_nmi_done = 1;/{
/:: rcu_update_flag > 0 ->/,/rcu_update_flag = tmp + 1;/s/rcu_update_flag = tmp + 1;/skip;/
}
