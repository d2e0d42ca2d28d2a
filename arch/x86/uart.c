// SPDX-License-Identifier: GPL-2.0
/* 16550 UART on COM1: the console.  Polled transmit, no interrupts. */
#include "arch/x86/asm.h"
#include "asm/arch.h"

#define COM1		0x3f8
#define UART_THR	0	/* transmit holding */
#define UART_IER	1	/* interrupt enable */
#define UART_FCR	2	/* FIFO control */
#define UART_LCR	3	/* line control */
#define UART_MCR	4	/* modem control */
#define UART_LSR	5	/* line status */
#define UART_LSR_THRE	0x20	/* transmit holding register empty */

void arch_console_init(void)
{
	outb(COM1 + UART_IER, 0x00);
	outb(COM1 + UART_LCR, 0x80);	/* DLAB on: set the divisor */
	outb(COM1 + 0, 0x01);		/* 115200 baud */
	outb(COM1 + 1, 0x00);
	outb(COM1 + UART_LCR, 0x03);	/* 8N1, DLAB off */
	outb(COM1 + UART_FCR, 0xc7);	/* FIFO on, cleared */
	outb(COM1 + UART_MCR, 0x03);
}

void arch_console_putc(char c)
{
	/* Bounded wait: a missing UART must not hang the kernel. */
	for (int i = 0; i < 100000; i++)
		if (inb(COM1 + UART_LSR) & UART_LSR_THRE)
			break;
	outb(COM1 + UART_THR, (u8)c);
}
