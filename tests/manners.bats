#!/usr/bin/env bats
# What every program answers alike: -h and --help print the usage to
# stdout with status 0, -V and --version the toolkit's and the
# fingerprint's versions.

load helper

TOOLS='sh-dist sh-fp sh-index sh-near sh-tokenize'

# The rules are shown on the features of fingerprint version 1: single
# words, CJK bigrams, term frequency.
V1='-n 2 -w 1 -W tf'

# The option letters of each tool; with the document options for those
# that read documents.
DOCLETTERS='A C F H I M T X e f l y D W d n s w z'
declare -A LETTERS=(
	[sh-dist]="J N R S V a h k p q t v x $DOCLETTERS"
	[sh-fp]="B L P U V c h j t $DOCLETTERS"
	[sh-index]="E J O P S T V a b f h k o r t u v"
	[sh-near]="B E J K L P R S V a g h i j k m r t u v $DOCLETTERS"
	[sh-tokenize]="Q U V c h m $DOCLETTERS"
)

@test "-h and --help: the usage of a usage error, then each option in a line, on stdout, status 0" {
	for t in $TOOLS; do
		run -2 --separate-stderr "$t" -9 </dev/null
		usage=$(printf '%s\n' "${stderr_lines[@]}" | sed -n '/^usage: /,$p')
		[ -n "$usage" ]
		run -0 --separate-stderr "$t" -h
		[[ $output == "$usage"$'\n\nOptions:\n'* ]]
		[[ $output == *$'\n'"See $t(1) for the rest." ]]
		eq "$stderr" ""
		help=$output
		for l in ${LETTERS[$t]}; do
			grep -qE -- "(^|  )-$l( |$)" <<<"$help" ||
			    { echo "$t -h: no line for -$l"; return 1; }
		done
		# One line each: none wider than 80 columns.
		[ "$(awk 'length > 80' <<<"$help" | wc -l)" -eq 0 ]
		run -0 --separate-stderr "$t" --help
		eq "$output" "$help"
		eq "$stderr" ""
	done
}

@test "--help and --version anywhere before --, then an operand" {
	run -0 --separate-stderr sh-fp -l -n 3 --help nofile
	eq "${lines[0]}" "usage: sh-fp [-12ABceFGHltXz] [-C charset] [-D idf] [-d dict] [-f format]"
	run -0 --separate-stderr sh-near -k 2 nofile --version
	eq "$output" "sh-near (sh) 0.12.0, fingerprint version 3, sketch version 1"
	run -2 --separate-stderr sh-near -- --help
	eq "$output" ""
	eq "$stderr" "sh-near: --help: No such file or directory"
	run -0 --separate-stderr sh-index build -h
	eq "${lines[0]}" "usage: sh-index build [-EO] [-b blocks -r keyblocks] [-k max] [-P shard/shards]"
}

@test "-V and --version: toolkit and fingerprint versions" {
	for t in $TOOLS; do
		run -0 --separate-stderr "$t" -V
		eq "$output" "$t (sh) 0.12.0, fingerprint version 3, sketch version 1"
		eq "$stderr" ""
		run -0 --separate-stderr "$t" --version
		eq "$output" "$t (sh) 0.12.0, fingerprint version 3, sketch version 1"
	done
}

@test "-h and -V on a full disk: status 2" {
	for t in $TOOLS; do
		run -2 --separate-stderr sh -c "$t -h >/dev/full"
		eq "$stderr" "$t: stdout: No space left on device"
		run -2 --separate-stderr sh -c "$t -V >/dev/full"
		eq "$stderr" "$t: stdout: No space left on device"
	done
}

@test "renamed options: the old spelling works, with a warning" {
	local d=$BATS_TEST_TMPDIR
	printf '0000000000000000\ta\n0000000000000001\tb\n' >"$d/f"
	run -0 --separate-stderr sh-near -c "$d/f"
	eq "$output" "$(sh-near -g "$d/f")"
	eq "$stderr" "sh-near: -c is now -g; -c goes in the next release"
	run -0 --separate-stderr sh-dist -r 0000000000000000 0000000000000001
	eq "$output" "0.984375"
	eq "$stderr" "sh-dist: -r is now -R; -r goes in the next release"
	printf 'a\tx y\nb\tx y z\n' >"$d/t"
	printf 'a\tb\n' >"$d/p"
	run -0 --separate-stderr sh-dist $V1 -v "$d/t" -m containment "$d/p"
	eq "$output" "$(printf 'a\tb\t1.000000')"
	eq "$stderr" "sh-dist: -m is now -J; -m goes in the next release"
	run -0 --separate-stderr sh-fp $V1 -m 5 "$d/t"
	eq "${stderr_lines[0]}" "sh-fp: -m is now -L; -m goes in the next release"
	eq "${stderr_lines[1]}" "sh-fp: 2 of 2 document(s) with fewer than 5 features: short, see sh-fp(1)"
	sh-index build "$d/ix" "$d/f"
	run -0 --separate-stderr sh-index build -f "$d/ix" "$d/f"
	eq "$stderr" "sh-index: -f is now -O; -f goes in the next release"
}

@test "--progress: reports on stderr, output unchanged; nothing without it" {
	local d=$BATS_TEST_TMPDIR
	printf '0000000000000000\ta\n0000000000000001\tb\n' >"$d/f"
	run -0 --separate-stderr sh-near --progress "$d/f"
	eq "$output" "$(printf 'a\tb\t1')"
	eq "$stderr" "sh-near: table 4 of 4"
	run -0 --separate-stderr sh-near -S 1M "$d/f" --progress
	eq "$stderr" "sh-near: table 4 of 4"
	run -1 --separate-stderr sh-near -P 1/4 --progress "$d/f"
	eq "$stderr" "sh-near: table 1 of 1"
	run -0 --separate-stderr sh-near "$d/f"
	eq "$stderr" ""
	run -0 --separate-stderr sh-index build --progress "$d/ix" "$d/f"
	eq "$stderr" "sh-index: table 1 of 1"
	eq "$(sh-index dump "$d/ix")" "$(cat "$d/f")"
	# -K: the load's time, then the answers as without -K.
	run -0 --separate-stderr sh-near --progress -K -i "$d/ix" "$d/f"
	eq "$output" "$(sh-near -i "$d/ix" "$d/f")"
	[[ $stderr =~ ^sh-near:\ index\ loaded\ in\ [0-9]+\.[0-9]{3}\ s$ ]]
	run -0 --separate-stderr sh-near -K -i "$d/ix" "$d/f"
	eq "$stderr" ""
	printf 'a\tone two\n' >"$d/t"
	for t in sh-fp sh-tokenize; do
		run -0 --separate-stderr "$t" --progress "$d/t"
		eq "$output" "$("$t" "$d/t")"
		eq "$stderr" ""
	done
	run -2 --separate-stderr sh-near -- --progress
	eq "$stderr" "sh-near: --progress: No such file or directory"
}

@test "a flood of bad lines: ten messages of a kind, then their count; a hint when the input is another format" {
	local d=$BATS_TEST_TMPDIR t
	yes 'no fingerprint here' | head -n 5000 >"$d/bad"
	for t in sh-near sh-index; do
		if [ "$t" = sh-near ]; then
			run -2 --separate-stderr sh-near "$d/bad"
		else
			run -2 --separate-stderr sh-index build "$d/ix" "$d/bad"
		fi
		eq "$(printf '%s\n' "$stderr" | head -n 10 | sed 's/:[0-9]*:/:N:/' |
		    sort -u)" "$t: $d/bad:N: too few fields"
		eq "$(printf '%s\n' "$stderr" | sed -n 11p)" \
		    "$t: and 4990 more: too few fields"
	done
	# WARC, JSON Lines, binary at the first line: one line says what it
	# looks like, and the file is read no further.
	printf 'WARC/1.0\r\nWARC-Type: warcinfo\r\n\r\n' >"$d/w"
	run -2 --separate-stderr sh-near "$d/w"
	eq "$stderr" \
	    "sh-near: $d/w: the input looks like WARC: fingerprint it first (sh-fp -f warc)"
	printf '{"id": "a", "text": "b"}\n' >"$d/j"
	run -2 --separate-stderr sh-index build "$d/jx" "$d/j"
	eq "${stderr_lines[0]}" \
	    "sh-index: $d/j: the input looks like JSON Lines: fingerprint it first (sh-fp -f jsonl)"
	printf 'ab\001\002\003\004\005\006\007\010\016\017\020\021\022\023\024\n' >"$d/b"
	run -2 --separate-stderr sh-near <"$d/b"
	eq "$stderr" "sh-near: <stdin>: the input looks like binary data, not text"
	# Past the first line, a hint once, and the lines go on.
	{ printf '0123456789abcdef\tok\n'; cat "$d/w"; } >"$d/w2"
	run -2 --separate-stderr sh-near "$d/w2"
	eq "${stderr_lines[1]}" \
	    "sh-near: $d/w2: the input looks like WARC: fingerprint it first (sh-fp -f warc)"
	# sh-dist -v: a missing document, pair after pair.
	printf 'a\tone two three\n' >"$d/docs"
	yes "$(printf 'a\tzz')" | head -n 40 >"$d/pairs"
	run -2 --separate-stderr sh-dist -v "$d/docs" "$d/pairs"
	eq "$(printf '%s\n' "$stderr" | wc -l)" 11
	eq "$(printf '%s\n' "$stderr" | tail -n 1)" "sh-dist: and 30 more: no such document"
}

@test "a wrong framing, in every tool: at most 20 lines on stderr, a hint, exit 2" {
	local d=$BATS_TEST_TMPDIR c n
	for n in $(seq 100); do
		zcat "$FIXTURES/crawl.warc.gz"
	done >"$d/crawl.warc"
	sh-fp -f warc "$d/crawl.warc" >"$d/crawl.fp"
	sh-index build "$d/ix" "$d/crawl.fp"
	for c in "sh-fp $d/crawl.warc" "sh-fp -t $d/crawl.warc" \
	    "sh-fp -f jsonl $d/crawl.warc" "sh-tokenize $d/crawl.warc" \
	    "sh-tokenize -f jsonl $d/crawl.warc" \
	    "sh-dist -p $d/crawl.warc" "sh-near $d/crawl.warc" \
	    "sh-near -i $d/ix $d/crawl.warc" \
	    "sh-index build $d/ix2 $d/crawl.warc" \
	    "sh-index add $d/ix $d/crawl.warc" \
	    "sh-near -v $d/crawl.warc $d/crawl.fp" \
	    "sh-near -v $d/crawl.warc -a 0.8 $d/crawl.fp"; do
		run -2 --separate-stderr $c
		[ "${#stderr_lines[@]}" -le 20 ] ||
		    { echo "$c: ${#stderr_lines[@]} lines"; return 1; }
		[[ $stderr == *"looks like WARC"* || $stderr == *"look like WARC"* ]] ||
		    { echo "$c: no hint: $stderr"; return 1; }
	done
	run -2 --separate-stderr sh-near -v "$d/crawl.warc" "$d/crawl.fp"
	[[ $stderr == *"sh-near: $d/crawl.warc: the documents look like WARC: read them with -f warc"* ]]
}

@test "sh-index: a word that is no verb, an unknown option after one: said, with the usage" {
	run -2 --separate-stderr sh-index frob x
	eq "${stderr%%$'\n'*}" "sh-index: frob: not a verb: build, add, delete, expire, merge, info, dump or verify"
	[[ "$stderr" == *"usage: sh-index build"* ]]
	run -2 --separate-stderr sh-index -Q
	eq "${stderr%%$'\n'*}" "sh-index: -Q: not a verb: build, add, delete, expire, merge, info, dump or verify"
	run -2 --separate-stderr sh-index build -Q x
	eq "${stderr%%$'\n'*}" "sh-index: invalid option -- 'Q'"
}

@test "a TMPDIR that cannot be written is named" {
	local d=$BATS_TEST_TMPDIR
	printf '0123456789abcdef\ta\n' >"$d/f"
	run -2 --separate-stderr env TMPDIR="$d/none" sh-near -S 1M "$d/f"
	eq "$stderr" "sh-near: $d/none: temporary file: No such file or directory"
}
