#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Boot dynrcu scenarios in QEMU and judge their KTAP output.

A scenario file holds "key: value" lines (and # comments):
  cpus:     number of vCPUs (required)
  cmdline:  kernel command line (default: empty, the default suite)
  timeout:  seconds for 4 CPUs under TCG; scaled with the CPU count (up
            to 8 times, at 32 CPUs)
  expect:   pass (default) | fail | timeout
  reason:   for expect fail/timeout, a regex the console must match:
            the run must fail *for that reason* to count as caught
  accel:    any (default) | tcg | kvm: where the scenario may run
  boot:     auto (default) | grub | direct: grub boots the ISO through
            SeaBIOS and GRUB (multiboot2); direct gives QEMU the ELF with
            -kernel (PVH).  auto is grub under TCG, direct under KVM, where
            GRUB's real-mode code takes about 45 s
  desc:     one line saying what the scenario is for

A pass needs: a "KTAP version 1" line, a plan "1..N", a result for every
test 1..N in order, no "not ok", no "!!!" line, and QEMU exiting with 33
(isa-debug-exit 0x10).  Anything else, a timeout included, is a failure,
reported with the last console lines.  The run ends with
"N passed, N failed".
"""

import argparse
import bisect
import hashlib
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, "build")
KEYS = {"cpus", "cmdline", "timeout", "expect", "reason", "accel", "desc",
        "boot"}
PASS_STATUS = 33
TAIL = 40
# Lines by which the kernel says something is wrong: the first one is the
# run's failure reason (the kernel's panic_on_warn ends the run there).
FAILURE_SIGNAL = (r"WARNING:|!!!|Kernel panic|EXCEPTION|^not ok |"
                  r"rcu: INFO: |INFO: task .* blocked|hard LOCKUP|"
                  r"cmdline: error|End of test: FAILURE")
# The kernel ends the run at these (panic_on_warn): all but "not ok", after
# which KTAP goes on to the next test.
FATAL_SIGNAL = FAILURE_SIGNAL.replace(r"^not ok |", "")
assert FATAL_SIGNAL != FAILURE_SIGNAL
# After the first fatal line the kernel has this long to finish its report
# and exit before the harness stops it (a kernel booted with
# panic_on_warn=0, or one wedged after its report).
FAIL_GRACE = 15
# QEMU's pc machine under TCG: xAPIC IDs 0..254 (no x2APIC in QEMU 7.2).
MAX_CPUS = 255


class ScenarioError(Exception):
    pass


def parse_scenario(path):
    sc = {"cmdline": "", "timeout": "60", "expect": "pass", "accel": "any"}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if ":" not in line:
                raise ScenarioError(f"{path}:{n}: expected 'key: value'")
            key, val = (s.strip() for s in line.split(":", 1))
            if key not in KEYS:
                raise ScenarioError(f"{path}:{n}: unknown key '{key}'")
            sc[key] = val
    sc["name"] = os.path.splitext(os.path.basename(path))[0]
    try:
        sc["cpus"] = int(sc["cpus"])
        sc["timeout"] = int(sc["timeout"])
    except KeyError:
        raise ScenarioError(f"{path}: missing 'cpus'")
    except ValueError as e:
        raise ScenarioError(f"{path}: not a number: {e}")
    if not 1 <= sc["cpus"] <= MAX_CPUS:
        raise ScenarioError(f"{path}: cpus must be 1..{MAX_CPUS}")
    if sc["expect"] not in ("pass", "fail", "timeout"):
        raise ScenarioError(f"{path}: expect must be pass, fail or timeout")
    if sc["expect"] != "pass" and "reason" not in sc:
        raise ScenarioError(f"{path}: expect {sc['expect']} needs a reason")
    if sc["accel"] not in ("any", "tcg", "kvm"):
        raise ScenarioError(f"{path}: accel must be any, tcg or kvm")
    sc.setdefault("boot", "auto")
    if sc["boot"] not in ("auto", "grub", "direct"):
        raise ScenarioError(f"{path}: boot must be auto, grub or direct")
    return sc


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


def boot_mode(sc, accel):
    if sc["boot"] != "auto":
        return sc["boot"]
    return "direct" if accel == "kvm" else "grub"


def boot_args(kernel, cmdline, mode):
    """(iso, extra QEMU arguments) for a boot mode."""
    if mode == "direct":
        return None, ["-kernel", kernel, "-append", cmdline]
    return iso_for(kernel, cmdline), []


def timeout_for(sc, accel, mode):
    # TCG runs every vCPU on 2 host cores: time grows with the CPU count,
    # up to 32; beyond, the tests sample the CPUs they drive, and idle
    # vCPUs cost the host nothing.
    t = sc["timeout"] * max(1.0, min(sc["cpus"], 32) / 4)
    if accel == "kvm" and mode == "grub":
        t += 90        # GRUB's real-mode code is slow under this KVM
    return int(t)


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


def dump_cpus(sock_path, kernel, frames=12):
    """Each vCPU's RIP and frame-pointer backtrace, as console lines."""
    lines = []
    try:
        mon = Monitor(sock_path)
        mon.cmd("stop")                 # a still frame to walk
        regs = mon.cmd("info registers -a")
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
    QEMU livelocked, not the guest (docs/kernel.md)."""
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


def first_error(text):
    """(guest seconds or None, line) of the first failure line, or None.
    A line without a printk timestamp takes the last one before it."""
    last = None
    for line in text.splitlines():
        ts = re.match(r"\[\s*(\d+\.\d+)\]", line)
        if ts:
            last = float(ts.group(1))
        if re.search(FAILURE_SIGNAL, line):
            return last, line.strip()
    return None


def run_qemu(cmd, timeout, log_path, live=False, kernel=None, events=None):
    """Run QEMU; return (exit status or None on timeout, console text).
    With kernel, a timeout appends each vCPU's backtrace (dump_cpus) to
    the text and the log.  With events (a dict), the wall seconds of the
    first fatal line go in events["first_error_wall"], and a run still
    going FAIL_GRACE seconds after it is stopped (events["stopped"]),
    unless events["no_grace"] is set."""
    out = []
    partial = ""
    start = time.monotonic()
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
            chunk = p.stdout.read()
            if chunk:
                text = chunk.decode(errors="replace")
                out.append(text)
                log.write(text)
                log.flush()             # a long soak is readable as it runs
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
            if p.poll() is not None and not chunk:
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
            if time.monotonic() - start > timeout:
                timed_out = True
                if mondir and os.path.exists(sock_path):
                    lines = dump_cpus(sock_path, kernel)
                    if "monitor dump failed" in lines[-1]:
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


def judge_ktap(text, status):
    """Return a list of problems; empty means the run passed."""
    problems = []
    lines = text.splitlines()
    if "KTAP version 1" not in lines:
        problems.append("no 'KTAP version 1' line")
    plans = [l for l in lines if re.fullmatch(r"1\.\.\d+", l)]
    if not plans:
        problems.append("no KTAP plan")
    else:
        planned = int(plans[0][3:])
        results = [re.fullmatch(r"(not )?ok (\d+) (\S+)( #.*)?", l)
                   for l in lines]
        results = [m for m in results if m]
        nums = [int(m.group(2)) for m in results]
        if nums != list(range(1, planned + 1)):
            problems.append(f"planned 1..{planned}, got results {nums}")
        for m in results:
            if m.group(1):
                problems.append(f"not ok {m.group(2)} {m.group(3)}")
        if planned == 0:
            problems.append("plan 1..0: no test ran")
    for l in lines:
        if "!!!" in l:
            problems.append(f"error line: {l.strip()}")
            break
    if status != PASS_STATUS:
        problems.append(f"QEMU exit status {status}, expected {PASS_STATUS}")
    return problems


def tail(text, n=TAIL):
    n += text.count("\nharness: ")     # a timeout's vCPU dump comes whole
    return "\n".join("    | " + l for l in text.splitlines()[-n:])


def boot(sc, kernel, accel, log):
    """Boot kernel once as scenario sc says (cpus, cmdline, timeout, boot
    mode): (exit status or None on timeout, console text, the timeout
    used, the boot mode, wall seconds, events: see run_qemu())."""
    mode = boot_mode(sc, accel)
    iso, extra = boot_args(kernel, sc["cmdline"], mode)
    limit = timeout_for(sc, accel, mode)
    t0 = time.monotonic()
    # A run told to go on past its first error is not cut short.
    events = {"no_grace": bool(re.search(
        r"\bpanic_on_(warn|rcu_stall)=(0|off|n)\b", sc["cmdline"]))}
    status, text = run_qemu(qemu_cmd(accel, iso, sc["cpus"], extra), limit,
                            log, kernel=kernel, events=events)
    return status, text, limit, mode, time.monotonic() - t0, events


def check_cpus(text, cpus):
    """A kernel that leaves CPUs off passes every test on the rest: say
    so.  Nothing to say if the kernel stopped before bringing them up."""
    m = re.search(r"smp: brought up (\d+) CPUs", text)
    if m and int(m.group(1)) != cpus:
        return [f"the kernel brought up {m.group(1)} CPUs of the {cpus} "
                f"QEMU was given"]
    if not m and "KTAP version 1" in text:
        return ["no 'smp: brought up N CPUs' line"]
    return []


def failure_reason(text, status, limit, events, cpus):
    """The problems of a failed run, first the kernel's first error line
    (with its guest and wall time), then the harness's own findings."""
    problems = [f"timeout after {limit} s"] if status is None and \
        not events.get("stopped") else judge_ktap(text, status)
    problems += check_cpus(text, cpus)
    first = first_error(text)
    if first:
        guest, line = first
        when = [f"guest {guest:.2f} s"] if guest is not None else []
        if "first_error_wall" in events and re.search(FATAL_SIGNAL, line):
            when.append(f"wall {events['first_error_wall']:.1f} s")
        problems.insert(0, f"first error ({', '.join(when)}): {line}")
    return problems


def run_scenario(sc, kernel, accel):
    os.makedirs(os.path.join(BUILD, "logs"), exist_ok=True)
    log = os.path.join(BUILD, "logs", sc["name"] + ".log")
    status, text, limit, mode, secs, events = boot(sc, kernel, accel, log)
    head = f"{sc['name']} ({sc['cpus']} CPUs, {accel}, {mode}, {secs:.1f} s)"
    problems = failure_reason(text, status, limit, events, sc["cpus"])
    if sc["expect"] == "pass":
        if not problems:
            print(f"PASS {head}")
            return True
        print(f"FAIL {head}: " + "; ".join(problems[:5]))
        print(tail(text))
        return False
    # Expected failure: it must fail, in the expected way, for the reason.
    m = re.search(sc["reason"], text, re.M)
    if sc["expect"] == "timeout" and status is not None:
        print(f"FAIL {head}: expected a timeout, but QEMU exited {status}")
        print(tail(text))
        return False
    if not problems:
        print(f"FAIL {head}: expected a failure, but the run passed")
        return False
    if not m:
        print(f"FAIL {head}: failed, but not for the expected reason "
              f"/{sc['reason']}/: " + "; ".join(problems[:3]))
        print(tail(text))
        return False
    print(f"PASS {head}: failed, as expected, because: "
          f"{' / '.join(m.group(0).strip().splitlines())} ({problems[0]})")
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kernel", default=os.path.join(BUILD, "kernel.elf"))
    ap.add_argument("--run", action="store_true",
                    help="boot once with the console live (make run)")
    ap.add_argument("--gdb", action="store_true",
                    help="with --run: wait for gdb on :1234 (-s -S)")
    ap.add_argument("--cpus", type=int, default=4)
    ap.add_argument("--cmdline", default="")
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("scenarios", nargs="*")
    args = ap.parse_args()
    if not os.path.exists(args.kernel):
        sys.exit(f"harness: no kernel at {args.kernel}: run make first")
    os.makedirs(os.path.join(BUILD, "logs"), exist_ok=True)
    accel = pick_accel(args.kernel)

    if args.run:
        if not 1 <= args.cpus <= MAX_CPUS:
            sys.exit(f"harness: SMP={args.cpus}: expected 1..{MAX_CPUS}")
        # make run/debug: the ISO, as users boot it; direct under KVM.
        iso, extra = boot_args(args.kernel, args.cmdline,
                               "direct" if accel == "kvm" else "grub")
        extra += ["-s", "-S"] if args.gdb else []
        cmd = qemu_cmd(accel, iso, args.cpus, extra)
        print("harness: " + " ".join(cmd), flush=True)
        if args.gdb:
            print("harness: waiting for gdb: run 'make gdb' in another "
                  "terminal", flush=True)
        os.makedirs(os.path.join(BUILD, "logs"), exist_ok=True)
        status, text = run_qemu(cmd, args.timeout,
                                os.path.join(BUILD, "logs", "run.log"),
                                live=True, kernel=args.kernel)
        if status is None:
            print(f"\nharness: timeout after {args.timeout} s; last lines:")
            print(tail(text))
            return 1
        problems = judge_ktap(text, status) + check_cpus(text, args.cpus)
        print(f"\nharness: QEMU exited {status}: "
              + ("pass" if not problems else "; ".join(problems[:5])))
        ok = len(re.findall(r"^ok \d+ ", text, re.M))
        skipped = len(re.findall(r"^ok \d+ .*# SKIP", text, re.M))
        bad = len(re.findall(r"^not ok \d+ ", text, re.M))
        print(f"{ok} passed, {bad} failed"
              + (f" ({skipped} of the passed skipped)" if skipped else ""))
        return 0 if not problems else 1

    if not args.scenarios:
        sys.exit("harness: no scenario files given")
    try:
        scenarios = [parse_scenario(p) for p in args.scenarios]
    except (ScenarioError, OSError) as e:
        sys.exit(f"harness: {e}")
    passed = failed = 0
    for sc in scenarios:
        if sc["accel"] != "any" and sc["accel"] != accel:
            print(f"SKIP {sc['name']}: needs accel {sc['accel']}")
            continue
        if run_scenario(sc, args.kernel, accel):
            passed += 1
        else:
            failed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
