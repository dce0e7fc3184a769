/*
 * What -h says of each option, one line each, after the usage: the
 * options of the programs, then those of the documents they read.  The
 * man pages say the rest.
 */
#include <string.h>

#include "help.h"

static const char docs[] =
    "Documents (the records read, and their features):\n"
    "  -f format     records: tab (ID<TAB>TEXT, the default), line, file, "
    "nul, para,\n"
    "                jsonl or warc\n"
    "  -F            each file is one document, its path the ID\n"
    "  -l            each line is a document, its number the ID\n"
    "  -I idfield    the ID's JSON field or WARC header\n"
    "  -T textfield  the text's JSON field\n"
    "  -y types      the WARC record types read\n"
    "  -M types      the media types of WARC responses kept (default: "
    "HTML, XHTML,\n"
    "                plain text)\n"
    "  -A            keep WARC responses of any HTTP status, not only 2xx\n"
    "  -C charset    the charset of text that declares none (default "
    "UTF-8)\n"
    "  -H            take every record as HTML, reduced to its text\n"
    "  -G            reduce HTML to its main content: no navigation, "
    "headers,\n"
    "                footers, link lists or notices (the default but "
    "after -1, -2)\n"
    "  -X            take no record as HTML (default: those whose type "
    "says so,\n"
    "                or that start as HTML)\n"
    "  -e            skip bad records, counting them, instead of failing\n"
    "  -1, -2        the defaults of fingerprint version 1 or 2 for "
    "the options not\n"
    "                given (version 3: -n 5x -w 3 -W binary -G)\n"
    "  -n ngram      CJK characters per feature (default 5x); Nx: "
    "across punctuation\n"
    "  -w shingle    words per feature (default 3)\n"
    "  -W weight     feature weights: binary (default), tf or logtf\n"
    "  -D idf        IDF weights from a file\n"
    "  -d dict       a dictionary that cuts CJK text into words\n"
    "  -s stopwords  words left out: @en, @zh, or a file of words\n"
    "  -z            fold traditional Chinese to simplified\n";

static const struct {
	const char *prog, *text;
	int docs;
} help[] = {
	{ "sh-tokenize",
	    "Options:\n"
	    "  -c            count document frequencies (DF lines) instead of "
	    "tokens\n"
	    "  -m            merge DF lines, each input sorted (sh-tokenize "
	    "-c of shards)\n"
	    "  -Q            print the text each document becomes instead "
	    "of tokens\n"
	    "  -U file       write there the IDs of documents with invalid "
	    "UTF-8\n"
	    "  -h            this help;  -V  the version;  --progress  "
	    "progress on stderr\n", 1 },
	{ "sh-fp",
	    "Options:\n"
	    "  -B            add the document's MinHash sketch to each line; "
	    "-BB that of\n"
	    "                its characters, for sh-near -J edit\n"
	    "  -c            add the document's feature count to each line\n"
	    "  -j threads    fingerprint on this many threads (default 1)\n"
	    "  -L min        count documents of fewer than min features\n"
	    "  -P i/n        read shard i of n of each file (tab, nul, "
	    "jsonl)\n"
	    "  -t            read token lists (sh-tokenize) instead of text\n"
	    "  -U file       write there the IDs of documents with invalid "
	    "UTF-8\n"
	    "  -h            this help;  -V  the version;  --progress  "
	    "progress on stderr\n", 1 },
	{ "sh-near",
	    "Options:\n"
	    "  -k max        the distance (default 3, or the index's)\n"
	    "  -a min        pairs at this Jaccard similarity or more "
	    "(with -v)\n"
	    "  -v docs       verify each pair against the documents of docs\n"
	    "  -B            search the MinHash sketches (sh-fp -B) by bands\n"
	    "  -g            clusters: each line with its group's first\n"
	    "  -u            first copies only: the lines no line before "
	    "matches\n"
	    "  -i index      look the lines up in an index (sh-index)\n"
	    "  -K            keep the index in memory (with -i)\n"
	    "  -J measure    the similarity of -v: jaccard, containment, "
	    "cosine, weighted,\n"
	    "                edit (-a: from the sketches of sh-fp -BB)\n"
	    "  -m pairs      merge the pairs of shards (sh-near -P)\n"
	    "  -P i/n        one shard of the join, for GNU parallel\n"
	    "  -r blocks     the join's plan: blocks per key (default: "
	    "chosen)\n"
	    "  -S size       memory budget; the rest spills to TMPDIR\n"
	    "  -j threads    threads (default: every core)\n"
	    "  -t            the documents of -v are token lists\n"
	    "  -Y rule       -g, -u: the copy that stays: first, longest, "
	    "newest,\n"
	    "                newest:FIELD or max:FIELD (a date, a number)\n"
	    "  -Z file       -g, -u: write the records that stay there, byte "
	    "for byte (a\n"
	    "                second -Z: those removed, each with the ID of "
	    "the copy kept)\n"
	    "  -Z all:file   -g, -u: every record there, each with that ID "
	    "and its fate\n"
	    "  -E            the operands are the decisions of an earlier -g "
	    "(REP<TAB>ID):\n"
	    "                write the records of -v where they say, with -Z\n"
	    "  -R file       -g, -u: write the figures of the run there "
	    "(JSON), a table\n"
	    "                on stderr\n"
	    "  -L share      -R: warn of a cluster over this share of a file "
	    "or host (0.5)\n"
	    "  -h            this help;  -V  the version;  --progress  "
	    "progress on stderr\n", 1 },
	{ "sh-dist",
	    "Options:\n"
	    "  -p            the lines are pairs of fingerprints\n"
	    "  -x            explain: the features two documents share and "
	    "not\n"
	    "  -N count      features listed by -x\n"
	    "  -v docs       the exact similarity of each pair of IDs, from "
	    "docs\n"
	    "  -J measure    that similarity: jaccard, containment, cosine, "
	    "weighted\n"
	    "  -a min        only pairs at this similarity or more (with -v)\n"
	    "  -k max        only pairs within this distance\n"
	    "  -R            similarity 1 - d/64 instead of the distance\n"
	    "  -q            print nothing; answer by the exit status\n"
	    "  -S size       memory budget of -v; the rest spills to TMPDIR\n"
	    "  -t            the documents are token lists\n"
	    "  -h            this help;  -V  the version;  --progress  "
	    "progress on stderr\n", 1 },
	{ "sh-index",
	    "Options:\n"
	    "  -k max        the distance the index serves (default 3)\n"
	    "  -a min        band tables for pairs at this Jaccard similarity "
	    "(sh-fp -B)\n"
	    "  -u            add only the lines new to the index, and print "
	    "them\n"
	    "  -l list       add -u, delete: the lines to this file, synced "
	    "before the commit\n"
	    "  -o time       expire the IDs added before it: 30d, 12h, or "
	    "@seconds\n"
	    "  -T time       the add time recorded for the lines added "
	    "(default now)\n"
	    "  -O            let build replace an existing index\n"
	    "  -E            lean segments: 2 tables, half the bytes\n"
	    "  -b blocks     a forced plan: blocks (with -r)\n"
	    "  -r keyblocks  a forced plan: key blocks per table (with -b)\n"
	    "  -P i/n        the index holds shard i of n of the fingerprints\n"
	    "  -S size       memory budget; segments are written as it "
	    "fills\n"
	    "  -v docs       band tables: keep where each line's document "
	    "lies; add -u:\n"
	    "                verify each line against these documents\n"
	    "  -J measure    the similarity of -v: jaccard, containment, "
	    "cosine, weighted\n"
	    "  -t            the documents of -v are token lists\n"
	    "  -f format     with -v, the documents' records; and the other "
	    "document\n"
	    "                options of sh-near, but -l and -T\n"
	    "  -h            this help;  -V  the version;  --progress  "
	    "progress on stderr\n", 0 },
};

const char *
help_options(const char *prog, const char **docopts)
{
	size_t i;

	*docopts = NULL;
	for (i = 0; i < sizeof(help) / sizeof(help[0]); i++)
		if (strcmp(help[i].prog, prog) == 0) {
			if (help[i].docs)
				*docopts = docs;
			return help[i].text;
		}
	return NULL;
}
