#!/usr/bin/env bats
# sh-near -Z: the deduplicated dataset.  The records of the documents
# that stay go to the first file of -Z, byte for byte in their own
# framing, those removed to the second: the kept file is the input with
# the removed records cut out, and the removed file those records, in
# order, each with the ID of the copy that stays (tests/annot.bats); the
# same bytes whatever -j and -S, for -g and -u.

load helper

F='-w 3 -W binary'

# The IDs that -g removes (REP other than the ID), and those it keeps.
removed_ids() { awk -F '\t' '$1 != $2 { print $2 }' "$1"; }
# The removed records without the ID of the copy that stays (a last
# TAB column, or JSON member): the IDs here hold no letter but d and c.
unnoted() { sed 's/\t[0-9dc]*$//; s/,"sh_near_kept_copy":"[^"]*"}$/}/'; }
kept_ids() { awk -F '\t' '$1 == $2 { print $2 }' "$1"; }

@test "-Z, ID<TAB>TEXT: the kept lines and the removed ones, in input order, a bad line kept; the same with -u, -j 1 and -S" {
	local d="$BATS_TEST_TMPDIR"
	near_copies "$d/docs" 30 5
	# A line that is no record stays where it is.
	sed -i '7i not a record' "$d/docs"
	sh-fp $F "$d/docs" >"$d/fp" 2>/dev/null || true
	run -2 --separate-stderr sh-near -g -v "$d/docs" $F -a 0.8 -k 16 -Z "$d/kept" -Z "$d/gone" "$d/fp"
	eq "$stderr" "sh-near: $d/docs:7: missing TAB after ID"
	printf '%s\n' "$output" >"$d/g"
	removed_ids "$d/g" | grep -q .
	# The kept file: the input without the removed lines.
	awk -F '\t' 'NR == FNR { gone[$1] = 1; next } !($1 in gone)' \
	    <(removed_ids "$d/g") "$d/docs" >"$d/want"
	same_files "$d/want" "$d/kept"
	awk -F '\t' 'NR == FNR { if ($1 != $2) gone[$2] = $1; next }
	    ($1 in gone) { print $0 "\t" gone[$1] }' "$d/g" "$d/docs" >"$d/want"
	same_files "$d/want" "$d/gone"
	# Together, the input.
	unnoted <"$d/gone" | sort - "$d/kept" >"$d/both"
	sort "$d/docs" | same_files - "$d/both"
	for opt in "-j 1" "-S 1M" "-B"; do
		[ "$opt" != -B ] || sh-fp -B $F "$d/docs" >"$d/fp" 2>/dev/null || true
		sh-near -g $opt -v "$d/docs" $F -a 0.8 -k 16 -Z "$d/k2" -Z "$d/g2" "$d/fp" >/dev/null 2>&1 || true
		[ "$opt" = -B ] || same_files "$d/kept" "$d/k2"
		[ "$opt" = -B ] || same_files "$d/gone" "$d/g2"
	done
	# -u keeps the lines -g keeps; -Z once writes only those.
	sh-near -u -v "$d/docs" $F -a 0.8 -k 16 -Z "$d/k3" "$d/fp" >"$d/u" 2>/dev/null || true
	sh-near -g -v "$d/docs" $F -a 0.8 -k 16 "$d/fp" 2>/dev/null | kept_ids /dev/stdin >"$d/gk" || true
	cut -f 2 "$d/u" | same_files "$d/gk" -
	sh-near -g -v "$d/docs" $F -a 0.8 -k 16 -Z "$d/k4" "$d/fp" >/dev/null 2>&1 || true
	same_files "$d/k4" "$d/k3"
}

@test "-Z, the clean file fingerprinted again: no pair at the threshold; -Y longest keeps the longer copy's line" {
	local d="$BATS_TEST_TMPDIR"
	near_copies "$d/docs" 40 11
	sh-fp $F "$d/docs" >"$d/fp"
	sh-near -g -v "$d/docs" $F -a 0.7 -k 16 -Z "$d/kept" "$d/fp" >/dev/null
	[ "$(wc -l <"$d/kept")" -lt "$(wc -l <"$d/docs")" ]
	sh-fp $F "$d/kept" >"$d/fp2"
	run -1 sh-near -v "$d/kept" $F -a 0.7 -k 16 "$d/fp2"
	eq "$output" ""
	printf 'a\tthe budget of the town for the year\nb\tthe budget of the town for the year and the schools too\n' >"$d/two"
	sh-fp -w 1 "$d/two" >"$d/fp3"
	run -0 sh-near -g -Y longest -v "$d/two" -w 1 -a 0.3 -k 16 -Z "$d/k" -Z "$d/r" "$d/fp3"
	eq "$(cat "$d/k")" "$(sed -n 2p "$d/two")"
	eq "$(cat "$d/r")" "$(sed -n 1p "$d/two")	b"
}

@test "-Z in every framing: JSON Lines, NUL records, paragraphs, lines; byte for byte, a last record without its end given one between files" {
	local d="$BATS_TEST_TMPDIR" f
	near_copies "$d/docs" 6 3
	# JSON Lines, a member after the text; NUL records with newlines.
	awk -F '\t' '{ printf "{\"id\":\"%s\",\"text\":\"%s\",\"n\":%d}\n", $1, $2, NR }' "$d/docs" >"$d/j"
	awk -F '\t' '{ gsub(/ w1 /, " w1\n", $2); printf "%s\t%s%c", $1, $2, 0 }' "$d/docs" >"$d/nul"
	cut -f 2 "$d/docs" | awk '{ print; print "" }' >"$d/para"
	cut -f 2 "$d/docs" >"$d/line"
	for f in "jsonl j" "nul nul" "para para" "line line"; do
		set -- $f
		sh-fp -f "$1" $F "$d/$2" >"$d/fp"
		sh-near -g -v "$d/$2" -f "$1" $F -a 0.8 -k 16 -Z "$d/k.$2" -Z "$d/r.$2" "$d/fp" >"$d/g.$2"
		removed_ids "$d/g.$2" | grep -q .
		# Together: the input's bytes, each record once.
		{ cat "$d/k.$2"; tr '\0' '\n' <"$d/r.$2" | unnoted; } | wc -c | grep -qx "$(wc -c <"$d/$2")"
		[ "$({ cat "$d/k.$2"; tr '\0' '\n' <"$d/r.$2" | unnoted; } | tr '\0' '\n' | sort | md5sum)" = \
		    "$(tr '\0' '\n' <"$d/$2" | sort | md5sum)" ]
		# The clean file has as many records as -g keeps.
		sh-fp -f "$1" $F "$d/k.$2" | wc -l | grep -qx "$(kept_ids "$d/g.$2" | wc -l)"
	done
	# JSON Lines: the removed records are those of the removed IDs.
	grep -o '"id":"[^"]*"' "$d/r.j" | cut -d '"' -f 4 >"$d/got"
	removed_ids "$d/g.j" | same_files - "$d/got"
	# Two files, the first's last line and paragraph without their
	# end: given one between them, so that no record runs into the next.
	printf 'x1\tone two three four five\nx2\tsix seven eight nine ten' >"$d/a"
	printf 'y1\tone two three four five\ny2\televen twelve thirteen\n' >"$d/b"
	sh-fp -w 1 "$d/a" "$d/b" >"$d/fp"
	sh-near -g -v "$d/a" -v "$d/b" -w 1 -a 0.9 -k 16 -Z "$d/k" -Z "$d/r" "$d/fp" >/dev/null
	printf 'x1\tone two three four five\nx2\tsix seven eight nine ten\ny2\televen twelve thirteen\n' |
	    same_files - "$d/k"
	printf 'y1\tone two three four five\tx1\n' | same_files - "$d/r"
	printf 'one two three\nfour five six' >"$d/p1"
	printf 'one two three\nfour five six\n\nseven eight nine\n' >"$d/p2"
	sh-fp -f para -w 1 "$d/p1" "$d/p2" >"$d/fp"
	sh-near -g -v "$d/p1" -v "$d/p2" -f para -w 1 -a 0.9 -k 16 -Z "$d/k" -Z "$d/r" "$d/fp" >/dev/null
	printf 'one two three\nfour five six\n\nseven eight nine\n' | same_files - "$d/k"
	printf 'one two three\nfour five six\t%s\n\n' "$d/p1:1" | same_files - "$d/r"
}

@test "-Z, a WARC: requests before their responses (wget) and after them (Heritrix) go with them; other records stay; compressed or not, the same bytes" {
	local d="$BATS_TEST_TMPDIR"
	warc() {	# TYPE URI ID CONCURRENT BODY
		local h="" n
		[ -z "$4" ] || h="WARC-Concurrent-To: <urn:uuid:$4>"$'\r\n'
		n=$(printf '%s' "$5" | wc -c)
		printf 'WARC/1.0\r\nWARC-Type: %s\r\nWARC-Target-URI: <%s>\r\nWARC-Record-ID: <urn:uuid:%s>\r\n%sContent-Type: %s\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n' \
		    "$1" "$2" "$3" "$h" "$( [ "$1" = response ] && echo 'application/http; msgtype=response' || echo 'application/http; msgtype=request')" "$n" "$5"
	}
	page='HTTP/1.1 200 OK'$'\r\n''Content-Type: text/html'$'\r\n\r\n''<p>the committee met on tuesday to discuss the budget for the coming year and agreed to spend more on schools</p>'
	other='HTTP/1.1 200 OK'$'\r\n''Content-Type: text/html'$'\r\n\r\n''<p>rain is expected over the weekend in the north with sun in the south and wind on the coast</p>'
	css='HTTP/1.1 200 OK'$'\r\n''Content-Type: text/css'$'\r\n\r\n''p { color: red }'
	get='GET / HTTP/1.1'$'\r\n\r\n'
	{
		printf 'WARC/1.0\r\nWARC-Type: warcinfo\r\nWARC-Record-ID: <urn:uuid:i>\r\nContent-Length: 4\r\n\r\ninfo\r\n\r\n'
		warc request http://a/1 q1 "" "$get"
		warc response http://a/1 r1 q1 "$page"
		warc request http://a/s q2 "" "$get"
		warc response http://a/s r2 q2 "$css"
		warc request http://b/1 q3 "" "$get"
		warc response http://b/1 r3 q3 "$page"
		# Heritrix: the response, then its request and metadata.
		warc response http://c/1 r4 "" "$page"
		warc request http://c/1 q4 r4 "$get"
		warc metadata http://c/1 m4 r4 "via: b"
		warc response http://d/1 r5 "" "$other"
	} >"$d/crawl.warc"
	sh-fp -f warc "$d/crawl.warc" >"$d/fp"
	run -0 sh-near -g -v "$d/crawl.warc" -f warc -a 0.9 -k 16 -Z "$d/k" -Z "$d/r" "$d/fp"
	eq "$output" "http://a/1	http://a/1
http://a/1	http://b/1
http://a/1	http://c/1
http://d/1	http://d/1"
	grep -a '^WARC-Record-ID' "$d/r" | tr -d '\r' >"$d/got"
	eq "$(cat "$d/got")" "WARC-Record-ID: <urn:uuid:q3>
WARC-Record-ID: <urn:uuid:r3>
WARC-Record-ID: <urn:uuid:r4>
WARC-Record-ID: <urn:uuid:q4>
WARC-Record-ID: <urn:uuid:m4>"
	grep -a '^WARC-Record-ID' "$d/k" | tr -d '\r' | cut -d : -f 4 | tr -d '>' | tr '\n' ' ' >"$d/got"
	eq "$(cat "$d/got")" "i q1 r1 q2 r2 r5 "
	cat "$d/k" "$d/r" | grep -av '^Sh-Near-Kept-Copy: ' | wc -c | grep -qx "$(wc -c <"$d/crawl.warc")"
	# Read through gzip: the same bytes.
	gzip -c "$d/crawl.warc" >"$d/crawl.warc.gz"
	sh-near -g -v "$d/crawl.warc.gz" -f warc -a 0.9 -k 16 -Z "$d/kz" -Z "$d/rz" "$d/fp" >/dev/null
	same_files "$d/k" "$d/kz"
	same_files "$d/r" "$d/rz"
	# The clean WARC has no pair left.
	sh-fp -f warc "$d/k" >"$d/fp2"
	run -1 sh-near -v "$d/k" -f warc -a 0.9 -k 16 "$d/fp2"
}

@test "-Z, a WARC: a record that no document takes stays where it was, before a later record of the document before it" {
	local d="$BATS_TEST_TMPDIR"
	rec() {	# TYPE ID CONCURRENT BODY
		local h="" n
		[ -z "$3" ] || h="WARC-Concurrent-To: <urn:uuid:$3>"$'\r\n'
		n=$(printf '%s' "$4" | wc -c)
		printf 'WARC/1.0\r\nWARC-Type: %s\r\nWARC-Target-URI: <http://x/%s>\r\nWARC-Record-ID: <urn:uuid:%s>\r\n%sContent-Type: application/http; msgtype=response\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n' \
		    "$1" "$2" "$2" "$h" "$n" "$4"
	}
	page='HTTP/1.1 200 OK'$'\r\n''Content-Type: text/html'$'\r\n\r\n''<p>the committee met on tuesday to discuss the budget for the coming year</p>'
	{
		rec response r1 "" "$page"
		rec resource u1 "" "just bytes"
		rec metadata m1 r1 "via: a"
	} >"$d/c.warc"
	sh-fp -f warc "$d/c.warc" >"$d/fp"
	sh-near -g -v "$d/c.warc" -f warc -a 0.9 -Z "$d/k" "$d/fp" >/dev/null
	same_files "$d/c.warc" "$d/k"
}

@test "-Z with -F: the names of the files that stay, and of those removed" {
	local d="$BATS_TEST_TMPDIR"
	mkdir "$d/dump"
	printf 'the budget of the town for the year\n' >"$d/dump/a"
	printf 'the budget of the town for the year\n' >"$d/dump/b"
	printf 'rain over the hills\n' >"$d/dump/c"
	(cd "$d/dump" && sh-fp -F -w 1 a b c) >"$d/fp"
	(cd "$d/dump" && sh-near -g -v . -F -w 1 -a 0.9 -k 16 -Z "$d/k" -Z "$d/r" "$d/fp") >/dev/null
	eq "$(cat "$d/k")" "$(printf 'a\nc')"
	eq "$(cat "$d/r")" "$(printf 'b\ta')"
}

@test "-Z: its errors" {
	local d="$BATS_TEST_TMPDIR"
	printf 'a\tone two\n' >"$d/docs"
	sh-fp -w 1 "$d/docs" >"$d/fp"
	run -2 --separate-stderr sh-near -Z "$d/k" -g "$d/fp"
	eq "$stderr" "sh-near: -Z: only with -v"
	run -2 --separate-stderr sh-near -v "$d/docs" -w 1 -Z "$d/k" "$d/fp"
	eq "$stderr" "sh-near: -Z: only with -g or -u"
	run -2 --separate-stderr sh-near -gg -v "$d/docs" -w 1 -Z "$d/k" "$d/fp"
	eq "$stderr" "sh-near: -Z: not with -gg: the copies that stay are those of -g"
	run -2 --separate-stderr sh-near -g -v - -w 1 -Z "$d/k" "$d/fp" <"$d/docs"
	eq "$stderr" "sh-near: -Z: -v -: standard input is read once, and its records cannot be read again to write them"
	run -2 --separate-stderr sh-near -g -v <(cat "$d/docs") -w 1 -Z "$d/k" "$d/fp"
	[[ $stderr == "sh-near: -Z: -v /dev/fd/"*": not a regular file: its records cannot be read again to write them" ]]
	run -2 --separate-stderr sh-near -g -v "$d/docs" -w 1 -Z "$d/docs" "$d/fp"
	eq "$stderr" "sh-near: -Z $d/docs: a file of -v"
	eq "$(cat "$d/docs")" "$(printf 'a\tone two')"
	run -2 --separate-stderr sh-near -g -v "$d/docs" -w 1 -Z "$d/k" -Z "$d/k" "$d/fp"
	eq "$stderr" "sh-near: -Z $d/k: the records that stay and those removed go to one file"
	run -2 --separate-stderr sh-near -g -v "$d/docs" -w 1 -Z "$d/k" -Z "$d/r" -Z "$d/s" "$d/fp"
	eq "$stderr" "sh-near: -Z $d/s: at most twice: the records that stay, then those removed"
	run -2 --separate-stderr sh-near -g -v "$d/docs" -w 1 -Z "$d/no/such" "$d/fp"
	eq "$stderr" "sh-near: $d/no/such: No such file or directory"
}
