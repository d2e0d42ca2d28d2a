# SPDX-License-Identifier: GPL-2.0
"""Host tools for dynrcu, importable as a package.

Every Python tool runs from the repository root as a module
("python3 -m tools.bench", "python3 -m tests.harness"), so "tools" and
"tests" import each other by package name, with no path set by hand.
"""
