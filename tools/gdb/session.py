# SPDX-License-Identifier: GPL-2.0
"""What the gdb helpers' batch sessions share (session_rcupreempt.py and
session_tree.py, run inside gdb by tools/gdb/test.py, which gives gdb's
Python the repository root in PYTHONPATH so that they import this).

A session attaches to a QEMU that waits at reset, stops where its kernel
test is in the state to look at, runs the helpers and checks their output
against values it reads itself with plain gdb expressions (never through
the helpers).  Then it loads each broken copy of the helpers
(DYNRCU_GDB_MUTANTS) at the same stop and requires each to fail at least
one check.  It prints "ok N - what" / "not ok N - what" lines, which
test.py counts.

A session script runs in gdb's __main__, where "source" also puts the
helpers' names (tools/gdb/dynrcu.py): the names here must not be theirs.
"""

import os
import time

import gdb

HELPERS = os.environ["DYNRCU_GDB_HELPERS"]
MUTANTS = [m for m in os.environ.get("DYNRCU_GDB_MUTANTS", "").split(":")
           if m]
PORT = os.environ["DYNRCU_GDB_PORT"]
results = []
LIST_LIMIT = 10000      # a corrupt list may loop


def ev(expr):
    return gdb.parse_and_eval(expr)


def run(cmd):
    return gdb.execute(cmd, to_string=True)


def report(ok, what, quiet=False):
    if not quiet:
        results.append(ok)
        print("%sok %d - %s" % ("" if ok else "not ", len(results), what),
              flush=True)
    return ok


def online():
    words = int(ev("sizeof(cpu_online_mask.bits) / sizeof(u64)"))
    mask = sum(int(ev("cpu_online_mask.bits[%d]" % i)) << (64 * i)
               for i in range(words))
    return [c for c in range(words * 64) if mask >> c & 1]


def task_exprs(head, member):
    """Each struct task on the list at expression head, linked through
    member, as an expression "((struct task *)ADDR)"."""
    off = int(ev("(unsigned long)&((struct task *)0)->%s" % member))
    stop = int(ev("(unsigned long)&" + head))
    node = int(ev("(unsigned long)(%s).next" % head))
    out = []
    while node != stop and len(out) < LIST_LIMIT:
        out.append("((struct task *)%d)" % (node - off))
        node = int(ev("(unsigned long)((struct list_head *)%d)->next"
                      % node))
    return out


def start():
    """Load the helpers and attach to the waiting QEMU."""
    gdb.execute("set pagination off")
    gdb.execute("set confirm off")
    gdb.execute("source " + HELPERS)
    # QEMU may still be starting: retry the connection for a few seconds.
    for attempt in range(40):
        try:
            gdb.execute("target remote 127.0.0.1:" + PORT)
            break
        except gdb.error:
            if attempt == 39:
                raise
            time.sleep(0.25)


def stop_at(symbol, thread=None):
    """Continue to symbol (on one gdb thread if given), then remove the
    breakpoint."""
    gdb.execute("break " + symbol +
                ("" if thread is None else " thread %d" % thread))
    gdb.execute("continue")
    gdb.execute("delete")


def mutants(stop, caught):
    """Load each broken helper at this stop; note the ones a check fails
    (or that error out), then load the real helpers again."""
    for m in MUTANTS:
        gdb.execute("source " + m)
        try:
            if not stop(True):
                caught.add(m)
        except (gdb.error, IndexError, ValueError):
            caught.add(m)
    gdb.execute("source " + HELPERS)


def finish(name, caught):
    """One check per broken helper, then the session's summary line."""
    for m in MUTANTS:
        report(m in caught, "broken helper %s is caught"
               % os.path.basename(m)[:-3])
    print("# %s: %d checks, %d failed"
          % (name, len(results), results.count(False)), flush=True)


def session(main):
    """Run main(); an error ends the session as a failed check (a session
    cut short must not pass on the checks it ran)."""
    try:
        main()
    except gdb.error as e:
        print("not ok - gdb error: %s" % e, flush=True)
    except Exception as e:
        print("not ok - session error: %s: %s" % (type(e).__name__, e),
              flush=True)
