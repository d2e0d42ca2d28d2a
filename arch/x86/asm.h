/* SPDX-License-Identifier: GPL-2.0 */
/* x86 instruction wrappers: port I/O, MSRs, control registers, CPUID. */
#ifndef ARCH_X86_ASM_H
#define ARCH_X86_ASM_H

#include "kernel/types.h"

static inline void outb(u16 port, u8 v)
{
	__asm__ __volatile__("outb %0, %1" :: "a"(v), "Nd"(port));
}

static inline u8 inb(u16 port)
{
	u8 v;

	__asm__ __volatile__("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline void outl(u16 port, u32 v)
{
	__asm__ __volatile__("outl %0, %1" :: "a"(v), "Nd"(port));
}

static inline u32 inl(u16 port)
{
	u32 v;

	__asm__ __volatile__("inl %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline u64 rdmsr(u32 msr)
{
	u32 lo, hi;

	__asm__ __volatile__("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((u64)hi << 32) | lo;
}

static inline void wrmsr(u32 msr, u64 v)
{
	__asm__ __volatile__("wrmsr" :: "c"(msr), "a"((u32)v),
			     "d"((u32)(v >> 32)) : "memory");
}

static inline u64 rdtsc(void)
{
	u32 lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi) :: "memory");
	return ((u64)hi << 32) | lo;
}

static inline void cpuid(u32 leaf, u32 sub, u32 *a, u32 *b, u32 *c, u32 *d)
{
	__asm__ __volatile__("cpuid"
			     : "=a"(*a), "=b"(*b), "=c"(*c), "=d"(*d)
			     : "a"(leaf), "c"(sub));
}

static inline u64 read_cr2(void)
{
	u64 v;

	__asm__ __volatile__("mov %%cr2, %0" : "=r"(v));
	return v;
}

static inline u64 read_cr3(void)
{
	u64 v;

	__asm__ __volatile__("mov %%cr3, %0" : "=r"(v));
	return v;
}

static inline void write_cr3(u64 v)
{
	__asm__ __volatile__("mov %0, %%cr3" :: "r"(v) : "memory");
}

static inline void cpu_relax(void)
{
	__asm__ __volatile__("pause" ::: "memory");
}

#define MSR_GS_BASE		0xc0000101
#define MSR_APIC_BASE		0x1b
#define APIC_BASE_EXTD		(1ULL << 10)	/* x2APIC mode */
#define APIC_BASE_EN		(1ULL << 11)	/* global enable */

#endif
