# model: dyntickRCU-base-s.spin
# what: waitmb treats curr == snap (odd) as done
# caught-by: (grace_period_state!=2))
s/:: (curr != snap) ->/:: (curr == snap) ->/
