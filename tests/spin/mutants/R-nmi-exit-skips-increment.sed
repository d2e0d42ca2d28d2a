# model: dyntickRCU-irq-nmi-ssl-reduced.spin
# what: as 7-nmi-exit-skips-increment, on the reduced model
/^proctype dyntick_nmi/,/dyntick_nmi_done = 1;/s/dynticks_progress_counter++;\t\t\/\* visible \*\//skip;/
