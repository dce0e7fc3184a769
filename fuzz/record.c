/*
 * Fuzz target: the record reader (text/record.h), in every framing.
 * The first byte of the input picks the options, the rest is the
 * stream: bits 0-2 the framing (tab, line, nul, para, jsonl, warc, file,
 * and jsonl again with dotted fields), bit 3 HTML reduction (-H), bit 4
 * GBK as the charset of undeclared text (-C GBK), bit 5 "NAME:" line
 * IDs, bit 6 WARC responses of any status (-A), bit 7 other fields,
 * types and media types (-I, -T, -y, -M).
 */
#include <string.h>

#include "base/errors.h"
#include "base/hash.h"
#include "text/record.h"
#include "util.h"

static const int modes[8] = {
	SH_REC_TAB, SH_REC_LINE, SH_REC_NUL, SH_REC_PARA, SH_REC_JSON,
	SH_REC_WARC, SH_REC_FILE, SH_REC_JSON
};

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sh_recopt o = SH_RECOPT_DEFAULT;
	struct sh_reader r;
	struct sh_rec rec;
	unsigned opt = fz_byte(&data, &size);
	uint64_t sum = 0;
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
		if (sh_rec_skippable(e))
			continue;
		if (e < 0)
			break;
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
	fz_keep(sum);
	return 0;
}
