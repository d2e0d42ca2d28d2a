#!/usr/bin/env python3
"""Spin verification runner for the dynticks/preemptable-RCU models.

Usage (from the repository root):
    tests/spin/run.py [verify] [--only SUBSTRING]   # make verify
    tests/spin/run.py big [--quick] [--frontier]   # make verify-big

For each check it runs "spin -a", compiles pan, runs it, and compares the
outcome with what is expected: a pass, or an error (an assertion failure,
say) for a model or mutant that must be caught.  It prints a table next to
the article's state counts and ends with "N passed, N failed"; it exits
non-zero if anything failed.  Standard library only, so it runs anywhere
spin and gcc do.  Every spin/gcc/pan runs under "nice -n 19": this machine
is shared with timing-sensitive work.
"""

import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BUILD = os.path.join(ROOT, 'build', 'spin')
MUTANTS = os.path.join(HERE, 'mutants')
NICE = ['nice', '-n', '19']
# No pan in "make verify" needs more than a few seconds; a hung or
# exploding one must fail the run rather than stall it.
PAN_TIMEOUT = 120

# Bounds at which "make verify" runs the three-process models: small
# enough for the 60-second budget, big enough that every mutant is caught.
# Model 7 runs at (1,2,1), the bounds of the article's published model
# files; its (3,3,3) proof, the article's scale, is "make verify-big".
B_IRQ = {'NOHZ': 3, 'IRQ': 3}
B_NMI = {'NOHZ': 1, 'IRQ': 2, 'NMI': 1}


def check(name, model, bounds, expect, article='-', art_n=None, opt='-O1',
          panargs=(), cflags=(), replay=False, caught_by=None, kind='model',
          note='', sed=(), defs=(), explain=''):
    """One verification job.  expect is 'pass' or 'error'.

    sed: scripts (relative to tests/spin/) applied in turn to a copy of
    the model; defs: extra -D options for spin; replay: False, True (the
    article's curr/snap walk-through) or a regex of the statements to show
    from the trail; explain: printed after the replay.
    """
    return dict(name=name, model=model, bounds=dict(bounds), expect=expect,
                article=article, art_n=art_n, opt=opt, panargs=list(panargs),
                cflags=list(cflags), replay=replay, caught_by=caught_by,
                kind=kind, note=note,
                sed=[os.path.join(HERE, x) for x in sed], defs=list(defs),
                explain=explain)


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

# Checks contributed by the other model families (weak memory, atomic
# design); each file registers its own expectations.
EXTRA = os.path.join(HERE, 'checks.py')
RATIOS = []


def load_extra():
    if not os.path.exists(EXTRA):
        return
    ns = {'check': check, 'B_IRQ': B_IRQ, 'B_NMI': B_NMI}
    with open(EXTRA) as f:
        exec(compile(f.read(), EXTRA, 'exec'), ns)
    CHECKS.extend(ns.get('CHECKS', []))
    RATIOS.extend(ns.get('RATIOS', []))


def parse_header(path):
    """Read "# key: value" lines at the top of a mutant's sed script."""
    hdr = {}
    with open(path) as f:
        for line in f:
            m = re.match(r'#\s*([a-z-]+):\s*(.*)$', line)
            if not m:
                if line.startswith('#'):
                    continue
                break
            hdr[m.group(1)] = m.group(2).strip()
    return hdr


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
        c = check('mutant ' + fn[:-4], h.get('model', '?'), bounds, 'error',
                  opt='-O0',
                  panargs=[a for a in base[0]['panargs']
                           if not a.startswith('-w')] if base else (),
                  cflags=base[0]['cflags'] if base else (),
                  caught_by=h.get('caught-by'), kind='mutant',
                  note=h.get('what', ''),
                  defs=h.get('defines', '').split())
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


def run(cmd, cwd, timeout=None):
    try:
        p = subprocess.run(NICE + cmd, cwd=cwd, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, universal_newlines=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired as e:
        out = e.stdout or ''
        if isinstance(out, bytes):
            out = out.decode(errors='replace')
        return -1, out + '\npan: killed after %d s (runner timeout)\n' % \
            timeout
    return p.returncode, p.stdout


def defines(bounds):
    return ['-DMAX_DYNTICK_LOOP_%s=%d' % (k, v) for k, v in
            sorted(bounds.items())]


def bounds_str(b):
    order = ['NOHZ', 'IRQ', 'NMI']
    keys = [k for k in order if k in b] + sorted(k for k in b
                                                 if k not in order)
    return ','.join('%s=%d' % (k, b[k]) for k in keys)


def prepare(c):
    """Copy the model (or the mutated copy) into its own build directory."""
    d = os.path.join(BUILD, re.sub(r'[^A-Za-z0-9_.-]+', '_', c['name']))
    if os.path.isdir(d):
        shutil.rmtree(d)
    os.makedirs(d)
    src = os.path.join(HERE, c['model'])
    dst = os.path.join(d, c['model'])
    # Mutants and variants are sed transformations of a copy: the model
    # sources themselves carry no mutant #ifdefs.
    with open(src) as f:
        text = f.read()
    for script in c['sed']:
        p = subprocess.run(['sed', '-f', script], input=text,
                           stdout=subprocess.PIPE, universal_newlines=True,
                           check=True)
        if p.stdout == text:
            return d, 'sed script %s changed nothing' % \
                os.path.basename(script)
        text = p.stdout
    with open(dst, 'w') as f:
        f.write(text)
    return d, None


# The reduced model 7 and the models built from it stay sound only while
# every grace-period-visible access of the NMI handler goes through the
# NMI_* macros, which check that each atomic block holds at most one of
# them (docs/spin.md, section 5).  A raw access bypasses that check.
LINTED = ('dyntickRCU-irq-nmi-ssl-reduced.spin', 'dyntickRCU-unbounded.spin')


def reduction_lint(text):
    """Return why dyntick_nmi() breaks the reduction's rule, or None."""
    m = re.search(r'^proctype dyntick_nmi\(\)(.*?)^}', text, re.M | re.S)
    if not m:
        return 'reduction lint: no proctype dyntick_nmi()'
    body = re.sub(r'/\*.*?\*/', '', m.group(1), flags=re.S)
    for n, line in enumerate(body.splitlines()):
        if re.search(r'\bgrace_period_state\b', line) or re.search(
                r'\bdynticks_progress_counter\s*(\+\+|--|=[^=])', line) \
                or re.search(r'\b(ctr_|dyn_)\w*\s*(\+\+|--|=[^=])', line):
            return ('reduction lint: raw grace-period-visible access in '
                    'dyntick_nmi(): %s' % line.strip())
    return None


def build_one(c):
    """spin -a and gcc for one check; returns the partial result."""
    d, err = prepare(c)
    res = dict(states=None, depth=None, mem=None, secs=None, errors=None,
               msg='', ok=False, out='', dir=d, built=False)
    if err:
        res['msg'] = err
        return res
    if c['model'] in LINTED:
        with open(os.path.join(d, c['model'])) as f:
            lint = reduction_lint(f.read())
        if lint:
            res['lint'] = lint
            res['built'] = True
            return res
    rc, out = run(['spin'] + defines(c['bounds']) + c['defs'] +
                  ['-a', c['model']], d)
    if rc:
        res['msg'] = 'spin -a failed: ' + out.strip().splitlines()[-1]
        res['out'] = out
        return res
    safety = ['-DSAFETY'] if c.get('safety', True) else []
    cmd = ['gcc', c['opt']] + safety + ['-DMEMLIM=3072'] + c['cflags'] + \
          ['-o', 'pan', 'pan.c']
    rc, out = run(cmd, d)
    if rc:
        res['msg'] = 'gcc failed'
        res['out'] = out
        return res
    res['built'] = True
    return res


def verify_one(c, res, timeout=PAN_TIMEOUT):
    """Run a built pan and judge its outcome."""
    if not res['built']:
        return res
    d = res['dir']
    t0 = time.time()
    if res.get('lint'):
        # Caught before spin runs: "errors: 1" in pan's words.
        rc, out = 1, 'pan:1: %s\ndepth reached 0, errors: 1\n' % \
            res['lint']
    else:
        # pan's default hash table (-w24) is 128 MB, which the kernel
        # spends about 0.3 s zeroing: more than most of these runs take.
        args = c['panargs']
        if not any(a.startswith('-w') for a in args):
            args = args + ['-w20']
        rc, out = run(['./pan'] + args, d, timeout)
    res['wall'] = time.time() - t0
    res['out'] = out
    with open(os.path.join(d, 'pan.out'), 'w') as f:
        f.write(out)
    parse_pan(out, res)
    if c['expect'] == 'pass':
        res['ok'] = res['errors'] == 0 and 'pan: out of memory' not in out \
            and 'runner timeout' not in out
        if not res['ok']:
            res['msg'] = first_error(out) or 'pan did not complete'
    else:
        res['ok'] = bool(res['errors'])
        if not res['ok']:
            res['msg'] = 'NOT CAUGHT (survived)'
        elif c['caught_by'] and c['caught_by'] not in out:
            res['ok'] = False
            res['msg'] = 'caught, but not by "%s": %s' % (
                c['caught_by'], first_error(out))
        else:
            res['msg'] = 'caught: ' + first_error(out)
    return res


def first_error(out):
    for line in out.splitlines():
        m = re.match(r'pan:\d+: (.*?)( \(at depth \d+\))?$', line)
        if m:
            return m.group(1)
    return ''


def parse_pan(out, res):
    m = re.search(r'depth reached (\d+), errors: (\d+)', out)
    if m:
        res['depth'] = int(m.group(1))
        res['errors'] = int(m.group(2))
    m = re.search(r'^\s*([\d.e+]+) states, stored', out, re.M)
    if m:
        res['states'] = int(float(m.group(1)))
    m = re.search(r'([\d.]+)\s+total actual memory usage', out)
    if m:
        res['mem'] = float(m.group(1))
    m = re.search(r'pan: elapsed time ([\d.e+]+) seconds', out)
    if m:
        res['secs'] = float(m.group(1))


def replay(c, res):
    """Replay the trail the way the article walks through it."""
    rc, out = run(['spin', '-t', '-p', '-g', '-l'] + defines(c['bounds']) +
                  c['defs'] + [c['model']], res['dir'])
    with open(os.path.join(res['dir'], 'trail.txt'), 'w') as f:
        f.write(out)
    if c['replay'] is not True:
        return replay_generic(c, res, out)
    step_re = re.compile(r'^\s*(\d+):\s+proc\s+\d+ \((\w+):\d+\) '
                         r'\S+:(\d+) \(state \d+\)\s+\[(.*)\]$')
    lines = out.splitlines()
    events = []
    cur = None
    vals = {}
    last_curr = last_snap = None

    def flush():
        nonlocal last_curr, last_snap
        if not cur:
            return
        step, proc, lineno, stmt = cur
        if stmt.startswith('snap = '):
            last_snap = vals.get('snap')
            events.append('%4s: %-12s line %-3s snap = %s' %
                          (step, proc, lineno, last_snap))
        elif stmt.startswith('curr = '):
            last_curr = vals.get('curr')
            events.append('%4s: %-12s line %-3s curr = %s (snap = %s)' %
                          (step, proc, lineno, last_curr, last_snap))
        elif stmt.startswith('dynticks_progress_counter = '):
            events.append('%4s: %-12s line %-3s counter -> %s' %
                          (step, proc, lineno,
                           vals.get('dynticks_progress_counter')))
        elif stmt.startswith('dyntick_nohz_done = 1'):
            events.append('%4s: %-12s line %-3s dyntick_nohz() has '
                          'completed' % (step, proc, lineno))
        elif stmt == 'else' and proc == 'grace_period':
            events.append('%4s: %-12s line %-3s neither exit test holds '
                          'for curr=%s snap=%s: stays in the loop' %
                          (step, proc, lineno, last_curr, last_snap))

    for line in lines:
        m = step_re.match(line)
        if m:
            flush()
            cur = (m.group(1), m.group(2), m.group(3), m.group(4))
            vals = {}
            continue
        m = re.match(r'^\s+(?:\w+\(\d+\):)?(\w+) = (\d+)$', line)
        if m and cur:
            vals[m.group(1)] = m.group(2)
            continue
        if 'Error: assertion violated' in line or \
                'text of failed assertion' in line:
            flush()
            cur = None
            events.append('      ' + line.strip())
    flush()
    print('    Replay of the trail (spin -t -p -g -l %s), steps that '
          'matter:' % c['model'])
    for e in events:
        print('      ' + e)
    print('    Full replay: %s' % os.path.relpath(
        os.path.join(res['dir'], 'trail.txt'), ROOT))


def replay_generic(c, res, out):
    """Show the trail's steps whose statement matches c['replay']."""
    step_re = re.compile(r'^\s*(\d+):\s+proc\s+\d+ \((\w+):\d+\) '
                         r'\S+:(\d+) \(state \d+\)\s+\[(.*)\]$')
    want = re.compile(c['replay'])
    print('    Replay of the trail (spin -t -p -g -l %s), steps that '
          'matter:' % ' '.join(c['defs'] + [c['model']]))
    cur = None
    vals = []

    def flush():
        if cur and want.search(cur[3]):
            m = re.match(r'(\w+) = ', cur[3])
            if not vals and m:
                vals.append('%s unchanged (still 0)' % m.group(1))
            elif not vals and 'sb_full' in cur[3]:
                vals.append('mb(): store buffer empty, no load pending')
            v = ', '.join(x for x in vals if not x.startswith(
                ('curr', 'snap', 'shouldexit')) or cur[3].startswith(
                ('curr', 'snap')))
            print('      %4s: %-14s line %-4s %-46s %s' % (
                cur[0], cur[1], cur[2], cur[3], v))

    for line in out.splitlines():
        m = step_re.match(line)
        if m:
            if not cur or m.group(1) != cur[0] or m.group(4) != cur[3]:
                flush()
            cur = m.groups()
            vals = []
            continue
        m = re.match(r'^\s+(?:\w+\(\d+\):)?(\w+ = \d+)$', line)
        if m and cur:
            vals.append(m.group(1))
            continue
        if 'Error: assertion violated' in line or \
                'text of failed assertion' in line:
            flush()
            cur = None
            print('      ' + line.strip())
    flush()
    for line in c['explain'].strip().splitlines():
        print('    ' + line)
    print('    Full replay: %s' % os.path.relpath(
        os.path.join(res['dir'], 'trail.txt'), ROOT))


def fmt_int(n):
    return '-' if n is None else '{:,}'.format(n)


def main_verify(only):
    load_extra()
    checks = CHECKS + load_mutants()
    if only:
        checks = [c for c in checks if only in c['name']]
    os.makedirs(BUILD, exist_ok=True)
    t_start = time.time()
    passed = failed = 0
    rows = []
    print('Spin %s; builds under %s' % (
        subprocess.run(['spin', '-V'], stdout=subprocess.PIPE,
                       universal_newlines=True).stdout.strip(),
        os.path.relpath(BUILD, ROOT)))
    # Compiling pan dominates for these small models, so the builds run
    # two at a time (this machine has two cores), ahead of the pan runs,
    # which stay one at a time.
    import concurrent.futures
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=2)
    for c, res in zip(checks, pool.map(build_one, checks)):
        res = verify_one(c, res)
        ok = res['ok']
        # Where the article gives an exact count, stay within 10% of it.
        if ok and c['art_n'] and res['states'] and c['kind'] == 'model' \
                and c['article'].replace(',', '').isdigit():
            dev = abs(res['states'] - c['art_n']) / c['art_n']
            if dev > 0.10:
                ok = False
                res['msg'] = 'state count %.0f%% off the article' % (
                    dev * 100)
        if ok:
            passed += 1
        else:
            failed += 1
        rows.append((c, res, ok))
        print('%-4s %-38s %s' % ('ok' if ok else 'FAIL', c['name'],
                                 res['msg'] or ('expected ' + c['expect'])))
        sys.stdout.flush()
        if c['replay'] and res['errors']:
            replay(c, res)
        if not ok and res['out'] and c['expect'] == 'pass':
            print('\n'.join('    | ' + l for l in
                            res['out'].strip().splitlines()[-15:]))
    pool.shutdown()
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
                'ok' if ok else 'FAIL', c['name'][7:], c['model'], msg))
    print()
    print('verify took %.1f s' % (time.time() - t_start))
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


def need_tools():
    """Fail clearly, not with a traceback, where spin or gcc is missing."""
    missing = [t for t in ('spin', 'gcc', 'sed', 'nice')
               if not shutil.which(t)]
    if missing:
        print('missing %s: on Debian, apt-get install spin gcc' %
              ', '.join(missing))
        print('0 passed, 1 failed')
        sys.exit(1)


def main():
    need_tools()
    args = sys.argv[1:]
    mode = 'verify'
    if args and args[0] in ('verify', 'big'):
        mode = args.pop(0)
    only = None
    if '--only' in args:
        only = args[args.index('--only') + 1]
    if mode == 'big':
        big = os.path.join(HERE, 'big.py')
        os.execv(sys.executable, [sys.executable, big] + args)
    sys.exit(main_verify(only))


if __name__ == '__main__':
    main()
