# SPDX-License-Identifier: GPL-2.0
"""The kernel mutants' runner (python3 -m tests.mutants.run)."""
