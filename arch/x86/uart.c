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
#define UART_LSR_TEMT	0x40	/* FIFO and shift register both empty */

/*
 * How many status reads a character may wait for room.  QEMU holds the
 * byte in its FIFO while the host side of the console (a pipe to the
 * harness) is full, and empties it when the reader catches up: on a
 * loaded host that can take a second or more.  A character written to a
 * full FIFO is dropped, so the bound is long (several seconds of status
 * reads under TCG); it only keeps a missing UART from hanging us.
 */
#define UART_WAIT_LOOPS	10000000

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
	for (int i = 0; i < UART_WAIT_LOOPS; i++)
		if (inb(COM1 + UART_LSR) & UART_LSR_THRE)
			break;
	outb(COM1 + UART_THR, (u8)c);
}

void arch_console_flush(void)
{
	/*
	 * Until the last byte has left the UART: leaving QEMU with bytes
	 * still in its FIFO would lose them, the run's last lines (the
	 * error that says why it stopped).
	 */
	for (int i = 0; i < UART_WAIT_LOOPS; i++)
		if (inb(COM1 + UART_LSR) & UART_LSR_TEMT)
			break;
}
