# model: dyntickRCU-base-s.spin
# what: waitack's second test checks snap for oddness instead of evenness
# caught-by: (grace_period_state!=2))
s/(curr - snap) > 2 || (snap \& 1) == 0/(curr - snap) > 2 || (snap \& 1) == 1/
