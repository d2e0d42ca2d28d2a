# model: dyntickRCU-unbounded.spin
# what: waitack loses its "counter moved by more than 2" exit: a CPU that keeps passing through idle while the grace period samples it busy holds the grace period for ever
# suite: unbounded (make verify-unbounded runs it, bounded and unbounded)
# caught-by: liveness
s/:: (ctr_d == D_TOP) || (ctr_par == 0) ->/:: (ctr_par == 0) ->/
