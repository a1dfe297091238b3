/* An illegal instruction with mtvec = 0: the handler address is not mapped, so every
   fetch there faults again. */
#include "common.h"
        .section .text.init
        .globl _start
_start:
        .word 0x00004073
        TOHOST_SECTION
