// SPDX-License-Identifier: GPL-2.0
/*
 * /init of the arm64 test initramfs: what linux/initramfs-init does on
 * x86 with busybox, as one static program (Debian ships busybox-static
 * for the host's architecture only).  rcutorture is built in and runs at
 * boot with the rcutorture.* parameters; it powers the machine off itself
 * (rcutorture.shutdown_secs).  Each nohz_full= CPU gets a user-space
 * spinner that makes no system calls, so that the CPU sits in user mode,
 * an extended quiescent state.  Built by linux-test.sh with
 * aarch64-linux-gnu-gcc -static.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <unistd.h>

static void spin_on(int cpu)
{
	cpu_set_t set;

	if (fork() != 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		_exit(1);
	for (;;)
		__asm__ volatile("" ::: "memory");
}

int main(void)
{
	char buf[4096], *p, *tok;
	long secs = 30;
	FILE *f;
	int a, b, c;

	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	f = fopen("/proc/cmdline", "r");
	if (f && fgets(buf, sizeof(buf), f)) {
		p = strstr(buf, "rcutorture.shutdown_secs=");
		if (p)
			secs = strtol(p + strlen("rcutorture.shutdown_secs="),
				      NULL, 10);
	}
	if (f)
		fclose(f);
	f = fopen("/sys/devices/system/cpu/nohz_full", "r");
	if (f && fgets(buf, sizeof(buf), f) && strncmp(buf, "(null)", 6)) {
		for (tok = strtok(buf, ",\n"); tok; tok = strtok(NULL, ",\n")) {
			if (sscanf(tok, "%d-%d", &a, &b) != 2)
				b = a = atoi(tok);
			for (c = a; c <= b; c++) {
				spin_on(c);
				printf("dynrcu-init: user-space spinner on nohz_full CPU %d\n",
				       c);
			}
		}
	}
	if (f)
		fclose(f);
	printf("dynrcu-init: %ld CPUs online; rcutorture runs built in\n",
	       sysconf(_SC_NPROCESSORS_ONLN));
	fflush(stdout);
	sleep(secs + 60);
	printf("dynrcu-init: no power-off from rcutorture after %ld s\n",
	       secs + 60);
	fflush(stdout);
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}
