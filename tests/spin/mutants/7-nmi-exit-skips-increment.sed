# model: dyntickRCU-irq-nmi-ssl.spin
# what: NMI's rcu_irq_exit() does not increment the counter
/^proctype dyntick_nmi/,/dyntick_nmi_done = 1;/{
/:: rcu_update_flag == 0 ->/,/dynticks_progress_counter = tmp + 1;/s/dynticks_progress_counter = tmp + 1;/dynticks_progress_counter = tmp;/
}
