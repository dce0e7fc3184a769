/*
 * The operands of the programs: files read in order, "-" or none at all
 * meaning standard input; a file that cannot be read is reported and the
 * others are still read.
 */
#ifndef INPUT_H
#define INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/fpval.h"

/*
 * Open operand name for reading: stdin for "-", with *shown set to the
 * name diagnostics give it ("<stdin>" for stdin).  A file that cannot be
 * opened is reported (warn) and NULL returned.  A compressed operand
 * (gzip, bzip2, xz, zstd: base/zpipe.h), told by its first bytes, is
 * read decoded, through its decompressor; one that cannot be started
 * is reported ("NAME: gzip-compressed: cannot run gzip: No such file or
 * directory") and NULL returned.
 */
FILE *input_open(const char *name, const char **shown);

/*
 * When a reader of f from input_open is done with it, at its end or on
 * an error: read the rest of the stream, if it comes from a
 * decompressor, wait for it, and report its failure ("NAME: gzip:
 * unexpected end of file"), which is then the cause of anything wrong
 * the reader met.  Return 0, or 2 when it failed.  Once only: a second
 * call returns 0.
 */
int input_end(FILE *f);

/*
 * From now on (on != 0), a regular gzip file opened by input_open has
 * its member map (base/zmap.h) built from the decoded bytes as they are
 * read, for input_zmap to give once input_end found that gzip exited 0:
 * the file decoded once where sh_zmap_build would decode it again.
 */
void input_map_members(int on);

/*
 * With on != 0, a compressed regular file that input_open opens from now
 * on has its decoded bytes copied, as they are read, to an unnamed
 * temporary file in TMPDIR, kept for input_again once input_end found
 * that the file was read whole and its decompressor exited 0; with 0,
 * no more such copies are begun.  A copy that cannot be written (the
 * disk full) is let go, and the file is decoded again.
 */
void input_spool(int on);

/* input_open of name, but for a file input_spool copied (and not
 * replaced since: the same device and inode), whose copy is read from
 * its start instead, not through a decompressor. */
FILE *input_again(const char *name, const char **shown);

/* The member map of f, read to its end and ended well (input_end), the
 * caller's to free; NULL when none was built (not asked, not a regular
 * gzip file, out of memory, or not read whole). */
struct sh_zmap;
struct sh_zmap *input_zmap(FILE *f);

/* The decompressor that f from input_open is read through ("gzip"),
 * or NULL. */
const char *input_compressed(FILE *f);

/* Close what input_open opened (not stdin); a decompressor not waited
 * for by input_end is ended at once, and waited for. */
void input_close(FILE *f);

/* Whether a read of input_open, input_lines, input_fps or input_fplist
 * stopped for want of memory: reported ("NAME: out of memory"), no
 * operand read after it, and *status set to 2.  A caller stops then,
 * exit 2, rather than tell the same want a second time. */
int input_nomem(void);

/* Where temporary files go: $TMPDIR, or /tmp; and "DIR: temporary
 * file", for messages about them. */
const char *input_tmpdir(void);
const char *input_tmpmsg(void);

/* Whether the n operands read standard input: none, or one is "-". */
int input_stdin(int n, char *const name[]);

/* Called for each line read: p[0..len), line number line of the
 * operand shown as name.  Return 0 to go on, 1 to stop reading, 2 to
 * stop reading this operand (its format is another: diag_plain). */
typedef int input_line_fn(void *ctx, const char *p, size_t len,
    const char *name, unsigned long long line);

/*
 * Read the lines of the n operands name[0..n) (stdin when n is 0) and
 * call fn(ctx, ...) for each, until it says stop.  A file that cannot be
 * read is reported, and *status set to 2 (fn may set it too).
 */
void input_lines(int n, char *const name[], input_line_fn *fn, void *ctx,
    int *status);

/* A fingerprint line read (near/fpline.h): its value, its ID and the
 * line as it was (the hex digits in their case), and where it was read. */
struct sh_fpline {
	sh_fpval fp;
	const char *id, *line;
	size_t idlen, len;
	const char *name;		/* the operand as diagnostics show it */
	unsigned long long lineno;
};

/* Called for each fingerprint line read. */
typedef void input_fp_fn(void *ctx, const struct sh_fpline *f);

/*
 * Read the fingerprint lines of the n operands name[0..n) (stdin when n
 * is 0) and call fn(ctx, ...) for each.  A line that is not one is
 * reported ("FILE:LINE: message") and skipped, as is a file that cannot
 * be read, and *status is set to 2 at once (fn may look at it).  A file
 * whose first line shows another format (diag_plain) is said so and
 * not read further.
 */
void input_fps(int n, char *const name[], input_fp_fn *fn, void *ctx,
    int *status);

/*
 * input_fps into the list l: the lines of a regular file (not standard
 * input) are read by nthreads threads (near/fpload.h), the same entries
 * and messages, in the same order (a file of another format left out
 * whole).  With files (else NULL), when every
 * operand names a regular file, the IDs are left in them and the files
 * added to files.
 */
struct sh_fplist;
struct sh_fpfiles;
void input_fplist(int n, char *const name[], struct sh_fplist *l,
    struct sh_fpfiles *files, int nthreads, int *status);

#endif
