#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Kernel mutants: validate the validation on real (virtual) hardware.

Each tests/mutants/kernel/*/*.patch is a deliberate bug, in the subfolder
of the code it breaks (kernel, rcu, rcupreempt, tree).  Its preamble (the
text before the diff, which patch ignores) says how to expose it:

  Mutant: one line saying what the bug is
  Scenario: cpus=N timeout=S cmdline=<kernel command line>
  Detector: a regex the console must match (the check that catches it)
  Undetectable: the reason no test on x86 can see it (instead of Detector)
  Gap: a known gap (instead of Detector): what make test's stimulus does
            not reach and what would; a blind round's survivor, kept so
            that the bug is known, reported as a gap, never as caught
  Attempts: N (optional, default 1) for a detector that is probabilistic
            (a litmus test): boot up to N times until it is caught
  Spin: MODEL NOHZ,IRQ,NMI MM VERDICT (optional, repeatable) a run of a
            Spin model extracted from the patched C, which make verify
            does (tests/spin/extract.py); here it is only shown, beside
            an Undetectable mutant's reason

The runner copies the tree once (tracked files as they are in the
working tree, plus the build directory so only what the patch touches
recompiles), and for each mutant applies its patch there with patch -p1
--forward (never in the tree, never an #ifdef; a patch the tree already has fails as
"already applied", tests/mutants/patch.py), builds the kernel, puts the
patched files back, boots the scenario and requires the run to fail for
the Detector's reason.
Mutant kernels are kept in
build/mutants/NAME/, keyed by the patch and the unpatched kernel, so a
second run in the same clone boots without building (and the compiler
cache, tools/ccache.mk, makes a fresh clone's builds quick).  Kernels are
built one at a time and each boots as soon as it is built, --jobs N at
once (a mutant run measures no time); --build-only builds them and boots
none.  A mutant caught more than DETECT_LIMIT guest seconds after boot is
a failure: the kernel must say what is wrong, and soon.  It
prints a table (mutant, detector, time to detection) and "N passed, N
failed"; a mutant that survives, or no longer applies or builds, is a
failure.  An Undetectable mutant is built and booted too; it is reported
as "not detectable on x86" with its reason, and never counted as caught.
A Gap mutant likewise, as "known gap"; one that fails its scenario
after all fails the run, so that a closed gap gets its Detector.  With
--boot-detectable-only (make test) those two kinds are built, so their
patches must still apply and compile, but not booted: make mutants
boots every one.
"""

import argparse
import concurrent.futures
import hashlib
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading

if not __package__:
    sys.exit("mutants: run it from the repository root as "
             "'python3 -m tests.mutants.run ...'")
from tests import harness  # noqa: E402
from tests.mutants import patch as mutant_patch  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))


MUTANTS = os.path.join(ROOT, "tests", "mutants", "kernel")


def find_patches():
    """{name: path} of every tests/mutants/kernel/*/*.patch.  The
    subfolders mirror the code (kernel, rcu, rcupreempt, tree); a name
    is the file name without .patch, unique across them."""
    found = {}
    for sub in sorted(os.listdir(MUTANTS)):
        d = os.path.join(MUTANTS, sub)
        if not os.path.isdir(d):
            continue
        for f in sorted(os.listdir(d)):
            if not f.endswith(".patch"):
                continue
            name = f[:-len(".patch")]
            if name in found:
                sys.exit(f"mutants: {name} is both "
                         f"{os.path.relpath(found[name], ROOT)} and "
                         f"{os.path.relpath(os.path.join(d, f), ROOT)}")
            found[name] = os.path.join(d, f)
    stray = [f for f in os.listdir(MUTANTS) if f.endswith(".patch")]
    if stray:
        sys.exit(f"mutants: {', '.join(sorted(stray))} in "
                 f"{os.path.relpath(MUTANTS, ROOT)}/: move each into the "
                 "subfolder of the code it breaks (kernel, rcu, "
                 "rcupreempt, tree)")
    return found


def parse_patch(path):
    meta = {}
    with open(path) as f:
        for line in f:
            if line.startswith(("--- ", "diff ")):
                break
            m = re.match(r"(Mutant|Scenario|Detector|Undetectable|Gap|"
                         r"Attempts|Host):"
                         r"\s*(.*)",
                         line)
            if m:
                meta[m.group(1).lower()] = m.group(2).strip()
            m = re.match(r"Spin:\s*(.*)", line)
            if m:
                meta.setdefault("spin", []).append(m.group(1).strip())
    name = os.path.basename(path)[:-len(".patch")]
    for key in ("mutant", "scenario"):
        if key not in meta:
            sys.exit(f"mutants: {path}: missing '{key.capitalize()}:' line")
    if sum(k in meta for k in ("detector", "undetectable", "gap")) != 1:
        sys.exit(f"mutants: {path}: needs exactly one of Detector:, "
                 "Undetectable: or Gap:")
    if meta.get("host", "quiet").split(":")[0] != "quiet":
        sys.exit(f"mutants: {path}: 'Host: {meta['host']}': the only host "
                 "a mutant can ask for is 'quiet'")
    sc = {"cmdline": "", "timeout": "60", "cpus": "4"}
    m = re.fullmatch(r"((?:\w+=\S+\s+)*?)cmdline=(.*)", meta["scenario"])
    head, sc["cmdline"] = (m.group(1), m.group(2)) if m else \
        (meta["scenario"], "")
    for word in head.split():
        k, _, v = word.partition("=")
        if k not in ("cpus", "timeout"):
            sys.exit(f"mutants: {path}: unknown scenario key '{k}'")
        sc[k] = v
    sc["cpus"], sc["timeout"] = int(sc["cpus"]), int(sc["timeout"])
    return name, meta, sc


def tracked_files():
    """The files a mutant's copy of the tree gets (git ls-files), NUL-
    separated as git gives them."""
    return subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, check=True,
                          capture_output=True).stdout


def copy_tree(dst):
    for f in tracked_files().split(b"\0"):
        if not f:
            continue
        src = os.path.join(ROOT, f.decode())
        if not os.path.exists(src):
            continue        # deleted in the working tree
        out = os.path.join(dst, f.decode())
        os.makedirs(os.path.dirname(out), exist_ok=True)
        shutil.copy2(src, out)
    # Object files with their timestamps: make rebuilds only what the
    # patch changes (patch gives the files it touches a new mtime).
    for sub in ("arch", "kernel", "rcu", "tests", "boot"):
        b = os.path.join(ROOT, "build", sub)
        if os.path.isdir(b):
            shutil.copytree(b, os.path.join(dst, "build", sub),
                            copy_function=shutil.copy2)


# Boot to reason, guest seconds: a mutant caught later than this counts as
# a failure (issue 13: the kernel must say what is wrong, and soon).
DETECT_LIMIT = 30


def detection_time(text, regex):
    """Guest seconds (printk clock) at the first failure line, or at the
    detector's line if that comes first: the time to detection.  A line
    without a timestamp of its own (a KTAP line) takes the next printk's:
    the ktap runner prints one when a test fails."""
    found = False
    last = None
    for line in text.splitlines():
        ts = re.match(r"\[\s*(\d+\.\d+)\]", line)
        if ts:
            last = float(ts.group(1))
            if found:
                return last
        if not found and (re.search(harness.FAILURE_SIGNAL, line) or
                          re.search(regex, line)):
            if ts:
                return last
            found = True
    return last if found else None


def file_sha1(*paths):
    h = hashlib.sha1()
    for p in paths:
        with open(p, "rb") as f:
            h.update(f.read())
    return h.hexdigest()


class Workspace:
    """One copy of the tree that every mutant is built in, in turn.

    Copying the tree (800 files and the objects) took 0.4 s of CPU a
    mutant, a third of its build; the copy is now made once.  A mutant's
    patch is applied, the kernel built, and the files the patch names
    are put back from the tree with a new modification time (copyfile,
    not copy2), so that the next build recompiles what this one changed
    (a compiler-cache hit).  A patch that fails or a build that breaks
    throws the copy away: the next mutant gets a fresh one."""

    def __init__(self):
        self.dir = None
        self.lock = threading.Lock()

    def get(self):
        if self.dir is None:
            self.dir = tempfile.mkdtemp(prefix="dynrcu-mutants-")
            copy_tree(self.dir)
        return self.dir

    def restore(self, files):
        """Put back the files a patch names (None: drop the copy)."""
        if files is None:
            self.drop()
            return
        built = os.stat(os.path.join(self.dir, "build",
                                     "kernel.elf")).st_mtime_ns
        for f in files:
            src, dst = os.path.join(ROOT, f), os.path.join(self.dir, f)
            if os.path.exists(src):
                shutil.copyfile(src, dst)
                # Make must see it as newer than the mutant's objects, or
                # the next mutant would carry this one's bug.
                if os.stat(dst).st_mtime_ns <= built:
                    self.drop()
                    return
            elif os.path.exists(dst):
                os.remove(dst)      # the patch created it

    def drop(self):
        if self.dir is not None:
            shutil.rmtree(self.dir, ignore_errors=True)
            self.dir = None


WORKSPACE = Workspace()


def patched_files(path):
    """The tree's files a patch names (its "--- a/" and "+++ b/" lines)."""
    files = set()
    with open(path) as f:
        for line in f:
            m = re.match(r"(?:---|\+\+\+) [ab]/(\S+)", line)
            if m:
                files.add(m.group(1))
    return sorted(files)


def build_mutant(path):
    """Build the mutant kernel into build/mutants/NAME/kernel.elf and
    return (kernel path, None), or (None, "why not").  Cached: a mutant
    is rebuilt only when the patch or the unpatched kernel changed."""
    name = os.path.basename(path)[:-len(".patch")]
    base = os.path.join(ROOT, "build", "kernel.elf")
    out = os.path.join(ROOT, "build", "mutants", name)
    kernel = os.path.join(out, "kernel.elf")
    # The copy holds only tracked files, while the unpatched kernel was
    # built from the working tree: a file tracked since the last build
    # changes the copy without changing either file, so the list is in
    # the key too.
    key = file_sha1(base, path) + hashlib.sha1(tracked_files()).hexdigest()
    stamp = os.path.join(out, "key")
    if os.path.exists(kernel) and os.path.exists(stamp) and \
            open(stamp).read() == key:
        return kernel, None
    with WORKSPACE.lock:
        tree = WORKSPACE.get()
        files = patched_files(path)
        ok = False
        try:
            why = mutant_patch.apply(path, tree)
            if why:
                return None, why
            # At the caller's priority: make test runs this suite at nice
            # 10, and a boot waits for its kernel.
            r = subprocess.run(["make", "-s", "-j2", "build/kernel.elf"],
                               cwd=tree, capture_output=True, text=True)
            if r.returncode:
                return None, "does not build: " + \
                    (r.stdout + r.stderr).strip()[-300:]
            os.makedirs(out, exist_ok=True)
            shutil.copy2(os.path.join(tree, "build", "kernel.elf"), kernel)
            with open(stamp, "w") as f:
                f.write(key)
            ok = True
            return kernel, None
        finally:
            WORKSPACE.restore(files if ok else None)


def run_mutant(path, accel, built=None, boot_known=True):
    """Boot one mutant (built: build_mutant()'s answer, if it was built
    already) and judge it: (name, meta, verdict, why, seconds).  With
    boot_known false, an Undetectable or Gap mutant is built and not
    booted: its boot shows only that nothing fires."""
    name, meta, sc = parse_patch(path)
    kernel, why = built or build_mutant(path)
    if not kernel:
        return name, meta, "BROKEN", why, None
    if not boot_known and ("undetectable" in meta or "gap" in meta):
        return name, meta, "GAP" if "gap" in meta else "UNDETECTABLE", \
            "built, not booted (make mutants boots it)", None
    attempts = int(meta.get("attempts", "1"))
    for attempt in range(1, attempts + 1):
        res = boot_mutant(name, meta, sc, kernel, accel)
        if res[2] != "SURVIVED" or attempt == attempts:
            if attempt > 1:
                res = res[:3] + (res[3] + f" (boot {attempt} of "
                                 f"{attempts})",) + res[4:]
            return res
        print(f"mutant {name}: survived boot {attempt} of {attempts} "
              "(probabilistic detector): booting again", flush=True)


def boot_mutant(name, meta, sc, kernel, accel):
    """Boot one mutant kernel once and judge the run."""
    log = os.path.join(ROOT, "build", "logs", f"mutant-{name}.log")
    status, text, limit, _, wall, events = harness.boot(
        dict(sc, boot="auto"), kernel, accel, log)
    with open(log, "a") as f:       # what the boot cost, for the budget
        f.write(f"\nmutants: {wall:.1f} s of wall, "
                f"{events.get('cpu', 0):.1f} s of CPU\n")
    problems = harness.failure_reason(text, status, limit, events,
                                      sc["cpus"])
    if "undetectable" in meta or "gap" in meta:
        verdict = ("GAP" if "gap" in meta else "UNDETECTABLE") \
            if not problems else "FAILED-ANYWAY"
        return name, meta, verdict, "; ".join(problems[:2]), wall
    m = re.search(meta["detector"], text, re.M)
    if not problems:
        return name, meta, "SURVIVED", "the run passed", wall
    if not m:
        return name, meta, "WRONG-REASON", "; ".join(problems[:3]) + \
            "\n" + harness.tail(text, 25), wall
    t = detection_time(text, meta["detector"])
    t = t if t is not None else wall
    first = harness.first_error(text)
    why = m.group(0).strip()[:100]
    if first:
        why += f" (first error line at {first[0] or 0:.2f} s: " \
            f"{first[1][:100]})"
    if t > DETECT_LIMIT:
        return name, meta, "CAUGHT-LATE", why + f"; {t:.1f} s from boot, " \
            f"over the {DETECT_LIMIT} s limit", t
    return name, meta, "CAUGHT", why, t


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=1,
                    help="mutants booted at once (they measure no time)")
    ap.add_argument("--build-only", action="store_true",
                    help="build (or find cached) every mutant kernel, boot "
                    "none: make test runs this beside the timing tests")
    ap.add_argument("--boot-detectable-only", action="store_true",
                    help="build the Undetectable and Gap mutants (their "
                    "patches must still apply and build) but boot only "
                    "the mutants with a Detector: make test's choice; "
                    "make mutants boots them all")
    ap.add_argument("--list", action="store_true",
                    help="list every mutant and its patch, run none")
    ap.add_argument("names", nargs="*", help="mutants (default: all)")
    args = ap.parse_args()
    found = find_patches()
    unknown = [n for n in args.names if n not in found]
    if unknown:
        sys.exit(f"mutants: no such mutant: {' '.join(unknown)} (--list "
                 "names them)")
    if args.list:
        for name in sorted(found):
            print(f"{name}\t{os.path.relpath(found[name], ROOT)}")
        print(f"{len(found)} mutants")
        return 0
    patches = sorted(p for n, p in found.items()
                     if not args.names or n in args.names)
    if not patches:
        sys.exit("mutants: no patch selected")
    if args.jobs < 1:
        sys.exit(f"mutants: --jobs {args.jobs}: expected 1 or more")
    os.makedirs(os.path.join(ROOT, "build", "logs"), exist_ok=True)
    kernel = os.path.join(ROOT, "build", "kernel.elf")
    if not os.path.exists(kernel):
        sys.exit(f"mutants: no kernel at {kernel}: run make first")
    if args.build_only:
        passed = failed = 0
        for p in patches:
            k, why = build_mutant(p)
            print(f"mutant {os.path.basename(p)[:-6]}: "
                  + ("built" if k else f"BROKEN: {why}"), flush=True)
            passed, failed = passed + bool(k), failed + (not k)
        print(f"{passed} passed, {failed} failed")
        return 1 if failed else 0
    accel = harness.pick_accel(kernel)
    rows, passed, failed = [], 0, 0
    # "Host: quiet": a detector that needs host cores to itself (a
    # store-buffer reordering needs both vCPUs running at once), which
    # no ordering can force on a loaded host.  Booted only when named
    # (make litmus); make test catches the same bug another way, which
    # the header names.
    if not args.names:
        for p in list(patches):
            host = parse_patch(p)[1].get("host")
            if host:
                print(f"mutant {os.path.basename(p)[:-6]}: not booted: "
                      f"Host: {host}", flush=True)
                patches.remove(p)
    # A probabilistic detector (Attempts: above 1) boots alone, after the
    # others: the litmus mutant, beside another one, survived 3 boots of
    # 3 (it is "Host: quiet" now; the rule stays for any such detector).
    alone = [p for p in patches if int(parse_patch(p)[1].get("attempts",
                                                             "1")) > 1]
    shared = [p for p in patches if p not in alone]

    # One kernel is built at a time (each build is a compile or two and
    # a link, at nice 10), and each boots as soon as it is built, up to
    # --jobs at once: the boots do not wait for the last build.
    def verdicts():
        done = queue.Queue()
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            def builder():
                for p in shared:
                    try:
                        built = build_mutant(p)
                    except Exception as e:  # must not hang the run
                        built = (None, f"the build raised {e!r}")
                    fut = pool.submit(run_mutant, p, accel, built,
                                      not args.boot_detectable_only)
                    fut.add_done_callback(done.put)
            threading.Thread(target=builder, daemon=True).start()
            for _ in shared:
                yield done.get().result()
        for p in alone:
            yield run_mutant(p, accel, None, not args.boot_detectable_only)

    for name, meta, verdict, why, t in verdicts():
        det = meta.get("detector") or "-"
        print(f"mutant {name}: {verdict}"
              + (f" in {t:.2f} s" if t is not None else "")
              + (f": {why}" if why else ""), flush=True)
        if verdict in ("CAUGHT", "UNDETECTABLE", "GAP"):
            passed += 1     # UNDETECTABLE, GAP: as documented, not caught
        else:
            failed += 1
        spins = "; ".join("Spin: " + x for x in meta.get("spin", ())
                          if not x.endswith("survives"))
        rows.append((name, verdict, det if verdict == "CAUGHT" else
                     ("not detectable on x86: " + meta["undetectable"] +
                      (" (" + spins + ")" if spins else "")
                      if "undetectable" in meta else
                      "known gap: " + meta["gap"] if "gap" in meta else
                      why.splitlines()[0] if why else "") +
                     (" (" + why + ")" if (why or "").startswith("built, not")
                      else ""), t))
    rows.sort()
    print("\n| mutant | result | detector | time to detection |")
    print("|---|---|---|---|")
    for name, verdict, det, t in rows:
        ts = f"{t:.2f} s" if t is not None and verdict == "CAUGHT" else "-"
        print(f"| {name} | {verdict.lower()} | {det} | {ts} |")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    finally:
        WORKSPACE.drop()
