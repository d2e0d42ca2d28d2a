# model: dyntickRCU-unbounded.spin
# what: waitmb loses its "counter moved" exit: a CPU busy at the snapshot that then moves holds the grace period for ever
# suite: unbounded (make verify-unbounded runs it, bounded and unbounded)
# caught-by: liveness
/:: (ctr_d != D_ZERO) ->/,/break;/s/break;/skip;/
