; SPDX-License-Identifier: GPL-2.0
; Boot CPU entry: GRUB leaves us in 32-bit protected mode, paging off,
; eax = multiboot2 magic, ebx = physical address of the boot information.
; We build identity page tables for the low 4 GiB (2 MiB pages; the LAPIC
; and IOAPIC live just under 4 GiB), turn on long mode and call the C
; entry kernel_main(magic, mbi) on a boot stack.  kernel/ replaces these
; page tables with its own once the frame allocator is up.

bits 32
section .boot.text progbits alloc exec nowrite

extern kernel_main
extern __bss_start, __bss_end
global _start
global pvh_start
global boot_pml4

PVH_MAGIC equ 0x336ec578	; hvm_start_info.magic

; PVH entry (QEMU -kernel): 32-bit protected mode, paging off, ebx =
; physical address of struct hvm_start_info.  Hand it to the common path
; with its magic in eax, the way multiboot2 passes its own.
pvh_start:
	mov	eax, PVH_MAGIC
	jmp	_start

_start:
	cli
	mov	esp, boot_stack_top
	mov	edi, eax		; keep magic and mbi for kernel_main
	mov	esi, ebx

	; Zero the BSS now, before anything (page tables included) lives there.
	; The boot stack is in the BSS too, so keep magic in ebp, not on it.
	mov	ebp, edi
	mov	edi, __bss_start
	mov	ecx, __bss_end
	sub	ecx, edi
	xor	eax, eax
	cld
	rep stosb
	mov	edi, ebp

	; PML4[0] -> PDPT, PDPT[0..3] -> four page directories of 2 MiB pages.
	mov	eax, boot_pdpt
	or	eax, 3			; present, writable
	mov	[boot_pml4], eax
	mov	ecx, 0
.pdpt:
	mov	eax, ecx
	shl	eax, 12
	add	eax, boot_pd
	or	eax, 3
	mov	[boot_pdpt + ecx * 8], eax
	inc	ecx
	cmp	ecx, 4
	jne	.pdpt

	; 2048 PDEs map 0..4 GiB; the top GiB holds MMIO: cache-disable it.
	mov	ecx, 0
.pd:
	mov	eax, ecx
	shl	eax, 21
	or	eax, 0x83		; present, writable, 2 MiB page
	cmp	ecx, 1536
	jb	.cached
	or	eax, 0x18		; PWT | PCD for the MMIO GiB
.cached:
	mov	[boot_pd + ecx * 8], eax
	mov	edx, ecx
	shr	edx, 11			; high dword: bits 32+ of the address
	mov	[boot_pd + ecx * 8 + 4], edx
	inc	ecx
	cmp	ecx, 2048
	jne	.pd

	mov	eax, cr4
	or	eax, 1 << 5		; PAE
	mov	cr4, eax
	mov	eax, boot_pml4
	mov	cr3, eax
	mov	ecx, 0xc0000080		; EFER
	rdmsr
	or	eax, 1 << 8		; LME
	wrmsr
	mov	eax, cr0
	or	eax, (1 << 31) | (1 << 16) | 1	; PG, WP, PE
	mov	cr0, eax

	lgdt	[boot_gdt_ptr]
	jmp	0x08:long_entry

bits 64
long_entry:
	mov	ax, 0x10
	mov	ds, ax
	mov	es, ax
	mov	ss, ax
	xor	eax, eax
	mov	fs, ax
	mov	gs, ax
	mov	rsp, boot_stack_top
	xor	ebp, ebp		; terminate frame-pointer backtraces
	; edi = magic, esi = mbi (zero-extended by the 32-bit moves above)
	call	kernel_main
.hang:
	cli
	hlt
	jmp	.hang

section .boot.data progbits alloc noexec write
align 16
boot_gdt:
	dq 0
	dq 0x00af9a000000ffff		; 0x08: 64-bit code
	dq 0x00cf92000000ffff		; 0x10: data
boot_gdt_ptr:
	dw boot_gdt_ptr - boot_gdt - 1
	dq boot_gdt

section .bss
align 4096
boot_pml4:	resb 4096
boot_pdpt:	resb 4096
boot_pd:	resb 4096 * 4
global boot_stack_top
boot_stack:	resb 16384
boot_stack_top:
