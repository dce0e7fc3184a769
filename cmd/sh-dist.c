/*
 * sh-dist: Hamming distance (or similarity, 1 - d/64) between two
 * fingerprints or the first two fields of each input line, or the
 * Jaccard similarity two MinHash sketches estimate; with -v, the
 * exact similarity of candidate pairs of documents looked up in a file;
 * with -x, why two documents' fingerprints are close or far.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/errors.h"
#include "base/fpval.h"
#include "base/num.h"
#include "base/sketch.h"
#include "near/pairline.h"
#include "verify/explain.h"
#include "diag.h"
#include "docopt.h"
#include "input.h"
#include "progress.h"
#include "usage.h"
#include "vdocs.h"

#define DOCOPTS DOCOPT_LETTERS "t"

static struct sh_fp *fp;	/* -x */
static struct docopt o;
static struct vdocs vd;		/* -v */
static int qflag, rflag, tflag, measure;
static int found;		/* a line passed, or the two fingerprints */
static long long kmax = -1, ntop = 10;
static long long budget = 256LL << 20;	/* -S: features kept by -v */
static uint32_t minsim;

static const char usage_text[] =
    "usage: sh-dist [-qR] [-k max] fingerprint fingerprint\n"
    "       sh-dist [-q] sketch sketch\n"
    "       sh-dist -p [-qR] [-k max] [file ...]\n"
    "       sh-dist -v docs [-qt] [-a min] [-J measure] [-S size]\n"
    "               [document option ...] [file ...]\n"
    "       sh-dist -x [-t] [-N count] [document option ...] doc1 doc2\n"
    "       sh-dist -x [-t] [-N count] [document option ...] docs id1 id2\n"
    "       sh-dist -h | -V\n";

/* Print line p[0..len) (none when NULL) with its measure appended,
 * unless -q: the distance d, or with -r or -v the similarity sim in
 * millionths; with -R, 1 - d/64 (sh_hamming_sim). */
static void
put(const char *p, size_t len, int d, uint32_t sim)
{
	if (qflag)
		return;
	if (p != NULL) {
		fwrite(p, 1, len, stdout);
		putchar('\t');
	}
	if (vd.vf != NULL || rflag)
		printf("%u.%06u\n", sim / SH_SIM_ONE, sim % SH_SIM_ONE);
	else
		printf("%d\n", d);
	if (ferror(stdout))
		err(2, "stdout");
}

/* A line of pairs: printed with their distance when within -k (fp_pair),
 * or with their similarity when at least -a (doc_pair, -v); reading
 * stops at the first with -q. */
static int
fp_pair(void *status, const char *p, size_t len, const char *name,
    unsigned long long line)
{
	sh_fpval a, b;
	int d, e;

	if (line == 1 && diag_plain(name, p, len, DIAG_FPPAIRS))
		return *(int *)status = 2;
	if ((e = sh_fppair_parse(p, len, &a, &b)) != 0) {
		diag(e, name, line, NULL);
		diag_looks(name, p, len, DIAG_FPLINES);
		*(int *)status = 2;
		return 0;
	}
	if ((d = sh_hamming(a, b)) > kmax && kmax >= 0)
		return 0;
	put(p, len, d, sh_hamming_sim(d));
	found = 1;
	return qflag;
}

static int
doc_pair(void *status, const char *p, size_t len, const char *name,
    unsigned long long line)
{
	const char *id;
	size_t idlen, col;
	uint32_t sim;
	int e;

	if (line == 1 && diag_plain(name, p, len, DIAG_PAIRS))
		return *(int *)status = 2;
	if ((e = sh_verify_line(vd.vf, p, len, &sim, &id, &idlen,
	    &col)) != 0) {
		*(int *)status = vdocs_error(&vd, e, name, line, id, idlen,
		    col);
		return 0;
	}
	if (sim < minsim)
		return 0;
	put(p, len, 0, sim);
	found = 1;
	return qflag;
}

/* Two sketches given as operands: the similarity they estimate. */
static void
two_sketches(char *argv[])
{
	struct sh_sketch s[2];
	int i, e;

	if (kmax >= 0)
		errx(2, "-k: a distance between fingerprints, not sketches");
	for (i = 0; i < 2; i++)
		if ((e = sh_sketch_parse(argv[i], strlen(argv[i]),
		    &s[i])) != 0)
			errx(2, "%.20s...: %s", argv[i], sh_strerror(e));
	rflag = 1;
	put(NULL, 0, 0, sh_sketch_sim(sh_sketch_equal(&s[0], &s[1])));
	found = 1;
}

/* Two fingerprints given as operands: their distance. */
static void
two(char *argv[])
{
	sh_fpval v[2];
	int i, d;

	if (sh_sketch_is(argv[0], strlen(argv[0])) ||
	    sh_sketch_is(argv[1], strlen(argv[1]))) {
		two_sketches(argv);
		return;
	}
	for (i = 0; i < 2; i++)
		if (sh_hex_parse(argv[i], strlen(argv[i]), &v[i]) != 0)
			errx(2, "%s: %s", argv[i], sh_strerror(SH_EHEX));
	d = sh_hamming(v[0], v[1]);
	put(NULL, 0, d, sh_hamming_sim(d));
	found = kmax < 0 || d <= kmax;
}

/* Explain mode: why the fingerprints of doc1 and doc2 are close or far;
 * with three operands, of the documents of IDs argv[1] and argv[2] of
 * the file argv[0]. */
static void
explain(int argc, char *argv[])
{
	struct sh_fvec v[2];
	struct sh_explain x;
	struct sh_docsrc src[2];
	unsigned long long line = 0;
	char *id[2], msg[256];
	size_t i, col;
	int r;

	for (i = 0; i < 2; i++) {
		sh_fvec_init(&v[i], 1);
		if (argc == 3)
			r = sh_verify_doc(vd.m, argv[i + 1], fp, tflag, &v[i],
			    &id[i], &col, &src[i]);
		else
			r = sh_verify_file(argv[i], &o.rec, fp, tflag, &v[i],
			    &id[i], &line, &col, &src[i]);
		src[i].path = argv[argc == 3 ? 0 : i];
		src[i].mode = o.rec.mode;
		if (argc == 3 && r != 1)
			exit(vdocs_error(&vd, r == 0 ? SH_ENODOC : r, NULL, 0,
			    argv[i + 1], strlen(argv[i + 1]), col));
		if (r == SH_EIO || r == SH_ENOMEM)
			errx(2, "%s: %s", argv[i], sh_strerror(r));
		if (r < 0 && col > 0)
			errx(2, "%s:%llu: column %zu: %s", argv[i], line, col,
			    sh_strerror(r));
		if (r < 0)
			errx(2, "%s:%llu: %s", argv[i], line, docopt_recerr(
			    &o.rec, r, msg, sizeof(msg)));
		if (v[i].n == 0)
			errx(2, "%s: no features", argv[i + (argc == 3)]);
	}
	if (sh_explain(&v[0], &v[1], (size_t)ntop, &x) != 0)
		errx(2, "%s", sh_strerror(SH_ENOMEM));
	if (sh_explain_write(stdout, &x, id, src) != 0)
		err(2, "stdout");
	sh_explain_free(&x);
	for (i = 0; i < 2; i++) {
		sh_fvec_free(&v[i]);
		free(id[i]);
	}
}

int
main(int argc, char *argv[])
{
	const char *ok, *p, *docs = NULL;
	int ch, r = 0, form = 0, status = 0;

	argc = usage_init(argc, argv, usage_text);
	docopt_init(&o);
	o.rec.mode = -1;
	while ((ch = getopt(argc, argv, DOCOPTS "J:N:RS:Va:hk:m:pqrv:x")) != -1) {
		switch (ch = usage_option(ch, "mJrR")) {
		case 'S':
			r = sh_strtosize(optarg, 1 << 20, &budget);
			break;
		case 'N':
		case 'k':
			r = sh_strtonum(optarg, 0, ch == 'k' ? SH_FP_BITS : 1000000,
			    ch == 'k' ? &kmax : &ntop);
			break;
		case 'h':
			usage_help();
		case 'V':
			usage_version();
		case 'a':
			r = sh_sim_parse(optarg, &minsim);
			break;
		case 'J':
			r = (measure = sh_sim_measure(optarg)) < 0 ? measure : 0;
			break;
		case 'v':
			docs = vdocs_name(&vd, optarg);
			/* FALLTHROUGH */
		case 'p':
		case 'x':
			form = ch;
			break;
		case 'q':
			qflag = 1;
			break;
		case 'R':
			rflag = 1;
			break;
		case 't':
			tflag = 1;
			break;
		default:
			if (!docopt_set(&o, ch, optarg))
				usage();
		}
		if (r != 0)
			errx(2, "-%c %s: %s", ch, optarg ? optarg : "",
			    sh_strerror(r));
	}
	argc -= optind;
	argv += optind;

	/* Each form takes its own letters and operands only. */
	ok = form == 'v' ? DOCOPTS "JSaqv" : form == 'x' ? DOCOPTS "Nx" :
	    "Rkpq";
	for (p = usage_given(); *p != '\0'; p++)
		if (strchr(ok, *p) == NULL && form != 0)
			usage_conflict(form, *p);
		else if (strchr(ok, *p) == NULL)
			usage_only(*p, strchr("JSa", *p) ? "-v" : *p == 'N' ?
			    "-x" : "-v or -x");
	if ((form == 'x' && argc != 2 && argc != 3) || (form == 0 &&
	    argc != 0 && argc != 2))
		usage();
	if (o.rec.mode < 0)
		o.rec.mode = form == 'x' && argc == 2 && !tflag ? SH_REC_FILE :
		    SH_REC_TAB;
	if (tflag && o.rec.mode != SH_REC_TAB)
		usage_conflict('t', o.modech);
	docopt_load(&o);
	if (form == 'x' && (fp = sh_fp_new(&o.fp)) == NULL)
		errx(2, "%s", sh_strerror(SH_ENOMEM));
	if (form == 'x' && argc == 3)
		(void)vdocs_name(&vd, argv[0]);
	if (vd.nnames > 0)
		vdocs_open(&vd, &o, tflag, measure, (size_t)budget, 0, &status);

	if (form == 'x')
		explain(argc, argv);
	else if (form == 0 && argc > 0)
		two(argv);
	else
		input_lines(argc, argv, vd.vf ? doc_pair : fp_pair, &status,
		    &status);
	vdocs_close(&vd);
	sh_fp_free(fp);
	docopt_free(&o);
	if (fflush(stdout) != 0 || ferror(stdout))
		err(2, "stdout");
	if (status)
		return status;
	return (kmax >= 0 || docs) && !found ? 1 : 0;
}
