/*
 * workload.c - a larger mixed workload (about 1.5 million instructions).
 *
 * Trace features: long, realistic instruction streams for throughput,
 * compression and FIFO tests of the encoder: recursive calls and returns
 * (quicksort), tight loops with data-dependent branches (insertion sort,
 * bitwise CRC), multiply-heavy straight-line code (matrix multiply), byte
 * loads/stores and short loops (string functions), all itypes 0, 4, 5, 9,
 * 11 and 13, and the console (prints "workload ok").
 *
 * Parts, each with a known result computed on the host:
 *   1. 3000 pseudo-random ints (xorshift32): quicksort (recursive, Hoare
 *      partition) of all, insertion sort of the first 400, checks of order
 *      and of a position-weighted checksum;
 *   2. CRC-32 (IEEE 802.3, reflected, 0xEDB88320): bitwise and table-driven
 *      over 4 KiB of pseudo-random bytes, and the check value of "123456789"
 *      (0xCBF43926);
 *   3. 32x32 integer matrix multiply with a checksum of the product;
 *   4. strings: a text of pseudo-randomly chosen words, built with strcpy,
 *      measured with strlen, compared with strcmp, and its words counted.
 *
 * Exit code: 0 when every result matches, else the number of the failed check.
 */
#include "runtime.h"

#define NOINLINE __attribute__((noipa))

static uint32_t rng_state;

static uint32_t rng(void)
{
	uint32_t x = rng_state;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	rng_state = x;
	return x;
}

/* ---- 1. sorting ---- */
#define SORT_N 3000
#define INSERTION_N 400
static uint32_t sort_data[SORT_N];
static uint32_t insertion_data[INSERTION_N];

NOINLINE static void quicksort(uint32_t *a, int32_t lo, int32_t hi)
{
	while (lo < hi) {
		uint32_t pivot = a[lo + (hi - lo) / 2];
		int32_t i = lo - 1, j = hi + 1;
		for (;;) {
			do
				i++;
			while (a[i] < pivot);
			do
				j--;
			while (a[j] > pivot);
			if (i >= j)
				break;
			uint32_t t = a[i];
			a[i] = a[j];
			a[j] = t;
		}
		/* Recurse into the smaller part, loop on the larger one. */
		if (j - lo < hi - j) {
			quicksort(a, lo, j);
			lo = j + 1;
		} else {
			quicksort(a, j + 1, hi);
			hi = j;
		}
	}
}

NOINLINE static void insertion_sort(uint32_t *a, uint32_t n)
{
	for (uint32_t i = 1; i < n; i++) {
		uint32_t v = a[i];
		uint32_t j = i;
		while (j > 0 && a[j - 1] > v) {
			a[j] = a[j - 1];
			j--;
		}
		a[j] = v;
	}
}

NOINLINE static uint32_t weighted_sum(const uint32_t *a, uint32_t n)
{
	uint32_t s = 0;
	for (uint32_t i = 0; i < n; i++)
		s += a[i] * (i + 1);
	return s;
}

NOINLINE static int is_sorted(const uint32_t *a, uint32_t n)
{
	for (uint32_t i = 1; i < n; i++)
		if (a[i - 1] > a[i])
			return 0;
	return 1;
}

static void test_sorting(void)
{
	rng_state = 0x9e3779b9u;
	for (uint32_t i = 0; i < SORT_N; i++)
		sort_data[i] = rng() % 1000000u;
	for (uint32_t i = 0; i < INSERTION_N; i++)
		insertion_data[i] = sort_data[i];
	uint32_t unsorted_sum = weighted_sum(sort_data, SORT_N);
	CHECK_EQ(1, unsorted_sum, 0x0cc88636u);

	quicksort(sort_data, 0, SORT_N - 1);
	CHECK(2, is_sorted(sort_data, SORT_N));
	CHECK_EQ(3, weighted_sum(sort_data, SORT_N), 0xe7a4db41u);

	insertion_sort(insertion_data, INSERTION_N);
	CHECK(4, is_sorted(insertion_data, INSERTION_N));
	CHECK_EQ(5, weighted_sum(insertion_data, INSERTION_N), 0x85f23552u);
}

/* ---- 2. CRC-32 ---- */
#define CRC_BYTES 4096
static uint8_t crc_buffer[CRC_BYTES];
static uint32_t crc_table[256];

NOINLINE static uint32_t crc32_bitwise(const uint8_t *p, uint32_t n)
{
	uint32_t crc = 0xffffffffu;
	for (uint32_t i = 0; i < n; i++) {
		crc ^= p[i];
		for (uint32_t k = 0; k < 8; k++)
			crc = (crc & 1) ? (crc >> 1) ^ 0xedb88320u : crc >> 1;
	}
	return ~crc;
}

NOINLINE static void crc32_init_table(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;
		for (uint32_t k = 0; k < 8; k++)
			c = (c & 1) ? (c >> 1) ^ 0xedb88320u : c >> 1;
		crc_table[i] = c;
	}
}

NOINLINE static uint32_t crc32_table(const uint8_t *p, uint32_t n)
{
	uint32_t crc = 0xffffffffu;
	for (uint32_t i = 0; i < n; i++)
		crc = crc_table[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
	return ~crc;
}

static void test_crc(void)
{
	static const uint8_t check[9] = { '1', '2', '3', '4', '5', '6', '7', '8', '9' };
	CHECK_EQ(10, crc32_bitwise(check, 9), 0xcbf43926u);
	crc32_init_table();
	CHECK_EQ(11, crc32_table(check, 9), 0xcbf43926u);

	rng_state = 0x12345678u;
	for (uint32_t i = 0; i < CRC_BYTES; i++)
		crc_buffer[i] = (uint8_t)(rng() >> 11);
	uint32_t a = crc32_bitwise(crc_buffer, CRC_BYTES);
	uint32_t b = crc32_table(crc_buffer, CRC_BYTES);
	CHECK_EQ(12, a, b);
	CHECK_EQ(13, a, 0x7d21c894u);
}

/* ---- 3. matrix multiply ---- */
#define MAT_N 32
static int32_t mat_a[MAT_N][MAT_N], mat_b[MAT_N][MAT_N], mat_c[MAT_N][MAT_N];

NOINLINE static void matmul(int32_t c[MAT_N][MAT_N], int32_t a[MAT_N][MAT_N],
			    int32_t b[MAT_N][MAT_N])
{
	for (uint32_t i = 0; i < MAT_N; i++)
		for (uint32_t j = 0; j < MAT_N; j++) {
			int32_t s = 0;
			for (uint32_t k = 0; k < MAT_N; k++)
				s += a[i][k] * b[k][j];
			c[i][j] = s;
		}
}

static void test_matmul(void)
{
	for (uint32_t i = 0; i < MAT_N; i++)
		for (uint32_t j = 0; j < MAT_N; j++) {
			mat_a[i][j] = (int32_t)((i * 7 + j * 3) % 17) - 8;
			mat_b[i][j] = (int32_t)((i * 5 + j * 11) % 23) - 11;
		}
	matmul(mat_c, mat_a, mat_b);
	uint32_t sum = 0, trace = 0;
	for (uint32_t i = 0; i < MAT_N; i++) {
		trace += (uint32_t)mat_c[i][i];
		for (uint32_t j = 0; j < MAT_N; j++)
			sum = sum * 31u + (uint32_t)mat_c[i][j];
	}
	CHECK_EQ(20, trace, 177);
	CHECK_EQ(21, sum, 0x4fd17f06u);
}

/* ---- 4. strings ---- */
#define TEXT_WORDS 700
#define TEXT_MAX 8192
static char text[TEXT_MAX];
static char text_copy[TEXT_MAX];

static const char *const words[16] = {
	"the", "quick", "brown", "fox", "jumps", "over", "lazy", "dog",
	"trace", "encoder", "branch", "packet", "risc", "five", "a", "hart",
};

NOINLINE static uint32_t my_strlen(const char *s)
{
	const char *p = s;
	while (*p)
		p++;
	return (uint32_t)(p - s);
}

NOINLINE static char *my_strcpy(char *dst, const char *src)
{
	char *d = dst;
	while ((*d++ = *src++) != 0)
		;
	return dst;
}

NOINLINE static int my_strcmp(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return (int)(uint8_t)*a - (int)(uint8_t)*b;
}

NOINLINE static uint32_t count_words(const char *s, uint32_t *the_count)
{
	uint32_t n = 0, in_word = 0, thes = 0;
	for (; *s; s++) {
		char c = *s;
		if (c == ' ' || c == '\n') {
			in_word = 0;
		} else if (!in_word) {
			in_word = 1;
			n++;
			if (c == 't' && s[1] == 'h' && s[2] == 'e' &&
			    (s[3] == ' ' || s[3] == '\n' || s[3] == 0))
				thes++;
		}
	}
	*the_count = thes;
	return n;
}

static void test_strings(void)
{
	rng_state = 0xfeedbeefu;
	uint32_t len = 0;
	for (uint32_t w = 0; w < TEXT_WORDS; w++) {
		const char *word = words[rng() >> 28];
		my_strcpy(text + len, word);
		len += my_strlen(word);
		text[len++] = (w % 12 == 11) ? '\n' : ' ';
	}
	text[len] = 0;
	CHECK_EQ(30, my_strlen(text), len);
	CHECK_EQ(31, len, 3661);

	my_strcpy(text_copy, text);
	CHECK_EQ(32, my_strcmp(text, text_copy), 0);
	text_copy[len / 2] = '~';
	CHECK(33, my_strcmp(text, text_copy) < 0);
	CHECK(34, my_strcmp(text_copy, text) > 0);

	uint32_t thes = 0;
	CHECK_EQ(35, count_words(text, &thes), TEXT_WORDS);
	CHECK_EQ(36, thes, 42);
}

int main(void)
{
	test_sorting();
	test_crc();
	test_matmul();
	test_strings();
	puts("workload ok");
	return 0;
}
