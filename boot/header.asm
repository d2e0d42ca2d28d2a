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
