# model: dyntickRCU-atomic.spin
# what: NMI exit forgets to undo its entry's increment
/^proctype dyntick_nmi/,/dyntick_nmi_done = 1;/{
/:: did_inc ->/{
n
s/dynticks_progress_counter++;/skip;/
}
}
