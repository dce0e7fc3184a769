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

#include "near/dedup.h"
#include "base/errors.h"
#include "near/fplist.h"
#include "near/fpset.h"
#include "base/hex.h"
#include "index/index.h"
#include "base/num.h"
#include "text/record.h"
#include "base/shard.h"

static void
usage(void)
{
	fprintf(stderr, "usage: sh-near [-c | -u] [-i index] [-j threads] "
	    "[-k max] [-m pairs]\n"
	    "               [-P shard/shards] [-r blocks] [-S size] "
	    "[file ...]\n");
	exit(2);
}

static int status, found;
static struct sh_index *ix;	/* with -i */
static long long k = -1;	/* the distance */
static struct sh_hits hits;
static struct sh_fpset set;	/* the join's fingerprints and pairs */

static void
fail(int e)
{
	errx(2, "%s%s", set.budget && e == SH_EIO ? "temporary file: " : "",
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
		r = d != NULL ? sh_dedup_add(d, fp) :
		    sh_fpset_add(&set, fp, id, idlen);
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

/* Print the ID of entry i. */
static void
put_id(uint32_t i)
{
	const char *id;
	size_t len;
	int e;

	if ((e = sh_fpset_id(&set, i, &id, &len)) != 0)
		fail(e);
	fwrite(id, 1, len, stdout);
}

/* Take the pairs of the lines of file name (ID1<TAB>ID2...). */
static void
read_pairs(const char *name)
{
	struct sh_reader rd;
	const char *p, *a, *b;
	size_t len, alen, blen;
	FILE *in;
	int r;

	if (strcmp(name, "-") == 0) {
		in = stdin;
		name = "<stdin>";
	} else if ((in = fopen(name, "r")) == NULL)
		err(2, "%s", name);
	sh_reader_init(&rd, in, SH_REC_LINE, name, 0);
	while ((r = sh_reader_line(&rd, &p, &len)) > 0)
		if ((r = sh_pairline_parse(p, len, &a, &alen, &b, &blen)) != 0 ||
		    (r = sh_fpset_given(&set, a, alen, b, blen)) != 0)
			break;
	if (r == SH_EDUPID && sh_fpset_id(&set, set.dup, &p, &len) == 0)
		errx(2, "-m: ID %.*s: %s", (int)len, p, sh_strerror(r));
	if (r < 0)
		errx(2, "%s:%llu: %s%s", name, rd.line, set.budget &&
		    r == SH_EIO ? "temporary file: " : "", sh_strerror(r));
	sh_reader_free(&rd);
	if (in != stdin)
		fclose(in);
}

int
main(int argc, char *argv[])
{
	struct sh_plan plan;
	struct sh_dedup *d = NULL;
	struct sh_index index;
	struct sh_shard shard = { 0, 0 };
	char where[SH_WHERE];
	const char *ipath = NULL, *given = NULL;
	uint32_t *rep, a, b;
	long long r = 0, nthreads, budget = 0;
	size_t i, n;
	int ch, e, dist, mode = 0;

	nthreads = sysconf(_SC_NPROCESSORS_ONLN);
	while ((ch = getopt(argc, argv, "P:S:ci:j:k:m:r:u")) != -1) {
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
		case 'm':
			given = optarg;
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
	if ((shard.n && (mode || ipath != NULL || given != NULL)) || (budget &&
	    (mode == 'u' || ipath != NULL)) || (ipath != NULL && (mode == 'c' ||
	    given != NULL)) || (given != NULL && mode == 'u'))
		usage();
	for (i = 0; given != NULL && strcmp(given, "-") == 0 &&
	    i <= (size_t)argc; i++)
		if (i == (size_t)argc ? argc == 0 : strcmp(argv[i], "-") == 0)
			usage();	/* stdin holds the pairs */
	if (sh_fpset_open(&set, (size_t)budget, getenv("TMPDIR")) != 0)
		err(2, "temporary file");
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
	} else if (given != NULL)
		read_pairs(given);
	else if (mode != 'u') {
		e = sh_plan_init(&plan, (int)k, (int)r, sh_fpset_n(&set));
		if (e != 0)
			errx(2, "-k %lld -r %lld: %s", k, r, sh_strerror(e));
		if ((e = sh_fpset_join(&set, &plan, (int)nthreads, shard.n ?
		    &shard : NULL)) != 0)
			fail(e);
	}
	n = sh_fpset_n(&set);
	if (mode == 'c') {
		if ((rep = malloc(n * sizeof(*rep) + 1)) == NULL)
			fail(SH_ENOMEM);
		if ((e = sh_fpset_cluster(&set, rep)) < 0)
			fail(e);
		for (i = 0; i < n; i++) {
			put_id(rep[i]);
			putchar('\t');
			put_id((uint32_t)i);
			putchar('\n');
		}
		free(rep);
	} else if (mode == 0 && ix == NULL) {
		for (; (e = sh_fpset_next(&set, &a, &b, &dist)) > 0; found = 1) {
			put_id(a);
			putchar('\t');
			put_id(b);
			printf("\t%d\n", dist);
		}
		if (e < 0)
			fail(e);
	}
	sh_fpset_close(&set);
	if (fflush(stdout) != 0 || ferror(stdout))
		err(2, "stdout");
	return status ? status : mode ? 0 : !found;
}
