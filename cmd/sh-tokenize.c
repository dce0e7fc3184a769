/*
 * sh-tokenize: print the weighted features of each document as
 * "ID<TAB>tok^w tok^w ...", the features sh-fp fingerprints, in order of
 * first occurrence.  Input framing and options are those of sh-fp.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "errors.h"
#include "fingerprint.h"
#include "record.h"
#include "weight.h"

static void
usage(void)
{
	fprintf(stderr, "usage: sh-tokenize [-eFHlz] [-f format] [-I idfield] "
	    "[-n ngram] [-T textfield]\n"
	    "                   [-W weight] [-w shingle] [-y types] "
	    "[file ...]\n");
	exit(2);
}

static void
print_bag(const struct sh_rec *rec, const struct sh_bag *bag, int scheme)
{
	const struct sh_bagent *e;
	const char *text = sh_bag_text(bag);
	char w[24];
	size_t i, n;

	fwrite(rec->id, 1, rec->idlen, stdout);
	putchar('\t');
	n = sh_bag_entries(bag, &e);
	for (i = 0; i < n; i++) {
		if (i > 0)
			putchar(' ');
		fwrite(text + e[i].off, 1, e[i].len, stdout);
		putchar('^');
		fwrite(w, 1, sh_weight_format(sh_weight(scheme, e[i].count), w),
		    stdout);
	}
	putchar('\n');
}

/* Tokenize every record of one stream; return 0 or 2. */
static int
tok_stream(struct sh_fp *fp, int scheme, FILE *in, const char *name,
    const struct sh_recopt *ro, int prefix, unsigned long long *nbad,
    unsigned long long *nskip)
{
	const struct sh_bag *bag;
	struct sh_reader rd;
	struct sh_rec rec = { 0 };
	int r, bad, status = 0;

	sh_reader_open(&rd, in, ro, name, prefix);
	if (strcmp(name, "-") == 0)
		name = "<stdin>";
	while ((r = sh_reader_next(&rd, &rec)) != 0) {
		if (sh_rec_skippable(r)) {
			if (ro->skip)
				(*nskip)++;
			else {
				warnx("%s:%llu: %s", name, rec.line,
				    sh_strerror(r));
				status = 2;
			}
			continue;
		}
		bad = 0;
		if (r < 0 || (r = sh_fp_features(fp, rec.text, rec.len, &bag,
		    &bad)) != 0)
			break;
		*nbad += bad;
		print_bag(&rec, bag, scheme);
		if (ferror(stdout))
			err(2, "stdout");
	}
	if (r == SH_EWARC)
		warnx("%s:%llu: %s", name, rec.line, sh_strerror(r));
	else if (r < 0)
		warnx("%s: %s", name, sh_strerror(r));
	sh_reader_free(&rd);
	return r < 0 ? 2 : status;
}

int
main(int argc, char *argv[])
{
	struct sh_fpopt o = SH_FPOPT_DEFAULT;
	struct sh_fp *fp;
	struct sh_recopt ro = SH_RECOPT_DEFAULT;
	unsigned long long nbad = 0, nskip = 0;
	FILE *in;
	int ch, r, status = 0, i;

	while ((ch = getopt(argc, argv, SH_RECOPT_LETTERS SH_FPOPT_LETTERS)) !=
	    -1) {
		if (strchr(SH_RECOPT_LETTERS, ch) != NULL)
			r = sh_recopt_set(&ro, ch, optarg);
		else if (strchr(SH_FPOPT_LETTERS, ch) != NULL)
			r = sh_fpopt_set(&o, ch, optarg);
		else
			usage();
		if (r != 0)
			errx(2, "-%c %s: %s", ch, optarg ? optarg : "",
			    sh_strerror(r));
	}
	argc -= optind;
	argv += optind;
	if ((fp = sh_fp_new(&o)) == NULL)
		errx(2, "%s", sh_strerror(SH_ENOMEM));

	for (i = 0; i == 0 || i < argc; i++) {
		const char *name = argc ? argv[i] : "-";

		if (strcmp(name, "-") == 0)
			in = stdin;
		else if ((in = fopen(name, "r")) == NULL) {
			warn("%s", name);
			status = 2;
			continue;
		}
		r = tok_stream(fp, o.weight, in, name, &ro, argc > 1, &nbad,
		    &nskip);
		if (r > status)
			status = r;
		if (in != stdin)
			fclose(in);
	}
	if (nskip)
		warnx("skipped %llu bad record(s)", nskip);
	if (nbad)
		warnx("%llu document(s) with invalid UTF-8", nbad);
	sh_fp_free(fp);
	if (fflush(stdout) != 0 || ferror(stdout))
		err(2, "stdout");
	return status;
}
