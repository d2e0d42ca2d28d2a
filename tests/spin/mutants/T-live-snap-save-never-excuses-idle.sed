# model: dyntickRCU-tree.spin
# what: rcu_watching_snap_save() no longer excuses a CPU found idle: a CPU idle for good, with no interrupt to tick, holds the grace period for ever; liveness must see it
# suite: unbounded (make verify-unbounded runs it, bounded and unbounded)
# caught-by: liveness
/:: snap_par == 0 -> goto gp_end;/d
