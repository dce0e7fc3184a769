/*
 * CRC-32 as gzip, zlib and PNG compute it (ISO 3309, ITU-T V.42): the
 * reflected polynomial 0xEDB88320, the register started at all ones and
 * inverted at the end, so that the CRC of no bytes is 0 and the CRC of
 * "123456789" is 0xcbf43926.  Incremental: the CRC of a stream is
 * sh_crc32 of each piece in turn, from 0, whatever the cut.  Input is
 * read as bytes: the result is the same on every machine and byte order.
 * Table-driven, eight bytes a step (slicing-by-8: 8 KiB of tables, made
 * once, at the first call, safe from several threads).
 */
#ifndef SH_CRC32_H
#define SH_CRC32_H

#include <stddef.h>
#include <stdint.h>

/* The CRC-32 of the bytes whose CRC is crc (0: none yet) followed by
 * p[0..len).  p may be NULL when len is 0. */
uint32_t sh_crc32(uint32_t crc, const void *p, size_t len);

#endif
