# SPDX-License-Identifier: GPL-2.0
"""The hand-written models against the C that boots
(docs/spin-drift.md): no drift.

    python3 -m tests.spin.drift [--c-root DIR] [--hand FILE ...]

Each hand model marks the code that stands for a C function with
"/* C: NAME */" ... "/* C: end */".  For every marked region this
compares the ordered list of shared-memory accesses and barriers (load,
store, atomic RMW, full barrier; the variable) with the same list of the
C function, read from the extractor's source map (tools/extract: the
steps of build/spin/extracted/MODEL.map.json, regenerated from the C by
each make verify).  The hand side is read from the Promela text of the
region; the C side is never read from the C text.

Every difference that a model means to have is in MAP below, with its
reason: which hand variables stand for which C fields, which C fields a
model leaves out, hand statements that are checks of the model only
(ghost), C steps a region leaves out, and whether the model has
barriers.  Both lists are then normalized by the three rules of
normalize().  A difference left over fails make verify with the model,
the function and the first differing step.

Ends with "N passed, N failed", like the extractor's tests; make verify
runs run_checks() and unit_tests() (the negative cases).
"""

import json
import os
import re
import subprocess
import sys

from tools import spin

EXTRACTED = os.path.join(spin.BUILD, 'extracted')

# The one table of the comparison.  Per hand model:
#   model      the extracted model whose source map has the C functions
#   vars       {hand variable: C field}: what the hand model's shared
#              variables stand for (any other variable is the harness's
#              or a local, and is not compared)
#   prims      {hand macro or inline: [(kind, field or "$0")]}: the
#              accesses one use of it makes ("$0": its first argument)
#   incr       the kind of "x++" / "x--" on a mapped variable: "rmw"
#              (one atomic step) or "ls" (a load, then a store)
#   reload     C fields only their CPU writes, and that a handler which
#              interrupts restores: a second load with no store between
#              reads the same value (rule 2 of normalize())
#   barriers   False: a sequentially consistent model, so the C's
#              barriers are not compared
#   c_fields   {C field: reason}: fields of the C that the model leaves
#              out; their steps are not compared
#   regions    {C function: [(edit, text, reason)]}: the deliberate
#              differences of one region: ("ghost", hand statement, why)
#              drops the accesses of that hand statement (the first one
#              of that text in the region), ("c_only", "KIND FIELD", why)
#              drops the first such step of the C's list
# A region's C function is a function the model extracts (its "top",
# the _nmi variants included) or a function inlined into one (the steps
# whose call chain holds it, in the first top that calls it).
IDLE_2008 = {
    'dynticks_progress_counter': 'rcu_data.dynticks_progress_counter',
    'rcu_update_flag': 'rcu_data.rcu_update_flag',
}
FLAG_RELOAD = {'rcu_data.rcu_update_flag':
               'rcu_update_flag is its CPU\'s, and every handler '
               'restores it before the code it interrupted runs again'}
GP_2008 = {
    'rcu_try_flip_waitack_needed': [],
    'rcu_try_flip_waitmb_needed': [],
    'dyntick_save_progress_counter': [],
}
GP_2008_VARS = {'snap': 'rcu_data.rcu_dyntick_snapshot'}
SNAP_RELOAD = {'rcu_data.rcu_dyntick_snapshot': 'only the grace-period '
               'machine writes it'}

MAP = {
    'dyntickRCU-wmm.spin': dict(
        model='dynticks2008',
        vars=dict(IDLE_2008, **GP_2008_VARS),
        prims={'LOAD_CTR': [('load', 'rcu_data.dynticks_progress_counter')],
               'STORE_CTR': [('store',
                              'rcu_data.dynticks_progress_counter')],
               'MB': [('mb', None)]},
        incr='ls', reload=SNAP_RELOAD, barriers=True, c_fields={},
        # The seed patch reverted (the code before it): the hand model
        # of that code is this one through these seds, which make
        # verify's must-fail runs use (checks.py).
        before_seed=['wmm/prepatch-enter.sed', 'wmm/prepatch-exit.sed'],
        regions={
            'rcu_exit_nohz': [], 'rcu_enter_nohz': [],
            'dyntick_save_progress_counter': [],
            'rcu_try_flip_waitack_needed': [
                ('c_only', 'mb', 'the grace-period CPU is kept '
                 'sequentially consistent: only the idle CPU\'s barriers '
                 'are in question')],
            'rcu_try_flip_waitmb_needed': [
                ('c_only', 'mb', 'likewise')]},
    ),
    'dyntickRCU-irq-nmi-ssl-reduced.spin': dict(
        model='dynticks2008',
        vars=dict(IDLE_2008, **GP_2008_VARS),
        prims={'NMI_COUNTER_INC': [
            ('load', 'rcu_data.dynticks_progress_counter'),
            ('store', 'rcu_data.dynticks_progress_counter')]},
        incr='ls', reload=dict(FLAG_RELOAD, **SNAP_RELOAD), barriers=False,
        c_fields={},
        regions=dict({
            'rcu_exit_nohz': [], 'rcu_enter_nohz': [],
            'rcu_irq_enter': [], 'rcu_irq_exit': [],
            'rcu_irq_enter_nmi': [], 'rcu_irq_exit_nmi': []}, **GP_2008),
    ),
    'dyntickRCU-unbounded.spin': dict(
        model='dynticks2008',
        # The counter is abstracted: its parity and its distance from
        # the snapshot stand for it, and the copies' inlines are its
        # loads and stores.
        vars=dict(IDLE_2008, ctr_par='rcu_data.dynticks_progress_counter',
                  ctr_d='rcu_data.dynticks_progress_counter'),
        prims={'nohz_load': [('load',
                              'rcu_data.dynticks_progress_counter')],
               'irq_load': [('load', 'rcu_data.dynticks_progress_counter')],
               'nohz_store': [('store',
                               'rcu_data.dynticks_progress_counter')],
               'irq_store': [('store',
                              'rcu_data.dynticks_progress_counter')],
               'NMI_COUNTER_INC': [
                   ('load', 'rcu_data.dynticks_progress_counter'),
                   ('store', 'rcu_data.dynticks_progress_counter')],
               'snapshot': [('load', 'rcu_data.dynticks_progress_counter'),
                            ('store', 'rcu_data.rcu_dyntick_snapshot')],
               'n_inc': [('load', '$0'), ('store', '$0')],
               'n_dec': [('load', '$0'), ('store', '$0')]},
        incr='ls', reload=FLAG_RELOAD, barriers=False, c_fields={},
        regions=dict({
            'rcu_exit_nohz': [], 'rcu_enter_nohz': [],
            'rcu_irq_enter': [], 'rcu_irq_exit': [],
            'rcu_irq_enter_nmi': [], 'rcu_irq_exit_nmi': [],
            'dyntick_save_progress_counter': []},
            rcu_try_flip_waitack_needed=[
                ('c_only', 'load rcu_data.rcu_dyntick_snapshot',
                 'the abstraction keeps the counter\'s distance from the '
                 'snapshot (ctr_d), so the snapshot is not read again'),
                ('ghost', '(ctr_d == D_TOP) || (ctr_par == 0)', 'the '
                 'second guard of the same atomic test reads the counter '
                 'where the C (and model 7) test the local copy curr')],
            rcu_try_flip_waitmb_needed=[
                ('c_only', 'load rcu_data.rcu_dyntick_snapshot',
                 'likewise'),
                ('ghost', '(ctr_d != D_ZERO)', 'likewise')]),
    ),
    'dyntickRCU-atomic.spin': dict(
        model='tree612',
        vars={'dynticks_progress_counter': 'context_tracking.state',
              'snap': 'rcu_tree_data.watching_snap'},
        prims={}, incr='rmw', barriers=False,
        reload={'rcu_tree_data.watching_snap': 'only the grace-period '
                'kthread writes it'},
        c_fields={'context_tracking.nesting': 'the design model has no '
                  'nesting counts: did_inc[] stands for nmi_nesting == 1',
                  'context_tracking.nmi_nesting': 'likewise'},
        regions={
            'ct_idle_exit': [], 'ct_idle_enter': [],
            'ct_irq_enter': [], 'ct_nmi_enter_nmi': [],
            'ct_irq_exit': [
                ('c_only', 'load context_tracking.state', 'the WARN\'s '
                 'rcu_is_watching_curr_cpu(): the design model has no '
                 'WARN on exit')],
            'ct_nmi_exit_nmi': [
                ('c_only', 'load context_tracking.state', 'likewise')],
            'rcu_watching_snap_save': [],
            'rcu_watching_snap_recheck': []},
    ),
    'dyntickRCU-tree.spin': dict(
        model='tree612',
        # ctr_par and ctr_moved abstract ct->state (section 8).
        vars={'ctr_par': 'context_tracking.state',
              'ctr_moved': 'context_tracking.state',
              'snap_par': 'rcu_tree_data.watching_snap',
              'nmi_nesting': 'context_tracking.nmi_nesting',
              'ct_nesting': 'context_tracking.nesting'},
        prims={'ctr_step': [('rmw', 'context_tracking.state')]},
        incr='ls', barriers=False, c_fields={},
        reload={'context_tracking.nmi_nesting': 'its CPU\'s; a handler '
                'that interrupts restores it'},
        regions={
            'ct_idle_exit': [
                ('ghost', 'assert(ctr_par == 0)', 'the model\'s own check '
                 'that mainline was idle; the C has no such WARN')],
            'ct_idle_enter': [
                ('ghost', 'assert(ctr_par == 1)', 'the model\'s own check '
                 'that mainline was watching')],
            'ct_irq_enter': [
                ('ghost', 'assert(nmi_nesting < 128)', 'Linux 6.12\'s '
                 'WARN_ON_ONCE(nmi_nesting < 0) in ct_nmi_enter(), which '
                 'dynrcu\'s ct_nmi_enter() does not have')],
            'ct_nmi_enter_nmi': [
                ('ghost', 'assert(nmi_nesting < 128)', 'likewise')],
            'ct_irq_exit': [], 'ct_nmi_exit_nmi': [],
            'rcu_watching_snap_save': [
                ('ghost', 'ctr_moved = 0', 'the abstraction\'s "moved '
                 'since the snapshot" bit restarts with the snapshot: no '
                 'access of the C')],
            'rcu_watching_snap_recheck': [
                ('c_only', 'load rcu_tree_data.watching_snap', 'the '
                 'abstraction keeps "moved since the snapshot" in '
                 'ctr_moved, so the snapshot is not read again')]},
    ),
}

KINDS = ('load', 'store', 'rmw', 'mb')


# -- the C side: the extractor's source map --

def c_step(st):
    """(kind, field) of one source-map step, or None (a WARN, a step of
    the harness)."""
    what = st['what']
    if what == 'mb':
        return ('mb', None)
    if what.startswith('barrier '):
        # A compiler barrier: the hand models, like the extracted ones,
        # keep each process's program order; there is nothing to compare.
        return None
    m = re.match(r'(\S+) (.*)$', what)
    if not m or st['kind'] in ('assert', 'harness'):
        return None
    op, ref = m.groups()
    field = re.sub(r'\[[^\]]*\]', '', ref)
    field = re.sub(r'\[[^\]]*\]', '', field)   # nested indexes
    if op in ('READ_ONCE', 'load', '__atomic_load_n'):
        return ('load', field)
    if op in ('WRITE_ONCE', 'store'):
        return ('store', field)
    if op.startswith('__atomic_'):
        return ('rmw', field)
    raise ValueError('drift: unknown step %r' % what)


def c_steps(smap, fn):
    """[(kind, field, where)] of C function fn, in the source map's
    order."""
    steps = smap['steps']
    picked = [s for s in steps if s['top'] == fn]
    if not picked:
        tops = [s['top'] for s in steps
                if '%s()' % fn in s['chain'].split(' <- ')]
        if not tops:
            return None
        picked = [s for s in steps if s['top'] == tops[0] and
                  '%s()' % fn in s['chain'].split(' <- ')]
    out = []
    for s in picked:
        k = c_step(s)
        if k:
            out.append(k + (s['where'],))
    return out


# -- the hand side: the Promela text of the marked regions --

REGION_RE = re.compile(r'/\*\s*C:\s*(\w+)\s*\*/')


def regions(text):
    """[(C function, first line, region text)] of a hand model."""
    out = []
    cur = None
    for m in REGION_RE.finditer(text):
        line = text.count('\n', 0, m.start()) + 1
        if cur:
            out.append((cur[0], cur[1], text[cur[2]:m.start()]))
            cur = None
        if m.group(1) != 'end':
            cur = (m.group(1), line, m.end())
    if cur:
        raise ValueError('region %s from line %d has no "/* C: end */"' %
                         (cur[0], cur[1]))
    return out


SPLIT_RE = re.compile(r';|->|::|\{|\}|\b(?:if|fi|do|od|atomic|d_step|'
                      r'else|skip|break)\b')
TOKEN_RE = re.compile(r'(\w+)\s*(\+\+|--|=(?!=)|\()?')


def hand_steps(cfg, fn, line0, text):
    """[(kind, field, where)] of one region, after its ghost edits."""
    ghosts = [e[1] for e in cfg['regions'].get(fn, []) if e[0] == 'ghost']
    out = []
    body = re.sub(r'/\*.*?\*/', lambda m: '\n' * m.group(0).count('\n'),
                  text, flags=re.S)
    pos = 0
    for part in SPLIT_RE.split(body):
        at = body.index(part, pos)
        pos = at + len(part)
        line = line0 + body.count('\n', 0, at + len(part) -
                                  len(part.lstrip()))
        stmt = ' '.join(part.split())
        if not stmt:
            continue
        if stmt in ghosts:
            ghosts.remove(stmt)
            continue
        where = 'line %d' % line
        loads, store = [], []
        for m in TOKEN_RE.finditer(stmt):
            name, op = m.group(1), m.group(2)
            if name in cfg['prims'] and op == '(':
                arg = re.match(r'\s*(\w*)', stmt[m.end():]).group(1)
                for kind, field in cfg['prims'][name]:
                    if field == '$0':
                        field = cfg['vars'].get(arg)
                        if field is None:
                            continue
                    loads.append((kind, field, where))
                continue
            field = cfg['vars'].get(name)
            if field is None:
                continue
            if op in ('++', '--'):
                if cfg['incr'] == 'rmw':
                    loads.append(('rmw', field, where))
                else:
                    loads += [('load', field, where),
                              ('store', field, where)]
            elif op == '=':
                store.append(('store', field, where))
            else:
                loads.append(('load', field, where))
        # An assignment's right-hand side is read before its target is
        # written.  One expression that reads two variables standing for
        # one field (the abstracted counter's parity and distance) reads
        # it once.
        mine = []
        for s in loads + store:
            if s[0] != 'load' or s[:2] not in [m[:2] for m in mine]:
                mine.append(s)
        out += mine
    if ghosts:
        raise ValueError('%s: ghost statement %r not found' % (fn, ghosts[0]))
    return out


# -- the comparison --

def normalize(steps, cfg):
    """The three rules, on either side, to a fixpoint:
    1. a load of X that follows the function's own store or RMW of X,
       with no other access of X between, reads back its own value (the
       C keeps it in a local; the model reads memory): dropped;
    2. a load of a field of cfg['reload'] that follows a load of it with
       no store of it between reads the same value: dropped;
    3. of two stores of X with no access of X between, the first is
       dead: dropped."""
    steps = list(steps)
    changed = True
    while changed:
        changed = False
        last = {}
        for i, (kind, field, _) in enumerate(steps):
            prev = last.get(field)
            if kind == 'load' and prev in ('store', 'rmw'):
                del steps[i]
                changed = True
                break
            if kind == 'load' and prev == 'load' and field in cfg['reload']:
                del steps[i]
                changed = True
                break
            if kind == 'store' and prev == 'store':
                j = max(j for j in range(i) if steps[j][1] == field)
                del steps[j]
                changed = True
                break
            if field is not None:
                last[field] = kind
    return steps


def fmt(step):
    kind, field, where = step
    name = {'load': 'load', 'store': 'store', 'rmw': 'atomic RMW',
            'mb': 'smp_mb'}[kind]
    return '%s%s (%s)' % (name, ' ' + field if field else '', where)


def compare(hand_name, cfg, hand_text, smap):
    """[error message] of one hand model against the source map."""
    errs = []
    found = set()
    try:
        regs = regions(hand_text)
    except ValueError as e:
        return ['%s: %s' % (hand_name, e)]
    for fn, line0, text in regs:
        found.add(fn)
        if fn not in cfg['regions']:
            errs.append('%s %s: region not in drift.MAP' % (hand_name, fn))
            continue
        c = c_steps(smap, fn)
        if c is None:
            errs.append('%s %s: the extracted model %s has no such '
                        'function' % (hand_name, fn, cfg['model']))
            continue
        c = [s for s in c if s[1] not in cfg['c_fields'] and
             (cfg['barriers'] or s[0] != 'mb')]
        for edit, what, _ in cfg['regions'][fn]:
            if edit != 'c_only':
                continue
            kind, _, field = what.partition(' ')
            hit = [i for i, s in enumerate(c)
                   if s[0] == kind and (s[1] or '') == field]
            if not hit:
                errs.append('%s %s: the C has no %s to leave out (drift.MAP '
                            'is stale)' % (hand_name, fn, what))
                continue
            del c[hit[0]]
        try:
            h = hand_steps(cfg, fn, line0, text)
        except ValueError as e:
            errs.append('%s %s' % (hand_name, e))
            continue
        if not cfg['barriers']:
            h = [s for s in h if s[0] != 'mb']
        c, h = normalize(c, cfg), normalize(h, cfg)
        for n in range(max(len(c), len(h))):
            hs = h[n] if n < len(h) else None
            cs = c[n] if n < len(c) else None
            if hs is None or cs is None or hs[:2] != cs[:2]:
                errs.append('%s %s: step %d: hand has %s, C has %s' % (
                    hand_name, fn, n + 1, fmt(hs) if hs else 'nothing',
                    fmt(cs) if cs else 'nothing'))
                break
    for fn in sorted(set(cfg['regions']) - found):
        errs.append('%s %s: no "/* C: %s */" region in the model' % (
            hand_name, fn, fn))
    return errs


def load_maps(gen_dir):
    maps = {}
    for cfg in MAP.values():
        path = os.path.join(gen_dir, cfg['model'] + '.map.json')
        if cfg['model'] not in maps and os.path.exists(path):
            with open(path) as f:
                maps[cfg['model']] = json.load(f)
    return maps


def run_checks(gen_dir=EXTRACTED, hands=None):
    """[(ok, what)]: each hand model against the maps in gen_dir.
    hands: {model file name: path} to compare other copies."""
    maps = load_maps(gen_dir)
    out = []
    for name, cfg in MAP.items():
        path = (hands or {}).get(name, os.path.join(spin.MODELS, name))
        if cfg['model'] not in maps:
            out.append((False, '%s: no source map of %s (the extraction '
                        'failed)' % (name, cfg['model'])))
            continue
        with open(path) as f:
            text = f.read()
        errs = compare(name, cfg, text, maps[cfg['model']])
        seed = before_seed(name, cfg, text, maps[cfg['model']]) \
            if errs else None
        if seed:
            # Not a drift: the C is the code before the seed patch, which
            # the extracted models' runs above fail, naming the step.
            out.append((None, '%s: skipped: the C is the code before the '
                        'seed patch: it matches this model through %s' % (
                            name, seed)))
        elif errs:
            out += [(False, e) for e in errs]
        else:
            out.append((True, '%s: %d functions, steps equal to the C\'s' %
                        (name, len(cfg['regions']))))
    return out


def before_seed(name, cfg, text, smap):
    """The sed of cfg's before_seed whose model of the code before the
    seed patch has no difference from the C, or None."""
    for sed in cfg.get('before_seed', ()):
        edited = subprocess.run(['sed', '-f', os.path.join(spin.MODELS,
                                                           sed)],
                                input=text, stdout=subprocess.PIPE,
                                universal_newlines=True, check=True).stdout
        if not compare(name, cfg, edited, smap):
            return sed
    return None


# -- the negative cases, run by make verify --

def mutate_c(smap, fn, kind, after_kind):
    """(a copy of smap with fn's first step of kind moved after its first
    later step of after_kind, None), as the seed patch reverted moves
    rcu_enter_nohz()'s smp_mb() after the increment's store; or (None,
    why) where the C allows no such move: it has no such step, or it
    already has the edit (no step of after_kind comes after it)."""
    smap = json.loads(json.dumps(smap))
    steps = smap['steps']
    idx = [i for i, s in enumerate(steps) if s['top'] == fn and c_step(s)]
    first = [i for i in idx if c_step(steps[i])[0] == kind]
    if not first:
        return None, '%s() has no %s step in the C' % (fn, kind)
    i = first[0]
    later = [j for j in idx if j > i and c_step(steps[j])[0] == after_kind]
    if not later:
        return None, '%s()\'s %s (%s) has no %s after it: the C already ' \
            'has the edit this case makes' % (fn, kind, steps[i]['where'],
                                              after_kind)
    steps.insert(later[0], steps.pop(i))
    return smap, None


def negative(name, hand, smap, fn, want, what, bad_hand=None, bad_map=None,
             why=None):
    """(ok, what) of one negative case: the mutated hand model or C
    (bad_hand, bad_map) must add exactly one difference to those of the
    models as they are, in fn, beginning with want.  ok is None (the case
    is skipped) where the mutation cannot be made (why), or where fn
    already differs from the C: the drift check reports that difference
    itself, and a second one in the same function would not be seen."""
    cfg = MAP[name]

    def where(err):
        # "MODEL FUNCTION": the same difference, wherever the edit moved
        # the lines after it.
        return err.split(':')[0]
    base = compare(name, cfg, hand, smap)
    mine = [e for e in base if where(e) == '%s %s' % (name, fn)]
    if why or mine:
        return None, '%s: skipped: %s' % (what, why or (
            'the models as they are already differ there: ' + mine[0]))
    errs = compare(name, cfg, bad_hand or hand, bad_map or smap)
    new = [e for e in errs if where(e) not in map(where, base)]
    return (len(new) == 1 and new[0].startswith(want),
            '%s: %s' % (what, '; '.join(new) or 'no difference found'))


def unit_tests(gen_dir=EXTRACTED):
    """[(ok, what)]: the check must fail on a mutated C step list and on
    a mutated hand model, naming the model, the function and the step
    (ok None: skipped, with the reason; see negative())."""
    maps = load_maps(gen_dir)
    if 'dynticks2008' not in maps or 'tree612' not in maps:
        return [(False, 'unit tests: no source maps')]
    out = []
    name = 'dyntickRCU-wmm.spin'
    with open(os.path.join(spin.MODELS, name)) as f:
        wmm = f.read()
    # The seed patch reverted in the C: the mb after the increment.
    bad, why = mutate_c(maps['dynticks2008'], 'rcu_enter_nohz', 'mb',
                        'store')
    out.append(negative(
        name, wmm, maps['dynticks2008'], 'rcu_enter_nohz',
        '%s rcu_enter_nohz: step 1: hand has smp_mb' % name,
        'the C with rcu_enter_nohz()\'s smp_mb() after the increment must '
        'fail', bad_map=bad, why=why))
    # A barrier dropped from the hand model (a model without that line
    # adds no difference, and fails the case).
    cut = re.sub(r'\n\s*MB\(\);\s*/\* exit:[^\n]*', '', wmm, count=1)
    out.append(negative(
        name, wmm, maps['dynticks2008'], 'rcu_exit_nohz',
        '%s rcu_exit_nohz: step 3: hand has nothing, C has smp_mb' % name,
        'the wmm model without rcu_exit_nohz()\'s MB() must fail',
        bad_hand=cut))
    # The tree model's step moved before its nesting counts.
    name = 'dyntickRCU-tree.spin'
    with open(os.path.join(spin.MODELS, name)) as f:
        tree = f.read()
    bad, why = mutate_c(maps['tree612'], 'ct_idle_exit', 'rmw', 'store')
    out.append(negative(
        name, tree, maps['tree612'], 'ct_idle_exit',
        '%s ct_idle_exit: step 1: hand has atomic RMW' % name,
        'the C with ct_idle_exit()\'s step after its nesting store must '
        'fail', bad_map=bad, why=why))
    return out


def main():
    args = sys.argv[1:]
    gen_dir = EXTRACTED
    hands = {}
    if '--c-root' in args:
        # Extract from another copy of the C first.
        import tempfile
        from tests.spin import extract
        root = args[args.index('--c-root') + 1]
        gen_dir = tempfile.mkdtemp(prefix='dynrcu-drift-')
        extract.generate(os.path.abspath(root), gen_dir,
                         {c['model'] for c in MAP.values()})
    elif not os.path.exists(os.path.join(gen_dir, 'tree612.map.json')):
        from tests.spin import extract
        extract.generate(spin.ROOT, gen_dir)
    if '--hand' in args:
        for path in args[args.index('--hand') + 1:]:
            if path.startswith('--'):
                break
            hands[os.path.basename(path)] = path
    res = run_checks(gen_dir, hands)
    if gen_dir == EXTRACTED and not hands:
        res += unit_tests(gen_dir)
    for ok, what in res:
        print('%-4s %s' % (spin.mark(ok), what))
    print(spin.totals(ok for ok, _ in res))
    return 1 if any(ok is False for ok, _ in res) else 0


if __name__ == '__main__':
    sys.exit(main())
