# SPDX-License-Identifier: GPL-2.0
"""Booting dynrcu in QEMU: the command line, the ISO cache, one bounded
run with its console, and the last console lines of a failed run.

A run's timeout counts from the kernel's first console line: GRUB and
the firmware before it get BOOT_LIMIT seconds of their own, because under
a loaded host loading the ISO alone can take longer than a short
scenario's whole timeout.  A run that times out gets each vCPU's
backtrace from QEMU's monitor (tools/monitor.py); one that printed a
fatal line is stopped FAIL_GRACE seconds later if the kernel did not exit
by itself.
"""

import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

from tools.ktap import FATAL_SIGNAL
from tools.monitor import dump_cpus, qemu_threads

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, "build")
TAIL = 40
# After the first fatal line the kernel has this long to finish its report
# and exit before the harness stops it (a kernel booted with
# panic_on_warn=0, or one wedged after its report).
FAIL_GRACE = 15
# Wall seconds from QEMU's start to the kernel's first line (GRUB loading
# the ISO, the firmware): 16 s under a load average of 20 on 2 cores, so
# four times that.
BOOT_LIMIT = 60
# The kernel's first line: printk's timestamp.
KERNEL_LINE = re.compile(r"\[\s*\d+\.\d{6}\]")
# QEMU's pc machine under TCG: xAPIC IDs 0..254 (no x2APIC in QEMU 7.2).
MAX_CPUS = 255


def iso_for(kernel, cmdline):
    """The ISO booting kernel with cmdline, cached by content."""
    # make iso's own ISO, for its own kernel only (not a mutant's).
    if not cmdline and os.path.realpath(kernel) == \
            os.path.realpath(os.path.join(BUILD, "kernel.elf")):
        base = os.path.join(BUILD, "dynrcu.iso")
        if os.path.exists(base) and \
                os.path.getmtime(base) >= os.path.getmtime(kernel):
            return base
    h = hashlib.sha1()
    with open(kernel, "rb") as f:
        h.update(f.read())
    h.update(cmdline.encode())
    iso = os.path.join(BUILD, "iso", h.hexdigest()[:16] + ".iso")
    if not os.path.exists(iso):
        os.makedirs(os.path.dirname(iso), exist_ok=True)
        subprocess.run([os.path.join(ROOT, "tools", "mkiso.sh"), kernel,
                        iso, cmdline], check=True)
    return iso


def qemu_cmd(accel, iso, cpus, extra=()):
    """iso None: the caller boots with -kernel (extra)."""
    cmd = ["qemu-system-x86_64", "-accel", accel, "-m", "256M",
           "-smp", str(cpus)]
    if iso:
        cmd += ["-cdrom", iso, "-boot", "d"]
    cmd += ["-display", "none", "-no-reboot", "-serial", "stdio",
           "-monitor", "none",
           "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04"]
    if accel == "tcg":
        cmd += ["-cpu", "max"]
    return cmd + list(extra)


def boot_args(kernel, cmdline, mode):
    """(iso, extra QEMU arguments) for a boot mode: "direct" gives QEMU
    the ELF with -kernel (PVH), "grub" the cached ISO."""
    if mode == "direct":
        return None, ["-kernel", kernel, "-append", cmdline]
    return iso_for(kernel, cmdline), []


def cpu_seconds(pid):
    """The CPU seconds (user + system, every vCPU thread) process pid has
    used so far, or None once it is gone.  Read while QEMU runs: the
    last reading misses at most one poll interval."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    # utime and stime are fields 14 and 15; fields[0] is field 3.
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_qemu(cmd, timeout, log_path, live=False, kernel=None, events=None):
    """Run QEMU; return (exit status or None on timeout, console text).
    timeout counts from the kernel's first console line; until it comes,
    the run may take BOOT_LIMIT seconds more.  With kernel, a timeout appends each vCPU's backtrace (dump_cpus) to
    the text and the log.  With events (a dict), QEMU's CPU seconds go in
    events["cpu"], the wall seconds of the
    first fatal line go in events["first_error_wall"], and a run still
    going FAIL_GRACE seconds after it is stopped (events["stopped"]),
    unless events["no_grace"] is set."""
    out = []
    partial = ""
    start = time.monotonic()
    # Until the kernel speaks, the run has the boot allowance too.
    deadline = start + BOOT_LIMIT + timeout
    kernel_seen = False
    mondir = None
    if kernel and "-monitor" in cmd:
        mondir = tempfile.mkdtemp(prefix="dynrcu-mon-")
        sock_path = os.path.join(mondir, "hmp")
        i = cmd.index("-monitor")
        cmd = cmd[:i + 1] + [f"unix:{sock_path},server=on,wait=off"] + \
            cmd[i + 2:]
    with open(log_path, "w") as log:
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        os.set_blocking(p.stdout.fileno(), False)
        timed_out = False
        while True:
            # Whether QEMU had exited is read before the pipe: everything
            # it wrote is then in the pipe, and this read takes it (to
            # EOF).  Read the other way round, QEMU could write its last
            # lines and exit between an empty read and the exit check,
            # and those lines were lost: under load, a whole short boot's
            # console (the bad-option error of torture_bad_option).
            cpu = cpu_seconds(p.pid) if events is not None else None
            if cpu is not None:
                events["cpu"] = cpu
            exited = p.poll() is not None
            chunk = p.stdout.read()
            if chunk:
                text = chunk.decode(errors="replace")
                out.append(text)
                log.write(text)
                log.flush()             # a long soak is readable as it runs
                if not kernel_seen and KERNEL_LINE.search("".join(out)):
                    kernel_seen = True
                    deadline = min(deadline, time.monotonic() + timeout)
                if events is not None and \
                        "first_error_wall" not in events:
                    partial += text
                    if any(re.search(FATAL_SIGNAL, l) for l in
                           partial.split("\n")):
                        events["first_error_wall"] = \
                            time.monotonic() - start
                    partial = partial[partial.rfind("\n") + 1:]
                if live:
                    sys.stdout.write(text)
                    sys.stdout.flush()
            if exited and not chunk:
                break
            if events is not None and "first_error_wall" in events and \
                    not events.get("no_grace") and \
                    time.monotonic() - start > \
                    events["first_error_wall"] + FAIL_GRACE:
                events["stopped"] = True
                note = (f"\nharness: stopped {FAIL_GRACE} s after the "
                        "first error line: the kernel did not exit\n")
                out.append(note)
                log.write(note)
                p.kill()
                p.wait()
                break
            if time.monotonic() > deadline:
                timed_out = True
                if not kernel_seen:
                    note = (f"\nharness: the kernel printed nothing in "
                            f"{BOOT_LIMIT + timeout} s (still in GRUB or "
                            "the firmware)\n")
                    out.append(note)
                    log.write(note)
                if mondir and os.path.exists(sock_path):
                    lines = dump_cpus(sock_path, kernel)
                    if not lines or "monitor dump failed" in lines[-1]:
                        lines += qemu_threads(p.pid)
                    dump = "\n" + "\n".join(lines) + "\n"
                    out.append(dump)
                    log.write(dump)
                    if live:
                        sys.stdout.write(dump)
                        sys.stdout.flush()
                p.kill()
                p.wait()
                break
            time.sleep(0.05)
    if mondir:
        shutil.rmtree(mondir, ignore_errors=True)
    text = "".join(out).replace("\r", "")
    return (None if timed_out else p.returncode), text


def tail(text, n=TAIL):
    """The last n console lines, indented, for a failure report."""
    n += text.count("\nharness: ")     # a timeout's vCPU dump comes whole
    return "\n".join("    | " + l for l in text.splitlines()[-n:])
