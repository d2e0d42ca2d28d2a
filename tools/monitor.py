# SPDX-License-Identifier: GPL-2.0
"""Post-mortem of a QEMU run that timed out: each vCPU's registers and
frame-pointer backtrace through QEMU's monitor, or, when the monitor does
not answer, QEMU's own threads from /proc."""

import os
import re
import socket

from tools.symbolize import kernel_symbols, symbolize


class Monitor:
    """QEMU's human monitor on a Unix socket: after a timeout, the guest
    may be wedged with interrupts off, where no report of its own can
    run, so the harness reads each vCPU's registers and stack from
    outside."""

    PROMPT = b"(qemu) "

    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(5)
        self.sock.connect(path)
        self._read()                    # banner and first prompt

    def _read(self):
        buf = b""
        while not buf.endswith(self.PROMPT):
            chunk = self.sock.recv(65536)
            if not chunk:
                break
            buf += chunk
        # Drop the readline echo and its terminal escapes.
        text = re.sub(r"\x1b\[[0-9;]*[A-Za-z]|\x1b[A-Za-z]", "",
                      buf.decode(errors="replace"))
        return text.replace("\r", "")

    def cmd(self, line):
        self.sock.sendall(line.encode() + b"\n")
        return self._read()


def dump_cpus(sock_path, kernel, frames=12):
    """Each vCPU's RIP and frame-pointer backtrace, as console lines."""
    lines = []
    try:
        mon = Monitor(sock_path)
        mon.cmd("stop")                 # a still frame to walk
        regs = mon.cmd("info registers -a")
        if "CPU#" not in regs:
            # A monitor that closed its socket answers with nothing.
            raise ValueError("no registers in its answer "
                             f"({len(regs)} characters: {regs[-60:]!r})")
        syms = kernel_symbols(kernel)
        for cpu, body in re.findall(r"CPU#(\d+)\n(.*?)(?=CPU#\d+|\Z)",
                                    regs, re.S):
            val = {k: int(v, 16) for k, v in
                   re.findall(r"\b(RIP|RSP|RBP|RFL)=([0-9a-f]+)", body)}
            if "RIP" not in val:
                continue
            ifl = "on" if val.get("RFL", 0) & 0x200 else "off"
            lines.append(f"harness: CPU {cpu} RIP {symbolize(syms, val['RIP'])}"
                         f" (IRQs {ifl}, RSP {val.get('RSP', 0):#x})")
            rbp = val.get("RBP", 0)
            for _ in range(frames):
                if not rbp or rbp & 7:
                    break
                m = re.search(r":\s*0x([0-9a-f]+)\s+0x([0-9a-f]+)",
                              mon.cmd(f"x /2gx {rbp:#x}"))
                if not m:
                    break
                nxt, ret = int(m.group(1), 16), int(m.group(2), 16)
                if not ret:
                    break
                lines.append(f"harness:   {symbolize(syms, ret, True)}")
                if nxt <= rbp:          # frames grow upward; else garbage
                    break
                rbp = nxt
    except (OSError, ValueError) as e:
        lines.append(f"harness: monitor dump failed: {e}")
    return lines


def qemu_threads(pid):
    """QEMU's own threads, state and CPU time, for when its monitor does
    not answer: a main thread running while every vCPU thread waits is
    QEMU livelocked, not the guest (docs/kernel-qemu.md)."""
    lines = [f"harness: the monitor did not answer; QEMU's threads "
             f"(pid {pid}): state, user+system seconds, wait channel"]
    try:
        for tid in sorted(os.listdir(f"/proc/{pid}/task"), key=int):
            d = f"/proc/{pid}/task/{tid}"
            with open(f"{d}/stat") as f:
                st = f.read().rsplit(")", 1)[1].split()
            with open(f"{d}/wchan") as f:
                wchan = f.read().strip()
            secs = (int(st[11]) + int(st[12])) / os.sysconf("SC_CLK_TCK")
            lines.append(f"harness:   {tid} {st[0]} {secs:.0f} s {wchan}")
    except OSError as e:
        lines.append(f"harness:   cannot read /proc/{pid}: {e}")
    return lines
