# Host unit tests for rcu/ (fast, no QEMU).  Included by the top-level
# Makefile; also usable alone:  make -f tests/host/host.mk host-test
# Runs from the repository root.  Products go to build/host/.
#
#   host-test          unit tests, then the host mutants (must all fail)
#   host-unit          unit tests only
#   host-mutants       the mutants only
#   rcu-freestanding   compile rcu/*.c freestanding against kernel headers

HOST_CC      ?= gcc
HOST_BUILD   ?= build/host
# Shim headers first, so rcu/*.c compile unmodified against hosted stand-ins.
HOST_CFLAGS  ?= -std=gnu11 -O1 -g -Wall -Wextra -Werror \
		-Wno-unused-parameter -fno-strict-aliasing
HOST_CPPFLAGS = -I tests/host/shim -I .
HOST_RCU_SRC  = rcu/rcupreempt/dynticks.c rcu/rcupreempt/rcupreempt.c \
		rcu/rcupreempt/rcupreempt_stall.c \
		rcu/rcupreempt/rcupreempt_stats.c rcu/tree/rcu_segcblist.c \
		rcu/rcupdate_wait.c
HOST_TEST_SRC = tests/host/test_rcu.c tests/host/shim.c
HOST_HDRS     = $(wildcard rcu/*.h rcu/*/*.h kernel/*.h tests/host/*.h \
		  tests/host/shim/asm/*.h)
HOST_BIN      = $(HOST_BUILD)/test_rcu

RCU_FREESTANDING_CFLAGS = -ffreestanding -fno-pic -mno-red-zone \
		-mcmodel=kernel -Wall -Wextra -Werror -I. -I arch/x86/include

.PHONY: host-test host-unit host-mutants rcu-freestanding

host-test: host-unit host-mutants

$(HOST_BIN): $(HOST_RCU_SRC) $(HOST_TEST_SRC) $(HOST_HDRS)
	@mkdir -p $(HOST_BUILD)
	$(HOST_CC) $(HOST_CFLAGS) $(HOST_CPPFLAGS) -o $@ \
		$(HOST_RCU_SRC) $(HOST_TEST_SRC)

host-unit: $(HOST_BIN)
	$(HOST_BIN)

host-mutants:
	sh tests/mutants/host/run.sh

rcu-freestanding:
	@mkdir -p $(HOST_BUILD)/freestanding
	@for f in $(HOST_RCU_SRC); do \
		echo "  CC (freestanding) $$f"; \
		$(HOST_CC) $(RCU_FREESTANDING_CFLAGS) -c $$f \
			-o $(HOST_BUILD)/freestanding/$$(basename $$f .c).o \
			|| exit 1; \
	done
