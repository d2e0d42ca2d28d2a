#!/usr/bin/env python3
"""Swarm-style bug hunting beyond the exhaustive frontier.

Usage: python3 -m tests.spin.swarm [--bounds N,I,M] [--secs S] [--model FILE]
                                  [--mutant mutants/X.sed]
                                  [--sshlogin LOGIN ... [--runs R]]

"spin -search -swarmN,M" compiles pan with -DBITSTATE -DPUTPID -DPERMUTED
and starts N randomized bitstate searches at once (different hash
functions, process-scheduling rotations, transition orders, seeds, and
growing -w).  This script runs the same randomized searches one after
another instead, because this machine is shared: never more than one pan
at a time.  A bitstate search proves nothing; it hunts for errors in
state spaces too big to store.  Prints each run and a summary; exits
non-zero if any run found an error (for a mutant, that is the point).

Several machines: --sshlogin runs the same searches through GNU parallel
(Debian package "parallel"), on the hosts you name, as many at once as
each host is given jobs:
    python3 -m tests.spin.swarm --bounds 7,7,7 --runs 64 \
        --sshlogin 8/alice@big1 --sshlogin 8/big2 --sshlogin 1/:
The argument is parallel's own --sshlogin: "N/[user@]host", ":" for this
machine.  Requirements on each host: ssh without a password prompt and a
POSIX shell; nothing else, because pan is linked statically here and
copied over (parallel --basefile) into a scratch directory that parallel
removes afterwards (--cleanup).  Each run prints its flags; the first to
find an error stops the others (--halt now,fail=1).  A run is repeatable
anywhere from its flags (-RS is the seed), so replay an error here:
rebuild the model with the same bounds, run "./pan <flags>", then
"spin -t -p" for the trail.
"""

import os
import random
import re
import sys
import time

from tools import spin


def swarm_flags(rng, k):
    """The parameters spin -swarm randomizes (V6.Updates, 6.4.0), with
    -w growing every other run as in -swarmN,2."""
    w = min(20 + k // 2, 30)
    return ['-w%d' % w, '-k%d' % rng.randint(1, 3),
            '-h%d' % rng.randint(0, 99),
            '-p_rotate%d' % rng.randint(0, 255),
            '-RS%d' % rng.randint(1, 2 ** 31 - 1),
            '-T%d' % rng.randint(0, 1), '-P%d' % rng.randint(0, 1)]


def through_parallel(c, res, rng, logins, runs, budget, name):
    """Run the searches through GNU parallel on the given ssh logins."""
    import shutil
    import subprocess
    if not shutil.which('parallel'):
        print('GNU parallel is missing: apt-get install parallel')
        return 2
    d = res['dir']
    # A static pan runs on any host of the same architecture.
    rc, out = spin.run(spin.CC + ['-O2', '-static', '-DBITSTATE',
                                  '-DPUTPID', '-DPERMUTED', '-DMEMLIM=1024',
                                  '-o', 'pan', 'pan.c'], d)
    if rc:
        print('static build failed:\n' + out)
        return 2
    jobs = [' '.join(swarm_flags(rng, k)) for k in range(runs)]
    with open(os.path.join(d, 'swarm.jobs'), 'w') as f:
        f.write('\n'.join(jobs) + '\n')
    # Each job prints pan's output, then exits 1 if pan found an error,
    # so that --halt stops the others.
    # On a remote host pan is ./pan, copied by --basefile; for ":",
    # parallel copies nothing into the scratch directory, so use ours.
    here = os.path.join(os.path.abspath(d), 'pan')
    cmd = ('P=./pan; [ -x "$P" ] || P=%s; '
           'nice -n 10 "$P" {} 2>&1 | awk \'{print} '
           '/errors: [1-9]/{e=1} END{exit e}\'' % here)
    pcmd = ['parallel', '--will-cite', '--tag', '--line-buffer',
            '--halt', 'now,fail=1', '--timeout', '%d' % max(budget, 1),
            '--basefile', 'pan', '--workdir', '...', '--cleanup',
            '--arg-file', 'swarm.jobs']
    for lg in logins:
        pcmd += ['--sshlogin', lg]
    pcmd.append(cmd)
    print('%s: %d runs through GNU parallel on %s, at most %.0f s each' % (
        name, runs, ', '.join(logins), budget))
    sys.stdout.flush()
    t0 = time.time()
    p = subprocess.run(pcmd, cwd=d, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True)
    with open(os.path.join(d, 'swarm.out'), 'w') as f:
        f.write(p.stdout)
    done = found = noresult = 0
    total = 0
    for flags in jobs:
        lines = [l[len(flags) + 1:] for l in p.stdout.splitlines()
                 if l.startswith(flags + '\t')]
        out = '\n'.join(lines)
        st = re.search(r'^\s*([\d.e+]+) states, stored', out, re.M)
        err = re.search(r'errors: (\d+)', out)
        if not lines:
            continue
        states = int(float(st.group(1))) if st else None
        total += states or 0
        done += 1
        msg = spin.first_error(out)
        if err and int(err.group(1)):
            found += 1
        if not err:
            noresult += 1
        print('%-58s %13s states  %s' % (
            flags, spin.fmt_int(states),
            msg or ('no error' if err else 'NO RESULT: ' + lines[-1])))
    print('swarm: %d of %d runs reported, %s states visited in total (with '
          'overlap), %.0f s; parallel exit %d; %s' % (
              done, runs, spin.fmt_int(total), time.time() - t0,
              p.returncode, 'ERROR FOUND' if found else 'no error found'))
    print('full output: %s' % os.path.relpath(
        os.path.join(d, 'swarm.out'), spin.ROOT))
    if found:
        return 1
    return 2 if noresult == done else 0


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
                            spin.bounds_str(bounds))
    c = spin.check(name, model, bounds, 'pass', opt='-O2',
                   cflags=['-DBITSTATE', '-DPUTPID', '-DPERMUTED',
                           '-DMEMLIM=1024'],
                   sed=[mutant] if mutant else ())
    res = spin.build_one(c)
    if not res['built']:
        print('build failed: %s\n%s' % (res['msg'], res['out']))
        return 2
    rng = random.Random(int(opt('--seed', '2008')))
    logins = [args[j + 1] for j, a in enumerate(args) if a == '--sshlogin']
    if logins:
        return through_parallel(c, res, rng, logins,
                                int(opt('--runs', '16')), budget, name)
    t0 = time.time()
    k = 0
    total = 0
    found = []
    print('%s: %s, budget %.0f s, one pan at a time' % (
        name, model, budget))
    while time.time() - t0 < budget:
        flags = swarm_flags(rng, k)
        left = budget - (time.time() - t0)
        if left < 5:
            break
        try:
            rc, out = spin.run(['timeout', '%d' % max(left, 1), './pan'] +
                               flags, res['dir'])
        except Exception as e:  # noqa: BLE001
            print('run %d: %s' % (k, e))
            break
        st = re.search(r'^\s*([\d.e+]+) states, stored', out, re.M)
        err = re.search(r'errors: (\d+)', out)
        secs = re.search(r'elapsed time ([\d.e+]+)', out)
        states = int(float(st.group(1))) if st else None
        total += states or 0
        msg = spin.first_error(out)
        print('run %2d %-58s %13s states %7s s  %s' % (
            k, ' '.join(flags), spin.fmt_int(states),
            secs.group(1) if secs else 'cut', msg or (
                'no error' if err else 'cut off by the time budget')))
        sys.stdout.flush()
        if err and int(err.group(1)):
            found.append((k, msg))
            break
        k += 1
    print('swarm: %d runs, %s states visited in total (with overlap), '
          '%.0f s; %s' % (k + (1 if found else 0), spin.fmt_int(total),
                          time.time() - t0,
                          'ERROR FOUND: %s' % found[0][1] if found
                          else 'no error found'))
    return 1 if found else 0


if __name__ == '__main__':
    sys.exit(main())
