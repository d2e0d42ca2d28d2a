// SPDX-License-Identifier: GPL-2.0
/* The string functions the compiler and the kernel expect. */
#include "kernel/string.h"

void *memset(void *s, int c, size_t n)
{
	/* c in every byte of a word: 0x01 in each byte, times c. */
	u64 word = 0x0101010101010101ULL * (u8)c;
	u8 *p = s;

	/*
	 * Bytes up to an 8-byte boundary, whole words, then the tail.
	 * Why words: under TCG each store is a handful of host
	 * instructions, so 64 bytes are 8 stores instead of 64.  The u64
	 * store through a u8 pointer is legal here: the kernel builds
	 * -fno-strict-aliasing.
	 */
	while (n && ((uintptr_t)p & 7)) {
		*p++ = (u8)c;
		n--;
	}
	for (; n >= 8; n -= 8, p += 8)
		*(u64 *)p = word;
	while (n--)
		*p++ = (u8)c;
	return s;
}

void *memcpy(void *d, const void *s, size_t n)
{
	u8 *dp = d;
	const u8 *sp = s;

	while (n--)
		*dp++ = *sp++;
	return d;
}

void *memmove(void *d, const void *s, size_t n)
{
	u8 *dp = d;
	const u8 *sp = s;

	if (dp < sp)
		return memcpy(d, s, n);
	while (n--)
		dp[n] = sp[n];
	return d;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const u8 *x = a, *y = b;

	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x - *y;
	return 0;
}

size_t strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		if (*a != *b)
			return (u8)*a - (u8)*b;
		if (!*a)
			break;
	}
	return 0;
}

int strcmp(const char *a, const char *b)
{
	return strncmp(a, b, (size_t)-1);
}

char *strchr(const char *s, int c)
{
	for (; *s; s++)
		if (*s == (char)c)
			return (char *)s;
	return c ? NULL : (char *)s;
}

size_t strlcpy(char *d, const char *s, size_t n)
{
	size_t len = strlen(s);

	if (n) {
		size_t c = len < n - 1 ? len : n - 1;

		memcpy(d, s, c);
		d[c] = '\0';
	}
	return len;
}
