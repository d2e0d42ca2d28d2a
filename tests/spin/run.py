#!/usr/bin/env python3
"""Spin verification runner for the dynticks/preemptable-RCU models.

Usage (from the repository root):
    python3 -m tests.spin.run [verify] [--only SUBSTRING]   # make verify
    python3 -m tests.spin.run big [--quick] [--frontier]   # make verify-big

For each check it runs "spin -a", compiles pan, runs it, and compares the
outcome with what is expected: a pass, or an error (an assertion failure,
say) for a model or mutant that must be caught.  It prints a table next to
the article's state counts and ends with "N passed, N failed" (and "N
skipped": a self-test or a kernel mutant's run that the C as it is
leaves nothing to show, with the reason on its line); it exits non-zero
if anything failed.  The Spin checks come first, then the drift check,
then the self-tests.  The checks are in checks.py and mutants/*.sed;
running them is tools/spin.py.
"""

import concurrent.futures
import os
import re
import subprocess
import sys
import time
import traceback

from tests.mutants import patch as mutant_patch
from tests.spin import drift, extract
from tests.spin.checks import CHECKS, RATIOS
from tools import spin
from tools.spin import (BUILD, MUTANTS, ROOT, bounds_str, build_one, check,
                        fmt_int, parse_header, replay, verify_one)


def load_mutants():
    """Every tests/spin/mutants/*.sed becomes a must-be-caught check."""
    muts = []
    if not os.path.isdir(MUTANTS):
        return muts
    for fn in sorted(os.listdir(MUTANTS)):
        if not fn.endswith('.sed'):
            continue
        path = os.path.join(MUTANTS, fn)
        h = parse_header(path)
        # "# suite: unbounded": make verify-unbounded runs it, at bounds
        # and unbounded; make verify would only repeat that.
        if h.get('suite', '').startswith('unbounded'):
            continue
        base = [c for c in CHECKS if c['model'] == h.get('model')
                and c['kind'] in ('model', 'extra')]
        if h.get('bounds'):
            bounds = dict(kv.split('=') for kv in h['bounds'].split(','))
            bounds = {k: int(v) for k, v in bounds.items()}
        elif base:
            bounds = base[0]['bounds']
        else:
            bounds = {}
        # -O0: a caught mutant stops at its first error, so compiling
        # pan quickly matters more than running it quickly.
        # "# expect: pass": a harmless variant, which must pass.
        c = check('mutant ' + fn[:-4], h.get('model', '?'), bounds,
                  h.get('expect', 'error'),
                  opt='-O0',
                  panargs=[a for a in base[0]['panargs']
                           if not a.startswith('-w')] if base else (),
                  cflags=base[0]['cflags'] if base else (),
                  caught_by=h.get('caught-by'), kind='mutant',
                  note=h.get('what', ''),
                  defs=h.get('defines', '').split(),
                  post=caught_in(h['caught-in']) if h.get('caught-in')
                  else None)
        c['sed'] = [path]
        muts.append(c)
        # "# survives: NMI=0": a window mutant must survive where no NMI
        # can land in its window, which shows it is one.
        if h.get('survives'):
            b = dict(bounds)
            b.update({k: int(v) for k, v in (
                kv.split('=') for kv in h['survives'].split(','))})
            w = check('mutant ' + fn[:-4] + ' at ' + h['survives'],
                      h.get('model', '?'), b, 'pass', opt='-O0',
                      panargs=c['panargs'], cflags=c['cflags'],
                      kind='mutant', note='survives without its window',
                      defs=c['defs'])
            w['sed'] = [path]
            muts.append(w)
    return muts


def caught_in(proc):
    """A post hook for "# caught-in: PROC": the assertion that failed is
    one that process PROC executed, as the replayed trail shows (the
    step spin prints right after its "Error:" line).  caught-by alone
    cannot say that when several processes share an assertion's text."""
    def post(c, res):
        if not res['ok'] or not res['errors']:
            return
        out = spin.trail(c, res)
        m = re.search(r'Error: .*\n(?:spin: text of failed assertion.*\n)?'
                      r'\s*\d+:\s+proc\s+\d+ \((\w+):', out)
        where = m.group(1) if m else None
        if where != proc:
            res['ok'] = False
            res['msg'] = 'caught, but not in %s: the failed assertion ' \
                'is %s (%s)' % (proc, 'in ' + where if where else
                                'not in the replayed trail',
                                res['msg'])
        else:
            res['msg'] += ', in ' + proc
    return post


def main_verify(only):
    # The extracted models (tests/spin/extract.py) are made from the C
    # now, so that they never drift from it.
    checks = CHECKS + load_mutants() + extract.checks()
    if only:
        checks = [c for c in checks if only in c['name']]
    os.makedirs(BUILD, exist_ok=True)
    t_start = time.time()
    oks = []
    rows = []
    print('Spin %s; builds under %s' % (
        subprocess.run(['spin', '-V'], stdout=subprocess.PIPE,
                       universal_newlines=True).stdout.strip(),
        os.path.relpath(BUILD, ROOT)))
    # Two checks at a time (this machine has two cores), each built (spin
    # -a, pan through the compiler cache) and run in its own directory;
    # the verdicts are judged and printed in the table's order.  The time
    # column is pan's wall time, so it includes the other check's share.
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=2)
    done = {}
    for c, res in zip(checks, pool.map(lambda c: verify_one(c, build_one(c)),
                                       checks)):
        if c.get('post'):
            c['post'](c, res)
            extract.judge(c, res, done)
        done[c['name']] = res
        ok = res['ok']
        # Where the article gives an exact count, stay within 10% of it.
        if ok and c['art_n'] and res['states'] and c['kind'] == 'model' \
                and c['article'].replace(',', '').isdigit():
            dev = abs(res['states'] - c['art_n']) / c['art_n']
            if dev > 0.10:
                ok = False
                res['msg'] = 'state count %.0f%% off the article' % (
                    dev * 100)
        oks.append(ok)
        rows.append((c, res, ok))
        print('%-4s %-38s %s' % (spin.mark(ok), c['name'],
                                 res['msg'] or ('expected ' + c['expect'])))
        sys.stdout.flush()
        if c['replay'] and res['errors']:
            replay(c, res)
        if ok is False and res['out'] and c['expect'] == 'pass':
            print('\n'.join('    | ' + l for l in
                            res['out'].strip().splitlines()[-15:]))
    pool.shutdown()
    # Then the hand-written models against the C just extracted: no
    # drift (tests/spin/drift.py); and last the self-tests: the
    # extractor's (tools/extract/test_extract.py), the drift check's
    # negative cases, which edit the C's step list as it is, and so come
    # after what the checks above say of it, and the mutants' patch
    # --forward (tests/mutants/patch.py).
    for what, tests in ([] if only else [
            ('drift', drift.run_checks), ('extractor', extract.unit_tests),
            ('drift', drift.unit_tests), ('patch', mutant_patch.self_test)]):
        for ok, line in self_test(tests):
            oks.append(ok)
            print('%-4s %s: %s' % (spin.mark(ok), what, line))
    print()
    hdr = ('model', 'bounds', 'article states', 'our states', 'depth',
           'mem MB', 'time s', 'result')
    fmt = '%-26s %-20s %-40s %12s %6s %8s %7s  %s'
    print(fmt % hdr)
    print(fmt % tuple('-' * len(h) for h in hdr))
    for c, res, ok in rows:
        if c['kind'] == 'mutant':
            continue
        result = ('PASS' if c['expect'] == 'pass' else
                  'FAILS, as expected') if ok else 'UNEXPECTED'
        print(fmt % (c['name'][:26], bounds_str(c['bounds']), c['article'],
                     fmt_int(res['states']), fmt_int(res['depth']),
                     '-' if res['mem'] is None else '%.1f' % res['mem'],
                     '-' if res['secs'] is None else '%.2f' % res['secs'],
                     result))
    byname = {c['name']: r for c, r, ok in rows}
    for a, b in RATIOS:
        ra, rb = byname.get(a), byname.get(b)
        if ra and rb and ra['states'] and rb['states']:
            print('%s vs %s at %s: %s vs %s states, %.1fx fewer' % (
                a, b, bounds_str([c for c, r, ok in rows
                                  if c['name'] == a][0]['bounds']),
                fmt_int(ra['states']), fmt_int(rb['states']),
                rb['states'] / ra['states']))
    muts = [(c, r, ok) for c, r, ok in rows if c['kind'] == 'mutant']
    if muts:
        print()
        print('Mutants (each must be caught):')
        for c, res, ok in muts:
            msg = res['msg']
            if ok and c['expect'] == 'pass':
                msg = 'survives, as it must (%s states)' % fmt_int(
                    res['states'])
            print('  %-4s %-44s %-22s %s' % (
                spin.mark(ok), c['name'][7:], c['model'], msg))
    print()
    print('verify took %.1f s' % (time.time() - t_start))
    print(spin.totals(oks))
    return 1 if False in oks else 0


def self_test(tests):
    """[(ok, what)] of tests(); an exception is one failure that names
    it and where it was raised, not a traceback that ends the run."""
    try:
        return tests()
    except Exception as e:
        tb = traceback.extract_tb(e.__traceback__)[-1]
        return [(False, '%s() raised %s at %s:%d' % (
            tests.__name__, type(e).__name__,
            os.path.relpath(tb.filename, ROOT), tb.lineno))]


def main():
    spin.need_tools()
    args = sys.argv[1:]
    mode = 'verify'
    if args and args[0] in ('verify', 'big'):
        mode = args.pop(0)
    only = None
    if '--only' in args:
        only = args[args.index('--only') + 1]
    if mode == 'big':
        os.execv(sys.executable, [sys.executable, '-m', 'tests.spin.big'] +
                 args)
    sys.exit(main_verify(only))


if __name__ == '__main__':
    main()
