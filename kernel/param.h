/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel command-line options.  Each option is declared next to the
 * variable it sets and lands in the .kparams section; cmdline.c parses
 * "key=value" words against that table.  An unknown key, a value that
 * does not parse, or one outside [min, max] is an error that names it.
 */
#ifndef KERNEL_PARAM_H
#define KERNEL_PARAM_H

#include "kernel/compiler.h"

enum kparam_type {
	KPARAM_UINT,		/* unsigned int, range-checked */
	KPARAM_BOOL,		/* 0/1, on/off */
	KPARAM_STR,		/* const char *, points into the command line */
};

struct kparam {
	const char *name;
	enum kparam_type type;
	void *var;
	u64 min, max;
	const char *help;
};

#define __KPARAM(n, t, v, lo, hi, h)					\
	static const struct kparam __kparam_##v __used			\
	__section(".kparams") __aligned(8) = {				\
		.name = (n), .type = (t), .var = &(v),			\
		.min = (lo), .max = (hi), .help = (h) }

#define kparam_uint(name, var, lo, hi, help) \
	__KPARAM(name, KPARAM_UINT, var, lo, hi, help)
#define kparam_bool(name, var, help) \
	__KPARAM(name, KPARAM_BOOL, var, 0, 1, help)
#define kparam_str(name, var, help) \
	__KPARAM(name, KPARAM_STR, var, 0, 0, help)

/* Parse the command line into the kparams; false: an error was printed. */
bool cmdline_parse(const char *cmdline);

#endif
