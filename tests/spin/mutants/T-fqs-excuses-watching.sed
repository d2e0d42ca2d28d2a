# model: dyntickRCU-tree.spin
# what: rcu_watching_snap_save() excuses a CPU whose snapshot shows it watching (the kernel mutant of the same name), so a grace period ends under a reader
# suite: unbounded (make verify-unbounded runs it, bounded and unbounded)
s/:: snap_par == 0 -> goto gp_end;/:: snap_par == 1 -> goto gp_end;/
