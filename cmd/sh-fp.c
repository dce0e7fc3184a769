/*
 * sh-fp: print the 64-bit simhash fingerprint of each document as
 * "HEX<TAB>ID".  Documents are ID<TAB>TEXT lines, numbered lines (-l),
 * whole files (-F), or token lists such as sh-tokenize prints (-t).
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "errors.h"
#include "fingerprint.h"
#include "hex.h"
#include "record.h"

static void
usage(void)
{
	fprintf(stderr, "usage: sh-fp [-Flt] [-n ngram] [-W weight] "
	    "[-w shingle] [file ...]\n");
	exit(2);
}

struct run {
	struct sh_fp *fp;
	int tokens;
	unsigned long long nbad, nempty;
};

/* Fingerprint every record of one stream; return 0 or 2. */
static int
fp_stream(struct run *rn, FILE *in, const char *name, int mode, int prefix)
{
	struct sh_reader rd;
	struct sh_rec rec;
	char hex[SH_HEX_LEN + 1];
	uint64_t fp, total;
	size_t col;
	int r, bad, status = 0;

	sh_reader_init(&rd, in, mode, name, prefix);
	if (strcmp(name, "-") == 0)
		name = "<stdin>";
	hex[SH_HEX_LEN] = '\t';
	while ((r = sh_reader_next(&rd, &rec)) != 0) {
		if (r == SH_ETAB) {
			warnx("%s:%llu: %s", name, rd.line, sh_strerror(r));
			status = 2;
			continue;
		}
		if (r < 0)
			break;
		bad = 0;
		if (rn->tokens)
			r = sh_fp_tokens(rn->fp, rec.text, rec.len, &fp, &total,
			    &col);
		else
			r = sh_fp_text(rn->fp, rec.text, rec.len, &fp, &total,
			    &bad);
		if (r == SH_ENOMEM)
			break;
		if (r != 0) {
			warnx("%s:%llu: column %zu: %s", name, rec.line,
			    col + rec.idlen + 1, sh_strerror(r));
			status = 2;
			continue;
		}
		rn->nbad += bad;
		if (total == 0) {
			rn->nempty++;
			continue;
		}
		sh_hex_format(fp, hex);
		fwrite(hex, 1, sizeof(hex), stdout);
		fwrite(rec.id, 1, rec.idlen, stdout);
		putchar('\n');
		if (ferror(stdout))
			err(2, "stdout");
	}
	if (r < 0)
		warnx("%s: %s", name, sh_strerror(r));
	sh_reader_free(&rd);
	return r < 0 ? 2 : status;
}

int
main(int argc, char *argv[])
{
	struct sh_fpopt o = SH_FPOPT_DEFAULT;
	struct run rn = { 0 };
	FILE *in;
	int ch, r, mode = SH_REC_TAB, status = 0, i;

	while ((ch = getopt(argc, argv, "FlW:n:tw:")) != -1) {
		switch (ch) {
		case 'F':
			mode = SH_REC_FILE;
			break;
		case 'l':
			mode = SH_REC_LINE;
			break;
		case 't':
			rn.tokens = 1;
			break;
		case 'W':
		case 'n':
		case 'w':
			if ((r = sh_fpopt_set(&o, ch, optarg)) != 0)
				errx(2, "-%c %s: %s", ch, optarg,
				    sh_strerror(r));
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (rn.tokens && mode != SH_REC_TAB)
		usage();
	if ((rn.fp = sh_fp_new(&o)) == NULL)
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
		r = fp_stream(&rn, in, name, mode, argc > 1);
		if (r > status)
			status = r;
		if (in != stdin)
			fclose(in);
	}
	if (rn.nbad)
		warnx("%llu document(s) with invalid UTF-8", rn.nbad);
	if (rn.nempty)
		warnx("skipped %llu document(s) without features", rn.nempty);
	sh_fp_free(rn.fp);
	if (fflush(stdout) != 0 || ferror(stdout))
		err(2, "stdout");
	return status;
}
