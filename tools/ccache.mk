# SPDX-License-Identifier: GPL-2.0
# The compiler cache (Debian's ccache), shared by every C build of make
# test: the kernel, the mutant kernels, the host unit tests and their
# mutants, and Spin's pan verifiers (tools/spin.py reads the same
# variables from the environment).  Included by the top Makefile and by
# tests/host/host.mk.
#
# It lives outside the clone, in DYNRCU_CCACHE_DIR, so that a fresh clone
# (CI's) on a machine that has run make test before compiles from the
# cache.  Without ccache everything still builds, only slower.
#
# A cached object must not depend on where the clone is: -g records the
# compile directory, and ccache hashes that directory whenever -g is
# given.  -fdebug-prefix-map rewrites it to "." in the debug information,
# and ccache hashes the rewritten name, so every clone and every mutant's
# copy of the tree shares one entry; gdb, run from the repository root
# (make gdb), finds the sources relative to it.  Sources are named
# relative to the root on every command line, so __FILE__ is the same in
# every clone too.  Nothing else in a command names the clone's path.

ifndef DYNRCU_CCACHE_MK
DYNRCU_CCACHE_MK := 1
# CCACHE= (empty) on the command line builds without the cache.
ifeq ($(origin CCACHE),undefined)
CCACHE := $(shell command -v ccache 2>/dev/null)
endif
DYNRCU_CCACHE_DIR ?= /var/tmp/dynrcu-ccache
DEBUG_PREFIX_MAP := -fdebug-prefix-map=$(CURDIR)=.
# Set on each compile's command line, not exported: the Linux build that
# make test starts keeps its own cache (linux/linux-test.sh).
ifneq ($(CCACHE),)
CCACHE_CMD := CCACHE_DIR=$(DYNRCU_CCACHE_DIR) $(CCACHE)
endif
endif
