#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/grow.h"
#include "base/hmap.h"
#include "feat/bag.h"

#define WIPE 16		/* most slots a key for which they are wiped */

struct sh_bag {
	struct sh_bagent *ent;
	size_t n, cap;
	struct sh_hmap map;	/* hash to entry number */
	char *text;
	size_t tlen, tcap;
	int keep_text;
};

struct sh_bag *
sh_bag_new(int keep_text)
{
	struct sh_bag *b;

	if ((b = calloc(1, sizeof(*b))) == NULL)
		return NULL;
	b->keep_text = keep_text;
	return b;
}

void
sh_bag_free(struct sh_bag *b)
{
	if (b == NULL)
		return;
	free(b->ent);
	sh_hmap_free(&b->map);
	free(b->text);
	free(b);
}

void
sh_bag_clear(struct sh_bag *b)
{
	size_t i;

	/*
	 * The slots wiped while they are few for the keys (a memset of 16
	 * bytes a slot costs less than a deletion a key), else each key
	 * deleted: after a long document the slots are many, and the next
	 * documents short.  Either way O(distinct features).
	 */
	if (b->map.nslot <= WIPE * b->n)
		sh_hmap_clear(&b->map);
	else
		for (i = 0; i < b->n; i++)
			sh_hmap_del(&b->map, b->ent[i].hash);
	b->n = 0;
	b->tlen = 0;
}

int
sh_bag_add(struct sh_bag *b, uint64_t h, const char *tok, size_t len)
{
	struct sh_bagent *e;
	uint32_t i;
	int r;

	if (b->n < UINT32_MAX)
		r = sh_hmap_add(&b->map, h, (uint32_t)b->n, &i);
	else if ((r = sh_hmap_get(&b->map, h, &i)) == 0)
		return SH_ENOMEM;	/* entry numbers are 32-bit */
	if (r < 0)
		return r;
	if (r == 1) {
		b->ent[i].count++;
		return 0;
	}
	if ((b->n == b->cap &&
	    sh_grow(&b->ent, &b->cap, b->n + 1, sizeof(*b->ent)) != 0) ||
	    (b->keep_text && b->tcap - b->tlen < len &&
	    sh_grow(&b->text, &b->tcap, b->tlen + len, 1) != 0)) {
		sh_hmap_del(&b->map, h);
		return SH_ENOMEM;
	}
	e = &b->ent[b->n++];
	e->hash = h;
	e->count = 1;
	e->off = b->tlen;
	e->len = 0;
	if (b->keep_text) {
		memcpy(b->text + b->tlen, tok, len);
		b->tlen += len;
		e->len = len;
	}
	return 0;
}

size_t
sh_bag_entries(const struct sh_bag *b, const struct sh_bagent **ents)
{
	*ents = b->ent;
	return b->n;
}

const char *
sh_bag_text(const struct sh_bag *b)
{
	return b->text;
}
