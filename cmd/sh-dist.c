/*
 * sh-dist: Hamming distance (or similarity, 1 - d/64) between two
 * fingerprints given as operands, or between the first two fields of each
 * input line.  With -k, the exit status answers "within K?" as cmp does.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "errors.h"
#include "fplist.h"
#include "hex.h"
#include "num.h"
#include "record.h"

static int qflag, sflag;
static long long kmax = -1;

static void
usage(void)
{
	fprintf(stderr, "usage: sh-dist [-qs] [-k max] fingerprint "
	    "fingerprint\n       sh-dist -f [-qs] [-k max] [file ...]\n");
	exit(2);
}

/* Print distance d as a number or a similarity with six exact decimals. */
static void
put_dist(int d)
{
	if (sflag)
		printf("%d.%06d", d == 0, d == 0 ? 0 : (64 - d) * 15625);
	else
		printf("%d", d);
}

/* Distance between the first two TAB-separated fields of p[0..len). */
static int
line_dist(const char *p, size_t len, int *d)
{
	const char *rest, *tab;
	uint64_t a, b;
	size_t n;
	int r;

	if ((r = sh_fpline_parse(p, len, &a, &rest, &n)) != 0)
		return r;
	if ((tab = memchr(rest, '	', n)) != NULL)
		n = (size_t)(tab - rest);
	if (sh_hex_parse(rest, n, &b) != 0)
		return SH_EHEX;
	*d = sh_hamming(a, b);
	return 0;
}

/* Stream mode over one file; *found set when a line was within -k.
 * Return 0 or 2. */
static int
dist_stream(FILE *in, const char *name, int *found)
{
	struct sh_reader rd;
	const char *p;
	size_t len;
	int r, d, status = 0;

	sh_reader_init(&rd, in, SH_REC_LINE, name, 0);
	while ((r = sh_reader_line(&rd, &p, &len)) > 0) {
		if ((r = line_dist(p, len, &d)) != 0) {
			warnx("%s:%llu: %s", name, rd.line, sh_strerror(r));
			status = 2;
			continue;
		}
		if (kmax >= 0 && d > kmax)
			continue;
		*found = 1;
		if (qflag)
			break;
		fwrite(p, 1, len, stdout);
		putchar('\t');
		put_dist(d);
		putchar('\n');
		if (ferror(stdout))
			err(2, "stdout");
	}
	if (r < 0) {
		warnx("%s: %s", name, sh_strerror(r));
		status = 2;
	}
	sh_reader_free(&rd);
	return status;
}

int
main(int argc, char *argv[])
{
	uint64_t a, b;
	FILE *in;
	int ch, r, d, i, fflag = 0, found = 0, status = 0;

	while ((ch = getopt(argc, argv, "fk:qs")) != -1) {
		switch (ch) {
		case 'f':
			fflag = 1;
			break;
		case 'k':
			if ((r = sh_strtonum(optarg, 0, 64, &kmax)) != 0)
				errx(2, "-k %s: %s", optarg, sh_strerror(r));
			break;
		case 'q':
			qflag = 1;
			break;
		case 's':
			sflag = 1;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;

	if (!fflag && argc > 0) {
		if (argc != 2)
			usage();
		for (i = 0; i < 2; i++)
			if (sh_hex_parse(argv[i], strlen(argv[i]),
			    i ? &b : &a) != 0)
				errx(2, "%s: %s", argv[i], sh_strerror(SH_EHEX));
		d = sh_hamming(a, b);
		if (!qflag) {
			put_dist(d);
			putchar('\n');
		}
		found = kmax < 0 || d <= kmax;
	} else {
		for (i = 0; (i == 0 || i < argc) && !(qflag && found); i++) {
			const char *name = argc ? argv[i] : "-";

			if (strcmp(name, "-") == 0)
				in = stdin;
			else if ((in = fopen(name, "r")) == NULL) {
				warn("%s", name);
				status = 2;
				continue;
			}
			r = dist_stream(in, in == stdin ? "<stdin>" : name,
			    &found);
			if (r > status)
				status = r;
			if (in != stdin)
				fclose(in);
		}
	}
	if (fflush(stdout) != 0 || ferror(stdout))
		err(2, "stdout");
	if (status)
		return status;
	return kmax >= 0 && !found ? 1 : 0;
}
