/*
 * The figures of a run of the keep decisions (sh-near -g and -u, keep.h):
 * what was read and skipped, the candidates verified and accepted, the
 * clusters and their sizes, and the share removed of each file of the
 * documents and of each host; written as one JSON object, keys in a
 * fixed order, or as a short table, to a FILE the caller gives.
 *
 * A cluster is a kept entry with the entries removed against it (rep,
 * keep.h), when there is at least one: its size counts the kept entry.
 * An entry's file is the file of the documents (text/docmap.h) whose
 * record has its ID (the first of an ID, found by the key of
 * sh_docmap_key, as sh-near -Z finds it); its host, that of its ID when
 * the ID is a URL (scheme "://" host), lowercased, without user and
 * port.  An entry of no file or no host is in no line of those.
 *
 * Everything here depends on the entries, their IDs and rep alone, in
 * input order, and on the counts the caller gives: not on threads, nor
 * on memory.
 */
#ifndef SH_FIGURES_H
#define SH_FIGURES_H

#include <stdint.h>
#include <stdio.h>

#include "near/fpset.h"
#include "text/docmap.h"

/* The largest clusters listed. */
#define SH_FIGURES_TOP 10

/* What the caller counted; ULLONG_MAX: unknown (written null, or left
 * out of the table). */
struct sh_figcounts {
	int mode;		/* 'g' or 'u' */
	unsigned long long documents;	/* records of the documents read */
	unsigned long long nstatus, ntype, nbinary, nbad, ndups;
	unsigned long long nbadcs;	/* read as UTF-8 */
	unsigned long long candidates, verified, accepted;
	uint32_t guard;		/* the guard's share, millionths */
};

struct sh_figures;

/*
 * The figures of the entries of s and their anchors rep (keep.h:
 * rep[i] == i kept, SH_KEEP_OUT left out, else the entry it is removed
 * against) into *f, the files of m (NULL: none; nfiles of them, in the
 * order added) taken for the file of each entry (sh_docmap_keys: after
 * the last scan, no clone in use meanwhile).  Memory: about 20 bytes an
 * entry, a map of 32 to 64 bytes a key of m, up to 80 bytes for each
 * cluster met in each file and host, and the hosts' names.  Cost: the
 * entries' IDs read once, one lookup each in the map of m's keys and
 * one in that of the hosts, and the hosts sorted.  Return 0, SH_ENOMEM,
 * SH_ERANGE (2^32 entries or more) or an error of s.
 */
int sh_figures_new(struct sh_figures **f, struct sh_fpset *s,
    const uint32_t *rep, struct sh_docmap *m, size_t nfiles);

/*
 * Write the figures of f with the counts c as one JSON object and a
 * newline to out, the files named name[0..nfiles) (as given, escaped):
 * the keys and their meaning are in sh-near(1), FIGURES.  Return 0 or
 * SH_EIO (out's error flag set).
 */
int sh_figures_json(const struct sh_figures *f,
    const struct sh_figcounts *c, char *const name[], FILE *out);

/* The short table: a line a figure, "NAME<TAB>VALUE", with a share
 * after another TAB where there is one.  Return 0 or SH_EIO. */
int sh_figures_table(const struct sh_figures *f,
    const struct sh_figcounts *c, FILE *out);

/* A file or a host where one cluster holds more than the guard's share
 * of the documents (and at least 2 of them). */
struct sh_figover {
	int host;		/* 0: a file, its index in name; 1: a host */
	size_t file;
	const char *name;	/* the host, NUL-terminated */
	unsigned long long members, documents;
	const char *kept;	/* the cluster's kept ID, kept[0..keptlen) */
	size_t keptlen;
};

typedef void sh_figover_fn(void *ctx, const struct sh_figover *o);

/* Call fn(ctx, o) for each file in order, then each host in byte order,
 * where one cluster holds more than share (millionths) of the
 * documents, and at least 2. */
void sh_figures_guard(const struct sh_figures *f, uint32_t share,
    sh_figover_fn *fn, void *ctx);

void sh_figures_free(struct sh_figures *f);

#endif
