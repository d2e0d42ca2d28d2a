# SPDX-License-Identifier: GPL-2.0
"""make figures: run every picture's generator, one line per picture;
exit 1, naming the pictures, if any generator failed.

Usage: python3 -m tools.figures [--out DIR] [--only NAME] [--cpus N]
                                [--trace-cmdline CMDLINE]
"""

import argparse
import importlib
import os
import sys
import time
import traceback

from tools.figures import FIGURES
from tools.figures.common import ROOT, FigureError


class Context:
    """What a generator gets: where to write, and make's settings."""

    def __init__(self, args):
        self.out = os.path.abspath(args.out)
        self.cpus = args.cpus
        self.trace_cmdline = args.trace_cmdline
        self.kernel = os.path.join(ROOT, "build", "kernel.elf")

    def path(self, name):
        return os.path.join(self.out, name)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "figures"))
    ap.add_argument("--only", action="append",
                    help="only this picture (file or module name)")
    ap.add_argument("--cpus", type=int, default=4)
    ap.add_argument("--trace-cmdline",
                    default="trace=on tests=rcu_torture torture_duration=3")
    args = ap.parse_args()
    ctx = Context(args)
    os.makedirs(ctx.out, exist_ok=True)
    todo = [(f, m) for f, m in FIGURES
            if not args.only or f in args.only or m in args.only
            or f[:-4] in args.only]
    if not todo:
        sys.exit("figures: no picture named %s" % ", ".join(args.only))
    failed = []
    for name, mod in todo:
        t0 = time.time()
        try:
            summary = importlib.import_module(
                "tools.figures." + mod).make(ctx)
            if not os.path.isfile(ctx.path(name)):
                raise FigureError("the generator wrote no %s" % name)
            print("figures: %-24s ok  %4.1f s  %s" % (
                name, time.time() - t0, summary))
        except FigureError as e:
            failed.append(name)
            print("figures: %-24s FAILED: %s" % (name, e))
        except Exception:
            failed.append(name)
            print("figures: %-24s FAILED (generator crashed):" % name)
            traceback.print_exc(file=sys.stdout)
        sys.stdout.flush()
    if failed:
        print("figures: %d of %d failed: %s" % (len(failed), len(todo),
                                                 ", ".join(failed)))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
