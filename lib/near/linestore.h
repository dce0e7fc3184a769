/*
 * The whole input lines of sh-near's filter (-u), in input order, to
 * print those kept once the pairs are known: in memory (near/fplist.h),
 * or, for a join within a memory budget, in a temporary store
 * (near/fpstore.h) that holds them on disk.
 */
#ifndef SH_LINESTORE_H
#define SH_LINESTORE_H

#include <stddef.h>

#include "near/fplist.h"
#include "near/fpstore.h"

struct sh_linestore {
	struct sh_fplist mem;		/* the lines in memory, */
	struct sh_fpstore *disk;	/* or on disk: not NULL */
	int rewound;			/* disk: read since the last add */
	char *buf;			/* disk: the line read last */
	size_t cap;
};

/* An empty store in memory; free with sh_linestore_free (the struct
 * itself is the caller's). */
void sh_linestore_init(struct sh_linestore *l);
void sh_linestore_free(struct sh_linestore *l);

/* Before the first add: keep the lines in unnamed temporary files in
 * tmpdir.  Return 0, SH_ENOMEM or SH_EIO. */
int sh_linestore_disk(struct sh_linestore *l, const char *tmpdir);

/* Append line[0..len).  Return 0, SH_ENOMEM or SH_EIO. */
int sh_linestore_add(struct sh_linestore *l, const char *line, size_t len);

/* The lines added. */
size_t sh_linestore_n(const struct sh_linestore *l);

/* Line i into *p (valid until the next call), its length into *len.
 * Return 0, SH_ENOMEM or SH_EIO. */
int sh_linestore_get(struct sh_linestore *l, size_t i, const char **p,
    size_t *len);

#endif
