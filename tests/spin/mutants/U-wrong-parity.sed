# model: dyntickRCU-unbounded.spin
# what: as R-wrong-parity, on the abstract model
# suite: unbounded (make verify-unbounded runs it, bounded and unbounded)
s/(ctr_d == D_TOP) || (ctr_par == 0)/(ctr_d == D_TOP) || (ctr_par == 1)/
