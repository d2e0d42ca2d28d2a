#!/usr/bin/env python3
"""Swarm-style bug hunting beyond the exhaustive frontier.

Usage: tests/spin/swarm.py [--bounds N,I,M] [--secs S] [--model FILE]
                           [--mutant mutants/X.sed]

"spin -search -swarmN,M" compiles pan with -DBITSTATE -DPUTPID -DPERMUTED
and starts N randomized bitstate searches at once (different hash
functions, process-scheduling rotations, transition orders, seeds, and
growing -w).  This script runs the same randomized searches one after
another instead, because this machine is shared: never more than one pan
at a time.  A bitstate search proves nothing; it hunts for errors in
state spaces too big to store.  Prints each run and a summary; exits
non-zero if any run found an error (for a mutant, that is the point).
"""

import os
import random
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run  # noqa: E402


def main():
    args = sys.argv[1:]

    def opt(name, default):
        return args[args.index(name) + 1] if name in args else default

    n, i, m = (int(x) for x in opt('--bounds', '6,6,6').split(','))
    budget = float(opt('--secs', '600'))
    model = opt('--model', 'dyntickRCU-irq-nmi-ssl-reduced.spin')
    mutant = opt('--mutant', None)
    bounds = {'NOHZ': n, 'IRQ': i, 'NMI': m}
    name = 'swarm %s %s' % (os.path.basename(mutant or model),
                            run.bounds_str(bounds))
    c = run.check(name, model, bounds, 'pass', opt='-O2',
                  cflags=['-DBITSTATE', '-DPUTPID', '-DPERMUTED',
                          '-DMEMLIM=1024'],
                  sed=[mutant] if mutant else ())
    res = run.build_one(c)
    if not res['built']:
        print('build failed: %s\n%s' % (res['msg'], res['out']))
        return 2
    rng = random.Random(int(opt('--seed', '2008')))
    t0 = time.time()
    k = 0
    total = 0
    found = []
    print('%s: %s, budget %.0f s, one pan at a time' % (
        name, model, budget))
    while time.time() - t0 < budget:
        # The parameters spin -swarm randomizes (V6.Updates, 6.4.0),
        # with -w growing every other run as in -swarmN,2.
        w = min(20 + k // 2, 30)
        flags = ['-w%d' % w, '-k%d' % rng.randint(1, 3),
                 '-h%d' % rng.randint(0, 99),
                 '-p_rotate%d' % rng.randint(0, 255),
                 '-RS%d' % rng.randint(1, 2 ** 31 - 1),
                 '-T%d' % rng.randint(0, 1), '-P%d' % rng.randint(0, 1)]
        left = budget - (time.time() - t0)
        if left < 5:
            break
        try:
            rc, out = run.run(['timeout', '%d' % max(left, 1), './pan'] +
                              flags, res['dir'])
        except Exception as e:  # noqa: BLE001
            print('run %d: %s' % (k, e))
            break
        st = re.search(r'^\s*([\d.e+]+) states, stored', out, re.M)
        err = re.search(r'errors: (\d+)', out)
        secs = re.search(r'elapsed time ([\d.e+]+)', out)
        states = int(float(st.group(1))) if st else None
        total += states or 0
        msg = run.first_error(out)
        print('run %2d %-58s %13s states %7s s  %s' % (
            k, ' '.join(flags), run.fmt_int(states),
            secs.group(1) if secs else 'cut', msg or (
                'no error' if err else 'cut off by the time budget')))
        sys.stdout.flush()
        if err and int(err.group(1)):
            found.append((k, msg))
            break
        k += 1
    print('swarm: %d runs, %s states visited in total (with overlap), '
          '%.0f s; %s' % (k + (1 if found else 0), run.fmt_int(total),
                          time.time() - t0,
                          'ERROR FOUND: %s' % found[0][1] if found
                          else 'no error found'))
    return 1 if found else 0


if __name__ == '__main__':
    sys.exit(main())
