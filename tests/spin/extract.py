# SPDX-License-Identifier: GPL-2.0
"""The extracted models of make verify (docs/spin-extracted.md).

    python3 -m tests.spin.extract [--only SUBSTRING]
    python3 -m tests.spin.extract --big     # make verify-big's runs only
    python3 -m tests.spin.extract --table   # docs/spin-extractor.md's step table

regenerates every model from the C that boots (tools/extract: SPECS
below, into build/spin/extracted/), runs each harness of
tests/spin/extracted/ under sequential consistency, x86-TSO and TSO plus
load buffering (tests/spin/wmm/memory.pml), and runs every kernel mutant
(tests/mutants/kernel/*/*.patch) that says "Spin:" through the models
made from its patched copy of the C.  A kernel mutant that edits a
function the models extract must say "Spin:": the suite fails one that
does not, and one whose edit the C has already ("already applied",
tests/mutants/patch.py).  make verify runs all of this through
checks() (tests/spin/run.py); run alone, this prints the same lines and
"N passed, N failed".

A mutant's line, one or more in its preamble (tests/mutants/run.py
ignores it):
    Spin: MODEL NOHZ,IRQ,NMI MM VERDICT
MODEL is a key of SPECS, MM one of SC, TSO, TSO+LB (then options:
mm_defs() says which), VERDICT
"caught" (by any check), "caught:safety", "caught:liveness",
"caught:warn" (a WARN() of the C), "caught:flip" (the flip model's
torture invariant), "caught:blocked" (tree612: an outermost unlock left
its task on blkd_tasks), "caught:delay" (tree612 with ",delay": the
torture hook's promise), or "survives" (the run must pass).
"""

import concurrent.futures
import difflib
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from tests.mutants import patch as mutant_patch
from tools import spin
from tools.extract import ExtractError, write
from tools.extract.clang import TU, where

EXTRACTED = os.path.join(spin.BUILD, 'extracted')
HARNESSES = os.path.join(spin.MODELS, 'extracted')
MEMORY = os.path.join(spin.MODELS, 'wmm', 'memory.pml')
KERNEL_MUTANTS = os.path.join(spin.ROOT, 'tests', 'mutants', 'kernel')

MMS = {'SC': 0, 'TSO': 1, 'TSO+LB': 2}

def left_out(why, *names):
    """The spec's calls for functions the model leaves out: each is 0."""
    return {name: ('expr', '0', why) for name in names}


# What the grace-period side of either design calls that the models
# leave out.
GP_SIDE_CALLS = {
    'preempt_enable_after_unlock': ('expr', '0', 'nothing preempts CPU '
                                    '0\'s grace-period side here'),
    'ktime_get_ns': ('expr', '0', 'time: only statistics, the stall '
                     'detector and FQS urgency read it'),
}

# What each model extracts, and how (tools/extract/__init__.py says what
# the keys mean); the harness is tests/spin/extracted/NAME.pml.
SPECS = {
    'dynticks2008': dict(
        name='dynticks2008',
        files={
            'rcu/rcupreempt/dynticks.c': [
                'rcu_enter_nohz', 'rcu_exit_nohz', 'rcu_irq_enter',
                'rcu_irq_exit'],
            'rcu/rcupreempt/rcupreempt.c': [
                'rcu_try_flip_idle', 'rcu_try_flip_waitack',
                'rcu_try_flip_waitzero', 'rcu_try_flip_waitmb',
                'rcu_check_mb'],
        },
        objects={'rcu_data': 'NCPU', 'rcu_ctrlblk': None},
        calls={'rcu_pending': ('expr', 'RCU_PENDING({0})')},
        # Only the grace-period machine (CPU 0) touches these here: no
        # tick runs on CPU 1, and its readers do not use the counters.
        private={('rcu_ctrlblk', 'completed'): 'C_GP',
                 ('rcu_data', 'rcu_flip_flag'): 'C_GP',
                 ('rcu_data', 'rcu_mb_flag'): 'C_GP',
                 ('rcu_data', 'rcu_dyntick_snapshot'): 'C_GP'},
        cpu_private={('rcu_data', 'rcu_update_flag'):
                     'only its CPU\'s task, IRQ and NMI touch it'},
        variants={'rcu_irq_enter_nmi': ('rcu_irq_enter', 'C_NMI'),
                  'rcu_irq_exit_nmi': ('rcu_irq_exit', 'C_NMI')},
    ),
    'flip2008': dict(
        name='flip2008',
        files={
            'rcu/rcupreempt/dynticks.c': [],
            'rcu/rcupreempt/rcupreempt.c': [
                '__rcu_read_lock', '__rcu_read_unlock', 'rcu_try_flip',
                'rcu_check_mb', 'rcupreempt_torture_gp_passed'],
        },
        objects={'rcu_data': 'NCPU', 'rcu_ctrlblk': None, 'task': 'NTASK'},
        calls={'rcu_pending': ('expr', 'RCU_PENDING({0})',
                               'the callback keeps the machine going'),
               'spin_trylock': ('expr', '1', 'fliplock: only CPU 0 runs '
                                'the machine here, so it always gets it'),
               '__spin_release': ('expr', '0', 'likewise'),
               **GP_SIDE_CALLS,
               **left_out('the stall detector and the statistics',
                          'rcu_stall_gp_start', 'rcu_stall_check',
                          'rcu_stats_state_change')},
        constants={'rcu_read_lock_delay_hook':
                   ('0', 'the torture test\'s hook is off')},
        export={'GP_STAGES': 'rcu/rcupreempt/rcupreempt.h'},
        plain={('rcu_ctrlblk', 'completed'):
               'rcu_try_flip_idle()\'s read of the value it increments: '
               'only the flip machine writes it, under '
               'rcu_ctrlblk.fliplock, so its own plain read races with no '
               'write',
               ('rcu_ctrlblk', 'rcu_try_flip_state'):
               'rcu_try_flip()\'s read of the state it writes: likewise'},
        private={('rcu_data', 'rcu_dyntick_snapshot'): 'C_GP',
                 ('task', 'rcu_read_lock_nesting'): 'C_MAIN',
                 ('task', 'rcu_flipctr_idx'): 'C_MAIN'},
    ),
    'tree612': dict(
        name='tree612',
        files={
            'rcu/tree/context_tracking.c': [
                'ct_idle_enter', 'ct_idle_exit', 'ct_irq_enter',
                'ct_irq_exit', 'ct_nmi_enter', 'ct_nmi_exit'],
            'rcu/tree/tree.c': [
                'rcu_gp_init', 'rcu_gp_fqs', 'rcu_gp_done',
                'rcu_tree_sched_clock_irq'],
            'rcu/tree/tree_read.h': [
                '__rcu_tree_read_lock', '__rcu_tree_read_unlock'],
            'rcu/tree/tree_plugin.c': [
                'rcu_preempt_blocked_readers_cgp'],
        },
        objects={'context_tracking': 'NCPU', 'rcu_tree_data': 'NCPU',
                 'rcu_node': '1', 'task': 'NTASK', 'rcu_state': None},
        params={'rcu_preempt_blocked_readers_cgp': {'rnp': 'rcu_node'}},
        index_fields={('rcu_tree_data', 'cpu'): 'rdp->cpu is rdp\'s index'},
        pointer_fields={('rcu_tree_data', 'mynode'):
                        ('rcu_node', '0', 'one leaf'),
                        ('rcu_state', 'level'):
                        ('rcu_node', '0', 'one level: the leaf is the '
                         'root')},
        # The tree's nodes: rcu_state.node[], one element here.
        object_fields={('rcu_state', 'node'): 'rcu_node'},
        field_values={
            ('rcu_tree_data', 'gp_seq'):
            ('0', 'the CPU has noticed only the grace period before the '
             'modelled one (rcu_note_gp_changes_locked() is left out)'),
            ('rcu_tree_data', 'core_needs_qs'):
            ('0', 'likewise'),
            ('rcu_state', 'stall_next_ns'):
            ('0', 'no stall deadline: the stall detector is left out'),
            ('rcu_tree_data', 'rcu_urgent_qs'):
            ('0', 'FQS never asks this CPU to reschedule: the context '
             'switch that would follow is left out'),
            ('rcu_tree_data', 'exp_deferred_qs'):
            ('0', 'expedited grace periods are not modelled'),
            ('rcu_state', 'num_nodes'): ('1', 'one node, a leaf'),
            ('rcu_state', 'num_levels'): ('1', 'likewise'),
            ('rcu_node', 'level'): ('0', 'likewise'),
            ('rcu_node', 'grplo'): ('0', 'the leaf covers every CPU'),
            ('rcu_node', 'grphi'): ('(NCPU - 1)', 'likewise'),
            ('rcu_node', 'qsmaskinit'):
            ('((1 << NCPU) - 1)', 'every CPU online: no hotplug '
             '(rcu_gp_init_apply_hotplug() is left out)'),
            ('rcu_node', 'qsmaskinitnext'): ('((1 << NCPU) - 1)',
                                             'likewise'),
            ('rcu_node', 'wait_blkd_tasks'): ('0', 'likewise'),
            ('rcu_state', 'gp_start_ns'):
            ('0', 'time: ktime_get_ns() is 0, so a scan never finds a '
             'holdout urgent (rcu_urgent_qs stays 0)')},
        constants={'rcu_tree_lock_delay_key':
                   ('DELAY_HOOK', 'the torture test\'s hook, on at boot: '
                    'the harness\'s DELAY_HOOK, on in the ",delay" runs')},
        big_constants={(((1 << 64) - 1) >> 2) + 1:
                       ('NONIDLE', 'CT_NESTING_IRQ_NONIDLE: any value far '
                        'above the interrupt nesting behaves the same')},
        calls={
            'rcu_preempt_deferred_qs':
            ('expr', '0', 'the work a reader deferred: here only a '
             'preempted task\'s, which its own outermost unlock does '
             '(UNLOCK_SPECIAL)'),
            'rcu_report_qs_rdp':
            ('step', 'REPORT_QS(me_cpu, me_ctx)', 'the harness\'s report'),
            'rcu_read_unlock_special':
            ('step', 'UNLOCK_SPECIAL(me_cpu, me_ctx)', 'the harness\'s '
             'slow path: a task leaves the leaf\'s blocked list and '
             'reports; a handler defers to the task'),
            'rcu_tree_read_lock_delay':
            ('step', 'LOCK_DELAY(me_cpu, me_ctx)', 'the torture test\'s '
             'delay: the harness records that this lock ran it'),
            'spin_lock': ('acquire', 'SPIN_LOCK(me_cpu, me_ctx, {0})',
                          'a lock, the harness\'s: the leaf\'s excludes '
                          'REPORT_QS, PREEMPT and UNLOCK_SPECIAL, which '
                          'take it'),
            'spin_unlock': ('release', 'SPIN_UNLOCK(me_cpu, me_ctx, {0})',
                            'likewise'),
            '__spin_release': ('release',
                               'SPIN_UNLOCK(me_cpu, me_ctx, {0})',
                               'likewise (spin_unlock_irqrestore())'),
            **GP_SIDE_CALLS,
            **left_out('the stall detector and the kthread\'s state for '
                       'its report', 'rcu_gp_set_state',
                       'record_gp_stall_check_time'),
            'rcu_gp_hook': ('expr', '0', 'the boot tests\' hook: off'),
            'rcu_gp_init_apply_hotplug': ('expr', '0', 'no hotplug: '
                                          'qsmaskinit is every CPU'),
            'rcu_preempt_check_blocked_tasks_gp_init':
            ('locked', 'HOLD_BLOCKED(me_cpu, me_ctx)', 'the harness\'s: a '
             'task already on blkd_tasks holds the grace period (list '
             'work)'),
            'rcu_report_qs_rnp':
            ('step_release', 'REPORT_QS_RNP(me_cpu, me_ctx, {0})', 'the '
             'harness\'s: the mask\'s CPUs reported, then the leaf\'s lock '
             'released'),
            'rcu_note_gp_changes_locked':
            ('expr', '0', 'the CPU\'s view of gp_seq: left out'),
            'raise_softirq': ('expr', '0', 'callbacks: left out'),
            'set_need_resched_current':
            ('expr', '0', 'a reschedule request: the context switch is '
             'left out'),
            'rcu_segcblist_empty': ('expr', '1', 'the idle CPU has no '
                                    'callbacks')},
        locked={('rcu_node', 'qsmask'): (
            'rcu_node_lock', 'the reports (REPORT_QS, PREEMPT) take it '
            'too; rcu_gp_done()\'s unlocked read is the kthread\'s own'),
                ('rcu_node', 'gp_seq'): ('rcu_node_lock', 'likewise')},
        sole_writer={('rcu_state', 'gp_seq'): (
            'C_GP', ('rcu_gp_init', 'rcu_gp_cleanup'), 'the kthread\'s '
            'sequence, which the polled API reads')},
        plain={('rcu_node', 'gp_seq'):
               'the kthread\'s reads of what it writes, under the leaf\'s '
               'lock, which every writer holds',
               ('rcu_node', 'qsmask'): 'likewise',
               ('rcu_state', 'gp_seq'): 'the kthread\'s reads of what only '
               'it writes (rcu_seq_start())'},
        statistics={(o, f): 'the kthread\'s statistics' for o, f in (
            ('rcu_state', 'n_gp_started'), ('rcu_state', 'n_fqs_scans'),
            ('rcu_state', 'n_gp_completed'), ('rcu_state', 'gp_lat_sum_ns'),
            ('rcu_state', 'gp_lat_min_ns'), ('rcu_state', 'gp_lat_max_ns'),
            ('rcu_tree_data', 'n_fqs_reads'),
            ('rcu_tree_data', 'n_fqs_excused'))},
        private={('rcu_tree_data', 'watching_snap'): 'C_GP',
                 # Only the tick writes it here, and nothing reads it:
                 # rcu_report_qs_rdp() is the harness's REPORT_QS.
                 ('rcu_tree_data', 'cpu_no_qs'): 'C_IRQ'},
        # The preempt count's bits that the tick's rule reads
        # (rcu_preempt_interrupted_atomic()), for PREEMPT_COUNT().
        export={'HARDIRQ_OFFSET': 'kernel/preempt.h',
                'NMI_OFFSET': 'kernel/preempt.h'},
        cpu_private={('context_tracking', 'nesting'): 'CPU 1 only',
                     ('context_tracking', 'nmi_nesting'): 'CPU 1 only',
                     ('task', 'rcu_read_lock_nesting'):
                     'CPU 1\'s task, its handlers and its tick',
                     ('task', 'rcu_read_unlock_special.s'):
                     'CPU 1\'s task, its context switch and its readers\' '
                     'unlocks'},
        variants={'ct_nmi_enter_nmi': ('ct_nmi_enter', 'C_NMI'),
                  'ct_nmi_exit_nmi': ('ct_nmi_exit', 'C_NMI'),
                  '__rcu_tree_read_lock_nmi':
                  ('__rcu_tree_read_lock', 'C_NMI'),
                  '__rcu_tree_read_unlock_nmi':
                  ('__rcu_tree_read_unlock', 'C_NMI')},
    ),
}

# The polled API against the grace period, three CPUs: the tree model's
# grace-period side and idle CPU, and an updater on CPU 2 that polls.
SPECS['poll612'] = dict(
    SPECS['tree612'], name='poll612',
    files={
        'rcu/tree/context_tracking.c': ['ct_idle_enter', 'ct_idle_exit'],
        'rcu/tree/tree.c': [
            'rcu_gp_init', 'rcu_gp_fqs', 'rcu_gp_done', 'rcu_gp_cleanup',
            'rcu_tree_get_state_synchronize_rcu',
            'rcu_tree_poll_state_synchronize_rcu'],
        'rcu/tree/tree_plugin.c': [],
    },
    big_constants={**SPECS['tree612']['big_constants'],
                   (1 << 64) - 4: ('(-4)', '~RCU_SEQ_STATE_MASK: on the '
                                   'model\'s values, which are never '
                                   'negative, & -4 clears the same two '
                                   'bits')},
    variants={})

# The checks of make verify: (model, bounds (NOHZ, IRQ, NMI), memory
# models, what the run is for).  Every bound of a smaller run is inside
# the largest one's of its model under SC; the smaller ones are there for
# the memory models whose state space at that bound does not fit the
# 90-second budget.  flip2008's only bound is its reader's (NOHZ).
RUNS = [
    ('dynticks2008', (1, 0, 0), ('SC', 'TSO', 'TSO+LB'),
     'the idle loop alone: the seed patch\'s barriers'),
    ('dynticks2008', (0, 1, 1), ('SC', 'TSO', 'TSO+LB'),
     'an interrupt from idle, and an NMI inside it'),
    ('dynticks2008', (1, 1, 1), ('TSO',),
     'everything at once'),
    ('dynticks2008', (2, 1, 1), ('SC',),
     'everything at once, the idle loop twice round'),
    ('flip2008', (1, 0, 0), ('SC', 'TSO', 'TSO+LB', 'TSO+LB,hoist'),
     'one reader against the flip machine and the callback\'s stages'),
    ('flip2008', (2, 0, 0), ('SC',),
     'two readers, one after the other'),
    ('tree612', (1, 0, 0), ('SC', 'TSO', 'TSO+LB'),
     'the idle loop alone'),
    ('tree612', (0, 1, 1), ('SC', 'TSO', 'TSO+LB'),
     'an interrupt (the tick) from idle, and an NMI inside it'),
    ('tree612', (2, 1, 1), ('SC',),
     'everything at once, the idle loop twice round'),
    ('tree612', (1, 0, 1), ('TSO,nodrain',),
     'no window for an NMI in the modern step, drained or not'),
    ('tree612', (0, 1, 1), ('TSO,delay', 'TSO+LB,delay'),
     'the delay hook on, with an NMI\'s reader nested in the '
     'interrupt\'s'),
    ('poll612', (1, 0, 0), ('SC', 'TSO'),
     'three CPUs: the polled API\'s updater against the grace period '
     'and an idle CPU\'s reader'),
]

# The extracted models' runs of make verify-big (tests/spin/big.py):
# beyond make verify's budget.
BIG_RUNS = [
    ('tree612', (1, 1, 1), ('TSO',),
     'everything at once, under x86-TSO'),
    ('tree612', (1, 1, 1), ('SC,delay',),
     'the torture test\'s delay hook on: every outermost lock runs it, '
     'after its count'),
    ('dynticks2008', (2, 1, 1), ('TSO',),
     'everything at once, the idle loop twice round, under x86-TSO'),
]

# Runs that must fail: what the model shows that the C does not.
FAILS = [
    ('dynticks2008', (1, 0, 1), 'TSO,nodrain', 'safety',
     'without x86\'s drain at interrupt delivery, an NMI between '
     'rcu_exit_nohz()\'s counter store and its smp_mb() reads the odd '
     'counter from the store buffer and runs its reader unordered'),
]


def bounds_dict(b):
    return dict(zip(('NOHZ', 'IRQ', 'NMI'), b))


def mm_defs(mm):
    """spin's -D options for a memory model: SC, TSO or TSO+LB, then
    options: ",nodrain" (interrupt delivery does not drain the store
    buffer), ",sbN" (N store-buffer entries a CPU, not 4), ",hoist"
    (flip2008: a reader's critical-section loads may come before its
    lock), ",delay" (tree612: the torture test's delay hook is on)."""
    name, *extras = mm.split(',')
    defs = ['-DMM=%d' % MMS[name]]
    for extra in extras:
        if extra == 'nodrain':
            defs.append('-DDELIVERY_DRAINS=0')
        elif extra == 'hoist':
            defs.append('-DHOIST=1')
        elif extra == 'delay':
            defs.append('-DDELAY_HOOK=1')
        elif re.fullmatch(r'sb\d+', extra):
            defs.append('-DSB=%s' % extra[2:])
        else:
            raise ValueError('memory model %s: unknown ",%s"' % (mm, extra))
    return defs


def generate(root, out_dir, names=None):
    """Extract the models (all, or those named) from the C under root
    into out_dir; returns {model: source map} or raises ExtractError."""
    return {name: write(spec, root, out_dir)
            for name, spec in SPECS.items() if names is None or
            name in names}


def model_files(name, gen_dir):
    return [os.path.join(gen_dir, name + '-layout.pml'),
            os.path.join(gen_dir, name + '-gen.pml'), MEMORY,
            os.path.join(HARNESSES, 'common.pml'),
            os.path.join(HARNESSES, 'tree-gp.pml')]


# -- explaining a counterexample --

STEP_RE = re.compile(r'^\s*(\d+):\s+proc\s+\d+ \((\w+):\d+\) (\S+):(\d+) ')


def harness_ids(path):
    """{id: description} from the harness's #define HID_* lines."""
    ids = {}
    with open(path) as f:
        for line in f:
            m = re.match(r'#define\s+HID_\w+\s+(\d+)\s*/\*\s*(.*?)\s*\*/',
                         line)
            if m:
                ids[int(m.group(1))] = m.group(2)
    return ids


def describe(sid, smap, hids):
    steps = smap['steps']
    if 0 <= sid < len(steps):
        s = steps[sid]
        return '%s %s (%s)' % (s['chain'], s['where'], s['what'])
    return 'harness: %s' % hids.get(sid, 'step %d' % sid)


def reorderings(events):
    """The reorderings a trail shows: [(later, earlier, kind)] as step
    ids: a store that a later load of its CPU passed (SB), or a load that
    a later store of its CPU passed (LB)."""
    stored, visible = {}, {}
    found = []
    pending = {}
    for t, (kind, cpu, sid) in enumerate(events):
        if kind == 'store':
            stored.setdefault(cpu, []).append([sid, t, None])
        elif kind == 'visible':
            for s in stored.get(cpu, []):
                if s[0] == sid and s[2] is None:
                    s[2] = t
                    break
        elif kind == 'load':
            for s in stored.get(cpu, []):
                if s[2] is None:
                    found.append((sid, s[0], 'SB', s))
        elif kind == 'defer':
            pending[(cpu, sid)] = t
        elif kind == 'satisfy':
            t0 = pending.pop((cpu, sid), None)
            for s in stored.get(cpu, []):
                if t0 is not None and s[1] > t0 and s[2] is not None \
                        and s[2] < t:
                    found.append((s[0], sid, 'LB', s))
    # The harness's readers first: a reordering with their loads is the
    # one that lets a reader see its element freed.
    found.sort(key=lambda f: not (f[0] >= 200 or f[1] >= 200))
    return [(a, b, k) for a, b, k, s in found]


def explain(c, res):
    """After a failed run: replay the trail and say what failed, in the
    C's words (the function and line of a WARN, or the reordering that
    let a reader see its element freed)."""
    if not res.get('errors') or not res.get('dir'):
        return
    out = spin.trail(c, res)
    smap_path = os.path.join(res['dir'], c['map'])
    with open(smap_path) as f:
        smap = json.load(f)
    hids = {}
    for f in (os.path.basename(c['model']), 'common.pml'):
        hids.update(harness_ids(os.path.join(res['dir'], f)))
    events = []
    err = None
    for line in out.splitlines():
        m = re.search(r'MM (store|visible|load|defer|satisfy) (\d+) (\d+)',
                      line)
        if m:
            events.append((m.group(1), int(m.group(2)), int(m.group(3))))
        m = re.search(r'spin: (\S+):(\d+), Error: (.*)', line)
        if m and err is None:
            err = (m.group(1), int(m.group(2)), m.group(3))
    what = spin.first_error(res['out']) or res['msg']
    for key, words in PROPERTY:
        if key in what:
            what = words
            break
    if res['msg'].startswith('caught, but not by'):
        what = res['msg'].split(':')[0] + ': ' + what
    # The C function the failing process was last in.
    failing, last = None, {}
    after_err = False
    for line in out.splitlines():
        if 'Error:' in line:
            after_err = True
        m = STEP_RE.match(line)
        if m:
            if m.group(3).endswith('-gen.pml'):
                fn = smap['lines'].get(m.group(4))
                seq = last.setdefault(m.group(2), [])
                if fn and fn not in seq[-1:]:
                    seq.append(fn)
            if after_err and failing is None:
                failing = m.group(2)
    where_c = ''
    if failing and failing in last and 'WARN' not in what:
        where_c = '%s() last ran %s' % (failing, ', '.join(
            '%s()' % f for f in last[failing][-2:]))
    if err and err[0].endswith('-gen.pml'):
        fn = smap['lines'].get(str(err[1]))
        gen = os.path.join(res['dir'], err[0])
        text = open(gen).read().splitlines()[err[1] - 1] if \
            os.path.exists(gen) else ''
        m = re.search(r'/\* WARN (\d+) \*/', text)
        if m:
            s = smap['steps'][int(m.group(1))]
            where_c = 'WARN in %s %s' % (s['chain'], s['where'])
        elif fn:
            where_c = 'in %s()' % fn
    parts = [what]
    if where_c:
        parts.append(where_c)
    for a, b, kind in reorderings(events)[:2]:
        if kind == 'SB':
            parts.append('reordered (store buffering): %s passed by the '
                         'later %s' % (describe(b, smap, hids),
                                       describe(a, smap, hids)))
        else:
            parts.append('reordered (load buffering): %s visible before '
                         'the earlier %s' % (describe(a, smap, hids),
                                             describe(b, smap, hids)))
    res['msg'] = ('caught: ' if c['expect'] == 'error' and res['ok']
                  and not what.startswith('caught') else '') + \
        '; '.join(parts)


# What the assertions that fail mean.
PROPERTY = [
    ('reg[', 'safety: a reader saw its element freed'),
    ('!(shouldexit)', 'liveness: once CPU 1 stopped, the grace period '
     'did not end'),
    ('!(passed)', 'the flip machine went further than it may while a '
     'reader held its index (rcupreempt_torture_gp_passed())'),
    ('IRQS_DISABLED', 'lockdep_assert_irqs_disabled() failed'),
    ('!(queued)', 'blocked: the task\'s outermost rcu_read_unlock() left '
     'it on the leaf\'s blkd_tasks list'),
    ('delay_ran', 'delay: with the torture hook on, an outermost '
     'rcu_read_lock() did not run it, or a nested one did'),
    ('delay_t', 'delay: the torture hook ran with the count other than '
     '1 (before the lock set it, or in a nested lock)'),
]


# -- the checks --

KIND = {'safety': 'reg[', 'liveness': '!(shouldexit)',
        'flip': '!(passed)', 'warn': None, 'blocked': '!(queued)',
        'delay': 'delay_'}


def one(name, model, gen_dir, b, mm, expect, caught=None, note=''):
    """A check of harness model at bounds b under memory model mm."""
    harness = os.path.join('extracted', model + '.pml')
    # -DCOLLAPSE: a tenth of the memory, and so of the page faults, at
    # tree612's (1,1,1) (117 MB against 1,166 MB), in less time.
    c = spin.check(name, harness, bounds_dict(b), expect, note=note,
                   opt='-O0', cflags=['-DCOLLAPSE'], kind='extracted',
                   defs=mm_defs(mm),
                   files=model_files(model, gen_dir) + [
                       os.path.join(gen_dir, model + '.map.json')],
                   caught_by=KIND.get(caught), post=explain,
                   panargs=['-w22'])
    c['map'] = model + '.map.json'
    c['article'] = mm
    if caught == 'warn':
        c['need_warn'] = True
    return c


def label(model, b, mm):
    return 'X %s (%s) %s' % (model, ','.join(map(str, b)), mm)


def checks(only=None, runs=None):
    """Every check of the extracted models, for make verify; runs:
    only these (BIG_RUNS, for make verify-big), no mutants."""
    out = []
    try:
        smaps = generate(spin.ROOT, EXTRACTED)
    except ExtractError as e:
        return [spin.check('X extraction', '-', {}, 'pass', kind='extracted',
                           broken='extraction failed: %s' % e)]
    for model, b, mms, note in runs or RUNS:
        for mm in mms:
            out.append(one(label(model, b, mm), model, EXTRACTED, b, mm,
                           'pass', note=note))
    if runs:
        return [c for c in out if not only or only in c['name']]
    for model, b, mm, caught, note in FAILS:
        out.append(one(label(model, b, mm) + ' must fail', model, EXTRACTED,
                       b, mm, 'error', caught, note))
    out += mutant_checks(smaps)
    if only:
        out = [c for c in out if only in c['name']]
    return out


# -- kernel mutants --

def patch_meta(path):
    spins, text = [], open(path).read()
    head = re.split(r'^(?:--- |diff )', text, 1, flags=re.M)[0]
    for line in head.splitlines():
        m = re.match(r'Spin:\s*(.*)', line)
        if m:
            spins.append(m.group(1).split())
    return spins, text


def changed_lines(orig, patched):
    """The lines of orig (1-based) that patched removes or changes, and
    for lines it adds, the original line they go before."""
    a = open(orig).read().splitlines()
    b = open(patched).read().splitlines()
    out = []
    for tag, i1, i2, _, _ in difflib.SequenceMatcher(
            None, a, b, autojunk=False).get_opcodes():
        if tag in ('replace', 'delete'):
            out += range(i1 + 1, i2 + 1)
        elif tag == 'insert':
            out.append(i1 + 1)
    return out


def extracted_functions():
    """{file: {function: (first line, last line)}} of every function a
    model extracts or inlines, read from the specs' sources."""
    out = {}
    for spec in SPECS.values():
        for path in spec['files']:
            tu = TU(path, spin.ROOT)
            for name, fn in tu.functions.items():
                b = fn['range']['begin']
                e = fn['range']['end']
                f = (b.get('expansionLoc') or b).get('file')
                if f != path:
                    continue
                out.setdefault(path, {})[name] = (
                    (b.get('expansionLoc') or b).get('line'),
                    (e.get('expansionLoc') or e).get('line'))
    return out


def c_files():
    """The files the extraction reads: the C and its headers."""
    return subprocess.run(['git', 'ls-files', 'rcu', 'kernel',
                           'arch/x86/include'], cwd=spin.ROOT,
                          stdout=subprocess.PIPE, universal_newlines=True,
                          check=True).stdout.split()


def source_key(patch):
    """What a mutant's extraction depends on: the patch, the C, the
    extractor and the specs."""
    h = hashlib.sha1()
    extractor = os.path.join(spin.ROOT, 'tools', 'extract')
    paths = [patch, os.path.abspath(__file__)] + [
        os.path.join(spin.ROOT, f) for f in c_files()] + sorted(
        os.path.join(extractor, f) for f in os.listdir(extractor)
        if f.endswith(('.py', '.h')))
    for path in paths:
        if os.path.exists(path):
            with open(path, 'rb') as f:
                h.update(path.encode() + b'\0' + f.read())
    return h.hexdigest()


def copy_tree(dst):
    for f in c_files():
        src = os.path.join(spin.ROOT, f)
        if os.path.exists(src):
            os.makedirs(os.path.dirname(os.path.join(dst, f)), exist_ok=True)
            shutil.copy2(src, os.path.join(dst, f))


def apply_patch(path, tmp):
    """Copy the C into tmp and apply the patch there, forward only: None,
    or why not (tests/mutants/patch.py)."""
    copy_tree(tmp)
    return mutant_patch.apply(path, tmp)


def mutant_checks(smaps):
    """For every kernel mutant: the runs its "Spin:" lines ask for, on
    models extracted from its patched C; a failure if it edits a
    function the models run and has no "Spin:" line."""
    used = set()
    for smap in smaps.values():
        for s in smap['steps']:
            used.update(re.findall(r'(\w+)\(\)', s['chain']))
        used.update(smap['functions'])
    sources = {f for spec in SPECS.values() for f in spec['files']}
    todo = []
    for sub in sorted(os.listdir(KERNEL_MUTANTS)):
        d = os.path.join(KERNEL_MUTANTS, sub)
        for fname in sorted(os.listdir(d)):
            path = os.path.join(d, fname)
            spins, text = patch_meta(path) if fname.endswith('.patch') \
                else (None, '')
            files = set(re.findall(r'^--- a/(\S+)', text, re.M))
            if spins or files & sources:
                todo.append((path, spins, files & sources))
    ctx = dict(used=used, funcs=extracted_functions())
    # Two at a time, as the checks of make verify run: each mutant is
    # copied, patched and extracted in directories of its own, so the
    # two share nothing.  Processes, not threads: reading clang's AST
    # is Python's own work, which one process does on one core.
    with concurrent.futures.ProcessPoolExecutor(max_workers=2) as pool:
        return [e for entries in pool.map(
            one_mutant, [ctx] * len(todo), *zip(*todo)) for e in entries]


def one_mutant(ctx, path, spins, files):
    """mutant_checks()'s entries for the mutant at path: from the models
    extracted from its patched C before (the same patch, C, extractor
    and specs), or extracted now."""
    mname = os.path.basename(path)[:-len('.patch')]
    gen = os.path.join(EXTRACTED, 'mutants', mname)
    stamp = os.path.join(gen, 'key')
    key = source_key(path)
    if os.path.exists(stamp) and open(stamp).read() == key:
        with open(os.path.join(gen, 'hit')) as f:
            return mutant_entries(mname, spins, f.read().split(), None, gen)
    tmp = tempfile.mkdtemp(prefix='dynrcu-xmut-')
    hit, at = [], []
    try:
        why = apply_patch(path, tmp)
        # A C that has the edit already: the copy with the patch taken
        # out again differs from the C where the edit is.
        applied = bool(why) and why.startswith(
            mutant_patch.ALREADY) and not mutant_patch.revert(path, tmp)
        for f in sorted(files) if not why or applied else ():
            lines = changed_lines(os.path.join(spin.ROOT, f),
                                  os.path.join(tmp, f))
            for fn, (lo, hi) in sorted(ctx['funcs'].get(f, {}).items()):
                mine = [n for n in lines if lo <= n <= hi]
                if fn in ctx['used'] and mine:
                    hit.append(fn)
                    at.append('%s() %s:%s' % (fn, f, '-'.join(
                        str(n) for n in sorted({mine[0], mine[-1]}))))
        if applied:
            why += '; the C has it in %s' % (
                ', '.join(at) or 'no function the models run')
        if spins and not why:
            try:
                generate(tmp, gen, {w[0] for w in spins if w})
            except ExtractError as e:
                why = 'extraction failed: %s' % e
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if not why:
        os.makedirs(gen, exist_ok=True)
        with open(os.path.join(gen, 'hit'), 'w') as f:
            f.write(' '.join(hit))
        with open(stamp, 'w') as f:
            f.write(key)
    return mutant_entries(mname, spins, hit, why, gen)


def no_post(c, res):
    """A check with nothing to explain, that judge() still judges."""


def mutant_entries(mname, spins, hit, why, gen):
    if why and why.startswith(mutant_patch.ALREADY):
        # One failure, not one a "Spin:" line: each of its runs would be
        # a run of the C as it is, which the clean checks above make.
        # judge() skips it instead where one of those fails, as this
        # mutant's run would: the C is the mutant (a seed revert), and
        # that failure is the report.
        c = spin.check(
            'mutant kernel:%s' % mname, '-', {}, 'error', kind='mutant',
            broken='%s; its runs (%s) would be the C\'s own, above' % (
                why, '; '.join(' '.join(w) for w in spins)))
        c['post'] = no_post
        c['as_clean'] = [label(w[0], tuple(int(x) for x in
                                           w[1].split(',')), w[2])
                         for w in spins if len(w) == 4 and
                         w[3].startswith('caught')]
        return [c]
    if hit and not spins:
        return [spin.check(
            'mutant kernel:%s' % mname, '-', {}, 'error', kind='mutant',
            broken='edits %s, which the extracted models run, but names '
            'no "Spin:" model' % ', '.join('%s()' % f for f in hit))]
    return [mutant_run(mname, words, why, gen) for words in spins]


def same_model(model, gen):
    """Is the model extracted into gen the clean one (but for its
    comments, which say where each function is)?"""
    def code(path):
        with open(path) as f:
            return re.sub(r'/\*.*?\*/', '', f.read(), flags=re.S)
    for suffix in ('-layout.pml', '-gen.pml'):
        a = os.path.join(EXTRACTED, model + suffix)
        b = os.path.join(gen, model + suffix)
        if not os.path.exists(b) or code(a) != code(b):
            return False
    return True


def mutant_run(mname, words, why, gen):
    """The check one "Spin:" line asks for."""
    if len(words) != 4 or words[0] not in SPECS:
        return spin.check('mutant kernel:%s' % mname, '-', {}, 'error',
                          kind='mutant', broken='bad "Spin:" line: %s' %
                          ' '.join(words))
    model, b, mm, verdict = words
    b = tuple(int(x) for x in b.split(','))
    name = 'mutant kernel:%s %s' % (mname, label(model, b, mm)[2:])
    if why:
        return spin.check(name, '-', {}, 'error', kind='mutant', broken=why)
    expect = 'pass' if verdict == 'survives' else 'error'
    caught = verdict.partition(':')[2] or None
    if expect == 'pass' and same_model(model, gen):
        # The edit lies in code the spec fixes: nothing to run.
        return spin.check(name, '-', {}, 'pass', kind='mutant',
                          passed='survives: its extracted model is the '
                          'clean one (comments aside)')
    c = one(name, model, gen, b, mm, expect, caught,
            note='kernel mutant ' + mname)
    c['kind'] = 'mutant'
    c['clean'] = label(model, b, mm)
    return c


def unit_tests():
    """[(ok, what)]: the extractor's host tests."""
    from tools.extract import test_extract
    return test_extract.run_tests()


def judge(c, res, done):
    """verify_one's verdict, then the caught-by-a-WARN rule; done: the
    results so far, by check name.  A mutant that the C has already
    is skipped where a run it must be caught by fails on the C as it
    is (that failure is the report); otherwise it fails.  A mutant's
    run that the clean C fails too (its "clean" check, run before it)
    says nothing of the mutant, caught or not: it is skipped, naming
    that failure, which is the C's own and reported as such."""
    failed = [name for name in c.get('as_clean', ())
              if done.get(name, {}).get('ok') is False]
    if failed:
        res['ok'] = None
        res['msg'] = 'skipped: the C is this mutant (%s); %s fails ' \
            'above, as its run would' % (res['msg'], ', '.join(failed))
        return
    base = done.get(c.get('clean'))
    if base is not None and base['ok'] is False:
        res['ok'] = None
        res['msg'] = 'skipped: the C as it is fails this run too (%s, ' \
            'above)' % c['clean']
        return
    if c.get('need_warn') and res['ok'] and 'WARN in' not in res['msg']:
        res['ok'] = False
        res['msg'] = 'caught, but not by a WARN: ' + res['msg']


def table():
    """docs/spin-extractor.md's table: each extracted C function and its steps,
    from the source maps of the models just generated."""
    smaps = generate(spin.ROOT, EXTRACTED)
    marks = {'step': '', 'private': ' (private: joins)',
             'joined': ' (joins the step before)', 'assert': ' (assert)',
             'harness': ' (the harness\'s step)'}
    print('| model | C function | its steps, in order (line: access) |')
    print('|---|---|---|')
    for model, smap in smaps.items():
        rows = {}
        for st in smap['steps']:
            if st['top'].endswith('_nmi'):
                continue    # the NMI variants: the same steps, joined
            at = smap['functions'][st['top']].rsplit(':', 1)[0]
            path, line = st['where'].rsplit(':', 1)
            inner = st['chain'].split(' <- ')[0]
            if inner != st['top'] + '()':
                line = '%s:%s in %s' % (os.path.basename(path), line, inner)
            # The inline's own temporaries lose its prefix; a field
            # that begins with the same words (after a '.') keeps it.
            what = re.sub(r'(?<![\w.])%s_' % re.escape(st['top']), '',
                          st['what'])
            what = re.sub(r'\[\(?(me_cpu|a_rdp|\w*cpu)\)?\]', '[cpu]',
                          what)
            what = re.sub(r'\[\(?a_(\w+)\)?\]', r'[\1]', what)
            what = re.sub(r'\[CURRENT\(me_cpu, me_ctx\)\]', '[current]',
                          what)
            rows.setdefault((st['top'], smap['functions'][st['top']]),
                            []).append('%s: %s%s' % (line, what,
                                                     marks[st['kind']]))
        for (fn, at), steps in rows.items():
            print('| %s | `%s()` %s | %s |' % (model, fn, at,
                                               '; '.join(steps)))


def main():
    spin.need_tools()
    if '--table' in sys.argv:
        table()
        return 0
    only = None
    if '--only' in sys.argv:
        only = sys.argv[sys.argv.index('--only') + 1]
    done = {}
    for c in checks(only, BIG_RUNS if '--big' in sys.argv else None):
        res = spin.verify_one(c, spin.build_one(c))
        if c.get('post'):
            c['post'](c, res)
        judge(c, res, done)
        done[c['name']] = res
        print('%-4s %-52s %9s states  %s' % (
            spin.mark(res['ok']), c['name'], spin.fmt_int(res['states']),
            res['msg'] or 'expected ' + c['expect']))
        sys.stdout.flush()
    oks = [r['ok'] for r in done.values()]
    print(spin.totals(oks))
    return 1 if False in oks else 0


if __name__ == '__main__':
    sys.exit(main())
