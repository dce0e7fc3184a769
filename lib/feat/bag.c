#include <stdlib.h>
#include <string.h>

#include "feat/bag.h"
#include "base/errors.h"
#include "base/grow.h"

struct sh_bag {
	struct sh_bagent *ent;
	size_t n, cap;
	size_t *slot;		/* 0 empty, else entry index + 1 */
	size_t nslot;		/* power of two, > 2 n */
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
	free(b->slot);
	free(b->text);
	free(b);
}

void
sh_bag_clear(struct sh_bag *b)
{
	size_t i;

	for (i = 0; i < b->n; i++)
		b->slot[b->ent[i].slot] = 0;
	b->n = 0;
	b->tlen = 0;
}

static size_t
probe(const size_t *slot, size_t nslot, const struct sh_bagent *ent,
    uint64_t h)
{
	size_t i, mask = nslot - 1;

	/* The hash is well mixed: its low bits index directly. */
	for (i = (size_t)h & mask; slot[i] != 0; i = (i + 1) & mask)
		if (ent[slot[i] - 1].hash == h)
			break;
	return i;
}

static int
grow(struct sh_bag *b)
{
	size_t *ns, nn = b->nslot ? b->nslot * 2 : 256, i, j;

	if ((ns = calloc(nn, sizeof(*ns))) == NULL)
		return SH_ENOMEM;
	for (i = 0; i < b->n; i++) {
		j = probe(ns, nn, b->ent, b->ent[i].hash);
		ns[j] = i + 1;
		b->ent[i].slot = j;
	}
	free(b->slot);
	b->slot = ns;
	b->nslot = nn;
	return 0;
}

int
sh_bag_add(struct sh_bag *b, uint64_t h, const char *tok, size_t len)
{
	struct sh_bagent *e;
	size_t i;

	if (2 * (b->n + 1) > b->nslot && grow(b) != 0)
		return SH_ENOMEM;
	i = probe(b->slot, b->nslot, b->ent, h);
	if (b->slot[i] != 0) {
		b->ent[b->slot[i] - 1].count++;
		return 0;
	}
	if (b->n == b->cap &&
	    sh_grow(&b->ent, &b->cap, b->n + 1, sizeof(*b->ent)) != 0)
		return SH_ENOMEM;
	if (b->keep_text && b->tcap - b->tlen < len &&
	    sh_grow(&b->text, &b->tcap, b->tlen + len, 1) != 0)
		return SH_ENOMEM;
	e = &b->ent[b->n];
	e->hash = h;
	e->count = 1;
	e->slot = i;
	e->off = b->tlen;
	e->len = 0;
	if (b->keep_text) {
		memcpy(b->text + b->tlen, tok, len);
		b->tlen += len;
		e->len = len;
	}
	b->slot[i] = ++b->n;
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
