#!/usr/bin/env bats
# sh-near -Z: the removed records carry the ID of the copy that stays,
# and -Z all:FILE writes every record, each with the ID of the copy that
# stays and its fate (kept, removed): a WARC header, a JSON member, TAB
# columns.  The kept file stays the input byte for byte; the annotation
# agrees with the kept and removed files of -Z.

load helper

F='-w 3 -W binary'

# The input's lines with the notes that -g's output $2 gives them: the
# ID of the copy that stays (REP), and with "all" its fate; lines of
# IDs -g does not name as they are.  $3: "removed" (the removed lines
# only) or "all".
noted_lines() {
	awk -F '\t' -v what="$3" 'NR == FNR { rep[$2] = $1; next }
	    !($1 in rep) { if (what == "all") print; next }
	    what == "removed" && rep[$1] != $1 { print $0 "\t" rep[$1] }
	    what == "all" { f = rep[$1] == $1 ? "kept" : "removed"
		print $0 "\t" rep[$1] "\t" f }' "$2" "$1"
}

# The records of WARC file $1, each on one line, CR LF shown as "|".
warc_lines() {
	{ tr '\r\n' '~|' <"$1"; echo; } | sed 's/WARC\/1\.0~|/\nWARC\/1.0~|/g' |
	    sed '/^$/d'
}

# A WARC record: TYPE URI ID CONCURRENT BODY.
warc() {
	local h="" n t=request
	[ -z "$4" ] || h="WARC-Concurrent-To: <urn:uuid:$4>"$'\r\n'
	[ "$1" != response ] || t=response
	n=$(printf '%s' "$5" | wc -c)
	printf 'WARC/1.0\r\nWARC-Type: %s\r\nWARC-Target-URI: <%s>\r\nWARC-Date: %s\r\nWARC-Record-ID: <urn:uuid:%s>\r\n%sContent-Type: application/http; msgtype=%s\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n' \
	    "$1" "$2" "${DATE:-2026-01-01T00:00:00Z}" "$3" "$h" "$t" "$n" "$5"
}

@test "-Z kept -Z removed, ID<TAB>TEXT: each removed line with the ID of the copy that stays as a last column; the kept file the input's lines; a CRLF and a last line without its end" {
	local d="$BATS_TEST_TMPDIR"
	near_copies "$d/docs" 30 5
	sh-fp $F "$d/docs" >"$d/fp"
	sh-near -g -v "$d/docs" $F -a 0.8 -k 16 -Z "$d/kept" -Z "$d/gone" "$d/fp" >"$d/g"
	awk -F '\t' '$1 != $2' "$d/g" | grep -q .
	noted_lines "$d/docs" "$d/g" removed >"$d/want"
	same_files "$d/want" "$d/gone"
	awk -F '\t' 'NR == FNR { if ($1 != $2) gone[$2] = 1; next }
	    !($1 in gone)' "$d/g" "$d/docs" | same_files - "$d/kept"
	# -j 1 and -S: the same bytes.
	sh-near -g -j 1 -S 1M -v "$d/docs" $F -a 0.8 -k 16 -Z "$d/k2" -Z "$d/g2" "$d/fp" >/dev/null
	same_files "$d/kept" "$d/k2"
	same_files "$d/gone" "$d/g2"
	# The column goes before a CR LF, and at the end of a last line
	# without its end, which the file of the next bytes gets.
	printf 'a\tone two three four five\r\nb\tone two three four five' >"$d/x"
	printf 'c\tone two three four five\n' >"$d/y"
	sh-fp -w 1 "$d/x" "$d/y" >"$d/fp"
	run -0 sh-near -g -v "$d/x" -v "$d/y" -w 1 -a 0.9 -k 16 -Z "$d/k" -Z "$d/r" "$d/fp"
	printf 'a\tone two three four five\r\n' | same_files - "$d/k"
	printf 'b\tone two three four five\ta\nc\tone two three four five\ta\n' | same_files - "$d/r"
}

@test "-Z all: every line, in input order, with the ID of the copy that stays and kept or removed; with -u the same; it agrees with -Z kept -Z removed" {
	local d="$BATS_TEST_TMPDIR" o
	near_copies "$d/docs" 30 7
	sh-fp $F "$d/docs" >"$d/fp"
	run -0 sh-near -g -v "$d/docs" $F -a 0.8 -k 16 -Z all:"$d/all" "$d/fp"
	printf '%s\n' "$output" >"$d/g"
	noted_lines "$d/docs" "$d/g" all >"$d/want"
	same_files "$d/want" "$d/all"
	grep -q '	removed$' "$d/all"
	for o in "-g -j 1" "-g -S 1M" "-u"; do
		sh-near $o -v "$d/docs" $F -a 0.8 -k 16 -Z all:"$d/a2" "$d/fp" >/dev/null
		same_files "$d/all" "$d/a2"
	done
	# The kept lines without their columns are the kept file; the
	# removed ones without their fate, the removed file.
	sh-near -g -v "$d/docs" $F -a 0.8 -k 16 -Z "$d/k" -Z "$d/r" "$d/fp" >/dev/null
	awk -F '\t' '$NF == "kept"' "$d/all" | sed 's/\t[^\t]*\tkept$//' | same_files "$d/k" -
	awk -F '\t' '$NF == "removed"' "$d/all" | sed 's/\tremoved$//' | same_files "$d/r" -
	# The same in JSON Lines.
	awk -F '\t' '{ printf "{\"id\":\"%s\",\"text\":\"%s\"}\n", $1, $2 }' "$d/docs" >"$d/j"
	sh-fp -f jsonl $F "$d/j" >"$d/fp"
	sh-near -g -v "$d/j" -f jsonl $F -a 0.8 -k 16 -Z all:"$d/all" "$d/fp" >"$d/g2"
	same_files "$d/g" "$d/g2"
	sh-near -g -v "$d/j" -f jsonl $F -a 0.8 -k 16 -Z "$d/k" -Z "$d/r" "$d/fp" >/dev/null
	cmp -s "$d/j" "$d/k" && false
	grep -c '"sh_near_fate":"removed"}$' "$d/all" | grep -qx "$(wc -l <"$d/r")"
	grep '"sh_near_fate":"kept"}$' "$d/all" | sed 's/,"sh_near_kept_copy":"[^"]*","sh_near_fate":"kept"}$/}/' |
	    same_files "$d/k" -
	grep '"sh_near_fate":"removed"}$' "$d/all" | sed 's/,"sh_near_fate":"removed"}$/}/' |
	    same_files "$d/r" -
}

@test "-Z all: JSON Lines, NUL records, paragraphs, numbered lines: the notes in each framing, exact; the rest of each record as it was" {
	local d="$BATS_TEST_TMPDIR"
	printf '{"id":"a","text":"the budget of the town for the year"}\n{"id":"b\\"1","text":"the budget of the town for the year", "n": 2 }\r\n{"text":"rain over the hills and far away","id":"c"}\n' >"$d/j"
	sh-fp -f jsonl -w 1 "$d/j" >"$d/fp"
	sh-near -g -v "$d/j" -f jsonl -w 1 -a 0.9 -k 16 -Z all:"$d/a" -Z "$d/k" "$d/fp" 2>"$d/err" && false
	eq "$(cat "$d/err")" "sh-near: -Z $d/k: -Z all: writes every record to one file, with no other -Z"
	sh-near -g -v "$d/j" -f jsonl -w 1 -a 0.9 -k 16 -Z all:"$d/a" "$d/fp" >/dev/null
	printf '%s\n' '{"id":"a","text":"the budget of the town for the year","sh_near_kept_copy":"a","sh_near_fate":"kept"}' \
	    '{"id":"b\"1","text":"the budget of the town for the year", "n": 2 ,"sh_near_kept_copy":"a","sh_near_fate":"removed"}'$'\r' \
	    '{"text":"rain over the hills and far away","id":"c","sh_near_kept_copy":"c","sh_near_fate":"kept"}' |
	    same_files - "$d/a"
	sh-near -g -v "$d/j" -f jsonl -w 1 -a 0.9 -k 16 -Z "$d/k" -Z "$d/r" "$d/fp" >/dev/null
	printf '%s\r\n' '{"id":"b\"1","text":"the budget of the town for the year", "n": 2 ,"sh_near_kept_copy":"a"}' |
	    same_files - "$d/r"
	# An ID with a TAB (escaped \t in what the tools print) is a JSON
	# string of that TAB; an empty object's member has no comma.
	printf '{"id":"x\\ty","text":"one two three four"}\n{"id":"z","text":"one two three four","m":{}}\n' >"$d/j2"
	sh-fp -f jsonl -w 1 "$d/j2" >"$d/fp"
	sh-near -g -v "$d/j2" -f jsonl -w 1 -a 0.9 -k 16 -Z all:"$d/a" "$d/fp" >/dev/null
	printf '%s\n' '{"id":"x\ty","text":"one two three four","sh_near_kept_copy":"x\u0009y","sh_near_fate":"kept"}' \
	    '{"id":"z","text":"one two three four","m":{},"sh_near_kept_copy":"x\u0009y","sh_near_fate":"removed"}' |
	    same_files - "$d/a"
	# NUL records: the columns before the NUL, after the text's lines.
	printf 'a\tone two\nthree four\0b\tone two\nthree four\0' >"$d/nul"
	sh-fp -f nul -w 1 "$d/nul" >"$d/fp"
	sh-near -g -v "$d/nul" -f nul -w 1 -a 0.9 -k 16 -Z all:"$d/a" "$d/fp" >/dev/null
	printf 'a\tone two\nthree four\ta\tkept\0b\tone two\nthree four\ta\tremoved\0' | same_files - "$d/a"
	# Paragraphs: at the end of the last line of text, the blank lines
	# after it kept.
	printf 'one two\nthree four  \n\n\none two\r\nthree four\r\n \nfive six seven\n' >"$d/para"
	sh-fp -f para -w 1 "$d/para" >"$d/fp"
	run -0 sh-near -g -v "$d/para" -f para -w 1 -a 0.9 -k 16 -Z all:"$d/a" "$d/fp"
	eq "$output" "$(printf '1\t1\n1\t5\n8\t8')"
	printf 'one two\nthree four  \t1\tkept\n\n\none two\r\nthree four\t1\tremoved\r\n \nfive six seven\t8\tkept\n' | same_files - "$d/a"
	# Numbered lines.
	printf 'one two three\none two three\n' >"$d/line"
	sh-fp -l -w 1 "$d/line" >"$d/fp"
	sh-near -g -v "$d/line" -l -w 1 -a 0.9 -k 16 -Z all:"$d/a" "$d/fp" >/dev/null
	printf 'one two three\t1\tkept\none two three\t1\tremoved\n' | same_files - "$d/a"
}

@test "-Z all: a WARC: the notes are header lines of the document and of the records that go with it; without them, the input; the removed records those of -Z removed" {
	local d="$BATS_TEST_TMPDIR"
	page='HTTP/1.1 200 OK'$'\r\n''Content-Type: text/html'$'\r\n\r\n''<p>the committee met on tuesday to discuss the budget for the coming year and agreed to spend more on schools</p>'
	other='HTTP/1.1 200 OK'$'\r\n''Content-Type: text/html'$'\r\n\r\n''<p>rain is expected over the weekend in the north with sun in the south and wind on the coast</p>'
	get='GET / HTTP/1.1'$'\r\n\r\n'
	{
		printf 'WARC/1.0\r\nWARC-Type: warcinfo\r\nWARC-Record-ID: <urn:uuid:i>\r\nContent-Length: 4\r\n\r\ninfo\r\n\r\n'
		warc request http://a/1 q1 "" "$get"
		warc response http://a/1 r1 q1 "$page"
		warc request http://b/1 q3 "" "$get"
		warc response http://b/1 r3 q3 "$page"
		warc response http://c/1 r4 "" "$page"
		warc metadata http://c/1 m4 r4 "via: b"
		warc response http://d/1 r5 "" "$other"
	} >"$d/crawl.warc"
	sh-fp -f warc "$d/crawl.warc" >"$d/fp"
	sh-near -g -v "$d/crawl.warc" -f warc -a 0.9 -k 16 -Z all:"$d/a" "$d/fp" >/dev/null
	# Each record's notes, by its WARC-Record-ID.
	warc_lines "$d/a" | awk '{ id = $0; sub(/.*WARC-Record-ID: <urn:uuid:/, "", id)
	    sub(/>.*/, "", id); s = $0
	    while (match(s, /Sh-Near-[A-Za-z-]*: [^~]*/)) {
		id = id " " substr(s, RSTART, RLENGTH)
		s = substr(s, RSTART + RLENGTH) }
	    print id }' >"$d/got"
	eq "$(cat "$d/got")" "i
q1 Sh-Near-Kept-Copy: http://a/1 Sh-Near-Fate: kept
r1 Sh-Near-Kept-Copy: http://a/1 Sh-Near-Fate: kept
q3 Sh-Near-Kept-Copy: http://a/1 Sh-Near-Fate: removed
r3 Sh-Near-Kept-Copy: http://a/1 Sh-Near-Fate: removed
r4 Sh-Near-Kept-Copy: http://a/1 Sh-Near-Fate: removed
m4 Sh-Near-Kept-Copy: http://a/1 Sh-Near-Fate: removed
r5 Sh-Near-Kept-Copy: http://d/1 Sh-Near-Fate: kept"
	grep -av '^Sh-Near-' "$d/a" | same_files "$d/crawl.warc" -
	# The records removed, without their fate, are those of -Z removed;
	# the kept ones without their notes, the kept file.
	sh-near -g -v "$d/crawl.warc" -f warc -a 0.9 -k 16 -Z "$d/k" -Z "$d/r" "$d/fp" >/dev/null
	warc_lines "$d/a" | grep -a 'Sh-Near-Fate: removed' | sed 's/Sh-Near-Fate: removed~|//' >"$d/want"
	warc_lines "$d/r" | same_files "$d/want" -
	warc_lines "$d/a" | grep -av 'Sh-Near-Fate: removed' | sed 's/Sh-Near-Kept-Copy: [^~]*~|Sh-Near-Fate: kept~|//' >"$d/want"
	warc_lines "$d/k" | same_files "$d/want" -
	# Read through gzip, within -S, on one thread: the same bytes.
	gzip -c "$d/crawl.warc" >"$d/crawl.warc.gz"
	sh-near -g -S 1M -j 1 -v "$d/crawl.warc.gz" -f warc -a 0.9 -k 16 -Z all:"$d/a2" "$d/fp" >/dev/null
	same_files "$d/a" "$d/a2"
	# The annotated WARC reads as the input: the same documents.
	sh-fp -f warc "$d/a" | cut -f 2 >"$d/ids"
	eq "$(cat "$d/ids")" "$(printf 'http://a/1\nhttp://b/1\nhttp://c/1\nhttp://d/1')"
}

@test "-Z with -F: the removed names with the kept one; all: every name, noted; all: not with -i, and the records removed against the index carry no note" {
	local d="$BATS_TEST_TMPDIR"
	mkdir "$d/dump"
	printf 'the budget of the town for the year\n' >"$d/dump/a"
	printf 'the budget of the town for the year\n' >"$d/dump/b"
	printf 'rain over the hills\n' >"$d/dump/c"
	(cd "$d/dump" && sh-fp -F -w 1 a b c) >"$d/fp"
	(cd "$d/dump" && sh-near -g -v . -F -w 1 -a 0.9 -k 16 -Z "$d/k" -Z "$d/r" "$d/fp") >/dev/null
	eq "$(cat "$d/k")" "$(printf 'a\nc')"
	eq "$(cat "$d/r")" "$(printf 'b\ta')"
	(cd "$d/dump" && sh-near -g -v . -F -w 1 -a 0.9 -k 16 -Z all:"$d/all" "$d/fp") >/dev/null
	eq "$(cat "$d/all")" "$(printf 'a\ta\tkept\nb\ta\tremoved\nc\tc\tkept')"
	# Against an index.
	printf 'x\tthe budget of the town for the year\n' >"$d/old"
	printf 'a\tthe budget of the town for the year\nb\train over the hills\nc\train over the hills\n' >"$d/new"
	sh-fp -w 1 "$d/old" | sh-index build "$d/ix"
	sh-fp -w 1 "$d/new" >"$d/fp"
	run -2 --separate-stderr sh-near -u -i "$d/ix" -v "$d/new" -v "$d/old" -w 1 -a 0.9 -k 16 -Z all:"$d/all" "$d/fp"
	eq "$stderr" "sh-near: -Z all:$d/all: not with -i: a copy that stays may be one of the index, which has no record"
	run -0 sh-near -u -i "$d/ix" -v "$d/new" -v "$d/old" -w 1 -a 0.9 -k 16 -Z "$d/k" -Z "$d/r" "$d/fp"
	eq "$(cut -f 2 <<<"$output")" "b"
	printf 'b\train over the hills\nx\tthe budget of the town for the year\n' | same_files - "$d/k"
	printf 'a\tthe budget of the town for the year\nc\train over the hills\tb\n' | same_files - "$d/r"
	run -2 --separate-stderr sh-near -g -v "$d/new" -w 1 -Z all: "$d/fp"
	eq "$stderr" "sh-near: -Z all:: no file after all:"
}
