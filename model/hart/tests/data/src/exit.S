/* Smallest program: three instructions, then exit with code 7. */
#include "common.h"
        .section .text.init
        .globl _start
_start:
        li s0, 1
        addi s0, s0, 2
        .globl do_exit
do_exit:
        EXIT(7)
        TOHOST_SECTION
