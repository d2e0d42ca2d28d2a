/* SPDX-License-Identifier: GPL-2.0 */
/* Compiler helpers, after Linux's <linux/compiler.h>. */
#ifndef KERNEL_COMPILER_H
#define KERNEL_COMPILER_H

#include "kernel/types.h"

#define barrier()		__asm__ __volatile__("" ::: "memory")
#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)
#define __aligned(x)		__attribute__((aligned(x)))
#define __packed		__attribute__((packed))
#define __noreturn		__attribute__((noreturn))
#define __unused		__attribute__((unused))
#define __printf(a, b)		__attribute__((format(printf, a, b)))
#define __section(s)		__attribute__((section(s)))
#define __used			__attribute__((used))
#define noinline		__attribute__((noinline))
#ifndef __always_inline		/* glibc's <sys/cdefs.h> has it (host) */
#define __always_inline		inline __attribute__((always_inline))
#endif

#define L1_CACHE_BYTES		64
#define __cacheline_aligned	__aligned(L1_CACHE_BYTES)
#define __read_mostly		__section(".data.read_mostly")

/*
 * READ_ONCE()/WRITE_ONCE(): one untorn access the compiler may not fuse,
 * repeat or move across other READ_ONCE()/WRITE_ONCE() calls.  That is
 * what orders a task against an NMI on the same CPU (no CPU fence needed).
 */
#define READ_ONCE(x)		(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v)	(*(volatile __typeof__(x) *)&(x) = (v))

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#define min(a, b)		((a) < (b) ? (a) : (b))
#define max(a, b)		((a) > (b) ? (a) : (b))
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
#define ALIGN_UP(x, a)		(((x) + (a) - 1) & ~((__typeof__(x))(a) - 1))

/*
 * Call a test hook: a function pointer that a test sets and that is NULL
 * otherwise, so that a hook costs one load and a not-taken branch.
 */
#define call_test_hook(hook, ...)					\
	do {								\
		typeof(hook) __hook = READ_ONCE(hook);			\
									\
		if (unlikely(__hook))					\
			__hook(__VA_ARGS__);				\
	} while (0)

#endif
