#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "record.h"

void
sh_reader_init(struct sh_reader *r, FILE *fp, int mode, const char *name,
    int prefix)
{
	memset(r, 0, sizeof(*r));
	r->fp = fp;
	r->mode = mode;
	r->name = name;
	r->prefix = prefix;
}

void
sh_reader_free(struct sh_reader *r)
{
	free(r->buf);
	free(r->idbuf);
	r->buf = r->idbuf = NULL;
}

int
sh_reader_line(struct sh_reader *r, const char **p, size_t *len)
{
	ssize_t n;

	errno = 0;
	if ((n = getline(&r->buf, &r->cap, r->fp)) < 0) {
		if (ferror(r->fp))
			return errno == ENOMEM ? SH_ENOMEM : SH_EIO;
		return 0;
	}
	r->line++;
	if (n > 0 && r->buf[n - 1] == '\n')
		n--;
	if (n > 0 && r->buf[n - 1] == '\r')
		n--;
	*p = r->buf;
	*len = (size_t)n;
	return 1;
}

/* The whole stream as one record. */
static int
slurp(struct sh_reader *r, struct sh_rec *rec)
{
	size_t len = 0, n, cap;
	char *p;

	if (r->done)
		return 0;
	r->done = 1;
	for (;;) {
		if (r->cap - len < 65536) {
			cap = r->cap ? 2 * r->cap : 65536;
			if ((p = realloc(r->buf, cap)) == NULL)
				return SH_ENOMEM;
			r->buf = p;
			r->cap = cap;
		}
		n = fread(r->buf + len, 1, r->cap - len, r->fp);
		len += n;
		if (n == 0)
			break;
	}
	if (ferror(r->fp))
		return SH_EIO;
	rec->id = r->name;
	rec->idlen = strlen(r->name);
	rec->text = r->buf;
	rec->len = len;
	rec->line = 1;
	return 1;
}

int
sh_reader_next(struct sh_reader *r, struct sh_rec *rec)
{
	const char *p, *tab;
	size_t len, need;
	int ret, n;

	if (r->mode == SH_REC_FILE)
		return slurp(r, rec);
	if ((ret = sh_reader_line(r, &p, &len)) <= 0)
		return ret;
	rec->line = r->line;
	if (r->mode == SH_REC_LINE) {
		need = (r->prefix ? strlen(r->name) : 0) + 24;
		if (r->idcap < need) {
			free(r->idbuf);
			if ((r->idbuf = malloc(need)) == NULL)
				return SH_ENOMEM;
			r->idcap = need;
		}
		if (r->prefix)
			n = snprintf(r->idbuf, need, "%s:%llu", r->name, r->line);
		else
			n = snprintf(r->idbuf, need, "%llu", r->line);
		rec->id = r->idbuf;
		rec->idlen = (size_t)n;
		rec->text = p;
		rec->len = len;
		return 1;
	}
	if ((tab = memchr(p, '\t', len)) == NULL)
		return SH_ETAB;
	rec->id = p;
	rec->idlen = (size_t)(tab - p);
	rec->text = tab + 1;
	rec->len = len - rec->idlen - 1;
	return 1;
}
