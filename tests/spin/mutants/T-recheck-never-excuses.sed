# model: dyntickRCU-tree.spin
# what: rcu_watching_snap_recheck() never excuses a CPU whose counter moved: a grace period that finds the CPU watching waits for a tick that need never come; liveness must see it
# suite: unbounded (make verify-unbounded runs it, bounded and unbounded)
s/:: ctr_moved -> break;/:: ctr_moved -> skip;/
