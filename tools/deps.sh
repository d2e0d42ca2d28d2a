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
if ! { apt-get update -qq && apt-get install -y -qq "${missing[@]}"; } >/tmp/dynrcu-apt.log 2>&1; then
	tail -5 /tmp/dynrcu-apt.log >&2
	echo "deps: failed; run: apt-get update && apt-get install -y ${missing[*]}" >&2
	exit 1
fi
