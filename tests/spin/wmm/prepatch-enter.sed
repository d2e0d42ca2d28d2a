# Pre-patch rcu_enter_nohz(): ++counter; mb();  (the barrier after the
# increment, as in 2.6.25-rc6 before the seed patch).
/MB();	\/\* enter:/d
/\/\* rcu_enter_nohz() \*\//,/STORE_CTR/{
/STORE_CTR/a\
		MB();	/* pre-patch enter: barrier after the increment */
}
