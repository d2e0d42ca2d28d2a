/* SPDX-License-Identifier: GPL-2.0 */
/* RFLAGS.IF manipulation. */
#ifndef ARCH_X86_IRQFLAGS_H
#define ARCH_X86_IRQFLAGS_H

#define X86_RFLAGS_IF	0x200UL

static inline unsigned long arch_local_save_flags(void)
{
	unsigned long flags;

	__asm__ __volatile__("pushfq; popq %0" : "=r"(flags) :: "memory");
	return flags;
}

static inline void arch_local_irq_disable(void)
{
	__asm__ __volatile__("cli" ::: "memory");
}

static inline void arch_local_irq_enable(void)
{
	__asm__ __volatile__("sti" ::: "memory");
}

static inline unsigned long arch_local_irq_save(void)
{
	unsigned long flags = arch_local_save_flags();

	arch_local_irq_disable();
	return flags;
}

static inline void arch_local_irq_restore(unsigned long flags)
{
	if (flags & X86_RFLAGS_IF)
		arch_local_irq_enable();
}

static inline int arch_irqs_disabled_flags(unsigned long flags)
{
	return !(flags & X86_RFLAGS_IF);
}

static inline int arch_irqs_disabled(void)
{
	return arch_irqs_disabled_flags(arch_local_save_flags());
}

#endif
