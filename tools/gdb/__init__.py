# SPDX-License-Identifier: GPL-2.0
"""gdb helpers (dynrcu.py, sourced by gdb) and their batch test
(python3 -m tools.gdb.test)."""
