/*
 * The options of the programs that read documents (sh-tokenize, sh-fp,
 * sh-dist): how records are framed, and which features they give.  The
 * letters mean the same in the three; see their man pages.
 */
#ifndef DOCOPT_H
#define DOCOPT_H

#include "fp/fingerprint.h"
#include "text/record.h"

/* The getopt letters of the record framing, and of the features. */
#define DOCOPT_REC "AC:FGHI:M:T:Xef:ly:"
#define DOCOPT_FEAT "12D:W:d:n:s:w:z"
#define DOCOPT_LETTERS DOCOPT_REC DOCOPT_FEAT

/* The options of docopt.given. */
enum {
	DOCOPT_GIVEN_N = 1, DOCOPT_GIVEN_W = 2, DOCOPT_GIVEN_WEIGHT = 4,
	DOCOPT_GIVEN_G = 8
};

struct docopt {
	struct sh_recopt rec;
	int modech;		/* the letter of rec.mode: F, l or f; 0 none */
	int htmlch;		/* H or X; 0 none */
	struct sh_fpopt fp;
	int version;		/* -1, -2: that fingerprint version's
				 * defaults; 0: the current one's */
	unsigned given;		/* the options given of those a version
				 * sets (DOCOPT_GIVEN_*) */
	const char *dict;	/* -d, loaded by docopt_load */
	const char **stops;	/* -s, loaded by docopt_load */
	size_t nstops;
	/* What the readers skipped or could not decode (docopt_tally). */
	unsigned long long nstatus, ntype, nbadcs, nbinary;
};

/* The defaults: tab records and the fingerprint's defaults
 * (SH_FPOPT_DEFAULT).  SH_VECTOR in the environment sets the code that
 * fingerprints use (sh_fp_vector); another value than 0, 1 or 2 ends the
 * program with status 2. */
void docopt_init(struct docopt *o);

/*
 * Take option ch with argument arg (NULL for a flag): return 1, or 0 when
 * ch is not a document option.  A bad value ends the program with status
 * 2 and a diagnostic ("-n 0: number out of range"); so do two framings
 * ("-F and -l cannot be used together"; one of them twice is taken the
 * last time) and an IDF file that cannot be loaded (-D is loaded at
 * once).  The names of -d and -s
 * are kept (arg must outlive o) until docopt_load.
 */
int docopt_set(struct docopt *o, int ch, const char *arg);

/*
 * After the last option, take the defaults of fingerprint version 1 or 2
 * with -1 or -2 (the first sets -n 2 -w 1 -W tf, the second -n 5 -w 3 -W
 * binary, both without spanning runs nor -G) for those of -n, -w, -W and
 * -G not given, wherever they stood; load the dictionary and the
 * stop-word lists,
 * their words folded as the text will be (-z, wherever it stood); a file
 * that cannot be loaded ends the program with status 2 and a diagnostic
 * ("FILE:LINE: message").
 */
void docopt_load(struct docopt *o);

/* Add the counts of reader r, after its last record. */
void docopt_tally(struct docopt *o, const struct sh_reader *r);

/* Report on stderr what the readers skipped or could not decode, one
 * line a count that is not 0. */
void docopt_report(const struct docopt *o);

/*
 * The message of error e of reading a record with options ro: for a
 * missing or mistyped JSON field and a missing WARC ID header, one that
 * names the field and the option naming it ("no \"url\" field (-I url)",
 * "no \"text\" field (-T names another)"), made in buf[size]; else
 * sh_strerror(e).
 */
const char *docopt_recerr(const struct sh_recopt *ro, int e, char *buf,
    size_t size);

void docopt_free(struct docopt *o);

#endif
