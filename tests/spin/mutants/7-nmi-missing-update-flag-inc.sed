# model: dyntickRCU-irq-nmi-ssl.spin
# what: NMI's rcu_irq_enter() increments the counter but not rcu_update_flag
/^proctype dyntick_nmi/,/dyntick_nmi_done = 1;/{
/!in_interrupt \&\& (dynticks_progress_counter \& 1) == 0 ->/,/rcu_update_flag = tmp + 1;/s/rcu_update_flag = tmp + 1;/skip;/
}
