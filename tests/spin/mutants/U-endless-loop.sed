# model: dyntickRCU-unbounded.spin
# what: as R-endless-loop, on the abstract model: waitmb's exits never break
# suite: unbounded (make verify-unbounded runs it, bounded and unbounded)
/:: (ctr_d != D_ZERO) ->/,/break;/s/break;/skip;/
/rcu_try_flip_waitmb() \/ rcu_try_flip_waitmb_needed()/,/od;/{
/(ctr_d == D_ZERO) \&\& (ctr_par == 0) ->/,/break;/s/break;/skip;/
}
