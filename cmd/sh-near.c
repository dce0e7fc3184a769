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
static struct sh_fpstore *store;	/* with -S */

/*
 * Look fp up in the index: print its matches unless quiet.  Return the
 * number of matches.
 */
static size_t
query(uint64_t fp, const char *qid, size_t qlen, int quiet)
{
	char where[SH_WHERE];
	const char *p, *nl;
	size_t i, len;
	int e;

	hits.n = 0;
	if ((e = sh_index_search(ix, fp, (int)k, &hits, where)) != 0)
		errx(2, "%s: %s", where, sh_strerror(e));
	for (i = 0; i < hits.n && !quiet; i++) {
		if ((e = sh_index_ids(ix, &hits.v[i], &p, &len, where)) != 0)
			errx(2, "%s: %s", where, sh_strerror(e));
		for (; len > 0; len -= (size_t)(nl + 1 - p), p = nl + 1) {
			nl = memchr(p, '\n', len);
			fwrite(qid, 1, qlen, stdout);
			putchar('\t');
			fwrite(p, 1, (size_t)(nl - p), stdout);
			printf("\t%d\n", hits.v[i].dist);
		}
	}
	return hits.n;
}

/*
 * Read the fingerprint lines of one operand: append them to list, look
 * them up in the index, or with a filter d pass through those that have
 * no near neighbour (in the index or earlier in the stream).
 */
static void
read_stream(const char *name, struct sh_fplist *list, struct sh_dedup *d)
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
			r = sh_fplist_add(list, fp, id, idlen);
		if (r < 0)
			errx(2, "%s%s", store != NULL && r == SH_EIO ?
			    "temporary file: " : "", sh_strerror(r));
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

/* The join within a memory budget: print the pairs. */
static void
join_ext(const struct sh_plan *plan, const struct sh_shard *shard,
    size_t budget)
{
	struct sh_xsort *pairs = NULL;
	struct sh_xrec p;
	size_t cap = 0, len;
	char *id = NULL;
	int e, j;

	e = sh_join_ext(store, plan, shard, budget, getenv("TMPDIR"), &pairs);
	while (e == 0 && (e = sh_xsort_next(pairs, &p)) == 1) {
		for (j = 0, e = 0; j < 2 && e == 0; j++)
			if ((e = sh_fpstore_id(store, j ? p.a & 0xFFFFFFFF :
			    p.a >> 32, &id, &cap, &len)) == 0) {
				fwrite(id, 1, len, stdout);
				putchar('\t');
			}
		printf("%d\n", (int)p.b);
		found = 1;
	}
	if (e < 0)
		errx(2, "%s%s", e == SH_EIO ? "temporary file: " : "",
		    sh_strerror(e));
	free(id);
	sh_xsort_free(pairs);
}

static void
put_id(const struct sh_fplist *l, size_t i)
{
	const char *id;
	size_t len;

	id = sh_fplist_id(l, i, &len);
	fwrite(id, 1, len, stdout);
}

int
main(int argc, char *argv[])
{
	struct sh_fplist list;
	struct sh_pairs pairs = { 0 };
	struct sh_plan plan;
	struct sh_dedup *d = NULL;
	struct sh_index index;
	struct sh_shard shard = { 0, 0 };
	struct sh_fpstore fps;
	char where[SH_WHERE];
	const char *ipath = NULL;
	uint32_t *rep;
	long long r = 0, nthreads, budget = 0;
	size_t i, a, b;
	int ch, e, mode = 0;

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
	if (((shard.n || budget) && (mode || ipath != NULL)) ||
	    (ipath != NULL && mode == 'c'))
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

	sh_fplist_init(&list);
	if (mode == 'u') {
		/* The kept set is unknown in advance: plan for 2^24. */
		if ((e = sh_plan_init(&plan, (int)k, (int)r, 1 << 24)) != 0)
			errx(2, "-k %lld -r %lld: %s", k, r, sh_strerror(e));
		if ((d = sh_dedup_new(&plan)) == NULL)
			errx(2, "%s", sh_strerror(SH_ENOMEM));
	}
	for (i = 0; i == 0 || i < (size_t)argc; i++)
		read_stream(argc ? argv[i] : "-", &list, d);
	sh_dedup_free(d);
	if (ix != NULL) {
		sh_index_close(ix);
		free(hits.v);
	} else if (mode != 'u') {
		if ((e = sh_plan_init(&plan, (int)k, (int)r, store != NULL ?
		    fps.n : list.n)) != 0)
			errx(2, "-k %lld -r %lld: %s", k, r, sh_strerror(e));
		if (store != NULL) {
			join_ext(&plan, shard.n ? &shard : NULL,
			    (size_t)budget);
			sh_fpstore_close(store);
		} else if ((e = sh_join(list.fp, list.n, &plan, (int)nthreads,
		    shard.n ? &shard : NULL, &pairs)) != 0)
			errx(2, "%s", sh_strerror(e));
	}
	if (mode == 'c') {
		if ((rep = malloc(list.n * sizeof(*rep) + 1)) == NULL)
			errx(2, "%s", sh_strerror(SH_ENOMEM));
		sh_cluster(list.n, &pairs, rep);
		for (i = 0; i < list.n; i++) {
			put_id(&list, rep[i]);
			putchar('\t');
			put_id(&list, i);
			putchar('\n');
		}
		free(rep);
	} else if (mode == 0 && store == NULL && ix == NULL) {
		for (i = 0; i < pairs.n; i++) {
			a = (size_t)(pairs.v[i] >> 32);
			b = (size_t)(pairs.v[i] & 0xFFFFFFFF);
			put_id(&list, a);
			putchar('\t');
			put_id(&list, b);
			printf("\t%d\n", sh_hamming(list.fp[a], list.fp[b]));
		}
		found = pairs.n > 0;
	}
	free(pairs.v);
	sh_fplist_free(&list);
	if (fflush(stdout) != 0 || ferror(stdout))
		err(2, "stdout");
	return status ? status : mode ? 0 : !found;
}
