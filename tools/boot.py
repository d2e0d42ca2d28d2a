#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Boot build/kernel.elf once with a command line, save the console, judge
its KTAP like the harness does.  For make trace and make bench.

Boots directly (-kernel, PVH) under TCG, the reference, unless ACCEL=kvm.
Prints the host wall time from QEMU's start to the "KTAP version 1" line.
Exit status 0 when the run passed, 1 otherwise.
"""

import argparse
import os
import subprocess
import sys
import time

from tools.ktap import judge_ktap
from tools.qemu import ROOT, qemu_cmd


def boot(kernel, cpus, cmdline, timeout, log_path, extra=()):
    """Return (status or None on timeout, text, seconds to KTAP line)."""
    accel = os.environ.get("ACCEL") or "tcg"
    cmd = qemu_cmd(accel, None, cpus,
                   ["-kernel", kernel, "-append", cmdline] + list(extra))
    start = time.monotonic()
    first_ktap = None
    buf = b""
    os.makedirs(os.path.dirname(os.path.abspath(log_path)), exist_ok=True)
    with open(log_path, "wb") as log:
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT,
                             stdin=subprocess.DEVNULL)
        os.set_blocking(p.stdout.fileno(), False)
        status = None
        while True:
            chunk = p.stdout.read()
            if chunk:
                log.write(chunk)
                buf += chunk
                if first_ktap is None and b"KTAP version 1" in buf:
                    first_ktap = time.monotonic() - start
            if p.poll() is not None and not chunk:
                status = p.returncode
                break
            if time.monotonic() - start > timeout:
                p.kill()
                p.wait()
                break
            time.sleep(0.01)
    return status, buf.decode(errors="replace").replace("\r", ""), first_ktap


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kernel",
                    default=os.path.join(ROOT, "build", "kernel.elf"))
    ap.add_argument("--cpus", type=int, default=4)
    ap.add_argument("--cmdline", default="")
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--log", required=True)
    args = ap.parse_args()
    status, text, t = boot(args.kernel, args.cpus, args.cmdline,
                           args.timeout, args.log)
    problems = (["timeout after %d s" % args.timeout] if status is None
                else judge_ktap(text, status))
    print(f"boot: {args.cpus} CPUs, '{args.cmdline}': "
          f"{'pass' if not problems else '; '.join(problems[:4])}; "
          f"host time to first KTAP line "
          f"{'%.3f s' % t if t is not None else 'n/a'}; log {args.log}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
