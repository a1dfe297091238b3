/* The one declaration Dhrystone (dhry.h) needs from <stdio.h>: the program is built
 * freestanding against programs/dhrystone/dhry_runtime.c (scripts/build-programs.sh). */
#ifndef DHRY_STDIO_H
#define DHRY_STDIO_H
int printf(const char *format, ...);
#endif
