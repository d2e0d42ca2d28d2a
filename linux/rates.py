#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""One column of DYNRCU_LINUX_STOCK=1's table, from its boots' judge output.

Usage: rates.py SECONDS JUDGE_FILE...  (one file per boot of SECONDS of
test; a file whose boot failed as wanted has "judge: caught by:").
Prints one line, "|"-separated: boots caught, failures per guest hour, its
95% interval, the times to the first error ("-" not caught, "boot"
caught before the test started), what caught them.

A boot stops at its first error, so the guest time watched is the time to
the first error (none when it came during boot, before the test), or,
when nothing was caught, the guest time the test reached, at most
SECONDS.  The rate is failures over the time
watched; the interval is the exact one for a Poisson count (a constant
rate assumed), found by bisection on the Poisson distribution.
"""
import math
import re
import sys
from collections import Counter


def poisson_cdf(k, lam):
    """P(X <= k) for X ~ Poisson(lam)."""
    term = total = math.exp(-lam)
    for i in range(1, k + 1):
        term *= lam / i
        total += term
    return total


def solve(f, lo, hi):
    """The root of a decreasing f on [lo, hi], by bisection."""
    for _ in range(200):
        mid = (lo + hi) / 2
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def interval(k, alpha=0.05):
    """Exact two-sided interval for the mean of a Poisson count k."""
    hi_bound = 10.0 * (k + 10)
    upper = solve(lambda l: poisson_cdf(k, l) - alpha / 2, 0.0, hi_bound)
    if k == 0:
        return 0.0, upper
    # P(X >= k) = 1 - P(X <= k - 1) rises with lam: solve its complement.
    lower = solve(lambda l: poisson_cdf(k - 1, l) - (1 - alpha / 2),
                  0.0, hi_bound)
    return lower, upper


def column(seconds, files):
    caught, watched, times, labels = 0, 0.0, [], Counter()
    for path in files:
        text = open(path, errors="replace").read()
        m = re.search(r"^judge: first error (-?[0-9.]+) s after Start",
                      text, re.M)
        by = re.search(r"^judge: caught by: (.*)$", text, re.M)
        t = float(m.group(1)) if m else None
        # Guest time the test ran: the judge's figure, or (an older
        # judge) the last console line it quoted, counted from boot, a
        # second or so more; a loaded host slows the guest's clock, so a
        # boot that timed out watched less than SECONDS.
        r = re.search(r"^judge: test time reached (-?[0-9.]+) s", text,
                      re.M)
        quoted = re.findall(r"^  \| \[\s*([0-9.]+)\]", text, re.M)
        reached = float(r.group(1)) if r else \
            float(quoted[-1]) if quoted else seconds
        if by:
            caught += 1
            labels[by.group(1)] += 1
        if by and t is None:
            # Caught before rcutorture printed its start, and the boot
            # ended there (arm64's panic_on_warn): no test time watched.
            times.append("boot")
        elif t is None:
            times.append("-")
            watched += min(seconds, reached)
        else:
            times.append(f"{t:.2f}")
            watched += max(t, 0.0)
    hours = watched / 3600
    if caught == 0:
        rate = "0"
    elif hours <= 0:
        rate = "at boot"
    else:
        rate = f"{caught / hours:.3g}"
    if hours > 0:
        lo, hi = interval(caught)
        ci = f"{lo / hours:.3g}–{hi / hours:.3g}"
    else:
        ci = "-"
    lab = "; ".join(f"{k} ({n})" for k, n in sorted(labels.items()))
    return f"{caught}|{rate}|{ci}|{' '.join(times)}|{lab or '-'}"


def main(argv):
    if len(argv) < 3:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    try:
        seconds = float(argv[1])
        if seconds <= 0:
            raise ValueError
    except ValueError:
        print(f"rates.py: SECONDS must be a positive number, not "
              f"'{argv[1]}'", file=sys.stderr)
        return 2
    for p in argv[2:]:
        try:
            open(p).close()
        except OSError as e:
            print(f"rates.py: {p}: {e.strerror}", file=sys.stderr)
            return 2
    print(column(seconds, argv[2:]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
