#!/usr/bin/env bats
# sh-dist: Hamming distance or similarity of two fingerprints, or of the
# first two fields of every input line; -v verifies candidate pairs of
# documents by exact similarity; -x explains a distance.

load helper

USAGE='usage: sh-dist [-qr] [-k max] fingerprint fingerprint
       sh-dist -p [-qr] [-k max] [file ...]
       sh-dist -v docs [-qt] [-a min] [-m measure] [document option ...] [file ...]
       sh-dist -x [-t] [-N count] [document option ...] doc1 doc2'
Z=0000000000000000
F=ffffffffffffffff

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
	run -0 --separate-stderr sh-dist -r "$Z" 0000000000000007
	eq "$output" "0.953125"
	run -0 --separate-stderr sh-dist -r "$Z" "$Z"
	eq "$output" "1.000000"
	run -0 --separate-stderr sh-dist -r "$Z" "$F"
	eq "$output" "0.000000"
	run -0 --separate-stderr sh-dist -r "$Z" 0000000000000001
	eq "$output" "0.984375"
	run -0 --separate-stderr sh-dist -r "$Z" 7fffffffffffffff
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
	run -1 --separate-stderr sh-dist -r -k 0 "$Z" 0000000000000001
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
	    'printf "%s\t%s\tx\n" "$1" "$1" "$1" "$2" | sh-dist -pr' sh "$Z" "$F"
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
	eq "$stderr" "sh-dist: nul:1: fingerprint is not 16 hex digits"
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
	sh-fp "$FIXTURES/vectors.in" 2>/dev/null | sed -n '1,3p' >fps
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
