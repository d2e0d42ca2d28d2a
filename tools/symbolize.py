# SPDX-License-Identifier: GPL-2.0
"""Kernel addresses to "function+offset", from the ELF's symbol table."""

import bisect
import subprocess


def kernel_symbols(kernel):
    """Sorted (address, name) of the kernel's text symbols."""
    out = subprocess.run(["nm", "-n", kernel], capture_output=True,
                         text=True).stdout
    syms = []
    for line in out.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in "tTwW":
            syms.append((int(f[0], 16), f[2]))
    return syms


def symbolize(syms, addr, ret=False):
    # A return address may be the first byte after a noreturn call's
    # function: look up the call itself (addr - 1).
    i = bisect.bisect_right(syms, (addr - ret, "\xff")) - 1
    if i < 0:
        return f"{addr:#x}"
    return f"{syms[i][1]}+{addr - syms[i][0]:#x}"
