/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86-64 increment and decrement of a 32-bit counter, as single locked
 * instructions.  These are the instructions Linux's atomic_inc() and
 * atomic_dec() compile to (lock incl, lock decl); make bench-linux's
 * calibration row needs the same ones on both sides.  The compiler's
 * __atomic_add_fetch() with an unused result emits lock addl instead,
 * which QEMU's TCG runs faster: inc and dec leave CF alone, so TCG must
 * first work out the carry that the previous instruction left.
 */
#ifndef ARCH_X86_ATOMIC_H
#define ARCH_X86_ATOMIC_H

static inline void arch_atomic_inc(int *v)
{
	__asm__ __volatile__("lock; incl %0" : "+m" (*v) : : "cc");
}

static inline void arch_atomic_dec(int *v)
{
	__asm__ __volatile__("lock; decl %0" : "+m" (*v) : : "cc");
}

#endif
