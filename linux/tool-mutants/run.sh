#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make linux-tool-mutants: the self-tests of the Linux tooling must catch
# each mutant here.  Each patch (a description, then a diff against
# linux/) is applied to a copy of linux/ in a temporary directory, never
# to the tree itself; there linux/test_hunt.py and linux/test_judge.py
# run, and the mutant counts as caught when either fails.  A mutant that
# survives, or no longer applies, fails this script.  Run from the
# repository root; nothing is built or booted (about 10 s a mutant).
set -u

here=linux/tool-mutants
caught=0
bad=0
total=0
for p in "$here"/*.patch; do
	name=$(basename "$p" .patch)
	total=$((total + 1))
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/tool-mutant.XXXXXX")
	cp -R linux "$tmp"/
	if ! (cd "$tmp" && git apply "$OLDPWD/$p") 2>"$tmp/apply.log"; then
		echo "mutant $name: BROKEN (does not apply)"
		sed 's/^/    /' "$tmp/apply.log"
		bad=$((bad + 1))
		rm -rf "$tmp"
		continue
	fi
	failed=
	for t in test_hunt test_judge; do
		python3 "$tmp/linux/$t.py" >"$tmp/$t.log" 2>&1 || failed="$failed $t"
	done
	if [ -n "$failed" ]; then
		first=$(grep -h -m1 -E "^(FAIL|not ok)" "$tmp"/test_*.log | cut -c1-100)
		echo "mutant $name: caught by$failed: $first"
		caught=$((caught + 1))
	else
		echo "mutant $name: SURVIVED"
		bad=$((bad + 1))
	fi
	rm -rf "$tmp"
done
echo "tool mutants: $caught of $total caught, $bad survived or broken"
[ "$bad" -eq 0 ] && [ "$total" -gt 0 ]
