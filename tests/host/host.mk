# Host unit tests for rcu/ (fast, no QEMU).  Included by the top-level
# Makefile; also usable alone:  make -f tests/host/host.mk host-test
# Runs from the repository root.  Products go to build/host/.
#
#   host-test          unit tests, then the host mutants (must all fail)
#   host-unit          unit tests only
#   host-mutants       the mutants only
#   rcu-freestanding   compile every rcu/ file (shared, rcupreempt/, tree/)
#                      freestanding against the kernel's headers

include tools/ccache.mk
HOST_CC      ?= $(CCACHE_CMD) gcc
HOST_BUILD   ?= build/host
# Shim headers first, so rcu/*.c compile unmodified against hosted stand-ins.
HOST_CFLAGS  ?= -std=gnu11 -O1 -g -Wall -Wextra -Werror \
		-Wmissing-prototypes -Wmissing-declarations \
		-Wno-unused-parameter -fno-strict-aliasing $(DEBUG_PREFIX_MAP)
HOST_CPPFLAGS = -I tests/host/shim -I .
HOST_RCU_SRC  = rcu/rcupreempt/dynticks.c rcu/rcupreempt/rcupreempt.c \
		rcu/rcupreempt/rcupreempt_stall.c \
		rcu/rcupreempt/rcupreempt_stats.c rcu/tree/rcu_segcblist.c \
		rcu/rcupdate_wait.c
# Context tracking, built alone: its every READ_ONCE()/WRITE_ONCE() is an
# NMI hook point (tests/host/tree/ct_hooks.h).
HOST_CT_SRC   = rcu/tree/context_tracking.c
HOST_CT_OBJ   = $(HOST_BUILD)/context_tracking.o
# The shim and the checks (tests/host/), then the tests, in folders that
# mirror the code: kernel/, rcu/ (shared), rcupreempt/, tree/.
HOST_TEST_SRC = $(wildcard tests/host/*.c tests/host/*/*.c)
HOST_HDRS     = $(wildcard rcu/*.h rcu/*/*.h kernel/*.h tests/host/*.h \
		  tests/host/*/*.h tests/host/shim/asm/*.h)
HOST_BIN      = $(HOST_BUILD)/test_rcu

RCU_FREESTANDING_SRC = $(wildcard rcu/*.c rcu/*/*.c)
RCU_FREESTANDING_CFLAGS = -O2 -ffreestanding -fno-pic -mno-red-zone \
		-mcmodel=kernel -Wall -Wextra -Werror -I. -I arch/x86/include

.PHONY: host-test host-unit host-mutants rcu-freestanding

host-test: host-unit host-mutants

# One object a source, so that the compiler cache (and make) recompile
# only what a change touches: a host mutant changes one file.
HOST_OBJS     = $(patsubst %.c,$(HOST_BUILD)/obj/%.o, \
		  $(HOST_RCU_SRC) $(HOST_TEST_SRC))

$(HOST_CT_OBJ): $(HOST_CT_SRC) $(HOST_HDRS)
	@mkdir -p $(HOST_BUILD)
	$(HOST_CC) $(HOST_CFLAGS) $(HOST_CPPFLAGS) \
		-include tests/host/tree/ct_hooks.h -c -o $@ $(HOST_CT_SRC)

$(HOST_BUILD)/obj/%.o: %.c $(HOST_HDRS)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_CFLAGS) $(HOST_CPPFLAGS) -c -o $@ $<

$(HOST_BIN): $(HOST_OBJS) $(HOST_CT_OBJ)
	$(HOST_CC) $(HOST_CFLAGS) -o $@ $(HOST_OBJS) $(HOST_CT_OBJ)

host-unit: $(HOST_BIN)
	$(HOST_BIN)

host-mutants:
	sh tests/mutants/host/run.sh

rcu-freestanding:
	@for f in $(RCU_FREESTANDING_SRC); do \
		echo "  CC (freestanding) $$f"; \
		o=$(HOST_BUILD)/freestanding/$${f%.c}.o; \
		mkdir -p $$(dirname $$o); \
		$(HOST_CC) $(RCU_FREESTANDING_CFLAGS) -c $$f -o $$o || exit 1; \
	done
