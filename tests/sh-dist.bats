#!/usr/bin/env bats
# sh-dist: Hamming distance or similarity of two fingerprints, or of the
# first two fields of every input line; -v verifies candidate pairs of
# documents by exact similarity; -x explains a distance.

load helper

USAGE='usage: sh-dist [-qR] [-k max] fingerprint fingerprint
       sh-dist [-q] sketch sketch
       sh-dist -p [-qR] [-k max] [file ...]
       sh-dist -v docs [-qt] [-a min] [-J measure] [-S size]
               [document option ...] [file ...]
       sh-dist -x [-t] [-N count] [document option ...] doc1 doc2
       sh-dist -x [-t] [-N count] [document option ...] docs id1 id2
       sh-dist -h | -V'
Z=0000000000000000
F=ffffffffffffffff
# The default features of fingerprint version 1, for tests of other rules.
V1='-n 2 -w 1 -W tf'

# --- usage and option values ---------------------------------------------

@test "wrong number of operands: usage, exit 2" {
	run -2 --separate-stderr sh-dist "$Z"
	eq "$output" ""
	eq "$stderr" "$USAGE"
	run -2 --separate-stderr sh-dist "$Z" "$Z" "$Z"
	eq "$output" ""
	eq "$stderr" "$USAGE"
}

@test "unknown option: usage, exit 2" {
	run -2 --separate-stderr sh-dist -j "$Z" "$Z"
	eq "$output" ""
	eq "${stderr_lines[0]}" "sh-dist: invalid option -- 'j'"
	eq "$(printf '%s\n' "${stderr_lines[@]:1}")" "$USAGE"
}

@test "-k outside 0..64 or not a number" {
	run -2 --separate-stderr sh-dist -k 65 "$Z" "$Z"
	eq "$output" ""
	eq "$stderr" "sh-dist: -k 65: number out of range"
	run -2 --separate-stderr sh-dist -k -1 "$Z" "$Z"
	eq "$stderr" "sh-dist: -k -1: number out of range"
	run -2 --separate-stderr sh-dist -k x "$Z" "$Z"
	eq "$stderr" "sh-dist: -k x: invalid value"
}

@test "an operand that is not 16 hex digits" {
	run -2 --separate-stderr sh-dist zz "$Z"
	eq "$output" ""
	eq "$stderr" "sh-dist: zz: fingerprint is not 16 hex digits"
	run -2 --separate-stderr sh-dist "$Z" 000000000000000
	eq "$stderr" "sh-dist: 000000000000000: fingerprint is not 16 hex digits"
	run -2 --separate-stderr sh-dist 00000000000000000 "$Z"
	eq "$stderr" "sh-dist: 00000000000000000: fingerprint is not 16 hex digits"
	run -2 --separate-stderr sh-dist "$Z" 000000000000000g
	eq "$stderr" "sh-dist: 000000000000000g: fingerprint is not 16 hex digits"
	run -2 --separate-stderr sh-dist -k 3 "$Z" " 000000000000000"
	eq "$stderr" "sh-dist:  000000000000000: fingerprint is not 16 hex digits"
}

# --- two operands --------------------------------------------------------

@test "Hamming distance of two fingerprints" {
	run -0 --separate-stderr sh-dist "$Z" 0000000000000007
	eq "$output" "3"
	eq "$stderr" ""
	run -0 --separate-stderr sh-dist 593b03225397e4ae 593b03225397e4ae
	eq "$output" "0"
	run -0 --separate-stderr sh-dist "$Z" "$F"
	eq "$output" "64"
	run -0 --separate-stderr sh-dist 8000000000000000 0000000000000001
	eq "$output" "2"
}

@test "uppercase hex is accepted" {
	run -0 --separate-stderr sh-dist 00000000000000AB 00000000000000ab
	eq "$output" "0"
	run -0 --separate-stderr sh-dist "$Z" FFFFFFFFFFFFFFFF
	eq "$output" "64"
}

@test "-r: similarity 1 - d/64 with six decimals" {
	run -0 --separate-stderr sh-dist -R "$Z" 0000000000000007
	eq "$output" "0.953125"
	run -0 --separate-stderr sh-dist -R "$Z" "$Z"
	eq "$output" "1.000000"
	run -0 --separate-stderr sh-dist -R "$Z" "$F"
	eq "$output" "0.000000"
	run -0 --separate-stderr sh-dist -R "$Z" 0000000000000001
	eq "$output" "0.984375"
	run -0 --separate-stderr sh-dist -R "$Z" 7fffffffffffffff
	eq "$output" "0.015625"
}

@test "-k: exit 0 within the distance, 1 beyond, output still printed" {
	run -0 --separate-stderr sh-dist -k 3 "$Z" 0000000000000007
	eq "$output" "3"
	run -1 --separate-stderr sh-dist -k 2 "$Z" 0000000000000007
	eq "$output" "3"
	eq "$stderr" ""
	run -0 --separate-stderr sh-dist -k 0 "$Z" "$Z"
	eq "$output" "0"
	run -0 --separate-stderr sh-dist -k 64 "$Z" "$F"
	eq "$output" "64"
	run -1 --separate-stderr sh-dist -R -k 0 "$Z" 0000000000000001
	eq "$output" "0.984375"
}

@test "-q: no output, only the exit status" {
	run -0 --separate-stderr sh-dist -q -k 3 "$Z" 0000000000000007
	eq "$output" ""
	eq "$stderr" ""
	run -1 --separate-stderr sh-dist -qk 2 "$Z" 0000000000000007
	eq "$output" ""
	eq "$stderr" ""
	run -0 --separate-stderr sh-dist -q "$Z" "$F"
	eq "$output" ""
}

# --- stream mode ---------------------------------------------------------

@test "-p: each line gets a TAB and the distance of its first two fields" {
	cd "$BATS_TEST_TMPDIR"
	printf '%s\t%s\n' "$Z" 0000000000000007 "$Z" "$F" >pairs
	printf '%s\t%s\tid1\tid2 with spaces\n' "$Z" 0000000000000001 >>pairs
	run -0 --separate-stderr sh-dist -p pairs
	eq "$output" "$Z	0000000000000007	3
$Z	$F	64
$Z	0000000000000001	id1	id2 with spaces	1"
	eq "$stderr" ""
}

@test "-p -r: the similarity instead" {
	run -0 --separate-stderr sh -c \
	    'printf "%s\t%s\tx\n" "$1" "$1" "$1" "$2" | sh-dist -pR' sh "$Z" "$F"
	eq "$output" "$Z	$Z	x	1.000000
$Z	$F	x	0.000000"
}

@test "stdin: no operands, -p alone, -p -" {
	run -0 --separate-stderr sh -c 'printf "%s\t%s\n" "$1" 0000000000000003 |
	    sh-dist' sh "$Z"
	eq "$output" "$Z	0000000000000003	2"
	run -0 --separate-stderr sh -c 'printf "%s\t%s\n" "$1" 0000000000000003 |
	    sh-dist -p' sh "$Z"
	eq "$output" "$Z	0000000000000003	2"
	cd "$BATS_TEST_TMPDIR"
	printf '%s\t%s\n' "$Z" "$Z" >p
	run -0 --separate-stderr sh -c 'printf "%s\t%s\n" "$1" 0000000000000003 |
	    sh-dist -p p - p' sh "$Z"
	eq "$output" "$Z	$Z	0
$Z	0000000000000003	2
$Z	$Z	0"
}

@test "-p -k: only lines within the distance, exit 0" {
	cd "$BATS_TEST_TMPDIR"
	printf '%s\t%s\ta\n' "$Z" 0000000000000007 "$Z" "$F" "$Z" 0000000000000003 >p
	run -0 --separate-stderr sh-dist -p -k 3 p
	eq "$output" "$Z	0000000000000007	a	3
$Z	0000000000000003	a	2"
	eq "$stderr" ""
}

@test "-p -k: no line within the distance, exit 1" {
	cd "$BATS_TEST_TMPDIR"
	printf '%s\t%s\n' "$Z" 0000000000000007 "$Z" "$F" >p
	run -1 --separate-stderr sh-dist -p -k 2 p
	eq "$output" ""
	eq "$stderr" ""
	run -1 --separate-stderr sh-dist -p -k 64 /dev/null
	eq "$output" ""
}

@test "-p -q: stops at the first line within the distance" {
	cd "$BATS_TEST_TMPDIR"
	printf '%s\t%s\n' "$Z" "$F" "$Z" 0000000000000001 >p
	printf 'not a pair\n' >>p
	run -0 --separate-stderr sh-dist -p -q -k 1 p nosuch
	eq "$output" ""
	eq "$stderr" ""
	run -0 --separate-stderr sh-dist -pq p nosuch
	eq "$output" ""
	eq "$stderr" ""
	run -2 --separate-stderr sh-dist -pq -k 0 p
	eq "$output" ""
	eq "$stderr" "sh-dist: p:3: too few fields"
}

@test "-p -q -k: nothing within the distance, exit 1" {
	run -1 --separate-stderr sh -c \
	    'printf "%s\t%s\n" "$1" "$2" | sh-dist -pqk 63' sh "$Z" "$F"
	eq "$output" ""
	eq "$stderr" ""
}

@test "malformed lines: reported, the others processed, exit 2" {
	cd "$BATS_TEST_TMPDIR"
	{
		printf '%s\n' "$Z"
		printf '%s\t%s\n' "$Z" 0000000000000001
		printf '\n'
		printf '%s\tzz\n' "$Z"
		printf '%s \t%s\n' "$Z" "$Z"
		printf '%s\t\t%s\n' "$Z" "$Z"
		printf '%s\t%s\n' "$Z" 0000000000000003
	} >p
	run -2 --separate-stderr sh-dist -p p
	eq "$output" "$Z	0000000000000001	1
$Z	0000000000000003	2"
	eq "$stderr" "sh-dist: p:1: too few fields
sh-dist: p:3: too few fields
sh-dist: p:4: fingerprint is not 16 hex digits
sh-dist: p:5: fingerprint is not 16 hex digits
sh-dist: p:6: fingerprint is not 16 hex digits"
	run -2 --separate-stderr sh-dist -p -k 1 p
	eq "$output" "$Z	0000000000000001	1"
	run -2 --separate-stderr sh -c 'printf "x\n" | sh-dist -p'
	eq "$stderr" "sh-dist: <stdin>:1: too few fields"
}

@test "missing file: reported, other files processed, exit 2" {
	cd "$BATS_TEST_TMPDIR"
	printf '%s\t%s\n' "$Z" "$Z" >p
	run -2 --separate-stderr sh-dist -p nosuch p
	eq "$output" "$Z	$Z	0"
	eq "$stderr" "sh-dist: nosuch: No such file or directory"
}

@test "unreadable file (a directory): reported like its siblings, exit 2" {
	cd "$BATS_TEST_TMPDIR"
	mkdir dir
	printf '%s\t%s\n' "$Z" "$Z" >p
	run -2 --separate-stderr sh-dist -p dir p
	eq "$output" "$Z	$Z	0"
	eq "$stderr" "sh-dist: dir: Is a directory"
}

@test "-p: empty input, no output, exit 0" {
	run -0 --separate-stderr sh-dist -p </dev/null
	eq "$output" ""
	eq "$stderr" ""
	run -0 --separate-stderr sh-dist -p /dev/null /dev/null
	eq "$output" ""
	eq "$stderr" ""
}

@test "-p: a last line without newline counts" {
	run -0 --separate-stderr sh -c 'printf "%s\t%s\n%s\t%s" "$1" "$1" "$1" "$2" |
	    sh-dist -p' sh "$Z" "$F"
	eq "$output" "$Z	$Z	0
$Z	$F	64"
}

@test "-p: CRLF lines read like LF lines" {
	run -0 --separate-stderr sh -c 'printf "%s\t%s\r\n%s\t%s\tx\r\n" "$1" "$1" "$1" "$2" |
	    sh-dist -p' sh "$Z" "$F"
	eq "$output" "$Z	$Z	0
$Z	$F	x	64"
	eq "$stderr" ""
}

@test "-p: NUL bytes in a field are copied; in a fingerprint, an error" {
	cd "$BATS_TEST_TMPDIR"
	printf '%s\t%s\ta\000b\n' "$Z" "$F" >in
	printf '%s\t%s\ta\000b\t64\n' "$Z" "$F" >want
	run -0 --separate-stderr sh -c 'sh-dist -p in >out'
	eq "$stderr" ""
	same_files want out
	printf '%s\t000000000000000\000\n' "$Z" >nul
	run -2 --separate-stderr sh-dist -p nul
	eq "$output" ""
	eq "$stderr" "sh-dist: nul:1: fingerprint is not 16 hex digits
sh-dist: nul: the input looks like binary data, not text"
}

@test "-p: a line over 1 MiB" {
	cd "$BATS_TEST_TMPDIR"
	head -c 2097152 /dev/zero | tr '\000' x >long
	{ printf '%s\t%s\t' "$Z" "$F"; cat long; printf '\n'; } >in
	{ printf '%s\t%s\t' "$Z" "$F"; cat long; printf '\t64\n'; } >want
	run -0 --separate-stderr sh -c 'sh-dist -p in >out'
	eq "$stderr" ""
	same_files want out
}

@test "distances between fingerprints from sh-fp" {
	cd "$BATS_TEST_TMPDIR"
	sh-fp $V1 "$FIXTURES/vectors.in" 2>/dev/null | sed -n '1,3p' >fps
	# Pair every fingerprint with the first one: en-fox with itself,
	# its edit and an unrelated sentence.
	awk -F '\t' 'NR == 1 { a = $1 } { print a "\t" $1 "\t" $2 }' fps >pairs
	run -0 --separate-stderr sh-dist -p pairs
	eq "$output" "593b03225397e4ae	593b03225397e4ae	en-fox	0
593b03225397e4ae	5f3303261e17e72e	en-fox-edit	12
593b03225397e4ae	86c9e0adf8a9d82d	en-other	39"
}

@test "write error on stdout: exit 2" {
	run -2 --separate-stderr sh -c 'sh-dist "$1" "$1" >/dev/full' sh "$Z"
	eq "$stderr" "sh-dist: stdout: No space left on device"
	run -2 --separate-stderr sh -c \
	    'printf "%s\t%s\n" "$1" "$1" | sh-dist -p >/dev/full' sh "$Z"
	eq "$stderr" "sh-dist: stdout: No space left on device"
}

# --- -v: verification of candidate pairs ---------------------------------

# docs: a and b share 7 of 9 words ("the" twice in each), c shares none.
mkdocs() {
	printf '%s\n' 'a	the quick brown fox jumps over the lazy dog' \
	    'b	the quick brown fox jumped over the lazy dog' \
	    'c	something else entirely' >docs
}

@test "-v: exact Jaccard of each pair, extra fields carried" {
	cd "$BATS_TEST_TMPDIR"
	mkdocs
	printf 'a\tb\t3\na\tc\t20\nb\ta\nc\tc\tx\ty\n' >pairs
	run -0 --separate-stderr sh-dist $V1 -v docs pairs
	eq "$output" "a	b	3	0.777778
a	c	20	0.000000
b	a	0.777778
c	c	x	y	1.000000"
	eq "$stderr" ""
}

@test "-v -m: containment, cosine and weighted Jaccard by hand" {
	cd "$BATS_TEST_TMPDIR"
	mkdocs
	printf 'a\tb\n' >pairs
	# 7 of 8 words each; tf weights (2,1,...): dot 10, norms 11 and 11;
	# min 8 of max 10.
	run -0 --separate-stderr sh-dist $V1 -v docs -J containment pairs
	eq "$output" "a	b	0.875000"
	run -0 --separate-stderr sh-dist $V1 -v docs -J cosine pairs
	eq "$output" "a	b	0.909091"
	run -0 --separate-stderr sh-dist $V1 -v docs -J weighted pairs
	eq "$output" "a	b	0.800000"
	run -0 --separate-stderr sh-dist $V1 -v docs -J weighted -W binary pairs
	eq "$output" "a	b	0.777778"
	run -0 --separate-stderr sh-dist $V1 -v docs -J jaccard pairs
	eq "$output" "a	b	0.777778"
	run -2 --separate-stderr sh-dist $V1 -v docs -J dice pairs
	eq "$output" ""
	eq "$stderr" "sh-dist: -J dice: invalid value"
}

@test "-v -a: at or above the threshold as printed; exit 1 when none" {
	cd "$BATS_TEST_TMPDIR"
	mkdocs
	printf 'a\tb\na\tc\nb\tb\n' >pairs
	run -0 --separate-stderr sh-dist $V1 -v docs -a 0.777778 pairs
	eq "$output" "a	b	0.777778
b	b	1.000000"
	run -0 --separate-stderr sh-dist $V1 -v docs -a 0.777779 pairs
	eq "$output" "b	b	1.000000"
	run -0 --separate-stderr sh-dist $V1 -v docs -a 1 pairs
	eq "$output" "b	b	1.000000"
	run -0 --separate-stderr sh-dist $V1 -v docs -a 0 pairs
	[ "${#lines[@]}" -eq 3 ]
	run -0 --separate-stderr sh-dist $V1 -v docs -a .0 pairs
	[ "${#lines[@]}" -eq 3 ]
	printf 'a\tc\n' >far
	run -1 --separate-stderr sh-dist $V1 -v docs -a 0.000001 far
	eq "$output" ""
	eq "$stderr" ""
	run -1 --separate-stderr sh-dist $V1 -v docs /dev/null
	eq "$output" ""
}

@test "-v -a: values outside 0..1 or with more than six decimals" {
	cd "$BATS_TEST_TMPDIR"
	mkdocs
	run -2 --separate-stderr sh-dist -v docs -a 1.000001 /dev/null
	eq "$stderr" "sh-dist: -a 1.000001: number out of range"
	run -2 --separate-stderr sh-dist -v docs -a 0.1234567 /dev/null
	eq "$stderr" "sh-dist: -a 0.1234567: invalid value"
	run -2 --separate-stderr sh-dist -v docs -a -0.5 /dev/null
	eq "$stderr" "sh-dist: -a -0.5: invalid value"
}

@test "-v: a missing ID is reported, the other pairs processed, exit 2" {
	cd "$BATS_TEST_TMPDIR"
	mkdocs
	printf 'a\tzz\t3\nb\ta\nyy\tb\nno tab\n\n' >pairs
	run -2 --separate-stderr sh-dist $V1 -v docs pairs
	eq "$output" "b	a	0.777778"
	eq "$stderr" "sh-dist: pairs:1: no document zz in docs
sh-dist: pairs:3: no document yy in docs
sh-dist: pairs:4: too few fields
sh-dist: pairs:5: too few fields"
	run -2 --separate-stderr sh-dist $V1 -v docs -a 0.9 pairs
	eq "$output" ""
}

@test "-v: the first of two records with one ID is used; the others are counted, one named" {
	cd "$BATS_TEST_TMPDIR"
	mkdocs
	# With the later records of a, a and b would share nothing.
	printf 'a\ta later duplicate\nc\tagain\na\tand another\n' >>docs
	printf 'a\tb\n' >pairs
	run -0 --separate-stderr sh-dist $V1 -v docs pairs
	eq "$output" "a	b	0.777778"
	eq "$stderr" "sh-dist: docs: 3 document(s) with the ID of one before, not read (the first of an ID is): \"a\", \"c\", \"a\""
}

@test "-v: docs from a pipe or a process substitution are copied to TMPDIR once; a directory is refused" {
	cd "$BATS_TEST_TMPDIR"
	mkdocs
	printf 'a\tb\nb\tc\na\tc\n' >pairs
	want=$(sh-dist $V1 -v docs pairs)
	run -0 --separate-stderr sh -c 'cat docs | sh-dist $1 -v /dev/stdin pairs' sh "$V1"
	eq "$output" "$want"
	eq "$stderr" ""
	run -0 --separate-stderr bash -c 'sh-dist $1 -v <(gzip -c docs | gzip -dc) pairs' sh "$V1"
	eq "$output" "$want"
	# Nothing is left in TMPDIR; one that cannot take the copy is said.
	mkdir tmp
	TMPDIR=$PWD/tmp run -0 sh -c 'cat docs | sh-dist -v /dev/stdin pairs'
	eq "$(ls -A tmp)" ""
	TMPDIR=/nonexistent run -2 --separate-stderr sh -c 'cat docs | sh-dist -v /dev/stdin pairs'
	eq "$stderr" "sh-dist: /nonexistent: temporary file: No such file or directory"
	run -2 --separate-stderr sh-dist -v nosuch /dev/null
	eq "$stderr" "sh-dist: nosuch: No such file or directory"
	run -2 --separate-stderr sh-dist -v . /dev/null
	eq "$stderr" "sh-dist: .: Is a directory"
	run -2 --separate-stderr sh-dist -v docs -F /dev/null
	eq "$stderr" "sh-dist: docs: -v with -F takes a directory (one): the documents are the files the IDs name, below it (-v . for the paths sh-fp -F was given)"
}

@test "-v DIR -F: each document is the file its ID names, below DIR; escaped names too" {
	cd "$BATS_TEST_TMPDIR"
	mkdir -p d/a
	printf 'the quick brown fox jumps over the lazy dog\n' >d/one
	printf 'the quick brown fox jumped over the lazy dog\n' >d/a/two
	printf 'the quick brown fox jumps over the lazy cat\n' >"$(printf 'd/t\tab')"
	sh-fp $V1 -F d/one d/a/two "$(printf 'd/t\tab')" >fps
	eq "$(cut -f 2 fps)" 'd/one
d/a/two
d/t\tab'
	printf 'd/one\td/a/two\nd/one\td/t\\tab\nd/one\td/none\n' >pairs
	run -2 --separate-stderr sh-dist $V1 -v . -F pairs
	eq "$output" 'd/one	d/a/two	0.777778
d/one	d/t\tab	0.777778'
	eq "$stderr" "sh-dist: pairs:3: no document d/none in ."
	# Relative IDs below the directory given, absolute ones as they are.
	mkdir sub
	run -0 sh -c "cd sub && sh-dist $V1 -v .. -F ../pairs 2>/dev/null | head -n 1"
	eq "$output" 'd/one	d/a/two	0.777778'
	sed "s|^|$PWD/|; s|\t|\t$PWD/|" pairs | head -n 1 >abs
	run -0 sh-dist $V1 -v sub -F abs
	eq "$(cut -f 3 <<<"$output")" 0.777778
	# sh-near: the fingerprints of sh-fp -F, verified.
	run -0 --separate-stderr sh-near $V1 -v . -F -k 16 fps
	eq "$output" 'd/one	d/a/two	10	0.777778
d/one	d/t\tab	6	0.777778
d/a/two	d/t\tab	14	0.600000'
}

@test "-v: bad records of docs are reported, the others used; -e skips them" {
	cd "$BATS_TEST_TMPDIR"
	printf 'a\tx y\nno tab here\nb\tx z\n' >docs
	printf 'a\tb\n' >pairs
	run -2 --separate-stderr sh-dist $V1 -v docs pairs
	eq "$output" "a	b	0.333333"
	eq "$stderr" "sh-dist: docs:2: missing TAB after ID"
	run -0 --separate-stderr sh-dist $V1 -v docs -e pairs
	eq "$output" "a	b	0.333333"
	eq "$stderr" "sh-dist: skipped 1 bad record(s)"
}

@test "-v: pairs from stdin, -, several files; CRLF, no final newline" {
	cd "$BATS_TEST_TMPDIR"
	mkdocs
	printf 'a\tb\r\n' >p1
	printf 'b\tc' >p2
	run -0 --separate-stderr sh -c \
	    'printf "c\tc\n" | sh-dist "$@" -v docs p1 - p2' sh $V1
	eq "$output" "a	b	0.777778
c	c	1.000000
b	c	0.000000"
	run -0 --separate-stderr sh -c 'sh-dist "$@" -v docs <p2' sh $V1
	eq "$output" "b	c	0.000000"
}

@test "-v -q: no output, exit 0 at the first pair printed" {
	cd "$BATS_TEST_TMPDIR"
	mkdocs
	printf 'a\tc\na\tb\nzz\ta\n' >pairs
	run -0 --separate-stderr sh-dist $V1 -v docs -q -a 0.5 pairs
	eq "$output" ""
	eq "$stderr" ""
	run -1 --separate-stderr sh-dist $V1 -v docs -q -a 0.9 /dev/null
}

@test "-v: NUL bytes in a carried field, a pair line over 1 MiB" {
	cd "$BATS_TEST_TMPDIR"
	mkdocs
	head -c 2097152 /dev/zero | tr '\000' x >long
	{ printf 'a\tb\ta\000b\t'; cat long; printf '\n'; } >pairs
	{ printf 'a\tb\ta\000b\t'; cat long; printf '\t0.777778\n'; } >want
	run -0 --separate-stderr sh -c 'sh-dist "$@" -v docs pairs >out' sh $V1
	eq "$stderr" ""
	same_files want out
}

@test "-v -l, -f jsonl, -f nul: the same documents in other formats" {
	cd "$BATS_TEST_TMPDIR"
	mkdocs
	cut -f 2 docs >lines
	printf '1\t2\n2\t3\n' >lpairs
	run -0 --separate-stderr sh-dist $V1 -v lines -l lpairs
	eq "$output" "1	2	0.777778
2	3	0.000000"
	printf 'a\tb\n' >pairs
	awk -F '\t' '{ printf "{\"id\": \"%s\", \"text\": \"%s\"}\n", $1, $2 }' \
	    docs >docs.jsonl
	run -0 --separate-stderr sh-dist $V1 -v docs.jsonl -f jsonl -J cosine pairs
	eq "$output" "a	b	0.909091"
	tr '\n' '\000' <docs >docs.nul
	run -0 --separate-stderr sh-dist $V1 -v docs.nul -f nul -J cosine pairs
	eq "$output" "a	b	0.909091"
}

@test "-v -t: token lists with their weights" {
	cd "$BATS_TEST_TMPDIR"
	printf 'a\tx^2 y\nb\tx y^3 x\nc\tz^0 y\n' >tok
	printf 'a\tb\na\tc\n' >pairs
	# a: x 2, y 1; b: x 2, y 3 (x listed twice); c: y 1 (z weighs 0).
	run -0 --separate-stderr sh-dist -v tok -t -J weighted pairs
	eq "$output" "a	b	0.600000
a	c	0.333333"
	run -0 --separate-stderr sh-dist -v tok -t -J cosine pairs
	eq "$output" "a	b	0.868243
a	c	0.447214"
	run -0 --separate-stderr sh-dist -v tok -t -J containment pairs
	eq "$output" "a	b	1.000000
a	c	1.000000"
	printf 'a\tx^2 y^q\n' >badtok
	printf 'a\ta\n' >self
	run -2 --separate-stderr sh-dist -v badtok -t self
	eq "$output" ""
	eq "$stderr" "sh-dist: badtok: document a: column 7: bad token weight"
	run -2 --separate-stderr sh-dist -v tok -t -l pairs
	eq "$stderr" "sh-dist: -t and -l cannot be used together"
}

@test "-v agrees with a brute-force Jaccard over sh-tokenize output" {
	cd "$BATS_TEST_TMPDIR"
	gen_corpus docs 1500
	sh-fp docs 2>/dev/null | sh-near -k 12 | cut -f 1,2 >pairs
	# And pairs of consecutive documents, mostly far apart.
	awk -F '\t' 'NR > 1 { print prev "\t" $1 } { prev = $1 }' docs |
	    head -500 >>pairs
	[ "$(wc -l <pairs)" -gt 600 ]
	sh-tokenize docs >tok 2>/dev/null
	awk -F '\t' 'NR == FNR {
		n = split($2, t, " ")
		list[$1] = ""
		for (i = 1; i <= n; i++) {
			sub(/\^[0-9.]+$/, "", t[i])
			f[$1, t[i]] = 1
			list[$1] = list[$1] " " t[i]
		}
		size[$1] = n
		next
	}
	{
		a = $1; b = $2
		n = split(list[a], t, " ")
		common = 0
		for (i = 1; i <= n; i++)
			if ((b, t[i]) in f)
				common++
		u = size[a] + size[b] - common
		q = u ? int((2000000 * common + u) / (2 * u)) : 0
		printf "%s\t%s\t%d.%06d\n", a, b, q / 1000000, q % 1000000
	}' tok pairs >want
	run -0 --separate-stderr sh -c 'sh-dist -v docs pairs >got'
	eq "$stderr" ""
	same_files want got
	# The portable code gives what the vector code gave.
	SH_VECTOR=0 sh-dist -v docs pairs >got.0
	same_files want got.0
	# The same from the token lists, and from JSON Lines.
	run -0 --separate-stderr sh -c 'sh-dist -v tok -t pairs >got.t'
	same_files want got.t
	awk -F '\t' '{ printf "{\"text\": \"%s\", \"id\": \"%s\"}\n", $2, $1 }' \
	    docs >docs.jsonl
	run -0 --separate-stderr sh -c \
	    'sh-dist -v docs.jsonl -f jsonl pairs >got.j'
	same_files want got.j
}

@test "-v -t: weights from sh-tokenize give sh-dist's own weights" {
	cd "$BATS_TEST_TMPDIR"
	gen_corpus docs 400
	awk -F '\t' 'NR > 1 { print prev "\t" $1 } { prev = $1 }' docs >pairs
	for w in tf logtf binary; do
		for m in cosine weighted; do
			sh-dist -v docs -W "$w" -J "$m" pairs >direct 2>&1 || :
			sh-tokenize -W "$w" docs 2>/dev/null >tok
			sh-dist -v tok -t -J "$m" pairs >viatok 2>&1 || :
			same_files direct viatok
		done
	done
}

@test "-v: write error on stdout, exit 2" {
	cd "$BATS_TEST_TMPDIR"
	mkdocs
	run -2 --separate-stderr sh -c 'printf "a\tb\n" | sh-dist -v docs >/dev/full'
	eq "$stderr" "sh-dist: stdout: No space left on device"
}

@test "-v -J edit: 1 - d / max(|a|, |b|) over folded letters, marks and digits" {
	cd "$BATS_TEST_TMPDIR"
	printf '%s\t%s\n' s1 '你妈妈喊你回家吃饭哦,回家罗回家罗' \
	    s2 '你妈妈叫你回家吃饭啦，回家罗回家罗' \
	    s3 '你妈妈喊你回家吃饭哦 回家罗。回家罗！' \
	    e1 'The quick brown fox jumps.' e2 'the QUICK, brown fox jumped!' \
	    e3 'Ｔｈｅ ｑｕｉｃｋ brown fox jumps' t1 '說明' t2 '说明' \
	    p1 '...' p2 ', , ,' >docs
	printf '%s\t%s\n' s1 s2 s1 s3 e1 e2 e1 e3 s1 e1 t1 t2 p1 p2 e1 p1 \
	    >pairs
	run -0 --separate-stderr sh-dist -v docs -J edit pairs
	eq "$output" "s1	s2	0.875000
s1	s3	1.000000
e1	e2	0.909091
e1	e3	1.000000
s1	e1	0.000000
t1	t2	0.500000
p1	p2	0.000000
e1	p1	0.000000"
	eq "$stderr" ""
	# -z folds traditional Chinese to simplified; -a keeps what is at
	# least min, exit 1 when nothing is.
	run -0 --separate-stderr sh-dist -v docs -J edit -z -a 0.9 pairs
	eq "$output" "s1	s3	1.000000
e1	e2	0.909091
e1	e3	1.000000
t1	t2	1.000000"
	run -1 --separate-stderr sh-dist -v docs -J edit -a 0.95 - <<-EOF
	s1	s2
	EOF
	eq "$output" ""
	# Token lists have no characters.
	printf 'a\tx y\n' >tok
	run -2 --separate-stderr sh-dist -v tok -t -J edit pairs
	eq "$stderr" "sh-dist: -J edit: compares texts, not token lists (-t)"
}

@test "-v -J edit: the dynamic program's distance, by awk, on random texts" {
	cd "$BATS_TEST_TMPDIR"
	# Texts of a, b, c, upper and lower case, spaces and commas, from 0
	# to some 300 letters, and edited copies; their folded letters and
	# distance by the plain dynamic program.
	awk 'BEGIN { srand(11); split("a b c A B C , ", ch, " "); ch[7] = " "
	    for (d = 1; d <= 60; d++) { s = ""; n = int(rand() * 300)
		for (i = 0; i < n; i++) s = s ch[1 + int(rand() * 7)]
		print "d" d "\t" s
		c = s; m = int(rand() * 40)
		for (i = 0; i < m; i++) { p = 1 + int(rand() * (length(c) + 1))
		    c = substr(c, 1, p - 1) ch[1 + int(rand() * 7)] \
			substr(c, p + int(rand() * 2)) }
		print "c" d "\t" c } }' >docs
	awk -F '\t' '{ id[NR] = $1 } END { srand(12)
	    for (i = 1; i <= NR; i++) { print id[i] "\t" id[i % 2 ? i + 1 : i]
		print id[i] "\t" id[1 + int(rand() * NR)] } }' docs >pairs
	awk -F '\t' 'NR == FNR { t = tolower($2); gsub(/[^a-z]/, "", t)
		txt[$1] = t; next }
	    { a = txt[$1]; b = txt[$2]; na = length(a); nb = length(b)
		for (j = 0; j <= nb; j++) r[j] = j
		for (i = 1; i <= na; i++) { dg = r[0]; r[0] = i
		    x = substr(a, i, 1)
		    for (j = 1; j <= nb; j++) { up = r[j]
			v = dg + (x != substr(b, j, 1))
			if (up + 1 < v) v = up + 1
			if (r[j - 1] + 1 < v) v = r[j - 1] + 1
			r[j] = v; dg = up } }
		L = na > nb ? na : nb
		s = L ? int((2000000 * (L - r[nb]) + L) / (2 * L)) : 0
		printf "%s\t%s\t%d.%06d\n", $1, $2, s / 1000000, s % 1000000 }' \
	    docs pairs >want
	sh-dist -v docs -J edit pairs >got
	same_files want got
	# -a: the same lines, those below min left out.
	awk -F '\t' '$3 >= 0.8' want >want.8
	[ -s want.8 ] && [ "$(wc -l <want.8)" -lt "$(wc -l <want)" ]
	sh-dist -v docs -J edit -a 0.8 pairs | same_files want.8 -
}

# --- -x: explanation ------------------------------------------------------

@test "-x: fingerprints, blocks, similarities and the features that pull" {
	cd "$BATS_TEST_TMPDIR"
	printf 'the quick brown fox jumps over the lazy dog\n' >a.txt
	printf 'the quick brown fox jumped over the lazy dog dog\n' >b.txt
	run -0 --separate-stderr sh-dist $V1 -x -N 3 a.txt b.txt
	eq "$output" "fingerprint	593b03225397e4ae	a.txt
fingerprint	193f03261417948c	b.txt
text	a.txt	file a.txt offset 0 length 44, no html, charset utf-8
text	b.txt	file b.txt offset 0 length 49, no html, charset utf-8
distance	13
block	0	593b	193f	2	differ
block	1	0322	0326	1	differ
block	2	5397	1417	5	differ
block	3	e4ae	948c	5	differ
similarity	jaccard	0.777778
similarity	containment	0.875000
similarity	cosine	0.886405
similarity	weighted	0.727273
similarity	edit	0.871795
edits	5	35	39
feature	13	0	1	jumped
feature	9	1	2	dog
feature	9	1	0	jumps"
	eq "$stderr" ""
	# The fingerprints are sh-fp's, the distance sh-dist's.
	eq "$(sh-fp $V1 -F a.txt b.txt | cut -f 1 | paste -s -d ' ')" \
	    "593b03225397e4ae 193f03261417948c"
	eq "$(sh-dist 593b03225397e4ae 193f03261417948c)" 13
}

@test "-x: identical documents: distance 0, every block agrees, no feature" {
	cd "$BATS_TEST_TMPDIR"
	printf 'one two three\n' >a
	printf 'three two one\n' >b
	run -0 --separate-stderr sh-dist $V1 -x a b
	eq "${lines[4]}" "distance	0"
	eq "$(printf '%s\n' "${lines[@]}" | grep -c '	agree$')" 4
	eq "$(printf '%s\n' "${lines[@]}" | grep -c '^feature')" 0
	eq "${lines[9]}" "similarity	jaccard	1.000000"
}

@test "-x: a lone feature each: it votes for every differing bit" {
	cd "$BATS_TEST_TMPDIR"
	printf 'x\n' >a
	printf 'y y\n' >b
	run -0 --separate-stderr sh-dist $V1 -x a b
	d=$(sh-dist "${lines[0]:12:16}" "${lines[1]:12:16}")
	eq "${lines[4]}" "distance	$d"
	eq "${lines[12]}" "similarity	weighted	0.000000"
	eq "${lines[13]}" "similarity	edit	0.000000"
	eq "${lines[14]}" "edits	2	1	2"
	eq "${lines[15]}" "feature	$((2 * d))	0	2	y"
	eq "${lines[16]}" "feature	$d	1	0	x"
	# At distance 3 or less, a block agrees.
	printf 'x a b c d e f g h i j k l\n' >c
	printf 'y a b c d e f g h i j k l\n' >e
	run -0 --separate-stderr sh-dist $V1 -x c e
	d=${lines[4]#*	}
	agree=$(printf '%s\n' "${lines[@]}" | grep -c '	agree$')
	[ "$d" -gt 3 ] || [ "$agree" -ge 1 ]
}

@test "-x -t: token lists; -N 0; -H" {
	cd "$BATS_TEST_TMPDIR"
	printf 'd1\tx^2 y\n' >a.tok
	printf 'd2\tx y^3 x\n' >b.tok
	run -0 --separate-stderr sh-dist -x -t -N 0 a.tok b.tok
	eq "${lines[0]:0:12}" "fingerprint	"
	eq "${lines[0]:28}" "	d1"
	eq "${lines[1]:28}" "	d2"
	eq "${lines[2]}" "text	d1	tab a.tok offset 0 length 9, no html, charset utf-8"
	eq "${lines[11]}" "similarity	cosine	0.868243"
	# Token lists have no characters to edit.
	eq "${lines[13]}" "similarity	edit	0.000000"
	eq "${lines[14]}" "edits	0	0	0"
	eq "${#lines[@]}" 15
	printf '<p>the <b>quick</b> fox</p>' >a.html
	printf 'the quick fox\n' >a.txt
	run -0 --separate-stderr sh-dist -x -H a.html a.txt
	eq "${lines[2]}" "text	a.html	file a.html offset 0 length 27, html reduced, charset utf-8"
	eq "${lines[3]}" "text	a.txt	file a.txt offset 0 length 14, html reduced, charset utf-8"
	eq "${lines[4]}" "distance	0"
}

@test "-x: errors: missing file, no features, bad token list, usage" {
	cd "$BATS_TEST_TMPDIR"
	printf 'x\n' >a
	printf ' ,.\n' >punct
	run -2 --separate-stderr sh-dist -x a nosuch
	eq "$output" ""
	eq "$stderr" "sh-dist: nosuch: No such file or directory"
	run -2 --separate-stderr sh-dist -x punct a
	eq "$stderr" "sh-dist: punct: no features"
	run -2 --separate-stderr sh-dist -x /dev/null a
	eq "$stderr" "sh-dist: /dev/null: no features"
	printf 'd\tx^^\n' >bad.tok
	run -2 --separate-stderr sh-dist -x -t bad.tok bad.tok
	eq "$stderr" "sh-dist: bad.tok:1: column 3: bad token weight"
	run -2 --separate-stderr sh-dist -x a
	eq "$stderr" "$USAGE"
	run -2 --separate-stderr sh-dist -x -k 3 a a
	eq "$stderr" "sh-dist: -x and -k cannot be used together"
	run -2 --separate-stderr sh-dist -x -N 1000001 a a
	eq "$stderr" "sh-dist: -N 1000001: number out of range"
}

@test "-x docs id1 id2: the documents of two IDs of a file, in any framing" {
	cd "$BATS_TEST_TMPDIR"
	printf 'a\tthe quick brown fox\nb\tthe quick brown cat\n' >docs
	printf 'the quick brown fox\n' >fa
	printf 'the quick brown cat\n' >fb
	run -0 --separate-stderr sh-dist $V1 -x docs a b
	eq "$(sed 1,4d <<<"$output")" "$(sh-dist $V1 -x fa fb | sed 1,4d)"
	eq "$(grep '^text' <<<"$output")" "text	a	tab docs offset 0 length 22, no html, charset utf-8
text	b	tab docs offset 22 length 22, no html, charset utf-8"
	eq "$(cut -f 3 <<<"$output" | head -n 2)" "a
b"
	zcat "$FIXTURES/crawl.warc.gz" >crawl.warc
	U=http://news.example.org
	run -0 --separate-stderr sh-dist -x -f warc crawl.warc "$U/budget.html" "$U/budget-update.html"
	eq "$(sed -n 5p <<<"$output")" "distance	12"
	eq "$(grep '^similarity	jaccard' <<<"$output")" "similarity	jaccard	0.805556"
	# Each against the distance sh-near printed for the pair.
	eq "$(sh-fp -f warc crawl.warc 2>/dev/null | sh-near -k 12 | grep -c "	$U/budget-update.html	12$")" 2
	run -2 --separate-stderr sh-dist -x docs a nobody
	eq "$output" ""
	eq "$stderr" "sh-dist: no document nobody in docs"
	run -2 --separate-stderr sh-dist -x -F docs a b
	[[ $stderr == "sh-dist: docs: -v with -F takes a directory"* ]]
	run -2 --separate-stderr sh-dist -x docs a b c
	eq "$stderr" "$USAGE"
}

@test "-x: the text lines name the file, the record's bytes, the HTML reduced and the charset; sh-tokenize -Q prints that text" {
	cd "$BATS_TEST_TMPDIR"
	printf '<html><head><meta charset="gbk"></head><body><p>今天北京的天气很好，适合出去散步</p></body></html>\n' |
	    iconv -f UTF-8 -t GBK >gbk.html
	printf '今天北京的天气很好，适合出去散步！\n' | iconv -f UTF-8 -t GBK >gbk.txt
	run -0 --separate-stderr sh-dist -x gbk.html gbk.txt
	eq "${lines[2]}" "text	gbk.html	file gbk.html offset 0 length $(wc -c <gbk.html), html reduced, charset gbk"
	eq "${lines[3]}" "text	gbk.txt	file gbk.txt offset 0 length $(wc -c <gbk.txt), no html, charset GB18030 detected"
	# -C names the charset: not detected.
	run -0 --separate-stderr sh-dist -x -C gbk gbk.txt gbk.txt
	eq "${lines[2]}" "text	gbk.txt	file gbk.txt offset 0 length $(wc -c <gbk.txt), no html, charset gbk"
	# A path with a TAB and a backslash is escaped as IDs are.
	cp gbk.txt "$(printf 'a\tb\\c')"
	run -0 --separate-stderr sh-dist -x -C gbk "$(printf 'a\tb\\c')" gbk.txt
	eq "${lines[2]}" 'text	a\tb\\c	file a\tb\\c offset 0 length '"$(wc -c <gbk.txt)"', no html, charset gbk'
	# In a WARC crawl: the bytes cut out at the offset are the record,
	# and sh-tokenize -Q prints the text measured.
	zcat "$FIXTURES/crawl.warc.gz" >crawl.warc
	U=http://news.example.org
	run -0 --separate-stderr sh-dist -x -f warc crawl.warc "$U/rain.html" "$U/budget.html"
	eq "${lines[2]}" "text	$U/rain.html	warc crawl.warc offset 2457 length 691, html reduced, charset utf-8"
	eq "${lines[3]}" "text	$U/budget.html	warc crawl.warc offset 0 length 801, html reduced, charset utf-8"
	tail -c +2458 crawl.warc | head -c 691 >rain.warc
	eq "$(sh-tokenize -Q -f warc rain.warc)" "$(sh-tokenize -Q -f warc crawl.warc 2>/dev/null | grep -F "$U/rain.html")"
	eq "$(sh-fp -f warc rain.warc)" "$(sh-fp -f warc crawl.warc 2>/dev/null | grep -F "$U/rain.html")"
	# JSON Lines and NUL records: the record's own bytes.
	printf '{"id":"j1","text":"one two three"}\n{"id":"j2","text":"one two four"}\n' >d.jsonl
	run -0 --separate-stderr sh-dist -x -f jsonl d.jsonl j2 j1
	eq "${lines[2]}" "text	j2	jsonl d.jsonl offset 35 length 34, no html, charset utf-8"
	printf 'n1\tone\ntwo\0n2\t<p>one</p>\0' >d.nul
	run -0 --separate-stderr sh-dist -x -f nul d.nul n2 n1
	eq "${lines[2]}" "text	n2	nul d.nul offset 11 length 14, html reduced, charset utf-8"
	eq "${lines[3]}" "text	n1	nul d.nul offset 0 length 11, no html, charset utf-8"
}

@test "options of one form are refused in another, both named" {
	run -2 --separate-stderr sh-dist -a 0.5 "$Z" "$Z"
	eq "$stderr" "sh-dist: -a: only with -v"
	run -2 --separate-stderr sh-dist -t "$Z" "$Z"
	eq "$stderr" "sh-dist: -t: only with -v or -x"
	run -2 --separate-stderr sh-dist -N 3 "$Z" "$Z"
	eq "$stderr" "sh-dist: -N: only with -x"
	run -2 --separate-stderr sh-dist -p -W binary /dev/null
	eq "$stderr" "sh-dist: -p and -W cannot be used together"
	run -2 --separate-stderr sh-dist -v /dev/null -k 3 /dev/null
	eq "$stderr" "sh-dist: -v and -k cannot be used together"
	run -2 --separate-stderr sh-dist -p -x a b
	eq "$stderr" "sh-dist: -x and -p cannot be used together"
	run -2 --separate-stderr sh-dist -x -F -l a b
	eq "$stderr" "sh-dist: -F and -l cannot be used together"
	run -2 --separate-stderr sh-dist -v /dev/null -N 3 /dev/null
	eq "$stderr" "sh-dist: -v and -N cannot be used together"
	run -2 --separate-stderr sh-dist -v /dev/null -R /dev/null
	eq "$stderr" "sh-dist: -v and -R cannot be used together"
}

@test "-v -S: features past the budget go to TMPDIR, and back, the same bytes" {
	cd "$BATS_TEST_TMPDIR"
	# 4000 documents of 80 words: some 2.5 MB of 3-shingle hashes, past
	# a budget of 1M.
	awk 'BEGIN { srand(5); for (d = 1; d <= 4000; d++) { s = ""
	    for (i = 0; i < 80; i++) s = s " w" int(rand() * 500)
	    print "d" d "\t" s } }' >corpus
	awk 'BEGIN { srand(6); for (i = 0; i < 20000; i++)
	    printf "d%d\td%d\n", 1 + int(rand() * 4000),
		1 + int(rand() * 4000) }' >pairs
	for j in jaccard cosine edit; do
		sh-dist -v corpus -J $j pairs >big
		[ "$(wc -l <big)" -eq 20000 ]
		mkdir tmp
		TMPDIR=$PWD/tmp run -0 --separate-stderr sh-dist -v corpus \
		    -J $j -S 1M pairs
		eq "$output" "$(cat big)"
		eq "$stderr" ""
		# Unlinked at once: nothing left behind.
		eq "$(ls -A tmp)" ""
		rmdir tmp
		# No room for the file: documents are cut again instead.
		TMPDIR=$PWD/none run -0 --separate-stderr sh-dist -v corpus \
		    -J $j -S 1M pairs
		eq "$output" "$(cat big)"
	done
}

@test "-v -S: the features kept change no byte of the output" {
	cd "$BATS_TEST_TMPDIR"
	gen_corpus corpus
	cut -f 1 corpus >ids
	awk 'BEGIN { srand(3) } { id[NR] = $1 } END {
		for (i = 0; i < 3000; i++)
			printf "%s\t%s\n", id[1 + int(rand() * NR)],
			    id[1 + int(rand() * NR)] }' ids >pairs
	sh-dist -v corpus pairs >big
	[ -s big ]
	run -0 --separate-stderr sh-dist -v corpus -S 1M pairs
	eq "$output" "$(cat big)"
	run -2 --separate-stderr sh-dist -v corpus -S 10 pairs
	eq "$stderr" "sh-dist: -S 10: number out of range"
	run -2 --separate-stderr sh-dist -S 1M "$Z" "$Z"
	eq "$stderr" "sh-dist: -S: only with -v"
}
