#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/fpval.h"
#include "feat/weight.h"
#include "fp/edit.h"
#include "near/plan.h"
#include "text/record.h"
#include "verify/explain.h"

#if SH_FP_BITS != 64
#error "a feature hash of 64 bits votes on the fingerprint bit for bit"
#endif

/* Score of a feature of hash h and weights wa, wb. */
static int64_t
score(uint64_t h, uint64_t wa, uint64_t wb, sh_fpval fa, sh_fpval diff)
{
	int m = sh_hamming(h & diff, ~fa & diff) - sh_hamming(h & diff,
	    fa & diff);
	uint64_t d = wa > wb ? wa - wb : wb - wa;
	int neg = (wa < wb) != (m < 0);

	if (m < 0)
		m = -m;
	if (m == 0 || d == 0)
		return 0;
	if (d > (uint64_t)INT64_MAX / (uint64_t)m)
		return neg ? -INT64_MAX : INT64_MAX;
	return neg ? -(int64_t)(d * (uint64_t)m) : (int64_t)(d * (uint64_t)m);
}

static int
cmp_pull(const void *x, const void *y)
{
	const struct sh_pull *a = x, *b = y;
	size_t n = a->len < b->len ? a->len : b->len;
	int c;

	if (a->score != b->score)
		return a->score > b->score ? -1 : 1;
	if ((c = memcmp(a->text, b->text, n)) != 0)
		return c;
	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	if (a->hash != b->hash)
		return a->hash < b->hash ? -1 : 1;
	return 0;
}

/* The features of positive score into a new array *out; how many, or
 * SH_ENOMEM. */
static long long
pull(const struct sh_fvec *a, const struct sh_fvec *b, sh_fpval fa,
    sh_fpval fb, struct sh_pull **out)
{
	struct sh_pull *all, *p;
	const struct sh_fvent *e;
	size_t i = 0, j = 0, k = 0;

	if ((all = malloc((a->n + b->n + 1) * sizeof(*all))) == NULL)
		return SH_ENOMEM;
	while (i < a->n || j < b->n) {
		p = &all[k];
		if (j == b->n || (i < a->n && a->e[i].hash < b->e[j].hash)) {
			e = &a->e[i++];
			p->wa = e->w;
			p->wb = 0;
			p->text = a->text ? a->text + e->off : "";
		} else if (i == a->n || a->e[i].hash > b->e[j].hash) {
			e = &b->e[j++];
			p->wa = 0;
			p->wb = e->w;
			p->text = b->text ? b->text + e->off : "";
		} else {
			e = &a->e[i++];
			p->wa = e->w;
			p->wb = b->e[j++].w;
			p->text = a->text ? a->text + e->off : "";
		}
		p->hash = e->hash;
		p->len = e->len;
		p->score = score(p->hash, p->wa, p->wb, fa, fa ^ fb);
		k += p->score > 0;
	}
	qsort(all, k, sizeof(*all), cmp_pull);
	*out = all;
	return (long long)k;
}

static void
blocks(sh_fpval fa, sh_fpval fb, struct sh_block out[SH_EXPLAIN_BLOCKS])
{
	struct sh_plan p;
	uint64_t mask;
	int i;

	sh_plan_init(&p, SH_EXPLAIN_BLOCKS - 1, 1, 0);
	for (i = 0; i < p.nblocks; i++) {
		mask = ((uint64_t)1 << p.blen[i]) - 1;
		out[i].a = fa >> p.bshift[i] & mask;
		out[i].b = fb >> p.bshift[i] & mask;
		out[i].diff = sh_hamming(out[i].a, out[i].b);
	}
}

int
sh_explain(const struct sh_fvec *a, const struct sh_fvec *b, size_t n,
    struct sh_explain *x)
{
	long long k;
	int m;

	x->fp[0] = sh_fvec_fp(a);
	x->fp[1] = sh_fvec_fp(b);
	x->dist = sh_hamming(x->fp[0], x->fp[1]);
	blocks(x->fp[0], x->fp[1], x->block);
	for (m = 0; m < SH_SIM_COUNT; m++)
		x->sim[m] = m == SH_SIM_EDIT ? 0 : sh_sim(m, a, b);
	x->nc[0] = a->nc;
	x->nc[1] = b->nc;
	x->top = NULL;
	/* The distance once: the similarity is of it. */
	if ((x->edits = sh_edit_dist(NULL, a->c, a->nc, b->c, b->nc,
	    (size_t)-1)) < 0)
		return SH_ENOMEM;
	x->sim[SH_SIM_EDIT] = sh_sim_edits(x->edits, a->nc, b->nc);
	if ((k = pull(a, b, x->fp[0], x->fp[1], &x->top)) < 0)
		return SH_ENOMEM;
	x->ntop = (size_t)k < n ? (size_t)k : n;
	return 0;
}

void
sh_explain_free(struct sh_explain *x)
{
	free(x->top);
	x->top = NULL;
}

/* Write weight w in units, then c. */
static void
put_weight(FILE *out, uint64_t w, int c)
{
	char s[24];

	fwrite(s, 1, sh_weight_format(w, s), out);
	putc(c, out);
}

/* Line "text ID SOURCE" of sh_explain_write. */
static void
put_source(FILE *out, const char *id, const struct sh_docsrc *s)
{
	const unsigned char *p;

	fprintf(out, "text\t%s\t%s ", id, sh_rec_modename(s->mode));
	for (p = (const unsigned char *)s->path; *p != '\0'; p++)
		if (*p == '\\' || *p == '\t' || *p == '\n' || *p == '\r')
			fprintf(out, "\\%c", *p == '\\' ? '\\' : *p == '\t' ?
			    't' : *p == '\n' ? 'n' : 'r');
		else if (*p < 32 || *p == 127)
			fprintf(out, "\\x%02x", *p);
		else
			putc(*p, out);
	fprintf(out, " offset %lld length %lld, %s, charset %s%s\n",
	    s->off, s->size, s->html ? "html reduced" : "no html",
	    s->charset[0] ? s->charset : "utf-8",
	    s->charset[0] && s->csdetected ? " detected" : "");
}

int
sh_explain_write(FILE *out, const struct sh_explain *x, char *const id[2],
    const struct sh_docsrc *src)
{
	const struct sh_block *bl = x->block;
	size_t i;

	for (i = 0; i < 2; i++)
		fprintf(out, "fingerprint\t%016llx\t%s\n",
		    (unsigned long long)x->fp[i], id[i]);
	for (i = 0; src != NULL && i < 2; i++)
		put_source(out, id[i], &src[i]);
	fprintf(out, "distance\t%d\n", x->dist);
	for (i = 0; i < SH_EXPLAIN_BLOCKS; i++)
		fprintf(out, "block\t%zu\t%04llx\t%04llx\t%d\t%s\n", i,
		    (unsigned long long)bl[i].a, (unsigned long long)bl[i].b,
		    bl[i].diff, bl[i].diff ? "differ" : "agree");
	for (i = 0; i < SH_SIM_COUNT; i++)
		fprintf(out, "similarity\t%s\t%u.%06u\n",
		    sh_sim_name((int)i), x->sim[i] / SH_SIM_ONE,
		    x->sim[i] % SH_SIM_ONE);
	fprintf(out, "edits\t%lld\t%zu\t%zu\n", x->edits, x->nc[0], x->nc[1]);
	for (i = 0; i < x->ntop; i++) {
		fputs("feature\t", out);
		put_weight(out, (uint64_t)x->top[i].score, '\t');
		put_weight(out, x->top[i].wa, '\t');
		put_weight(out, x->top[i].wb, '\t');
		fwrite(x->top[i].text, 1, x->top[i].len, out);
		putc('\n', out);
	}
	return ferror(out) ? SH_EIO : 0;
}
