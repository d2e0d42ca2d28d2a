# SPDX-License-Identifier: GPL-2.0
"""Pictures that cannot rot: is each committed picture (docs/figures/)
what make figures has just drawn (build/figures/)?  Every picture but
those of NOT_DETERMINISTIC is a pure function of the tree, so a committed
copy that differs from a fresh one, byte for byte, is stale.
tools/check_docs.py runs make figures and then this check."""

import os

from tools.figures import FIGURES, NOT_DETERMINISTIC

BUILD = "build/figures"
DOCS = "docs/figures"


def read(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def stale(root, made):
    """[(picture, why)] for each deterministic picture that this run of
    make figures did not write (made: the names it wrote), or whose
    committed copy differs from what it wrote."""
    out = []
    for name, _ in FIGURES:
        if name in NOT_DETERMINISTIC:
            continue
        if name not in made:
            out.append((name, "make figures did not write it this run"))
            continue
        new = read(os.path.join(root, BUILD, name))
        old = read(os.path.join(root, DOCS, name))
        if old is None:
            out.append((name, "not committed in %s" % DOCS))
        elif new != old:
            out.append((name, "differs from the %s/%s that make "
                        "figures just drew: stale (make figures && make "
                        "docs-figures, then commit it)" % (BUILD, name)))
    return out
