// SPDX-License-Identifier: GPL-2.0
/*
 * A small vsnprintf: %d %i %u %x %X %p %s %c %%, with the flags '-', '0',
 * a width, and the length modifiers l, ll, z.  Enough for the kernel.
 */
#include "kernel/printk.h"

struct outbuf {
	char *buf;
	size_t size;
	size_t len;
};

static void put(struct outbuf *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void put_num(struct outbuf *o, u64 v, int base, bool neg, int width,
		    bool zero, bool left, bool upper)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[24];
	int n = 0;

	do {
		tmp[n++] = digits[v % base];
		v /= base;
	} while (v);
	int len = n + (neg ? 1 : 0);

	if (neg && zero)
		put(o, '-');
	if (!left)
		for (; width > len; width--)
			put(o, zero ? '0' : ' ');
	if (neg && !zero)
		put(o, '-');
	while (n)
		put(o, tmp[--n]);
	if (left)
		for (; width > len; width--)
			put(o, ' ');
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct outbuf o = { buf, size, 0 };

	for (; *fmt; fmt++) {
		if (*fmt != '%') {
			put(&o, *fmt);
			continue;
		}
		bool zero = false, left = false;
		int width = 0, lng = 0;

		for (fmt++; *fmt == '0' || *fmt == '-'; fmt++) {
			if (*fmt == '0')
				zero = true;
			else
				left = true;
		}
		for (; *fmt >= '0' && *fmt <= '9'; fmt++)
			width = width * 10 + (*fmt - '0');
		for (; *fmt == 'l' || *fmt == 'z'; fmt++)
			lng++;
		switch (*fmt) {
		case 'd':
		case 'i': {
			s64 v = lng ? va_arg(ap, s64) : va_arg(ap, int);

			put_num(&o, v < 0 ? -(u64)v : (u64)v, 10, v < 0,
				width, zero, left, false);
			break;
		}
		case 'u':
		case 'x':
		case 'X': {
			u64 v = lng ? va_arg(ap, u64) :
				      va_arg(ap, unsigned int);

			put_num(&o, v, *fmt == 'u' ? 10 : 16, false, width,
				zero, left, *fmt == 'X');
			break;
		}
		case 'p':
			put(&o, '0');
			put(&o, 'x');
			put_num(&o, (u64)va_arg(ap, void *), 16, false, 16,
				true, false, false);
			break;
		case 's': {
			const char *s = va_arg(ap, const char *);
			int n = 0;

			if (!s)
				s = "(null)";
			for (const char *p = s; *p; p++)
				n++;
			if (!left)
				for (; width > n; width--)
					put(&o, ' ');
			while (*s)
				put(&o, *s++);
			if (left)
				for (; width > n; width--)
					put(&o, ' ');
			break;
		}
		case 'c':
			put(&o, (char)va_arg(ap, int));
			break;
		case '%':
			put(&o, '%');
			break;
		case '\0':
			fmt--;
			break;
		default:
			put(&o, '%');
			put(&o, *fmt);
		}
	}
	if (o.size)
		o.buf[o.len < o.size ? o.len : o.size - 1] = '\0';
	return (int)o.len;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}
