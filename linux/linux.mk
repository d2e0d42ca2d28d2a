# dynrcu: make rules for the companion Linux patch series (issue 7).
# Included by the top-level Makefile; standalone: make -f linux/linux.mk linux-test
LINUX_MK_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))

.PHONY: linux-test linux-test-all
# Extract Debian's linux-source-6.12 outside the repository (cached in
# $DYNRCU_LINUX_DIR, default /var/tmp/dynrcu-linux), git am the series,
# checkpatch it, build tinyconfig + fragment with ccache, boot the test and the
# mutant under QEMU with 4 CPUs, and judge the consoles.
linux-test:
	bash $(LINUX_MK_DIR)/linux-test.sh

# Everything: linux-test plus the 32-bit (i386) compile test of the
# series' C files, which needs a second checkout of the tree, and five
# boots of each mutant for its time to detection.
linux-test-all:
	DYNRCU_LINUX_I386=1 DYNRCU_LINUX_MUTANT_BOOTS=5 bash $(LINUX_MK_DIR)/linux-test.sh
