/*
 * sh-near: find the fingerprints within Hamming distance k of each other:
 * every pair (the default), the near-duplicate clusters (-c), or the
 * input lines with no near neighbour earlier in the stream (-u); or, with
 * an index (-i), the indexed fingerprints near each input line.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cluster.h"
#include "dedup.h"
#include "errors.h"
#include "fplist.h"
#include "fpstore.h"
#include "hex.h"
#include "index.h"
#include "join.h"
#include "num.h"
#include "record.h"
#include "shard.h"
#include "xsort.h"

static void
usage(void)
{
	fprintf(stderr, "usage: sh-near [-c | -u] [-i index] [-j threads] "
	    "[-k max] [-P shard/shards]\n"
	    "               [-r blocks] [-S size] [file ...]\n");
	exit(2);
}

static int status, found;
static struct sh_index *ix;	/* with -i */
static long long k = -1;	/* the distance */
static struct sh_hits hits;
static struct sh_fpstore *store;	/* with -S, else: */
static struct sh_fplist list;		/* zero: empty */
static struct sh_pairs pairs;		/* found in memory, or */
static struct sh_xsort *xpairs;		/* with -S */

static void
fail(int e)
{
	errx(2, "%s%s", store != NULL && e == SH_EIO ? "temporary file: " : "",
	    sh_strerror(e));
}

/* Look fp up in the index; print its matches unless quiet; count them. */
static size_t
query(uint64_t fp, const char *qid, size_t qlen, int quiet)
{
	char where[SH_WHERE];
	const char *p, *id;
	size_t i, len, idlen;
	int e;

	hits.n = 0;
	if ((e = sh_index_search(ix, fp, (int)k, &hits, where)) != 0)
		errx(2, "%s: %s", where, sh_strerror(e));
	for (i = 0; i < hits.n && !quiet; i++) {
		if ((e = sh_index_ids(ix, &hits.v[i], &p, &len, where)) != 0)
			errx(2, "%s: %s", where, sh_strerror(e));
		while (sh_ids_next(&p, &len, &id, &idlen)) {
			fwrite(qid, 1, qlen, stdout);
			putchar('\t');
			fwrite(id, 1, idlen, stdout);
			printf("\t%d\n", hits.v[i].dist);
		}
	}
	return hits.n;
}

/* Read the fingerprint lines of one operand into list or store, look them
 * up in the index, or pass those that d (and the index) find new. */
static void
read_stream(const char *name, struct sh_dedup *d)
{
	struct sh_reader rd;
	const char *p, *id;
	size_t len, idlen;
	uint64_t fp;
	FILE *in;
	int r;

	if (strcmp(name, "-") == 0) {
		in = stdin;
		name = "<stdin>";
	} else if ((in = fopen(name, "r")) == NULL) {
		warn("%s", name);
		status = 2;
		return;
	}
	sh_reader_init(&rd, in, SH_REC_LINE, name, 0);
	while ((r = sh_reader_line(&rd, &p, &len)) > 0) {
		if ((r = sh_fpline_parse(p, len, &fp, &id, &idlen)) != 0) {
			warnx("%s:%llu: %s", name, rd.line, sh_strerror(r));
			status = 2;
			continue;
		}
		if (ix != NULL && d == NULL) {
			found |= query(fp, id, idlen, 0) > 0;
			continue;
		}
		if (ix != NULL && query(fp, id, idlen, 1) > 0)
			continue;
		if (d != NULL)
			r = sh_dedup_add(d, fp);
		else if (store != NULL)
			r = sh_fpstore_add(store, fp, id, idlen);
		else
			r = sh_fplist_add(&list, fp, id, idlen);
		if (r < 0)
			fail(r);
		if (d != NULL && r == 0) {
			fwrite(p, 1, len, stdout);
			putchar('\n');
		}
		if (ferror(stdout))
			err(2, "stdout");
	}
	if (r < 0) {
		warnx("%s: %s", name, sh_strerror(r));
		status = 2;
	}
	sh_reader_free(&rd);
	if (in != stdin)
		fclose(in);
}

/* The next pair found, from memory or from the external sort: 1, or 0
 * at the end; *at counts the pairs taken. */
static int
next_pair(size_t *at, uint32_t *a, uint32_t *b, int *dist)
{
	struct sh_xrec p;
	int e;

	if (store == NULL) {
		if (*at == pairs.n)
			return 0;
		p.a = pairs.v[(*at)++];
		p.b = (uint64_t)sh_hamming(list.fp[p.a >> 32],
		    list.fp[p.a & 0xFFFFFFFF]);
	} else if ((e = sh_xsort_next(xpairs, &p)) <= 0) {
		if (e < 0)
			fail(e);
		return 0;
	}
	*a = (uint32_t)(p.a >> 32);
	*b = (uint32_t)p.a;
	*dist = (int)p.b;
	return 1;
}

/* Print the ID of fingerprint i. */
static void
put_id(uint32_t i)
{
	static char *buf;
	static size_t cap;
	const char *id;
	size_t len = 0;
	int e;

	if (store != NULL && (e = sh_fpstore_id(store, i, &buf, &cap,
	    &len)) != 0)
		fail(e);
	id = store != NULL ? buf : sh_fplist_id(&list, i, &len);
	fwrite(id, 1, len, stdout);
}

int
main(int argc, char *argv[])
{
	struct sh_plan plan;
	struct sh_dedup *d = NULL;
	struct sh_index index;
	struct sh_shard shard = { 0, 0 };
	struct sh_fpstore fps;
	char where[SH_WHERE];
	const char *ipath = NULL;
	uint32_t *rep, a, b;
	long long r = 0, nthreads, budget = 0;
	size_t i, n = 0, at = 0;
	int ch, e, dist, mode = 0;

	nthreads = sysconf(_SC_NPROCESSORS_ONLN);
	while ((ch = getopt(argc, argv, "P:S:ci:j:k:r:u")) != -1) {
		switch (ch) {
		case 'c':
		case 'u':
			if (mode && mode != ch)
				usage();
			mode = ch;
			break;
		case 'i':
			ipath = optarg;
			break;
		case 'P':
			if (sh_shard_parse(optarg, &shard) != 0)
				errx(2, "-P %s: %s", optarg,
				    sh_strerror(SH_EINVAL));
			break;
		case 'S':
			if ((e = sh_strtosize(optarg, 1 << 20, &budget)) != 0)
				errx(2, "-S %s: %s", optarg, sh_strerror(e));
			break;
		case 'j':
			if ((e = sh_strtonum(optarg, 1, 64, &nthreads)) != 0)
				errx(2, "-j %s: %s", optarg, sh_strerror(e));
			break;
		case 'k':
			if ((e = sh_strtonum(optarg, 0, SH_PLAN_KMAX, &k)) != 0)
				errx(2, "-k %s: %s", optarg, sh_strerror(e));
			break;
		case 'r':
			if ((e = sh_strtonum(optarg, 1, SH_PLAN_BMAX, &r)) != 0)
				errx(2, "-r %s: %s", optarg, sh_strerror(e));
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (nthreads < 1 || nthreads > 64)
		nthreads = nthreads < 1 ? 1 : 64;
	if ((shard.n && (mode || ipath != NULL)) || (budget && (mode == 'u' ||
	    ipath != NULL)) || (ipath != NULL && mode == 'c'))
		usage();
	if (budget) {
		if ((e = sh_fpstore_open(&fps, getenv("TMPDIR"))) != 0)
			err(2, "temporary file");
		store = &fps;
	}
	if (ipath != NULL) {
		if ((e = sh_index_open(&index, ipath, where)) != 0)
			errx(2, "%s: %s", where, sh_strerror(e));
		ix = &index;
		if (k < 0)
			k = index.k;
	}
	if (k < 0)
		k = SH_INDEX_K;

	if (mode == 'u') {
		/* The kept set is unknown in advance: plan for 2^24. */
		if ((e = sh_plan_init(&plan, (int)k, (int)r, 1 << 24)) != 0)
			errx(2, "-k %lld -r %lld: %s", k, r, sh_strerror(e));
		if ((d = sh_dedup_new(&plan)) == NULL)
			errx(2, "%s", sh_strerror(SH_ENOMEM));
	}
	for (i = 0; i == 0 || i < (size_t)argc; i++)
		read_stream(argc ? argv[i] : "-", d);
	sh_dedup_free(d);
	if (ix != NULL) {
		sh_index_close(ix);
		free(hits.v);
	} else if (mode != 'u') {
		n = store != NULL ? store->n : list.n;
		if ((e = sh_plan_init(&plan, (int)k, (int)r, n)) != 0)
			errx(2, "-k %lld -r %lld: %s", k, r, sh_strerror(e));
		if ((e = store != NULL ? sh_join_ext(store, &plan, shard.n ?
		    &shard : NULL, (size_t)budget, getenv("TMPDIR"),
		    &xpairs) : sh_join(list.fp, list.n, &plan, (int)nthreads,
		    shard.n ? &shard : NULL, &pairs)) != 0)
			fail(e);
	}
	if (mode == 'c') {
		if ((rep = malloc(n * sizeof(*rep) + 1)) == NULL)
			fail(SH_ENOMEM);
		sh_cluster_start(n, rep);
		while (next_pair(&at, &a, &b, &dist))
			sh_cluster_union(rep, a, b);
		sh_cluster_finish(n, rep);
		for (i = 0; i < n; i++) {
			put_id(rep[i]);
			putchar('\t');
			put_id((uint32_t)i);
			putchar('\n');
		}
		free(rep);
	} else if (mode == 0 && ix == NULL)
		for (; next_pair(&at, &a, &b, &dist); found = 1) {
			put_id(a);
			putchar('\t');
			put_id(b);
			printf("\t%d\n", dist);
		}
	sh_fpstore_close(store);
	sh_xsort_free(xpairs);
	free(pairs.v);
	sh_fplist_free(&list);
	if (fflush(stdout) != 0 || ferror(stdout))
		err(2, "stdout");
	return status ? status : mode ? 0 : !found;
}
