# SPDX-License-Identifier: GPL-2.0
"""Running one Spin check: copy the model (or a sed-mutated copy) into its
own build directory, "spin -a", compile pan, run it, and judge the outcome
against what is expected (a pass, or an error for a model or mutant that
must be caught); replay an error's trail the way the article walks
through it.

Used by the Spin suites' command lines (tests/spin/run.py for make
verify, big.py, unbounded.py, swarm.py), whose models live in
tests/spin/.  Standard library only, so it runs anywhere spin and gcc do.
Every spin/gcc/pan runs under "nice -n 19" (SPIN_NICE): this machine is
shared with timing-sensitive work.
"""

import os
import resource
import re
import shutil
import signal
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODELS = os.path.join(ROOT, 'tests', 'spin')
BUILD = os.path.join(ROOT, 'build', 'spin')
MUTANTS = os.path.join(MODELS, 'mutants')
# SPIN_NICE: the nice level (default 19) for a caller that already set its
# own priority (make test's suites table runs the Spin suite at nice 10).
_NICE = os.environ.get('SPIN_NICE', '19')
if not _NICE.isdigit() or int(_NICE) > 19:
    sys.exit('spin: SPIN_NICE=%r: expected a whole number, 0 to 19' % _NICE)
NICE = ['nice', '-n', _NICE]
# No pan in "make verify" needs more than a few seconds of CPU; a hung or
# exploding one must fail the run rather than stall it.  The limit is on
# CPU time (RLIMIT_CPU), not wall time: at nice 19 on a loaded host a pan
# that needs 20 s of CPU can take minutes of wall time, and a wall limit
# failed it for the host's speed.  A wall backstop, WALL_FACTOR times the
# limit, still ends one that is starved outright.
PAN_TIMEOUT = 120
WALL_FACTOR = 10
# pan is compiled through the compiler cache shared with the kernel's
# builds (tools/ccache.mk), when Debian's ccache is there: most models
# are the same from one make verify to the next, and each check builds
# its pan in a directory of its own, which ccache does not hash (pan is
# built without -g).  ccache takes compilations only (-c), so pan.c is
# compiled to pan.o and linked apart (build_one()).
CC = (['ccache'] if shutil.which('ccache') else []) + ['gcc']
os.environ.setdefault('CCACHE_DIR', os.environ.get(
    'DYNRCU_CCACHE_DIR', '/var/tmp/dynrcu-ccache'))


def check(name, model, bounds, expect, article='-', art_n=None, opt='-O1',
          panargs=(), cflags=(), replay=False, caught_by=None, kind='model',
          note='', sed=(), defs=(), explain='', files=(), broken=None,
          post=None, passed=None):
    """One verification job.  expect is 'pass' or 'error'.

    sed: scripts (relative to tests/spin/) applied in turn to a copy of
    the model; defs: extra -D options for spin; replay: False, True (the
    article's curr/snap walk-through) or a regex of the statements to show
    from the trail; explain: printed after the replay.  files: more files
    (absolute paths) copied beside the model, which it #includes; broken:
    why the model could not be made (the check fails with that); passed:
    why there is nothing to run (the check passes with that); post:
    called as post(check, result) once pan has run.
    """
    return dict(name=name, model=model, bounds=dict(bounds), expect=expect,
                article=article, art_n=art_n, opt=opt, panargs=list(panargs),
                cflags=list(cflags), replay=replay, caught_by=caught_by,
                kind=kind, note=note,
                sed=[os.path.join(MODELS, x) for x in sed], defs=list(defs),
                explain=explain, files=list(files), broken=broken, post=post,
                passed=passed)


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


def cpu_limit(seconds):
    """For preexec_fn: SIGXCPU after seconds of CPU (nice execs the command,
    so the limit is the command's own)."""
    def set_limit():
        resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 5))
    return set_limit


def run(cmd, cwd, timeout=None):
    """(status, output) of cmd; timeout: seconds of CPU (see PAN_TIMEOUT)."""
    try:
        p = subprocess.run(NICE + cmd, cwd=cwd, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, universal_newlines=True,
                           timeout=timeout and timeout * WALL_FACTOR,
                           preexec_fn=timeout and cpu_limit(timeout))
    except subprocess.TimeoutExpired as e:
        out = e.stdout or ''
        if isinstance(out, bytes):
            out = out.decode(errors='replace')
        return -1, out + '\npan: killed after %d s of wall time, starved ' \
            '(runner timeout)\n' % (timeout * WALL_FACTOR)
    if timeout and p.returncode == -signal.SIGXCPU:
        return -1, p.stdout + '\npan: killed after %d s of CPU time ' \
            '(runner timeout)\n' % timeout
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
    src = os.path.join(MODELS, c['model'])
    dst = os.path.join(d, os.path.basename(c['model']))
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
    for extra in c.get('files', ()):
        shutil.copy(extra, d)
    return d, None


# The reduced model 7 and the models built from it stay sound only while
# every grace-period-visible access of the NMI handler goes through the
# NMI_* macros, which check that each atomic block holds at most one of
# them (docs/spin-big.md).  A raw access bypasses that check.
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
    res = dict(states=None, depth=None, mem=None, secs=None, errors=None,
               msg='', ok=False, out='', dir=None, built=False)
    if c.get('broken') or c.get('passed'):
        res['msg'] = c['broken'] or c['passed']
        res['ok'] = not c['broken']
        return res
    d, err = prepare(c)
    res['dir'] = d
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
                  ['-a', os.path.basename(c['model'])], d)
    if rc:
        res['msg'] = 'spin -a failed: ' + out.strip().splitlines()[-1]
        res['out'] = out
        return res
    safety = ['-DSAFETY'] if c.get('safety', True) else []
    # Compile, then link: ccache caches a compilation (-c) only, and a
    # one-step build was never cached.
    rc, out = run(CC + [c['opt']] + safety + ['-DMEMLIM=3072'] +
                  c['cflags'] + ['-c', '-o', 'pan.o', 'pan.c'], d)
    if not rc:
        rc, out = run(['gcc', '-o', 'pan', 'pan.o'], d)
    if rc:
        res['msg'] = 'gcc failed'
        res['out'] = out
        return res
    res['built'] = True
    return res


# What pan prints when its search did not cover the state space.
INCOMPLETE = ('pan: out of memory', 'pan: reached -DMEMLIM bound',
              'max search depth too small', 'runner timeout')


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
        # A search cut short passes nothing: out of memory, stopped at
        # the -DMEMLIM bound (pan then prints no "out of memory"), or
        # at the depth limit (pan goes on, and counts no error).
        short = [m for m in INCOMPLETE if m in out]
        res['ok'] = res['errors'] == 0 and not short
        if not res['ok']:
            res['msg'] = first_error(out) or (
                'pan did not complete: %s' % short[0])
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


def trail(c, res):
    """Replay the error trail of a run check (spin -t -p -g -l): its
    text, also saved as trail.txt in the check's build directory."""
    rc, out = run(['spin', '-t', '-p', '-g', '-l'] + defines(c['bounds']) +
                  c['defs'] + [os.path.basename(c['model'])], res['dir'])
    with open(os.path.join(res['dir'], 'trail.txt'), 'w') as f:
        f.write(out)
    return out


def replay(c, res):
    """Replay the trail the way the article walks through it."""
    out = trail(c, res)
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


def mark(ok):
    """The first word of a result line: ok, FAIL, or skip (ok None: a
    case that cannot be made on the code as it is, which says why and
    counts neither way)."""
    return 'skip' if ok is None else 'ok' if ok else 'FAIL'


def totals(oks):
    """A suite's last line: "N passed, N failed" (the form run-all.sh
    reads), then how many were skipped, if any."""
    oks = list(oks)
    skipped = oks.count(None)
    return '%d passed, %d failed%s' % (
        oks.count(True), oks.count(False),
        ', %d skipped' % skipped if skipped else '')


def fmt_int(n):
    return '-' if n is None else '{:,}'.format(n)


def need_tools():
    """Fail clearly, not with a traceback, where spin or gcc is missing."""
    missing = [t for t in ('spin', 'gcc', 'sed', 'nice')
               if not shutil.which(t)]
    if missing:
        print('missing %s: on Debian, apt-get install spin gcc' %
              ', '.join(missing))
        print('0 passed, 1 failed')
        sys.exit(1)
