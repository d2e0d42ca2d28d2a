# SPDX-License-Identifier: GPL-2.0
"""Applying a mutant's patch to a copy of the tree, forward only.

patch --batch alone takes a patch that is already applied for one made
the other way round, and reverses it: a copy whose C already has the
mutant's edit would lose it, and the mutant's run would check the code
without its bug.  --forward refuses that instead; the copy is thrown
away, so rejects are not kept (-r -).  tests/mutants/host/run.sh and
tools/figures/figures.mk call patch with the same options.
"""

import os
import shutil
import subprocess
import tempfile

OPTIONS = ['-p1', '--batch', '--quiet', '-r', '-']

# What patch says of a hunk that is already in the file, and what
# apply() says then.
APPLIED = 'Reversed (or previously applied) patch detected'
ALREADY = 'already applied'


def _patch(direction, path, cwd):
    """(exit status, output on one line) of patch in one direction."""
    with open(path) as f:
        r = subprocess.run(['patch', direction] + OPTIONS, cwd=cwd, stdin=f,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True)
    return r.returncode, ' '.join(r.stdout.split())[:200]


def apply(path, cwd):
    """Apply the patch at path to the tree at cwd: None, or why not
    ("already applied: ..." where the tree has the edit already)."""
    rc, out = _patch('--forward', path, cwd)
    if not rc:
        return None
    if APPLIED in out:
        return '%s: patch --forward finds its edit in the tree ' \
            'already' % ALREADY
    return 'patch does not apply: ' + out


def revert(path, cwd):
    """Take the patch at path back out of the tree at cwd, which has it
    already (to say where it is): None, or why not."""
    rc, out = _patch('--reverse', path, cwd)
    return 'patch --reverse failed: ' + out if rc else None


def self_test():
    """[(ok, what)]: a patch applies once, and the second time fails as
    already applied, leaving the file as the first made it."""
    d = tempfile.mkdtemp(prefix='dynrcu-patch-test-')
    try:
        with open(os.path.join(d, 'f.c'), 'w') as f:
            f.write('a;\nb;\nc;\n')
        path = os.path.join(d, 'm.patch')
        with open(path, 'w') as f:
            f.write('Mutant: b becomes B\n\n--- a/f.c\n+++ b/f.c\n'
                    '@@ -1,3 +1,3 @@\n a;\n-b;\n+B;\n c;\n')
        first, second = apply(path, d), apply(path, d)
        with open(os.path.join(d, 'f.c')) as f:
            text = f.read()
    finally:
        shutil.rmtree(d, ignore_errors=True)
    return [(first is None, 'a mutant\'s patch applies to a copy '
             'without it: %s' % (first or 'applied')),
            (bool(second) and second.startswith(ALREADY) and
             text == 'a;\nB;\nc;\n', 'applied again, it fails as already '
             'applied and the edit stays: %s' % second)]
