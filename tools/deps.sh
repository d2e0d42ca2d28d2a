#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install the Debian packages a target needs, only when missing.
# Usage: tools/deps.sh PACKAGE...
set -u
missing=()
for p in "$@"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "deps: installing ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
	echo "deps: not root; run: apt-get update && apt-get install -y ${missing[*]}" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
# In the background, so that a long install says every 30 s that it runs.
# Waits for dpkg's lock (another suite of make test may be installing its
# own packages at the same moment) instead of failing on it.
lock=(-o DPkg::Lock::Timeout=600)
{ apt-get "${lock[@]}" update -qq &&
	apt-get "${lock[@]}" install -y -qq "${missing[@]}"; } >/tmp/dynrcu-apt.log 2>&1 &
pid=$!
t0=$SECONDS next=30
while kill -0 "$pid" 2>/dev/null; do
	sleep 1
	if [ $((SECONDS - t0)) -ge $next ]; then
		echo "deps: installing for $((SECONDS - t0)) s (usually 1 to 3 min): $(tail -n 1 /tmp/dynrcu-apt.log | cut -c1-100)"
		next=$((next + 30))
	fi
done
if ! wait "$pid"; then
	tail -5 /tmp/dynrcu-apt.log >&2
	echo "deps: failed; run: apt-get update && apt-get install -y ${missing[*]}" >&2
	exit 1
fi
