/*
 * sh-near: find the fingerprints within Hamming distance k of each other:
 * every pair (the default), the near-duplicate clusters (-g), or the
 * input lines with no near neighbour earlier in the stream (-u); or, with
 * an index (-i), the indexed fingerprints near each input line.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/errors.h"
#include "base/num.h"
#include "index/index.h"
#include "near/dedup.h"
#include "near/fpset.h"
#include "near/pairline.h"
#include "input.h"
#include "progress.h"
#include "usage.h"

static const char usage_text[] =
    "usage: sh-near [-g | -u] [-i index] [-j threads] [-k max] "
    "[-m pairs]\n"
    "               [-P shard/shards] [-r blocks] [-S size] [file ...]\n"
    "       sh-near -h | -V\n";

static long long k = -1;	/* the distance */
static long long r;		/* key blocks per table (-r), 0: chosen */
static struct sh_fpset set;	/* the join's fingerprints and pairs */
static struct sh_index *ix;	/* with -i */
static struct sh_hits hits;
static struct sh_dedup *dedup;	/* with -u */
static int found;		/* a pair or a match was printed */

static void
fail(int e)
{
	errx(2, "%s%s", set.budget && e == SH_EIO ? "temporary file: " : "",
	    sh_strerror(e));
}

static void
put_ok(int e)
{
	if (e != 0)
		err(2, "stdout");
}

static void
plan(struct sh_plan *p, uint64_t n)
{
	int e;

	if ((e = sh_plan_init(p, (int)k, (int)r, n)) != 0)
		errx(2, "-k %lld -r %lld: %s", k, r, sh_strerror(e));
}

/* The index matches of f: printed unless quiet; their number. */
static size_t
query(const struct sh_fpline *f, int quiet)
{
	char where[SH_WHERE];
	const char *p, *id;
	size_t i, len, idlen;
	int e;

	hits.n = 0;
	if ((e = sh_index_search(ix, f->fp, (int)k, &hits, where)) != 0)
		errx(2, "%s: %s", where, sh_strerror(e));
	for (i = 0; i < hits.n && !quiet; i++) {
		if ((e = sh_index_ids(ix, &hits.v[i], &p, &len, where)) != 0)
			errx(2, "%s: %s", where, sh_strerror(e));
		while (sh_ids_next(&p, &len, &id, &idlen))
			put_ok(sh_pairline_write(stdout, f->id, f->idlen, id,
			    idlen, hits.v[i].dist));
	}
	found |= hits.n > 0;
	return hits.n;
}

/* -i: the indexed fingerprints near each line. */
static void
lookup(void *ctx, const struct sh_fpline *f)
{
	(void)ctx;
	query(f, 0);
}

/* -u: the lines near no line before them (nor, with -i, the index). */
static void
keep_new(void *ctx, const struct sh_fpline *f)
{
	int e;

	(void)ctx;
	if (ix != NULL && query(f, 1) > 0)
		return;
	if ((e = sh_dedup_add(dedup, f->fp)) < 0)
		fail(e);
	if (e == 0) {
		fwrite(f->line, 1, f->len, stdout);
		put_ok(putchar('\n') == EOF);
	}
}

/* Pairs and clusters: every line into the set. */
static void
collect(void *ctx, const struct sh_fpline *f)
{
	int e;

	(void)ctx;
	if ((e = sh_fpset_add(&set, f->fp, f->id, f->idlen)) != 0)
		fail(e);
}

/* -m: a line of the pairs given instead of joined (ID1<TAB>ID2...). */
static int
given_pair(void *ctx, const char *p, size_t len, const char *name,
    unsigned long long line)
{
	const char *a, *b;
	size_t alen, blen;
	int e;

	(void)ctx;
	if ((e = sh_pairline_parse(p, len, &a, &alen, &b, &blen)) == 0 &&
	    (e = sh_fpset_given(&set, a, alen, b, blen)) == 0)
		return 0;
	if (e == SH_EDUPID && sh_fpset_id(&set, set.dup, &p, &len) == 0)
		errx(2, "-m: ID %.*s: %s", (int)len, p, sh_strerror(e));
	errx(2, "%s:%llu: %s%s", name, line, set.budget && e == SH_EIO ?
	    "temporary file: " : "", sh_strerror(e));
}

/* Print the pairs of the set, or with clusters the first entry of each
 * entry's cluster before it. */
static void
put_pairs(int clusters)
{
	const char *id[2];
	uint32_t *rep, a, b;
	size_t i, n = sh_fpset_n(&set), len[2];
	int e, dist;

	if (!clusters) {
		while ((e = sh_fpset_next(&set, &a, &b, &dist)) > 0) {
			if ((e = sh_fpset_ids(&set, a, b, id, len)) != 0)
				fail(e);
			put_ok(sh_pairline_write(stdout, id[0], len[0], id[1],
			    len[1], dist));
			found = 1;
		}
		if (e < 0)
			fail(e);
		return;
	}
	if ((rep = malloc(n * sizeof(*rep) + 1)) == NULL)
		fail(SH_ENOMEM);
	if ((e = sh_fpset_cluster(&set, rep)) < 0)
		fail(e);
	for (i = 0; i < n; i++) {
		if ((e = sh_fpset_ids(&set, rep[i], i, id, len)) != 0)
			fail(e);
		put_ok(sh_pairline_write(stdout, id[0], len[0], id[1], len[1],
		    -1));
	}
	free(rep);
}

int
main(int argc, char *argv[])
{
	struct sh_plan p;
	struct sh_index index;
	struct sh_shard shard = { 0, 0 };
	char where[SH_WHERE];
	/* Options that exclude each other. */
	static const char *const excl[] = { "gu", "Pg", "Pu", "Pi", "Pm",
	    "Su", "Si", "ig", "im", "mu", NULL };
	const char *ipath = NULL;
	char *given = NULL;
	long long nthreads, budget = 0;
	int ch, e, i, status = 0, mode = 0;

	argc = usage_init(argc, argv, usage_text);
	nthreads = sysconf(_SC_NPROCESSORS_ONLN);
	while ((ch = getopt(argc, argv, "P:S:Vcghi:j:k:m:r:u")) != -1) {
		switch (ch = usage_option(ch, "cg")) {
		case 'g':
		case 'u':
			mode = ch;
			break;
		case 'h':
			usage_help();
		case 'V':
			usage_version();
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
	usage_pairs(excl);
	for (i = 0; given != NULL && strcmp(given, "-") == 0 && i <= argc; i++)
		if (i == argc ? argc == 0 : strcmp(argv[i], "-") == 0)
			errx(2, "-m -: standard input cannot hold both the pairs "
			    "and the fingerprints");
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
		plan(&p, 1 << 24);
		if ((dedup = sh_dedup_new(&p)) == NULL)
			fail(SH_ENOMEM);
		input_fps(argc, argv, keep_new, NULL, &status);
		sh_dedup_free(dedup);
	} else if (ix != NULL)
		input_fps(argc, argv, lookup, NULL, &status);
	else {
		input_fps(argc, argv, collect, NULL, &status);
		e = 0;
		if (given != NULL) {
			input_lines(1, &given, given_pair, NULL,
			    &e);
			if (e)
				exit(2);
		} else {
			plan(&p, sh_fpset_n(&set));
			if ((e = sh_fpset_join(&set, &p, (int)nthreads,
			    shard.n ? &shard : NULL, progress_lib())) != 0)
				fail(e);
		}
		put_pairs(mode == 'g');
	}
	if (ix != NULL) {
		sh_index_close(ix);
		free(hits.v);
	}
	sh_fpset_close(&set);
	if (fflush(stdout) != 0 || ferror(stdout))
		err(2, "stdout");
	return status ? status : mode ? 0 : !found;
}
