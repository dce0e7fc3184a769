#!/usr/bin/env bats
# Shards: the union of the shards' outputs is the one-process output, each
# result once; run by hand, by GNU parallel on this machine, by GNU
# parallel on stand-in remote hosts, and as Hadoop Streaming would.

load helper

setup() {
	D=$BATS_TEST_TMPDIR
	rand_fps "$D/all.fp" 3000 13
	head -n 400 "$D/all.fp" | sed 's/\t/\tq/' >"$D/q.fp"
	rand_fps "$D/other.fp" 100 14
	cat "$D/other.fp" >>"$D/q.fp"
}

need_parallel() {
	command -v parallel >/dev/null ||
	    skip "GNU parallel is not installed (Debian package parallel)"
	# Remote workers run in $SHELL; parallel runs nothing without it.
	export SHELL="${SHELL:-/bin/sh}"
}

# sorted FILE: FILE's lines in byte order.
sorted() {
	LC_ALL=C sort "$@"
}

@test "join shards, 1 to 12 ways: every pair once" {
	local n i
	sh-near -k 4 "$D/all.fp" | sorted >"$D/want"
	[ -s "$D/want" ]
	for n in 1 2 3 4 5 7 10 12; do
		for i in $(seq 0 $((n - 1))); do
			sh-near -k 4 -P "$i/$n" "$D/all.fp" || [ $? -eq 1 ]
		done | sorted >"$D/got"
		same_files "$D/want" "$D/got"
	done
}

@test "sh-near -m: shard outputs, in any order, back into the one-process pairs and clusters" {
	local i
	sh-near -k 4 "$D/all.fp" >"$D/want"
	sh-near -g -k 4 "$D/all.fp" >"$D/cwant"
	for i in 0 1 2 3 4; do
		sh-near -k 4 -P "$i/5" "$D/all.fp" >"$D/pairs.$i" || [ $? -eq 1 ]
	done
	cat "$D"/pairs.[31420] >"$D/pairs"
	sh-near -m "$D/pairs" "$D/all.fp" >"$D/got"
	same_files "$D/want" "$D/got"
	sh-near -g -m "$D/pairs" "$D/all.fp" >"$D/got"
	same_files "$D/cwant" "$D/got"
	# Within a budget; the pairs on stdin, twice (each pair is one pair).
	cat "$D/pairs" "$D/pairs" | sh-near -S 1M -m - "$D/all.fp" >"$D/got"
	same_files "$D/want" "$D/got"
	sh-near -S 1M -g -m "$D/pairs" "$D/all.fp" >"$D/got"
	same_files "$D/cwant" "$D/got"
	# Distances come from the fingerprints; IDs in either order.
	printf 'f2\tf1\t99\n' | sh-near -m - "$D/all.fp" >"$D/got"
	printf 'f1\tf2\t%s\n' "$(sh-dist "$(sed -n 1p "$D/all.fp" | cut -f 1)" \
	    "$(sed -n 2p "$D/all.fp" | cut -f 1)")" >"$D/want"
	same_files "$D/want" "$D/got"
	# No pairs: every fingerprint is its own cluster; exit 1 without -c.
	run -1 sh-near -m /dev/null "$D/all.fp"
	eq "$output" ""
	sh-near -g -m /dev/null "$D/all.fp" >"$D/got"
	cut -f 2 "$D/all.fp" | paste - "$D/all.fp" | cut -f 1,3 >"$D/want"
	same_files "$D/want" "$D/got"
}

@test "sh-near -m: errors" {
	run -2 --separate-stderr sh-near -m - <<<"$(printf 'f1\tnope\t3')" "$D/all.fp"
	eq "$stderr" "sh-near: <stdin>:1: no fingerprint has this ID"
	run -2 --separate-stderr sh-near -m - <<<"f1" "$D/all.fp"
	eq "$stderr" "sh-near: <stdin>:1: too few fields"
	run -2 --separate-stderr sh-near -m "$D/nofile" "$D/all.fp"
	eq "$stderr" "sh-near: $D/nofile: No such file or directory"
	{ cat "$D/all.fp"; sed -n 5p "$D/all.fp"; } >"$D/dup.fp"
	printf 'f1\tf2\t3\n' >"$D/pairs"
	for budget in "" "-S 1M"; do
		run -2 --separate-stderr sh-near $budget -m "$D/pairs" "$D/dup.fp"
		eq "$stderr" "sh-near: -m: ID f5: two fingerprints have this ID"
	done
	# Both from stdin; with modes that take no pairs.
	run -2 sh-near -m - <"$D/pairs"
	run -2 sh-near -m - - <"$D/pairs"
	run -2 sh-near -u -m "$D/pairs" "$D/all.fp"
	run -2 sh-near -i "$D/x" -m "$D/pairs" "$D/all.fp"
	run -2 sh-near -P 0/2 -m "$D/pairs" "$D/all.fp"
}

@test "index shards: fingerprint ranges; queries fan out, union is exact" {
	local i
	sh-index build "$D/one" "$D/all.fp"
	sh-near -i "$D/one" -k 5 "$D/q.fp" | sorted >"$D/want"
	for i in 0 1 2 3; do
		sh-index build -P "$i/4" "$D/s$i" "$D/all.fp"
	done
	for i in 0 1 2 3; do
		sh-index dump "$D/s$i"
	done | sorted >"$D/dump"
	sorted "$D/all.fp" >"$D/all.sorted"
	same_files "$D/all.sorted" "$D/dump"
	for i in 0 1 2 3; do
		sh-near -i "$D/s$i" -k 5 "$D/q.fp" || [ $? -eq 1 ]
	done | sorted >"$D/got"
	same_files "$D/want" "$D/got"
	run -0 sh-index info "$D/s2"
	eq "${lines[2]}" "$(printf 'shard\t2/4')"
}

@test "an index shard keeps its range on add; -P must match" {
	sh-index build -P 1/2 "$D/s" </dev/null
	sh-index add "$D/s" "$D/all.fp"
	sh-index dump "$D/s" | cut -c 1 | sort -u | tr -d '\n' >"$D/firsts"
	eq "$(cat "$D/firsts")" 89abcdef
	run -2 --separate-stderr sh-index add -P 0/2 "$D/s" "$D/all.fp"
	eq "$stderr" "sh-index: $D/s: index holds another shard"
	run -0 sh-index add -P 1/2 "$D/s" "$D/other.fp"
}

@test "-P: bad specs and modes that cannot be sharded are usage errors" {
	local spec
	for spec in 4/4 -1/4 1 1/0 a/b 1/65537; do
		run -2 --separate-stderr sh-near -P "$spec" "$D/all.fp"
		eq "$stderr" "sh-near: -P $spec: invalid value"
	done
	run -2 sh-near -g -P 0/2 "$D/all.fp"
	run -2 sh-near -u -P 0/2 "$D/all.fp"
	run -2 sh-near -i "$D/x" -P 0/2 "$D/all.fp"
	run -2 sh-index info -P 0/2 "$D/x"
}

@test "GNU parallel: fingerprint a dump in pieces, same bytes" {
	need_parallel
	gen_corpus "$D/docs.tsv" 2000
	sh-fp "$D/docs.tsv" >"$D/want" 2>/dev/null
	parallel --pipe -k -N 150 -j 2 sh-fp <"$D/docs.tsv" >"$D/got" 2>/dev/null
	same_files "$D/want" "$D/got"
}

@test "GNU parallel: sharded index build, fan-out query, sharded join" {
	need_parallel
	sh-near -k 4 "$D/all.fp" | sorted >"$D/join.want"
	parallel -j 2 "sh-near -k 4 -P {}/6 '$D/all.fp' | LC_ALL=C sort >'$D/pairs.{}'" \
	    ::: 0 1 2 3 4 5
	LC_ALL=C sort -m "$D"/pairs.? >"$D/join.got"
	same_files "$D/join.want" "$D/join.got"
	sh-index build "$D/one" "$D/all.fp"
	sh-near -i "$D/one" "$D/q.fp" | sorted >"$D/q.want"
	parallel -j 2 sh-index build -P {}/4 "$D/s{}" "$D/all.fp" ::: 0 1 2 3
	parallel -j 2 sh-near -i "$D/s{}" "$D/q.fp" ::: 0 1 2 3 | sorted >"$D/q.got"
	same_files "$D/q.want" "$D/q.got"
}

@test "GNU parallel on two stand-in remote hosts (--ssh)" {
	need_parallel
	cat >"$D/fakessh" <<-'EOF'
	#!/bin/sh
	# Stands in for ssh: notes the host, runs the command here.
	echo "$1" >>"${FAKESSH_LOG:?}"
	shift
	[ "$1" = "--" ] && shift
	exec sh -c "$*"
	EOF
	chmod +x "$D/fakessh"
	export FAKESSH_LOG="$D/hosts"
	sh-near -k 4 "$D/all.fp" | sorted >"$D/want"
	parallel --ssh "$D/fakessh" -S 1/host1,1/host2 \
	    "PATH='$PATH' sh-near -k 4 -P {}/4 '$D/all.fp'" ::: 0 1 2 3 |
	    sorted >"$D/got"
	same_files "$D/want" "$D/got"
	eq "$(sort -u "$D/hosts" | tr '\n' ' ')" "host1 host2 "
}

@test "Hadoop Streaming contract: mapper and reducer on stdin and stdout" {
	gen_corpus "$D/docs.tsv" 1500
	# Mapper: documents to fingerprint lines; shuffle: sort by key;
	# reducer: the join over what it receives.
	sh-fp <"$D/docs.tsv" 2>/dev/null | LC_ALL=C sort -t "$(printf '\t')" -k 1,1 |
	    sh-near -k 6 | awk -F '\t' '{ if ($1 > $2) { t = $1; $1 = $2; $2 = t }
	    print $1 "\t" $2 "\t" $3 }' | sorted >"$D/got"
	sh-fp "$D/docs.tsv" 2>/dev/null | sh-near -k 6 |
	    awk -F '\t' '{ if ($1 > $2) { t = $1; $1 = $2; $2 = t }
	    print $1 "\t" $2 "\t" $3 }' | sorted >"$D/want"
	[ -s "$D/want" ]
	same_files "$D/want" "$D/got"
}

@test "sh-fp -P: byte-range shards of a file, in order, give the same bytes" {
	local n i f
	gen_corpus "$D/docs.tsv" 700
	awk -F '\t' '{ printf "%s\t%s\n%s%c", $1, $2, "second line", 0 }' \
	    "$D/docs.tsv" >"$D/docs.nul"
	awk -F '\t' '{ t = $2; gsub(/\\/, "\\\\", t); gsub(/"/, "\\\"", t)
	    printf "{\"id\":\"%s\",\"text\":\"%s\"}\n", $1, t }' \
	    "$D/docs.tsv" >"$D/docs.jsonl"
	printf 'a\tx\n' >"$D/tiny.tsv"
	for f in tsv:tab nul:nul jsonl:jsonl tiny.tsv:tab; do
		sh-fp -f "${f#*:}" "$D/docs.${f%%:*}" >"$D/want" 2>/dev/null ||
		    true
		[ "$f" != tiny.tsv:tab ] || sh-fp "$D/tiny.tsv" >"$D/want"
		for n in 1 2 3 7; do
			for i in $(seq 0 $((n - 1))); do
				if [ "$f" = tiny.tsv:tab ]; then
					sh-fp -P "$i/$n" "$D/tiny.tsv"
				else
					sh-fp -f "${f#*:}" -P "$i/$n" \
					    "$D/docs.${f%%:*}" 2>/dev/null || true
				fi
			done >"$D/got"
			same_files "$D/want" "$D/got"
		done
	done
}

# warc_rec TYPE URI BODY: a WARC/1.0 record with CRLF headers and the
# block BODY (printf %b escapes), its Content-Length counted in bytes.
warc_rec() {
	local body len
	body=$(printf '%b' "$3"; printf x)
	body=${body%x}
	len=$(printf '%s' "$body" | LC_ALL=C wc -c)
	printf 'WARC/1.0\r\nWARC-Type: %s\r\nWARC-Target-URI: %s\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n' \
	    "$1" "$2" "$len" "$body"
}

# shards_cmp FILE OPTION...: for 1 to 7 shards, and 40, the shards of
# FILE in order give the bytes of one process, on stdout, and the same
# messages about its lines.
shards_cmp() {
	local f=$1 n i
	shift
	sh-fp "$@" "$f" >"$D/want" 2>"$D/want.err" || true
	[ -s "$D/want" ]
	grep ':[0-9]*: ' "$D/want.err" >"$D/want.lines" || true
	for n in 1 2 3 4 5 6 7 40; do
		for i in $(seq 0 $((n - 1))); do
			sh-fp "$@" -P "$i/$n" "$f" 2>>"$D/got.err" || true
		done >"$D/got"
		same_files "$D/want" "$D/got" ||
		    { echo "sh-fp $* -P i/$n differs"; return 1; }
		grep ':[0-9]*: ' "$D/got.err" >"$D/got.lines" || true
		same_files "$D/want.lines" "$D/got.lines" ||
		    { echo "sh-fp $* -P i/$n: other messages"; return 1; }
		rm -f "$D/got.err"
	done
}

@test "sh-fp -P: WARC records cut at their true starts, WARC/1.0 lines inside blocks never taken for one" {
	local i
	{
		warc_rec warcinfo '' 'software: test\r\nWARC/1.0\r\n'
		for i in $(seq 1 40); do
			# A block holding a whole fake record, framed to end where
			# the block ends: only the framing from the start tells.
			warc_rec response "http://x.example/$i" "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\npage $i of the crawl says $((i * 7)) words\nWARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://fake.example/$i\r\nContent-Length: 60\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nfake page $i\n\n\n\n\n\n\n\n\n\n"
			warc_rec request "http://x.example/$i" 'GET / HTTP/1.1\r\n\r\n'
			[ $((i % 5)) -ne 0 ] || warc_rec metadata "http://x.example/$i" ''
			[ $((i % 7)) -ne 0 ] || warc_rec response "http://y.example/$i" 'HTTP/1.1 200 OK\r\n\r\n'
			[ $((i % 9)) -ne 0 ] || warc_rec response "http://z.example/$i" "HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\n\r\ngone $i"
			[ $((i % 11)) -ne 0 ] || warc_rec resource "http://r.example/$i" "WARC/1.1\r\nWARC-Type: conversion\r\nContent-Length: 3\r\n\r\nabc\r\n\r\n"
			[ $((i % 13)) -ne 0 ] || warc_rec conversion "http://c.example/$i" "text of a conversion $i\nWARC/1.0\n"
		done
		# One without an HTTP head: a message, with its line number.
		warc_rec response http://x.example/nohead 'no head here'
		warc_rec response http://x.example/last 'HTTP/1.1 200 OK\r\n\r\nthe last page'
	} >"$D/c.warc"
	grep -c 'fake.example' "$D/c.warc"
	shards_cmp "$D/c.warc" -f warc
	shards_cmp "$D/c.warc" -f warc -y response,resource,conversion
	run -2 --separate-stderr sh-fp -f warc "$D/c.warc"
	[[ $output != *fake.example* ]]
	[[ $stderr == "sh-fp: $D/c.warc:"[0-9]*": WARC response without an HTTP head"* ]]
	eq "$(grep -c 'x.example' <<<"$output")" 41
}

@test "sh-fp -P: paragraphs and numbered lines, IDs numbered from the start of the file" {
	local i
	for i in $(seq 1 300); do
		case $((i % 6)) in
		0) printf '\n\n' ;;
		1) printf 'para %d line one\r\nand its second line %d\r\n' "$i" $((i * 3)) ;;
		2) printf ' \t \r\n' ;;
		3) printf 'a long paragraph %d %s\n' "$i" "$(seq -s ' ' 1 $((i % 40)))" ;;
		4) printf '\n' ;;
		5) printf 'x%d\n\ty %d\n \n' "$i" "$i" ;;
		esac
	done >"$D/p.txt"
	printf 'no final newline' >>"$D/p.txt"
	shards_cmp "$D/p.txt" -f para
	shards_cmp "$D/p.txt" -l
	printf '\n\n\none\n\n' >"$D/one.txt"
	shards_cmp "$D/one.txt" -f para
	shards_cmp "$D/one.txt" -l
}

@test "sh-fp -P: tab, nul and jsonl with CRLF, empty records, bad lines: the same bytes and messages" {
	local i
	for i in $(seq 1 200); do
		case $((i % 5)) in
		0) printf 'd%d\tthe text of %d\r\n' "$i" "$i" ;;
		1) printf 'd%d\t\n' "$i" ;;
		2) [ $((i % 40)) -ne 2 ] || printf 'no tab in line %d\n' "$i" ;;
		3) printf 'd%d\tword %d %s\n' "$i" "$i" "$(seq -s ' ' 1 $((i % 50)))" ;;
		4) [ $((i % 100)) -ne 4 ] && printf 'e%d\t \r\n' "$i" || printf '\r\n' ;;
		esac
	done >"$D/t.tsv"
	shards_cmp "$D/t.tsv"
	tr '\n' '\0' <"$D/t.tsv" >"$D/t.nul"
	shards_cmp "$D/t.nul" -f nul
	awk '{ sub(/\r$/, ""); n = index($0, "\t")
	    if (n == 0) print; else printf "{\"id\":\"%s\",\"text\":\"%s\"}\r\n",
	    substr($0, 1, n - 1), substr($0, n + 1) }' "$D/t.tsv" >"$D/t.jsonl"
	shards_cmp "$D/t.jsonl" -f jsonl
	printf 'a\tx\n' >"$D/tiny.tsv"
	shards_cmp "$D/tiny.tsv"
}

@test "sh-fp -P: a pipe, whole files or a compressed file is an error" {
	run -2 --separate-stderr sh -c "cat '$FIXTURES/sample.tsv' | sh-fp -P 0/2"
	eq "$stderr" "sh-fp: <stdin>: -P: a pipe does not shard: name the file"
	run -2 --separate-stderr sh-fp -F -P 0/2 "$FIXTURES/sample.tsv"
	eq "$stderr" "sh-fp: $FIXTURES/sample.tsv: -P: whole files (-F) do not shard; give each process files of its own"
	for f in tab warc para; do
		run -2 --separate-stderr sh-fp -f "$f" -P 1/2 "$FIXTURES/crawl.warc.gz"
		eq "$stderr" "sh-fp: $FIXTURES/crawl.warc.gz: -P: gzip-compressed data does not split by bytes: give each process whole files"
		eq "$output" ""
	done
}

@test "GNU parallel: a crawl of many files, a job a file, on stand-in hosts" {
	need_parallel
	local i
	for i in 1 2 3 4 5; do
		zcat "$FIXTURES/crawl.warc.gz" | sed "s|http://|http://h$i.|" |
		    gzip >"$D/part$i.warc.gz"
	done
	cd "$D"
	for i in 1 2 3 4 5; do
		zcat "part$i.warc.gz" | sh-fp -f warc
	done >want
	ls *.warc.gz | parallel -S :,: 'sh-fp -f warc {} >{}.fp'
	cat part?.warc.gz.fp >got
	same_files want got
	[ "$(wc -l <got)" -eq 20 ]
}

@test "sh-near -S: the join and the clusters in a small budget, byte-identical" {
	local k
	mkdir "$D/tmp"
	rand_fps "$D/big.fp" 60000 15
	for k in 0 3 6; do
		sh-near -k "$k" "$D/big.fp" >"$D/want" || [ $? -eq 1 ]
		TMPDIR="$D/tmp" sh-near -S 1M -k "$k" "$D/big.fp" >"$D/got" ||
		    [ $? -eq 1 ]
		same_files "$D/want" "$D/got"
	done
	sh-near -g -k 4 "$D/big.fp" >"$D/want"
	TMPDIR="$D/tmp" sh-near -g -S 1M -k 4 "$D/big.fp" >"$D/got"
	same_files "$D/want" "$D/got"
	sh-near -k 3 "$D/big.fp" >"$D/want"
	for i in 0 1 2 3 4; do
		TMPDIR="$D/tmp" sh-near -S 1M -P "$i/5" "$D/big.fp" || [ $? -eq 1 ]
	done | sorted >"$D/got"
	sorted "$D/want" >"$D/want.sorted"
	same_files "$D/want.sorted" "$D/got"
	# Temporary files are unlinked as soon as they are made.
	eq "$(ls -A "$D/tmp")" ""
}

@test "sh-near -S: tables sorted in memory by parts or on disk give the same pairs" {
	mkdir "$D/tmp"
	# 60,000 in 1M take 3 parts in memory; 300,000 take too many and
	# are sorted on disk; 17,000 sharing their top 12 bits are a bucket
	# over the scratch (on disk too); at k = 0 the key is 64 bits (on
	# disk).
	rand_fps "$D/a.fp" 60000 16
	rand_fps "$D/b.fp" 300000 17
	{ head -n 40000 "$D/a.fp"; awk '{ print "abc" substr($1, 4) "\tabc" NR }' \
	    "$D/b.fp" | head -n 17000; } >"$D/c.fp"
	# The buckets of a part are sorted by the threads: 1 or 3.  The
	# long runs of c (some 1000 equal keys) are compared by the vector
	# code where the processor has it, held to the portable code.
	for f in a:0 a:3 a:5 b:3 c:3; do
		SH_VECTOR=0 sh-near -k "${f#*:}" "$D/${f%:*}.fp" >"$D/want" ||
		    [ $? -eq 1 ]
		for j in 1 3; do
			TMPDIR="$D/tmp" sh-near -S 1M -j "$j" -k "${f#*:}" \
			    "$D/${f%:*}.fp" >"$D/got" || [ $? -eq 1 ]
			same_files "$D/want" "$D/got"
		done
	done
	grep -q 'abc' "$D/want"
}
