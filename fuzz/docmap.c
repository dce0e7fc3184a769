/*
 * Fuzz target: the document map over a stream (text/docmap.h,
 * sh_docmap_add_stream), which keeps each record as the reader returns
 * it, and the feeder of base/zpipe.h that gives back a stream's first
 * bytes.  The first byte of the input picks the options, the rest is the
 * stream: bits 0-2 the framing (tab, line, nul, para, jsonl, warc, and
 * tab twice more), bit 3 HTML reduction (-H), bit 4 the stream is first
 * read through sh_zpipe_feed (SH_Z_NONE: its first SH_Z_MAGIC bytes
 * read, then given back by a thread).  Checks: every record of a
 * sequential read comes back by its ID, the same bytes, unless an
 * earlier record holds that ID; sh_z_kind says the stream is what its
 * magic says.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/errors.h"
#include "base/zpipe.h"
#include "text/docmap.h"
#include "text/record.h"
#include "util.h"

static const int modes[8] = {
	SH_REC_TAB, SH_REC_LINE, SH_REC_NUL, SH_REC_PARA, SH_REC_JSON,
	SH_REC_WARC, SH_REC_TAB, SH_REC_TAB
};

/* Whether a record before number k of the read has ID id. */
static int
seen(char **ids, size_t *lens, size_t k, const char *id, size_t len)
{
	size_t i;

	for (i = 0; i < k; i++)
		if (lens[i] == len && memcmp(ids[i], id, len) == 0)
			return 1;
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sh_recopt o = SH_RECOPT_DEFAULT;
	struct sh_docmap *m;
	struct sh_reader r;
	struct sh_rec rec, got;
	struct sh_zpipe z;
	unsigned char magic[SH_Z_MAGIC];
	unsigned opt = fz_byte(&data, &size);
	char **ids = NULL;
	size_t *lens = NULL, n = 0, k;
	FILE *f, *in;
	int e, fed = 0;

	k = size < SH_Z_MAGIC ? size : SH_Z_MAGIC;
	memcpy(magic, data, k);
	e = sh_z_kind(magic, k);
	FZ_CHECK(e == SH_Z_NONE || (k >= 2 && sh_z_first(magic[0])));
	o.mode = modes[opt & 7];
	o.html = opt >> 3 & 1;
	in = f = fz_memfile(data, size);
	if (opt & 16) {
		k = fread(magic, 1, sizeof(magic), f);
		FZ_CHECK(sh_zpipe_feed(&z, SH_Z_NONE, f, magic, k, 0) == 0);
		FZ_CHECK(z.pid == 0 && (in = fdopen(z.out, "r")) != NULL);
		fed = 1;
	}
	FZ_CHECK(sh_docmap_new(&m, &o, 0, NULL) == 0);
	FZ_CHECK(sh_docmap_add_stream(m, in, "<fuzz>") == 0);
	while ((e = sh_docmap_scan(m, &rec)) != 0)
		if (e < 0 && !sh_rec_skippable(e))
			break;
	FZ_CHECK(e == 0 || e == SH_EWARC || e == SH_EWARCVER ||
	    e == SH_EGZIP || e == SH_ENOMEM);
	if (fed) {
		/* The feeder reads f to its end before it lets go. */
		while (fgetc(in) != EOF)
			;
		fclose(in);
		FZ_CHECK(sh_zpipe_close(&z, 1, NULL, 0) == 0);
	}
	/* A sequential read of the bytes, each record looked up. */
	if (e == 0) {
		rewind(f);
		sh_reader_open(&r, f, &o, "<fuzz>", 0);
		while ((e = sh_reader_next(&r, &rec)) != 0) {
			if (e < 0 && sh_rec_skippable(e))
				continue;
			if (e < 0)
				break;
			if (!seen(ids, lens, n, rec.id, rec.idlen)) {
				FZ_CHECK(sh_docmap_get(m, rec.id, rec.idlen,
				    &got) == 1);
				FZ_CHECK(got.len == rec.len &&
				    memcmp(got.text, rec.text, rec.len) == 0);
				FZ_CHECK(got.idlen == rec.idlen &&
				    memcmp(got.id, rec.id, rec.idlen) == 0);
			}
			ids = realloc(ids, (n + 1) * sizeof(*ids));
			lens = realloc(lens, (n + 1) * sizeof(*lens));
			FZ_CHECK(ids != NULL && lens != NULL);
			FZ_CHECK((ids[n] = malloc(rec.idlen + 1)) != NULL);
			memcpy(ids[n], rec.id, rec.idlen);
			lens[n++] = rec.idlen;
		}
		sh_reader_free(&r);
	}
	while (n > 0)
		free(ids[--n]);
	free(ids);
	free(lens);
	sh_docmap_free(m);
	fclose(f);
	return 0;
}
