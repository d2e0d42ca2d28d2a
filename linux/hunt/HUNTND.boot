# tp_readers=1 on a kernel without tracepoints (no debug option selects
# TRACEPOINTS here): rcutorture must say so and run on (HUNTND.require).
# Patch 7 failed to link in exactly this kernel until 2026-12-07.
rcutorture.stat_interval=60 rcutorture.test_no_idle_hz=1 rcutorture.gp_normal=1 rcutorture.gp_exp=1 rcutorture.eqs_readers=7 rcutorture.onoff_interval=200 rcutorture.onoff_holdoff=2 rcutorture.tp_readers=1
