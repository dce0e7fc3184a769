/*
 * bench/readrec: read the records of a file in one format with the
 * library's reader and nothing else, to time the reader alone.
 * usage: bench/readrec format file
 * Prints the number of records and of text bytes.
 */
#include <err.h>
#include <stdio.h>

#include "base/errors.h"
#include "text/record.h"

int
main(int argc, char *argv[])
{
	struct sh_recopt o = SH_RECOPT_DEFAULT;
	struct sh_reader rd;
	struct sh_rec rec;
	unsigned long long n = 0, bytes = 0;
	FILE *in;
	int r;

	if (argc != 3 || (o.mode = sh_rec_mode(argv[1])) < 0)
		errx(2, "usage: readrec format file");
	if ((in = fopen(argv[2], "r")) == NULL)
		err(2, "%s", argv[2]);
	sh_reader_open(&rd, in, &o, argv[2], 0);
	while ((r = sh_reader_next(&rd, &rec)) != 0) {
		if (r < 0 && !sh_rec_skippable(r))
			errx(2, "%s: %s", argv[2], sh_strerror(r));
		if (r > 0) {
			n++;
			bytes += rec.len;
		}
	}
	printf("%llu %llu\n", n, bytes);
	sh_reader_free(&rd);
	fclose(in);
	return 0;
}
