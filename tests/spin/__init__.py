# SPDX-License-Identifier: GPL-2.0
"""The Spin suites' command lines (python3 -m tests.spin.run, ...); the
runner they share is tools/spin.py."""
