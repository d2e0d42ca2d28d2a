#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Host tests for tools/qemu.py's run_qemu(): the console it returns holds
everything QEMU wrote, however QEMU's exit falls between the harness's
reads.  Ends with "N passed, N failed"."""

import os
import subprocess
import tempfile

from tools import qemu

results = []


def check(ok, what):
    results.append(bool(ok))
    print(f"{'ok' if ok else 'not ok'} {len(results)} - {what}")


class ExitsDuringRead:
    """A QEMU that writes its last lines and exits while the harness's
    first read finds the pipe empty: the ordering a loaded host makes
    possible, forced here."""

    def __init__(self, text):
        self.text = text.encode()
        self.exited = False
        self.reads = 0
        self.returncode = None
        self.pid = 0
        self.stdout = self

    def fileno(self):
        return -1

    def read(self):
        self.reads += 1
        if self.reads == 1:
            self.exited = True         # writes, then exits, after our read
            self.returncode = 35
            return None
        if self.text:
            text, self.text = self.text, b""
            return text
        return b""

    def poll(self):
        return self.returncode if self.exited else None

    def kill(self):
        pass

    def wait(self):
        return self.returncode


def run_fake(fake):
    real_popen, real_blocking = subprocess.Popen, os.set_blocking
    subprocess.Popen = lambda *a, **k: fake
    os.set_blocking = lambda fd, flag: None
    try:
        with tempfile.NamedTemporaryFile() as log:
            return qemu.run_qemu(["qemu"], 10, log.name)
    finally:
        subprocess.Popen, os.set_blocking = real_popen, real_blocking


def main():
    line = "cmdline: error: torture_writers=0: out of range\n"
    status, text = run_fake(ExitsDuringRead(line))
    check(status == 35, f"exit status kept (got {status})")
    check(line.strip() in text,
          f"lines written just before the exit are kept (got {text!r})")

    # A real process that prints and exits at once, many times.
    lost = 0
    with tempfile.NamedTemporaryFile() as log:
        for _ in range(50):
            status, text = qemu.run_qemu(
                ["sh", "-c", "printf 'a\\nlast line\\n'; exit 3"], 10,
                log.name)
            lost += status != 3 or "last line" not in text
    check(lost == 0, f"a quick real process: {lost} of 50 lost output")

    npass = sum(results)
    print(f"{npass} passed, {len(results) - npass} failed")
    return 0 if npass == len(results) else 1


if __name__ == "__main__":
    raise SystemExit(main())
