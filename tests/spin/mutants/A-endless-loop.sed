# model: dyntickRCU-atomic.spin
# what: endless loop in grace_period(): waitmb's exits never break, so the grace period never ends; the liveness check must see it
# caught-by: assertion violated  !(shouldexit)
/:: (curr != snap) ->/,/break;/s/break;/skip;/
/rcu_try_flip_waitmb() \/ rcu_try_flip_waitmb_needed()/,/od;/{
/(curr == snap) \&\& ((curr \& 1) == 0) ->/,/break;/s/break;/skip;/
}
