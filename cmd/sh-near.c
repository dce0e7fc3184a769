/*
 * sh-near: find the fingerprints within Hamming distance k of each other:
 * every pair (the default), the near-duplicate clusters (-g), or the
 * input lines with no near neighbour earlier in the stream (-u); or, with
 * an index (-i), the indexed fingerprints near each input line.  With -v,
 * the pairs are verified against their documents: only those of exact
 * similarity at least -a count.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/errors.h"
#include "base/num.h"
#include "index/index.h"
#include "near/bands.h"
#include "near/dedup.h"
#include "near/fpset.h"
#include "near/pairline.h"
#include "verify/match.h"
#include "docopt.h"
#include "fpjoin.h"
#include "input.h"
#include "keep.h"
#include "progress.h"
#include "usage.h"
#include "vdocs.h"

#define DOCOPTS DOCOPT_LETTERS "t"

static const char usage_text[] =
    "usage: sh-near [-g | -gg | -u] [-i index [-K]] [-j threads] [-k max]\n"
    "               [-m pairs] [-P shard/shards] [-R figures [-L share]]\n"
    "               [-r blocks] [-S size] [file ...]\n"
    "       sh-near -v docs [-Bt] [-a min] [-J measure] [-Y rule]\n"
    "               [-Z kept [-Z removed] | -Z all:file]\n"
    "               [sh-near option ...] [document option ...] [file ...]\n"
    "       sh-near -E -v docs -Z kept [-Z removed] [option ...] [file ...]\n"
    "       sh-near -h | -V\n";

static long long k = -1;	/* the distance */
static long long r;		/* key blocks per table (-r), 0: chosen */
static struct sh_fpset set;	/* the join's fingerprints and pairs */
static struct sh_index *ix;	/* with -i */
static struct sh_hits hits;
static int found;		/* a pair or a match was printed */
static int status;		/* the exit status of errors met */
static struct docopt o;		/* -v: the documents' options */
static struct vdocs vd;
static uint32_t minsim;		/* -a */
static struct sh_matcher mt;	/* -v, -a: which pairs are matches */

static void
put_ok(int e)
{
	if (e != 0)
		err(2, "stdout");
}

/* -v: a pair whose document cannot be verified. */
static void
bad_pair(void *ctx, int e, const char *id, size_t len, size_t col)
{
	(void)ctx;
	status = vdocs_error(&vd, e, NULL, 0, id, len, col);
}

/* Exit on error e of writing the matches, of the index (where names
 * it), of a line (where names it) or of memory. */
static void
ix_fail(int e, const char *where)
{
	if (ferror(stdout))
		err(2, "stdout");
	if (*where != '\0')
		errx(2, "%s: %s", where, sh_strerror(e));
	fpjoin_fail(&set, e);
}

static void
match_out(void *ctx, const struct sh_match *m)
{
	(void)ctx;
	put_ok(sh_pairline_write(stdout, m->id[0], m->len[0], m->id[1],
	    m->len[1], m->dist, m->sim, m->file));
	found = 1;
}

/* -i, -u: each line a query, or a line to filter. */
static void
lookup(void *ctx, const struct sh_fpline *f)
{
	char where[SH_WHERE];
	int e;

	if ((e = sh_ixqueue_add(ctx, f->fp, f->id, f->idlen, f->line, f->len,
	    where)) != 0 && *where == '\0')
		snprintf(where, sizeof(where), "%s:%llu", f->name, f->lineno);
	if (e != 0)
		ix_fail(e, where);
}

/* -u: a line near no line before it (nor, with -i, the index). */
static void
put_line(void *ctx, const char *line, size_t len)
{
	(void)ctx;
	fwrite(line, 1, len, stdout);
	put_ok(putchar('\n') == EOF);
}

int
main(int argc, char *argv[])
{
	struct sh_plan p;
	struct sh_index index;
	struct sh_ixqueue queue;
	struct sh_ixlook lk;
	struct sh_dedup *dedup = NULL;	/* -u: the lines passed */
	struct sh_linestore lines;	/* -u -v: the input lines, whole */
	struct sh_shard shard = { 0, 0 };
	struct sh_bandplan bp;
	struct keepopt ko = { 0 };
	struct fpjoin_opt jo = { NULL, 0, NULL, NULL, 0, 0, NULL, 0, 0, NULL };
	char where[SH_WHERE];
	/* Options that exclude each other. */
	static const char *const excl[] = { "gu", "Pg", "Pu", "Pi", "Pm",
	    "Bk", "Bi", "Bm",
	    "Si", "ig", "im", "mu", NULL };
	const char *ipath = NULL, *docs = NULL, *athreshold = NULL, *q;
	char *given = NULL;
	struct timespec t0;
	long long nthreads, budget = 0;
	int ch, e, tflag = 0, measure = SH_SIM_JACCARD, aflag = 0,
	    mode = 0, load = 0;

	argc = usage_init(argc, argv, usage_text);
	docopt_init(&o);
	nthreads = sysconf(_SC_NPROCESSORS_ONLN);
	while ((ch = getopt(argc, argv,
	    DOCOPTS "BEJ:KL:P:R:S:VY:Z:a:cghi:j:k:m:r:uv:")) != -1) {
		e = 0;
		switch (ch = usage_option(ch, "cg")) {
		case 'g':
		case 'u':
		case 'E':
			mode = keepopt_mode(&ko, ch);
			break;
		case 'h':
			usage_help();
		case 'V':
			usage_version();
		case 'a':
			e = sh_sim_parse(athreshold = optarg, &minsim);
			aflag = 1;
			break;
		case 'i':
			ipath = optarg;
			break;
		case 'K':
			load = 1;
			break;
		case 'B':
			jo.must = 1;
			break;
		case 'J':
			e = (measure = sh_sim_measure(optarg)) < 0 ? measure : 0;
			break;
		case 'm':
			given = optarg;
			break;
		case 'P':
			if (sh_shard_parse(optarg, &shard) != 0)
				e = SH_EINVAL;
			break;
		case 'S':
			e = sh_strtosize(optarg, 1 << 20, &budget);
			break;
		case 'j':
			e = sh_strtonum(optarg, 1, 64, &nthreads);
			break;
		case 'k':
			e = sh_strtonum(optarg, 0, SH_PLAN_KMAX, &k);
			break;
		case 'r':
			e = sh_strtonum(optarg, 1, SH_PLAN_BMAX, &r);
			break;
		case 't':
			tflag = 1;
			break;
		case 'v':
			docs = vdocs_name(&vd, optarg);
			break;
		default:
			if (!docopt_set(&o, ch, optarg) && !keepopt_set(&ko, ch,
			    optarg))
				usage();
		}
		if (e != 0)
			errx(2, "-%c %s: %s", ch, optarg, sh_strerror(e));
	}
	argc -= optind;
	argv += optind;
	if (nthreads < 1 || nthreads > 64)
		nthreads = nthreads < 1 ? 1 : 64;
	usage_pairs(excl);
	/* The letters of verification need -v. */
	for (q = usage_given(); docs == NULL && *q != '\0'; q++)
		if (strchr(DOCOPTS "BEJYZa", *q) != NULL)
			usage_only(*q, "-v");
	keepopt_check(&ko, &vd, o.rec.mode);
	if (load && ipath == NULL)
		usage_only('K', "-i");
	if (budget && mode == 'u' && docs == NULL)
		errx(2, "-S: with -u, only with -v");
	if (given != NULL && strcmp(given, "-") == 0 && input_stdin(argc, argv))
		errx(2, "-m -: standard input cannot hold both the pairs and "
		    "the fingerprints");
	if (sh_fpset_open(&set, (size_t)budget, input_tmpdir()) != 0)
		err(2, "%s", input_tmpmsg());
	if (ipath != NULL) {
		progress_clock(&t0);
		if ((e = sh_index_open(&index, ipath, where)) != 0 ||
		    (load && (e = sh_index_load(&index, where)) != 0))
			errx(2, "%s: %s", *where ? where : ipath, sh_strerror(e));
		if (load)
			progress_took("index loaded", &t0);
		ix = &index;
	}
	jo.bp = fpjoin_route(&bp, jo.must, aflag ? athreshold : NULL, minsim,
	    k < 0 && (!ix || ix->bands) && !given, measure);
	if ((k = sh_match_distance((int)k, aflag, minsim, ix)) < 0)
		errx(2, "%s: %s", ipath, sh_strerror((int)k));
	if (tflag && o.rec.mode != SH_REC_TAB)
		usage_conflict('t', o.modech);
	if (docs != NULL) {
		docopt_load(&o);
		/* But for index queries, -v reads all its input first: a
		 * pipe of it is drained while the documents are read. */
		vdocs_open(&vd, &o, tflag, measure, budget ?
		    (size_t)budget : (size_t)256 << 20, input_stdin(argc, argv) &&
		    (ix == NULL || mode == 'u'), &status);
		/* The threads cut the documents of pairs ahead. */
		if (sh_verify_threads(vd.vf, &o.fp, (int)nthreads) != 0)
			errx(2, "%s", sh_strerror(SH_ENOMEM));
		sh_verify_floor(vd.vf, minsim);
		mt = (struct sh_matcher){ vd.vf, minsim, bad_pair, NULL,
		    progress_lib(), 0, 0, 0 };
	}

	if ((mode == 'u' && vd.vf == NULL) || (ix != NULL && mode != 'u')) {
		sh_ixqueue_init(&queue, &mt, ix, (int)k, match_out, NULL);
		if (mode == 'u') {
			/* The kept set is unknown in advance: plan for 2^24. */
			fpjoin_plan(&p, (int)k, (int)r, 1 << 24, 0);
			if ((dedup = sh_dedup_new(&p)) == NULL)
				fpjoin_fail(&set, SH_ENOMEM);
			sh_ixqueue_filter(&queue, dedup, put_line);
		}
		input_fps(argc, argv, lookup, &queue, &status);
		if ((e = sh_ixqueue_flush(&queue, where)) != 0)
			ix_fail(e, where);
		sh_ixqueue_free(&queue);
		sh_dedup_free(dedup);
	} else {
		/* -u -v keeps the lines whole; the pairs alone need only
		 * the IDs of their entries. */
		lk = (struct sh_ixlook){ ix, (int)k, &hits, where };
		jo.given = given;
		jo.k = (int)k;
		jo.r = (int)r;
		jo.shard = shard.n ? &shard : NULL;
		jo.ids = !mode && !given;
		jo.nthreads = (int)nthreads;
		sh_linestore_init(&lines);
		if (mode)
			e = keep_run(&ko, &set, &jo, &mt, &lk, &lines, vd.m,
			    argc, argv, &status);
		else if (fpjoin_pairs(&set, NULL, &jo, argc, argv,
		    &status) >= 0 && (e = sh_match_write(&mt, &set, 0,
		    stdout)) > 0)
			found = 1;
		if (e < 0)
			ix_fail(e, where);
		sh_linestore_free(&lines);
	}
	if (vd.vf != NULL)
		progress_total("pairs verified", mt.nverified);
	if (ix != NULL)
		sh_index_close(ix);
	free(hits.v);
	vdocs_close(&vd);
	docopt_free(&o);
	sh_fpset_close(&set);
	if (fflush(stdout) != 0 || ferror(stdout))
		err(2, "stdout");
	return status ? status : mode ? 0 : !found;
}
