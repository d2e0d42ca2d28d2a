/* SPDX-License-Identifier: GPL-2.0 */
/* Fixed-width types for freestanding code. */
#ifndef KERNEL_TYPES_H
#define KERNEL_TYPES_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdarg.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

#ifndef LONG_MAX	/* <limits.h> has it in the host build */
#define LONG_MAX	((long)(~0UL >> 1))
#endif

#endif
