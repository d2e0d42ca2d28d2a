#!/usr/bin/env python3
"""make verify-big: model 7 exhaustively at (3,3,3), the scale of the
article's "several hundred million" states (it names no bounds).

The straightforward encoding (dyntickRCU-irq-nmi-ssl.spin) needs some
7e8 states there, beyond 16 GB even with -DCOLLAPSE; the article used a
~40 GB machine.  The restructured encoding
(dyntickRCU-irq-nmi-ssl-reduced.spin, see docs/spin-big.md) proves the same
thing in well under the 4 GB / 30 minute target.  This script:

  1. proves (3,3,3) with the reduced model: exhaustive search (no
     bitstate, no hash compaction), -DCOLLAPSE, pan's memory capped by
     -DMEMLIM=4096, and checks the search really was complete;
  2. shows the two encodings agree: both pass at the largest bounds the
     straightforward one can run within the same limits, and both catch
     every one of their mutants there;
  3. puts the atomic-counter design beside model 7 at the same bounds;
  4. runs the extracted models beyond make verify's bounds
     (tests/spin/extract.py's BIG_RUNS).

It ends with "N passed, N failed" and exits non-zero on any failure.
Usage: python3 -m tests.spin.big [--quick] [--frontier]
  --quick     skips step 2
  --frontier  also pushes the reduced model past (3,3,3): (4,4,4) with
              -DCOLLAPSE and (5,5,5) with -DMA (minimized automaton:
              tiny memory, several times slower); up to ~30 min more
"""

import os
import re
import sys
import time

from tests.spin import extract
from tools import spin

MEM_LIMIT_MB = 4096
TIME_LIMIT_S = 30 * 60
B333 = {'NOHZ': 3, 'IRQ': 3, 'NMI': 3}
# The largest bounds at which the straightforward model 7 completes
# within the same 4 GB (docs/spin-big.md has the frontier).
B_COMMON = {'NOHZ': 3, 'IRQ': 2, 'NMI': 2}

M7 = 'dyntickRCU-irq-nmi-ssl.spin'
M7R = 'dyntickRCU-irq-nmi-ssl-reduced.spin'
MA = 'dyntickRCU-atomic.spin'

# -DCOLLAPSE: lossless state compression; -DMEMLIM: pan stops, rather
# than the machine, if the limit is reached; -O2 because these runs are
# long enough for the optimizer to pay.
BIG_CFLAGS = ['-DCOLLAPSE', '-DMEMLIM=%d' % MEM_LIMIT_MB]


def job(name, model, bounds, w):
    c = spin.check('big ' + name + ' ' + spin.bounds_str(bounds), model,
                   bounds, 'pass', opt='-O2',
                   cflags=BIG_CFLAGS, panargs=['-w%d' % w])
    return c


def complete(out):
    """Did pan search the whole state space?"""
    bad = ('pan: out of memory', 'max search depth too small',
           'bitstate', 'hash-compact', 'Bit statespace')
    return 'Full statespace search' in out and not any(
        b in out for b in bad)


def do(c):
    res = spin.build_one(c)
    res = spin.verify_one(c, res, timeout=TIME_LIMIT_S)
    ok = res['ok'] and complete(res['out'])
    if res['ok'] and not ok:
        res['msg'] = 'search incomplete'
    if ok and res['mem'] is not None and res['mem'] > MEM_LIMIT_MB:
        ok = False
        res['msg'] = 'over the memory limit'
    if ok and res['secs'] is not None and res['secs'] > TIME_LIMIT_S:
        ok = False
        res['msg'] = 'over the time limit'
    res['ok'] = ok
    print('%-4s %-40s %-20s %13s states  %8s MB  %8s s  %s' % (
        'ok' if ok else 'FAIL', c['name'][4:].split(' NOHZ=')[0],
        spin.bounds_str(c['bounds']),
        spin.fmt_int(res['states']),
        '-' if res['mem'] is None else '%.0f' % res['mem'],
        '-' if res['secs'] is None else '%.1f' % res['secs'],
        res['msg'] or 'exhaustive, no errors'))
    sys.stdout.flush()
    return ok, res


def main():
    quick = '--quick' in sys.argv
    os.makedirs(spin.BUILD, exist_ok=True)
    t0 = time.time()
    passed = failed = 0
    results = {}
    jobs = [
        ('proof: model 7 reduced', M7R, B333, 24),
        ('atomic design', MA, B333, 24),
    ]
    frontier = []
    if '--frontier' in sys.argv:
        frontier = [
            ('frontier: model 7 reduced', M7R,
             {'NOHZ': 4, 'IRQ': 4, 'NMI': 4}, 26, BIG_CFLAGS),
            ('frontier: model 7 reduced, MA', M7R,
             {'NOHZ': 5, 'IRQ': 5, 'NMI': 5}, 24,
             ['-DMA=56', '-DMEMLIM=%d' % MEM_LIMIT_MB]),
        ]
    if not quick:
        jobs += [
            ('agreement: model 7 reduced', M7R, B_COMMON, 22),
            ('agreement: model 7 as written', M7, B_COMMON, 26),
            ('atomic design', MA, B_COMMON, 22),
        ]
    print('verify-big: limits %d MB, %d s; pan built with %s' % (
        MEM_LIMIT_MB, TIME_LIMIT_S, ' '.join(BIG_CFLAGS)))
    for name, model, bounds, w in jobs:
        ok, res = do(job(name, model, bounds, w))
        results[(name, spin.bounds_str(bounds))] = res
        passed += ok
        failed += not ok
    for name, model, bounds, w, cflags in frontier:
        c = job(name, model, bounds, w)
        c['cflags'] = cflags
        ok, res = do(c)
        passed += ok
        failed += not ok

    # Both encodings must also catch every mutant at the common bounds.
    if not quick:
        for fn in sorted(os.listdir(spin.MUTANTS)):
            if not (fn.startswith('7-') or fn.startswith('R-')):
                continue
            model = M7 if fn.startswith('7-') else M7R
            c = spin.check('big mutant %s %s' % (
                fn[:-4], spin.bounds_str(B_COMMON)), model, B_COMMON,
                'error', opt='-O2', cflags=BIG_CFLAGS, panargs=['-w24'],
                sed=[os.path.join('mutants', fn)])
            res = spin.verify_one(c, spin.build_one(c), timeout=TIME_LIMIT_S)
            ok = res['ok']
            passed += ok
            failed += not ok
            print('%-4s mutant %-33s %-20s %s' % (
                'ok' if ok else 'FAIL', fn[:-4], spin.bounds_str(B_COMMON),
                res['msg']))
            sys.stdout.flush()

    # The models extracted from the C, at bounds beyond make verify's
    # (--quick too).
    for c in extract.checks(runs=extract.BIG_RUNS):
        c['opt'] = '-O2'
        res = spin.verify_one(c, spin.build_one(c), timeout=TIME_LIMIT_S)
        ok = res['ok'] and complete(res['out'])
        passed += ok
        failed += not ok
        print('%-4s %-52s %13s states  %s' % (
            'ok' if ok else 'FAIL', c['name'], spin.fmt_int(res['states']),
            res['msg'] or 'pass'))
        sys.stdout.flush()

    def states(name, b):
        r = results.get((name, spin.bounds_str(b)))
        return r and r['states']

    print()
    pairs = [('atomic design', 'proof: model 7 reduced', B333),
             ('atomic design', 'agreement: model 7 as written', B_COMMON),
             ('agreement: model 7 reduced', 'agreement: model 7 as written',
              B_COMMON)]
    for a, b, bounds in pairs:
        sa, sb = states(a, bounds), states(b, bounds)
        if sa and sb:
            print('%s vs %s at %s: %s vs %s states (%.1fx)' % (
                a, b, spin.bounds_str(bounds), spin.fmt_int(sa),
                spin.fmt_int(sb), sb / sa))
    print('article: model 7 at (3,3,3) "several hundred million" states, '
          '~40 GB')
    print()
    print('verify-big took %.1f s' % (time.time() - t0))
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
