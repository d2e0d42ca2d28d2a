# Pre-patch rcu_exit_nohz(): mb(); ++counter;  (the barrier before the
# increment, as in 2.6.25-rc6 before the seed patch).
/MB();	\/\* exit:/d
/\/\* rcu_exit_nohz() \*\//a\
		MB();	/* pre-patch exit: barrier before the increment */
