/*
 * What the fuzz targets share: the entry point, streams and scratch
 * files over an input, and the check that stops a run when the library
 * breaks a promise of its headers.  Every target is linked either with
 * libFuzzer (-fsanitize=fuzzer) or with driver.c, which replays files.
 */
#ifndef FUZZ_UTIL_H
#define FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Run the library on one input p[0..n) (not kept after the call); return
 * 0.  Anything the call allocates is freed before it returns. */
int LLVMFuzzerTestOneInput(const uint8_t *p, size_t n);

/*
 * A stream reading p[0..n) (n may be 0), which must outlive it; the
 * caller fcloses it.  Aborts when the C library cannot make one: a
 * fuzzer that silently skips inputs finds nothing.
 */
FILE *fz_memfile(const uint8_t *p, size_t n);

/*
 * A stream collecting what is written to it in *buf, *len, which are
 * set at each fflush and at fclose (open_memstream(3)); the caller
 * fcloses it, then frees *buf.  Aborts on failure.
 */
FILE *fz_sink(char **buf, size_t *len);

/* Write p[0..n) to the file name (no '/') of the process's scratch
 * directory, replacing it, and return its path, valid until the next
 * call.  Aborts on failure. */
const char *fz_file(const char *name, const void *p, size_t n);

/* The scratch directory: made under $TMPDIR (or /tmp) at the first
 * call, removed at exit once its files are gone.  Aborts on failure. */
const char *fz_dir(void);

/* Remove file name of the scratch directory, if there. */
void fz_unlink(const char *name);

/* Remove every file of the scratch directory (what a writer made). */
void fz_clean(void);

/*
 * The writers on the index of the scratch directory: delete the IDs
 * ids[0..n) and commit, merge and commit, expire what is older than 1
 * and commit; each must succeed or fail with a code of a bad or
 * missing index file (or SH_ENOMEM), never crash.  Then the files are
 * removed (fz_clean).
 */
void fz_writers(const char *const *ids, size_t n);

/*
 * A promise of the library that does not hold for this input: report
 * where and abort, so that the fuzzer keeps the input as a crash.
 */
#define FZ_CHECK(c) ((c) ? (void)0 : fz_fail(__FILE__, __LINE__, #c))
void fz_fail(const char *file, int line, const char *what);

/* Keep v from being optimised away (a sum of the bytes a target
 * touched). */
void fz_keep(uint64_t v);

/* The bytes of an input that a target reads as options: take the next
 * byte of *p (0 when none), moving *p and *n past it. */
unsigned fz_byte(const uint8_t **p, size_t *n);

/* Call line(s, len) for each line of p[0..n), without its newline. */
void fz_lines(const uint8_t *p, size_t n, void (*line)(const char *,
    size_t));

#endif
