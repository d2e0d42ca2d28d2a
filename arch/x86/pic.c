// SPDX-License-Identifier: GPL-2.0
/*
 * Legacy 8259 PICs: remap them away from the exception vectors (a stray
 * IRQ would otherwise look like a CPU exception), then mask every line.
 * All our interrupts come through the local APIC.
 */
#include "arch/x86/asm.h"
#include "arch/x86/setup.h"

void pic_disable(void)
{
	outb(0x20, 0x11);	/* ICW1: init, expect ICW4 */
	outb(0xa0, 0x11);
	outb(0x21, 0x20);	/* ICW2: master at vector 0x20 */
	outb(0xa1, 0x28);	/* slave at 0x28 */
	outb(0x21, 0x04);	/* ICW3: slave on IR2 */
	outb(0xa1, 0x02);
	outb(0x21, 0x01);	/* ICW4: 8086 mode */
	outb(0xa1, 0x01);
	outb(0x21, 0xff);	/* mask everything */
	outb(0xa1, 0xff);
}
