#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/lines.h"

void
sh_lines_init(struct sh_lines *l, FILE *fp, int delim)
{
	memset(l, 0, sizeof(*l));
	l->fp = fp;
	l->delim = delim;
	l->end = -1;
}

int
sh_lines_next(struct sh_lines *l, const char **p, size_t *len)
{
	ssize_t n;

	errno = 0;
	if (l->end >= 0 && l->off >= l->end)
		return 0;
	if ((n = getdelim(&l->buf, &l->cap, l->delim, l->fp)) < 0) {
		return sh_lines_error(l->fp);
	}
	if (l->off == 0 && sh_lines_gzip(l->buf, (size_t)n)) {
		l->end = 0;	/* nothing more of it */
		return SH_EGZIP;
	}
	l->lineoff = l->off;
	l->off += n;
	l->line++;
	if (n > 0 && l->buf[n - 1] == l->delim)
		n--;
	if (l->delim == '\n' && n > 0 && l->buf[n - 1] == '\r')
		n--;
	*p = l->buf;
	*len = (size_t)n;
	return 1;
}

int
sh_lines_error(FILE *fp)
{
	if (feof(fp) && !ferror(fp))
		return 0;
	return errno == ENOMEM ? SH_ENOMEM : SH_EIO;
}

int
sh_lines_gzip(const char *p, size_t len)
{
	return len >= 2 && (unsigned char)p[0] == 0x1f &&
	    (unsigned char)p[1] == 0x8b;
}

void
sh_lines_free(struct sh_lines *l)
{
	free(l->buf);
	l->buf = NULL;
	l->cap = 0;
}
