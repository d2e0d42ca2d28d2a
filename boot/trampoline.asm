; SPDX-License-Identifier: GPL-2.0
; AP trampoline, copied to TRAMPOLINE_BASE (0x8000, below 1 MiB) and run by
; each application processor after INIT-SIPI-SIPI: real mode -> 32-bit
; protected mode -> long mode on the boot CPU's page tables -> the C entry
; named in the bootstrap arguments.  Kept minimal on purpose: real-mode
; code is slow to emulate.
;
; Bootstrap arguments at TRAMPOLINE_BASE + ARGS_OFFSET; this layout must
; match struct ap_boot_args in arch/x86/smpboot.c:
;   +0  u64 cr3      page-table root to load
;   +8  u64 stack    top of this AP's kernel stack
;   +16 u64 entry    C function: void ap_entry(u32 cpu)
;   +24 u32 cpu      logical CPU number
;   +28 u32 alive    set by the C side once it runs (the handshake)

bits 16
org 0x8000

ARGS_OFFSET equ 0x800
args equ 0x8000 + ARGS_OFFSET

start16:
	cli
	xor	ax, ax
	mov	ds, ax
	lgdt	[gdt_ptr]
	mov	eax, cr0
	or	eax, 1			; PE
	mov	cr0, eax
	jmp	dword 0x08:start32

bits 32
start32:
	mov	ax, 0x10
	mov	ds, ax
	mov	es, ax
	mov	ss, ax
	mov	eax, cr4
	or	eax, 1 << 5		; PAE
	mov	cr4, eax
	mov	eax, [args + 0]
	mov	cr3, eax
	mov	ecx, 0xc0000080		; EFER.LME
	rdmsr
	or	eax, 1 << 8
	wrmsr
	mov	eax, cr0
	or	eax, (1 << 31) | (1 << 16)	; PG, WP
	mov	cr0, eax
	jmp	0x18:start64

bits 64
start64:
	mov	ax, 0x10
	mov	ds, ax
	mov	es, ax
	mov	ss, ax
	mov	rsp, [args + 8]
	mov	edi, [args + 24]
	mov	rax, [args + 16]
	xor	ebp, ebp
	call	rax
.hang:
	cli
	hlt
	jmp	.hang

align 8
gdt:
	dq 0
	dq 0x00cf9a000000ffff		; 0x08: 32-bit code
	dq 0x00cf92000000ffff		; 0x10: data
	dq 0x00af9a000000ffff		; 0x18: 64-bit code
gdt_ptr:
	dw gdt_ptr - gdt - 1
	dd gdt

times ARGS_OFFSET - ($ - $$) db 0
	times 32 db 0			; the bootstrap arguments
