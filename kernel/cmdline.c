// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel command line: whitespace-separated key=value words, matched
 * against the .kparams table (kernel/param.h).  Nothing is silently
 * ignored: an unknown key, a missing value, a value that does not parse
 * or lies outside its range prints an error naming it, and the boot
 * fails.
 */
#include "kernel/bug.h"
#include "kernel/param.h"
#include "kernel/printk.h"
#include "kernel/string.h"

#define CMDLINE_MAX	1024

extern const struct kparam __kparams_start[], __kparams_end[];
static char cmdline_buf[CMDLINE_MAX];

static bool parse_u64(const char *s, u64 *out)
{
	u64 v = 0;
	int base = 10;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!*s)
		return false;
	for (; *s; s++) {
		int d;

		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			return false;
		if (v > (~0ULL - d) / base)
			return false;	/* overflow */
		v = v * base + d;
	}
	*out = v;
	return true;
}

static const struct kparam *find_param(const char *key)
{
	for (const struct kparam *p = __kparams_start; p < __kparams_end; p++)
		if (!strcmp(p->name, key))
			return p;
	return NULL;
}

static bool set_param(const struct kparam *p, char *val)
{
	u64 v;

	switch (p->type) {
	case KPARAM_STR:
		*(const char **)p->var = val;
		return true;
	case KPARAM_BOOL:
		if (!strcmp(val, "on") || !strcmp(val, "1") || !strcmp(val, "y"))
			v = 1;
		else if (!strcmp(val, "off") || !strcmp(val, "0") ||
			 !strcmp(val, "n"))
			v = 0;
		else {
			printk("cmdline: error: %s=%s: expected on or off\n",
			       p->name, val);
			return false;
		}
		*(unsigned int *)p->var = (unsigned int)v;
		return true;
	case KPARAM_UINT:
		if (!parse_u64(val, &v)) {
			printk("cmdline: error: %s=%s: not a number\n", p->name,
			       val);
			return false;
		}
		if (v < p->min || v > p->max) {
			printk("cmdline: error: %s=%s: out of range [%lu, %lu]\n",
			       p->name, val, p->min, p->max);
			return false;
		}
		*(unsigned int *)p->var = (unsigned int)v;
		return true;
	}
	return false;
}

static void list_params(void)
{
	printk("cmdline: known options:\n");
	for (const struct kparam *p = __kparams_start; p < __kparams_end; p++)
		printk("cmdline:   %s: %s\n", p->name, p->help);
}

/* Returns false if any word was bad; every bad word is reported. */
bool cmdline_parse(const char *cmdline)
{
	bool ok = true;
	char *s;

	if (strlen(cmdline) >= CMDLINE_MAX) {
		printk("cmdline: error: longer than %d characters\n",
		       CMDLINE_MAX - 1);
		return false;
	}
	strlcpy(cmdline_buf, cmdline, sizeof(cmdline_buf));
	printk("cmdline: '%s'\n", cmdline_buf);
	s = cmdline_buf;
	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		char *word = s;

		while (*s && *s != ' ' && *s != '\t')
			s++;
		if (*s)
			*s++ = '\0';
		char *eq = strchr(word, '=');

		if (!eq || eq == word) {
			printk("cmdline: error: '%s': expected key=value\n", word);
			ok = false;
			continue;
		}
		*eq = '\0';
		const struct kparam *p = find_param(word);

		if (!p) {
			printk("cmdline: error: unknown option '%s'\n", word);
			ok = false;
			continue;
		}
		if (!eq[1]) {
			printk("cmdline: error: %s=: empty value\n", word);
			ok = false;
			continue;
		}
		if (!set_param(p, eq + 1))
			ok = false;
	}
	if (!ok)
		list_params();
	return ok;
}
