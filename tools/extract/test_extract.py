# SPDX-License-Identifier: GPL-2.0
"""Host tests of the extractor on small C inputs: what it translates,
and that each construct it does not understand fails the extraction
with the file and line, never silently.

    python3 -m tools.extract.test_extract

Ends with "N passed, N failed"; make verify runs these first
(tests/spin/run.py counts them with its checks).
"""

import os
import re
import sys
import tempfile

from tools.extract import ExtractError, extract

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))

HEAD = """#include "kernel/compiler.h"
#include "kernel/barrier.h"
#include "kernel/bug.h"

struct pcpu { long ctr; long flag; long arr[2]; unsigned long uctr; };
struct pcpu pcpu[4];
long big_global;
"""

GOOD = HEAD + """
static inline struct pcpu *me(void)
{
	return &pcpu[raw_smp_processor_id()];
}

void f_good(void)
{
	long c = READ_ONCE(me()->ctr) + 1;

	WRITE_ONCE(me()->ctr, c);
	barrier();
	smp_mb();
	if (READ_ONCE(me()->flag))
		return;
	WARN(c & 1, "odd");
	me()->arr[c & 1]++;
}

long f_atomic(int cpu)
{
	return __atomic_add_fetch(&pcpu[cpu].ctr, 4, __ATOMIC_SEQ_CST);
}
"""

# Reads pcpu[].flag with READ_ONCE(), then plainly.
PLAIN = ('void f(void)\n{\n\tWRITE_ONCE(big_global, READ_ONCE(pcpu[0].flag));'
         '\n\tWRITE_ONCE(big_global, pcpu[0].flag); /* HERE */\n}\n')

# Each: (what, C body, the message the failure must carry).  The line of
# the construct is the one that holds "/* HERE */".
BAD = [
    ('an asm statement', 'void f(void)\n{\n\t__asm__ __volatile__("nop");'
     ' /* HERE */\n}\n', 'asm statement'),
    ('a switch case that falls through',
     'void f(int x)\n{\n\tswitch (x) {\n\tcase 0:\n\t\tWRITE_ONCE('
     'pcpu[0].ctr, 1); /* HERE */\n\tcase 1:\n\t\tbreak;\n\t}\n}\n',
     'falls through'),
    ('a call with no body and no abstraction',
     'void ext(void);\nvoid f(void)\n{\n\text(); /* HERE */\n}\n',
     'call to ext()'),
    ('a pointer the model cannot name',
     'void f(long *p) /* HERE */\n{\n\tWRITE_ONCE(*p, 1);\n}\n',
     'pointer parameter p'),
    ('a global that is not one of the objects',
     'long other;\nvoid f(void)\n{\n\tWRITE_ONCE(other, 1); /* HERE */\n}\n',
     'global other'),
    ('a constant beyond 32 bits',
     'void f(void)\n{\n\tWRITE_ONCE(big_global, 1L << 40); /* HERE */\n}\n',
     'does not fit'),
    ('a goto', 'void f(void)\n{\n\tgoto out; /* HERE */\nout:\n\t'
     'WRITE_ONCE(big_global, 1);\n}\n', 'GotoStmt'),
    ('a call through a function pointer the spec does not abstract',
     'void (*hook)(void);\nvoid f(void)\n{\n\thook(); /* HERE */\n}\n',
     'call through the pointer hook'),
    ('a narrowing cast of a shared counter',
     'void f(void)\n{\n\tint c = READ_ONCE(pcpu[0].ctr); /* HERE */\n\n'
     '\tWRITE_ONCE(pcpu[0].flag, c);\n}\n', 'narrowing cast'),
    ('unsigned arithmetic on a shared counter',
     'void f(void)\n{\n\tlong d = READ_ONCE(pcpu[0].uctr) - 1; /* HERE */'
     '\n\n\tWRITE_ONCE(pcpu[0].ctr, d);\n}\n', 'unsigned -'),
    ('a plain read of a field the code reads with READ_ONCE()', PLAIN,
     'plain load of pcpu.flag'),
    ('a memory order the model does not give',
     'void f(void)\n{\n\t__atomic_fetch_add(&pcpu[0].ctr, 1, '
     '__ATOMIC_RELAXED); /* HERE */\n}\n', 'memory order __ATOMIC_RELAXED'),
]

SPEC = dict(name='t', objects={'pcpu': 'NCPU', 'big_global': None})

results = []


def check(ok, what):
    results.append(bool(ok))
    print('%s %d - %s' % ('ok' if ok else 'not ok', len(results), what))


def run_c(text, names, **more):
    d = tempfile.mkdtemp(prefix='extract-test-')
    path = os.path.join(d, 'input.c')
    with open(path, 'w') as f:
        f.write(text)
    spec = dict(SPEC, files={path: names}, **more)
    return extract(spec, ROOT), path


def test_good():
    (lay, text, smap), _ = run_c(GOOD, ['f_good', 'f_atomic'])
    body = text[text.index('inline f_good'):text.index('inline f_atomic')]
    steps = re.findall(r'\b(LOAD|STORE|MB|RMW_ADD)\(', body)
    check(steps == ['LOAD', 'STORE', 'MB', 'LOAD', 'LOAD', 'STORE'],
          'READ_ONCE, WRITE_ONCE, smp_mb(), a branch, ++ of an array '
          'field: LOAD STORE MB LOAD LOAD STORE (%s)' % ' '.join(steps))
    check(re.search(r'atomic \{ STORE\([^;]*\); CBARRIER\([^;]*\); MB\(',
                    body), 'barrier() and smp_mb() join the step before them')
    check('assert(' in body, 'WARN() becomes an assertion')
    check('RMW_ADD(me_cpu, me_ctx, f_atomic_t1, '
          'A_pcpu_ctr(a_cpu), 4,' in text,
          '__atomic_add_fetch() is one read-modify-write step')
    check(re.search(r'A_pcpu_arr\(i, j\)', lay),
          'an array field gets an address per element and index')
    lines = GOOD.splitlines()
    want = [1 + next(i for i, l in enumerate(lines) if key in l)
            for key in ('READ_ONCE(me()->ctr)', 'WRITE_ONCE(me()->ctr',
                        'barrier()')]
    check(all(s['where'].endswith(('input.c:%d' % n))
              for s, n in zip(smap['steps'][:3], want)),
          'the source map gives each step its line (%s)' % ', '.join(
              s['where'].rsplit('/', 1)[-1] for s in smap['steps'][:3]))


def test_allowed():
    """What the refusals leave alone: a shared value masked to fit, and
    a plain read that the spec says cannot race."""
    (_, text, _), _ = run_c(HEAD + 'void f(void)\n{\n\tint i = '
                            'READ_ONCE(pcpu[0].ctr) & 1;\n\n\t'
                            'WRITE_ONCE(pcpu[0].flag, i);\n}\n', ['f'])
    check('LOAD(' in text, 'a shared value masked to one bit may be '
          'narrowed')
    (_, text, _), _ = run_c(HEAD + PLAIN, ['f'], plain={
        ('pcpu', 'flag'): 'the test says so'})
    check(text.count('LOAD(') == 2, 'a plain read the spec\'s plain names '
          'is extracted')


# The grace-period side's constructs: a switch, a pointer walking an
# array of structs (with continue), a function pointer chosen by a
# parameter, a callee's pointer parameter, a wrap-safe comparison.
WALK = HEAD + """#include "rcu/rcu.h"
struct node { long mask; long seq; };
struct state { struct node node[2]; long nr; unsigned long seq; };
struct state st;

static bool yes(int cpu)
{
	return READ_ONCE(pcpu[cpu].flag);
}

static bool no(int cpu)
{
	return READ_ONCE(pcpu[cpu].ctr) == 0;
}

static void bump(unsigned long *sp)
{
	WRITE_ONCE(*sp, READ_ONCE(*sp) + 1);
}

static void scan(bool (*f)(int cpu))
{
	struct node *np;

	for (np = &st.node[0]; np < &st.node[st.nr]; np++) {
		if (f == no)
			continue;
		if (f(0))
			WRITE_ONCE(np->mask, 0);
	}
}

void g(int x, bool first, unsigned long s)
{
	switch (x) {
	case 0:
		bump(&st.seq);
		break;
	case 1:
	case 2:
		scan(first ? yes : no);
		break;
	default:
		smp_mb();
		break;
	}
	WRITE_ONCE(pcpu[0].flag, ULONG_CMP_GE(READ_ONCE(st.seq), s));
}
"""


def test_walk():
    (lay, text, _), _ = run_c(WALK, ['g'], objects=dict(
        SPEC['objects'], st=None, node='2'), object_fields={
        ('st', 'node'): 'node'}, field_values={('st', 'nr'): ('2', 'two')})
    body = text[text.index('inline g'):]
    check(':: (a_x == 0) ->' in body and '(a_x == 1 || a_x == 2)' in body,
          'a switch is an if-else chain, stacked labels joined')
    check('g_scan_np_i = 0' in body and 'A_node_mask(g_scan_np_i)' in body,
          'a pointer walking an array of structs is an index')
    check(re.search(r':: a_first ->\s*atomic \{ LOAD[^}]*A_pcpu_flag',
                    body) and
          'A_pcpu_ctr' in body,
          'a call through a function pointer chosen by a parameter '
          'branches on it')
    check('A_st_seq' in body and body.count('A_st_seq') == 3,
          'a callee\'s pointer parameter names the caller\'s location')
    check(re.search(r'\(g_t\d+ >= a_s\)', body),
          'ULONG_CMP_GE() is the plain comparison')


# A lock the spec names (acquire, release), a field it guards, and a
# call the spec says runs under it.
LOCKED = HEAD + """struct lk { int x; };
struct lk lk;
void lock(struct lk *l);
void unlock(struct lk *l);
void held(void);

void h(void)
{
	WRITE_ONCE(pcpu[0].ctr, 1);
	WRITE_ONCE(pcpu[0].flag, 1);
	lock(&lk);
	WRITE_ONCE(pcpu[0].flag, 2);
	held();
	unlock(&lk);
	WRITE_ONCE(pcpu[0].flag, 3);
}
"""
LOCK_CALLS = {'lock': ('acquire', 'LOCK({0})', 'the lock'),
              'unlock': ('release', 'UNLOCK({0})', 'the lock'),
              'held': ('locked', 'HELD()', 'under the lock')}


def test_locks():
    (_, text, _), _ = run_c(LOCKED, ['h'], objects=dict(
        SPEC['objects'], lk=None), calls=LOCK_CALLS, locked={
        ('pcpu', 'flag'): ('lk', 'the test says so')})
    steps = [l.strip() for l in text[text.index('inline h'):].splitlines()
             if l.strip().startswith('atomic')]
    check(len(steps) == 4 and 'LOCK(lk); STORE' in steps[2] and
          'HELD(); UNLOCK(lk)' in steps[2],
          'a locked field\'s store and a locked call join the acquire, '
          'the release joins them; outside the lock the field\'s '
          'stores are steps (%d steps)' % len(steps))
    try:
        run_c(LOCKED.replace('\tlock(&lk);\n', ''), ['h'], objects=dict(
            SPEC['objects'], lk=None), calls=LOCK_CALLS)
    except ExtractError as e:
        check('none is held here' in e.msg, 'a locked call with no lock '
              'held fails the extraction: %s' % e)
    else:
        check(False, 'a locked call with no lock held: extracted without '
              'complaint')


def test_bad():
    for what, body, msg in BAD:
        line = body[:body.index('/* HERE */')].count('\n') + 1 + \
            HEAD.count('\n')
        try:
            run_c(HEAD + body, ['f'])
        except ExtractError as e:
            ok = e.where.endswith('input.c:%d' % line) and msg in e.msg
            check(ok, '%s fails the extraction at its line: %s' % (what, e))
            continue
        check(False, '%s: extracted without complaint' % what)


def run_tests():
    """[(ok, what)] of every test, printing nothing."""
    del results[:]
    names = []
    global check

    def quiet(ok, what):
        results.append(bool(ok))
        names.append(what)
    saved, check = check, quiet
    try:
        test_good()
        test_allowed()
        test_walk()
        test_locks()
        test_bad()
    finally:
        check = saved
    return list(zip(results, names))


def main():
    test_good()
    test_allowed()
    test_walk()
    test_locks()
    test_bad()
    failed = results.count(False)
    print('%d passed, %d failed' % (len(results) - failed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
