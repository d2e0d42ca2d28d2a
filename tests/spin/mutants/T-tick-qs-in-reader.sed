# model: dyntickRCU-tree.spin
# what: the tick reports a quiescent state although the interrupted task is inside rcu_read_lock()
# suite: unbounded (make verify-unbounded runs it, bounded and unbounded)
s/:: outermost \&\& !in_reader \&\&/:: outermost \&\&/
