/*
 * The costs of reading records back where they lie in a compressed
 * file (base/zmap.h): "zmap build FILE RUNS" builds the map of FILE RUNS
 * times and prints the median seconds and the members; "zmap read FILE
 * [FRAMING]" reads every record of FILE (WARC by default) back by its
 * location, checks it against the file decoded whole, and prints the
 * records, their bytes decoded and the compressed bytes of the members
 * they lie in, and the median milliseconds a record.  The file is read
 * for the records on descriptor 100, so that a trace of pread(2) there
 * (strace -e trace=pread64) counts what reading them costs; a write of
 * "R\n" to descriptor 101 (/dev/null) ends each record's reads; with
 * ZMAP_EACH set, each record's compressed bytes are printed on standard
 * error, a line each.
 */
#include <sys/time.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/errors.h"
#include "base/zmap.h"
#include "text/record.h"

static double
now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int
cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The compressed bytes of the members that decoded [off, off + size)
 * lies in. */
static unsigned long long
span(const struct sh_zmap *m, unsigned long long off, unsigned long long size,
    unsigned long long fsize)
{
	unsigned long long c0, d0, c, d;
	size_t i, n = sh_zmap_count(m);

	for (i = 0; i + 1 < n; i++) {
		sh_zmap_start(m, i + 1, &c, &d);
		if (d > off)
			break;
	}
	sh_zmap_start(m, i, &c0, &d0);
	for (i++; i < n; i++) {
		sh_zmap_start(m, i, &c, &d);
		if (d >= off + size)
			return c - c0;
	}
	return fsize - c0;
}

int
main(int argc, char **argv)
{
	struct sh_recopt o = SH_RECOPT_DEFAULT;
	struct sh_zmap *m;
	struct sh_reader rd;
	struct sh_rec rec;
	char msg[256], cmd[1100], *buf = NULL, *dec = NULL;
	unsigned long long coff, skip, n = 0, bytes = 0, zbytes = 0, fsize, z;
	double t, *ms = NULL;
	size_t cap = 0, nms = 0, dcap = 0;
	FILE *in;
	int fd, r, runs, i, dn, each = getenv("ZMAP_EACH") != NULL;

	if (argc < 3 || (fd = open(argv[2], O_RDONLY)) < 0)
		return 2;
	if (strcmp(argv[1], "build") == 0) {
		runs = argc > 3 ? atoi(argv[3]) : 5;
		if (runs < 1 || (ms = calloc((size_t)runs, sizeof(*ms))) == NULL)
			return 2;
		for (i = 0; i < runs; i++) {
			t = now();
			if ((r = sh_zmap_build(&m, fd, msg, sizeof(msg))) != 0) {
				fprintf(stderr, "zmap: %s: %s\n", argv[2], r ==
				    SH_EZ ? msg : sh_strerror(r));
				return 2;
			}
			ms[i] = now() - t;
			if (i + 1 < runs)
				sh_zmap_free(m);
		}
		qsort(ms, (size_t)runs, sizeof(*ms), cmp_d);
		printf("build %.3f s median of %d, %zu members\n",
		    ms[runs / 2], runs, sh_zmap_count(m));
		sh_zmap_free(m);
		return 0;
	}
	o.mode = argc > 3 ? sh_rec_mode(argv[3]) : SH_REC_WARC;
	if (o.mode < 0 || sh_zmap_build(&m, fd, msg, sizeof(msg)) != 0)
		return 2;
	fsize = (unsigned long long)lseek(fd, 0, SEEK_END);
	if (dup2(fd, 100) != 100 || (dn = open("/dev/null", O_WRONLY)) < 0 ||
	    dup2(dn, 101) != 101)
		return 2;
	snprintf(cmd, sizeof(cmd), "gzip -dc '%s'", argv[2]);
	if ((in = popen(cmd, "r")) == NULL)
		return 2;
	/* The decoded file whole, to check each record against. */
	for (dn = 0;;) {
		size_t k;

		if ((size_t)dn == dcap && (dec = realloc(dec, dcap = dcap * 2 +
		    (1 << 20))) == NULL)
			return 2;
		if ((k = fread(dec + dn, 1, dcap - (size_t)dn, in)) == 0)
			break;
		dn += (int)k;
	}
	pclose(in);
	if ((in = fmemopen(dec, (size_t)dn, "r")) == NULL)
		return 2;
	sh_reader_open(&rd, in, &o, argv[2], 0);
	while ((r = sh_reader_next(&rd, &rec)) != 0) {
		if (r < 0)
			continue;
		if ((size_t)rec.size > cap && (buf = realloc(buf, cap =
		    (size_t)rec.size)) == NULL)
			return 2;
		if (nms % 1024 == 0 && (ms = realloc(ms, (nms + 1024) *
		    sizeof(*ms))) == NULL)
			return 2;
		sh_zmap_find(m, (unsigned long long)rec.off, &coff, &skip);
		t = now();
		r = sh_zrange_read(100, sh_zmap_kind(m), coff, skip, buf,
		    (size_t)rec.size, msg, sizeof(msg));
		ms[nms++] = (now() - t) * 1000;
		if (write(101, "R\n", 2) != 2)
			return 2;
		if (r != 0 || memcmp(buf, dec + rec.off, (size_t)rec.size)) {
			fprintf(stderr, "zmap: record at %lld: %s\n", rec.off,
			    r == 0 ? "differs" : r == SH_EZ ? msg :
			    sh_strerror(r));
			return 1;
		}
		n++;
		bytes += (unsigned long long)rec.size;
		z = span(m, (unsigned long long)rec.off,
		    (unsigned long long)rec.size, fsize);
		zbytes += z;
		if (each)
			fprintf(stderr, "%llu\n", z);
	}
	qsort(ms, nms, sizeof(*ms), cmp_d);
	printf("read %llu records, %llu bytes, in members of %llu "
	    "compressed bytes; %.2f ms a record (median)\n", n, bytes,
	    zbytes, nms ? ms[nms / 2] : 0.0);
	sh_reader_free(&rd);
	fclose(in);
	free(dec);
	free(buf);
	free(ms);
	sh_zmap_free(m);
	return 0;
}
