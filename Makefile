# SPDX-License-Identifier: GPL-2.0
# dynrcu: build the kernel, the ISO, and run it in QEMU.

SMP	?= 4
ACCEL	?=
CMDLINE	?=
BUILD	:= build
# The kernel's objects compile in parallel, one job a host core, when a
# target (make run, make test) builds the ISO first.
JOBS	:= -j$(shell nproc)
SHELL	:= /bin/bash

# A compiler cache, when Debian's ccache is there (make test installs it),
# kept outside the clone so that a fresh clone on a machine that has built
# before starts warm; the kernel, the mutants, the host tests and Spin's
# verifiers share it (tools/ccache.mk says how it is keyed).
include tools/ccache.mk
CC	:= $(CCACHE_CMD) gcc
NASM	:= nasm
LD	:= ld

CFLAGS	:= -std=gnu11 -O2 -g -Wall -Wextra -Werror -ffreestanding \
	   -Wmissing-prototypes -Wmissing-declarations \
	   -fno-pic -fno-pie -fno-stack-protector -fno-omit-frame-pointer \
	   -mno-red-zone -mgeneral-regs-only -mcmodel=small \
	   -fno-asynchronous-unwind-tables -fno-strict-aliasing \
	   -Wframe-larger-than=2048 -MMD -MP -I. -I arch/x86/include \
	   $(DEBUG_PREFIX_MAP)
LDFLAGS	:= -nostdlib -static -z max-page-size=4096 -z noexecstack --no-warn-rwx-segments -T linker.ld

C_SRCS	:= $(wildcard kernel/*.c arch/x86/*.c rcu/*.c rcu/rcupreempt/*.c rcu/tree/*.c \
		   tests/kernel/*/*.c)
ASM_SRCS := boot/header.asm boot/entry.asm arch/x86/entry.asm \
	    arch/x86/switch.asm boot/trampoline_blob.asm
OBJS	:= $(C_SRCS:%.c=$(BUILD)/%.o) $(ASM_SRCS:%.asm=$(BUILD)/%.o)

KERNEL	:= $(BUILD)/kernel.elf
ISO	:= $(BUILD)/dynrcu.iso

BUILD_DEPS := gcc make nasm binutils
RUN_DEPS := qemu-system-x86 grub-pc-bin grub-common xorriso mtools python3

.PHONY: all iso run run-tree test scale hotplug debug gdb clean deps-build deps-run kernel-test

all: $(KERNEL)

deps-build:
	@tools/deps.sh $(BUILD_DEPS)
deps-run: deps-build
	@tools/deps.sh $(RUN_DEPS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/boot/trampoline.bin: boot/trampoline.asm
	@mkdir -p $(dir $@)
	$(NASM) -f bin $< -o $@

$(BUILD)/boot/trampoline_blob.o: boot/trampoline_blob.asm $(BUILD)/boot/trampoline.bin
	@mkdir -p $(dir $@)
	$(NASM) -f elf64 -i $(BUILD)/boot/ $< -o $@

$(BUILD)/%.o: %.asm
	@mkdir -p $(dir $@)
	$(NASM) -f elf64 -g $< -o $@

# Two links: the first gives the addresses for the symbol table that the
# second carries (text addresses do not move: .ksyms comes after .text).
$(BUILD)/kernel.tmp.elf: $(OBJS) linker.ld
	$(LD) $(LDFLAGS) -o $@ $(OBJS)

$(BUILD)/ksyms.o: $(BUILD)/kernel.tmp.elf tools/ksyms.sh
	tools/ksyms.sh $< > $(BUILD)/ksyms.asm
	$(NASM) -f elf64 $(BUILD)/ksyms.asm -o $@

$(KERNEL): $(BUILD)/kernel.tmp.elf $(BUILD)/ksyms.o
	$(LD) $(LDFLAGS) -o $@ $(OBJS) $(BUILD)/ksyms.o
	@cmp -s $(BUILD)/ksyms.asm <(tools/ksyms.sh $@) || \
		{ echo "ksyms: text moved between links" >&2; rm -f $@; exit 1; }

iso: $(ISO)
$(ISO): $(KERNEL) boot/grub.cfg tools/mkiso.sh
	@tools/deps.sh grub-pc-bin grub-common xorriso mtools
	@echo "  ISO     $@"
	@tools/mkiso.sh $(KERNEL) $@

# The console is live; the run is bounded (RUN_TIMEOUT seconds).  make run
# is for exploring: a WARNING or a stall report does not end it
# (FAIL_FAST=1 keeps the test runs' behaviour: the first error ends it).
RUN_TIMEOUT ?= 600
FAIL_FAST ?= 0
RUN_CMDLINE = $(if $(filter 0,$(FAIL_FAST)),panic_on_warn=0 panic_on_rcu_stall=0) $(CMDLINE)
run: deps-run
	@$(MAKE) $(JOBS) --no-print-directory iso
	python3 -m tests.harness --run --cpus $(SMP) \
		--cmdline "$(strip $(RUN_CMDLINE))" --timeout $(RUN_TIMEOUT)

# The same, booting the modern RCU (rcu=tree; the ISO's second GRUB entry).
run-tree:
	@$(MAKE) --no-print-directory run CMDLINE="rcu=tree $(CMDLINE)"

debug: deps-run
	@$(MAKE) $(JOBS) --no-print-directory iso
	python3 -m tests.harness --run --gdb --cpus $(SMP) \
		--cmdline "$(CMDLINE)" --timeout 3600

GDB_HELPERS := $(wildcard tools/gdb/dynrcu.py)
gdb: $(KERNEL)
	gdb -q $(KERNEL) $(if $(GDB_HELPERS),-ex 'source $(GDB_HELPERS)') \
		-ex 'target remote localhost:1234' -ex 'break kernel_main' \
		-ex 'continue'

kernel-test: deps-run
	@tools/deps.sh spin gcc patch
	@$(MAKE) $(JOBS) --no-print-directory iso
	python3 -m tests.harness tests/scenarios/*.scn tests/xfail/*.scn

# Every kernel mutant booted, those no test can catch on x86 too
# (Undetectable:, Gap:), which make test builds but does not boot: their
# boots show only that nothing fires (docs/mutants.md).
.PHONY: mutants
mutants: deps-run
	@tools/deps.sh gcc patch ccache
	@$(MAKE) $(JOBS) --no-print-directory iso
	python3 -m tests.mutants.run --jobs 3

# The store-buffering litmus test and the mutant only it can catch on
# real (virtual) hardware ("Host: quiet"): both vCPUs need host cores at
# once, so run it on an otherwise idle host; even then the window depends
# on the host (docs/mutants.md).  make test boots the litmus scenario
# too, and catches the mutant in the Spin suite.
.PHONY: litmus
litmus: deps-run
	@tools/deps.sh gcc patch
	@$(MAKE) $(JOBS) --no-print-directory iso
	python3 -m tests.harness tests/scenarios/litmus-sb.scn
	python3 -m tests.mutants.run exit-nohz-mb-before-increment

# Every package the suites install, first: two installs at once (the
# Linux build's and the figures') would contend for dpkg's lock.
test: deps-run
	@tools/deps.sh spin gcc graphviz patch ccache
	@$(MAKE) $(JOBS) --no-print-directory iso
	tests/run-all.sh

# 64 and 255 CPUs, both RCU flavours: the default suite, every rcu_* test
# and rcu_torture (make test runs only smp255-short: the budget).
scale: deps-run
	@$(MAKE) $(JOBS) --no-print-directory iso
	python3 -m tests.harness tests/scenarios/scale/*.scn

# CPU hotplug, both flavours: torture, and the tests on 2 CPUs
# (tests/scenarios/hotplug/; make test runs only hotplug-4cpu and
# tree-hotplug-4cpu, make scale the 64- and 255-CPU ones: the budget).
hotplug: deps-run
	@$(MAKE) $(JOBS) --no-print-directory iso
	python3 -m tests.harness tests/scenarios/hotplug/*.scn

clean:
	rm -rf $(BUILD)

-include tests/torture.mk
-include tools/tools.mk
-include tests/host/host.mk
-include tools/figures/figures.mk
-include tests/spin/spin.mk
-include linux/linux.mk
-include $(OBJS:.o=.d)
