/*
 * sh-index: build, grow, describe, print and check a persistent
 * fingerprint index (see sh-index(5) for the files).
 */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/errors.h"
#include "base/num.h"
#include "fp/similar.h"
#include "index/index.h"
#include "index/writer.h"
#include "near/bands.h"
#include "near/fpline.h"
#include "near/plan.h"
#include "input.h"
#include "ixadd.h"
#include "progress.h"
#include "usage.h"

/* The options; with -v, those of the documents too (-f their framing). */
#define OPTS "EOP:S:T:Va:b:hk:l:o:r:u"

static char where[SH_WHERE];
static struct ixdocs docs;	/* add -u -v */
static const char *ixpath;	/* the index, when where names no file */
static struct sh_bandplan bp;	/* an index of band tables: its plan */

static const char usage_text[] =
    "usage: sh-index build [-EO] [-b blocks -r keyblocks] [-k max] "
    "[-P shard/shards]\n"
    "                      [-S size] [-T time] index [file ...]\n"
    "       sh-index build -a min [-O] [-P shard/shards] [-S size] "
    "[-T time]\n"
    "                      [-v docs [document option ...]] index "
    "[file ...]\n"
    "       sh-index add [-u [-l list]] [-a min | -k max] "
    "[-P shard/shards]\n"
    "                    [-S size] [-T time] [-v docs [document option "
    "...]]\n"
    "                    index [file ...]\n"
    "       sh-index add -u -v docs [-t] [-J measure] [-l list] "
    "[document option ...]\n"
    "                    [add option ...] index [file ...]\n"
    "       sh-index delete [-l list] index [file ...]\n"
    "       sh-index expire -o time index\n"
    "       sh-index merge | info | dump | verify index\n"
    "       sh-index -h | -V\n";

/* Report error e of where and exit. */
static void
fail(int e)
{
	errx(2, "%s: %s", *where ? where : ixpath, sh_strerror(e));
}

static void
info(struct sh_index *ix)
{
	struct sh_ixstats st;
	struct sh_segstat s;
	int i;

	sh_index_stats(ix, &st);
	printf("index\t%s\n", ix->path);
	if (ix->bands)
		printf("similarity\t%u.%06u\nbands\t%d\nrows\t%d\n",
		    ix->t / 1000000, ix->t % 1000000, ix->bands, ix->rows);
	else
		printf("k\t%d\n", st.k);
	printf("shard\t%u/%u\n", st.shard.i, st.shard.n);
	printf("fingerprints\t%llu\nids\t%llu\ndeleted_fingerprints\t%llu\n"
	    "deleted_ids\t%llu\nsegments\t%d\nbytes\t%llu\n"
	    "bytes_per_fingerprint\t%.1f\n", (unsigned long long)st.nfp,
	    (unsigned long long)st.nid, (unsigned long long)st.dfp,
	    (unsigned long long)st.did, st.nseg, (unsigned long long)st.bytes,
	    st.nfp + st.dfp ? (double)st.bytes / (st.nfp + st.dfp) : 0.0);
	if (!ix->bands)
		printf("candidates_per_query\t%.3g\n", st.candidates);
	for (i = 0; sh_index_segstat(ix, i, &s) == 0; i++)
		printf("segment\t%s\tfingerprints=%llu\tids=%llu\t"
		    "deleted=%llu\t%s=%d\t%s=%d\ttables=%d\tdirbits=%d\t"
		    "bytes=%llu\tlayout=%s\n", s.name,
		    (unsigned long long)s.nfp, (unsigned long long)s.nid,
		    (unsigned long long)s.did, ix->bands ? "bands" : "blocks",
		    ix->bands ? ix->bands : s.blocks, ix->bands ? "rows" :
		    "keyblocks", ix->bands ? ix->rows : s.keyblocks, s.tables,
		    s.dirbits, (unsigned long long)s.bytes, s.places ?
		    "places" : ix->bands ? "bands" : s.lean ? "lean" : "full");
}

static void
dump(struct sh_index *ix)
{
	struct sh_ixcursor c;
	const char *p, *id;
	size_t len, idlen;
	sh_fpval fp;
	int e;

	memset(&c, 0, sizeof(c));
	while ((e = sh_index_next(ix, &c, &fp, &p, &len, where)) > 0) {
		while (sh_ids_next(&p, &len, &id, &idlen)) {
			sh_fpline_write(stdout, fp, id, idlen);
			putchar('\n');
		}
		if (ferror(stdout))
			err(2, "stdout");
	}
	if (e != 0)
		fail(e);
}

int
main(int argc, char *argv[])
{
	struct sh_ixopt o;
	struct sh_index ix;
	const char *verb, *a = NULL, *list = NULL;
	long long v, budget = 0;
	uint32_t cutoff = 0;
	int ch, e, *opt, newonly = 0, when = 0, hasdocs;

	argc = usage_init(argc, argv, usage_text);
	memset(&o, 0, sizeof(o));
	o.k = -1;
	o.pg = progress_lib();
	if (argc < 2)
		usage();
	if (strcmp(argv[1], "-h") == 0)
		usage_help();
	if (strcmp(argv[1], "-V") == 0)
		usage_version();
	/* The options follow the verb; getopt's messages name the
	 * program. */
	verb = argv[1];
	if (strcmp(verb, "build") != 0 && strcmp(verb, "add") != 0 &&
	    strcmp(verb, "delete") != 0 && strcmp(verb, "expire") != 0 &&
	    strcmp(verb, "merge") != 0 && strcmp(verb, "info") != 0 &&
	    strcmp(verb, "dump") != 0 && strcmp(verb, "verify") != 0) {
		warnx("%s: not a verb: build, add, delete, expire, merge, "
		    "info, dump or verify", verb);
		usage();
	}
	argv[1] = argv[0];
	argc--;
	argv++;
	ixdocs_init(&docs);
	hasdocs = usage_has(argc, argv, OPTS IXDOCS_LETTERS, 'v');
	while ((ch = getopt(argc, argv, hasdocs ? OPTS IXDOCS_LETTERS :
	    OPTS "f")) != -1) {
		opt = ch == 'b' ? &o.b : ch == 'k' ? &o.k : &o.r;
		switch (ch = usage_option(ch, hasdocs ? "" : "fO")) {
		case 'a':
			if ((e = sh_sim_parse(a = optarg, &o.t)) != 0 ||
			    (e = sh_bandplan_init(&bp, o.t,
			    SH_BANDS_RECALL)) != 0)
				errx(2, "-a %s: %s", optarg, sh_strerror(e));
			break;
		case 'E':
			o.lean = 1;
			break;
		case 'O':
			o.force = 1;
			break;
		case 'u':
			newonly = 1;
			break;
		case 'l':
			list = optarg;
			break;
		case 'o':
		case 'T':
			if ((e = sh_strtowhen(optarg, (uint32_t)time(NULL),
			    ch == 'o' ? &cutoff : &o.now)) != 0)
				errx(2, "-%c %s: %s", ch, optarg,
				    sh_strerror(e));
			when |= ch == 'o' ? 1 : 2;
			break;
		case 'h':
			usage_help();
		case 'V':
			usage_version();
		case 'P':
			if (sh_shard_parse(optarg, &o.shard) != 0)
				errx(2, "-P %s: %s", optarg,
				    sh_strerror(SH_EINVAL));
			break;
		case 'S':
			if ((e = sh_strtosize(optarg, 1 << 20, &budget)) != 0)
				errx(2, "-S %s: %s", optarg, sh_strerror(e));
			o.budget = (size_t)budget;
			break;
		case 'b':
		case 'k':
		case 'r':
			if ((e = sh_strtonum(optarg, ch == 'k' ? 0 : 1, ch ==
			    'k' ? SH_PLAN_KMAX : SH_PLAN_BMAX, &v)) != 0)
				errx(2, "-%c %s: %s", ch, optarg,
				    sh_strerror(e));
			*opt = (int)v;
			break;
		default:
			if (!hasdocs || !ixdocs_set(&docs, ch, optarg))
				usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1)
		usage();
	if ((when & 1) && strcmp(verb, "expire") != 0)
		usage_only('o', "expire");
	if (list != NULL && !newonly && strcmp(verb, "delete") != 0)
		usage_only('l', "add -u or delete");
	if (hasdocs && strcmp(verb, "add") != 0 && strcmp(verb, "build") != 0)
		usage_only('v', "build or add");
	if (!(when & 1) && strcmp(verb, "expire") == 0) {
		warnx("expire: -o time is needed");
		usage();
	}
	if (strcmp(verb, "build") == 0 || strcmp(verb, "add") == 0) {
		o.replace = verb[0] == 'b';
		if (!o.replace && (o.lean || o.force || o.b || o.r))
			usage_only(o.lean ? 'E' : o.force ? 'O' : o.b ? 'b' :
			    'r', "build");
		if (o.replace && newonly)
			usage_only('u', "add");
		if (!o.b != !o.r)
			usage_only(o.b ? 'b' : 'r', o.b ? "-r" : "-b");
		if (o.b && (e = sh_plan_blocks(&(struct sh_plan){ 0 }, o.b,
		    o.r)) != 0)
			errx(2, "-b %d -r %d: %s", o.b, o.r, sh_strerror(e));
		if (a != NULL && (o.lean || o.b || o.k >= 0))
			usage_conflict('a', o.lean ? 'E' : o.b ? 'b' : 'k');
		/* An add goes to the index's kind of tables; the writer
		 * checks it again under the lock. */
		ixpath = argv[0];
		if (!o.replace && a == NULL &&
		    (e = sh_index_open(&ix, argv[0], where)) == 0) {
			o.t = ix.t;
			bp.b = ix.bands;
			bp.r = ix.rows;
			sh_index_close(&ix);
		} else if (!o.replace && a == NULL && (e == SH_ENOMEM ||
		    (e == SH_EIO && errno == ENOMEM)))
			fail(e);	/* its kind is not known */
		o.bands = bp.b;
		o.rows = bp.r;
		ixadd_run(argv[0], &o, &bp, newonly, list, hasdocs ? &docs :
		    NULL, argc - 1, argv + 1);
		if (fflush(stdout) != 0 || ferror(stdout))
			err(2, "stdout");
		return 0;
	}
	if (newonly)
		usage_only('u', "add");
	if (o.force || o.b || o.r || o.k >= 0 || o.shard.n || budget || a ||
	    o.lean || (when & 2))
		usage_only(o.force ? 'O' : o.b ? 'b' : o.r ? 'r' : o.k >= 0 ?
		    'k' : o.shard.n ? 'P' : a ? 'a' : o.lean ? 'E' : (when &
		    2) ? 'T' : 'S', "build or add");
	if (argc != 1 && strcmp(verb, "delete") != 0)
		usage();
	ixpath = argv[0];
	if ((e = sh_index_open(&ix, argv[0], where)) != 0)
		fail(e);
	if (strcmp(verb, "delete") == 0 || strcmp(verb, "expire") == 0 ||
	    strcmp(verb, "merge") == 0) {
		/* Of the index's kind, which the writer checks again under
		 * the lock. */
		o.t = ix.t;
		o.bands = ix.bands;
		o.rows = ix.rows;
		sh_index_close(&ix);
		ixdel_run(argv[0], &o, verb[0], cutoff, list, argc - 1,
		    argv + 1);
		if (fflush(stdout) != 0 || ferror(stdout))
			err(2, "stdout");
		return 0;
	}
	if (strcmp(verb, "info") == 0)
		info(&ix);
	else if (strcmp(verb, "dump") == 0)
		dump(&ix);
	else if ((e = sh_index_verify(&ix, where)) != 0)
		fail(e);
	sh_index_close(&ix);
	if (fflush(stdout) != 0 || ferror(stdout))
		err(2, "stdout");
	return 0;
}
