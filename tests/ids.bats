#!/usr/bin/env bats
# One rule for IDs in every format: a TAB, LF, CR or backslash of an ID
# comes out as \t, \n, \r or \\, another control byte as \xHH, and that
# form reads back as itself through every tool.

load helper

# The rules are shown on the features of fingerprint version 1: single
# words, CJK bigrams, term frequency.
V1='-n 2 -w 1 -W tf'

setup() {
	D=$BATS_TEST_TMPDIR
	cd "$D" || return 1
	printf '%s\n' '{"id":"a\nb","text":"hello world"}' \
	    '{"id":"c\td","text":"hello world"}' \
	    '{"id":"e\\f","text":"hello world"}' \
	    '{"id":"g\rh","text":"hello world"}' \
	    '{"id":"plain","text":"other words here"}' >ids.jsonl
	FP=2640827c008e41a3
}

@test "ids: escaped on output, every format that can hold them" {
	run -0 --separate-stderr sh-fp $V1 -f jsonl ids.jsonl
	eq "$output" "$FP	a\\nb
$FP	c\\td
$FP	e\\\\f
$FP	g\\rh
$(sh-fp $V1 -f jsonl ids.jsonl | tail -n 1)"
	eq "$(sh-fp $V1 -f jsonl ids.jsonl | tail -n 1 | cut -f 2)" "plain"
	printf 'one\ttwo\0a\nb\\c\tx y\0' >nul.in
	run -0 sh-tokenize $V1 -f nul nul.in
	eq "$output" "one	two^1
a\\nb\\\\c	x^1 y^1"
	printf 'hello world\n' >"a	b\\c"
	run -0 sh-fp $V1 -F "a	b\\c"
	eq "$output" "$FP	a\\tb\\\\c"
	run -0 sh-fp $V1 -l "a	b\\c" ids.jsonl
	eq "${lines[0]}" "$FP	a\\tb\\\\c:1"
}

@test "ids: every other control byte is \\xHH, from JSON, WARC headers, file names and tab lines alike; sh-near -v finds them" {
	printf '%s\n' '{"id":"n\u0000e\u001bd\u007f","text":"hello world"}' \
	    '{"id":"\u0007bell","text":"hello world"}' >ctl.jsonl
	run -0 --separate-stderr sh-fp $V1 -f jsonl ctl.jsonl
	eq "$output" "$FP	n\\x00e\\x1bd\\x7f
$FP	\\x07bell"
	run -0 sh -c 'sh-fp $V1 -f jsonl ctl.jsonl | sh-near -v ctl.jsonl -f jsonl $V1 -k 0'
	eq "$output" 'n\x00e\x1bd\x7f	\x07bell	0	1.000000'
	printf 'WARC/1.0\r\nWARC-Type: conversion\r\nWARC-Target-URI: http://a/\033[31mred\r\nContent-Length: 11\r\n\r\nhello world\r\n\r\n' >ctl.warc
	run -0 sh-fp $V1 -f warc ctl.warc
	eq "$output" "$FP	http://a/\\x1b[31mred"
	printf 'hello world\n' >"$(printf 'f\033g')"
	run -0 sh-fp $V1 -F "$(printf 'f\033g')"
	eq "$output" "$FP	f\\x1bg"
	# A tab line's ID is the escaped form already: its backslashes
	# stay, its raw control bytes are escaped.
	run -0 sh-fp $V1 <<<"$(printf 'a\\tb\033c\thello world')"
	eq "$output" "$FP	a\\tb\\x1bc"
}

@test "ids: the tab format takes IDs as written, so round trips hold" {
	sh-fp -f jsonl ids.jsonl >ids.fp
	sh-tokenize -f jsonl ids.jsonl >ids.tok
	run -0 sh -c 'sh-fp -t ids.tok'
	eq "$output" "$(cat ids.fp)"
	run -0 sh -c 'cut -f 2 ids.fp | paste - ids.tok | cut -f 1,3 | sh-fp -t'
	eq "$output" "$(cat ids.fp)"
}

@test "ids: through sh-near, sh-index, sh-dist -v end to end" {
	sh-fp $V1 -f jsonl ids.jsonl >ids.fp
	run -0 --separate-stderr sh-near ids.fp
	eq "${lines[0]}" 'a\nb	c\td	0'
	eq "${#lines[@]}" 6
	run -0 sh -c 'sh-near ids.fp | sh-dist -v ids.jsonl -f jsonl | cut -f 1,2,4'
	eq "${lines[1]}" 'a\nb	e\\f	1.000000'
	eq "${#lines[@]}" 6
	run -0 sh -c 'sh-near -g ids.fp | cut -f 1 | sort -u'
	eq "$output" 'a\nb
plain'
	run -0 sh -c 'sh-near -u ids.fp | cut -f 2'
	eq "$output" 'a\nb
plain'
	run -0 sh-index build ix ids.fp
	run -0 sh-index dump ix
	eq "$(sort <<<"$output")" "$(sort ids.fp)"
	run -0 sh -c "printf '$FP\tq\\\\tx\n' | sh-near -i ix | head -n 1"
	eq "$output" 'q\tx	a\nb	0'
	run -0 sh -c 'sh-near ids.fp | sh-near -m - -g ids.fp | cut -f 1 | sort -u'
	eq "$output" 'a\nb
plain'
}

@test "ids: the example of the issue, JSON escapes in IDs" {
	run -0 sh -c "printf '%s\n' '{\"id\":\"a\\nb\",\"text\":\"hello world\"}' '{\"id\":\"c\\td\",\"text\":\"hello world\"}' | sh-fp -f jsonl | sh-near"
	eq "$output" 'a\nb	c\td	0'
}
