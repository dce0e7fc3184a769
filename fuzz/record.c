/*
 * Fuzz target: the record reader (text/record.h), in every framing.
 * The first byte of the input picks the options, the rest is the
 * stream: bits 0-2 the framing (tab, line, nul, para, jsonl, warc, file,
 * and jsonl again with dotted fields), bit 3 HTML reduction (-H), bit 4
 * GBK as the charset of undeclared text (-C GBK), bit 5 "NAME:" line
 * IDs, bit 6 WARC responses of any status (-A), bit 7 other fields,
 * types and media types (-I, -T, -y, -M).  Read again from a file in 2
 * to 7 shards (sh_reader_shard, the count from the input's size), the
 * shards give the records of one reader, in order, each once.
 */
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/hash.h"
#include "text/record.h"
#include "util.h"

static const int modes[8] = {
	SH_REC_TAB, SH_REC_LINE, SH_REC_NUL, SH_REC_PARA, SH_REC_JSON,
	SH_REC_WARC, SH_REC_FILE, SH_REC_JSON
};

/* What a record read (or a bad record skipped) is: its error, line, ID
 * and text. */
static uint64_t
digest(int e, const struct sh_rec *rec)
{
	uint64_t h = (uint64_t)(unsigned)e * 31 + rec->line;

	if (e == 1)
		h += sh_hash64(rec->id, rec->idlen, h) + sh_hash64(rec->text,
		    rec->len, h + 1);
	return h;
}

/*
 * The records of the file path read in shards, one after the other,
 * against the n digests of one reader of the whole (which ended with 0).
 */
static void
shards(const char *path, const struct sh_recopt *o, int prefix,
    const uint64_t *want, size_t n, size_t size)
{
	struct sh_shard s;
	struct sh_reader r;
	struct sh_rec rec;
	size_t at = 0;
	FILE *f;
	int e;

	s.n = 2 + (uint32_t)(size % 6);
	for (s.i = 0; s.i < s.n; s.i++) {
		if ((f = fopen(path, "r")) == NULL)
			abort();
		sh_reader_open(&r, f, o, "<fuzz>", prefix);
		e = sh_reader_shard(&r, &s);
		FZ_CHECK(e == 0 || e == SH_EGZIP);
		while (e == 0 && (e = sh_reader_next(&r, &rec)) != 0) {
			if (e < 0 && !sh_rec_skippable(e))
				break;
			FZ_CHECK(at < n && want[at] == digest(e, &rec));
			at++;
			e = 0;
		}
		FZ_CHECK(e == 0 || (e == SH_EGZIP && n == 0));
		sh_reader_free(&r);
		fclose(f);
	}
	FZ_CHECK(at == n);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sh_recopt o = SH_RECOPT_DEFAULT;
	struct sh_reader r;
	struct sh_rec rec;
	unsigned opt = fz_byte(&data, &size);
	uint64_t sum = 0, *seen = NULL, *nb;
	size_t nseen = 0;
	FILE *f;
	int e;

	o.mode = modes[opt & 7];
	o.html = opt >> 3 & 1;
	o.charset = opt & 16 ? "GBK" : NULL;
	o.anystatus = opt >> 6 & 1;
	if ((opt & 7) == 7) {
		o.idfield = "meta.id";
		o.textfield = "body.text";
	}
	if (opt & 128) {
		if (o.mode == SH_REC_WARC)
			o.idfield = "WARC-Record-ID";
		o.types = "response,resource,request,metadata";
		o.mtypes = "text/html,*xml*,application/octet-stream";
	}
	f = fz_memfile(data, size);
	sh_reader_open(&r, f, &o, "<fuzz>", opt >> 5 & 1);
	while ((e = sh_reader_next(&r, &rec)) != 0) {
		if (e < 0 && !sh_rec_skippable(e))
			break;
		if ((nb = realloc(seen, (nseen + 1) * sizeof(*seen))) == NULL)
			abort();
		seen = nb;
		seen[nseen++] = digest(e, &rec);
		if (e < 0)
			continue;
		FZ_CHECK(e == 1);
		/* Touch every byte, so that the sanitizers see a bad
		 * pointer or length. */
		sum += sh_hash64(rec.id, rec.idlen, 0);
		sum += sh_hash64(rec.text, rec.len, 0);
		/* An ID never breaks a line or a field. */
		FZ_CHECK(memchr(rec.id, '\t', rec.idlen) == NULL);
		FZ_CHECK(memchr(rec.id, '\n', rec.idlen) == NULL);
		FZ_CHECK(rec.off >= 0 && rec.size >= 0 &&
		    rec.off + rec.size <= (long long)size);
	}
	FZ_CHECK(e == 0 || e == SH_EWARC || e == SH_EWARCVER || e == SH_EGZIP ||
	    e == SH_ENOMEM);
	sh_reader_free(&r);
	fclose(f);
	if ((e == 0 || e == SH_EGZIP) && o.mode != SH_REC_FILE) {
		shards(fz_file("record", data, size), &o, opt >> 5 & 1, seen,
		    e == 0 ? nseen : 0, size);
		fz_unlink("record");
	}
	free(seen);
	fz_keep(sum);
	return 0;
}
