/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KERNEL_SORT_H
#define KERNEL_SORT_H

#include "kernel/types.h"

/* In-place ascending insertion sort: for the small arrays of statistics. */
static inline void sort_u64(u64 *a, int n)
{
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && a[j - 1] > a[j]; j--) {
			u64 t = a[j];

			a[j] = a[j - 1];
			a[j - 1] = t;
		}
}

#endif
