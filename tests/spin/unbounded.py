#!/usr/bin/env python3
"""make verify-unbounded: model 7 for any number of idle transitions,
interrupts and NMIs, and the validation of its counter abstraction.

  1. The proof.  dyntickRCU-unbounded.spin with its loops unbounded:
     safety (the assertions, pan -DSAFETY -DNOCLAIM) and liveness (the
     LTL property gp_ends under weak fairness, pan -a -f), each an
     exhaustive search that must complete.
  2. The checks can fail.  Every mutant of the abstract model
     (mutants/U-*.sed) run unbounded must be caught, by the safety run or
     by the liveness run ("# caught-by: liveness": by the liveness run,
     the safety run passing); a "# expect: pass" variant must pass both.
     Weak fairness must force neither interrupts nor NMIs: the claims
     irqs_forced and nmis_forced must fail.
  3. The modern design's idle protocol (dyntickRCU-tree.spin): proved
     the same way, its mutants caught.
  4. The abstraction is validated.  At each bound, the abstract model
     with its loops bounded must give the same verdict as the concrete
     reduced model 7 (dyntickRCU-irq-nmi-ssl-reduced.spin), on the clean
     model and on every mutant pair (R-x, U-x): both pass, or both are
     caught by the same kind of check (safety, parity, liveness, the
     reduction's invariant, the reduction lint).
  5. State counts side by side at (1,1,1), (2,2,2), (3,3,3).

It ends with "N passed, N failed" and exits non-zero on any failure.
Usage: python3 -m tests.spin.unbounded [--cube] [--no-validate]
  default      validates at (1,1,1), (2,2,2) and (3,3,3)
  --cube       validates at all 27 bounds from (1,1,1) to (3,3,3)
"""

import itertools
import os
import re
import sys
import time

from tools import spin

MU = 'dyntickRCU-unbounded.spin'
MR = 'dyntickRCU-irq-nmi-ssl-reduced.spin'
MT = 'dyntickRCU-tree.spin'
TIME_LIMIT_S = 30 * 60
SAFETY_CFLAGS = ['-DNOCLAIM', '-DCOLLAPSE']
LIVE_CFLAGS = ['-DCOLLAPSE', '-DNFAIR=3']
# The liveness search is deep (a weakly fair cycle can be long): give pan
# room, and fail if it still says the depth was too small.
DEPTH = '-m4000000'


def kind_of(res):
    """The kind of check that decided a run."""
    if not res['errors']:
        return 'pass' if res.get('complete', True) else 'incomplete'
    e = spin.first_error(res['out'])
    for pat, k in (('lint', 'lint'), ('(64+', 'nesting encoding'),
                   ('_ce', 'copy invariant'), ('nmi_visible', 'invariant'),
                   ('shouldexit', 'liveness'), ('acceptance', 'liveness'),
                   ('non-progress', 'liveness'),
                   ('old_gp_idle', 'safety'), ('&1', 'parity'),
                   ('tmp>0', 'nesting WARN'), ('nmi_nesting', 'nesting WARN'),
                   ('ctr_par', 'parity'), ('assert', 'assertion')):
        if pat in e:
            return k
    return 'error: ' + e


def complete(out):
    bad = ('pan: out of memory', 'max search depth too small',
           'runner timeout')
    return 'Full statespace search' in out and not any(b in out
                                                          for b in bad)


def go(c, timeout=TIME_LIMIT_S):
    res = spin.build_one(c)
    res = spin.verify_one(c, res, timeout=timeout)
    res['complete'] = complete(res['out'])
    res['kind'] = kind_of(res) if res['built'] else 'build failed: ' + \
        res['msg']
    return res


def job(name, model, bounds, live, sed=(), opt='-O2', w=24, defs=(),
        claim=None):
    c = spin.check(name, model, bounds, 'pass', opt=opt,
                   cflags=LIVE_CFLAGS if live else SAFETY_CFLAGS,
                   panargs=(['-a', '-f'] if live else []) +
                   (['-N', claim] if claim else []) +
                   ['-w%d' % w, DEPTH], defs=defs)
    c['safety'] = not live
    c['sed'] = [os.path.join(spin.MUTANTS, s) for s in sed]
    return c


def fig(res):
    return '%13s states %9s MB %8s s' % (
        spin.fmt_int(res['states']),
        '-' if res['mem'] is None else '%.1f' % res['mem'],
        '-' if res['secs'] is None else '%.1f' % res['secs'])


class Tally:
    def __init__(self):
        self.passed = self.failed = 0

    def __call__(self, ok, line):
        print('%-4s %s' % ('ok' if ok else 'FAIL', line))
        sys.stdout.flush()
        if ok:
            self.passed += 1
        else:
            self.failed += 1


def mutants(prefix):
    return sorted(f for f in os.listdir(spin.MUTANTS)
                  if f.startswith(prefix) and f.endswith('.sed'))


def prove(t, label, model, bounds=None, defs=()):
    """Safety and liveness, unbounded."""
    b = bounds or {}
    for live in (False, True):
        what = 'liveness (LTL, weak fairness)' if live else \
            'safety (assertions)'
        c = job('%s %s' % (label, 'live' if live else 'safe'), model, b,
                live, defs=defs)
        res = go(c)
        ok = res['kind'] == 'pass' and res['complete']
        t(ok, '%-34s %-30s %s  %s' % (label, what, fig(res),
                                      'exhaustive, no errors' if ok else
                                      res['kind'] + ' ' + res['msg']))
    return


def not_forced(t, label, model, claims, defs=()):
    """Weak fairness must not force these: each claim []<>x must fail."""
    for claim in claims:
        c = job('%s %s' % (label, claim), model, {}, True, claim=claim,
                defs=defs)
        res = go(c)
        t(res['kind'] == 'liveness',
          '%-34s %-30s %s' % (label, 'fairness forces no ' + claim[:-7],
                              'claim %s fails, as it must' % claim
                              if res['kind'] == 'liveness' else
                              'claim %s: %s' % (claim, res['kind'])))


def mutants_caught(t, label, model, prefix, bounds=None):
    b = bounds or {}
    for m in mutants(prefix):
        hdr = spin.parse_header(os.path.join(spin.MUTANTS, m))
        if hdr.get('model') != model:
            continue
        must_pass = hdr.get('expect') == 'pass'
        live_only = hdr.get('caught-by') == 'liveness'
        kinds = []
        for live in (False, True):
            c = job('%s %s %s' % (label, m[:-4], 'live' if live else
                                  'safe'), model, b, live, sed=[m],
                    opt='-O0', defs=hdr.get('defines', '').split())
            res = go(c, timeout=600)
            kinds.append(res['kind'])
            if res['errors']:
                break
        k = kinds[-1]
        if must_pass:
            ok = kinds == ['pass', 'pass']
            t(ok, '  variant %-37s %s' % (m[:-4], 'passes both runs, as '
                                          'it must' if ok else
                                          'FAILS: ' + ', '.join(kinds)))
            continue
        ok = k not in ('pass', 'incomplete', 'nesting encoding') and \
            not k.startswith(('build', 'error'))
        if live_only and len(kinds) != 2:
            ok = False
        t(ok, '  mutant %-38s %s' % (m[:-4], 'caught by %s (%s run)' % (
            k, 'liveness' if len(kinds) == 2 else 'safety') if ok else
            'NOT CAUGHT as required: ' + ', '.join(kinds)))


def validate(t, cube):
    if cube:
        bounds = list(itertools.product((1, 2, 3), repeat=3))
    else:
        bounds = [(1, 1, 1), (2, 2, 2), (3, 3, 3)]
    pairs = [('', '')] + [
        ('R-' + m[2:], m) for m in mutants('U-')
        if os.path.exists(os.path.join(spin.MUTANTS, 'R-' + m[2:]))]
    table = []
    for n, i, m in bounds:
        b = {'NOHZ': n, 'IRQ': i, 'NMI': m}
        for rm, um in pairs:
            row = []
            for model, sed in ((MR, rm), (MU, um)):
                c = spin.check('val %s %s %d%d%d' % (model[11:16], sed or
                                                     'clean', n, i, m),
                               model, b, 'pass', opt='-O1' if not sed
                               else '-O0', cflags=['-DCOLLAPSE'],
                               panargs=['-w23'])
                c['sed'] = [os.path.join(spin.MUTANTS, sed)] if sed else []
                res = go(c, timeout=TIME_LIMIT_S)
                row.append(res)
            kc, ka = row[0]['kind'], row[1]['kind']
            ok = kc == ka and kc != 'incomplete'
            name = rm[2:-4] if rm else 'clean model'
            t(ok, '  (%d,%d,%d) %-32s concrete %-10s %11s   abstract '
              '%-10s %11s' % (n, i, m, name, kc,
                              spin.fmt_int(row[0]['states']), ka,
                              spin.fmt_int(row[1]['states'])))
            table.append((n, i, m, name, kc, row[0]['states'], ka,
                           row[1]['states']))
    return table


def side_by_side(t, table):
    """The modern design beside model 7 (concrete and abstract) and the
    atomic-counter design, at the same bounds."""
    clean = {(r[0], r[1], r[2]): (r[5], r[7]) for r in table
             if r[3] == 'clean model'}
    print('  %-9s %14s %14s %14s %14s' % (
        'bounds', 'model 7 (R)', 'abstract (U)', 'atomic (A)',
        'tree (T)'))
    for n, i, m in [(1, 1, 1), (2, 2, 2), (3, 3, 3)]:
        b = {'NOHZ': n, 'IRQ': i, 'NMI': m}
        got = []
        for model in ('dyntickRCU-atomic.spin', MT):
            c = spin.check('side %s %d%d%d' % (model[11:16], n, i, m), model,
                           b, 'pass', opt='-O1', cflags=['-DCOLLAPSE'],
                           panargs=['-w23'])
            res = go(c)
            ok = res['kind'] == 'pass' and res['complete']
            if not ok:
                t(False, '  %s at (%d,%d,%d): %s %s' % (
                    model, n, i, m, res['kind'], res['msg']))
            got.append(res['states'])
        if (n, i, m) not in clean:
            rows = []
            for model in (MR, MU):
                c = spin.check('side %s %d%d%d' % (model[11:16], n, i, m),
                               model, b, 'pass', opt='-O1',
                               cflags=['-DCOLLAPSE'], panargs=['-w23'])
                rows.append(go(c)['states'])
            clean[(n, i, m)] = tuple(rows)
        r, u = clean[(n, i, m)]
        t(all(got), '  (%d,%d,%d)  %14s %14s %14s %14s' % (
            n, i, m, spin.fmt_int(r), spin.fmt_int(u), spin.fmt_int(got[0]),
            spin.fmt_int(got[1])))


def main():
    spin.need_tools()
    args = sys.argv[1:]
    t0 = time.time()
    t = Tally()
    print('verify-unbounded: exhaustive searches, -DCOLLAPSE, pan under '
          'nice; time limit %d s a run' % TIME_LIMIT_S)
    print()
    print('1. Model 7, unbounded (%s)' % MU)
    prove(t, 'model 7, abstract, unbounded', MU)
    not_forced(t, 'model 7, abstract, unbounded', MU,
               ('irqs_forced', 'nmis_forced'))
    print()
    print('2. Its mutants, unbounded (each must be caught)')
    mutants_caught(t, 'U', MU, 'U-')
    if os.path.exists(os.path.join(spin.MODELS, MT)):
        print()
        print('3. The modern design (%s), unbounded' % MT)
        prove(t, 'tree idle protocol, unbounded', MT)
        prove(t, 'tree, Linux 6.12 rules, unbounded', MT,
              defs=['-DLINUX_RULES'])
        not_forced(t, 'tree idle protocol, unbounded', MT,
                   ('irqs_forced', 'nmis_forced'))
        mutants_caught(t, 'T', MT, 'T-')
    table = []
    if '--no-validate' not in args:
        print()
        print('4. The abstraction against the concrete reduced model 7, '
              'loops bounded: same verdicts')
        table = validate(t, '--cube' in args)
    if os.path.exists(os.path.join(spin.MODELS, MT)):
        print()
        print('5. State counts side by side, loops bounded')
        side_by_side(t, table if '--no-validate' not in args else [])
    print()
    print('verify-unbounded took %.1f s' % (time.time() - t0))
    print('%d passed, %d failed' % (t.passed, t.failed))
    return 1 if t.failed else 0


if __name__ == '__main__':
    sys.exit(main())
