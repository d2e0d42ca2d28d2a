; SPDX-License-Identifier: GPL-2.0
; The assembled AP trampoline (boot/trampoline.asm, nasm -f bin), carried
; in the kernel image and copied below 1 MiB by arch/x86/smpboot.c.
section .trampoline progbits alloc noexec nowrite align=16
	incbin "trampoline.bin"
