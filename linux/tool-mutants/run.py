#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make linux-tool-mutants: the Linux tooling's self-tests must catch each
mutant here.

Each patch of this directory (a description, then a diff against linux/)
is applied to a copy of linux/ in a temporary directory, never to the
tree itself, and linux/test_hunt.py and linux/test_judge.py run there;
the mutant is caught when either fails.  A mutant that survives, or no
longer applies, makes the exit status 1.  Nothing is built or booted
(about 10 s a mutant).
"""
import glob
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
LINUX = os.path.dirname(HERE)
TESTS = ("test_hunt", "test_judge")


def first_failure(text):
    """The first failing check's line, as either self-test prints it."""
    return next((l for l in text.splitlines()
                 if l.startswith(("FAIL", "not ok"))), "")[:100]


def judge(patch):
    """caught, survived or broken, and what showed it."""
    with tempfile.TemporaryDirectory(prefix="tool-mutant.") as tmp:
        copy = os.path.join(tmp, "linux")
        shutil.copytree(LINUX, copy, ignore=shutil.ignore_patterns(
            "__pycache__"))
        r = subprocess.run(["git", "apply", patch], cwd=tmp,
                           capture_output=True, text=True)
        if r.returncode:
            return "BROKEN", "does not apply: " + r.stderr.strip()[:200]
        failed = []
        for t in TESTS:
            r = subprocess.run([sys.executable, os.path.join(copy, t + ".py")],
                               capture_output=True, text=True, timeout=600)
            if r.returncode:
                failed.append((t, first_failure(r.stdout + r.stderr)))
        if not failed:
            return "SURVIVED", ""
        return "caught", " ".join(t for t, _ in failed) + ": " + failed[0][1]


def main():
    patches = sorted(glob.glob(os.path.join(HERE, "*.patch")))
    if not patches:
        sys.exit(f"tool mutants: no patch in {HERE}")
    caught = 0
    for p in patches:
        verdict, why = judge(p)
        caught += verdict == "caught"
        name = os.path.basename(p)[:-len(".patch")]
        sep = " by " if verdict == "caught" else ": " if why else ""
        print(f"mutant {name}: {verdict}{sep}{why}", flush=True)
    print(f"tool mutants: {caught} of {len(patches)} caught, "
          f"{len(patches) - caught} survived or broken")
    return 0 if caught == len(patches) else 1


if __name__ == "__main__":
    sys.exit(main())
