/*
 * trace_control.c - software drives the trace encoder through its control
 * registers (RISC-V Trace Control Interface 1.0, "Trace Encoder Control
 * Interface"), which the SoCs map at 0x0300_0000 (etrace-hdl rvfi::soc_control,
 * the hart model's HartConfig::trace_encoder).
 *
 * Discovery: trTeImpl reads version 1.0 of component type 1 (an encoder),
 * trTeControl's trTeInstMode reads 7 (E-Trace). Then, three times: a traced
 * computation, trTeInstTracing cleared (trace off, the encoder stays active
 * and enabled), an untraced computation, trTeInstTracing set again (trace on:
 * the encoder starts again with a synchronisation).
 *
 * Built for PicoRV32 and SERV only (the SoCs have the registers).
 * Exit code: 0 when discovery reads what the encoder is, else the number of
 * the failed check.
 */
#include "runtime.h"

#define NOINLINE __attribute__((noipa))

#define TE_BASE 0x03000000u
#define TR_TE_CONTROL (*(volatile uint32_t *)(TE_BASE + 0x0))
#define TR_TE_IMPL (*(volatile uint32_t *)(TE_BASE + 0x4))
#define TR_TE_INST_TRACING 0x4u

/* A few hundred instructions of branches and calls. */
NOINLINE static uint32_t step(uint32_t x)
{
	return (x & 1) ? 3 * x + 1 : x >> 1;
}

NOINLINE static uint32_t collatz(uint32_t x)
{
	uint32_t n = 0;
	while (x != 1 && n < 500) {
		x = step(x);
		n++;
	}
	return n;
}

int main(void)
{
	uint32_t impl = TR_TE_IMPL;
	if ((impl & 0xF) != 1 || ((impl >> 4) & 0xF) != 0 || ((impl >> 8) & 0xF) != 1)
		return 1;
	uint32_t control = TR_TE_CONTROL;
	if (((control >> 4) & 7) != 7)
		return 2;
	uint32_t sum = 0;
	for (uint32_t i = 0; i < 3; i++) {
		sum += collatz(7 + i);
		TR_TE_CONTROL = control & ~TR_TE_INST_TRACING;
		sum += collatz(27 + i);
		TR_TE_CONTROL = control;
	}
	return sum == 0 ? 3 : 0;
}
