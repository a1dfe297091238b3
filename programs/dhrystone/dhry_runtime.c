/*
 * dhry_runtime.c - what Dhrystone (dhry_1.c, dhry_2.c from the pip package
 * pythondata-cpu-picorv32, built by scripts/build-programs.sh) needs from a C
 * library, for the cores the lock-step co-simulation traces (issue 23):
 *
 *   - printf (%d, %s, %c, %%) formats into `console`, a buffer in RAM: the SoC
 *     has no UART yet and the host keeps no HTIF console for it; the
 *     formatting itself runs on the core, as it does with a UART;
 *   - strcpy, strcmp, malloc (a bump allocator over a static heap);
 *   - time() and insn() count their own calls instead of reading the cycle and
 *     instret counters: the core and the hart model must follow the same
 *     control flow, and the counters' values (which steer the printing of the
 *     results) differ between them. Dhrystone's timing figures are therefore
 *     meaningless here; the trace figures are measured by the co-simulation.
 */
#include <stdarg.h>
#include <stddef.h>

char console[4096];
static size_t console_used;

static void put(char c) {
	console[console_used % sizeof console] = c;
	console_used++;
}

static void put_unsigned(unsigned long v) {
	char digits[12];
	int n = 0;
	do {
		digits[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	while (n > 0)
		put(digits[--n]);
}

int printf(const char *format, ...) {
	va_list args;
	va_start(args, format);
	size_t start = console_used;
	for (const char *p = format; *p != '\0'; p++) {
		if (*p != '%' || p[1] == '\0') {
			put(*p);
			continue;
		}
		p++;
		switch (*p) {
		case 'd': {
			long v = va_arg(args, int);
			if (v < 0) {
				put('-');
				v = -v;
			}
			put_unsigned((unsigned long)v);
			break;
		}
		case 's':
			for (const char *s = va_arg(args, const char *); *s != '\0'; s++)
				put(*s);
			break;
		case 'c':
			put((char)va_arg(args, int));
			break;
		default:
			put(*p);
			break;
		}
	}
	va_end(args);
	return (int)(console_used - start);
}

char *strcpy(char *dst, const char *src) {
	char *d = dst;
	while ((*d++ = *src++) != '\0')
		;
	return dst;
}

int strcmp(const char *a, const char *b) {
	while (*a != '\0' && *a == *b) {
		a++;
		b++;
	}
	return (unsigned char)*a - (unsigned char)*b;
}

static char heap[1024];
static size_t heap_used;

void *malloc(size_t size) {
	size = (size + 7) & ~(size_t)7;
	if (heap_used + size > sizeof heap)
		return NULL;
	void *p = heap + heap_used;
	heap_used += size;
	return p;
}

static long calls;

long time(long *t) {
	(void)t;
	return calls += 1000;
}

long insn(long *t) {
	(void)t;
	return calls += 250;
}
