# model: dyntickRCU-irq-nmi-ssl-reduced.spin
# what: as 7-nmi-missing-update-flag-inc, on the reduced model
/^proctype dyntick_nmi/,/dyntick_nmi_done = 1;/{
/dynticks_progress_counter++;\t\/\* visible \*\//{
n
s/rcu_update_flag++;/skip;/
}
}
