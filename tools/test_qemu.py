#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Host tests for tools/qemu.py's run_qemu(): the console it returns holds
everything QEMU wrote, however QEMU's exit falls between the harness's
reads; the timeout counts from the kernel's first line, not from a slow
GRUB; and a monitor that answers nothing is reported, not a crash.  Ends
with "N passed, N failed"."""

import os
import socket
import subprocess
import tempfile
import threading

from tools import monitor, qemu

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

    # GRUB slower than the scenario's timeout (a loaded host): a 2 s
    # silence, then the kernel's line, then 1 s more, under a 1.5 s
    # timeout.  The run must finish: the timeout starts at the kernel.
    with tempfile.NamedTemporaryFile() as log:
        status, text = qemu.run_qemu(
            ["sh", "-c", "printf 'Booting dynrcu\\n'; sleep 2; "
             "printf '[    0.000000] cpu0: dynrcu: booting\\n'; sleep 1; "
             "printf 'done\\n'; exit 33"], 1.5, log.name)
    check(status == 33 and "done" in text,
          f"the timeout counts from the kernel's first line (status "
          f"{status})")
    # And a kernel that never speaks is reported as such.
    saved = qemu.BOOT_LIMIT
    qemu.BOOT_LIMIT = 1
    try:
        with tempfile.NamedTemporaryFile() as log:
            status, text = qemu.run_qemu(["sleep", "10"], 0.5, log.name)
    finally:
        qemu.BOOT_LIMIT = saved
    check(status is None and "the kernel printed nothing" in text,
          f"silence past the boot allowance times out and says so "
          f"({text.strip()[-60:]!r})")

    # A monitor that greets, stops the guest, then closes its socket on
    # "info registers" (QEMU going away): an empty answer, no error from
    # the socket.  The dump says it failed; it does not raise.
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "hmp")
        srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        srv.bind(path)
        srv.listen(1)

        def serve():
            conn, _ = srv.accept()
            conn.sendall(b"QEMU monitor\r\n(qemu) ")
            conn.recv(100)
            conn.sendall(b"stop\r\n(qemu) ")
            conn.recv(100)
            conn.close()
        th = threading.Thread(target=serve)
        th.start()
        try:
            lines = monitor.dump_cpus(path, "/nonexistent")
        except Exception as e:            # the bug: a crash
            lines = [f"raised {e!r}"]
        th.join()
        srv.close()
    check(lines and "monitor dump failed" in lines[-1],
          f"a monitor that answers nothing is reported ({lines})")

    npass = sum(results)
    print(f"{npass} passed, {len(results) - npass} failed")
    return 0 if npass == len(results) else 1


if __name__ == "__main__":
    raise SystemExit(main())
