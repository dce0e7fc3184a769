/*
 * Error codes of the sh library.  Every library function that can fail
 * returns 0 (or a count) on success and one of these negative codes on
 * failure; the library never prints or exits.  sh_strerror() turns a code
 * into a short lowercase message for the command's diagnostic.
 */
#ifndef SH_ERRORS_H
#define SH_ERRORS_H

enum {
	SH_OK = 0,
	SH_ENOMEM = -1,		/* out of memory */
	SH_EIO = -2,		/* read or write error; errno holds the cause */
	SH_ERANGE = -4,		/* number out of range */
	SH_ETAB = -5,		/* record has no TAB after its ID */
	SH_EHEX = -6,		/* field is not 16 hex digits */
	SH_EWEIGHT = -7,	/* bad token weight */
	SH_EFIELDS = -8,	/* too few fields */
	SH_EEMPTYTOK = -9,	/* empty token */
	SH_EINVAL = -10,	/* invalid option value */
	SH_EMAGIC = -11,	/* not an index file */
	SH_EVERSION = -12,	/* index format version not supported */
	SH_ETRUNC = -13,	/* index file truncated */
	SH_ECORRUPT = -14,	/* index file corrupt (checksum or structure) */
	SH_EEXIST = -15,	/* index exists */
	SH_EKMISMATCH = -16,	/* index serves another distance */
	SH_EJSON = -17,		/* malformed JSON */
	SH_ENOID = -18,		/* record has no ID field */
	SH_ENOTEXT = -19,	/* record has no text field */
	SH_EWARC = -20,		/* malformed WARC record */
	SH_ESHARD = -21,	/* index holds another shard */
	SH_EUTF8 = -22,		/* invalid UTF-8 where it must be valid */
	SH_EDFLINE = -23,	/* DF file line is not TOKEN<TAB>COUNT */
	SH_EIDFLINE = -24,	/* IDF file line is not WORD IDF */
	SH_EDFN = -25,		/* document frequency above document count */
	SH_EUNSORTED = -26,	/* DF lines out of byte order */
	SH_ENOIDF = -27,	/* IDF file without entries */
	SH_EUNKNOWN = -28,	/* no fingerprint has this ID */
	SH_EDUPID = -29,	/* two fingerprints have this ID */
	SH_EDICT = -30,	/* dictionary line not "WORD FREQ [TAG]" */
	SH_ENOTREG = -31,	/* not a regular file (cannot seek) */
	SH_ECHANGED = -32,	/* file changed while in use */
	SH_ENODOC = -33,	/* no document with that ID */
	SH_EGZIP = -34,		/* gzip-compressed input */
	SH_EFPDIFF = -35,	/* fingerprint not that of its document */
	SH_ESKETCH = -36,	/* field is not a sketch */
	SH_ESKVERSION = -37,	/* sketch of another version */
	SH_ENOSKETCH = -38,	/* line has no sketch */
	SH_EKIND = -39,		/* index of the other kind */
	SH_EBELOW = -40,	/* band tables above the threshold */
	SH_EHTTP = -41,		/* WARC response without an HTTP head */
	SH_EWARCVER = -42,	/* WARC version not read */
	SH_EIDTYPE = -43,	/* ID field of another JSON type */
	SH_ETEXTTYPE = -44,	/* text field of another JSON type */
	SH_EZ = -45,		/* the decompressor failed */
	SH_ESEGMAX = -46,	/* more segments than an index holds */
	SH_EDECIDE = -47,	/* not a line REP<TAB>ID of sh-near -g */
	SH_ESKFEATS = -48,	/* a sketch of features, characters needed */
	SH_ESKCHARS = -49,	/* a sketch of characters, features needed */
	SH_EWARCLEN = -50	/* WARC record of two Content-Length headers */
};

/* Message for code e; never NULL.  Static storage.  For SH_EIO it is
 * strerror(errno), so call it before errno can change; "read error" when
 * errno is 0 (a stream's error flag, its read's errno lost: a failed
 * write is told by the call, with its errno). */
const char *sh_strerror(int e);

#endif
