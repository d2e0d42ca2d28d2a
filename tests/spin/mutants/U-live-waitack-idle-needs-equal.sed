# model: dyntickRCU-unbounded.spin
# what: waitack excuses an idle CPU only if its counter has not moved (its "counter even" exit dropped): a CPU idle for good after moving holds the grace period for ever
# suite: unbounded (make verify-unbounded runs it, bounded and unbounded)
# caught-by: liveness
s/:: (ctr_d == D_TOP) || (ctr_par == 0) ->/:: (ctr_d == D_TOP) ->/
