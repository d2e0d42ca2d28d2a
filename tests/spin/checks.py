# SPDX-License-Identifier: GPL-2.0
"""Every check of make verify but the mutants (tests/spin/mutants/*.sed,
which tests/spin/run.py adds): the article's seven models, then the
models beyond them.  check(name, model, bounds, expect, article, ...):
see tools/spin.py."""

from tools.spin import check

# Bounds at which "make verify" runs the three-process models: small
# enough for the 60-second budget, big enough that every mutant is caught.
# Model 7 runs at (1,2,1), the bounds of the article's published model
# files; its (3,3,3) proof, at the scale of the article's count, is
# "make verify-big".
B_IRQ = {'NOHZ': 3, 'IRQ': 3}
B_NMI = {'NOHZ': 1, 'IRQ': 2, 'NMI': 1}


CHECKS = [
    check('1 base', 'dyntickRCU-base.spin', {'NOHZ': 3}, 'pass',
          '691', 691, opt='-O0'),
    check('2 safety', 'dyntickRCU-base-s.spin', {'NOHZ': 3}, 'pass',
          '964', 964, opt='-O0'),
    check('3 liveness, busted', 'dyntickRCU-base-sl-busted.spin',
          {'NOHZ': 3}, 'error', 'fails', opt='-O0', replay=True,
          caught_by='assertion violated  !(shouldexit)'),
    check('4 liveness, fixed', 'dyntickRCU-base-sl.spin', {'NOHZ': 3},
          'pass', '661', 661, opt='-O0'),
    check('5 interrupts', 'dyntickRCU-irq-ssl.spin', B_IRQ, 'pass',
          '~500,000 ("roughly half a million")', 500000, opt='-O0'),
    check('6 nested interrupts', 'dyntickRCU-irqnn-ssl.spin', B_IRQ,
          'pass', '>500,000 ("a bit more than half a million")',
          opt='-O0'),
    check('7 NMIs', 'dyntickRCU-irq-nmi-ssl.spin', B_NMI, 'pass',
          '"several hundred million" at (3,3,3)', opt='-O1',
          panargs=['-w23']),
]


# Checks beyond the article's seven models: weak memory, the atomic
# design, the reduced, abstract and tree models.
WMM = 'dyntickRCU-wmm.spin'
PRE_EXIT = 'wmm/prepatch-exit.sed'
PRE_ENTER = 'wmm/prepatch-enter.sed'
NOHZ2 = {'NOHZ': 2}

# The statements worth showing from a weak-memory trail.
WMM_STEPS = (r'^(sb_val|dynticks_progress_counter = sb_val|removed = 1|'
             r'freed = 1|snap =|curr =|r_removed =|r_freed =|pend_\w+ = 1|'
             r'\(+!\(sb_full\)&&|tmp = )')

SB = """
Store buffering (SB), the x86-TSO failure of the pre-patch rcu_exit_nohz():
  reader CPU:  counter++ (sits in its store buffer); load removed -> 0
  GP CPU:      removed = 1; mb; load counter -> still even (idle!)
The reader's increment was not yet visible when the grace period sampled
the counter, so the CPU was excused as idle although its critical section
had already loaded the old pointer; the grace period ends, the element is
freed, and the reader's next load sees it freed.  The patched mb() after
the increment drains the buffer before the critical section's loads.
"""

LB = """
Load buffering (LB), the weak-memory failure of the pre-patch
rcu_enter_nohz():
  reader CPU:  load freed (deferred: issued, not yet satisfied);
               counter++ becomes visible, then the load is satisfied
  GP CPU:      load counter -> even (idle); ...; freed = 1
The critical section's last load was satisfied after the increment that
declares the CPU idle, so the grace period ended under a live reader.
TSO never lets a load pass a later store, so this needs the weaker model.
The patched mb() before the increment completes the loads first.
"""

CHECKS += [
    # Quick Quiz 5: under sequential consistency the placement is moot.
    check('W SC, pre-patch', WMM, NOHZ2, 'pass', 'QQ5: SC cannot see it',
          opt='-O0', sed=[PRE_EXIT, PRE_ENTER], defs=['-DMM=0'],
          kind='extra'),
    check('W SC, patched', WMM, NOHZ2, 'pass', '-', opt='-O0',
          defs=['-DMM=0'], kind='extra'),
    check('W TSO, patched', WMM, NOHZ2, 'pass', 'patch: correct',
          opt='-O0', defs=['-DMM=1'], kind='extra'),
    check('W TSO+LB, patched', WMM, NOHZ2, 'pass', 'patch: correct',
          opt='-O0', defs=['-DMM=2'], kind='extra'),
    check('W TSO, pre-patch exit', WMM, NOHZ2, 'error',
          'patch: exit mb misplaced', opt='-O0', sed=[PRE_EXIT],
          defs=['-DMM=1'], kind='extra', replay=WMM_STEPS, explain=SB,
          caught_by='r_removed==0)&&(r_freed==1)'),
    check('W TSO, pre-patch enter', WMM, NOHZ2, 'pass',
          'TSO keeps loads before stores', opt='-O0', sed=[PRE_ENTER],
          defs=['-DMM=1'], kind='extra'),
    check('W TSO+LB, pre-patch enter', WMM, NOHZ2, 'error',
          'patch: enter mb misplaced', opt='-O0', sed=[PRE_ENTER],
          defs=['-DMM=2'], kind='extra', replay=WMM_STEPS, explain=LB,
          caught_by='r_removed==0)&&(r_freed==1)'),
    check('W TSO, pre-patch both', WMM, NOHZ2, 'error',
          '2.6.25-rc6 code', opt='-O0', sed=[PRE_EXIT, PRE_ENTER],
          defs=['-DMM=1'], kind='extra',
          caught_by='r_removed==0)&&(r_freed==1)'),
]

# The atomic-counter design of the article's conclusion, at model 7's
# verify bounds; run.py prints the ratio of the two state counts.
CHECKS.append(check('A atomic design', 'dyntickRCU-atomic.spin', B_NMI,
                    'pass', 'article: >10x fewer than model 7', opt='-O0',
                    kind='extra'))
RATIOS = [('A atomic design', '7 NMIs')]

# Model 7 restructured for verify-big (docs/spin-big.md): at small bounds it
# must pass, and catch every mutant that model 7 catches (mutants/R-*).
CHECKS.append(check('R model 7, reduced', 'dyntickRCU-irq-nmi-ssl-reduced.spin',
                    B_NMI, 'pass', 'same verdict as model 7', opt='-O0',
                    kind='extra'))
RATIOS.append(('R model 7, reduced', '7 NMIs'))

# Model 7 with the counter abstracted (docs/spin-unbounded.md), its loops
# bounded as in the reduced model: it must pass and catch every mutant
# (mutants/U-*); "make verify-unbounded" runs it unbounded.
CHECKS.append(check('U model 7, abstract counter', 'dyntickRCU-unbounded.spin',
                    B_NMI, 'pass', 'same verdict as model 7', opt='-O0',
                    kind='extra'))

# The modern design's idle protocol (context tracking and Tree RCU's FQS
# scan, docs/spin-tree.md), its loops bounded as model 7's: it must
# pass and catch its mutants (mutants/T-*); "make verify-unbounded" proves
# it unbounded.
CHECKS.append(check('T tree idle protocol', 'dyntickRCU-tree.spin', B_NMI,
                    'pass', 'Linux 6.12 design', opt='-O0', kind='extra'))
RATIOS.append(('T tree idle protocol', '7 NMIs'))
CHECKS.append(check('T tree, Linux 6.12 rules', 'dyntickRCU-tree.spin', B_NMI,
                    'pass', 'Linux 6.12 tick and IPI rules', opt='-O0',
                    kind='extra', defs=['-DLINUX_RULES']))
