# model: dyntickRCU-irq-nmi-ssl.spin
# what: Quick Quiz 2's own proposal, in both the interrupt's and the NMI's rcu_irq_enter(): a handler that starts or continues a nest from idle increments rcu_update_flag first, and steps the counter only if the flag's old value was 0; an NMI that lands between the two finds the flag at 1, leaves the counter even and runs its reader there, so the grace period ends under it (a window mutant: it needs the NMI there)
# survives: NMI=0
# caught-by: (grace_period_state!=2))
# caught-in: dyntick_nmi
# The interrupt's entry: one test (from idle, or nested in a nest from
# idle), the flag incremented first, then the counter if the flag's old
# value (tmp) was 0.
/^\t\t\/\* rcu_irq_enter(): if (rcu_update_flag) rcu_update_flag++ \*\/$/,/^stmt2_else:\tskip;$/c\
\t\t/* rcu_irq_enter(), Quick Quiz 2: flag first, counter if it was 0 */\
stmt1:\t\tskip;\
\t\tatomic {\
\t\t\tif\
\t\t\t:: in_dyntick_nmi -> goto stmt1;\
\t\t\t:: !in_dyntick_nmi &&\
\t\t\t   (rcu_update_flag ||\
\t\t\t    (!in_interrupt &&\
\t\t\t     (dynticks_progress_counter & 1) == 0)) ->\
\t\t\t\tgoto stmt1_then;\
\t\t\t:: else -> goto stmt2_else;\
\t\t\tfi;\
\t\t}\
stmt1_then:\tskip;\
\t\tEXECUTE_IRQ(stmt1_1, tmp = rcu_update_flag)\
\t\tEXECUTE_IRQ(stmt1_2, rcu_update_flag = tmp + 1)\
\t\tif\
\t\t:: tmp == 0 -> skip;\
\t\t:: else -> goto stmt2_else;\
\t\tfi;\
\t\tEXECUTE_IRQ(stmt2_1, tmp = dynticks_progress_counter)\
\t\tEXECUTE_IRQ(stmt2_2, dynticks_progress_counter = tmp + 1)\
stmt2_else:\tskip;
# The NMI runs the same function.
/^proctype dyntick_nmi/,/^}/{
/^\t\t\/\* rcu_irq_enter() \*\/$/,/^\t\t\/\* __irq_enter() \*\/$/c\
\t\t/* rcu_irq_enter(), Quick Quiz 2: flag first, counter if it was 0 */\
\t\tif\
\t\t:: rcu_update_flag > 0 ||\
\t\t   (!in_interrupt && (dynticks_progress_counter & 1) == 0) ->\
\t\t\ttmp = rcu_update_flag;\
\t\t\trcu_update_flag = tmp + 1;\
\t\t\tif\
\t\t\t:: tmp == 0 ->\
\t\t\t\ttmp = dynticks_progress_counter;\
\t\t\t\tdynticks_progress_counter = tmp + 1;\
\t\t\t:: else -> skip;\
\t\t\tfi;\
\t\t:: else -> skip;\
\t\tfi;\
\t\t/* __irq_enter() */
}
