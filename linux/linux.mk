# dynrcu: make rules for the companion Linux patch series (issue 7).
# Included by the top-level Makefile; standalone: make -f linux/linux.mk linux-test
LINUX_MK_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))

.PHONY: linux-test
# Extract Debian's linux-source-6.12 outside the repository (cached in
# $DYNRCU_LINUX_DIR, default /var/tmp/dynrcu-linux), git am the series,
# checkpatch it, build tinyconfig + fragment with ccache, boot the test and the
# mutant under QEMU with 4 CPUs, and judge the consoles.
linux-test:
	bash $(LINUX_MK_DIR)/linux-test.sh
