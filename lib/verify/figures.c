#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/grow.h"
#include "verify/figures.h"
#include "verify/keep.h"

#define NONE 0xFFFFFFFFu
#define UNKNOWN ULLONG_MAX
#define BINS 33

/* A file of the documents, or a host. */
struct group {
	unsigned long long docs, removed;
	unsigned long long largest;	/* members of its largest cluster */
	uint32_t rep;		/* that cluster's kept entry; NONE: none */
	size_t koff, klen;	/* its ID in f->ids */
	size_t name, namelen;	/* a host's name in f->names */
};

struct sh_figures {
	size_t n;
	unsigned long long kept, removed, out, pairs, clusters;
	unsigned long long hist[BINS];	/* bin b: sizes 2^b to 2^(b+1)-1 */
	uint32_t top[SH_FIGURES_TOP], topsize[SH_FIGURES_TOP];
	size_t topoff[SH_FIGURES_TOP], toplen[SH_FIGURES_TOP];
	size_t ntop;
	struct group *file, *host;
	size_t nfile, nhost;
	char *ids, *names;	/* IDs kept for the output; host names */
	size_t idlen, idcap, namelen, namecap;
};

/* A record of the documents, for the file of an entry. */
struct rec {
	uint64_t key;
	uint32_t order, src;
};

static int
cmp_rec(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

struct recs {
	struct rec *v;
	size_t n, cap;
};

static int
add_rec(void *ctx, size_t src, uint64_t key, long long off, long long size)
{
	struct recs *r = ctx;

	(void)off;
	(void)size;
	if (r->n == r->cap && sh_grow(&r->v, &r->cap, r->n + 1,
	    sizeof(*r->v)) != 0)
		return SH_ENOMEM;
	if (r->n >= NONE)
		return SH_ERANGE;
	r->v[r->n].key = key;
	r->v[r->n].order = (uint32_t)r->n;
	r->v[r->n].src = (uint32_t)src;
	r->n++;
	return 0;
}

/* The file of the first record of key in r (sorted), or NONE. */
static uint32_t
file_of(const struct recs *r, uint64_t key)
{
	size_t lo = 0, hi = r->n, mid;

	if (key == 0)
		return NONE;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (r->v[mid].key < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < r->n && r->v[lo].key == key ? r->v[lo].src : NONE;
}

static int
is_alpha(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* The host of a URL id[0..len) into [*a, *e) of it; return 0 when there
 * is none. */
static int
host_of(const char *id, size_t len, size_t *a, size_t *e)
{
	size_t i = 0, h, end;

	if (len == 0 || !is_alpha((unsigned char)id[0]))
		return 0;
	while (i < len && (is_alpha((unsigned char)id[i]) ||
	    (id[i] >= '0' && id[i] <= '9') || id[i] == '+' || id[i] == '-' ||
	    id[i] == '.'))
		i++;
	if (len - i < 3 || memcmp(id + i, "://", 3) != 0)
		return 0;
	h = i + 3;
	for (end = h; end < len && id[end] != '/' && id[end] != '?' &&
	    id[end] != '#'; end++)
		;
	for (i = end; i > h; i--)
		if (id[i - 1] == '@') {
			h = i;
			break;
		}
	if (h < end && id[h] == '[') {
		for (i = h; i < end && id[i] != ']'; i++)
			;
		if (i < end)
			end = i + 1;
	} else
		for (i = h; i < end; i++)
			if (id[i] == ':') {
				end = i;
				break;
			}
	*a = h;
	*e = end;
	return h < end;
}

/* An entry's host: its name p[0..len) in the names. */
struct hostent {
	const char *p;
	size_t off, len;
	uint32_t i;
};

static int
cmp_host(const void *a, const void *b)
{
	const struct hostent *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->p, y->p, n);

	if (c != 0)
		return c;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

static int
cmp64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The largest cluster of each group g[0..ng), the group of entry i
 * being of[i] (NONE: none), and their documents and removed. */
static int
tally(struct group *g, size_t ng, const uint32_t *of, const uint32_t *rep,
    const uint32_t *size, size_t n)
{
	uint64_t *v;
	size_t i, j, m = 0;
	uint32_t gi, c;

	for (i = 0; i < ng; i++)
		g[i].rep = NONE;
	if ((v = malloc(n * sizeof(*v) + 1)) == NULL)
		return SH_ENOMEM;
	for (i = 0; i < n; i++) {
		if ((gi = of[i]) == NONE)
			continue;
		g[gi].docs++;
		g[gi].removed += rep[i] != i;
		if (rep[i] != SH_KEEP_OUT && size[rep[i]] >= 2)
			v[m++] = (uint64_t)gi << 32 | rep[i];
	}
	qsort(v, m, sizeof(*v), cmp64);
	for (i = 0; i < m; i = j) {
		for (j = i; j < m && v[j] == v[i]; j++)
			;
		gi = (uint32_t)(v[i] >> 32);
		c = (uint32_t)v[i];
		if (j - i > g[gi].largest) {
			g[gi].largest = j - i;
			g[gi].rep = c;
		}
	}
	free(v);
	return 0;
}

/* Keep the ID of entry i in f->ids, at *off, *len. */
static int
keep_id(struct sh_figures *f, struct sh_fpset *s, uint32_t i, size_t *off,
    size_t *len)
{
	const char *id;
	int e;

	if ((e = sh_fpset_id(s, i, &id, len)) != 0)
		return e;
	if (sh_grow(&f->ids, &f->idcap, f->idlen + *len + 1, 1) != 0)
		return SH_ENOMEM;
	memcpy(f->ids + f->idlen, id, *len);
	*off = f->idlen;
	f->idlen += *len;
	return 0;
}

/* The clusters: their count, sizes and the largest. */
static void
clusters(struct sh_figures *f, const uint32_t *size)
{
	size_t c, t;
	int b;

	for (c = 0; c < f->n; c++) {
		if (size[c] < 2)
			continue;
		f->clusters++;
		for (b = 0; b + 1 < BINS && (size[c] >> (b + 1)) != 0; b++)
			;
		f->hist[b]++;
		/* The largest first, ties in input order. */
		if (f->ntop == SH_FIGURES_TOP &&
		    size[c] <= f->topsize[f->ntop - 1])
			continue;
		if (f->ntop < SH_FIGURES_TOP)
			f->ntop++;
		for (t = f->ntop - 1; t > 0 && f->topsize[t - 1] < size[c];
		    t--) {
			f->top[t] = f->top[t - 1];
			f->topsize[t] = f->topsize[t - 1];
		}
		f->top[t] = (uint32_t)c;
		f->topsize[t] = size[c];
	}
}

/* Each entry's file (with m) and host, then the groups' figures. */
static int
groups(struct sh_figures *f, struct sh_fpset *s, const uint32_t *rep,
    const uint32_t *size, struct sh_docmap *m)
{
	struct recs r = { NULL, 0, 0 };
	struct hostent *h = NULL;
	uint32_t *fof = NULL, *hof = NULL;
	const char *id;
	size_t i, j, nh = 0, len, a, b;
	int e;

	if ((fof = malloc(f->n * sizeof(*fof) + 1)) == NULL ||
	    (hof = malloc(f->n * sizeof(*hof) + 1)) == NULL ||
	    (h = malloc(f->n * sizeof(*h) + 1)) == NULL) {
		e = SH_ENOMEM;
		goto out;
	}
	if (m != NULL && (e = sh_docmap_walk(m, add_rec, &r)) != 0)
		goto out;
	if (r.n > 0)
		qsort(r.v, r.n, sizeof(*r.v), cmp_rec);
	for (i = 0; i < f->n; i++) {
		if ((e = sh_fpset_id(s, i, &id, &len)) != 0)
			goto out;
		fof[i] = m != NULL && f->nfile > 0 ?
		    file_of(&r, sh_docmap_key(m, id, len)) : NONE;
		hof[i] = NONE;
		if (!host_of(id, len, &a, &b))
			continue;
		/* Each name NUL-terminated, for sh_figover. */
		if (sh_grow(&f->names, &f->namecap, f->namelen + b - a + 1,
		    1) != 0) {
			e = SH_ENOMEM;
			goto out;
		}
		for (j = a; j < b; j++)
			f->names[f->namelen + j - a] = id[j] >= 'A' &&
			    id[j] <= 'Z' ? (char)(id[j] - 'A' + 'a') : id[j];
		h[nh].off = f->namelen;
		h[nh].len = b - a;
		h[nh++].i = (uint32_t)i;
		f->names[f->namelen + b - a] = '\0';
		f->namelen += b - a + 1;
	}
	for (i = 0; i < nh; i++)
		h[i].p = f->names + h[i].off;
	qsort(h, nh, sizeof(*h), cmp_host);
	/* One group a host: its name where its first entry has it. */
	for (i = 0; i < nh; i++) {
		if (i == 0 || h[i].len != h[i - 1].len ||
		    memcmp(h[i].p, h[i - 1].p, h[i].len) != 0)
			f->nhost++;
		hof[h[i].i] = (uint32_t)(f->nhost - 1);
	}
	if ((f->host = calloc(f->nhost + 1, sizeof(*f->host))) == NULL) {
		e = SH_ENOMEM;
		goto out;
	}
	for (i = 0; i < nh; i++) {
		f->host[hof[h[i].i]].name = h[i].off;
		f->host[hof[h[i].i]].namelen = h[i].len;
	}
	if ((e = tally(f->file, f->nfile, fof, rep, size, f->n)) != 0 ||
	    (e = tally(f->host, f->nhost, hof, rep, size, f->n)) != 0)
		goto out;
	for (i = 0; i < f->nfile + f->nhost && e == 0; i++) {
		struct group *g = i < f->nfile ? &f->file[i] :
		    &f->host[i - f->nfile];

		if (g->rep != NONE)
			e = keep_id(f, s, g->rep, &g->koff, &g->klen);
	}
out:
	free(r.v);
	free(h);
	free(fof);
	free(hof);
	return e;
}

int
sh_figures_new(struct sh_figures **fp, struct sh_fpset *s,
    const uint32_t *rep, struct sh_docmap *m, size_t nfiles)
{
	struct sh_figures *f;
	uint32_t *size = NULL;
	size_t i;
	int e;

	*fp = NULL;
	if ((f = calloc(1, sizeof(*f))) == NULL)
		return SH_ENOMEM;
	f->n = sh_fpset_n(s);
	f->nfile = m != NULL ? nfiles : 0;
	if (f->n >= NONE || nfiles >= NONE)
		e = SH_ERANGE;
	else if ((size = calloc(f->n + 1, sizeof(*size))) == NULL ||
	    (f->file = calloc(f->nfile + 1, sizeof(*f->file))) == NULL)
		e = SH_ENOMEM;
	else
		e = 0;
	for (i = 0; e == 0 && i < f->n; i++) {
		if (rep[i] == SH_KEEP_OUT)
			f->out++;
		else
			size[rep[i]]++;
		if (rep[i] == i)
			f->kept++;
		else
			f->removed++;
	}
	f->pairs = f->removed - f->out;
	if (e == 0) {
		clusters(f, size);
		e = groups(f, s, rep, size, m);
	}
	for (i = 0; e == 0 && i < f->ntop; i++)
		e = keep_id(f, s, f->top[i], &f->topoff[i], &f->toplen[i]);
	free(size);
	if (e != 0) {
		sh_figures_free(f);
		return e;
	}
	*fp = f;
	return 0;
}

/* A string in JSON: '"' and '\\' escaped, control bytes as \u00XX. */
static void
put_str(FILE *out, const char *p, size_t len)
{
	size_t i;
	unsigned char c;

	putc('"', out);
	for (i = 0; i < len; i++) {
		c = (unsigned char)p[i];
		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			fprintf(out, "\\u%04x", c);
		else
			putc(c, out);
	}
	putc('"', out);
}

static void
put_num(FILE *out, unsigned long long v)
{
	if (v == UNKNOWN)
		fputs("null", out);
	else
		fprintf(out, "%llu", v);
}

/* a / b with six decimals, null when b is 0 or either unknown. */
static void
put_share(FILE *out, unsigned long long a, unsigned long long b)
{
	if (a == UNKNOWN || b == UNKNOWN || b == 0)
		fputs("null", out);
	else
		fprintf(out, "%.6f", (double)a / (double)b);
}

static void
put_group(const struct sh_figures *f, const struct group *g, FILE *out)
{
	fputs(", \"documents\": ", out);
	put_num(out, g->docs);
	fputs(", \"removed\": ", out);
	put_num(out, g->removed);
	fputs(", \"share_removed\": ", out);
	put_share(out, g->removed, g->docs);
	fputs(", \"largest_cluster\": ", out);
	put_num(out, g->largest);
	fputs(", \"largest_kept\": ", out);
	if (g->rep == NONE)
		fputs("null", out);
	else
		put_str(out, f->ids + g->koff, g->klen);
	fputs("}", out);
}

int
sh_figures_json(const struct sh_figures *f, const struct sh_figcounts *c,
    char *const name[], FILE *out)
{
	static const char *const key[] = { "status", "media_type", "binary",
	    "bad_record", "duplicate_id" };
	unsigned long long skip[5];
	size_t i;
	int b, last;

	skip[0] = c->nstatus;
	skip[1] = c->ntype;
	skip[2] = c->nbinary;
	skip[3] = c->nbad;
	skip[4] = c->ndups;
	fprintf(out, "{\n  \"mode\": \"%c\",\n  \"lines\": %zu,\n",
	    c->mode, f->n);
	fputs("  \"documents\": ", out);
	put_num(out, c->documents);
	fputs(",\n  \"skipped\": ", out);
	if (c->documents == UNKNOWN)
		fputs("null", out);
	else
		for (i = 0; i < 5; i++)
			fprintf(out, "%s\"%s\": %llu%s", i ? ", " : "{", key[i],
			    skip[i], i == 4 ? "}" : "");
	fputs(",\n  \"charset_unknown\": ", out);
	put_num(out, c->nbadcs);
	fputs(",\n  \"candidates\": ", out);
	put_num(out, c->candidates);
	fputs(",\n  \"verified\": ", out);
	put_num(out, c->verified);
	fputs(",\n  \"accepted\": ", out);
	put_num(out, c->accepted);
	fputs(",\n  \"share_accepted\": ", out);
	put_share(out, c->accepted, c->verified);
	fprintf(out, ",\n  \"pairs\": %llu,\n  \"clusters\": %llu,\n"
	    "  \"kept\": %llu,\n  \"removed\": %llu,\n  \"share_removed\": ",
	    f->pairs, f->clusters, f->kept, f->removed);
	put_share(out, f->removed, f->n);
	fprintf(out, ",\n  \"left_out\": %llu,\n  \"cluster_sizes\": [",
	    f->out);
	for (last = BINS - 1; last > 0 && f->hist[last] == 0; last--)
		;
	for (b = 1; b <= last; b++)
		fprintf(out, "%s\n    {\"from\": %llu, \"to\": %llu, "
		    "\"clusters\": %llu}", b > 1 ? "," : "", 1ULL << b,
		    (1ULL << b << 1) - 1, f->hist[b]);
	fputs(last > 0 ? "\n  ],\n  \"largest\": [" : "],\n  \"largest\": [",
	    out);
	for (i = 0; i < f->ntop; i++) {
		fputs(i ? ",\n    {\"kept\": " : "\n    {\"kept\": ", out);
		put_str(out, f->ids + f->topoff[i], f->toplen[i]);
		fprintf(out, ", \"size\": %lu}", (unsigned long)f->topsize[i]);
	}
	fprintf(out, "%s],\n  \"guard\": %u.%06u,\n  \"files\": [",
	    f->ntop ? "\n  " : "", (unsigned)(c->guard / 1000000),
	    (unsigned)(c->guard % 1000000));
	for (i = 0; i < f->nfile; i++) {
		fputs(i ? ",\n    {\"file\": " : "\n    {\"file\": ", out);
		put_str(out, name[i], strlen(name[i]));
		put_group(f, &f->file[i], out);
	}
	fputs(f->nfile ? "\n  ],\n  \"hosts\": [" : "],\n  \"hosts\": [", out);
	for (i = 0; i < f->nhost; i++) {
		fputs(i ? ",\n    {\"host\": " : "\n    {\"host\": ", out);
		put_str(out, f->names + f->host[i].name, f->host[i].namelen);
		put_group(f, &f->host[i], out);
	}
	fputs(f->nhost ? "\n  ]\n}\n" : "]\n}\n", out);
	return ferror(out) ? SH_EIO : 0;
}

static void
row(FILE *out, const char *name, unsigned long long v)
{
	if (v != UNKNOWN)
		fprintf(out, "%s\t%llu\n", name, v);
}

static void
row_share(FILE *out, const char *name, unsigned long long a,
    unsigned long long b)
{
	if (a == UNKNOWN || b == UNKNOWN)
		return;
	fprintf(out, "%s\t%llu\t", name, a);
	put_share(out, a, b);
	putc('\n', out);
}

int
sh_figures_table(const struct sh_figures *f, const struct sh_figcounts *c,
    FILE *out)
{
	row(out, "lines", f->n);
	row(out, "documents", c->documents);
	if (c->documents != UNKNOWN)
		row(out, "skipped", c->nstatus + c->ntype + c->nbinary +
		    c->nbad + c->ndups);
	row(out, "candidates", c->candidates);
	row(out, "verified", c->verified);
	row_share(out, "accepted", c->accepted, c->verified);
	row(out, "pairs", f->pairs);
	row(out, "clusters", f->clusters);
	row(out, "kept", f->kept);
	row_share(out, "removed", f->removed, f->n);
	if (f->ntop > 0) {
		fprintf(out, "largest\t%lu\t", (unsigned long)f->topsize[0]);
		fwrite(f->ids + f->topoff[0], 1, f->toplen[0], out);
		putc('\n', out);
	}
	return ferror(out) ? SH_EIO : 0;
}

/* Whether group g's largest cluster holds more than share of it. */
static int
over(const struct group *g, uint32_t share)
{
	return g->largest >= 2 && g->largest * 1000000 > share * g->docs;
}

void
sh_figures_guard(const struct sh_figures *f, uint32_t share,
    sh_figover_fn *fn, void *ctx)
{
	struct sh_figover o;
	const struct group *g;
	size_t i;

	for (i = 0; i < f->nfile + f->nhost; i++) {
		g = i < f->nfile ? &f->file[i] : &f->host[i - f->nfile];
		if (!over(g, share))
			continue;
		memset(&o, 0, sizeof(o));
		o.host = i >= f->nfile;
		o.file = i;
		if (o.host)
			o.name = f->names + g->name;
		o.members = g->largest;
		o.documents = g->docs;
		o.kept = f->ids + g->koff;
		o.keptlen = g->klen;
		fn(ctx, &o);
	}
}

void
sh_figures_free(struct sh_figures *f)
{
	if (f == NULL)
		return;
	free(f->file);
	free(f->host);
	free(f->ids);
	free(f->names);
	free(f);
}
