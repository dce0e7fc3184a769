/*
 * The files of an index directory (sh-index(5)), shared by the reader
 * (reader.c) and the writer (writer.c) and by no one else: paths in it,
 * segment names, and the MANIFEST read into a struct sh_index.  Not part
 * of the library's interface: commands use index.h and writer.h.
 */
#ifndef SH_IXFILE_H
#define SH_IXFILE_H

#include <stdint.h>

#include "index/index.h"

/* Longest index path: room is left for "/seg-NNN.tmp" names. */
#define SH_IXFILE_DIRMAX (SH_WHERE - 64)

/* out[SH_WHERE] = dir "/" name suffix, cut to SH_WHERE - 1 bytes; name
 * and suffix may be NULL (no "/" without a name). */
void sh_ixfile_join(char *out, const char *dir, const char *name,
    const char *suffix);

/* Write the path dir "/" name (name may be NULL) into where[SH_WHERE] and
 * return e, errno kept: `return sh_ixfile_fail(where, path, NULL, e)'. */
int sh_ixfile_fail(char *where, const char *dir, const char *name, int e);

/* Open path, a file of an index, with flags (O_RDONLY, or O_RDWR and
 * O_CREAT): never through a symbolic link, and only a regular file, so
 * that a FIFO or a device cannot hang the caller.  Return 0 with the
 * descriptor in *fd, SH_ENOTREG, or SH_EIO (errno set). */
int sh_ixfile_open(const char *path, int flags, int *fd);

/* Whether path is a regular file (not a link) that starts with the 8
 * bytes magic. */
int sh_ixfile_magic(const char *path, const unsigned char *magic);

/* Whether s is a segment file name: "seg-" and 1 to 20 digits. */
int sh_ixfile_segname(const char *s);

/* Whether s is a deletion file name: "del-" and 1 to 20 digits; a
 * times file name: "tim-" and as many. */
int sh_ixfile_delname(const char *s);
int sh_ixfile_timname(const char *s);

/* out[32] = the name of the times file of segment seg ("seg-N":
 * "tim-N"). */
void sh_ixfile_timfor(char *out, const char *seg);

/* Append a segment to the names of ix: name (cut to 31 bytes) and its
 * counts, without deletions.  Return 0 or SH_ENOMEM (ix then holds the
 * same names). */
int sh_ixfile_addname(struct sh_index *ix, const char *name, uint64_t nfp,
    uint64_t nid);

/*
 * Read dir/MANIFEST into the settings and names of ix, which holds no
 * names yet (zeroed, or after sh_index_close); no segment is opened.
 * Return 0, or with the MANIFEST's path in where: SH_EIO (errno set,
 * ENOENT when there is none), SH_EMAGIC, SH_EVERSION, SH_ETRUNC,
 * SH_ECORRUPT (bad checksum or line, or larger than 64 MiB),
 * SH_ESEGMAX (more than SH_INDEX_SEGMAX segments) or SH_ENOMEM; ix may
 * then hold some names, freed by sh_index_close.  ix->sum is set to
 * the MANIFEST's checksum.  Cost: the file is read whole into memory,
 * and its names, SH_INDEX_SEGMAX at most.
 */
int sh_ixfile_manifest(struct sh_index *ix, const char *dir, char *where);

#endif
