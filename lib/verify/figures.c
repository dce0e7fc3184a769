#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/grow.h"
#include "base/hash.h"
#include "base/hmap.h"
#include "text/json.h"
#include "verify/figures.h"
#include "verify/keep.h"

#define NONE 0xFFFFFFFFu
#define UNKNOWN ULLONG_MAX
#define BINS 33
#define AHEAD 16		/* lookups prefetched ahead */

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

/* A bijective mix of x (0 stays 0), for keys whose low bits are not
 * well mixed (line numbers, entry numbers) to index a map directly. */
static uint64_t
mix(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* sh_docmap_keys: each key of the documents to the file of its first
 * record. */
static int
add_key(void *ctx, uint64_t key, size_t src)
{
	return sh_hmap_put(ctx, mix(key), (uint32_t)src);
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

/* The hosts seen: their names in f->names, in order of first sight;
 * by the hash of the name in map. */
struct hosts {
	struct sh_hmap map;
	struct group *g;
	size_t n, cap;
};

/* The host name[0..len) (in f->names, at off): its group, a new one
 * when not seen; another name of the same hash takes the next seed. */
static int
host_group(struct sh_figures *f, struct hosts *h, size_t off, size_t len,
    uint32_t *gi)
{
	const char *name = f->names + off;
	uint64_t seed, k;
	uint32_t v;
	int r;

	for (seed = 0; ; seed++) {
		k = sh_hash64(name, len, seed);
		if ((r = sh_hmap_add(&h->map, k, (uint32_t)h->n, &v)) < 0)
			return r;
		if (r == 0)
			break;
		if (h->g[v].namelen == len &&
		    memcmp(f->names + h->g[v].name, name, len) == 0) {
			*gi = v;
			return 1;
		}
	}
	if (h->n == h->cap && sh_grow(&h->g, &h->cap, h->n + 1,
	    sizeof(*h->g)) != 0)
		return SH_ENOMEM;
	memset(&h->g[h->n], 0, sizeof(h->g[h->n]));
	h->g[h->n].name = off;
	h->g[h->n].namelen = len;
	*gi = (uint32_t)h->n++;
	return 0;
}

/* Hosts in byte order of their names. */
struct byname {
	const char *p;
	size_t len;
	uint32_t g;
};

static int
cmp_name(const void *a, const void *b)
{
	const struct byname *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->p, y->p, n);

	if (c != 0)
		return c;
	return x->len < y->len ? -1 : x->len > y->len;
}

/* The hosts of h into f->host in byte order, and the group of each
 * entry in hof renumbered so. */
static int
sort_hosts(struct sh_figures *f, struct hosts *h, uint32_t *hof)
{
	struct byname *v;
	uint32_t *rank;
	size_t i;

	if ((v = malloc(h->n * sizeof(*v) + 1)) == NULL ||
	    (rank = malloc(h->n * sizeof(*rank) + 1)) == NULL ||
	    (f->host = calloc(h->n + 1, sizeof(*f->host))) == NULL) {
		free(v);
		return SH_ENOMEM;
	}
	for (i = 0; i < h->n; i++) {
		v[i].p = f->names + h->g[i].name;
		v[i].len = h->g[i].namelen;
		v[i].g = (uint32_t)i;
	}
	if (h->n > 0)
		qsort(v, h->n, sizeof(*v), cmp_name);
	for (i = 0; i < h->n; i++) {
		rank[v[i].g] = (uint32_t)i;
		f->host[i] = h->g[v[i].g];
	}
	f->nhost = h->n;
	for (i = 0; i < f->n; i++)
		if (hof[i] != NONE)
			hof[i] = rank[hof[i]];
	free(v);
	free(rank);
	return 0;
}

/* A cluster's members in a group. */
struct member {
	uint32_t g, rep, n;
};

/* The largest cluster of each group g[0..ng), the group of entry i
 * being of[i] (NONE: none), and their documents and removed; ties to
 * the cluster whose kept entry comes first. */
static int
tally(struct group *g, size_t ng, const uint32_t *of, const uint32_t *rep,
    const uint32_t *size, size_t n)
{
	struct sh_hmap map = { NULL, 0, 0, 0, 0 };
	struct member *v = NULL;
	size_t i, nv = 0, cap = 0;
	uint32_t gi, at;
	int r = 0;

	for (i = 0; i < ng; i++)
		g[i].rep = NONE;
	for (i = 0; i < n && r >= 0; i++) {
		if ((gi = of[i]) == NONE)
			continue;
		g[gi].docs++;
		g[gi].removed += rep[i] != i;
		if (rep[i] == SH_KEEP_OUT || size[rep[i]] < 2)
			continue;
		r = sh_hmap_add(&map, mix((uint64_t)gi << 32 | rep[i]),
		    (uint32_t)nv, &at);
		if (r == 1) {
			v[at].n++;
			continue;
		}
		if (r == 0 && nv == cap && sh_grow(&v, &cap, nv + 1,
		    sizeof(*v)) != 0)
			r = SH_ENOMEM;
		if (r == 0) {
			v[nv].g = gi;
			v[nv].rep = rep[i];
			v[nv++].n = 1;
		}
	}
	for (i = 0; i < nv && r >= 0; i++) {
		gi = v[i].g;
		if (v[i].n > g[gi].largest || (v[i].n == g[gi].largest &&
		    v[i].rep < g[gi].rep)) {
			g[gi].largest = v[i].n;
			g[gi].rep = v[i].rep;
		}
	}
	sh_hmap_free(&map);
	free(v);
	return r < 0 ? r : 0;
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
	struct sh_hmap keys = { NULL, 0, 0, 0, 0 };
	struct hosts h;
	uint32_t *fof = NULL, *hof = NULL, src;
	uint64_t *key = NULL;
	const char *id;
	size_t i, j, len, a, b;
	int e = 0;

	memset(&h, 0, sizeof(h));
	if ((fof = malloc(f->n * sizeof(*fof) + 1)) == NULL ||
	    (hof = malloc(f->n * sizeof(*hof) + 1)) == NULL ||
	    (key = malloc(f->n * sizeof(*key) + 1)) == NULL)
		e = SH_ENOMEM;
	if (e == 0 && m != NULL && (e = sh_hmap_reserve(&keys,
	    sh_docmap_count(m))) == 0)
		e = sh_docmap_keys(m, add_key, &keys);
	for (i = 0; e == 0 && i < f->n; i++) {
		if ((e = sh_fpset_id(s, i, &id, &len)) != 0)
			break;
		key[i] = m != NULL ? mix(sh_docmap_key(m, id, len)) : 0;
		hof[i] = NONE;
		if (!host_of(id, len, &a, &b))
			continue;
		/* Each name NUL-terminated, for sh_figover; dropped again
		 * when its host was seen. */
		if (sh_grow(&f->names, &f->namecap, f->namelen + b - a + 1,
		    1) != 0) {
			e = SH_ENOMEM;
			break;
		}
		for (j = a; j < b; j++)
			f->names[f->namelen + j - a] = id[j] >= 'A' &&
			    id[j] <= 'Z' ? (char)(id[j] - 'A' + 'a') : id[j];
		f->names[f->namelen + b - a] = '\0';
		if ((e = host_group(f, &h, f->namelen, b - a, &hof[i])) < 0)
			break;
		if (e == 0)
			f->namelen += b - a + 1;
		e = 0;
	}
	/* The files, the map's misses overlapping. */
	for (i = 0; e == 0 && i < f->n; i++) {
		if (i + AHEAD < f->n && key[i + AHEAD] != 0)
			sh_hmap_prefetch(&keys, key[i + AHEAD]);
		fof[i] = key[i] != 0 && sh_hmap_get(&keys, key[i], &src) ?
		    src : NONE;
	}
	if (e == 0)
		e = sort_hosts(f, &h, hof);
	if (e == 0 && (e = tally(f->file, f->nfile, fof, rep, size, f->n)) ==
	    0)
		e = tally(f->host, f->nhost, hof, rep, size, f->n);
	for (i = 0; i < f->nfile + f->nhost && e == 0; i++) {
		struct group *g = i < f->nfile ? &f->file[i] :
		    &f->host[i - f->nfile];

		if (g->rep != NONE)
			e = keep_id(f, s, g->rep, &g->koff, &g->klen);
	}
	sh_hmap_free(&keys);
	sh_hmap_free(&h.map);
	free(h.g);
	free(key);
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

/* A string in JSON (text/json.h), in pieces. */
static void
put_str(FILE *out, const char *p, size_t len)
{
	char buf[SH_JSON_ESCAPED(256)];
	size_t n;

	putc('"', out);
	for (; len > 0; p += n, len -= n) {
		n = len < 256 ? len : 256;
		fwrite(buf, 1, sh_json_escape(p, n, buf), out);
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
