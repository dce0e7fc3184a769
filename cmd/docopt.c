/*
 * The options of the programs that read documents: letters to library
 * options, and the diagnostics of bad values.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/num.h"
#include "fp/similar.h"
#include "near/join.h"
#include "text/charset.h"
#include "docopt.h"
#include "usage.h"

void
docopt_init(struct docopt *o)
{
	const char *v = getenv("SH_VECTOR");

	/* SH_VECTOR: the code fingerprints, similarities and joins use
	 * (fp/fingerprint.h, fp/similar.h, near/join.h). */
	if (v != NULL) {
		if (strlen(v) != 1 || v[0] < '0' || v[0] > '2')
			errx(2, "SH_VECTOR=%s: not 0, 1 or 2", v);
		sh_fp_vector(v[0] - '0');
		sh_sim_vector(v[0] == '2');
		sh_join_vector(v[0] == '2');
	}
	memset(o, 0, sizeof(*o));
	o->rec = (struct sh_recopt)SH_RECOPT_DEFAULT;
	o->fp = (struct sh_fpopt)SH_FPOPT_DEFAULT;
}

/* End the program on error r of loading file name for option ch, found
 * at line (0: none). */
static void
fail(int ch, const char *name, int r, unsigned long long line)
{
	if (r == SH_ENOMEM || (r == SH_EINVAL && ch == 's'))
		errx(2, "-%c %s: %s", ch, name, sh_strerror(r));
	if (line == 0)
		errx(2, "%s: %s", name, sh_strerror(r));
	errx(2, "%s:%llu: %s", name, line, sh_strerror(r));
}

int
docopt_set(struct docopt *o, int ch, const char *arg)
{
	unsigned long long line;
	const char **ns;
	char num[8];
	size_t n;
	long long v;
	int r = 0, x;

	if (strchr("Ffl", ch) != NULL) {
		if (o->modech != 0 && o->modech != ch)
			usage_conflict(o->modech, ch);
		o->modech = ch;
	}
	switch (ch) {
	case 'F':
		o->rec.mode = SH_REC_FILE;
		break;
	case 'l':
		o->rec.mode = SH_REC_LINE;
		break;
	case 'f':
		if ((o->rec.mode = sh_rec_mode(arg)) < 0)
			r = SH_EINVAL;
		break;
	case 'H':
	case 'X':
		if (o->htmlch != 0 && o->htmlch != ch)
			usage_conflict(o->htmlch, ch);
		o->htmlch = ch;
		o->rec.html = ch == 'H' ? SH_HTML_ALWAYS : SH_HTML_NEVER;
		break;
	case 'G':
		o->rec.maintext = 1;
		o->given |= DOCOPT_GIVEN_G;
		break;
	case '1':
	case '2':
		o->version = ch - '0';
		break;
	case 'I':
		o->rec.idfield = arg;
		break;
	case 'T':
		o->rec.textfield = arg;
		break;
	case 'y':
		o->rec.types = arg;
		break;
	case 'e':
		o->rec.skip = 1;
		break;
	case 'A':
		o->rec.anystatus = 1;
		break;
	case 'M':
		o->rec.mtypes = arg;
		break;
	case 'C':
		if (!sh_charset_known(arg))
			r = SH_EINVAL;
		o->rec.charset = arg;
		break;
	case 'd':
		o->dict = arg;
		break;
	case 'n':
	case 'w':
		/* -n Nx: spanning runs (feat/tokenize.h). */
		n = strlen(arg);
		x = ch == 'n' && n > 1 && arg[n - 1] == 'x';
		if (x && n < sizeof(num))
			memcpy(num, arg, n - 1);
		num[x && n < sizeof(num) ? n - 1 : 0] = '\0';
		if ((r = sh_strtonum(x ? num : arg, 1, SH_TOK_MAX, &v)) != 0)
			break;
		if (ch == 'n') {
			o->fp.tok.ngram = (int)v;
			o->fp.tok.span = x;
			o->given |= DOCOPT_GIVEN_N;
		} else {
			o->fp.tok.shingle = (int)v;
			o->given |= DOCOPT_GIVEN_W;
		}
		break;
	case 'W':
		if ((o->fp.weight = sh_weight_scheme(arg)) < 0)
			r = SH_EINVAL;
		o->given |= DOCOPT_GIVEN_WEIGHT;
		break;
	case 's':
		if ((ns = realloc(o->stops, (o->nstops + 1) *
		    sizeof(*ns))) == NULL)
			r = SH_ENOMEM;
		else {
			o->stops = ns;
			o->stops[o->nstops++] = arg;
		}
		break;
	case 'D':
		if ((r = sh_fpopt_idf(&o->fp, arg, &line)) != 0)
			fail(ch, arg, r, line);
		break;
	case 'z':
		o->fp.tok.simplify = 1;
		break;
	default:
		return 0;
	}
	if (r != 0)
		errx(2, "-%c %s: %s", ch, arg ? arg : "", sh_strerror(r));
	return 1;
}

/* -1, -2: the defaults of that version for the options not given. */
static void
old_version(struct docopt *o)
{
	const struct sh_fpopt v1 = SH_FPOPT_V1, v2 = SH_FPOPT_V2;
	const struct sh_fpopt *v = o->version == 1 ? &v1 : &v2;

	if (o->version == 0)
		return;
	if (!(o->given & DOCOPT_GIVEN_N)) {
		o->fp.tok.ngram = v->tok.ngram;
		o->fp.tok.span = v->tok.span;
	}
	if (!(o->given & DOCOPT_GIVEN_W))
		o->fp.tok.shingle = v->tok.shingle;
	if (!(o->given & DOCOPT_GIVEN_WEIGHT))
		o->fp.weight = v->weight;
	if (!(o->given & DOCOPT_GIVEN_G))
		o->rec.maintext = 0;
}

void
docopt_load(struct docopt *o)
{
	unsigned long long line;
	size_t i;
	int r;

	old_version(o);
	if (o->dict != NULL &&
	    (r = sh_fpopt_dict(&o->fp, o->dict, &line)) != 0)
		fail('d', o->dict, r, line);
	for (i = 0; i < o->nstops; i++)
		if ((r = sh_fpopt_stop(&o->fp, o->stops[i], &line)) != 0)
			fail('s', o->stops[i], r, line);
}

void
docopt_tally(struct docopt *o, const struct sh_reader *r)
{
	o->nstatus += r->nstatus;
	o->ntype += r->ntype;
	o->nbadcs += r->nbadcs;
	o->nbinary += r->nbinary;
}

void
docopt_report(const struct docopt *o)
{
	if (o->nstatus)
		warnx("skipped %llu WARC response(s) of an HTTP status other "
		    "than 2xx (-A keeps them)", o->nstatus);
	if (o->ntype)
		warnx("skipped %llu WARC response(s) of a media type not "
		    "kept (-M)", o->ntype);
	if (o->nbinary)
		warnx("skipped %llu binary document(s): a NUL byte, the magic "
		    "number of a binary format, or control bytes", o->nbinary);
	if (o->nbadcs)
		warnx("%llu document(s) in a charset unknown here, read as "
		    "UTF-8", o->nbadcs);
}

void
docopt_free(struct docopt *o)
{
	sh_fpopt_free(&o->fp);
	free(o->stops);
	o->stops = NULL;
	o->nstops = 0;
}

const char *
docopt_recerr(const struct sh_recopt *ro, int e, char *buf, size_t size)
{
	int text = e == SH_ENOTEXT || e == SH_ETEXTTYPE;
	const char *f = text ? ro->textfield : ro->idfield;
	const char *what = e == SH_EIDTYPE ? " is neither a string nor a "
	    "number" : e == SH_ETEXTTYPE ? " is not a string" : "";

	if (ro->mode == SH_REC_WARC && e == SH_ENOID)
		snprintf(buf, size, "no %s header (-I %s)", f != NULL ? f :
		    "WARC-Target-URI", f != NULL ? f : "names another");
	else if (ro->mode == SH_REC_JSON && (e == SH_ENOID ||
	    e == SH_ENOTEXT || e == SH_EIDTYPE || e == SH_ETEXTTYPE))
		snprintf(buf, size, "%s\"%s\" field%s (-%c %s)", *what ? "" :
		    "no ", f != NULL ? f : text ? "text" : "id", what,
		    text ? 'T' : 'I', f != NULL ? f : "names another");
	else
		return sh_strerror(e);
	return buf;
}
