/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim for arch/x86/irqflags.h: a simulated interrupt-enable flag per
 * simulated CPU (tests/host/shim.c); local_irq_save() is a hook point.
 */
#ifndef ARCH_X86_IRQFLAGS_H
#define ARCH_X86_IRQFLAGS_H

unsigned long shim_local_irq_save(void);
void shim_local_irq_restore(unsigned long flags);
void shim_local_irq_disable(void);
void shim_local_irq_enable(void);
int shim_irqs_disabled(void);

static inline void arch_local_irq_disable(void)
{
	shim_local_irq_disable();
}

static inline void arch_local_irq_enable(void)
{
	shim_local_irq_enable();
}

static inline unsigned long arch_local_irq_save(void)
{
	return shim_local_irq_save();
}

static inline void arch_local_irq_restore(unsigned long flags)
{
	shim_local_irq_restore(flags);
}

static inline int arch_irqs_disabled(void)
{
	return shim_irqs_disabled();
}

#endif
