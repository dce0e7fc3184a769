/*
 * sh-tokenize: print the weighted features of each document as
 * "ID<TAB>tok^w tok^w ...", the features sh-fp fingerprints, in order of
 * first occurrence.  Input framing and options are those of sh-fp.  With
 * -c, count document frequencies instead; with -m, merge such counts;
 * with -Q, print the text each document becomes instead of its features.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/errors.h"
#include "feat/df.h"
#include "feat/toklist.h"
#include "diag.h"
#include "docopt.h"
#include "input.h"
#include "progress.h"
#include "usage.h"

static const char usage_text[] =
    "usage: sh-tokenize [-12AceFGHlQXz] [-C charset] [-D idf] [-d dict] "
    "[-f format]\n"
    "                   [-I idfield] [-M types] [-n ngram] [-s stopwords]\n"
    "                   [-T textfield] [-U file] [-W weight] [-w shingle]\n"
    "                   [-y types] [file ...]\n"
    "       sh-tokenize -m [file ...]\n"
    "       sh-tokenize -h | -V\n";

struct run {
	struct docopt *opt;
	struct sh_fp *fp;
	struct sh_recopt ro;
	struct sh_df *df;	/* -c: counting, nothing printed per document */
	int text;		/* -Q: the text printed, not cut */
	unsigned long long nskip, ndocs;
};

/*
 * -Q: "ID<TAB>TEXT" on one line, the text as the reader made it, but for
 * its control bytes (TAB, LF, CR, any other of 0 to 31, and 127), each
 * written as a space: the tokenizer cuts at all of them as at a space
 * (feat/tokenize.h: separators), so the line reads back (-X -C utf-8)
 * to the same features and fingerprint.
 */
static void
print_text(const struct sh_rec *rec)
{
	const char *p = rec->text, *end = p + rec->len, *q;

	fwrite(rec->id, 1, rec->idlen, stdout);
	putchar('\t');
	for (; p < end; p = q + 1) {
		for (q = p; q < end && (unsigned char)*q >= 32 && *q != 127; q++)
			;
		fwrite(p, 1, (size_t)(q - p), stdout);
		if (q == end)
			break;
		putchar(' ');
	}
	putchar('\n');
}

static void
print_bag(const struct run *rn, const struct sh_rec *rec,
    const struct sh_bag *bag)
{
	const struct sh_bagent *e;
	const char *text = sh_bag_text(bag);
	size_t i, n;

	fwrite(rec->id, 1, rec->idlen, stdout);
	putchar('\t');
	n = sh_bag_entries(bag, &e);
	for (i = 0; i < n; i++)
		sh_toklist_put(stdout, text + e[i].off, e[i].len,
		    sh_fp_weight(rn->fp, &e[i]), i == 0);
	putchar('\n');
}

/* Tokenize (or count) every record of stream in, named name (shown as
 * shown); return 0 or 2. */
static int
tok_stream(struct run *rn, FILE *in, const char *name, const char *shown,
    int prefix)
{
	const struct sh_bag *bag;
	struct sh_reader rd;
	struct sh_rec rec = { 0 };
	char msg[256];
	int r, bad, status = 0;

	sh_reader_open(&rd, in, &rn->ro, name, prefix);
	/* Input of another format stops at its first record. */
	r = sh_reader_next(&rd, &rec);
	if (diag_reader(shown, &rd)) {
		sh_reader_free(&rd);
		return 2;
	}
	for (; r != 0; r = sh_reader_next(&rd, &rec)) {
		if (sh_rec_skippable(r)) {
			if (rn->ro.skip)
				rn->nskip++;
			else {
				diag(r, shown, rec.line, "%s", docopt_recerr(
				    &rn->ro, r, msg, sizeof(msg)));
				status = 2;
			}
			if (r == SH_ETAB || r == SH_EJSON)
				diag_looks(shown, rec.text, rec.len,
				    r == SH_ETAB ? DIAG_DOCS : DIAG_JSONDOCS);
			continue;
		}
		if (r > 0 && rn->text) {
			progress_items("documents", ++rn->ndocs);
			print_text(&rec);
			if (ferror(stdout))
				err(2, "stdout");
			continue;
		}
		bad = 0;
		if (r < 0 || (r = sh_fp_features(rn->fp, rec.text, rec.len,
		    &bag, &bad)) != 0)
			break;
		if (bad)
			diag_invalid(rec.id, rec.idlen);
		progress_items("documents", ++rn->ndocs);
		if (rn->df != NULL) {
			if ((r = sh_df_add(rn->df, bag)) != 0)
				break;
			continue;
		}
		print_bag(rn, &rec, bag);
		if (ferror(stdout))
			err(2, "stdout");
	}
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

/* -m: sum the DF lines of one stream into m; return 0 or 2. */
static int
merge_stream(struct sh_dfmerge *m, FILE *in, const char *name)
{
	struct sh_lines l;
	const char *p;
	size_t len;
	int r;

	sh_lines_init(&l, in, '\n');
	while ((r = sh_lines_next(&l, &p, &len)) == 1)
		if ((r = sh_dfmerge_line(m, p, len, stdout)) != 0)
			break;
	if (r == SH_EIO && ferror(stdout))
		err(2, "stdout");
	if (r < 0 && r != SH_EIO && r != SH_ENOMEM)
		diag(r, name, l.line, NULL);
	else if (r < 0)
		warnx("%s: %s", name, sh_strerror(r));
	sh_lines_free(&l);
	return r < 0 ? 2 : 0;
}

int
main(int argc, char *argv[])
{
	struct docopt o;
	struct sh_dfmerge m;
	struct run rn = { 0 };
	FILE *in;
	int ch, r, status = 0, i, count = 0, merge = 0, other = 0, ulist = 0;

	argc = usage_init(argc, argv, usage_text);
	docopt_init(&o);
	rn.opt = &o;
	while ((ch = getopt(argc, argv, DOCOPT_LETTERS "QU:Vchm")) != -1) {
		if (ch == 'h')
			usage_help();
		if (ch == 'V')
			usage_version();
		if (ch == 'm') {
			merge = 1;
			continue;
		}
		if (other == 0)
			other = ch;
		if (ch == 'c' || ch == 'Q')
			*(ch == 'c' ? &count : &rn.text) = 1;
		else if (ch == 'U' && (ulist = 1))
			diag_invalid_list(optarg);
		else if (!docopt_set(&o, ch, optarg))
			usage();
	}
	argc -= optind;
	argv += optind;
	if (merge && other)
		usage_conflict('m', other);
	if (rn.text && (count || ulist))
		usage_conflict('Q', count ? 'c' : 'U');
	docopt_load(&o);
	rn.ro = o.rec;
	if ((rn.fp = sh_fp_new(&o.fp)) == NULL ||
	    (count && (rn.df = sh_df_new()) == NULL))
		errx(2, "%s", sh_strerror(SH_ENOMEM));
	sh_dfmerge_init(&m);

	for (i = 0; i == 0 || i < argc; i++) {
		const char *name = argc ? argv[i] : "-", *shown;

		if ((in = input_open(name, &shown)) == NULL) {
			status = 2;
			continue;
		}
		if (merge)
			r = merge_stream(&m, in, shown);
		else
			r = tok_stream(&rn, in, name, shown, argc > 1);
		if (input_end(in) != 0)
			r = 2;
		input_close(in);
		if (r > status)
			status = r;
		if (r != 0 && merge)
			break;
	}
	if (merge && status == 0 && sh_dfmerge_end(&m, stdout) != 0)
		err(2, "stdout");
	if (count && sh_df_write(rn.df, stdout) != 0)
		err(2, "stdout");
	if (rn.nskip)
		warnx("skipped %llu bad record(s)", rn.nskip);
	docopt_report(&o);
	diag_invalid_report();
	sh_dfmerge_free(&m);
	sh_df_free(rn.df);
	sh_fp_free(rn.fp);
	docopt_free(&o);
	if (fflush(stdout) != 0 || ferror(stdout))
		err(2, "stdout");
	return status;
}
