#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make soak: the soak scenarios (tests/soak/*.scn), one QEMU run each, fanned
# out by GNU parallel over this machine or several (as rcutorture's
# kvm-remote.sh does over ssh), then one report merged from every run's
# console log (tests/torture_totals.py).
#
#   HOSTS          parallel's --sshlogin list, comma-separated: "N/[user@]host"
#                  runs N scenarios at once on host over ssh, ":" is this
#                  machine.  Default "1/:": one at a time, here.
#   SOAK           scenario names, comma-separated (default: all of them)
#   SOAK_DURATION  seconds of torture per run instead of the scenario's own
#                  torture_duration (30 minutes), for a short fan-out check
#
# Nothing is built on a remote host: the kernel, the harness and the
# scenarios go over in one tarball (parallel --basefile), are unpacked in a
# scratch directory and removed after the run.  A remote host needs ssh
# without a password, python3, qemu-system-x86, grub-pc-bin, xorriso and
# mtools (tools/deps.sh installs them, as root).  docs/soak.md has more.
set -u
cd "$(dirname "$0")/.." || exit 1

hosts=${HOSTS:-1/:}
dur=${SOAK_DURATION:-}
out=build/soak
tarball=build/soak.tar.gz

die() { echo "soak: $*" >&2; exit 2; }

command -v parallel >/dev/null || die "GNU parallel is missing: apt-get install parallel"
[ -f build/kernel.elf ] || die "no kernel at build/kernel.elf: run make first"
case $dur in
'' | [1-9] | [1-9][0-9]*) ;;
*) die "SOAK_DURATION=$dur: expected a number of seconds" ;;
esac

names=()
if [ -n "${SOAK:-}" ]; then
	IFS=, read -ra names <<<"$SOAK"
	for n in "${names[@]}"; do
		[ -f "tests/soak/$n.scn" ] ||
			die "SOAK: no scenario tests/soak/$n.scn (have: $(cd tests/soak && ls -- *.scn | sed 's/\.scn$//' | tr '\n' ' '))"
	done
else
	for f in tests/soak/*.scn; do names+=("$(basename "$f" .scn)"); done
fi

# What a host needs to boot a scenario, and nothing else.
rm -rf "$out"
mkdir -p "$out"
tar -czf "$tarball" build/kernel.elf boot/grub.cfg tests/__init__.py \
	tests/harness.py tools/*.py \
	tools/mkiso.sh tools/soak-job.sh tests/soak || die "cannot pack $tarball"

echo "soak: ${#names[@]} scenarios on $hosts${dur:+, $dur s of torture each}"
t0=$(date +%s)
# --results: each job's output in $out/1/NAME/stdout; parallel names the
# file, tagged with the scenario, as each run ends.
parallel --sshlogin "$hosts" --basefile "$tarball" --cleanup \
	--tag --results "$out" \
	"d=\$(mktemp -d /tmp/dynrcu-soak.XXXXXX) && tar -xzf $tarball -C \$d && bash \$d/tools/soak-job.sh \$d {} '$dur'" \
	::: "${names[@]}"
rc=$?
echo "soak: parallel exit $rc after $(($(date +%s) - t0)) s"

# Merge: every run's console log, wherever it ran, into one report.
logs=()
for n in "${names[@]}"; do
	f=$out/1/$n/stdout
	[ -f "$f" ] || { echo "soak: $n: no output (the job did not run)"; continue; }
	sed -n 's/^### ran on /soak: '"$n"' ran on /p' "$f"
	sed -n '/^### console$/,$p' "$f" | tail -n +2 >"$out/$n.log"
	logs+=("$out/$n.log")
done
echo "soak: merged totals"
python3 -m tests.torture_totals "${logs[@]}"
trc=$?
[ "$rc" -eq 0 ] && [ "$trc" -eq 0 ] && [ ${#logs[@]} -eq ${#names[@]} ]
