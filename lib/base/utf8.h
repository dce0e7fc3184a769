/*
 * UTF-8 decoding and encoding (RFC 3629).
 */
#ifndef SH_UTF8_H
#define SH_UTF8_H

#include <stddef.h>
#include <stdint.h>

#define SH_UTF8_BAD 0xFFFDu	/* replacement for an invalid sequence */

/*
 * Decode one code point from p[0..len), len >= 1.  Store it in *cp and
 * return the number of bytes consumed (1..4).  An invalid, overlong,
 * surrogate or truncated sequence consumes exactly one byte and yields
 * SH_UTF8_BAD with *bad set to 1 (else *bad is left alone).
 */
size_t sh_utf8_decode(const unsigned char *p, size_t len, uint32_t *cp,
    int *bad);

/* Encode cp (<= 0x10FFFF, not a surrogate) into out; return 1..4. */
size_t sh_utf8_encode(uint32_t cp, char out[4]);

#endif
