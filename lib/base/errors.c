#include <errno.h>
#include <string.h>

#include "base/errors.h"

const char *
sh_strerror(int e)
{
	switch (e) {
	case SH_OK:		return "success";
	case SH_ENOMEM:		return "out of memory";
	case SH_EIO:		return errno != 0 ? strerror(errno) : "read error";
	case SH_ERANGE:		return "number out of range";
	case SH_ETAB:		return "missing TAB after ID";
	case SH_EHEX:		return "fingerprint is not 16 hex digits";
	case SH_EWEIGHT:	return "bad token weight";
	case SH_EFIELDS:	return "too few fields";
	case SH_EEMPTYTOK:	return "empty token";
	case SH_EINVAL:		return "invalid value";
	case SH_EMAGIC:		return "not an sh index";
	case SH_EVERSION:	return "unsupported index format version";
	case SH_ETRUNC:		return "truncated index file";
	case SH_ECORRUPT:	return "corrupt index file";
	case SH_EEXIST:		return "index exists";
	case SH_EKMISMATCH:	return "index was built for another -k";
	case SH_EJSON:		return "malformed JSON";
	case SH_ENOID:		return "no ID field";
	case SH_ENOTEXT:	return "no text field";
	case SH_EWARC:		return "malformed WARC record";
	case SH_ESHARD:		return "index holds another shard";
	case SH_EUTF8:		return "invalid UTF-8";
	case SH_EDFLINE:	return "not a TOKEN<TAB>COUNT line";
	case SH_EIDFLINE:	return "not a WORD IDF line";
	case SH_EDFN:		return "document frequency above the document count";
	case SH_EUNSORTED:	return "lines not in byte order (sort -m with LC_ALL=C)";
	case SH_ENOIDF:		return "no IDF entries";
	case SH_EUNKNOWN:	return "no fingerprint has this ID";
	case SH_EDUPID:		return "two fingerprints have this ID";
	case SH_EDICT:		return "malformed dictionary line";
	case SH_ENOTREG:	return "not a regular file";
	case SH_ECHANGED:	return "file changed while in use";
	case SH_EFPDIFF:
		return "fingerprint is not the document's under these options";
	case SH_ENODOC:		return "no such document";
	case SH_ESKETCH:	return "not a sketch (m1: and 512 hex digits)";
	case SH_ESKVERSION:	return "sketch of another version (this one "
				    "reads m1 and e1 to e3)";
	case SH_ENOSKETCH:	return "no sketch after the ID (sh-fp -B makes them)";
	case SH_EKIND:		return "index of the other kind (band tables "
				    "answer sketches at -a, fingerprint tables "
				    "distances)";
	case SH_EHTTP:		return "WARC response without an HTTP head "
				    "(no blank line ends it)";
	case SH_EWARCVER:	return "WARC version not read (WARC/1.0 and "
				    "WARC/1.1 are)";
	case SH_EIDTYPE:	return "ID field is neither a string nor a "
				    "number";
	case SH_ETEXTTYPE:	return "text field is not a string";
	case SH_EZ:		return "the decompressor failed";
	case SH_ESKFEATS:	return "sketch of the features: -J edit takes "
				    "that of the characters (sh-fp -BB)";
	case SH_ESKCHARS:	return "sketch of the characters (sh-fp -BB): "
				    "only with -J edit";
	case SH_ESEGMAX:	return "more segments than an index holds "
				    "(64)";
	case SH_EDECIDE:	return "not a line REP<TAB>ID, as sh-near -g "
				    "prints";
	case SH_EWARCLEN:	return "WARC record with two Content-Length "
				    "headers";
	case SH_EBELOW:		return "the index's band tables hold the pairs "
				    "of a higher similarity only (sh-index info "
				    "shows it)";
	case SH_EGZIP:		return "gzip-compressed: decompress it first (zcat)";
	}
	return "unknown error";
}
