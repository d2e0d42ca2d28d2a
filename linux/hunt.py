#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make linux-hunt: the series' readers on Debian's 6.12.118, for hours.

Boots the configurations of linux/hunt/ (CFLIST, kvm.sh's format, the
same as linux/scenarios/) one chunk at a time, each chunk a boot of
--chunk guest minutes through linux-test.sh (its build phase once per
configuration and run, then its boot phase), until this run's budget of
boot time (--minutes, make's HUNT_MINUTES; builds are not counted, a
cold one takes 10 to 20 min) is spent; the last chunk is shortened to
fit, down to a minute.  The next chunk goes to the configuration with
the fewest guest minutes so far.

After each chunk it appends a row to the results table (--table, by
default docs/records/linux-hunt.md, between its HUNT-TABLE markers):
the configuration, the architecture, the guest minutes, the series'
readers by context (from an EQS, of all), rcutorture's writer updates
(each after a grace period), the verdict, the first error line, and how
many warning lines the kernel printed.  Totals per configuration are
kept in a state file ($DYNRCU_LINUX_DIR/hunt/state.json), written after
each chunk: an interrupted hunt loses only the chunk it was in, and the
next run resumes from the totals.  Consoles are kept in
$DYNRCU_LINUX_DIR/hunt/logs/.

Exit status: 0 when every chunk of this run passed, 1 when one failed
(the hunt goes on to the end of its budget: a failure is what it is
for), 2 on bad arguments.
"""
import argparse
import datetime
import fcntl
import hashlib
import importlib.util
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CFGDIR = os.path.join(HERE, "hunt")
BEGIN = "<!-- HUNT-TABLE BEGIN -->"
END = "<!-- HUNT-TABLE END -->"
HEADER = ("| date (UTC) | configuration | arch | guest min | readers from "
          "an EQS / all: hardirq, softirq, NMI; user: from user mode on "
          "nohz_full CPUs | writer updates | verdict | "
          "first error | warning lines |\n"
          "|---|---|---|---|---|---|---|---|---|")
# Time a chunk may take beyond its guest minutes: boot, shutdown, judge
# (about 40 s on a quiet host; more beside other work).
SLACK_S = 180
# An x86 guest's clock runs slow on a loaded host: under TCG it finds no
# reference to calibrate the TSC against and keeps time with jiffies,
# and the host's lost ticks are lost guest time (an EQS03 boot beside
# three other QEMUs reached 12.1 guest minutes in 34 wall minutes).  So
# the QEMU timeout, which stops a hung guest, allows four times the
# chunk; a hang inside the guest is reported by the kernel's own stall
# and hung-task checks long before.
TIMEOUT_FACTOR = 4
MIN_CHUNK_S = 60


def load_judge():
    """linux/judge-console.py as a module (its name has a dash)."""
    spec = importlib.util.spec_from_file_location(
        "judge_console", os.path.join(HERE, "judge-console.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def configs(cfgdir):
    """The configurations of CFLIST, each with its fragment present."""
    path = os.path.join(cfgdir, "CFLIST")
    if not os.path.isfile(path):
        sys.exit(f"linux-hunt: no CFLIST in {cfgdir}")
    names = [l.strip() for l in open(path)
             if l.strip() and not l.startswith("#")]
    for n in names:
        if not os.path.isfile(os.path.join(cfgdir, n)):
            sys.exit(f"linux-hunt: {path} names {n}, which has no "
                     f"fragment {os.path.join(cfgdir, n)}")
    return names


ARCHES = ("x86_64", "arm64")


def arch_of(cfgdir, name):
    """The "# arch: X" line of a configuration's fragment or of its .boot
    (a .boot's comment lines are not boot parameters: an arm64 hunt can
    share an x86 scenario's fragment, and so its build), x86_64 without
    one."""
    for path in (os.path.join(cfgdir, name),
                 os.path.join(cfgdir, name + ".boot")):
        if not os.path.isfile(path):
            continue
        for line in open(path):
            m = re.match(r"#\s*arch:\s*(\S+)", line)
            if m:
                if m.group(1) not in ARCHES:
                    sys.exit(f"linux-hunt: {path}: arch {m.group(1)}: "
                             f"expected one of {', '.join(ARCHES)}")
                return m.group(1)
    return "x86_64"


def config_labels(cfgdir, cfgs):
    """The table's name for each configuration of CFGS: its name, followed
    by the patches linux-test.sh applies after the series for it (its
    NAME.backports list), as linux-test.sh's plan phase reports them, so
    that a row says which kernel was not 6.12.118 plus the series alone.
    The plan phase reads the lists the way the build does, and refuses a
    bad one (for CFLIST's first configuration, or naming a missing patch)
    here, before anything is built."""
    e = dict(os.environ, DYNRCU_LINUX_CFGDIR=cfgdir,
             DYNRCU_LINUX_SCENARIOS=" ".join(cfgs),
             DYNRCU_LINUX_SKIP_MUTANT="1")
    r = subprocess.run(["bash", os.path.join(HERE, "linux-test.sh"), "plan"],
                       env=e, capture_output=True, text=True, timeout=120)
    labels = {}
    for m in re.finditer(r"^plan: (\S+): .*, backports: (.*)$", r.stdout,
                         re.M):
        pats = [] if m.group(2) == "none" else m.group(2).split()
        labels[m.group(1)] = m.group(1) + "".join(
            " + " + p.removesuffix(".patch") for p in pats)
    if r.returncode != 0 or set(labels) != set(cfgs):
        why = [l for l in r.stdout.splitlines() if l.startswith("FAIL")]
        sys.exit("linux-hunt: linux-test.sh plan for " + " ".join(cfgs) +
                 f" exited {r.returncode}: " +
                 ("; ".join(why) or (r.stdout + r.stderr).strip()[-500:]))
    return labels


class Locked:
    """An exclusive lock on PATH for a with-block: hunts started side by
    side (one per group of configurations) share the state file, the
    results table and the kernel tree."""

    def __init__(self, path):
        self.path = path

    def __enter__(self):
        self.f = open(self.path, "a")
        fcntl.flock(self.f, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc):
        fcntl.flock(self.f, fcntl.LOCK_UN)
        self.f.close()


def table_lock(table):
    """One lock per results table, wherever the hunts' trees are."""
    key = hashlib.sha1(os.path.realpath(table).encode()).hexdigest()[:12]
    return Locked(os.path.join("/tmp", f"dynrcu-linux-hunt-{key}.lock"))


def summarize(text, judge):
    """What a chunk's console says: a dict of the table's columns."""
    start = end = None
    eqs = updates = None
    errors, warnings = [], 0
    for line in text.splitlines():
        ts = judge.ts_of(line)
        if "Start of test" in line and ts is not None:
            start = ts
        if ts is not None:
            end = ts
        m = re.search(r"torture: eqs: ((?:\d+/\d+ ?)+)", line)
        if m:
            eqs = m.group(1).strip()
            # nohz_full CPUs interrupted in user mode (patch 8's count).
            u = re.search(r" user: (\d+)", line)
            if u:
                eqs += f"; user: {u.group(1)}"
        m = re.search(r"torture: rtc: \S+ ver: (\d+)", line, re.I)
        if m:
            updates = int(m.group(1))
        if judge.BADNESS.search(line) or "!!!" in line or \
                "End of test: FAILURE" in line:
            # x86's slow-NMI lines are judged by their length, not here.
            if not judge.SLOW_NMI.search(line):
                errors.append(line.strip())
        if "WARNING:" in line:
            warnings += 1
    guest = (end - start) / 60 if start is not None and end else 0.0
    return dict(guest_min=guest, eqs=eqs or "-", updates=updates,
                first_error=errors[0] if errors else "-",
                warnings=warnings)


def judge_reason(path):
    """Why the judge failed a chunk whose console has no error line: its
    own words (a timeout, a slow NMI handler, no SUCCESS line)."""
    try:
        text = open(path, errors="replace").read()
    except OSError:
        return "no judge output"
    for pat, what in ((r"^judge: QEMU TIMED OUT", "QEMU timed out"),
                      (r"^judge:   kernel: (.*)$", None),
                      (r"^judge: stats lines .*SUCCESS False.*$",
                       "no SUCCESS line")):
        m = re.search(pat, text, re.M)
        if m:
            return what or m.group(1).strip()
    return "judge failed it (see the boot log)"


def md_cell(s):
    return s.replace("|", "\\|")[:160]


def append_row(table, row):
    """Insert a row before the END marker (the markers and header are
    added at the end of the page when missing)."""
    text = open(table).read() if os.path.exists(table) else ""
    if BEGIN not in text:
        text = text.rstrip("\n") + "\n\n" + BEGIN + "\n" + HEADER + "\n" + \
            END + "\n"
    if END not in text or text.index(END) < text.index(BEGIN):
        sys.exit(f"linux-hunt: {table}: {BEGIN} without {END} after it")
    i = text.index(END)
    text = text[:i] + row + "\n" + text[i:]
    tmp = f"{table}.{os.getpid()}.tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, table)


def load_state(path):
    if not os.path.exists(path):
        return {"guest_min": {}, "chunks": 0}
    try:
        with open(path) as f:
            st = json.load(f)
        if not isinstance(st.get("guest_min"), dict):
            raise ValueError("no guest_min table")
        return st
    except (ValueError, OSError) as e:
        sys.exit(f"linux-hunt: state file {path} is unreadable ({e}): "
                 "move it away to start the totals again")


def save_state(path, st):
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "w") as f:
        json.dump(st, f, indent=1, sort_keys=True)
    os.replace(tmp, path)


def add_chunk(state_path, state_lock, cfg, minutes):
    """Add a chunk's guest minutes to cfg's total and count the chunk;
    the new totals and the chunk's number.  Read again under the lock:
    a hunt beside this one may have added its chunk since."""
    with Locked(state_lock):
        st = load_state(state_path)
        st["guest_min"][cfg] = st["guest_min"].get(cfg, 0.0) + minutes
        st["chunks"] += 1
        save_state(state_path, st)
    return st, st["chunks"]


def linux_test(phase, cfg, arch, cfgdir, env, log):
    """Run linux-test.sh PHASE for one configuration; its exit status."""
    e = dict(os.environ, **env, DYNRCU_LINUX_CFGDIR=cfgdir,
             DYNRCU_LINUX_SCENARIOS=cfg, DYNRCU_LINUX_SKIP_MUTANT="1",
             DYNRCU_LINUX_ARCH=arch)
    with open(log, "w") as f:
        # In a session of its own, so that an interrupted hunt stops the
        # boot it started (QEMU under linux-test.sh) with it.
        p = subprocess.Popen(["bash", os.path.join(HERE, "linux-test.sh"),
                              phase], env=e, stdout=f,
                             stderr=subprocess.STDOUT,
                             start_new_session=True)
        try:
            return p.wait()
        finally:
            if p.poll() is None:
                kill_session(p.pid, signal.SIGTERM)
                try:
                    p.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    pass
                kill_session(p.pid, signal.SIGKILL)


def kill_session(sid, sig):
    """Signal every process of session sid: a process group is not
    enough, since timeout(1), which runs QEMU, makes a group of its own."""
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                # Field 6 is the session; the name (field 2) may hold
                # spaces, so count from its closing parenthesis.
                fields = f.read().rsplit(")", 1)[1].split()
            if int(fields[3]) == sid:
                os.kill(int(pid), sig)
        except (OSError, IndexError, ValueError):
            pass


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, required=True,
                    help="wall-clock budget of this run (HUNT_MINUTES)")
    ap.add_argument("--chunk", type=float, default=10,
                    help="guest minutes per boot (default 10)")
    ap.add_argument("--configs", default="",
                    help="only these configurations (comma-separated)")
    ap.add_argument("--cfgdir", default=CFGDIR)
    ap.add_argument("--table",
                    default=os.path.join(ROOT, "docs", "records",
                                         "linux-hunt.md"))
    args = ap.parse_args()
    if args.minutes <= 0 or args.chunk <= 0:
        print("linux-hunt: --minutes and --chunk must be positive "
              f"(got {args.minutes} and {args.chunk})", file=sys.stderr)
        return 2
    cfgs = configs(args.cfgdir)
    if args.configs:
        want = args.configs.split(",")
        bad = [c for c in want if c not in cfgs]
        if bad:
            print(f"linux-hunt: no configuration {', '.join(bad)} in "
                  f"{args.cfgdir}/CFLIST ({' '.join(cfgs)})",
                  file=sys.stderr)
            return 2
        cfgs = want
    # Each configuration's architecture, read (and checked) before any
    # build: a bad "# arch:" line stops the hunt here.
    arches = {c: arch_of(args.cfgdir, c) for c in cfgs}
    labels = config_labels(args.cfgdir, cfgs)
    chunk_s = int(args.chunk * 60)
    if MIN_CHUNK_S + SLACK_S > args.minutes * 60:
        print(f"linux-hunt: --minutes (HUNT_MINUTES) {args.minutes}: a "
              f"chunk needs at least {(MIN_CHUNK_S + SLACK_S) / 60:.0f} "
              "min of boot time", file=sys.stderr)
        return 2
    judge = load_judge()
    ldir = os.environ.get("DYNRCU_LINUX_DIR", "/var/tmp/dynrcu-linux")
    hdir = os.path.join(ldir, "hunt")
    os.makedirs(os.path.join(hdir, "logs"), exist_ok=True)
    state_path = os.path.join(hdir, "state.json")
    state_lock = os.path.join(hdir, "state.lock")
    with Locked(state_lock):
        st = load_state(state_path)
    budget_s = args.minutes * 60
    built = set()
    failed = 0
    while True:
        with Locked(state_lock):
            st = load_state(state_path)
        cfg = min(cfgs, key=lambda c: (st["guest_min"].get(c, 0.0),
                                       cfgs.index(c)))
        this_s = min(chunk_s, int(budget_s - SLACK_S))
        if this_s < MIN_CHUNK_S:
            print(f"linux-hunt: {budget_s / 60:.1f} min of boot time "
                  "left, under a chunk: stopping", flush=True)
            break
        # The log's name: this process and its chunk's start, since hunts
        # side by side number their chunks only when they finish.
        base = os.path.join(hdir, "logs", "%s-%d-%s" % (
            time.strftime("%Y%m%d-%H%M%S"), os.getpid(), cfg))
        if cfg not in built:
            print(f"linux-hunt: build {cfg} ({base}.build.txt)", flush=True)
            # One build at a time in a tree (the hunts side by side share
            # it); a boot only reads its own group's kernel.
            with Locked(os.path.join(hdir, "build.lock")):
                brc = linux_test("build", cfg, arches[cfg], args.cfgdir, {},
                                 base + ".build.txt")
            if brc:
                print(f"linux-hunt: the build of {cfg} failed: "
                      f"{base}.build.txt", file=sys.stderr)
                return 1
            built.add(cfg)
        print(f"linux-hunt: {cfg}: {this_s / 60:.1f} guest min "
              f"(so far {st['guest_min'].get(cfg, 0.0):.1f})", flush=True)
        t0 = time.monotonic()
        rc = linux_test("boot", cfg, arches[cfg], args.cfgdir,
                        {"DYNRCU_LINUX_DURATION": str(this_s),
                         "DYNRCU_LINUX_TIMEOUT":
                         str(TIMEOUT_FACTOR * this_s + SLACK_S)},
                        base + ".boot.txt")
        budget_s -= time.monotonic() - t0
        # linux-test.sh's tree for arm64 is $DYNRCU_LINUX_DIR/arm64.
        tree_dir = ldir if arches[cfg] == "x86_64" else \
            os.path.join(ldir, arches[cfg])
        console = os.path.join(tree_dir, "out", f"scenario-{cfg}",
                               "console.log")
        text = ""
        if os.path.exists(console):
            shutil.copy(console, base + ".console.log")
            text = open(console, errors="replace").read()
        s = summarize(text, judge)
        verdict = "pass" if rc == 0 else "FAIL"
        if rc != 0 and s["first_error"] == "-":
            s["first_error"] = judge_reason(base + ".boot.txt")
            # Stopped by QEMU's timeout with nothing wrong on the console:
            # a hang or a slow guest clock, told apart from a failure.
            if s["first_error"] == "QEMU timed out" and not s["warnings"]:
                verdict = "TIMEOUT"
        failed += rc != 0
        row = "| %s | %s | %s | %.1f | %s | %s | %s | %s | %d |" % (
            datetime.datetime.now(datetime.timezone.utc).strftime(
                "%Y-%m-%d %H:%M"), md_cell(labels[cfg]),
            arches[cfg], s["guest_min"], s["eqs"],
            "-" if s["updates"] is None else s["updates"], verdict,
            md_cell(s["first_error"]), s["warnings"])
        with table_lock(args.table):
            append_row(args.table, row)
        st, n = add_chunk(state_path, state_lock, cfg, s["guest_min"])
        print(f"linux-hunt: chunk {n}: {cfg} {verdict}, "
              f"{s['guest_min']:.1f} guest min, readers {s['eqs']}, "
              f"first error: {s['first_error'][:120]}", flush=True)
    print("linux-hunt: guest minutes so far: " + ", ".join(
        f"{c} {st['guest_min'].get(c, 0.0):.1f}" for c in cfgs))
    print(f"{st['chunks']} chunks in all; this run: "
          f"{'no failure' if not failed else f'{failed} failed'}")
    return 1 if failed else 0


def on_term(signum, frame):
    raise KeyboardInterrupt


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, on_term)
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit("linux-hunt: interrupted: the chunk in progress is not "
                 "counted; the next run resumes from the totals")
