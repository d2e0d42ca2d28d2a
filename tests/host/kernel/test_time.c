// SPDX-License-Identifier: GPL-2.0
#include "kernel/time.h"
#include "tests/host/check.h"

/*
 * mul_u64_div_u64() (kernel/time.h) at the edges the time conversions
 * reach: arch_cycles_to_ns() with a TSC of 100 MHz to 10 GHz (what
 * calibrate.c accepts), arch_timer_oneshot() with up to 60 s and a LAPIC
 * timer of 1 MHz to 10 GHz.  Exact against a 128-bit reference; and the
 * plain product, which the code used to compute, is shown to overflow
 * there.
 */
static void test_time_conversions(void)
{
	static const struct { u64 mul, div; } conv[] = {
		{ 1000000000ULL, 100000000ULL },	/* cycles->ns, 100 MHz */
		{ 1000000000ULL, 2095977000ULL },	/* cycles->ns, TCG */
		{ 1000000000ULL, 10000000000ULL },	/* cycles->ns, 10 GHz */
		{ 1000000ULL, 1000000000ULL },		/* ns->count, 1 MHz */
		{ 62500000ULL, 1000000000ULL },		/* ns->count, QEMU */
		{ 10000000000ULL, 1000000000ULL },	/* ns->count, 10 GHz */
	};
	const u64 a[] = { 0, 1, 999999999ULL, 1000000000ULL,
			  9999999999ULL, 60000000000ULL, 1ULL << 32,
			  1ULL << 40, 1ULL << 50, 1ULL << 55 };

	cur_test = "time_conversions";
	for (unsigned int i = 0; i < sizeof(conv) / sizeof(conv[0]); i++) {
		for (unsigned int j = 0; j < sizeof(a) / sizeof(a[0]); j++) {
			unsigned __int128 want = (unsigned __int128)a[j] *
						 conv[i].mul / conv[i].div;

			if (want >> 64)
				continue;	/* beyond any uptime or timer */
			CHECK(mul_u64_div_u64(a[j], conv[i].mul, conv[i].div) ==
			      (u64)want, "%llu * %llu / %llu",
			      (unsigned long long)a[j],
			      (unsigned long long)conv[i].mul,
			      (unsigned long long)conv[i].div);
		}
	}
	/* The old one-shot arithmetic, 60 s at 10 GHz: wrong. */
	CHECK(60000000000ULL * 10000000000ULL / 1000000000ULL !=
	      mul_u64_div_u64(60000000000ULL, 10000000000ULL, 1000000000ULL),
	      "the plain product should overflow here");
	/* The old clock at a 20 GHz TSC (the bound calibrate.c had). */
	CHECK((u64)(19999999999ULL * 1000000000ULL / 20000000000ULL) !=
	      (u64)((unsigned __int128)19999999999ULL * 1000000000ULL /
		    20000000000ULL),
	      "(tsc_hz - 1) * 1e9 should overflow at 20 GHz");
}

void host_test_time(void)
{
	test_time_conversions();
}
