#!/usr/bin/env bats
# Input plainly of another format than the one read stops at its first
# line, in every tool and every framing: exit 2, nothing on stdout, one
# line on stderr saying what it looks like and what reads it.

load helper

setup() {
	D=$BATS_TEST_TMPDIR
	printf 'a\tthe cat sat on the mat\nb\tthe cat sat on a mat\n' >"$D/docs"
	zcat "$FIXTURES/crawl.warc.gz" >"$D/warc"
	printf '{"id": "a", "text": "the cat sat on the mat"}\n' >"$D/jsonl"
	printf 'ab\001\002\003\004\005\006\007\010\016\017\020\021\022\023\024\n' >"$D/binary"
	printf '\177ELF\002\001\001\000\000\000\000\000\n' >"$D/elf"
	# Compressed files are read decoded, and told by what they hold.
	cp "$FIXTURES/crawl.warc.gz" "$D/gzip"
	bzip2 -c "$D/elf" >"$D/bzip2"
	xz -c "$D/binary" >"$D/xz"
	zstd -q -c "$D/binary" >"$D/zstd"
	sh-fp "$D/docs" >"$D/fp"
	sh-fp -B "$D/docs" >"$D/fpb"
	sh-fp -c "$D/docs" >"$D/fpc"
	printf 'a\tb\t7\n' >"$D/pairs"
	printf 'a\tb\t7\t0.500000\n' >"$D/simpairs"
	sh-index build "$D/ix" "$D/fp"
}

# The message about a file of format $2 read as $1: d documents, f
# fingerprint lines, p pairs of fingerprints (sh-dist -p), q pairs of
# IDs (sh-dist -v).
message() {
	local as=$1 f=$2 look
	# What a compressed file holds: a WARC, an ELF file, binary bytes.
	case $f in
	gzip) f=warc ;;
	bzip2) f=elf ;;
	xz|zstd) f=binary ;;
	esac
	[ "$as" = d ] && look="the documents look like" ||
	    look="the input looks like"
	case $as$f in
	?binary|?elf) echo "$look binary data, not text" ;;
	dwarc) echo "$look WARC: read them with -f warc" ;;
	?warc) echo "$look WARC: fingerprint it first (sh-fp -f warc)" ;;
	djsonl) echo "$look JSON Lines: read them with -f jsonl (-I and -T name the fields)" ;;
	?jsonl) echo "$look JSON Lines: fingerprint it first (sh-fp -f jsonl)" ;;
	dfp*) echo "$look fingerprint lines: sh-near and sh-index read them" ;;
	?fp*) echo "$look fingerprint lines: sh-near finds their pairs" ;;
	ppairs|psimpairs) echo "$look pairs of IDs: sh-dist -v reads them" ;;
	?pairs|?simpairs) echo "$look pairs of IDs: sh-dist -v and sh-near -m read them" ;;
	ddocs) echo "$look ID<TAB>TEXT lines: read them without -f" ;;
	qdocs) echo "$look documents: -v names them, the input is pairs of IDs (sh-near prints them)" ;;
	?docs) echo "$look documents: fingerprint them first (sh-fp)" ;;
	esac
}

# check AS "COMMAND WITH @ FOR THE FILE" FORMAT...: each format's file in
# the command's place of @ stops the command at once.
check() {
	local as=$1 cmd=$2 f c want
	shift 2
	for f in "$@"; do
		cp "$D/$f" "$D/in"
		c=${cmd//@/$D/in}
		run --separate-stderr $c
		want="${c%% *}: $D/in: $(message "$as" "$f")"
		[ "$status" -eq 2 ] && [ -z "$output" ] &&
		    [ "${stderr_lines[0]}" = "$want" ] ||
		    { printf '%s on %s: exit %s\nstdout: %s\nstderr: %s\nwanted: %s\n' \
		    "$c" "$f" "$status" "$output" "$stderr" "$want"; return 1; }
		# One line; sh-index says it wrote no index.
		case $c in
		sh-index*) eq "${stderr_lines[1]}" "sh-index: $D/ix2: not written: the input has errors" ;;
		*) [ "${#stderr_lines[@]}" -eq 1 ] ||
		    { echo "$c on $f: $stderr"; return 1; } ;;
		esac
	done
}

Z='gzip bzip2 xz zstd binary elf'

@test "documents read as ID<TAB>TEXT lines: sh-fp, sh-fp -t, sh-tokenize" {
	check d 'sh-fp @' $Z warc jsonl fp fpb fpc pairs simpairs
	check d 'sh-tokenize @' $Z warc jsonl fp fpb fpc pairs simpairs
	check d 'sh-fp -t @' $Z warc jsonl fp fpb pairs simpairs
}

@test "documents read as lines, paragraphs, NUL records: WARC, fingerprints, pairs" {
	local f
	for f in -l '-f para' '-f nul'; do
		check d "sh-fp $f @" $Z warc fp fpb pairs
		check d "sh-tokenize $f @" $Z warc fp fpb pairs
	done
	# A JSON line is a line of text.
	run -0 sh-fp -l "$D/jsonl"
}

@test "documents read as JSON Lines, WARC, whole files" {
	check d 'sh-fp -f jsonl @' $Z warc docs fp fpb pairs
	check d 'sh-tokenize -f jsonl @' $Z warc docs fp fpb pairs
	check d 'sh-fp -f warc @' ${Z#gzip } jsonl docs fp fpb pairs
	check d 'sh-fp -F @' gzip warc
	check d 'sh-fp -P 1/2 -f warc @' jsonl docs fp
	check d 'sh-fp -P 1/2 @' warc jsonl fp binary
}

@test "documents to verify against: sh-near -v, sh-dist -v" {
	check d "sh-near -v @ $D/fp" $Z warc jsonl fp fpb pairs
	check d "sh-near -v @ -a 0.5 $D/fpb" warc jsonl fp pairs
	check d "sh-dist -v @ $D/pairs" $Z warc jsonl fp fpb pairs
}

@test "fingerprint lines: sh-near, sh-near -i, sh-index build and add" {
	check f 'sh-near @' $Z warc jsonl docs pairs simpairs
	check f "sh-near -i $D/ix @" $Z warc jsonl docs pairs simpairs
	check f "sh-index build $D/ix2 @" $Z warc jsonl docs pairs
	cp -r "$D/ix" "$D/ix2"
	check f "sh-index add $D/ix2 @" $Z warc jsonl docs pairs
	# On a pipe too.
	run -2 --separate-stderr sh -c "cat '$D/warc' | sh-near"
	eq "$output" ""
	eq "$stderr" "sh-near: <stdin>: the input looks like WARC: fingerprint it first (sh-fp -f warc)"
}

@test "pairs: sh-dist -p reads fingerprint pairs, sh-dist -v pairs of IDs" {
	check p 'sh-dist -p @' $Z warc jsonl docs fp fpb pairs simpairs
	check q "sh-dist -v $D/docs @" $Z warc jsonl docs fp fpb
}

@test "another file still read; a file merely bad goes on, line by line" {
	run -2 --separate-stderr sh-fp "$D/warc" "$D/docs"
	eq "$output" "$(sh-fp "$D/docs")"
	eq "${#lines[@]}" 2
	eq "$stderr" "sh-fp: $D/warc: the documents look like WARC: read them with -f warc"
	printf 'no tab here\na\tthe cat sat\n' >"$D/bad"
	run -2 --separate-stderr sh-fp "$D/bad"
	eq "${#lines[@]}" 1
	eq "$stderr" "sh-fp: $D/bad:1: missing TAB after ID"
	printf 'not a fingerprint\n0123456789abcdef\tx\n' >"$D/badfp"
	run -2 --separate-stderr sh-near "$D/badfp"
	eq "$stderr" "sh-near: $D/badfp:1: too few fields"
}

@test "a compressed file whose decompressor fails: its message, one line" {
	printf 'BZh91AY&SY\001\002\003\n' >"$D/in"
	run -2 --separate-stderr sh-fp "$D/in"
	eq "$output" ""
	[[ $stderr == "sh-fp: $D/in: bzip2: "* ]]
	eq "${#stderr_lines[@]}" 1
	printf '\3757zXZ\000\000\004\346\326\264F\n' >"$D/in"
	run -2 --separate-stderr sh-near "$D/in"
	eq "$output" ""
	[[ $stderr == "sh-near: $D/in: xz: "* ]]
	eq "${#stderr_lines[@]}" 1
}

@test "a compressed file that holds compressed data: said once, what decompresses it" {
	xz -c "$FIXTURES/crawl.warc.gz" >"$D/in"
	run -2 --separate-stderr sh-near "$D/in"
	eq "$output" ""
	eq "$stderr" "sh-near: $D/in: gzip-compressed: decompress it first (zcat)"
	zstd -q -c "$D/xz" >"$D/in"
	run -2 --separate-stderr sh-fp -f warc "$D/in"
	eq "$stderr" "sh-fp: $D/in: xz-compressed: decompress it first (xzcat)"
}
