// SPDX-License-Identifier: GPL-2.0
/*
 * Frame allocator: one bit per 4 KiB frame over the usable RAM that the
 * boot loader reported, first-fit for contiguous runs.  kmalloc: power-of-
 * two size classes from 32 bytes to 2 KiB carved from pages, each with a
 * shared free list and a short list on every CPU; larger requests take
 * whole pages.  Every block carries a header with its class so kfree
 * needs no size.
 */
#include "kernel/boot.h"
#include "kernel/bug.h"
#include "kernel/mm.h"
#include "kernel/printk.h"
#include "kernel/lockdep.h"
#include "kernel/percpu.h"
#include "kernel/spinlock.h"

#define MAX_FRAMES	(4ULL << 30 >> 12)	/* we manage the low 4 GiB */

static u64 frame_bitmap[MAX_FRAMES / 64];	/* 1 = in use */
static size_t nr_frames, nr_free;
static size_t search_hint;
static struct spinlock frame_lock = SPINLOCK_INIT("frames");

static bool frame_used(size_t f)
{
	return (frame_bitmap[f / 64] >> (f % 64)) & 1;
}

static void frame_set(size_t f, bool used)
{
	if (used)
		frame_bitmap[f / 64] |= 1ULL << (f % 64);
	else
		frame_bitmap[f / 64] &= ~(1ULL << (f % 64));
}

void mm_init(struct boot_info *bi)
{
	/* Everything starts used; free what is RAM and above the kernel. */
	for (size_t i = 0; i < ARRAY_SIZE(frame_bitmap); i++)
		frame_bitmap[i] = ~0ULL;
	for (int i = 0; i < bi->nr_ram; i++) {
		u64 start = ALIGN_UP(bi->ram[i].base, PAGE_SIZE);
		u64 end = (bi->ram[i].base + bi->ram[i].len) & ~(PAGE_SIZE - 1);

		if (start < bi->reserved_end)
			start = bi->reserved_end;
		/* Keep the first MiB: the AP trampoline lives there. */
		if (start < 0x100000)
			start = 0x100000;
		if (end > MAX_FRAMES * PAGE_SIZE)
			end = MAX_FRAMES * PAGE_SIZE;
		for (u64 a = start; a < end; a += PAGE_SIZE) {
			frame_set(a / PAGE_SIZE, false);
			nr_free++;
			if (a / PAGE_SIZE + 1 > nr_frames)
				nr_frames = a / PAGE_SIZE + 1;
		}
	}
	if (!nr_free)
		panic("mm: the boot loader's memory map has no usable RAM");
	printk("mm: %zu KiB free in %d RAM ranges\n", nr_free * 4, bi->nr_ram);
}

void *page_alloc(size_t n)
{
	unsigned long flags;
	void *p = NULL;

	spin_lock_irqsave(&frame_lock, flags);
	for (size_t pass = 0; pass < 2 && !p; pass++) {
		size_t f = pass ? 0 : search_hint, run = 0;

		for (; f < nr_frames; f++) {
			run = frame_used(f) ? 0 : run + 1;
			if (run == n) {
				size_t first = f + 1 - n;

				for (size_t i = first; i <= f; i++)
					frame_set(i, true);
				nr_free -= n;
				search_hint = f + 1;
				p = (void *)(first * PAGE_SIZE);
				break;
			}
		}
	}
	spin_unlock_irqrestore(&frame_lock, flags);
	if (p)
		__builtin_memset(p, 0, n * PAGE_SIZE);
	return p;
}

void page_free(void *p, size_t n)
{
	size_t first = (u64)p / PAGE_SIZE;
	unsigned long flags;

	spin_lock_irqsave(&frame_lock, flags);
	for (size_t i = first; i < first + n; i++) {
		if (!frame_used(i))
			panic("page_free: frame %zx already free", i);
		frame_set(i, false);
	}
	nr_free += n;
	spin_unlock_irqrestore(&frame_lock, flags);
}

size_t mm_free_pages(void)
{
	return READ_ONCE(nr_free);
}

/* kmalloc */

#define KM_MAGIC	0x6b6d616cU	/* "kmal" */
/*
 * A CPU keeps up to KM_CPU_MAX free blocks of a class and trades with
 * the shared lists KM_BATCH at a time: a kfree() and the next kmalloc()
 * of its class on the same CPU take no lock, and a CPU that only frees
 * (RCU callbacks invoked where the blocks were not allocated) hands them
 * on in batches.  SLUB's per-CPU fast path, in miniature.
 */
#define KM_BATCH	16
#define KM_CPU_MAX	(2 * KM_BATCH)

struct km_header {
	u32 magic;
	u32 class;		/* size class, or KM_CLASSES for pages */
	u64 npages;		/* for page-sized blocks */
};

struct km_free {
	struct km_free *next;
};

static struct km_free *km_freelist[KM_CLASSES];
static struct spinlock km_lock = SPINLOCK_INIT("kmalloc");

/*
 * Move up to KM_BATCH blocks of class c from the shared list to this
 * CPU's, carving a fresh page when the shared list is empty.  IRQs off:
 * the per-CPU list is also used by this CPU's IRQ handlers.
 */
static void km_refill(struct km_cpu_cache *cc, u32 c)
{
	lockdep_assert_irqs_disabled();
	spin_lock(&km_lock);
	if (!km_freelist[c]) {
		char *page = page_alloc(1);
		size_t bsize = 1UL << (c + KM_MIN_SHIFT);

		for (size_t off = 0; page && off + bsize <= PAGE_SIZE;
		     off += bsize) {
			struct km_free *b = (void *)(page + off);

			b->next = km_freelist[c];
			km_freelist[c] = b;
		}
	}
	for (int i = 0; i < KM_BATCH && km_freelist[c]; i++) {
		struct km_free *b = km_freelist[c];

		km_freelist[c] = b->next;
		b->next = cc->head[c];
		cc->head[c] = b;
		cc->count[c]++;
	}
	spin_unlock(&km_lock);
}

/* Give KM_BATCH of this CPU's blocks of class c back.  IRQs off. */
static void km_drain(struct km_cpu_cache *cc, u32 c)
{
	lockdep_assert_irqs_disabled();
	spin_lock(&km_lock);
	for (int i = 0; i < KM_BATCH && cc->head[c]; i++) {
		struct km_free *b = cc->head[c];

		cc->head[c] = b->next;
		cc->count[c]--;
		b->next = km_freelist[c];
		km_freelist[c] = b;
	}
	spin_unlock(&km_lock);
}

void *kmalloc(size_t size)
{
	size_t total = size + sizeof(struct km_header);
	struct km_cpu_cache *cc;
	struct km_header *h;
	unsigned long flags;
	u32 c = 0;

	while (c < KM_CLASSES && (1UL << (c + KM_MIN_SHIFT)) < total)
		c++;
	if (c == KM_CLASSES) {
		size_t np = DIV_ROUND_UP(total, PAGE_SIZE);

		h = page_alloc(np);
		if (!h)
			return NULL;
		h->magic = KM_MAGIC;
		h->class = KM_CLASSES;
		h->npages = np;
		return h + 1;
	}
	/* IRQs off: this CPU's list, and no migration between the two. */
	local_irq_save(flags);
	cc = &this_cpu()->km;
	if (!cc->head[c])
		km_refill(cc, c);
	h = (struct km_header *)cc->head[c];
	if (h) {
		cc->head[c] = cc->head[c]->next;
		cc->count[c]--;
	}
	local_irq_restore(flags);
	if (!h)
		return NULL;
	__builtin_memset(h, 0, 1UL << (c + KM_MIN_SHIFT));
	h->magic = KM_MAGIC;
	h->class = c;
	return h + 1;
}

/* p's header, or a panic naming caller if p is no live kmalloc() block. */
static struct km_header *km_header_of(const void *p, const char *caller)
{
	struct km_header *h = (struct km_header *)p - 1;

	if (h->magic != KM_MAGIC || h->class > KM_CLASSES)
		panic("%s(%p): not a kmalloc block (double free?)", caller, p);
	return h;
}

size_t kmalloc_block_size(const void *p)
{
	const struct km_header *h = km_header_of(p, __func__);

	return h->class == KM_CLASSES ? h->npages * PAGE_SIZE :
					1UL << (h->class + KM_MIN_SHIFT);
}

void kfree(void *p)
{
	struct km_cpu_cache *cc;
	struct km_header *h;
	unsigned long flags;
	u32 class;

	if (!p)
		return;
	h = km_header_of(p, __func__);
	h->magic = 0;
	class = h->class;
	if (class == KM_CLASSES) {
		page_free(h, h->npages);
		return;
	}
	local_irq_save(flags);
	cc = &this_cpu()->km;
	/*
	 * The link overwrites the header, class and all: the class was
	 * read first.  Read after the store, it was the link's upper half
	 * (0): the block was linked to its own class's list but put on
	 * class 0's, the two lists shared a tail, and a block could be
	 * handed out twice.
	 */
	((struct km_free *)h)->next = cc->head[class];
	cc->head[class] = (struct km_free *)h;
	if (++cc->count[class] > KM_CPU_MAX)
		km_drain(cc, class);
	local_irq_restore(flags);
}
