; SPDX-License-Identifier: GPL-2.0
; Multiboot2 header: GRUB looks for it in the first 32 KiB of the image.

section .multiboot2
align 8
mb2_header:
	dd 0xe85250d6			; magic
	dd 0				; architecture: i386 protected mode
	dd mb2_header_end - mb2_header	; header length
	dd -(0xe85250d6 + 0 + (mb2_header_end - mb2_header))
	; end tag
	align 8
	dw 0
	dw 0
	dd 8
mb2_header_end:

; PVH entry note (XEN_ELFNOTE_PHYS32_ENTRY = 18): lets QEMU boot this ELF
; directly with -kernel, skipping the BIOS and GRUB.  The harness uses it
; under KVM, where GRUB's real-mode code is very slow; the ISO keeps the
; multiboot2 path.  See pvh_start in boot/entry.asm.
extern pvh_start
section .note.Xen note alloc noexec nowrite align=4
	dd 4				; name size
	dd 4				; descriptor size
	dd 18				; XEN_ELFNOTE_PHYS32_ENTRY
	db "Xen", 0
	dd pvh_start
