#!/bin/sh
# Speed benchmarks for the sh toolkit; "make bench" runs this.
# usage: bench/run.sh [section ...]	(default: every section)
# Each section is a function bench_NAME listed in $sections; inputs come
# from bench/gen into a temporary directory removed on exit.
# Environment: BIN (directory of the tools, default bin), RUNS (timed
# runs per case, default 5), DOCS (documents per kind, default 20000),
# CPU (core to pin to; default: the fastest in a calibration before
# each section, see pick_core), FPFLAGS (extra sh-fp options),
# NEAR_SIZES (fingerprint counts for near and index), NEAR_RUNS (timed
# runs there), NEAR_MODES (the near rows: join, join1, S, dedup, k10: the
# join at -k 10), QUERIES (queries per index run, default 1000000),
# INDEX_PLANS (index plans: "auto", B/R forced, "lean" for sh-index -E;
# default "auto lean"), INDEX_BUDGET (index rows built in this budget
# from a pipe, see bench_index), PAR_DOCS
# (documents of the parallel section, default 500000: about 1 GB),
# RESUME_DOCS and RESUME_FILES (the resume section: documents, default
# 100000, dealt to files, default 100), DICT
# (dictionary of the dict section, default jieba's as Debian installs it),
# ROUTE_DOCS, ROUTE_T and ROUTE_FP (the route section: documents before
# the copies, default 200000; similarities, default "0.8 0.9"; "yes" to
# time the fingerprints' route too, the default; ROUTE_FILE: documents
# of one's own instead, none planted), BAND_SIZES and BAND_T
# (the bandindex section: sketch lines indexed, default NEAR_SIZES; the
# similarity, default 0.8), DELETE_SIZES and DELETE_PCTS (the deletes
# section: fingerprints indexed, default the largest of NEAR_SIZES;
# percentages of their IDs deleted, default "1 10"), BANDJOIN_DOCS,
# BANDJOIN_BYTES and BANDJOIN_S (the bandjoin section: documents in all,
# default 1100000; their length, default 300 bytes; sh-near's -S,
# default 2G), ZFILE (the compressed section: a .warc.gz of one's own,
# such as a crawl by wget; default: DOCS generated pages as HTML
# responses, one gzip member a record; the zmap section too),
# FAMILY_SIZES (the family
# section: equal fingerprints, default 1000000), EDIT_PAIRS (the editdist
# section: comparisons a case, default 1000000), FIG_DOCS (the figures
# section: documents before the copies, default 200000), VADD_DOCS (the
# vadd section: documents a night, default DOCS), ARCHIVE_DOCS,
# ARCHIVE_FILES and NIGHT_DOCS (the archive section: documents archived,
# default 200000, in .warc.gz files, default 100, one gzip member a
# record; documents a night, default 20000).

sections='fp records compressed zmap dict near family index bandindex vadd archive deletes parallel verify editdist route bandjoin resume figures'
kinds='en zh mixed'

# C locale for sort -n and awk's decimal point; no globbing, because
# $pin, $FPFLAGS and lists are expanded unquoted to split them into words.
LC_ALL=C
export LC_ALL
set -uf

prog=${0##*/}
root=$(cd "$(dirname "$0")/.." && pwd) || exit 2
BIN=${BIN:-$root/bin}
GEN=$root/bench/gen
GENFP=$root/bench/genfp
LEV=$root/bench/lev
EDIT_PAIRS=${EDIT_PAIRS:-1000000}
NEAR_SIZES=${NEAR_SIZES:-1000000 10000000}
NEAR_RUNS=${NEAR_RUNS:-3}
FAMILY_SIZES=${FAMILY_SIZES:-1000000}
NEAR_MODES=${NEAR_MODES:-join join1 S dedup}
QUERIES=${QUERIES:-1000000}
INDEX_PLANS=${INDEX_PLANS:-auto lean}
INDEX_BUDGET=${INDEX_BUDGET:-}
PAR_DOCS=${PAR_DOCS:-500000}
ROUTE_DOCS=${ROUTE_DOCS:-200000}
ROUTE_T=${ROUTE_T:-0.8 0.9}
ROUTE_FP=${ROUTE_FP:-yes}
ROUTE_FILE=${ROUTE_FILE:-}
BAND_SIZES=${BAND_SIZES:-$NEAR_SIZES}
BAND_T=${BAND_T:-0.8}
DELETE_SIZES=${DELETE_SIZES:-$(printf '%s\n' $NEAR_SIZES | sort -n | tail -n 1)}
DELETE_PCTS=${DELETE_PCTS:-1 10}
BANDJOIN_DOCS=${BANDJOIN_DOCS:-1100000}
BANDJOIN_BYTES=${BANDJOIN_BYTES:-300}
BANDJOIN_S=${BANDJOIN_S:-2G}
VERIFY_PAIRS=${VERIFY_PAIRS:-40}
RESUME_DOCS=${RESUME_DOCS:-100000}
RESUME_FILES=${RESUME_FILES:-100}
FIG_DOCS=${FIG_DOCS:-200000}
ZFILE=${ZFILE:-}
ZMAP=$root/bench/zmap
DICT=${DICT:-/usr/lib/python3/dist-packages/jieba/dict.txt}
RUNS=${RUNS:-5}
DOCS=${DOCS:-20000}
VADD_DOCS=${VADD_DOCS:-$DOCS}
ARCHIVE_DOCS=${ARCHIVE_DOCS:-200000}
ARCHIVE_FILES=${ARCHIVE_FILES:-100}
NIGHT_DOCS=${NIGHT_DOCS:-20000}
CPU=${CPU:-}
FPFLAGS=${FPFLAGS:-}
tmp=

die()
{
	echo "$prog: $*" >&2
	exit 2
}

usage()
{
	echo "usage: $prog [section ...]; sections: $sections" >&2
	exit 2
}

is_count()
{
	case $1 in
	''|*[!0-9]*|0*)
		return 1 ;;
	esac
}

# Seconds since the epoch; nanoseconds where date(1) has %N.
now()
{
	date "+%s$nsfmt"
}

# Seconds from $1 to $2, three decimals.
elapsed()
{
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f\n", b - a }'
}

# Median of the numbers on standard input.
median()
{
	sort -n | awk '{ v[NR] = $1 }
	END {
		if (NR % 2)
			m = v[(NR + 1) / 2]
		else
			m = (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%.3f\n", m
	}'
}

cpu_model()
{
	m=
	if [ -r /proc/cpuinfo ]; then
		m=$(awk '/^(model name|Hardware|cpu model)[ \t]*:/ {
			sub(/^[^:]*:[ \t]*/, ""); print; exit }' /proc/cpuinfo)
	fi
	[ -n "$m" ] || m=$(sysctl -n machdep.cpu.brand_string 2>/dev/null) ||
	    true
	[ -n "$m" ] || m=$(sysctl -n hw.model 2>/dev/null) || true
	echo "${m:-unknown}"
}

cores()
{
	nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null ||
	    echo unknown
}

header()
{
	echo "sh benchmarks"
	echo "date      $(date -u '+%Y-%m-%d %H:%M:%S') UTC"
	echo "system    $(uname -srm)"
	echo "cpu       $(cpu_model)"
	echo "cores     $(cores)"
	echo "compiler  $(${CC:-cc} --version 2>/dev/null | head -n 1)"
	echo "timing    wall clock, median of $RUNS runs, single core: $pinmsg"
	if [ -r /proc/loadavg ]; then
		echo "load      $(cut -d ' ' -f 1-3 /proc/loadavg) (1, 5, 15 min)"
	fi
	[ -n "$nsfmt" ] || echo "warning   date has no %N: 1 s resolution"
}

# Set $data to a file of $DOCS documents of kind $1, made on first use.
data()
{
	data=$tmp/$1.tsv
	[ -s "$data" ] && return
	"$GEN" "$1" "$DOCS" >"$data" || die "$GEN $1 $DOCS failed"
}

# Time "$@" $RUNS times on the pinned core; print the median seconds.
# Stdin is /dev/null so a tool that ignores its operands cannot hang.
timeit()
{
	i=0
	times=
	while [ "$i" -lt "$RUNS" ]; do
		t0=$(now)
		$pin "$@" </dev/null >/dev/null ||
		    die "$* failed (status $?)"
		t1=$(now)
		times="$times $(elapsed "$t0" "$t1")"
		i=$((i + 1))
	done
	printf '%s\n' $times | median
}

# Pin to the core where bench/gen en 1000 runs fastest (median of 5, the
# cores taken in turn), and say so.  On a shared machine another load
# can halve one core for minutes: a figure taken there measures that
# load, not the tools (bench/README).
pick_core()
{
	c=0
	n=$(cores)
	is_count "$n" || n=1
	CPU=
	msg=
	while [ "$c" -lt "$n" ]; do
		if taskset -c "$c" true 2>/dev/null; then
			t=$(RUNS=5 pin="taskset -c $c" timeit "$GEN" en 1000) ||
			    exit 2
			msg="$msg${msg:+, }core $c $t s"
			if [ -z "$CPU" ] || awk -v a="$t" -v b="$best" \
			    'BEGIN { exit !(a < b) }'; then
				CPU=$c
				best=$t
			fi
		fi
		c=$((c + 1))
	done
	pin="taskset -c ${CPU:=0}"
	echo
	echo "calibrate $msg (bench/gen en 1000, median of 5): core $CPU"
}

# Peak resident memory of one run of "$@", in KiB, or - without
# /usr/bin/time.
peak()
{
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f %M "$@" 2>&1 >/dev/null </dev/null | tail -n 1
	else
		echo -
	fi
}

# One table row: kind, docs, input bytes, median seconds.
row()
{
	awk -v k="$1" -v n="$2" -v b="$3" -v s="$4" 'BEGIN {
		mb = b / 1e6
		if (s > 0)
			printf "%-8s %7d %8.2f %9.3f %10.0f %8.1f\n",
			    k, n, mb, s, n / s, mb / s
		else
			printf "%-8s %7d %8.2f %9.3f %10s %8s\n",
			    k, n, mb, s, "-", "-"
	}'
}

table_head()
{
	printf '%-8s %7s %8s %9s %10s %8s\n' \
	    kind docs MB 'median s' docs/s MB/s
}

# Tools in $BIN that section $1 runs, checked before anything is timed.
tools()
{
	case $1 in
	fp)	echo sh-fp sh-tokenize ;;
	near | family) echo sh-near ;;
	index | bandindex | deletes) echo sh-index sh-near ;;
	records) echo sh-fp ;;
	compressed|resume) echo sh-fp sh-near ;;
	dict)	echo sh-fp sh-tokenize ;;
	parallel) echo sh-fp ;;
	verify)	echo sh-dist ;;
	route | bandjoin | figures) echo sh-fp sh-near ;;
	vadd | archive) echo sh-fp sh-index sh-near ;;
	esac
}

# sh-fp: fingerprint each kind of input.
bench_fp()
{
	fp=$BIN/sh-fp
	echo
	echo "fp: sh-fp ${FPFLAGS:+$FPFLAGS }FILE >/dev/null"
	table_head
	for k in $kinds; do
		data "$k"
		# Untimed run: warms the cache and checks the output.
		$pin "$fp" $FPFLAGS "$data" </dev/null >"$tmp/out" ||
		    die "sh-fp ${FPFLAGS:+$FPFLAGS }$k: failed (status $?)"
		n=$(wc -l <"$tmp/out")
		[ "$n" -eq "$DOCS" ] ||
		    echo "$prog: warning: sh-fp wrote $n lines for $DOCS" \
		    "documents" >&2
		s=$(timeit "$fp" $FPFLAGS "$data") || exit 2
		row "$k" "$DOCS" "$(wc -c <"$data")" "$s"
	done
	# -j: one process on every core (not pinned), against one thread.
	echo
	echo "fp -j: sh-fp ${FPFLAGS:+$FPFLAGS }-j N FILE >/dev/null," \
	    "not pinned, $(cores) cores"
	table_head
	pinned=$pin
	pin=
	for k in en zh; do
		data "$k"
		for j in 1 $(cores); do
			s=$(timeit "$fp" $FPFLAGS -j "$j" "$data") || exit 2
			row "$k -j$j" "$DOCS" "$(wc -c <"$data")" "$s"
		done
	done
	pin=$pinned
	# The code paths (SH_VECTOR, sh-fp(1)): portable C, no AVX-512, the
	# best the CPU has; the same bytes out.
	echo
	echo "fp vector: SH_VECTOR=V sh-fp ${FPFLAGS:+$FPFLAGS }FILE >/dev/null" \
	    "(0 portable, 1 no AVX-512, 2 the best)"
	table_head
	for k in en zh; do
		data "$k"
		for v in 0 1 2; do
			s=$(timeit env SH_VECTOR=$v "$fp" $FPFLAGS "$data") ||
			    exit 2
			row "$k V$v" "$DOCS" "$(wc -c <"$data")" "$s"
		done
	done
	# -z (traditional to simplified): on the simplified Chinese above,
	# and on real traditional text, ten copies of the zh_TW man pages,
	# when bench/t2s-eval.sh has rendered them.  Runs with and without
	# alternate, so that both see the same load.
	data zh
	set -- zh "$data" "$DOCS"
	tw=${TMPDIR:-/tmp}/sh-eval/tw.txt
	if [ -s "$tw" ]; then
		for i in 0 1 2 3 4 5 6 7 8 9; do
			cat "$tw"
		done >"$tmp/tw.tsv" || die "cannot copy $tw"
		set -- "$@" tw "$tmp/tw.tsv" "$(wc -l <"$tmp/tw.tsv")"
	fi
	echo
	echo "fp -z: sh-fp ${FPFLAGS:+$FPFLAGS }[-z] FILE >/dev/null," \
	    "alternate runs"
	table_head
	while [ $# -gt 0 ]; do
		times=$(timez "$fp" "$2") || exit 2
		b=$(wc -c <"$2")
		row "$1" "$3" "$b" "${times% *}"
		row "$1 -z" "$3" "$b" "${times#* }"
		shift 3
	done
	bench_options
}

# Time the shell commands $1 and $2 in turns, $RUNS times each, so that
# both see the same load; print their median seconds.
alternate()
{
	i=0
	ta=
	tb=
	while [ "$i" -lt "$RUNS" ]; do
		for c in "$1" "$2"; do
			t0=$(now)
			sh -c "$c" </dev/null >/dev/null 2>&1 ||
			    die "$c failed (status $?)"
			t1=$(now)
			if [ "$c" = "$1" ]; then
				ta="$ta $(elapsed "$t0" "$t1")"
			else
				tb="$tb $(elapsed "$t0" "$t1")"
			fi
		done
		i=$((i + 1))
	done
	echo "$(printf '%s\n' $ta | median) $(printf '%s\n' $tb | median)"
}

# Time sh-fp ($1) on file $2 without and with -z, alternately, $RUNS
# times each, pinned; print the two medians.
timez()
{
	alternate "$pin '$1' $FPFLAGS '$2'" "$pin '$1' $FPFLAGS -z '$2'"
}

# The cost of each option on sh-fp: against plain sh-fp, -B (the MinHash
# sketch), -n 1 (the short-text features), -c (the feature count
# column), -z, the built-in
# stop words of the kind's language, a DF file counted from the same
# documents, both, and -d with DICT on Chinese text when it exists; then
# the counting itself (sh-tokenize -c), which is not sh-fp.
bench_options()
{
	echo
	echo "fp options: sh-fp OPTIONS FILE >/dev/null (single core, median" \
	    "of $RUNS); last row sh-tokenize -c FILE"
	printf '%-8s %-22s %9s %8s %7s\n' kind options 'median s' MB/s ratio
	for k in $kinds; do
		data "$k"
		b=$(wc -c <"$data")
		case $k in
		en)	stop='-s @en' ;;
		zh)	stop='-s @zh' ;;
		*)	stop='-s @en -s @zh' ;;
		esac
		dict=
		[ "$k" = en ] || [ ! -r "$DICT" ] || dict="-d $DICT"
		"$BIN/sh-tokenize" -c "$data" >"$tmp/$k.df" </dev/null ||
		    die "sh-tokenize -c $k: failed"
		base=
		for o in '' -B '-n 1' -c -z "$stop" "-D $tmp/$k.df" \
		    "$stop -D $tmp/$k.df" "$dict" count; do
			case $o in
			'')	[ -z "$base" ] || continue
				s=$(timeit "$BIN/sh-fp" "$data") || exit 2 ;;
			count)	s=$(timeit "$BIN/sh-tokenize" -c "$data") ||
				    exit 2 ;;
			*)	s=$(timeit "$BIN/sh-fp" $o "$data") || exit 2 ;;
			esac
			[ -n "$base" ] || base=$s
			label=$(printf '%s' "${o:-plain}" | sed -e "s|$tmp/$k.df|DF|" \
			    -e "s|$DICT|DICT|" -e 's|^count$|sh-tokenize -c|')
			awk -v k="$k" -v o="$label" -v b="$b" -v s="$s" \
			    -v base="$base" 'BEGIN {
				printf "%-8s %-22s %9.3f %8.1f %7.2f\n", k, o, s,
				    b / 1e6 / s, s / base }'
		done
	done
}

# The record readers alone (bench/readrec), one core: the English
# documents written as each format; then sh-fp on the WARC form.
bench_records()
{
	data en
	awk -F '\t' -v tmp="$tmp" '
	function json(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); return s }
	{
		printf "{\"id\":\"%s\",\"meta\":{\"lang\":\"en\"},\"text\":\"%s\"}\n",
		    $1, json($2) > (tmp "/r.jsonl")
		printf "%s\t%s%c", $1, $2, 0 > (tmp "/r.nul")
		printf "%s\n\n", $2 > (tmp "/r.para")
		printf "WARC/1.0\r\nWARC-Type: conversion\r\n" \
		    "WARC-Target-URI: http://example.org/%s\r\n" \
		    "Content-Length: %d\r\n\r\n%s\r\n\r\n", $1, length($2), $2 \
		    > (tmp "/r.warc")
	}' "$data" || die "cannot write the record files"
	cp "$data" "$tmp/r.tab"
	echo
	echo "records: bench/readrec FORMAT FILE (reader only, single core)"
	printf '%-8s %7s %8s %9s %8s\n' format records MB 'median s' MB/s
	for f in tab nul para jsonl warc; do
		set -- $("$root/bench/readrec" "$f" "$tmp/r.$f")
		[ "$1" -eq "$DOCS" ] ||
		    echo "$prog: warning: $f: $1 records for $DOCS" >&2
		s=$(timeit "$root/bench/readrec" "$f" "$tmp/r.$f") || exit 2
		awk -v f="$f" -v n="$DOCS" -v b="$(wc -c <"$tmp/r.$f")" \
		    -v s="$s" 'BEGIN { printf "%-8s %7d %8.2f %9.3f %8.1f\n",
		    f, n, b / 1e6, s, (s > 0 ? b / 1e6 / s : 0) }'
	done
	s=$(timeit "$BIN/sh-fp" -f warc "$tmp/r.warc") || exit 2
	awk -v n="$DOCS" -v b="$(wc -c <"$tmp/r.warc")" -v s="$s" 'BEGIN {
	    printf "sh-fp -f warc: %.3f s, %.1f MB/s\n", s, b / 1e6 / s }'
	# Small files, one document each, as in a crawl dump (-F): the first
	# 200 bytes of each document, named on the command line.
	mkdir "$tmp/files" || die "cannot make $tmp/files"
	awk -F '\t' -v d="$tmp/files" '{
		f = d "/" NR ".txt"
		print substr($2, 1, 200) > f
		close(f)
	}' "$data" || die "cannot write the small files"
	(cd "$tmp/files" && ls) >"$tmp/files.list"
	s=$(cd "$tmp/files" && timeit xargs -a "$tmp/files.list" "$BIN/sh-fp" -F) ||
	    exit 2
	awk -v n="$DOCS" -v s="$s" 'BEGIN {
	    printf "sh-fp -F, %d files of 200 bytes: %.3f s, %.0f files/s\n",
	    n, s, n / s }'
	rm -rf "$tmp/files"
	# Real text, when make eval has rendered its corpora: the Chinese
	# and English man pages as one WET file.
	real=${TMPDIR:-/tmp}/sh-eval
	[ -s "$real/zh.txt" ] && [ -s "$real/en.txt" ] || return 0
	cat "$real/zh.txt" "$real/en.txt" | LC_ALL=C awk -F '\t' '{
		printf "WARC/1.0\r\nWARC-Type: conversion\r\n" \
		    "WARC-Target-URI: file:///usr/share/man/%s\r\n" \
		    "Content-Type: text/plain\r\n" \
		    "Content-Length: %d\r\n\r\n%s\r\n\r\n", $1, length($2), $2
	}' >"$tmp/real.wet" || die "cannot write the WET file"
	set -- $("$root/bench/readrec" warc "$tmp/real.wet")
	b=$(wc -c <"$tmp/real.wet")
	s=$(timeit "$root/bench/readrec" warc "$tmp/real.wet") || exit 2
	t=$(timeit "$BIN/sh-fp" -f warc "$tmp/real.wet") || exit 2
	awk -v n="$1" -v b="$b" -v s="$s" -v t="$t" 'BEGIN {
	    printf "real WET (man pages, zh + en): %d records, %.2f MB: " \
		"reader %.1f MB/s, sh-fp -f warc %.1f MB/s\n",
		n, b / 1e6, b / 1e6 / s, b / 1e6 / t }'
}

# html_warc FILE LEVEL EVERY: the DOCS English pages as HTML responses
# of a WARC, gzip -LEVEL, a gzip member every EVERY records.
html_warc()
{
	data en
	: >"$1"
	awk -F '\t' -v z="$1" -v level="$2" -v every="$3" '{
		body = "<html><head><title>" $1 "</title></head><body><nav>" \
		    "home news sport</nav><p>" $2 "</p></body></html>"
		http = "HTTP/1.1 200 OK\r\nContent-Type: text/html; " \
		    "charset=utf-8\r\n\r\n" body
		gz = "gzip -" level " >>" z
		printf "WARC/1.0\r\nWARC-Type: response\r\n" \
		    "WARC-Target-URI: http://example.org/%s\r\n" \
		    "Content-Type: application/http; msgtype=response\r\n" \
		    "Content-Length: %d\r\n\r\n%s\r\n\r\n", $1, \
		    length(http), http | gz
		if (NR % every == 0)
			close(gz)
	}' "$data" || die "cannot write $1"
}

# The clean crawl as a job over many files (sh-near -E; the README's
# recipe without GNU parallel, each job timed on its own): RESUME_DOCS
# generated pages, each once more as a near copy in another file, dealt
# to RESUME_FILES .warc.gz files.  A killed job is run again alone: its
# rerun, median of $RUNS, against its share of its step (the step's
# time over the files) and of the whole job; and the whole job against
# one process writing the clean crawl (sh-near -g -Z over every file).
bench_resume()
{
	d=$tmp/resume
	mkdir -p "$d" || die "cannot make $d"
	DOCS=$RESUME_DOCS data en
	awk -F '\t' -v d="$d" -v n="$RESUME_FILES" '
	function rec(f, id, text,	http) {
		http = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n" text
		printf "WARC/1.0\r\nWARC-Type: response\r\n" \
		    "WARC-Target-URI: http://example.org/%s\r\n" \
		    "Content-Type: application/http; msgtype=response\r\n" \
		    "Content-Length: %d\r\n\r\n%s\r\n\r\n", id, \
		    length(http), http >f
	}
	{
		rec(sprintf("%s/part-%03d.warc", d, NR % n), $1, $2)
		# The near copy: one word more, in the next file.
		rec(sprintf("%s/part-%03d.warc", d, (NR + 1) % n), $1 "-copy",
		    $2 " again")
	}' "$data" || die "cannot write the crawl"
	# No globbing here (set -f): the files by their list.
	(cd "$d" && ls | grep '\.warc$' | xargs gzip -1 &&
	    ls | grep '\.warc\.gz$' >files) || die "gzip failed"
	echo
	echo "resume: $RESUME_DOCS pages and a near copy of each in $RESUME_FILES" \
	    "files ($(cd "$d" && xargs cat <files | wc -c | awk '{ printf "%.1f", $1 / 1e6 }')" \
	    "MB gzip), a job a file, medians of $RUNS"
	cd "$d" || die "cannot cd $d"
	mkdir -p clean
	export BIN
	fp=$(timeit sh -c 'while read -r f; do "$BIN/sh-fp" -B -f warc "$f" \
	    >"$f.fpb" || exit 2; done <files') ||
	    exit 2
	glob=$(timeit sh -c 'sed "s/\$/.fpb/" files | xargs cat |
	    "$BIN/sh-near" -g -v @files -f warc -a 0.8 >groups') ||
	    exit 2
	cl=$(timeit sh -c 'while read -r f; do "$BIN/sh-near" -E -v "$f" \
	    -f warc -Z "clean/${f%.gz}" groups || exit 2; done <files') ||
	    exit 2
	whole=$(awk -v a="$fp" -v b="$glob" -v c="$cl" 'BEGIN { print a + b + c }')
	sed 's/$/.fpb/' files | xargs cat >all.fpb
	one=$(timeit "$BIN/sh-near" -g -v @files -f warc -a 0.8 -Z one all.fpb) ||
	    exit 2
	sed 's/\.gz$//; s|^|clean/|' files | xargs cat | cmp -s - one ||
	    die "the jobs' clean crawl is not the one process's"
	f=$(sed -n "$((RESUME_FILES / 2))p" files)
	rfp=$(timeit sh -c '"$1" -B -f warc "$2" >"$2.fpb"' sh "$BIN/sh-fp" "$f") ||
	    exit 2
	rcl=$(timeit "$BIN/sh-near" -E -v "$f" -f warc -Z "clean/${f%.gz}" groups) ||
	    exit 2
	cd - >/dev/null || die "cannot cd back"
	printf '%-44s %9s %7s\n' step seconds ratio
	printf '%-44s %9.3f\n' "fingerprints, $RESUME_FILES jobs" "$fp"
	printf '%-44s %9.3f\n' "which copies stay (sh-near -g), one step" "$glob"
	printf '%-44s %9.3f\n' "clean copies (sh-near -E), $RESUME_FILES jobs" "$cl"
	printf '%-44s %9.3f\n' "the whole job (the sum)" "$whole"
	printf '%-44s %9.3f %7.2f\n' "one process: sh-near -g -Z, all files" \
	    "$one" "$(awk -v a="$one" -v b="$glob" 'BEGIN { print a / b }')"
	awk -v r="$rfp" -v s="$fp" -v n="$RESUME_FILES" 'BEGIN {
		printf "%-44s %9.3f %7.2f\n", "a killed fingerprint job, rerun", r,
		    r / (s / n) }'
	awk -v r="$rcl" -v s="$cl" -v n="$RESUME_FILES" 'BEGIN {
		printf "%-44s %9.3f %7.2f\n", "a killed clean-copy job, rerun", r,
		    r / (s / n) }'
	echo "(ratios: the one process against the -g step; a rerun against" \
	    "its step's share, the step over $RESUME_FILES)"
	rm -rf "$d"
}

# A row of the compressed section: label, median seconds, and the
# seconds of the row it is compared with ('' for none).
zrow()
{
	awk -v l="$1" -v s="$2" -v b="$3" 'BEGIN {
		if (b == "")
			printf "%-46s %9.3f\n", l, s
		else
			printf "%-46s %9.3f %7.2f\n", l, s, s / b
	}'
}

# Records read back where they lie in a .warc.gz (base/zmap.h): the map
# of its gzip members against gzip -dc alone, in turns, unpinned (the
# decompressor is a child of both); then every record read by its
# location, the milliseconds a record, and (under strace, where it is
# installed) the compressed bytes read for each against those of the
# members it lies in.  ZFILE, or DOCS generated pages, one member a
# record as wget writes them.
bench_zmap()
{
	[ -x "$ZMAP" ] || die "$ZMAP: not found; run make bench"
	if [ -n "$ZFILE" ]; then
		[ -s "$ZFILE" ] || die "ZFILE $ZFILE: missing or empty"
		z=$ZFILE
	else
		z=$tmp/zm.warc.gz
		html_warc "$z" 6 1
	fi
	export Z="$z" ZMAP
	out=$("$ZMAP" build "$z" 1) || die "$ZMAP build $z failed"
	echo
	echo "zmap: $(echo "$out" | sed 's/.*, //') in $(awk -v c="$(wc -c \
	    <"$z")" 'BEGIN { printf "%.1f MB", c / 1e6 }') gzip, median of" \
	    "$RUNS runs, unpinned"
	printf '%-46s %9s %7s\n' run 'median s' ratio
	set -- $(pin= alternate 'gzip -dc "$Z"' '"$ZMAP" build "$Z" 1') ||
	    exit 2
	zrow 'gzip -dc FILE.gz' "$1" ''
	zrow 'the map of FILE.gz (sh_zmap_build)' "$2" "$1"
	out=$("$ZMAP" read "$z") || die "$ZMAP read $z failed"
	echo "records read back (sh_zrange_read): $(echo "$out" |
	    sed 's/^read //')"
	command -v strace >/dev/null 2>&1 || return 0
	ZMAP_EACH=1 strace -e trace=pread64,write -e signal=none \
	    -o "$tmp/zm.trace" "$ZMAP" read "$z" >/dev/null 2>"$tmp/zm.each" ||
	    die "strace $ZMAP read $z failed"
	awk '/^pread64\(100,/ { n += $NF } /^write\(101,/ { print n; n = 0 }' \
	    "$tmp/zm.trace" | paste - "$tmp/zm.each" |
	    awk '{ printf "%.6f %d %d\n", $1 / $2, $1, $2 }' | sort -n | awk '{
		r[NR] = $1; a += $2; b += $3 }
	END {
		printf "compressed bytes read / those of the record'"'"'s members:" \
		    " %.3f in all, median %.3f, 99th percentile %.3f, max %.3f\n",
		    a / b, r[int((NR + 1) / 2)], r[int(NR * 0.99)], r[NR]
	}'
}

# Compressed input: sh-fp -f warc on a .warc.gz against zcat piped into
# it, and sh-near -v on the compressed documents against -v on the
# decompressed file; unpinned and in turns, so that the decompressor
# runs beside the tool as it would and both forms see the same load.
bench_compressed()
{
	if [ -n "$ZFILE" ]; then
		[ -s "$ZFILE" ] || die "ZFILE $ZFILE: missing or empty"
		z=$ZFILE
	else
		z=$tmp/z.warc.gz
		# Many gzip members, as wget and Heritrix write (one a
		# record there; one every 100 records here).
		html_warc "$z" 1 100
	fi
	gzip -dc "$z" >"$tmp/z.warc" || die "gzip -dc $z failed"
	b=$(wc -c <"$tmp/z.warc")
	"$BIN/sh-fp" -B -f warc "$tmp/z.warc" >"$tmp/z.fpb" 2>/dev/null ||
	    die "sh-fp -B -f warc failed"
	echo
	echo "compressed: $(wc -l <"$tmp/z.fpb") documents, $(awk -v b="$b" \
	    -v c="$(wc -c <"$z")" 'BEGIN { printf "%.1f MB (%.1f MB gzip)",
	    b / 1e6, c / 1e6 }'), median of $RUNS runs, unpinned"
	printf '%-46s %9s %7s\n' run 'median s' ratio
	export Z="$z" PLAIN="$tmp/z.warc" FPB="$tmp/z.fpb" BIN
	set -- $(pin= alternate 'gzip -dc "$Z" | "$BIN/sh-fp" -f warc' \
	    '"$BIN/sh-fp" -f warc "$Z"') || exit 2
	zrow 'gzip -dc FILE.gz | sh-fp -f warc' "$1" ''
	zrow 'sh-fp -f warc FILE.gz' "$2" "$1"
	# sh-near says 1 when nothing is near: no failure here.
	set -- $(pin= alternate '"$BIN/sh-near" -B -v "$PLAIN" -f warc -a 0.8 \
	    "$FPB"; [ $? -le 1 ]' '"$BIN/sh-near" -B -v "$Z" -f warc -a 0.8 \
	    "$FPB"; [ $? -le 1 ]') || exit 2
	zrow 'sh-near -B -v FILE -f warc -a 0.8' "$1" ''
	zrow 'sh-near -B -v FILE.gz -f warc -a 0.8' "$2" "$1"
	# What a user with the .gz alone did before: decode it to a file,
	# and give that.
	export DEC="$tmp/z.dec"
	set -- $(pin= alternate 'gzip -dc "$Z" >"$DEC" || exit 2; \
	    "$BIN/sh-near" -B -v "$DEC" -f warc -a 0.8 "$FPB"; [ $? -le 1 ]' \
	    '"$BIN/sh-near" -B -v "$Z" -f warc -a 0.8 "$FPB"; [ $? -le 1 ]') ||
	    exit 2
	zrow 'gzip -dc FILE.gz >FILE; sh-near -B -v FILE' "$1" ''
	zrow 'sh-near -B -v FILE.gz -f warc -a 0.8' "$2" "$1"
	rm -f "$DEC"
	# The whole route, sketches piped.
	set -- $(pin= alternate '"$BIN/sh-fp" -B -f warc "$PLAIN" | "$BIN/sh-near" \
	    -B -v "$PLAIN" -f warc -a 0.8; [ $? -le 1 ]' '"$BIN/sh-fp" -B -f \
	    warc "$Z" | "$BIN/sh-near" -B -v "$Z" -f warc -a 0.8; \
	    [ $? -le 1 ]') || exit 2
	zrow 'sh-fp -B FILE | sh-near -B -v FILE -a 0.8' "$1" ''
	zrow 'sh-fp -B FILE.gz | sh-near -B -v FILE.gz -a 0.8' "$2" "$1"
	# The clean dataset: the clusters, then the same writing the
	# records that stay and those removed (-Z), the ratio its cost.
	export OUT="$tmp/clean"
	for f in PLAIN Z; do
		set -- $(pin= alternate '"$BIN/sh-near" -g -B -v "$'$f'" -f warc \
		    -a 0.8 "$FPB"' '"$BIN/sh-near" -g -B -v "$'$f'" -f warc \
		    -a 0.8 -Z "$OUT.k" -Z "$OUT.r" "$FPB"') || exit 2
		[ "$f" = Z ] && f=FILE.gz || f=FILE
		zrow "sh-near -g -B -v $f -f warc -a 0.8" "$1" ''
		zrow "  the same, -Z kept -Z removed" "$2" "$1"
	done
	# Annotation instead of removal (-Z all:, every record noted, to
	# one file) against the removal, and a rule that reads a field of
	# every record (-Y max:, a pass more) against the first copy.
	set -- $(pin= alternate '"$BIN/sh-near" -g -B -v "$PLAIN" -f warc \
	    -a 0.8 -Z "$OUT.k" -Z "$OUT.r" "$FPB"' '"$BIN/sh-near" -g -B -v \
	    "$PLAIN" -f warc -a 0.8 -Z all:"$OUT.a" "$FPB"') || exit 2
	zrow "sh-near -g -B -v FILE ... -Z kept -Z removed" "$1" ''
	zrow "  the same, -Z all:annotated" "$2" "$1"
	set -- $(pin= alternate '"$BIN/sh-near" -g -B -v "$PLAIN" -f warc \
	    -a 0.8 "$FPB"' '"$BIN/sh-near" -g -B -v "$PLAIN" -f warc -a 0.8 \
	    -Y max:Content-Length "$FPB"') || exit 2
	zrow "sh-near -g -B -v FILE -f warc -a 0.8" "$1" ''
	zrow "  the same, -Y max:Content-Length" "$2" "$1"
	rm -f "$tmp/z.warc" "$OUT.k" "$OUT.r" "$OUT.a"
}

# Dictionary segmentation (-d): the time to load DICT, and sh-tokenize
# and sh-fp over Chinese text without and with it, one core: generated
# text, and the Chinese man pages when make eval has rendered them.
# "net MB/s" leaves the median load time out.
bench_dict()
{
	echo
	if [ ! -r "$DICT" ]; then
		echo "dict: $DICT not found (Debian package python3-jieba," \
		    "or set DICT), skipped"
		return
	fi
	load=$(timeit "$BIN/sh-tokenize" -d "$DICT" /dev/null) || exit 2
	echo "dict: $DICT, $(wc -l <"$DICT" | tr -d ' ') lines:" \
	    "load $load s (sh-tokenize -d DICT /dev/null)"
	printf '%-8s %-12s %-3s %8s %9s %8s %8s\n' input tool -d MB 'median s' \
	    MB/s 'net MB/s'
	data zh
	set -- "zh:$data"
	real=${TMPDIR:-/tmp}/sh-eval/zh.txt
	[ -s "$real" ] && set -- "$@" "man-zh:$real"
	for input; do
		f=${input#*:}
		b=$(wc -c <"$f")
		for tool in sh-tokenize sh-fp; do
			s=$(timeit "$BIN/$tool" "$f") || exit 2
			t=$(timeit "$BIN/$tool" -d "$DICT" "$f") || exit 2
			awk -v i="${input%%:*}" -v tool="$tool" -v b="$b" \
			    -v s="$s" -v t="$t" -v l="$load" 'BEGIN {
				mb = b / 1e6
				printf "%-8s %-12s %-3s %8.2f %9.3f %8.1f\n",
				    i, tool, "no", mb, s, (s > 0 ? mb / s : 0)
				printf "%-8s %-12s %-3s %8.2f %9.3f %8.1f %8s\n",
				    i, tool, "yes", mb, t, (t > 0 ? mb / t : 0),
				    (t > l ? sprintf("%.1f", mb / (t - l)) : "-") }'
		done
	done
}

# GNU parallel: sh-fp over a dump of PAR_DOCS English documents (about
# 2 KB each) by one process, then by 2 workers: byte-range shards of the
# file (sh-fp -P), and parallel --pipepart, which copies the data through
# pipes.
bench_parallel()
{
	command -v parallel >/dev/null 2>&1 ||
	    { echo; echo "parallel: GNU parallel not installed, skipped"; return; }
	f=$tmp/dump.tsv
	"$GEN" en "$PAR_DOCS" >"$f" || die "$GEN en $PAR_DOCS failed"
	b=$(wc -c <"$f")
	"$BIN/sh-fp" "$f" >"$tmp/one" 2>/dev/null
	parallel -k -j 2 "$BIN/sh-fp" -P {}/2 "$f" ::: 0 1 >"$tmp/two" \
	    2>/dev/null
	cmp -s "$tmp/one" "$tmp/two" || die "sh-fp -P output differs"
	parallel --pipepart -a "$f" --block 64M -k -j 2 "$BIN/sh-fp" \
	    >"$tmp/two" 2>/dev/null
	cmp -s "$tmp/one" "$tmp/two" || die "parallel --pipepart output differs"
	s1=$(pin= timeit "$BIN/sh-fp" "$f") || exit 2
	s2=$(pin= timeit parallel -k -j 2 "$BIN/sh-fp" -P {}/2 "$f" ::: 0 1) ||
	    exit 2
	s3=$(pin= timeit parallel --pipepart -a "$f" --block 64M -k -j 2 \
	    "$BIN/sh-fp") || exit 2
	echo
	echo "parallel: sh-fp over $(awk -v b="$b" 'BEGIN { printf "%.2f", b / 1e9 }') GB," \
	    "one process and 2 workers of GNU parallel (same output)"
	awk -v b="$b" -v s1="$s1" -v s2="$s2" -v s3="$s3" 'BEGIN {
		printf "%-22s %9s %8s %8s\n", "run", "median s", "MB/s", "speedup"
		printf "%-22s %9.3f %8.1f %8.2f\n", "1 process", s1, b / 1e6 / s1, 1
		printf "%-22s %9.3f %8.1f %8.2f\n", "2 workers, sh-fp -P", s2,
		    b / 1e6 / s2, s1 / s2
		printf "%-22s %9.3f %8.1f %8.2f\n", "2 workers, --pipepart", s3,
		    b / 1e6 / s3, s1 / s3 }'
	rm -f "$f" "$tmp/one" "$tmp/two"
}

# sh-near: all-pairs join (k = 3, both cores; and within a 256 MiB budget,
# one core) and streaming dedup (one core) of random fingerprints with
# 10 % planted near copies.
bench_near()
{
	[ -x "$GENFP" ] || die "$GENFP: not found; run make first"
	echo
	echo "near: sh-near [-u] FILE >/dev/null, k = 3, median of $NEAR_RUNS runs;" \
	    "join on every core, join 1 on one; peak resident memory of one" \
	    "more run, and over the 8 bytes per fingerprint of the input"
	printf '%-6s %10s %9s %12s %10s %8s %6s\n' mode fps 'median s' fps/s \
	    pairs 'peak MB' 'x fps'
	for n in $NEAR_SIZES; do
		f=$tmp/fp.$n
		"$GENFP" "$n" >"$f" || die "$GENFP $n failed"
		pairs=$("$BIN/sh-near" "$f" | wc -l)
		for mode in $NEAR_MODES; do
			case $mode in
			join)	set -- ;;
			join1)	set -- -j 1 ;;
			S)	set -- -S 256M ;;
			dedup)	set -- -u ;;
			k10)	set -- -k 10 ;;
			*)	die "NEAR_MODES: $mode is not join, join1, S, dedup or k10" ;;
			esac
			p=$pairs
			[ "$mode" = k10 ] && p=$("$BIN/sh-near" "$@" "$f" | wc -l)
			s=$(RUNS=$NEAR_RUNS pin=$([ "$mode" = join ] || echo "$pin") \
			    timeit "$BIN/sh-near" "$@" "$f") || exit 2
			rss=$(peak "$BIN/sh-near" "$@" "$f")
			printf '%-6s %10d %9.3f %12.0f %10s %8s %6s\n' "$(echo "$mode" |
			    sed 's/join1/join 1/; s/^S$/S 256M/; s/k10/k 10/')" "$n" "$s" \
			    "$(echo "$n $s" | awk '{ print ($2 > 0 ? $1 / $2 : 0) }')" \
			    "$([ "$mode" = dedup ] && echo - || echo "$p")" \
			    "$(echo "$rss" | awk '{ print $1 == "-" ? "-" : int($1 / 1024 + 0.5) }')" \
			    "$(echo "$rss $n" | awk '{ print $1 == "-" ? "-" : sprintf("%.2f", $1 * 1024 / ($2 * 8)) }')"
		done
		rm -f "$f"
	done
}

# A family of equal fingerprints (empty pages, error pages, a template):
# -g, -gg and -g within -S against -u, the streaming filter, on one core;
# the cost must grow with the lines, not with their pairs.
bench_family()
{
	echo
	echo "family: sh-near MODE FILE >/dev/null over FAMILY_SIZES equal" \
	    "fingerprints, median of $NEAR_RUNS runs, one core; peak resident" \
	    "memory of one more run"
	printf '%-10s %10s %9s %8s %8s %7s\n' mode lines 'median s' 'x -u' \
	    'peak MB' 'B/line'
	for n in $FAMILY_SIZES; do
		f=$tmp/family.$n
		awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++)
		    printf "00000000000000ff\tpage%d\n", i }' >"$f"
		u=
		for mode in -u -g -gg '-g -S 256M'; do
			s=$(RUNS=$NEAR_RUNS timeit "$BIN/sh-near" -j 1 $mode "$f") ||
			    exit 2
			[ -n "$u" ] || u=$s
			rss=$(peak "$BIN/sh-near" -j 1 $mode "$f")
			printf '%-10s %10d %9.3f %8.2f %8s %7s\n' "$mode" "$n" "$s" \
			    "$(awk -v s="$s" -v u="$u" 'BEGIN { print (u > 0 ? s / u : 0) }')" \
			    "$(echo "$rss" | awk '{ print $1 == "-" ? "-" : int($1 / 1024 + 0.5) }')" \
			    "$(echo "$rss $n" | awk '{ print $1 == "-" ? "-" : int($1 * 1024 / $2 + 0.5) }')"
		done
		rm -f "$f"
	done
}

# sh-near --progress -K -i "$1" "$2", NEAR_RUNS times, pinned: the
# medians of the load it reports and of the rest of each run (the
# queries), in seconds, on one line.  Both come from the same runs: a
# load's time swings with the memory's state (page zeroing, from a tenth
# of a second to seconds), so the queries' time is not the difference of
# two runs.
kload()
{
	i=0
	loads=
	rests=
	while [ "$i" -lt "$NEAR_RUNS" ]; do
		t0=$(now)
		$pin "$BIN/sh-near" --progress -K -i "$1" "$2" </dev/null \
		    >/dev/null 2>"$tmp/kload" ||
		    die "sh-near -K -i $1 $2 failed (status $?)"
		t1=$(now)
		l=$(sed -n 's/^sh-near: index loaded in \([0-9.]*\) s$/\1/p' \
		    "$tmp/kload")
		[ -n "$l" ] || die "sh-near --progress -K: no load time"
		loads="$loads $l"
		rests="$rests $(awk -v t="$(elapsed "$t0" "$t1")" -v l="$l" \
		    'BEGIN { printf "%.3f\n", t - l }')"
		i=$((i + 1))
	done
	echo "$(printf '%s\n' $loads | median) $(printf '%s\n' $rests | median)"
}

# sh-index: build an index of random fingerprints with 10 % planted near
# copies (one core), then query it at k = 3 (one core) with QUERIES
# lines: 90 % new random fingerprints, 10 % indexed ones.  INDEX_PLANS
# lists the plans: "auto" (sh-index's choice), B/R to force, "lean"
# (sh-index -E).  The last two columns are for -K, from the same runs
# (kload): the load, and the queries a second once loaded.  With
# INDEX_BUDGET, for sizes whose file or index would not fit: the
# fingerprints, none planted (bench/genfp -p 0), are piped to sh-index
# build -S INDEX_BUDGET, never stored, the build not pinned (bench/genfp
# runs beside it) and its peak memory printed; and the queries' indexed
# tenth is the stream's first lines.
bench_index()
{
	[ -x "$GENFP" ] || die "$GENFP: not found; run make first"
	echo
	echo "index: sh-index build; sh-near -i INDEX QUERIES, k = 3," \
	    "one core, median of $NEAR_RUNS runs${INDEX_BUDGET:+; built with}" \
	    "${INDEX_BUDGET:+-S $INDEX_BUDGET from bench/genfp -p 0, piped}"
	printf '%-10s %-5s %6s %8s %9s %9s %9s %11s %8s %8s %11s\n' fps \
	    plan tables 'build s' 'disk B/fp' 'RSS B/fp' 'query s' \
	    'queries/s' matches 'K load s' 'K queries/s'
	for n in $NEAR_SIZES; do
		f=$tmp/fp.$n
		q=$tmp/q.$n
		ix=$tmp/ix.$n
		if [ -n "$INDEX_BUDGET" ]; then
			{ "$GENFP" -p 0 -s 2 $((QUERIES - QUERIES / 10));
			    "$GENFP" -p 0 $((QUERIES / 10)); } >"$q" ||
			    die "queries failed"
		else
			"$GENFP" "$n" >"$f" || die "$GENFP $n failed"
			{ "$GENFP" -s 2 $((QUERIES - QUERIES / 10)); head -n \
			    $((QUERIES / 10)) "$f"; } >"$q" ||
			    die "queries failed"
		fi
		for plan in $INDEX_PLANS; do
			case $plan in
			auto)	popt= ;;
			lean)	popt=-E ;;
			*/*)	popt="-b ${plan%/*} -r ${plan#*/}" ;;
			*)	die "INDEX_PLANS: $plan is not auto, B/R or lean" ;;
			esac
			if [ -n "$INDEX_BUDGET" ]; then
				s=$(RUNS=$NEAR_RUNS pin= timeit sh -c "'$GENFP' -p 0 \
				    $n | /usr/bin/time -o '$tmp/build.rss' -f %M \
				    '$BIN/sh-index' build -O $popt -S \
				    $INDEX_BUDGET '$ix'") || exit 2
			else
				s=$(RUNS=$NEAR_RUNS timeit "$BIN/sh-index" build \
				    -O $popt "$ix" "$f") || exit 2
			fi
			b=$(du -k "$ix" | awk '{ print $1 * 1024 }')
			tables=$("$BIN/sh-index" info "$ix" |
			    sed -n 's/.*tables=\([0-9]*\).*/\1/p' | head -n 1)
			rss=-
			if [ -x /usr/bin/time ]; then
				rss=$(/usr/bin/time -f %M "$BIN/sh-near" -i \
				    "$ix" "$q" 2>&1 >/dev/null | tail -n 1)
			fi
			m=$("$BIN/sh-near" -i "$ix" "$q" | wc -l)
			t=$(RUNS=$NEAR_RUNS timeit "$BIN/sh-near" -i "$ix" \
			    "$q") || exit 2
			kl=$(kload "$ix" "$q") || exit 2
			lt=${kl% *}
			lq=${kl#* }
			echo "$n $plan $tables $s $b $rss $t $QUERIES $m $lt $lq" |
			    awk '{
				printf "%-10d %-5s %6d %8.3f %9.1f %9s %9.3f %11.0f %8d %8s %11s\n",
				    $1, $2, $3, $4, $5 / $1,
				    ($6 == "-" ? "-" : sprintf("%.1f", $6 * 1024 / $1)),
				    $7, ($7 > 0 ? $8 / $7 : 0), $9,
				    ($10 > 0 ? sprintf("%.3f", $10) : "-"),
				    ($11 > 0 ? sprintf("%.0f", $8 / $11) : "-") }'
			if [ -n "$INDEX_BUDGET" ] && [ -s "$tmp/build.rss" ]; then
				echo "build peak memory (last run):" \
				    "$(awk '{ printf "%.0f MB", $1 * 1024 / 1e6 }' \
				    "$tmp/build.rss")"
			fi
		done
		rm -rf "$f" "$q" "$ix"
	done
}

# sh-index build -a BAND_T of generated sketch lines (bench/genfp -m: 10
# % planted copies, 0 to 12 of their 128 values changed), one core; then
# sh-near -i of QUERIES sketch lines, 90 % new and 10 % indexed, without
# -v: the candidates alone, before verification, one core.
bench_bandindex()
{
	[ -x "$GENFP" ] || die "$GENFP: not found; run make first"
	echo
	echo "bandindex: sh-index build -a $BAND_T; sh-near -i INDEX" \
	    "QUERIES (sketch lines), one core, median of $NEAR_RUNS runs"
	printf '%-10s %6s %8s %9s %9s %9s %11s %9s\n' docs bands 'build s' \
	    'disk B/doc' 'RSS B/doc' 'query s' 'queries/s' matches
	for n in $BAND_SIZES; do
		f=$tmp/fpb.$n
		q=$tmp/qb.$n
		ix=$tmp/bix.$n
		"$GENFP" -m "$n" >"$f" || die "$GENFP -m $n failed"
		{ "$GENFP" -m -s 2 $((QUERIES - QUERIES / 10)); head -n \
		    $((QUERIES / 10)) "$f"; } >"$q" || die "queries failed"
		s=$(RUNS=$NEAR_RUNS timeit "$BIN/sh-index" build -O \
		    -a "$BAND_T" "$ix" "$f") || exit 2
		b=$(du -k "$ix" | awk '{ print $1 * 1024 }')
		bands=$("$BIN/sh-index" info "$ix" | sed -n 's/^bands\t//p')
		rss=-
		if [ -x /usr/bin/time ]; then
			rss=$(/usr/bin/time -f %M "$BIN/sh-near" -i "$ix" "$q" \
			    2>&1 >/dev/null | tail -n 1)
		fi
		m=$("$BIN/sh-near" -i "$ix" "$q" | wc -l)
		t=$(RUNS=$NEAR_RUNS timeit "$BIN/sh-near" -i "$ix" "$q") ||
		    exit 2
		echo "$n $bands $s $b $rss $t $QUERIES $m" | awk '{
			printf "%-10d %6d %8.3f %9.1f %9s %9.3f %11.0f %9d\n",
			    $1, $2, $3, $4 / $1,
			    ($5 == "-" ? "-" : sprintf("%.1f", $5 * 1024 / $1)),
			    $6, ($6 > 0 ? $7 / $6 : 0), $8 }'
		rm -rf "$f" "$q" "$ix"
	done
}

# turns IX OUT NAME CMD ...: each CMD (run by sh -c, a copy of the index
# IX as $1) timed NEAR_RUNS times, the commands in turns so that a change
# of load touches them all, each run on a fresh copy, the copy not timed;
# the times of the CMD at place K of the arguments (1, 3, ...) in OUT.K.
turns()
{
	tix=$1
	tout=$2
	shift 2
	k=0
	for c; do
		[ $((k % 2)) -eq 1 ] && : >"$tout.$k"
		k=$((k + 1))
	done
	r=0
	while [ "$r" -lt "$NEAR_RUNS" ]; do
		k=0
		for c; do
			[ $((k % 2)) -eq 1 ] || { k=$((k + 1)); continue; }
			rm -rf "$tix.c"
			cp -a "$tix" "$tix.c"
			PATH=$BIN:$PATH RUNS=1 timeit sh -c "$c" _ "$tix.c" \
			    >>"$tout.$k" || exit 2
			k=$((k + 1))
		done
		r=$((r + 1))
	done
}

# The nightly add at BAND_T: yesterday's VADD_DOCS English documents
# (bench/gen -c 10, a planted copy after every tenth) indexed with
# sh-index build -a, and today's night (as many new ones, their copies
# planted, and a tenth of yesterday's again) given to sh-index add (every
# line), add -u (band hits, unverified), add -u -v (verified), sh-near -u
# -i -v -a (which prints what the verified add adds), and sh-near -u -i
# -v -a piped into add (the two steps the verified add replaces, one
# night at a time).  Each on a fresh copy of the index, the copy not
# timed; in turns, so that a change of load touches them all; one core,
# medians of NEAR_RUNS runs.
bench_vadd()
{
	n=$VADD_DOCS
	"$GEN" -c 10 en $((2 * n)) >"$tmp/vadd.all" || die "$GEN failed"
	m=$(awk -F '\t' -v n="$n" '$1 !~ /-copy$/ && ++k > n { print NR; exit }' \
	    "$tmp/vadd.all")
	head -n $((m - 1)) "$tmp/vadd.all" >"$tmp/vadd.y"
	tail -n +"$m" "$tmp/vadd.all" >"$tmp/vadd.n"
	{ cat "$tmp/vadd.n"; head -n $((n / 10)) "$tmp/vadd.y"; } \
	    >"$tmp/vadd.t"
	"$BIN/sh-fp" -B $FPFLAGS "$tmp/vadd.y" >"$tmp/vadd.yb" &&
	    "$BIN/sh-fp" -B $FPFLAGS "$tmp/vadd.t" >"$tmp/vadd.tb" ||
	    die "sh-fp -B failed"
	ix=$tmp/vadd.ix
	"$BIN/sh-index" build -O -a "$BAND_T" "$ix" "$tmp/vadd.yb" ||
	    die "build failed"
	# The night's documents: the new ones, and yesterday's for the
	# pages recrawled and for the candidates.
	v="-v $tmp/vadd.n -v $tmp/vadd.y $FPFLAGS"
	echo
	echo "vadd: a night of $(wc -l <"$tmp/vadd.t") documents against an" \
	    "index of $(wc -l <"$tmp/vadd.y") at $BAND_T, one core, median of" \
	    "$NEAR_RUNS runs"
	# The cases: a name and a command, run by sh -c with the copy of
	# the index as $1 (timeit uses i).
	set -- "add" "sh-index add \$1 $tmp/vadd.tb" \
	    "add -u" "sh-index add -u \$1 $tmp/vadd.tb" \
	    "add -u -v" "sh-index add -u $v \$1 $tmp/vadd.tb" \
	    "sh-near -u -i -v" "sh-near -u -i \$1 $v -a $BAND_T $tmp/vadd.tb" \
	    "sh-near ... | add" "sh-near -u -i \$1 $v -a $BAND_T $tmp/vadd.tb |
		sh-index add \$1"
	k=0
	for c; do
		[ $((k % 2)) -eq 1 ] || { k=$((k + 1)); continue; }
		rm -rf "$ix.c"
		cp -a "$ix" "$ix.c"
		echo "$(PATH=$BIN:$PATH sh -c "$c" _ "$ix.c" | wc -l)" \
		    >"$tmp/vadd.lines.$k"
		k=$((k + 1))
	done
	turns "$ix" "$tmp/vadd.times" "$@"
	printf '%-20s %9s %7s %9s %9s\n' run 'median s' printed '/ add -u' \
	    '/ sh-near'
	k=0
	for c; do
		[ $((k % 2)) -eq 0 ] || { k=$((k + 1)); continue; }
		median <"$tmp/vadd.times.$((k + 1))" >"$tmp/vadd.m.$k"
		k=$((k + 1))
	done
	k=0
	for c; do
		[ $((k % 2)) -eq 0 ] || { k=$((k + 1)); continue; }
		awk -v name="$c" -v s="$(cat "$tmp/vadd.m.$k")" \
		    -v n="$(cat "$tmp/vadd.lines.$((k + 1))")" \
		    -v u="$(cat "$tmp/vadd.m.2")" \
		    -v q="$(cat "$tmp/vadd.m.6")" 'BEGIN {
			printf "%-20s %9.3f %7d %9.2f %9.2f\n", name, s, n,
			    (u > 0 ? s / u : 0), (q > 0 ? s / q : 0) }'
		k=$((k + 1))
	done
	rm -rf "$ix" "$ix.c" "$tmp"/vadd.*
}

# warc_gz TSV DIR FILES: the documents of TSV as HTML responses in WARC,
# one gzip member a record (as wget writes a .warc.gz), dealt in turn to
# FILES files DIR/NNN.warc.gz: by python3's zlib where there is one (a
# gzip run a record takes most of the time at millions of records), else
# by gzip(1), level 6 both.
warc_gz()
{
	if command -v python3 >/dev/null 2>&1; then
		python3 - "$@" <<'PY' || die "cannot write $2"
import sys, zlib
src, d, nf = sys.argv[1], sys.argv[2], int(sys.argv[3])
out = [open('%s/%03d.warc.gz' % (d, i), 'wb') for i in range(nf)]
with open(src, 'rb') as f:
    for n, line in enumerate(f):
        doc_id, text = line.rstrip(b'\n').split(b'\t', 1)
        http = (b'HTTP/1.1 200 OK\r\nContent-Type: text/html; '
                b'charset=utf-8\r\n\r\n<html><head><title>' + doc_id +
                b'</title></head><body><p>' + text + b'</p></body></html>')
        rec = (b'WARC/1.0\r\nWARC-Type: response\r\n'
               b'WARC-Target-URI: http://example.org/' + doc_id +
               b'\r\nContent-Type: application/http; msgtype=response\r\n'
               b'Content-Length: %d\r\n\r\n' % len(http) + http +
               b'\r\n\r\n')
        z = zlib.compressobj(6, zlib.DEFLATED, 31)
        out[n % nf].write(z.compress(rec) + z.flush())
for o in out:
    o.close()
PY
		return
	fi
	awk -F '\t' -v dir="$2" -v nf="$3" '{
		body = "<html><head><title>" $1 "</title></head><body><p>" \
		    $2 "</p></body></html>"
		http = "HTTP/1.1 200 OK\r\nContent-Type: text/html; " \
		    "charset=utf-8\r\n\r\n" body
		gz = sprintf("gzip -6 >>%s/%03d.warc.gz", dir, (NR - 1) % nf)
		printf "WARC/1.0\r\nWARC-Type: response\r\n" \
		    "WARC-Target-URI: http://example.org/%s\r\n" \
		    "Content-Type: application/http; msgtype=response\r\n" \
		    "Content-Length: %d\r\n\r\n%s\r\n\r\n", $1, \
		    length(http), http | gz
		close(gz)
	}' "$1" || die "cannot write $2"
}

# The night against an archive that keeps where its documents lie
# (sh-index build -a -v): ARCHIVE_DOCS generated pages of about 2 KB in
# ARCHIVE_FILES .warc.gz files indexed with their places, then a night of
# NIGHT_DOCS pages (new ones, and one in ten a near copy of an archived
# page) in one .warc.gz: sh-fp -B of the night, the verified add and
# sh-near -u -i given the night's file alone, on a fresh copy of the
# index each run, one core, medians of NEAR_RUNS; the compressed bytes
# read from the archive files by sh-near -i (strace) against those of
# the gzip members of its candidates' records (python3 reads them off);
# the night's pairs against those of a run given every archived file,
# and the night retried.
bench_archive()
{
	d=$tmp/archive
	mkdir -p "$d/a" || die "cannot make $d"
	n=$ARCHIVE_DOCS
	m=$NIGHT_DOCS
	"$GEN" en $((n + m)) >"$d/all" || die "$GEN failed"
	head -n "$n" "$d/all" >"$d/old"
	# The night: its new pages, and a near copy of every tenth of as
	# many archived ones (the middle word changed).
	tail -n "$m" "$d/all" >"$d/night"
	awk -F '\t' -v m="$m" 'NR > m { exit } NR % 10 == 0 {
		k = split($2, w, " "); w[int(k / 2) + 1] = "zzz" NR; t = w[1]
		for (i = 2; i <= k; i++) t = t " " w[i]
		print $1 "-night\t" t }' "$d/old" >>"$d/night"
	warc_gz "$d/old" "$d/a" "$ARCHIVE_FILES"
	warc_gz "$d/night" "$d" 1
	mv "$d/000.warc.gz" "$d/night.warc.gz"
	# The plain text is not needed again: at 10 million pages it
	# would fill the disk twice over.
	nn=$(wc -l <"$d/night")
	rm -f "$d/all" "$d/old" "$d/night"
	find "$d/a" -name '*.warc.gz' | sort >"$d/list"
	w="-f warc $FPFLAGS"
	"$BIN/sh-fp" -B $w $(cat "$d/list") >"$d/old.fpb" 2>/dev/null &&
	    "$BIN/sh-fp" -B $w "$d/night.warc.gz" >"$d/night.fpb" ||
	    die "sh-fp -B failed"
	ix=$d/ix
	t0=$(now)
	$pin "$BIN/sh-index" build -a "$BAND_T" -v @"$d/list" $w "$ix" \
	    "$d/old.fpb" || die "build -v failed"
	t1=$(now)
	"$BIN/sh-index" build -a "$BAND_T" "$d/ix0" "$d/old.fpb" ||
	    die "build failed"
	echo
	echo "archive: a night of $(wc -l <"$d/night.fpb") pages (one in" \
	    "$(awk -v m="$m" -v n="$nn" 'BEGIN {
		printf "%.0f", n / (n - m) }') a near copy of an archived one)" \
	    "against $(wc -l <"$d/old.fpb") in $ARCHIVE_FILES .warc.gz" \
	    "files ($(du -cb $(cat "$d/list") | tail -n 1 | cut -f 1) bytes)," \
	    "at $BAND_T, one core, median of $NEAR_RUNS runs"
	awk -v s="$(elapsed "$t0" "$t1")" -v a="$(du -sb "$ix" | cut -f 1)" \
	    -v b="$(du -sb "$d/ix0" | cut -f 1)" -v n="$n" 'BEGIN {
		printf "index built with -v: %.1f s; %.1f bytes a document, " \
		    "%.1f without the places\n", s, a / n, b / n }'
	set -- "sh-fp -B" "sh-fp -B $w $d/night.warc.gz" \
	    "add -u -v night" "sh-index add -u -v $d/night.warc.gz $w \$1 $d/night.fpb" \
	    "sh-near -u -i -v night" "sh-near -u -i \$1 -v $d/night.warc.gz $w -a $BAND_T $d/night.fpb"
	turns "$ix" "$d/times" "$@"
	fp=$(median <"$d/times.1")
	printf '%-26s %9s %9s\n' run 'median s' '/ sh-fp -B'
	k=0
	for c; do
		[ $((k % 2)) -eq 0 ] || { k=$((k + 1)); continue; }
		awk -v name="$c" -v s="$(median <"$d/times.$((k + 1))")" \
		    -v f="$fp" 'BEGIN {
			printf "%-26s %9.3f %9.2f\n", name, s, s / f }'
		k=$((k + 1))
	done
	awk -v f="$fp" -v a="$(median <"$d/times.3")" 'BEGIN {
		printf "the night (sh-fp -B, then add -u -v): %.2f times " \
		    "sh-fp -B alone (target 3)\n", (f + a) / f }'
	# The night's pairs, given the night's file alone and given every
	# archived file; the night retried.
	PATH=$BIN:$PATH sh-near -i "$ix" -v "$d/night.warc.gz" $w \
	    -a "$BAND_T" "$d/night.fpb" | cut -f 1-4 >"$d/got" ||
	    die "sh-near -i failed"
	PATH=$BIN:$PATH sh-near -i "$d/ix0" -v "$d/night.warc.gz" \
	    -v @"$d/list" $w -a "$BAND_T" "$d/night.fpb" >"$d/want" ||
	    die "sh-near -i with the history failed"
	rm -rf "$ix.c"
	cp -a "$ix" "$ix.c"
	PATH=$BIN:$PATH sh-index add -u -v "$d/night.warc.gz" $w "$ix.c" \
	    "$d/night.fpb" >"$d/added" || die "add -u -v failed"
	PATH=$BIN:$PATH sh-index add -u -v "$d/night.warc.gz" $w "$ix.c" \
	    "$d/night.fpb" >"$d/again" || die "add -u -v again failed"
	echo "pairs: $(wc -l <"$d/got"), $(cmp -s "$d/got" "$d/want" &&
	    echo "the same as" || echo "NOT those of") a run given every" \
	    "archived file; added $(wc -l <"$d/added"), the night retried" \
	    "added $(wc -l <"$d/again")"
	# Bytes read from the archive by sh-near -i (every candidate
	# verified), against the compressed bytes of the candidates'
	# records (their gzip members).
	if command -v strace >/dev/null 2>&1 &&
	    command -v python3 >/dev/null 2>&1; then
		# A file a task (-ff), so that no call is cut in two by
		# another's (-f alone writes "<... resumed>" without the
		# file).
		find "$d" -maxdepth 1 -name 'trace.*' -exec rm -f {} +
		PATH=$BIN:$PATH strace -ff -y -e trace=pread64,read \
		    -e signal=none -o "$d/trace" sh-near -i "$ix" -v \
		    "$d/night.warc.gz" $w -a "$BAND_T" "$d/night.fpb" \
		    >/dev/null || die "strace sh-near -i failed"
		read=$(find "$d" -maxdepth 1 -name 'trace.*' -exec cat {} + |
		    awk -v dir="$d/a/" '
		    index($0, "<" dir) && $NF ~ /^[0-9]+$/ { n += $NF }
		    END { print n + 0 }')
		PATH=$BIN:$PATH sh-near -i "$d/ix0" "$d/night.fpb" |
		    cut -f 2 | sort -u >"$d/cand"
		cand=$(python3 - "$d/cand" $(cat "$d/list") <<'PY'
import sys, zlib
want = set(l.rstrip('\n') for l in open(sys.argv[1]))
total = 0
for path in sys.argv[2:]:
    data = memoryview(open(path, 'rb').read())
    pos = 0
    while pos < len(data):
        # A member, fed in blocks: no copy of the rest of the file.
        z = zlib.decompressobj(31)
        out, p = [], pos
        while not z.eof and p < len(data):
            out.append(z.decompress(data[p:p + 65536]))
            p = min(p + 65536, len(data))
        used = p - pos - len(z.unused_data)
        rec = b''.join(out)
        for line in rec.split(b'\r\n', 8):
            if line.startswith(b'WARC-Target-URI: '):
                if line[17:].decode() in want:
                    total += used
                break
        pos += used
print(total)
PY
		) || die "python3 failed"
		awk -v r="$read" -v c="$cand" -v n="$(wc -l <"$d/cand")" \
		    'BEGIN { printf "archive bytes read by sh-near -i: %d; " \
		    "the gzip members of its %d candidates: %d; ratio %.3f " \
		    "(target 1.5)\n", r, n, c, (c > 0 ? r / c : 0) }'
	fi
	rm -rf "$d"
}

# sh-index delete of DELETE_PCTS % of the IDs of an index of n random
# fingerprints (every 100/p-th line's), each run on a fresh copy of the
# index, the copy not timed; then sh-index merge.  sh-near -i of QUERIES
# (90 % new, 10 % indexed, k = 3) on the index as built and with the
# deletions, in turns (so that a change of load touches both), then on
# the merged index; one core, medians of NEAR_RUNS runs.  Slowdown: the
# queries' time with the deletions over without, less 1.
bench_deletes()
{
	[ -x "$GENFP" ] || die "$GENFP: not found; run make first"
	echo
	echo "deletes: sh-index delete; sh-near -i INDEX QUERIES, k = 3," \
	    "one core, median of $NEAR_RUNS runs"
	printf '%-10s %5s %9s %8s %10s %10s %9s %8s %10s\n' fps deleted \
	    'delete s' 'B/del' 'query s' 'deleted s' slowdown 'merge s' \
	    'merged s'
	for n in $DELETE_SIZES; do
		f=$tmp/fp.$n
		q=$tmp/q.$n
		ix=$tmp/ix.$n
		"$GENFP" "$n" >"$f" || die "$GENFP $n failed"
		{ "$GENFP" -s 2 $((QUERIES - QUERIES / 10)); head -n \
		    $((QUERIES / 10)) "$f"; } >"$q" || die "queries failed"
		"$BIN/sh-index" build -O "$ix" "$f" || die "build failed"
		for p in $DELETE_PCTS; do
			is_count "$p" && [ "$p" -le 100 ] ||
			    die "DELETE_PCTS: $p is not a percentage"
			awk -v m=$((100 / p)) 'NR % m == 0 { print $2 }' "$f" \
			    >"$tmp/gone"
			i=0
			d=
			while [ "$i" -lt "$NEAR_RUNS" ]; do
				rm -rf "$ix.d"
				cp -a "$ix" "$ix.d"
				d="$d $(RUNS=1 timeit "$BIN/sh-index" delete \
				    "$ix.d" "$tmp/gone")" || exit 2
				i=$((i + 1))
			done
			d=$(printf '%s\n' $d | median)
			db=$(find "$ix.d" -name 'del-*' -exec cat {} + | wc -c)
			nd=$(wc -l <"$tmp/gone")
			i=0
			t0=
			t1=
			while [ "$i" -lt "$NEAR_RUNS" ]; do
				t0="$t0 $(RUNS=1 timeit "$BIN/sh-near" -i "$ix" \
				    "$q")" || exit 2
				t1="$t1 $(RUNS=1 timeit "$BIN/sh-near" -i \
				    "$ix.d" "$q")" || exit 2
				i=$((i + 1))
			done
			t0=$(printf '%s\n' $t0 | median)
			t1=$(printf '%s\n' $t1 | median)
			mg=$(RUNS=1 timeit "$BIN/sh-index" merge "$ix.d") ||
			    exit 2
			t2=$(RUNS=$NEAR_RUNS timeit "$BIN/sh-near" -i "$ix.d" \
			    "$q") || exit 2
			rm -rf "$ix.d"
			echo "$n $p $d $db $nd $t0 $t1 $mg $t2" | awk '{
				printf "%-10d %4d%% %9.3f %8.1f %10.3f %10.3f %8.1f%% %8.3f %10.3f\n",
				    $1, $2, $3, $4 / $5, $6, $7,
				    ($6 > 0 ? 100 * ($7 / $6 - 1) : 0), $8, $9 }'
		done
		rm -rf "$f" "$q" "$ix"
	done
	echo "(B/del: bytes of deletion files per ID deleted)"
}

is_count "$RUNS" || die "RUNS must be a positive integer: $RUNS"
is_count "$DOCS" || die "DOCS must be a positive integer: $DOCS"
[ $# -gt 0 ] || set -- $sections
# sh-dist -v: exact similarity of candidate pairs of the English
# documents, four per document: grouped by the first ID as sh-near prints
# them (the first document's features are kept between its pairs), and in
# random order (two documents read and cut per pair).
bench_verify()
{
	data en
	awk -F '\t' -v k="$VERIFY_PAIRS" '{ id[NR] = $1 } END {
		srand(1)
		for (i = 1; i <= NR; i++) {
			print id[i] "\t" id[i] "\t0" > "/dev/stderr"
			for (j = 1; j <= k; j++) {
				p = id[i] "\t" id[(i + j * 7919) % NR + 1] "\t3"
				print p
				printf "%.9f\t%s\n", rand(), p > "/dev/fd/3"
			}
		}
	}' "$data" >"$tmp/pairs.grouped" 2>"$tmp/pairs.cut" 3>"$tmp/pairs.r" ||
	    die "cannot write the pairs"
	sort -n "$tmp/pairs.r" | cut -f 2- >"$tmp/pairs.random" ||
	    die "cannot write the pairs"
	n=$(wc -l <"$tmp/pairs.grouped")
	b=$(wc -c <"$data")
	echo
	echo "verify: sh-dist -v DOCS PAIRS over $DOCS documents," \
	    "$(awk -v b="$b" 'BEGIN { printf "%.1f MB", b / 1e6 }')," \
	    "$VERIFY_PAIRS pairs a document (single core, median of $RUNS)"
	cut=$(timeit "$BIN/sh-dist" -v "$data" "$tmp/pairs.cut") || exit 2
	echo "each document read and cut once (a pair of it with itself):" \
	    "$cut s"
	printf '%-18s %8s %9s %9s %9s\n' pairs count 'median s' pairs/s \
	    'net/s'
	for c in 'grouped jaccard' 'grouped cosine' 'random jaccard'; do
		set -- $c
		s=$(timeit "$BIN/sh-dist" -v "$data" -J "$2" \
		    "$tmp/pairs.$1") || exit 2
		awk -v c="$1 $2" -v n="$n" -v s="$s" -v cut="$cut" 'BEGIN {
		    printf "%-18s %8d %9.3f %9.0f %9.0f\n", c, n, s,
			(s > 0 ? n / s : 0), (s > cut ? n / (s - cut) : 0) }'
	done
}

# The edit measure (sh-dist -J edit) a pair at a time, as the verifier
# calls it on characters already folded: bench/lev, pinned, RUNS runs.
bench_editdist()
{
	[ -x "$LEV" ] || die "$LEV: not found; run make bench/lev first"
	echo
	echo "editdist: bench/lev -n $EDIT_PAIRS (the edit similarity of" \
	    "folded characters, single core, median of $RUNS;" \
	    "1000 characters: a tenth of the pairs)"
	$pin "$LEV" -n "$EDIT_PAIRS" -r "$RUNS" ||
	    die "$LEV failed (status $?)"
}

# The verified routes against sh-fp alone: ROUTE_DOCS English documents,
# a tenth of them followed by a copy with one word in 100 replaced
# (Jaccard about 0.94 over 3-shingles); sh-fp alone and sh-fp -B on one
# core, then for each t of ROUTE_T the whole routes (both cores,
# unpinned), each with its pairs: the fingerprints', sh-fp | sh-near -v
# DOCS -a t (unless ROUTE_FP is not "yes"), and the bands', sh-fp -B |
# sh-near -B -v DOCS -a t, and after each its part after sh-fp.
bench_route()
{
	f=${ROUTE_FILE:-$tmp/route.tsv}
	if [ -n "$ROUTE_FILE" ]; then
		[ -s "$f" ] || die "ROUTE_FILE $f: missing or empty"
	elif [ ! -s "$f" ]; then
		"$GEN" -s 7 en "$ROUTE_DOCS" | awk -F '\t' '{
			print
			if (NR % 10)
				next
			n = split($2, w, " ")
			s = ""
			for (i = 1; i <= n; i++)
				s = s (i > 1 ? " " : "") (i % 100 ? w[i] : "zzz" i)
			print $1 "-copy\t" s
		}' >"$f" || die "cannot write $f"
	fi
	n=$(wc -l <"$f")
	b=$(wc -c <"$f")
	"$BIN/sh-fp" "$f" >"$tmp/route.fp" || die "sh-fp $f failed"
	"$BIN/sh-fp" -B "$f" >"$tmp/route.fpb" || die "sh-fp -B $f failed"
	echo
	echo "route: $n documents," \
	    "$(awk -v b="$b" 'BEGIN { printf "%.1f MB", b / 1e6 }')," \
	    "median of $NEAR_RUNS runs"
	printf '%-50s %9s %7s %9s\n' run 'median s' ratio pairs
	fp=$(RUNS=$NEAR_RUNS timeit "$BIN/sh-fp" "$f") || exit 2
	route_row 'sh-fp (one core)' "$fp" ''
	s=$(RUNS=$NEAR_RUNS timeit "$BIN/sh-fp" -B "$f") || exit 2
	route_row 'sh-fp -B (one core)' "$s" ''
	for t in $ROUTE_T; do
		for c in fp fpverify bands verify; do
			pairs=
			case $c in
			fp)	[ "$ROUTE_FP" = yes ] || continue
				label="sh-fp | sh-near -v DOCS -a $t"
				set -- sh -c '"$1" "$2" | "$3" -v "$2" -a "$4" \
				    2>/dev/null' sh "$BIN/sh-fp" "$f" \
				    "$BIN/sh-near" "$t"
				pairs=$("$BIN/sh-near" -v "$f" -a "$t" \
				    "$tmp/route.fp" 2>/dev/null | wc -l) ;;
			fpverify)
				[ "$ROUTE_FP" = yes ] || continue
				label="  sh-near -v DOCS -a $t (join, verify)"
				set -- sh -c '"$1" -v "$2" -a "$3" "$4" 2>/dev/null' \
				    sh "$BIN/sh-near" "$f" "$t" "$tmp/route.fp" ;;
			bands)	label="sh-fp -B | sh-near -B -v DOCS -a $t"
				set -- sh -c '"$1" -B "$2" | "$3" -B -v "$2" -a "$4"' \
				    sh "$BIN/sh-fp" "$f" "$BIN/sh-near" "$t"
				pairs=$("$BIN/sh-near" -B -v "$f" -a "$t" \
				    "$tmp/route.fpb" | wc -l) ;;
			verify)	label="  sh-near -B -v DOCS -a $t (bands, verify)"
				set -- "$BIN/sh-near" -B -v "$f" -a "$t" \
				    "$tmp/route.fpb" ;;
			esac
			s=$(RUNS=$NEAR_RUNS pin= timeit "$@") || exit 2
			route_row "$label" "$s" "$pairs"
		done
	done
	[ -n "$ROUTE_FILE" ] || echo "(copies made: $((n / 11)))"
}

# The figures of a run (sh-near -R) against the same run without them:
# FIG_DOCS English documents, a tenth followed by a copy with one word in
# 100 replaced, their IDs URLs on 100 hosts; sh-near -g -j 1 -v DOCS on
# the bands at 0.8 and on the fingerprints at -k 6 with -a 0.8, pinned,
# median of NEAR_RUNS runs each, then the same with -R.
bench_figures()
{
	f=$tmp/figures.tsv
	"$GEN" -s 7 en "$FIG_DOCS" | awk -F '\t' '{
		id = "http://h" NR % 100 ".example/" $1
		print id "\t" $2
		if (NR % 10)
			next
		n = split($2, w, " ")
		s = ""
		for (i = 1; i <= n; i++)
			s = s (i > 1 ? " " : "") (i % 100 ? w[i] : "zzz" i)
		print id "-copy\t" s
	}' >"$f" || die "cannot write $f"
	"$BIN/sh-fp" -B "$f" >"$tmp/figures.fp" || die "sh-fp -B $f failed"
	n=$(wc -l <"$f")
	echo
	echo "figures: sh-near -g -j 1 -v DOCS, $n documents on 100 hosts," \
	    "without and with -R, one core, median of $NEAR_RUNS runs"
	printf '%-28s %9s %9s %7s\n' route 'median s' 'with -R' ratio
	for r in '-a 0.8' '-k 6 -a 0.8'; do
		# The table and warnings of -R go where those of both runs
		# go: nowhere.
		a=$(RUNS=$NEAR_RUNS timeit sh -c '"$0" "$@" 2>/dev/null' \
		    "$BIN/sh-near" -g -j 1 -v "$f" $r "$tmp/figures.fp") ||
		    exit 2
		b=$(RUNS=$NEAR_RUNS timeit sh -c '"$0" "$@" 2>/dev/null' \
		    "$BIN/sh-near" -g -j 1 -v "$f" $r -R "$tmp/figures.json" \
		    "$tmp/figures.fp") || exit 2
		awk -v r="$r" -v a="$a" -v b="$b" 'BEGIN {
		    printf "%-28s %9.3f %9.3f %7.3f\n", r, a, b,
			(a > 0 ? b / a : 0) }'
	done
	rm -f "$f" "$tmp/figures.fp" "$tmp/figures.json"
}

# The band join within a memory budget, at the scale where neither the
# sketch lines nor the pairs' keys fit in memory: BANDJOIN_DOCS short
# documents (bench/gen -b BANDJOIN_BYTES -c 10: every tenth followed by a
# copy, one word changed), piped as sketch lines from sh-fp -B (two
# cores) to sh-near -B -v DOCS -a 0.8 -S BANDJOIN_S, once: its time, its
# peak resident memory (with the pages of the files it maps, which the
# kernel takes back as it needs) and the most of it that was its own
# (RssAnon), and the most the file system holding TMPDIR filled beyond
# the documents while it ran; both sampled every 2 seconds, the latter
# counting whatever else wrote there then.
bench_bandjoin()
{
	f=$tmp/bandjoin.tsv
	"$GEN" -b "$BANDJOIN_BYTES" -c 10 -s 7 en $((BANDJOIN_DOCS / 11 * 10)) \
	    >"$f" || die "cannot write $f"
	n=$(wc -l <"$f")
	b=$(wc -c <"$f")
	echo
	echo "bandjoin: sh-fp -B DOCS | sh-near -B -v DOCS -a 0.8" \
	    "-S $BANDJOIN_S, $n documents," \
	    "$(awk -v b="$b" 'BEGIN { printf "%.1f GB", b / 1e9 }'), one run"
	used()
	{
		df -Pk "${TMPDIR:-/tmp}" | awk 'NR == 2 { print $3 }'
	}
	base=$(used)
	(
		max=$base anon=0
		while [ ! -e "$tmp/bandjoin.done" ]; do
			u=$(used)
			[ "$u" -gt "$max" ] && max=$u
			for p in $(pgrep -f "$BIN/sh-near -B -v $f"); do
				a=$(awk '/^RssAnon/ { print $2 }' \
				    "/proc/$p/status" 2>/dev/null)
				[ "${a:-0}" -gt "$anon" ] && anon=$a
			done
			echo "$max $anon" >"$tmp/bandjoin.max"
			sleep 2
		done
	) &
	t0=$(now)
	"$BIN/sh-fp" -B "$f" | /usr/bin/time -f %M -o "$tmp/bandjoin.rss" \
	    "$BIN/sh-near" -B -v "$f" -a 0.8 -S "$BANDJOIN_S" \
	    >"$tmp/bandjoin.pairs" || die "the band join failed"
	t1=$(now)
	: >"$tmp/bandjoin.done"
	wait
	printf '%-10s %9s %9s %9s %9s %10s %10s\n' docs 'time s' 'docs/s' \
	    'RSS MB' 'anon MB' 'tmp GB' pairs
	read -r max anon <"$tmp/bandjoin.max"
	awk -v n="$n" -v s="$(elapsed "$t0" "$t1")" \
	    -v rss="$(cat "$tmp/bandjoin.rss")" -v anon="$anon" \
	    -v tb="$((max - base))" \
	    -v p="$(wc -l <"$tmp/bandjoin.pairs")" 'BEGIN {
		printf "%-10d %9.1f %9.0f %9.0f %9.0f %10.1f %10d\n", n, s,
		    n / s, rss / 1024, anon / 1024, tb * 1024 / 1e9, p }'
	echo "(copies made: $((BANDJOIN_DOCS / 11)))"
	rm -f "$f" "$tmp/bandjoin.pairs"
}

# One row of the route table: label $1, seconds $2 and their ratio to
# sh-fp alone ($fp), pairs $3.
route_row()
{
	printf '%-50s %9.3f %7.2f %9s\n' "$1" "$2" \
	    "$(awk -v s="$2" -v f="$fp" 'BEGIN { print s / f }')" "$3"
}

for s; do
	case " $sections " in
	*" $s "*)
		;;
	*)
		usage ;;
	esac
done
[ -x "$GEN" ] || die "$GEN: not found; run make first"
for s; do
	for t in $(tools "$s"); do
		[ -x "$BIN/$t" ] || die "$BIN/$t: not found; run make first"
	done
done

case $(date +%N) in
[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9])
	nsfmt=.%N ;;
*)
	nsfmt= ;;
esac
calibrate=
if ! command -v taskset >/dev/null 2>&1 ||
    ! taskset -c "${CPU:-0}" true 2>/dev/null; then
	pin=
	pinmsg="unpinned (taskset -c ${CPU:-0} unavailable)"
elif [ -n "$CPU" ]; then
	pin="taskset -c $CPU"
	pinmsg="pinned with taskset -c $CPU"
else
	calibrate=1
	pinmsg="pinned with taskset to the core found fastest before each section"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/shbench.XXXXXX") ||
    die "cannot make a temporary directory"
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

header
for s; do
	[ -z "$calibrate" ] || pick_core
	"bench_$s"
done
if [ -r /proc/loadavg ]; then
	echo
	echo "load      $(cut -d ' ' -f 1-3 /proc/loadavg) at the end"
fi
