// SPDX-License-Identifier: GPL-2.0
/*
 * printk and the console.  Normal contexts serialise on console_lock with
 * IRQs off.  NMI context must never take a lock (the NMI may have
 * interrupted the holder), so it appends to a per-CPU single-producer
 * ring instead; printk_flush_nmi() drains the rings under the lock.
 */
#include "asm/arch.h"
#include "kernel/barrier.h"
#include "kernel/preempt.h"
#include "kernel/printk.h"
#include "kernel/spinlock.h"
#include "kernel/time.h"

#define LINE_MAX	512
#define NMI_BUF_SIZE	4096

static struct spinlock console_lock = SPINLOCK_INIT("console");

struct nmi_buf {
	u32 head;		/* written by the NMI on this CPU only */
	u32 tail;		/* advanced by the flusher (console_lock) */
	char data[NMI_BUF_SIZE];
} __cacheline_aligned;

/* Present CPUs' only (printk_prepare_cpu()); an NMI before that drops. */
static struct nmi_buf *nmi_bufs[NR_CPUS];
/*
 * Appends to any ring, and the count the last flush drained up to: a
 * flush with nothing to drain (the idle loop's, on every pass) takes no
 * lock.
 */
static u64 nmi_appended, nmi_flushed;

/*
 * NMI context for printk: inside an NMI handler, or in nmi_enter()/
 * nmi_exit() around it, where in_nmi() is not yet (or no longer) true.
 */
static bool printk_in_nmi(void)
{
	return in_nmi() || this_cpu_read(nmi_path);
}

static void console_write(const char *s)
{
	for (; *s; s++) {
		if (*s == '\n')
			arch_console_putc('\r');
		arch_console_putc(*s);
	}
}

static int format_line(char *buf, size_t size, const char *fmt, va_list ap)
{
	u64 ns = ktime_get_ns();
	int n = snprintf(buf, size, "[%5u.%06u] cpu%d: ",
			 (unsigned int)(ns / NSEC_PER_SEC),
			 (unsigned int)(ns % NSEC_PER_SEC / NSEC_PER_USEC),
			 raw_smp_processor_id());

	if (n < (int)size)
		vsnprintf(buf + n, size - n, fmt, ap);
	return n;
}

static void nmi_buf_append(const char *s)
{
	struct nmi_buf *b = nmi_bufs[raw_smp_processor_id()];
	u32 head;

	if (!b)
		return;
	head = b->head;

	for (; *s; s++) {
		/* Drop what does not fit: an NMI cannot wait for space. */
		if (head - READ_ONCE(b->tail) >= NMI_BUF_SIZE)
			break;
		b->data[head % NMI_BUF_SIZE] = *s;
		head++;
	}
	/* The flusher reads data[] only up to head: publish data first. */
	smp_store_release(&b->head, head);
	/* Fully ordered: after the head store, which a flush that sees the
	 * new count reads next. */
	__atomic_add_fetch(&nmi_appended, 1, __ATOMIC_SEQ_CST);
}

static void __flush_nmi_locked(void)
{
	char c[2] = { 0, 0 };
	/* Acquire: the rings' heads below are at least as new as this. */
	u64 appended = smp_load_acquire(&nmi_appended);
	int cpu;

	if (appended == nmi_flushed)
		return;
	nmi_flushed = appended;

	for_each_present_cpu(cpu) {
		struct nmi_buf *b = nmi_bufs[cpu];
		u32 head = smp_load_acquire(&b->head);

		while (b->tail != head) {
			c[0] = b->data[b->tail % NMI_BUF_SIZE];
			console_write(c);
			b->tail++;
		}
	}
}

void printk_prepare_cpu(int cpu)
{
	nmi_bufs[cpu] = percpu_alloc(cpu, sizeof(struct nmi_buf));
}

void printk_flush_nmi(void)
{
	unsigned long flags;

	if (printk_in_nmi())
		return;
	/* Racy peek: a miss is drained by the next flush or printk. */
	if (READ_ONCE(nmi_appended) == READ_ONCE(nmi_flushed))
		return;
	spin_lock_irqsave(&console_lock, flags);
	__flush_nmi_locked();
	spin_unlock_irqrestore(&console_lock, flags);
}

/*
 * At exit (arch_exit(), after a panic perhaps): the lock may be held by
 * this CPU, interrupted by the NMI that is exiting, or by a CPU that will
 * never release it.  Try it for a bounded time, then drain without it:
 * a garbled line beats losing the NMI's report and the exit status.
 */
void printk_flush_nmi_emergency(void)
{
	u64 end = ktime_get_ns() + 100 * NSEC_PER_MSEC;

	while (!spin_trylock(&console_lock)) {
		if (ktime_get_ns() > end) {
			__flush_nmi_locked();
			return;
		}
		arch_cpu_relax();
	}
	__flush_nmi_locked();
	spin_unlock(&console_lock);
}

static void vprintk_raw(bool prefix, const char *fmt, va_list ap)
{
	char line[LINE_MAX];
	unsigned long flags;

	if (prefix)
		format_line(line, sizeof(line), fmt, ap);
	else
		vsnprintf(line, sizeof(line), fmt, ap);
	if (printk_in_nmi()) {
		nmi_buf_append(line);
		return;
	}
	spin_lock_irqsave(&console_lock, flags);
	__flush_nmi_locked();
	console_write(line);
	spin_unlock_irqrestore(&console_lock, flags);
}

void printk(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintk_raw(true, fmt, ap);
	va_end(ap);
}

void cprintf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintk_raw(false, fmt, ap);
	va_end(ap);
}

/* For panic: write without the lock, which the dying CPU may hold. */
void console_emergency_write(const char *s)
{
	console_write(s);
}
