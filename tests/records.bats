#!/usr/bin/env bats
# Record formats shared by sh-tokenize and sh-fp: -f nul, para, jsonl,
# warc, and -H.

load helper

# The rules are shown on the features of fingerprint version 1: single
# words, CJK bigrams, term frequency.
V1='-n 2 -w 1 -W tf'

setup() {
	D=$BATS_TEST_TMPDIR
}

# warc_record TYPE HEADERS BODY: one WARC record; HEADERS are extra
# "Name: value" lines separated by \n.
warc_record() {
	local len
	len=$(printf '%s' "$3" | wc -c)
	printf 'WARC/1.0\r\nWARC-Type: %s\r\n' "$1"
	[ -z "$2" ] || printf '%s\n' "$2" | sed 's/$/\r/'
	printf 'Content-Length: %d\r\n\r\n%s\r\n\r\n' "$len" "$3"
}

@test "jsonl: id and text members, escapes and surrogate pairs decoded" {
	printf '%s\n' '{"id":"a1","text":"caf\u00e9 \ud83d\ude00 \u4e2d\u6587 tab\there \"q\" \\ \/"}' \
	    '  {"text": "number id", "id": 42, "x": [1, {"y": null}], "z": -1.5e3}  ' >"$D/t.jsonl"
	run -0 --separate-stderr sh-tokenize $V1 -f jsonl "$D/t.jsonl"
	eq "$output" "$(printf 'a1\tcafé^1 中文^1 tab^1 here^1 q^1\n42\tnumber^1 id^1')"
	eq "$stderr" ""
}

@test "jsonl: nested fields by dotted path; the first of repeated members" {
	printf '%s\n' '{"meta":{"url":"http://x/1","id":"m1"},"body":{"text":"deep text"},"id":"top","id":"again"}' >"$D/t.jsonl"
	run -0 sh-tokenize $V1 -f jsonl -I meta.url -T body.text "$D/t.jsonl"
	eq "$output" "$(printf 'http://x/1\tdeep^1 text^1')"
	run -0 sh-tokenize $V1 -f jsonl -T body.text "$D/t.jsonl"
	eq "$output" "$(printf 'top\tdeep^1 text^1')"
}

@test "jsonl: bad records are errors with their line, or skipped with -e" {
	printf '%s\n' '{"id":"ok1","text":"fine"}' '{"id":"x","text":"open' \
	    '{"text":"no id"}' '{"id":"x","text":7}' '["id","text"]' \
	    '{"id":"x","text":"a"} trailing' '{"id":"ok2","text":"fine too"}' >"$D/t.jsonl"
	run -2 --separate-stderr sh-tokenize $V1 -f jsonl "$D/t.jsonl"
	eq "$output" "$(printf 'ok1\tfine^1\nok2\tfine^1 too^1')"
	eq "$stderr" "$(printf '%s\n' \
	    "sh-tokenize: $D/t.jsonl:2: malformed JSON" \
	    "sh-tokenize: $D/t.jsonl:3: no \"id\" field (-I names another)" \
	    "sh-tokenize: $D/t.jsonl:4: \"text\" field is not a string (-T names another)" \
	    "sh-tokenize: $D/t.jsonl:5: malformed JSON" \
	    "sh-tokenize: $D/t.jsonl:6: malformed JSON")"
	run -0 --separate-stderr sh-fp -f jsonl -e "$D/t.jsonl"
	eq "${#lines[@]}" 2
	eq "$stderr" "sh-fp: skipped 5 bad record(s)"
}

@test "jsonl: an ID or a text of another JSON type is said so, the record skipped" {
	printf '%s\n' '{"id":true,"text":"a b"}' '{"id":[1],"text":"a b"}' \
	    '{"id":"ok","text":{"x":1}}' '{"text":"no id"}' '{"id":"fine","text":"c d"}' >"$D/t.jsonl"
	run -2 --separate-stderr sh-tokenize $V1 -f jsonl "$D/t.jsonl"
	eq "$output" "$(printf 'fine\tc^1 d^1')"
	eq "$stderr" "$(printf '%s\n' \
	    "sh-tokenize: $D/t.jsonl:1: \"id\" field is neither a string nor a number (-I names another)" \
	    "sh-tokenize: $D/t.jsonl:2: \"id\" field is neither a string nor a number (-I names another)" \
	    "sh-tokenize: $D/t.jsonl:3: \"text\" field is not a string (-T names another)" \
	    "sh-tokenize: $D/t.jsonl:4: no \"id\" field (-I names another)")"
}

@test "jsonl: a missing or mistyped field is named, with the option that names it, by every tool" {
	printf '%s\n' '{"id":"a","text":"one"}' '{"meta":{"url":"u"},"body":{"text":"two"}}' \
	    '{"text":"x"}' '{"id":"b"}' '{"meta":{"url":true},"body":{"text":"x"}}' \
	    '{"meta":{"url":"v"},"body":"flat"}' >"$D/t.jsonl"
	run -2 --separate-stderr sh-fp -f jsonl "$D/t.jsonl"
	eq "$stderr" "$(printf '%s\n' \
	    "sh-fp: $D/t.jsonl:2: no \"id\" field (-I names another)" \
	    "sh-fp: $D/t.jsonl:3: no \"id\" field (-I names another)" \
	    "sh-fp: $D/t.jsonl:4: no \"text\" field (-T names another)" \
	    "sh-fp: $D/t.jsonl:5: no \"id\" field (-I names another)" \
	    "sh-fp: $D/t.jsonl:6: no \"id\" field (-I names another)")"
	run -2 --separate-stderr sh-tokenize -f jsonl -I meta.url -T body.text "$D/t.jsonl"
	eq "$output" "$(printf 'u\ttwo^1')"
	eq "$stderr" "$(printf '%s\n' \
	    "sh-tokenize: $D/t.jsonl:1: no \"meta.url\" field (-I meta.url)" \
	    "sh-tokenize: $D/t.jsonl:3: no \"meta.url\" field (-I meta.url)" \
	    "sh-tokenize: $D/t.jsonl:4: no \"meta.url\" field (-I meta.url)" \
	    "sh-tokenize: $D/t.jsonl:5: \"meta.url\" field is neither a string nor a number (-I meta.url)" \
	    "sh-tokenize: $D/t.jsonl:6: no \"body.text\" field (-T body.text)")"
	run -2 --separate-stderr sh-fp -f jsonl -T body "$D/t.jsonl"
	eq "${stderr_lines[0]}" "sh-fp: $D/t.jsonl:1: no \"body\" field (-T body)"
	# Looking the documents up (-v, -x): the same words.
	printf 'a\ta\n' >"$D/pairs"
	run -2 --separate-stderr sh-dist -v "$D/t.jsonl" -f jsonl -T txt "$D/pairs"
	eq "${stderr_lines[0]}" "sh-dist: $D/t.jsonl:1: no \"txt\" field (-T txt)"
	run -2 --separate-stderr sh-near -v "$D/t.jsonl" -f jsonl -I url /dev/null
	eq "${stderr_lines[0]}" "sh-near: $D/t.jsonl:1: no \"url\" field (-I url)"
	run -2 --separate-stderr sh-dist -x -f jsonl -I meta.url "$D/t.jsonl" "$D/t.jsonl"
	eq "$stderr" "sh-dist: $D/t.jsonl:1: no \"meta.url\" field (-I meta.url)"
	# With -e, counted as before.
	run -0 --separate-stderr sh-fp -e -f jsonl -I meta.url -T body.text "$D/t.jsonl"
	eq "${output#*	}" u
	eq "$stderr" "sh-fp: skipped 5 bad record(s)"
}

@test "jsonl: deep nesting and binary bytes do not crash" {
	awk 'BEGIN { s = ""; for (i = 0; i < 100000; i++) s = s "["
		print "{\"id\":\"d\",\"text\":\"x\",\"n\":" s }' >"$D/deep.jsonl"
	head -c 20000 /dev/urandom >>"$D/deep.jsonl"
	printf '\n{"id":"last","text":"ok"}\n' >>"$D/deep.jsonl"
	run -2 --separate-stderr sh-tokenize -f jsonl "$D/deep.jsonl"
	eq "${lines[${#lines[@]}-1]}" "$(printf 'last\tok^1')"
	[[ "${stderr_lines[0]}" == "sh-tokenize: $D/deep.jsonl:1: malformed JSON" ]]
}

@test "jsonl gives the fingerprints of the same documents as TSV" {
	gen_corpus "$D/c.tsv" 500
	awk -F '\t' '{ t = $2; gsub(/\\/, "\\\\", t); gsub(/"/, "\\\"", t)
	    printf "{\"id\":\"%s\",\"text\":\"%s\"}\n", $1, t }' "$D/c.tsv" >"$D/c.jsonl"
	sh-fp "$D/c.tsv" >"$D/want" 2>/dev/null
	sh-fp -f jsonl "$D/c.jsonl" >"$D/got" 2>/dev/null
	[ -s "$D/want" ]
	same_files "$D/want" "$D/got"
}

@test "nul: ID<TAB>TEXT records whose text holds newlines" {
	printf 'a\tline one\nline two\0b\tthird\0c\tlast without NUL' >"$D/t.nul"
	run -0 sh-tokenize $V1 -f nul "$D/t.nul"
	eq "$output" "$(printf 'a\tline^2 one^1 two^1\nb\tthird^1\nc\tlast^1 without^1 nul^1')"
}

@test "para: blank-line separated paragraphs, ID the first line" {
	printf 'one a\none b\n\n \t\ntwo\n\n\nthree\n' >"$D/p.txt"
	cp "$D/p.txt" "$D/q.txt"
	run -0 sh-tokenize $V1 -f para "$D/p.txt"
	eq "$output" "$(printf '1\tone^2 a^1 b^1\n5\ttwo^1\n8\tthree^1')"
	run -0 sh-tokenize $V1 -f para "$D/p.txt" "$D/q.txt"
	eq "${lines[3]}" "$(printf '%s\tone^2 a^1 b^1' "$D/q.txt:1")"
}

@test "warc: conversion and response records, HTTP head dropped, -H" {
	{
		warc_record warcinfo '' 'software: test'
		warc_record request 'WARC-Target-URI: http://a/' 'GET / HTTP/1.1'
		warc_record response $'WARC-Target-URI: http://a/\nWARC-Record-ID: <urn:uuid:1>' \
		    $'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<html><style>p{}</style><p>Caf&eacute; &amp; b&#228;r</p><!-- note --></html>'
		warc_record conversion 'WARC-Target-URI: http://b/' $'plain text\nof a page'
	} >"$D/t.warc"
	run -0 --separate-stderr sh-tokenize $V1 -f warc -H "$D/t.warc"
	eq "$output" "$(printf 'http://a/\tcafé^1 bär^1\nhttp://b/\tplain^1 text^1 of^1 a^1 page^1')"
	run -0 sh-tokenize $V1 -f warc -H -I WARC-Record-ID -y response "$D/t.warc"
	eq "$output" "$(printf 'urn:uuid:1\tcafé^1 bär^1')"
	run -0 sh-tokenize $V1 -f warc -y request "$D/t.warc"
	eq "$output" "$(printf 'http://a/\tget^1 http^1 1^2')"
	run -0 sh-tokenize $V1 -f warc -y conversion "$D/t.warc"
	eq "$output" "$(printf 'http://b/\tplain^1 text^1 of^1 a^1 page^1')"
}

@test "warc: only pages by default; style sheets, scripts, data and feeds skipped and counted, kept when -M names them" {
	local t
	{
		for t in text/html 'text/plain; charset=utf-8' \
		    application/xhtml+xml TEXT/HTML text/css \
		    application/javascript 'text/javascript; charset=utf-8' \
		    application/json application/rss+xml text/xml; do
			warc_record response "WARC-Target-URI: http://x/${t%%;*}" \
			    "$(printf 'HTTP/1.1 200 OK\r\nContent-Type: %s\r\n\r\nbody' "$t")"
		done
	} >"$D/t.warc"
	run -0 --separate-stderr sh-fp -f warc "$D/t.warc"
	eq "$(printf '%s\n' "$output" | cut -f 2)" "http://x/text/html
http://x/text/plain
http://x/application/xhtml+xml
http://x/TEXT/HTML"
	eq "$stderr" "sh-fp: skipped 6 WARC response(s) of a media type not kept (-M)"
	run -0 --separate-stderr sh-tokenize $V1 -f warc "$D/t.warc"
	eq "${#lines[@]}" 4
	eq "$stderr" "sh-tokenize: skipped 6 WARC response(s) of a media type not kept (-M)"
	# Named, they are documents: all of them, or a few.
	run -0 --separate-stderr sh-fp -f warc -M 'text/*,application/*' "$D/t.warc"
	eq "${#lines[@]}" 10
	eq "$stderr" ""
	run -0 --separate-stderr sh-tokenize $V1 -f warc -M 'text/css,application/*script,text/javascript,application/json,application/rss+xml,text/xml' "$D/t.warc"
	eq "$(printf '%s\n' "$output" | cut -f 1)" "http://x/text/css
http://x/application/javascript
http://x/text/javascript
http://x/application/json
http://x/application/rss+xml
http://x/text/xml"
	eq "$stderr" "sh-tokenize: skipped 4 WARC response(s) of a media type not kept (-M)"
	# The fingerprint of a page kept is the same either way.
	eq "$(sh-fp -f warc "$D/t.warc" 2>/dev/null | head -n 1)" \
	    "$(sh-fp -f warc -M '*' "$D/t.warc" | head -n 1)"
}

@test "warc: missing ID is skipped; broken framing stops the stream" {
	{
		warc_record conversion '' 'no uri here'
		warc_record conversion 'WARC-Target-URI: http://ok/' 'fine'
	} >"$D/t.warc"
	run -2 --separate-stderr sh-tokenize -f warc "$D/t.warc"
	eq "$output" "$(printf 'http://ok/\tfine^1')"
	eq "$stderr" "sh-tokenize: $D/t.warc:1: no WARC-Target-URI header (-I names another)"
	head -c 150 "$D/t.warc" >"$D/cut.warc"
	run -2 --separate-stderr sh-tokenize -f warc "$D/cut.warc"
	eq "$stderr" "$(printf '%s\n' "sh-tokenize: $D/cut.warc:1: no WARC-Target-URI header (-I names another)" \
	    "sh-tokenize: $D/cut.warc:7: malformed WARC record")"
	printf 'WARC/1.0\r\nWARC-Type: conversion\r\n\r\nbody\r\n' >"$D/nolen.warc"
	run -2 --separate-stderr sh-fp -f warc "$D/nolen.warc"
	eq "$stderr" "sh-fp: $D/nolen.warc:1: malformed WARC record"
	printf 'not a warc file\n' | run -2 --separate-stderr sh-fp -f warc
}

@test "warc: a record with two Content-Length headers is a bad record, skipped by the last, of any type" {
	{
		warc_record conversion 'WARC-Target-URI: http://a/' 'first page'
		# The first length is not the block's: the last frames it.
		warc_record conversion $'WARC-Target-URI: http://two/\nContent-Length: 3' 'two lengths'
		warc_record conversion 'WARC-Target-URI: http://b/' 'last page'
		# Of a type not read, and both lengths alike: bad all the same.
		warc_record request $'Content-Length: 11' 'GET / HTTP'
		warc_record conversion 'WARC-Target-URI: http://c/' 'after it'
	} >"$D/t.warc"
	run -2 --separate-stderr sh-tokenize -f warc "$D/t.warc"
	eq "$output" "$(printf 'http://a/\tfirst_page^1\nhttp://b/\tlast_page^1\nhttp://c/\tafter_it^1')"
	eq "$stderr" "$(printf '%s\n' "sh-tokenize: $D/t.warc:8: WARC record with two Content-Length headers" \
	    "sh-tokenize: $D/t.warc:23: WARC record with two Content-Length headers")"
	run -0 --separate-stderr sh-tokenize -e -f warc "$D/t.warc"
	eq "$output" "$(printf 'http://a/\tfirst_page^1\nhttp://b/\tlast_page^1\nhttp://c/\tafter_it^1')"
	eq "$stderr" "sh-tokenize: skipped 2 bad record(s)"
	sh-fp -e -f warc "$D/t.warc" >"$D/t.fp" 2>/dev/null
	[ "$(wc -l <"$D/t.fp")" -eq 3 ]
	run -2 --separate-stderr sh-fp -f warc "$D/t.warc"
	eq "$output" "$(cat "$D/t.fp")"
	eq "${stderr_lines[0]}" "sh-fp: $D/t.warc:8: WARC record with two Content-Length headers"
	# The documents of -v read it alike.
	run -2 --separate-stderr sh-near -v "$D/t.warc" -f warc "$D/t.fp"
	eq "${stderr_lines[0]}" "sh-near: $D/t.warc:8: WARC record with two Content-Length headers"
	# The last length wrong: the next record is not found.
	{
		warc_record conversion $'WARC-Target-URI: http://two/\nContent-Length: 3' 'two lengths' |
		    sed 's/^Content-Length: 11/Content-Length: 4/'
		warc_record conversion 'WARC-Target-URI: http://b/' 'last page'
	} >"$D/bad.warc"
	run -2 --separate-stderr sh-tokenize -f warc "$D/bad.warc"
	eq "$output" ""
	eq "$stderr" "$(printf '%s\n' "sh-tokenize: $D/bad.warc:1: WARC record with two Content-Length headers" \
	    "sh-tokenize: $D/bad.warc:7: malformed WARC record")"
}

@test "warc: a response without an HTTP head, a status of four digits, another WARC version" {
	{
		warc_record response 'WARC-Target-URI: http://nohead/' \
		    $'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nSet-Cookie: secret'
		warc_record response 'WARC-Target-URI: http://2000/' \
		    $'HTTP/1.1 2000 OK\r\nContent-Type: text/plain\r\n\r\nfour digits'
		warc_record response 'WARC-Target-URI: http://ok/' \
		    $'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nfine'
	} >"$D/t.warc"
	# The head is no text: a bad record, reported, and the others read.
	run -2 --separate-stderr sh-tokenize -f warc "$D/t.warc"
	eq "$output" "$(printf 'http://ok/\tfine^1')"
	eq "$stderr" "$(printf '%s\n' "sh-tokenize: $D/t.warc:1: WARC response without an HTTP head (no blank line ends it)" \
	    "sh-tokenize: skipped 1 WARC response(s) of an HTTP status other than 2xx (-A keeps them)")"
	run -0 --separate-stderr sh-tokenize -e -f warc "$D/t.warc"
	eq "$output" "$(printf 'http://ok/\tfine^1')"
	# -A keeps any status, four digits too; without it, "2000" was no 200.
	run -2 --separate-stderr sh-tokenize $V1 -A -f warc "$D/t.warc"
	eq "$output" "$(printf 'http://2000/\tfour^1 digits^1\nhttp://ok/\tfine^1')"
	# WARC/1.1 is read; WARC/9.9 is not.
	sed 's|^WARC/1.0|WARC/1.1|' "$D/t.warc" >"$D/11.warc"
	run -2 --separate-stderr sh-tokenize -f warc "$D/11.warc"
	eq "$output" "$(printf 'http://ok/\tfine^1')"
	sed '1s|^WARC/1.0|WARC/9.9|' "$D/t.warc" >"$D/99.warc"
	run -2 --separate-stderr sh-fp -f warc "$D/99.warc"
	eq "$output" ""
	eq "$stderr" "sh-fp: $D/99.warc:1: WARC version not read (WARC/1.0 and WARC/1.1 are)"
}

@test "-H in any format: tags out, entities decoded" {
	run -0 sh-tokenize $V1 -H <<<$'id\t<b>caf&eacute;</b>&nbsp;x &unknown; 1&lt;2 <script>hidden</script>&#x4e2d;&#25991;'
	eq "$output" "$(printf 'id\tcafé^1 x^1 unknown^1 1^1 2^1 中文^1')"
}

@test "HTML by default where the record says so or starts as HTML, and only there; -X never" {
	# Starts as HTML (the WHATWG sniff): reduced; markup later in the
	# text is kept, as are tags a sniff does not take.
	run -0 sh-tokenize $V1 <<<$'a\t  <!DOCTYPE html><p>caf&eacute; <b>x</b></p>\nb\tthe <b> tag&amp;\nc\t<P>one\nd\t<pre>two</pre>\ne\t<!-- c --> three'
	eq "$output" "$(printf 'a\tcafé^1 x^1\nb\tthe^1 b^1 tag^1 amp^1\nc\tone^1\nd\tpre^2 two^1\ne\tthree^1')"
	run -0 sh-tokenize $V1 -X <<<$'a\t<p>x</p>'
	eq "$output" "$(printf 'a\tp^2 x^1')"
	# -F: a name ending in .html says HTML; other names, the sniff.
	printf 'x <b>y</b>\n' >"$D/page.HTM"
	printf 'x <b>y</b>\n' >"$D/page.txt"
	printf '<p>x <b>y</b></p>\n' >"$D/frag"
	printf '#include <stdio.h>\n' >"$D/prog.c"
	run -0 sh-tokenize $V1 -F "$D/page.HTM" "$D/page.txt" "$D/frag" "$D/prog.c"
	eq "$output" "$(printf '%s\tx^1 y^1\n%s\tx^1 b^2 y^1\n%s\tx^1 y^1\n%s\tinclude^1 stdio^1 h^1' "$D/page.HTM" "$D/page.txt" "$D/frag" "$D/prog.c")"
}

@test "-F: binary files (a NUL byte, a magic number, control bytes) are skipped and counted, as in a WARC" {
	printf '\177ELF some words after the magic\n' >"$D/elf"
	printf 'words\0and a NUL\n' >"$D/nul"
	printf 'a\001\002\003\004b\n' >"$D/ctl"
	printf 'plain words \033[1mbold\033[0m here\n' >"$D/ansi"
	run -0 --separate-stderr sh-fp -F "$D/elf" "$D/nul" "$D/ctl" "$D/ansi"
	eq "$(cut -f 2 <<<"$output")" "$D/ansi"
	eq "$stderr" "sh-fp: skipped 3 binary document(s): a NUL byte, the magic number of a binary format, or control bytes"
	# An empty file is text, of no features.
	run -0 --separate-stderr sh-fp -F /dev/null
	eq "$stderr" "sh-fp: skipped 1 document(s) without features"
}

@test "-H: a reference past U+10FFFF is U+FFFD, not wrapped; markup is matched by its letters only" {
	# 4294967361 wraps to 65 ("A") in 32 bits; a CR is not "-".
	run -0 sh-tokenize $V1 -H <<<$'id\tx&#4294967361;y &#x110041;z keep <!-- a -\r> hidden --> shown'
	eq "$output" "$(printf 'id\tx^1 y^1 z^1 keep^1 shown^1')"
}

@test "an unknown format is a usage error" {
	run -2 --separate-stderr sh-fp -f csv /dev/null
	eq "$stderr" "sh-fp: -f csv: invalid value"
}

@test "warc: the angle brackets of WARC/1.0 IDs are not part of the ID" {
	{
		warc_record conversion $'WARC-Target-URI: <http://a/>\nWARC-Record-ID: <urn:uuid:2>\nX-Id: <kept>' 'one'
		warc_record conversion $'WARC-Target-URI: <http://b/\nWARC-Record-ID: urn:uuid:3' 'two'
	} >"$D/t.warc"
	run -0 sh-tokenize -f warc "$D/t.warc"
	eq "$output" "$(printf 'http://a/\tone^1\n<http://b/\ttwo^1')"
	run -0 sh-tokenize -f warc -I warc-record-id "$D/t.warc"
	eq "$output" "$(printf 'urn:uuid:2\tone^1\nurn:uuid:3\ttwo^1')"
	run -2 --separate-stderr sh-tokenize -f warc -I X-Id "$D/t.warc"
	eq "$output" "$(printf '<kept>\tone^1')"
	eq "$stderr" "sh-tokenize: $D/t.warc:10: no X-Id header (-I X-Id)"
}

@test "-C: text in another charset made UTF-8; a bad name refused" {
	printf 'a\t%s\nb\t%s\n' "$(printf '今天天气很好' | iconv -f UTF-8 -t GBK)" \
	    "$(printf '今天天气很好' | iconv -f UTF-8 -t GBK)" >"$D/gbk.tsv"
	run -0 --separate-stderr sh-tokenize $V1 -C GBK "$D/gbk.tsv"
	eq "$output" "$(printf 'a\t今天^1 天天^1 天气^1 气很^1 很好^1\nb\t今天^1 天天^1 天气^1 气很^1 很好^1')"
	eq "$stderr" ""
	# Undeclared, the charset is found; -C UTF-8 says there is none.
	run -0 --separate-stderr sh-tokenize $V1 "$D/gbk.tsv"
	eq "$output" "$(printf 'a\t今天^1 天天^1 天气^1 气很^1 很好^1\nb\t今天^1 天天^1 天气^1 气很^1 很好^1')"
	run -0 --separate-stderr sh-fp -C UTF-8 "$D/gbk.tsv"
	eq "$stderr" "sh-fp: 2 document(s) with invalid UTF-8, the first \"a\" (-C names a charset; -U lists them)"
	printf '<meta charset="big5"><p>%s</p>\n' "$(printf '繁體' | iconv -f UTF-8 -t BIG5)" >"$D/b5.html"
	run -0 sh-tokenize $V1 -F -H -C GBK "$D/b5.html"
	eq "$output" "$(printf '%s\t繁體^1' "$D/b5.html")"
	run -2 --separate-stderr sh-fp -C no-such-charset "$D/gbk.tsv"
	eq "$stderr" "sh-fp: -C no-such-charset: invalid value"
}

@test "a charset undeclared is found from the bytes: GBK, Big5, Shift_JIS, EUC-KR, windows-1251, windows-1252" {
	local enc f
	# Simplified and traditional Chinese of zdump(8), and sentences.
	cut -f 2 "$FIXTURES/zdump-zh.tsv" | head -n 1 | cut -c 1-900 >"$D/zh"
	cut -f 2 "$FIXTURES/zdump-zh.tsv" | tail -n 1 | cut -c 1-900 >"$D/tw"
	printf '日本語の文章です。東京は日本の首都で、多くの人が住んでいます。今日はとてもいい天気ですね。\n' >"$D/ja"
	printf '대한민국의 수도는 서울이며 많은 사람들이 살고 있습니다. 오늘은 날씨가 정말 좋습니다.\n' >"$D/ko"
	printf 'Москва является столицей России и крупнейшим городом страны; в ней живут миллионы людей.\n' >"$D/ru"
	printf 'Le café de la gare était fermé ; à côté, un hôtel très élégant où l’on mange bien.\n' >"$D/fr"
	for f in zh:GBK zh:GB18030 tw:BIG5 ja:SHIFT_JIS ko:EUC-KR ru:WINDOWS-1251 fr:WINDOWS-1252; do
		enc=${f#*:}
		f=${f%%:*}
		# What the charset holds of the text, and that in UTF-8.
		{ printf 'x\t'; iconv -c -f UTF-8 -t "$enc" "$D/$f"; } >"$D/$f.$enc"
		iconv -f "$enc" -t UTF-8 "$D/$f.$enc" >"$D/$f.tsv"
		run -0 --separate-stderr sh-tokenize $V1 "$D/$f.$enc"
		eq "$output" "$(sh-tokenize $V1 "$D/$f.tsv")"
		eq "$stderr" ""
		eq "$(sh-fp "$D/$f.$enc")" "$(sh-fp "$D/$f.tsv")"
	done
	# UTF-8 with a stray byte stays UTF-8, the byte counted as invalid.
	printf 'x\t今天天气很好，\377我们去公园散步吧。\n' >"$D/stray"
	run -0 --separate-stderr sh-tokenize $V1 "$D/stray"
	eq "$output" "$(printf 'x\t今天^1 天天^1 天气^1 气很^1 很好^1 我们^1 们去^1 去公^1 公园^1 园散^1 散步^1 步吧^1')"
	eq "$stderr" "sh-tokenize: 1 document(s) with invalid UTF-8, the first \"x\" (-C names a charset; -U lists them)"
	# -C forces a charset: none is guessed.
	run -0 --separate-stderr sh-tokenize $V1 -C BIG5 "$D/zh.GBK"
	[ "$output" != "$(sh-tokenize $V1 "$D/zh.tsv")" ]
}

@test "warc: a Content-Length past the end of the input is an error, not a huge allocation" {
	# 10 TB announced, 3 bytes given (found by fuzz/record.c): asking
	# for the 10 TB first gave "out of memory" (or an abort under
	# AddressSanitizer).
	run -2 --separate-stderr sh -c 'printf "WARC/1.0\nWARC-Type: conversion\nWARC-Target-URI: <x>\nContent-Length: 10995116277776\n\nxyz" |
	    sh-fp -f warc'
	eq "$output" ""
	eq "$stderr" "sh-fp: <stdin>:1: malformed WARC record"
}

@test "warc: a Content-Length holding a NUL byte is malformed" {
	# "3<NUL>" read as the string "3" accepted 3 bytes of body.
	run -2 --separate-stderr sh -c 'printf "WARC/1.0\nWARC-Type: conversion\nWARC-Target-URI: <x>\nContent-Length: 3\0000\n\nxyz\n\n" |
	    sh-fp -f warc'
	eq "$output" ""
	eq "$stderr" "sh-fp: <stdin>:1: malformed WARC record"
	run -0 sh -c 'printf "WARC/1.0\nWARC-Type: conversion\nWARC-Target-URI: <x>\nContent-Length: 3\n\nxyz\n\n" |
	    sh-fp -f warc'
	eq "${output#*	}" "x"
}
