# SPDX-License-Identifier: GPL-2.0
"""dynrcu's test command lines (python3 -m tests.harness, ...); the
libraries they use are in tools/."""
