#!/usr/bin/env bats
# Document locations in band indexes: sh-index build and add -v keep
# where each document lies (its file, its record, the gzip member to
# start from), so that a night is verified against the archive without
# the history in -v: the same pairs, the same pages added, a retried
# night adds none; a moved archive file is one line naming it; deleted,
# expired and merged entries keep the others' places and are never read.

load helper

F='-w 3 -W binary'

setup_file() {
	local d="$BATS_FILE_TMPDIR" i
	near_copies "$d/docs" 60 23
	# The archive: the odd lines in three files, one plain, one
	# gzipped whole, one a gzip member each 7 lines (as a .warc.gz is
	# one a record); the night: the even lines.
	awk 'NR % 2' "$d/docs" >"$d/old"
	awk 'NR % 2 == 0' "$d/docs" >"$d/night"
	sed -n '1,40p' "$d/old" >"$d/a1.tsv"
	sed -n '41,80p' "$d/old" | gzip -c >"$d/a2.tsv.gz"
	sed -n '81,$p' "$d/old" >"$d/a3.tsv"
	: >"$d/a3.tsv.gz"
	for i in $(seq 0 7 39); do
		sed -n "$((i + 1)),$((i + 7))p" "$d/a3.tsv" | gzip -c \
		    >>"$d/a3.tsv.gz"
	done
	rm "$d/a3.tsv"
	for i in a1.tsv a2.tsv.gz a3.tsv.gz night; do
		sh-fp -B $F "$d/$i" >"$d/$i.fpb"
	done
	cat "$d/a1.tsv.fpb" "$d/a2.tsv.gz.fpb" "$d/a3.tsv.gz.fpb" >"$d/old.fpb"
	zcat -f "$d/a1.tsv" "$d/a2.tsv.gz" "$d/a3.tsv.gz" >"$d/hist"
	# The archive indexed with its places, and without them.
	sh-index build -a 0.8 -v "$d/a1.tsv" -v "$d/a2.tsv.gz" \
	    -v "$d/a3.tsv.gz" $F "$d/ix" "$d/old.fpb"
	sh-index build -a 0.8 "$d/ix0" "$d/old.fpb"
}

@test "locations: the night's pairs against the archive, without the history, are those given the whole history" {
	local d="$BATS_FILE_TMPDIR" t
	run -0 --separate-stderr sh-near -i "$d/ix" -v "$d/night" $F -a 0.8 \
	    "$d/night.fpb"
	eq "$stderr" ""
	printf '%s\n' "$output" >"$d/got"
	sh-near -i "$d/ix0" -v "$d/night" -v "$d/hist" $F -a 0.8 \
	    "$d/night.fpb" | same_files - <(cut -f 1-4 "$d/got")
	# Pairs there are, some with each archive file, and each names the
	# file its archived document lies in.
	[ "$(wc -l <"$d/got")" -ge 20 ]
	for t in a1.tsv a2.tsv.gz a3.tsv.gz; do
		cut -f 2 "$d/$t.fpb" | grep -Fxqf - <(cut -f 2 "$d/got")
		cut -f 2 "$d/$t.fpb" | awk -F '\t' -v f="$d/$t" \
		    'FILENAME == "-" { in_t[$1] = 1; next }
		    ($2 in in_t) != ($5 == f) { bad++ } END { exit bad > 0 }' \
		    - "$d/got"
	done
	# Without documents, the candidates with their files, unverified.
	run -0 sh-near -i "$d/ix" "$d/night.fpb"
	eq "$(cut -f 1,2,4 <<<"$output" | grep -Fxf <(cut -f 1,2,5 "$d/got") |
	    wc -l)" "$(wc -l <"$d/got")"
	# -u: the new pages alike.
	sh-near -u -i "$d/ix" -v "$d/night" $F -a 0.8 "$d/night.fpb" \
	    >"$d/new"
	sh-near -u -i "$d/ix0" -v "$d/night" -v "$d/hist" $F -a 0.8 \
	    "$d/night.fpb" | same_files - "$d/new"
}

@test "locations: the nightly add without the history adds what it adds with it; the night retried adds nothing; the pages it adds are kept with their places" {
	local d="$BATS_TEST_TMPDIR" f="$BATS_FILE_TMPDIR"
	cp -a "$f/ix" "$d/ix"
	cp -a "$f/ix0" "$d/ix0"
	run -0 --separate-stderr sh-index add -u -v "$f/night" $F "$d/ix" \
	    "$f/night.fpb"
	eq "$stderr" ""
	printf '%s\n' "$output" >"$d/added"
	sh-index add -u -v "$f/night" -v "$f/hist" $F "$d/ix0" \
	    "$f/night.fpb" | same_files - "$d/added"
	[ -s "$d/added" ]
	run -0 sh-index add -u -v "$f/night" $F "$d/ix" "$f/night.fpb"
	eq "$output" ""
	# The night's pages are read from their own file now: the next
	# night, the same pages again under other IDs, finds them there.
	cp "$f/night" "$d/night2"
	sed -i 's/^/again-/' "$d/night2"
	sh-fp -B $F "$d/night2" >"$d/night2.fpb"
	run -0 sh-index add -u -v "$d/night2" $F "$d/ix" "$d/night2.fpb"
	eq "$output" ""
	sh-index verify "$d/ix"
	# Its segments keep places; one built without -v keeps none.
	sh-index info "$d/ix" | grep -q $'^segment\t.*\tlayout=places$'
	! sh-index info "$f/ix0" | grep -q layout=places
	sh-index info "$f/ix0" | grep -q $'^segment\t.*\tlayout=bands$'
}

@test "locations: a moved or changed archive file is one line naming it, exit 2" {
	local d="$BATS_TEST_TMPDIR" f="$BATS_FILE_TMPDIR"
	cp "$f/a1.tsv" "$d/a1.tsv"
	cp "$f/a2.tsv.gz" "$d/a2.tsv.gz"
	sh-fp -B $F "$d/a1.tsv" "$d/a2.tsv.gz" >"$d/old.fpb" 2>/dev/null
	sh-index build -a 0.8 -v "$d/a1.tsv" -v "$d/a2.tsv.gz" $F "$d/ix" \
	    "$d/old.fpb"
	mv "$d/a2.tsv.gz" "$d/moved.gz"
	run -2 --separate-stderr sh-near -i "$d/ix" -v "$f/night" $F -a 0.8 \
	    "$f/night.fpb"
	[[ "$stderr" == "sh-near: $d/a2.tsv.gz: document d"*", where the index says it lies: No such file or directory" ]]
	# Another file in its place: its records are not the ones kept.
	zcat "$d/moved.gz" | sed 's/^d/x/' | gzip -c >"$d/a2.tsv.gz"
	run -2 --separate-stderr sh-near -i "$d/ix" -v "$f/night" $F -a 0.8 \
	    "$f/night.fpb"
	[[ "$stderr" == "sh-near: $d/a2.tsv.gz: document d"*", where the index says it lies: file changed while in use" ]]
	# Given with -v, it is the night's, not the archive's; a link
	# where it was serves.
	run -2 --separate-stderr sh-near -i "$d/ix" -v "$f/night" \
	    -v "$d/moved.gz" $F -a 0.8 "$f/night.fpb"
	[[ "$stderr" == "sh-near: $d/a2.tsv.gz: document d"*", where the index says it lies: file changed while in use" ]]
	ln -sf "$d/moved.gz" "$d/a2.tsv.gz"
	run -0 sh-near -i "$d/ix" -v "$f/night" $F -a 0.8 "$f/night.fpb"
	eq "$output" "$(sh-near -i "$f/ix" -v "$f/night" $F -a 0.8 \
	    "$f/night.fpb" | grep -v "$f/a3" | sed "s|$f/|$d/|")"
}

@test "locations: deleted and expired documents are never read; merges keep the others' places" {
	local d="$BATS_TEST_TMPDIR" f="$BATS_FILE_TMPDIR"
	cp "$f/a1.tsv" "$f/a2.tsv.gz" "$d/"
	sh-index build -a 0.8 -v "$d/a1.tsv" $F "$d/ix" "$f/a1.tsv.fpb"
	sh-index add -T @1000000000 -v "$d/a2.tsv.gz" $F "$d/ix" \
	    "$f/a2.tsv.gz.fpb"
	cp "$f/a3.tsv.gz" "$d/a3.tsv.gz"
	sh-index add -v "$d/a3.tsv.gz" $F "$d/ix" "$f/a3.tsv.gz.fpb"
	# a3's documents deleted, a2's expired: their files may go.
	cut -f 2 "$f/a3.tsv.gz.fpb" | sh-index delete "$d/ix" >/dev/null
	sh-index expire -o @1500000000 "$d/ix" >/dev/null
	rm "$d/a2.tsv.gz" "$d/a3.tsv.gz"
	run -0 --separate-stderr sh-near -i "$d/ix" -v "$f/night" $F -a 0.8 \
	    "$f/night.fpb"
	eq "$stderr" ""
	printf '%s\n' "$output" >"$d/got"
	sh-index build -a 0.8 "$d/ix1" "$f/a1.tsv.fpb"
	sh-near -i "$d/ix1" -v "$f/night" -v "$f/a1.tsv" $F -a 0.8 \
	    "$f/night.fpb" | same_files - <(cut -f 1-4 "$d/got")
	[ -s "$d/got" ]
	sh-index merge "$d/ix"
	sh-index verify "$d/ix"
	sh-near -i "$d/ix" -v "$f/night" $F -a 0.8 "$f/night.fpb" |
	    same_files - "$d/got"
	cut -f 5 "$d/got" | sort -u | same_files - <(echo "$d/a1.tsv")
}

@test "locations: an index built without -v reads nothing; -v on fingerprint tables is refused" {
	local d="$BATS_TEST_TMPDIR" f="$BATS_FILE_TMPDIR"
	run -2 --separate-stderr sh-near -i "$f/ix0" -v "$f/night" $F -a 0.8 \
	    "$f/night.fpb"
	[[ "$stderr" == "sh-near: no document d1 in $f/night"* ]]
	cut -f 1,2 "$f/old.fpb" >"$d/old.fp"
	run -2 --separate-stderr sh-index build -v "$f/a1.tsv" "$d/kx" \
	    "$d/old.fp"
	eq "$stderr" "sh-index: -v: an index of fingerprint tables keeps no documents: -v is for band tables (-a)"
	[ ! -e "$d/kx" ]
}

# A WARC response: URI ID TEXT.
response() {
	local b
	b=$(printf 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n%s' "$3")
	printf 'WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: <%s>\r\nWARC-Record-ID: <urn:uuid:%s>\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n' \
	    "$1" "$2" "$(printf '%s' "$b" | wc -c)" "$b"
}

@test "locations: pages crawled again under their URLs, with unique WARC-Record-IDs: verified against their old copies, the night retried adds none" {
	local d="$BATS_TEST_TMPDIR" i w="-f warc -I WARC-Record-ID"
	near_copies "$d/docs" 12 3
	i=0
	cut -f 2 "$d/docs" | while IFS= read -r t; do
		i=$((i + 1))
		response "http://a/$i" "y$i" "$t" | gzip -c
	done >"$d/y.warc.gz"
	{ response http://a/1 t1 "$(cut -f 2 "$d/docs" | sed -n 1p) w1000"
	  response http://a/2 t2 "$(cut -f 2 "$d/docs" | sed -n 2p)"
	  response http://a/13 t3 "$(cut -f 2 "$d/docs" | sed -n 12p | rev)"
	} | gzip -c >"$d/t.warc.gz"
	sh-fp -B $F $w "$d/y.warc.gz" |
	    sh-index build -a 0.8 -v "$d/y.warc.gz" $F $w "$d/ix"
	# Page 1 changed a little, page 2 the same: not added; the new page
	# 13 is.  The night again: none.
	sh-fp -B $F $w "$d/t.warc.gz" >"$d/t.fpb"
	run -0 sh-index add -u -v "$d/t.warc.gz" $F $w "$d/ix" "$d/t.fpb"
	eq "$(cut -f 2 <<<"$output")" "urn:uuid:t3"
	run -0 sh-index add -u -v "$d/t.warc.gz" $F $w "$d/ix" "$d/t.fpb"
	eq "$output" ""
}

@test "locations: a page crawled again under its URL is verified against its old copy where it lies, not against itself; the same pairs and adds as under other IDs" {
	local d="$BATS_TEST_TMPDIR" i t1 t2 p
	near_copies "$d/docs" 12 3
	t1=$(cut -f 2 "$d/docs" | sed -n 1p)
	t2=$(cut -f 2 "$d/docs" | sed -n 5p)
	# The archive twice, its pages under the night's URLs and under
	# others; the night: page 1 changed a little, page 5 the same, a
	# copy of page 1 under a new URL.
	for p in a old; do
		i=0
		cut -f 2 "$d/docs" | while IFS= read -r t; do
			i=$((i + 1))
			response "http://$p/$i" "$p$i" "$t" | gzip -c
		done >"$d/$p.warc.gz"
		sh-fp -B $F -f warc "$d/$p.warc.gz" |
		    sh-index build -a 0.8 -v "$d/$p.warc.gz" $F -f warc "$d/$p.ix"
	done
	{ response http://a/1 t1 "$t1 w1000 w1001 w1002 w1003 w1004 w1005"
	  response http://a/5 t2 "$t2"
	  response http://a/99 t3 "$t1 w2000"
	} | gzip -c >"$d/t.warc.gz"
	sh-fp -B $F -f warc "$d/t.warc.gz" >"$d/t.fpb"
	run -0 sh-near -i "$d/a.ix" -v "$d/t.warc.gz" -f warc -a 0.8 "$d/t.fpb"
	eq "$output" "$(sh-near -i "$d/old.ix" -v "$d/t.warc.gz" -f warc \
	    -a 0.8 "$d/t.fpb" | sed 's,http://old/,http://a/,g; s,old\.warc,a.warc,')"
	# Not compared with itself: its 150 shingles of the 156 of the
	# page changed, not 1.
	eq "$(grep -P '^http://a/1\thttp://a/1\t' <<<"$output" | cut -f 4)" \
	    0.961538
	[[ "$output" == *"http://a/5	http://a/5	0	1.000000	"* ]]
	run -0 sh-index add -u -v "$d/t.warc.gz" $F -f warc "$d/a.ix" "$d/t.fpb"
	eq "$output" "$(sh-index add -u -v "$d/t.warc.gz" $F -f warc \
	    "$d/old.ix" "$d/t.fpb")"
	run -0 sh-index add -u -v "$d/t.warc.gz" $F -f warc "$d/a.ix" "$d/t.fpb"
	eq "$output" ""
}

@test "locations: a .warc.gz kept with its places is decoded once, its member map made as it is read; read at those places, the pairs of the file given whole" {
	local d="$BATS_TEST_TMPDIR" f="$BATS_FILE_TMPDIR" real
	real=$(command -v gzip)
	mkdir "$d/bin"
	printf '#!/bin/sh\necho run >>"%s/runs"\nexec "%s" "$@"\n' "$d" \
	    "$real" >"$d/bin/gzip"
	chmod +x "$d/bin/gzip"
	PATH="$d/bin:$PATH" sh-index build -a 0.8 -v "$f/a3.tsv.gz" $F \
	    "$d/ix" "$f/a3.tsv.gz.fpb"
	eq "$(wc -l <"$d/runs")" 1
	# Read at those places, the night's pairs are those of the file
	# given whole.
	sh-index build -a 0.8 "$d/ix0" "$f/a3.tsv.gz.fpb"
	run -0 sh-near -i "$d/ix" -v "$f/night" $F -a 0.8 "$f/night.fpb"
	[ -n "$output" ]
	eq "$(cut -f 1-4 <<<"$output")" "$(sh-near -i "$d/ix0" -v "$f/night" \
	    -v "$f/a3.tsv.gz" $F -a 0.8 "$f/night.fpb")"
}
