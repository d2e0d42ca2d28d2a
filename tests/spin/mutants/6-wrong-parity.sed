# model: dyntickRCU-irqnn-ssl.spin
# what: waitack's second test lets the CPU off when curr is odd (busy) instead of even
# caught-by: (grace_period_state!=2))
s/(curr - snap) > 2 || (curr \& 1) == 0/(curr - snap) > 2 || (curr \& 1) == 1/
