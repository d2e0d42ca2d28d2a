#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# One soak run, on whichever host GNU parallel chose (tools/soak.sh):
# soak-job.sh DIR NAME [DURATION].  DIR holds the unpacked tarball; the
# harness boots tests/soak/NAME.scn from it.  Prints where it ran, the
# harness's verdict and the whole console log, then removes DIR.
set -u
dir=$1 name=$2 dur=${3:-}
cd "$dir" || exit 2
trap 'rm -rf "$dir"' EXIT
scn=tests/soak/$name.scn
[ -f "$scn" ] || { echo "soak-job: no scenario $scn"; exit 2; }
if [ -n "$dur" ]; then
	sed -i -E "s/torture_duration=[0-9]+/torture_duration=$dur/" "$scn"
fi
echo "### ran on $(hostname) ($(nproc) CPUs)"
python3 -m tests.harness --kernel build/kernel.elf "$scn"
rc=$?
echo "### console"
cat "build/logs/$name.log"
exit $rc
