/* SPDX-License-Identifier: GPL-2.0 */
/* GS-relative per-CPU access: one instruction, so migration cannot split it. */
#ifndef ARCH_X86_PERCPU_H
#define ARCH_X86_PERCPU_H

static inline struct percpu *arch_this_cpu(void)
{
	struct percpu *p;

	__asm__ __volatile__("movq %%gs:0, %0" : "=r"(p));
	return p;
}

#define __pcpu_off(f)	__builtin_offsetof(struct percpu, f)

#define arch_this_cpu_read(f) ({					\
	__typeof__(((struct percpu *)0)->f) __v;			\
	_Static_assert(sizeof(__v) == 4 || sizeof(__v) == 8, "size");	\
	if (sizeof(__v) == 4)						\
		__asm__ __volatile__("movl %%gs:%c1, %k0"		\
				     : "=r"(__v) : "i"(__pcpu_off(f)));	\
	else								\
		__asm__ __volatile__("movq %%gs:%c1, %q0"		\
				     : "=r"(__v) : "i"(__pcpu_off(f)));	\
	__v;								\
})

#define arch_this_cpu_write(f, v) do {					\
	__typeof__(((struct percpu *)0)->f) __v = (v);			\
	if (sizeof(__v) == 4)						\
		__asm__ __volatile__("movl %k0, %%gs:%c1"		\
				     :: "r"(__v), "i"(__pcpu_off(f))	\
				     : "memory");			\
	else								\
		__asm__ __volatile__("movq %q0, %%gs:%c1"		\
				     :: "r"(__v), "i"(__pcpu_off(f))	\
				     : "memory");			\
} while (0)

#define arch_this_cpu_add(f, v) do {					\
	__typeof__(((struct percpu *)0)->f) __v = (v);			\
	if (sizeof(__v) == 4)						\
		__asm__ __volatile__("addl %k0, %%gs:%c1"		\
				     :: "r"(__v), "i"(__pcpu_off(f))	\
				     : "memory", "cc");			\
	else								\
		__asm__ __volatile__("addq %q0, %%gs:%c1"		\
				     :: "r"(__v), "i"(__pcpu_off(f))	\
				     : "memory", "cc");			\
} while (0)

#endif
