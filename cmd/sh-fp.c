/*
 * sh-fp: print the 64-bit simhash fingerprint of each document as
 * "HEX<TAB>ID", and with -B its MinHash sketch after the ID.  Documents
 * are ID<TAB>TEXT lines, numbered lines (-l), whole files (-F), or token
 * lists such as sh-tokenize prints (-t).
 */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/errors.h"
#include "base/num.h"
#include "fp/fpbatch.h"
#include "near/fpline.h"
#include "diag.h"
#include "docopt.h"
#include "input.h"
#include "progress.h"
#include "usage.h"

static const char usage_text[] =
    "usage: sh-fp [-12ABceFGHltXz] [-C charset] [-D idf] [-d dict] [-f format]\n"
    "             [-I idfield] [-j threads] [-L min] [-M types] [-n ngram]\n"
    "             [-P shard/shards] [-s stopwords] [-T textfield] "
    "[-U file]\n"
    "             [-W weight] [-w shingle] [-y types] [file ...]\n"
    "       sh-fp -h | -V\n";

struct run {
	struct docopt *opt;
	struct sh_fpbatch batch;
	struct sh_recopt ro;
	struct sh_shard shard;	/* n = 0: whole files */
	int count;		/* -c */
	long long min;		/* -m */
	unsigned long long nempty, nskip, nshort, ndocs;
};

/* Fingerprint the batch and print it in input order, with the errors
 * where they came (setting *status to 2); empty it.  Return 0, or
 * SH_ENOMEM after the documents before the one that failed. */
static int
flush(struct run *rn, const char *shown, int *status)
{
	struct sh_fpbatch *b = &rn->batch;
	const struct sh_fpdoc *d;
	char sk[SH_SK_TEXT], msg[256];
	size_t i;
	int r = 0;

	sh_fpbatch_run(b);
	for (i = 0; i < b->n && r == 0; i++) {
		d = &b->doc[i];
		if (d->rerr) {
			if (rn->ro.skip)
				rn->nskip++;
			else {
				diag(d->rerr, shown, d->line, "%s",
				    docopt_recerr(&rn->ro, d->rerr, msg,
				    sizeof(msg)));
				*status = 2;
			}
			continue;
		}
		if ((r = d->err) == SH_ENOMEM)
			break;
		if (r != 0) {
			diag(r, shown, d->line, "column %zu: %s", d->col +
			    d->idlen + 1, sh_strerror(r));
			*status = 2;
			r = 0;
			continue;
		}
		if (d->bad)
			diag_invalid(sh_fpbatch_id(b, d), d->idlen);
		if (d->total == 0) {
			rn->nempty++;
			continue;
		}
		progress_items("documents", ++rn->ndocs);
		rn->nshort += d->nfeat < (unsigned long long)rn->min;
		sh_fpline_write(stdout, d->fp, sh_fpbatch_id(b, d), d->idlen);
		if (b->sketch) {
			sh_sketch_format_kind(&d->sk, d->skind, sk);
			putchar('\t');
			fwrite(sk, 1, sizeof(sk), stdout);
		}
		if (rn->count)
			printf("\t%llu", d->nfeat);
		putchar('\n');
		if (ferror(stdout))
			err(2, "stdout");
	}
	sh_fpbatch_clear(b);
	return r;
}

/* Fingerprint every record of stream in, named name (shown as shown);
 * return 0 or 2. */
static int
fp_stream(struct run *rn, FILE *in, const char *name, const char *shown,
    int prefix)
{
	struct sh_reader rd;
	struct sh_rec rec = { 0 };
	const char *z;
	int r, f, status = 0;

	if (rn->shard.n && (z = input_compressed(in)) != NULL) {
		warnx("%s: -P: %s-compressed data does not split by bytes: "
		    "give each process whole files", shown, z);
		return 2;
	}
	sh_reader_open(&rd, in, &rn->ro, name, prefix);
	if (rn->shard.n && (r = sh_reader_shard(&rd, &rn->shard)) != 0) {
		warnx("%s: -P: %s", shown, r == SH_EINVAL ? "whole files "
		    "(-F) do not shard; give each process files of its own" :
		    r == SH_EIO && errno == ESPIPE ? "a pipe does not shard: "
		    "name the file" : sh_strerror(r));
		sh_reader_free(&rd);
		return 2;
	}
	/* Records are read in batches, fingerprinted by the threads, then
	 * printed in order: the same bytes as one at a time. */
	/* Input of another format stops at its first record. */
	r = sh_reader_next(&rd, &rec);
	if (diag_reader(shown, &rd)) {
		sh_reader_free(&rd);
		return 2;
	}
	for (; r != 0; r = sh_reader_next(&rd, &rec)) {
		if (r < 0 && !sh_rec_skippable(r))
			break;
		if (r == SH_ETAB || r == SH_EJSON)
			diag_looks(shown, rec.text, rec.len, r == SH_ETAB ?
			    DIAG_DOCS : DIAG_JSONDOCS);
		if ((r = sh_fpbatch_add(&rn->batch, rec.id, rec.idlen,
		    rec.text, rec.len, rec.line, r < 0 ? r : 0)) != 0 ||
		    (sh_fpbatch_full(&rn->batch) &&
		    (r = flush(rn, shown, &status)) != 0))
			break;
	}
	/* What was read before the end, or before an error. */
	if (rn->batch.n > 0 && (f = flush(rn, shown, &status)) != 0)
		r = f;
	/* A decompressor's failure is the cause of what follows. */
	if (input_end(in) != 0)
		status = 2;
	else if (r == SH_EWARC || r == SH_EWARCVER)
		diag(r, shown, rec.line, NULL);
	else if (r < 0)
		warnx("%s: %s", shown, sh_strerror(r));
	docopt_tally(rn->opt, &rd);
	sh_reader_free(&rd);
	return r < 0 ? 2 : status;
}

int
main(int argc, char *argv[])
{
	struct docopt o;
	struct run rn = { 0 };
	FILE *in;
	long long nthreads = 1;
	int ch, r, status = 0, i, tokens = 0;

	argc = usage_init(argc, argv, usage_text);
	docopt_init(&o);
	rn.opt = &o;
	while ((ch = getopt(argc, argv, DOCOPT_LETTERS "BL:P:U:Vchj:m:t")) != -1) {
		switch (ch = usage_option(ch, "mL")) {
		case 'P':
			if (sh_shard_parse(optarg, &rn.shard) != 0)
				errx(2, "-P %s: %s", optarg,
				    sh_strerror(SH_EINVAL));
			break;
		case 'h':
			usage_help();
		case 'V':
			usage_version();
		case 'j':
			if ((r = sh_strtonum(optarg, 1, 64, &nthreads)) != 0)
				errx(2, "-j %s: %s", optarg, sh_strerror(r));
			break;
		case 't':
			tokens = 1;
			break;
		case 'B':
			/* -BB: the sketch of the characters instead. */
			o.fp.csketch = o.fp.sketch || o.fp.csketch;
			o.fp.sketch = !o.fp.csketch;
			break;
		case 'c':
			rn.count = 1;
			break;
		case 'U':
			diag_invalid_list(optarg);
			break;
		case 'L':
			if ((r = sh_strtonum(optarg, 0, 1LL << 40, &rn.min)) != 0)
				errx(2, "-L %s: %s", optarg, sh_strerror(r));
			break;
		default:
			if (!docopt_set(&o, ch, optarg))
				usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (tokens && o.rec.mode != SH_REC_TAB)
		usage_conflict('t', o.modech);
	if (tokens && o.fp.csketch)
		errx(2, "-BB: the characters of text, not of token lists (-t)");
	docopt_load(&o);
	rn.ro = o.rec;
	if (sh_fpbatch_init(&rn.batch, &o.fp, (int)nthreads, tokens) != 0)
		errx(2, "%s", sh_strerror(SH_ENOMEM));

	for (i = 0; i == 0 || i < argc; i++) {
		const char *name = argc ? argv[i] : "-", *shown;

		if ((in = input_open(name, &shown)) == NULL) {
			status = 2;
			continue;
		}
		r = fp_stream(&rn, in, name, shown, argc > 1);
		input_close(in);
		if (r > status)
			status = r;
	}
	if (rn.nskip)
		warnx("skipped %llu bad record(s)", rn.nskip);
	docopt_report(&o);
	diag_invalid_report();
	if (rn.nempty)
		warnx("skipped %llu document(s) without features", rn.nempty);
	if (rn.nshort)
		warnx("%llu of %llu document(s) with fewer than %lld features: "
		    "short, see sh-fp(1)", rn.nshort, rn.ndocs, rn.min);
	sh_fpbatch_free(&rn.batch);
	docopt_free(&o);
	if (fflush(stdout) != 0 || ferror(stdout))
		err(2, "stdout");
	return status;
}
