#include <stdlib.h>

#include "base/errors.h"
#include "near/linestore.h"

void
sh_linestore_init(struct sh_linestore *l)
{
	sh_fplist_init(&l->mem);
	l->disk = NULL;
	l->rewound = 0;
	l->buf = NULL;
	l->cap = 0;
}

void
sh_linestore_free(struct sh_linestore *l)
{
	sh_fplist_free(&l->mem);
	if (l->disk != NULL) {
		sh_fpstore_close(l->disk);
		free(l->disk);
	}
	free(l->buf);
	sh_linestore_init(l);
}

int
sh_linestore_disk(struct sh_linestore *l, const char *tmpdir)
{
	int e;

	if ((l->disk = malloc(sizeof(*l->disk))) == NULL)
		return SH_ENOMEM;
	if ((e = sh_fpstore_open(l->disk, tmpdir)) != 0) {
		free(l->disk);
		l->disk = NULL;
	}
	return e;
}

int
sh_linestore_add(struct sh_linestore *l, const char *line, size_t len)
{
	if (l->disk == NULL)
		return sh_fplist_add(&l->mem, 0, line, len);
	l->rewound = 0;
	return sh_fpstore_add(l->disk, 0, line, len);
}

size_t
sh_linestore_n(const struct sh_linestore *l)
{
	return l->disk != NULL ? (size_t)l->disk->n : l->mem.n;
}

int
sh_linestore_get(struct sh_linestore *l, size_t i, const char **p,
    size_t *len)
{
	int e;

	if (l->disk == NULL) {
		*p = sh_fplist_id(&l->mem, i, len);
		return 0;
	}
	if (!l->rewound && (e = sh_fpstore_rewind(l->disk)) != 0)
		return e;
	l->rewound = 1;
	if ((e = sh_fpstore_id(l->disk, i, &l->buf, &l->cap, len)) != 0)
		return e;
	*p = l->buf;
	return 0;
}
