# SPDX-License-Identifier: GPL-2.0
"""Which QEMU accelerator a run uses: TCG, the reference, unless
ACCEL=kvm; a KVM that fails a short timer probe is named as such."""

import os
import re
import sys

from tools.ktap import judge_ktap
from tools.qemu import BUILD, qemu_cmd, run_qemu

KVM_PROBE = "tests=lapic_timer_calibration,timer_periodic"


def kvm_works(kernel):
    """Boot a short timer probe under KVM.  These machines' /dev/kvm is a
    paravirtual variant whose LAPIC timer can lose most ticks of an idle
    vCPU; a KVM that fails the probe is not used.  Cached per kernel."""
    stamp = os.path.join(BUILD, "kvm-probe")
    key = f"{os.path.getmtime(kernel)}"
    if os.path.exists(stamp):
        with open(stamp) as f:
            k, verdict = f.read().split()
        if k == key:
            return verdict == "ok"
    status, text = run_qemu(
        qemu_cmd("kvm", None, 2, ["-kernel", kernel, "-append", KVM_PROBE]),
        90, os.path.join(BUILD, "logs", "kvm-probe.log"))
    ok = status is not None and not judge_ktap(text, status)
    # The tick count too, not only the period: this KVM has delivered
    # 4-65% of an idle vCPU's ticks.  Under TCG beside nothing else the
    # count is 95-100%.
    counts = [int(c) for c in re.findall(r"\((\d+)% of HZ=", text)]
    if ok and (not counts or min(counts) < 90):
        ok = False
        text += f"\n# tests/harness: tick counts {counts}% of HZ, below 90%"
    if not ok:
        why = [l for l in text.splitlines() if l.startswith("# tests/")][:1]
        print("harness: /dev/kvm fails the timer probe"
              + (f" ({why[0].strip('# ')})" if why else ""))
    with open(stamp, "w") as f:
        f.write(f"{key} {'ok' if ok else 'bad'}\n")
    return ok


def pick_accel(kernel):
    """TCG unless ACCEL=kvm: TCG is the reference, and the same suite must
    give the same verdicts on every run.  ACCEL=kvm is honoured; a KVM
    that fails the timer probe is named, so its failures are explained."""
    want = os.environ.get("ACCEL", "tcg")
    if want == "tcg":
        return "tcg"
    if want != "kvm":
        sys.exit(f"harness: ACCEL={want}: expected tcg or kvm")
    try:
        fd = os.open("/dev/kvm", os.O_RDWR)
        os.close(fd)
    except OSError as e:
        sys.exit(f"harness: ACCEL=kvm but /dev/kvm cannot be opened: {e}")
    if not kvm_works(kernel):
        print("harness: ACCEL=kvm: using it anyway, as asked; expect "
              "timing failures", flush=True)
    return "kvm"
