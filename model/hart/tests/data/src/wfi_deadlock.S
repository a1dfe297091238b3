/* wfi with no interrupt enabled: nothing can ever wake the hart. */
#include "common.h"
        .section .text.init
        .globl _start
_start:
        nop
        .globl sleep
sleep:
        wfi
        EXIT(1)
        TOHOST_SECTION
