#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Validate the validation: apply each mutant patch under this directory
# (in the subfolder of the code it breaks: rcupreempt/, tree/, ...) to a
# temporary copy of the tree (never to the tree itself, never with #ifdefs
# in production code), build the host unit tests there and expect them to
# FAIL.  A mutant that survives, or that no longer applies or builds,
# fails this script.  Run from the repository root.
set -u

here=tests/mutants/host
timeout_s=${MUTANT_TIMEOUT:-120}
killed=0
bad=0
total=0

for p in "$here"/*/*.patch; do
	name=$(basename "$p" .patch)
	total=$((total + 1))
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/rcu-mutant.XXXXXX")
	# The sources the host tests build from, uncommitted edits included.
	cp -R rcu kernel arch tests "$tmp"/
	mkdir "$tmp/tools" && cp tools/ccache.mk "$tmp/tools/"
	# --forward: --batch alone reverses a patch the copy already has,
	# and the mutant would run as the code without its bug
	# (tests/mutants/patch.py says the same for the kernel mutants).
	if ! out=$(cd "$tmp" && patch -p1 --forward --batch --quiet -r - \
			< "$OLDPWD/$p" 2>&1); then
		case $out in
		*"previously applied"*)
			echo "mutant $name: BROKEN (already applied: the tree" \
				"has its edit already)" ;;
		*)
			echo "mutant $name: BROKEN (patch does not apply)" ;;
		esac
		echo "$out" | sed 's/^/    /'
		bad=$((bad + 1))
		rm -rf "$tmp"
		continue
	fi
	if ! (cd "$tmp" && nice -n 19 make -s -j2 -f tests/host/host.mk \
			HOST_BUILD="$tmp/build" "$tmp/build/test_rcu" \
			> "$tmp/build.log" 2>&1); then
		echo "mutant $name: BROKEN (does not build)"
		sed 's/^/    /' "$tmp/build.log" | tail -20
		bad=$((bad + 1))
		rm -rf "$tmp"
		continue
	fi
	timeout "$timeout_s" "$tmp/build/test_rcu" > "$tmp/run.log" 2>&1
	rc=$?
	summary=$(tail -n 1 "$tmp/run.log")
	if [ "$rc" -ne 0 ]; then
		killed=$((killed + 1))
		echo "mutant $name: killed (exit $rc; $summary)"
		grep '^FAIL' "$tmp/run.log" | head -3 | sed 's/^/    /'
	else
		echo "mutant $name: SURVIVED ($summary)"
		bad=$((bad + 1))
	fi
	rm -rf "$tmp"
done

echo "host mutants: $killed of $total killed"
[ "$bad" -eq 0 ] && [ "$total" -gt 0 ]
