/* SPDX-License-Identifier: GPL-2.0 */
/* Error numbers, Linux's values; functions return them negated. */
#ifndef KERNEL_ERRNO_H
#define KERNEL_ERRNO_H

#define ENXIO		6	/* the CPU is offline */
#define EBUSY		16	/* CPU 0: the boot CPU never goes down */
#define EINVAL		22	/* no such CPU */
#define EOPNOTSUPP	95
#define EALREADY	114	/* already in the state asked for */

#endif
