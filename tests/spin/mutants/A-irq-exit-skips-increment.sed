# model: dyntickRCU-atomic.spin
# what: interrupt exit forgets to undo its entry's increment
/:: did_inc\[i - j - 1\] ->/{
n
s/dynticks_progress_counter++;/skip;/
}
