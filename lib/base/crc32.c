#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "base/crc32.h"

#define POLY 0xedb88320U

/* tab[0] is the table of one byte; tab[k][b] the CRC of byte b followed
 * by k zero bytes, so that eight bytes are one lookup each. */
static uint32_t tab[8][256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void
make_tables(void)
{
	uint32_t c;
	int i, j, k;

	for (i = 0; i < 256; i++) {
		c = (uint32_t)i;
		for (j = 0; j < 8; j++)
			c = c & 1 ? c >> 1 ^ POLY : c >> 1;
		tab[0][i] = c;
	}
	for (i = 0; i < 256; i++)
		for (k = 1; k < 8; k++)
			tab[k][i] = tab[k - 1][i] >> 8 ^
			    tab[0][tab[k - 1][i] & 0xff];
}

/* Four bytes as a little-endian word, whatever the machine's order (one
 * load where it is little-endian). */
static uint32_t
le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

uint32_t
sh_crc32(uint32_t crc, const void *p, size_t len)
{
	const unsigned char *b = p;
	uint32_t c = ~crc, lo, hi;

	if (len == 0)
		return crc;
	pthread_once(&once, make_tables);
	for (; len >= 8; b += 8, len -= 8) {
		lo = le32(b) ^ c;
		hi = le32(b + 4);
		c = tab[7][lo & 0xff] ^ tab[6][lo >> 8 & 0xff] ^
		    tab[5][lo >> 16 & 0xff] ^ tab[4][lo >> 24] ^
		    tab[3][hi & 0xff] ^ tab[2][hi >> 8 & 0xff] ^
		    tab[1][hi >> 16 & 0xff] ^ tab[0][hi >> 24];
	}
	while (len-- > 0)
		c = c >> 8 ^ tab[0][(c ^ *b++) & 0xff];
	return ~c;
}
