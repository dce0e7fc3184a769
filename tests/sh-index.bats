#!/usr/bin/env bats
# sh-index and sh-near -i: the persistent index, its queries, its safety.

load helper

setup() {
	D=$BATS_TEST_TMPDIR
	printf '0000000000000000\ta\n0000000000000007\tb\n0000000000000000\tdup\nffffffffffffffff\td\n' >"$D/small.fp"
}

# dump_sorted INDEX: the index's lines, sorted.
dump_sorted() {
	sh-index dump "$1" | LC_ALL=C sort
}

@test "build, dump: the same lines as the input, as a set" {
	rand_fps "$D/r.fp" 3000 11
	cat "$D/small.fp" >>"$D/r.fp"
	run -0 --separate-stderr sh-index build "$D/ix" "$D/r.fp"
	eq "$output$stderr" ""
	dump_sorted "$D/ix" >"$D/got"
	LC_ALL=C sort "$D/r.fp" >"$D/want"
	same_files "$D/want" "$D/got"
	run -0 sh-index verify "$D/ix"
	eq "$output" ""
}

@test "an exact duplicate is stored once, with its IDs in input order" {
	sh-index build "$D/ix" "$D/small.fp"
	run -0 sh-index dump "$D/ix"
	eq "$output" "$(printf '0000000000000000\ta\n0000000000000000\tdup\n0000000000000007\tb\nffffffffffffffff\td')"
	run -0 sh-index info "$D/ix"
	eq "${lines[3]}" "$(printf 'fingerprints\t3')"
	eq "${lines[4]}" "$(printf 'ids\t4')"
}

@test "queries: every match once, ordered by distance, exit 0; none exits 1" {
	sh-index build "$D/ix" "$D/small.fp"
	printf '0000000000000001\tq1\n00000000ffff0000\tq2\nfffffffffffffff0\tq3\n' >"$D/q.fp"
	run -0 --separate-stderr sh-near -i "$D/ix" "$D/q.fp"
	eq "$output" "$(printf 'q1\ta\t1\nq1\tdup\t1\nq1\tb\t2\nq3\td\t4' | head -3)"
	run -0 sh-near -i "$D/ix" -k 4 "$D/q.fp"
	eq "$output" "$(printf 'q1\ta\t1\nq1\tdup\t1\nq1\tb\t2\nq3\td\t4')"
	run -1 sh-near -i "$D/ix" -k 0 "$D/q.fp"
	eq "$output" ""
}

@test "queries agree with brute force for k = 0..8, plans and segments" {
	rand_fps "$D/r.fp" 1200 5
	head -n 600 "$D/r.fp" >"$D/a.fp"
	tail -n 600 "$D/r.fp" >"$D/b.fp"
	# Queries: indexed lines, their planted neighbours, strangers.
	rand_fps "$D/q.fp" 300 9
	sed -n '1~4p' "$D/r.fp" | sed 's/\t/\tq/' >>"$D/q.fp"
	sh-index build "$D/one" "$D/r.fp"
	sh-index build -b 6 -r 2 "$D/forced" "$D/r.fp"
	sh-index build -E "$D/lean" "$D/r.fp"
	sh-index build -E -b 6 -r 2 "$D/leanforced" "$D/r.fp"
	sh-index build -E "$D/leanmany" </dev/null
	split -l 100 "$D/a.fp" "$D/part.a"
	split -l 100 "$D/b.fp" "$D/part.b"
	for f in "$D"/part.*; do
		sh-index add "$D/many" "$f"
		sh-index add "$D/leanmany" "$f"
	done
	for k in 0 1 2 3 4 5 6 7 8; do
		brute_query "$k" "$D/r.fp" "$D/q.fp" >"$D/want"
		[ "$k" -lt 3 ] || [ -s "$D/want" ]
		for ix in one forced many lean leanforced leanmany; do
			sh-near -i "$D/$ix" -k "$k" "$D/q.fp" | LC_ALL=C sort >"$D/got"
			same_files "$D/want" "$D/got"
		done
	done
	# Loaded into memory (-K): the same bytes.
	for ix in one forced many lean leanmany; do
		sh-near -i "$D/$ix" -k 4 "$D/q.fp" >"$D/mapped"
		sh-near -K -i "$D/$ix" -k 4 "$D/q.fp" >"$D/loaded"
		[ -s "$D/loaded" ]
		same_files "$D/mapped" "$D/loaded"
	done
}

@test "-E: lean segments, half the bytes, the same answers; kept by add" {
	rand_fps "$D/r.fp" 4000 4
	sh-index build "$D/full" "$D/r.fp"
	run -0 --separate-stderr sh-index build -E "$D/lean" "$D/r.fp"
	eq "$output$stderr" ""
	run -0 sh-index info "$D/lean"
	[[ "${lines[11]}" == *$'\tblocks=2\tkeyblocks=1\ttables=2\t'*$'\tlayout=lean' ]]
	lean=$(sed -n 's/^bytes\t//p' <<<"$output")
	full=$(sh-index info "$D/full" | sed -n 's/^bytes\t//p')
	[ "$((2 * lean))" -lt "$full" ]
	sh-index info "$D/full" | grep -q $'\tlayout=full$'
	run -0 sh-index verify "$D/lean"
	dump_sorted "$D/lean" >"$D/got"
	LC_ALL=C sort "$D/r.fp" >"$D/want"
	same_files "$D/want" "$D/got"
	head -n 1 "$D/lean/MANIFEST" | grep -qx 'sh-index 2'
	sed -n 2p "$D/lean/MANIFEST" | grep -q ' lean$'
	head -n 1 "$D/full/MANIFEST" | grep -qx 'sh-index 1'
	# add keeps the layout; -E belongs to build.
	rand_fps "$D/more.fp" 500 6
	sh-index add "$D/lean" "$D/more.fp"
	run -0 sh-index info "$D/lean"
	[ "$(grep -c $'\tlayout=lean$' <<<"$output")" -eq "$(grep -c $'^segment\t' <<<"$output")" ]
	run -2 --separate-stderr sh-index add -E "$D/lean" "$D/more.fp"
	eq "$stderr" "sh-index: -E: only with build"
}

@test "-S: a build in a small budget is one segment, the same bytes" {
	rand_fps "$D/r.fp" 60000 12
	sh-index build "$D/one" "$D/r.fp"
	sh-index build -S 1M "$D/small" "$D/r.fp"
	sh-index build -E "$D/leanone" "$D/r.fp"
	sh-index build -E -S 1M "$D/leansmall" "$D/r.fp"
	for ix in small leansmall; do
		run -0 sh-index info "$D/$ix"
		eq "$(grep -c $'^segment\t' <<<"$output")" 1
	done
	cmp "$D"/one/seg-* "$D"/small/seg-*
	cmp "$D"/leanone/seg-* "$D"/leansmall/seg-*
	# add keeps several segments, merged by size, with the same answers.
	sh-index add -S 1M "$D/grown" "$D/r.fp"
	run -0 sh-index info "$D/grown"
	[ "$(grep -c $'^segment\t' <<<"$output")" -gt 1 ]
	head -n 3000 "$D/r.fp" >"$D/q.fp"
	sh-near -i "$D/one" "$D/q.fp" >"$D/want"
	sh-near -i "$D/grown" "$D/q.fp" >"$D/got"
	same_files "$D/want" "$D/got"
}

@test "the output does not depend on how the index was grown" {
	rand_fps "$D/r.fp" 2000 3
	sh-index build "$D/one" "$D/r.fp"
	split -l 150 "$D/r.fp" "$D/part."
	for f in "$D"/part.*; do
		sh-index add "$D/many" "$f"
	done
	run -0 sh-index info "$D/many"
	[ "$(grep -c $'^segment\t' <<<"$output")" -gt 1 ]
	head -n 400 "$D/r.fp" >"$D/q.fp"
	sh-near -i "$D/one" -k 5 "$D/q.fp" >"$D/got.one"
	sh-near -i "$D/many" -k 5 "$D/q.fp" >"$D/got.many"
	[ -s "$D/got.one" ]
	same_files "$D/got.one" "$D/got.many"
}

@test "queries answer alike however the stream falls into batches" {
	# Batches grow from 16 queries to 65,536: the answers of a stream
	# that crosses their bounds are those of its two halves, each run
	# alone.
	rand_fps "$D/r.fp" 3000 6
	sh-index build "$D/ix" "$D/r.fp"
	awk 'BEGIN { srand(7); for (i = 0; i < 70000; i++) {
		s = ""; for (j = 0; j < 16; j++)
			s = s substr("0123456789abcdef", int(rand() * 16) + 1, 1)
		print s "\tq" i } }' >"$D/q.fp"
	# Every 20th query is an indexed fingerprint with a bit flipped.
	awk -F '\t' 'NR % 20 == 0 { print substr($1, 1, 15) (substr($1, 16) == "0" ? "1" : "0") "\tn" NR }' \
	    "$D/r.fp" >>"$D/q.fp"
	head -n 36000 "$D/q.fp" >"$D/q1.fp"
	tail -n +36001 "$D/q.fp" >"$D/q2.fp"
	sh-near -i "$D/ix" -k 4 "$D/q.fp" >"$D/got"
	# The first half, random fingerprints alone, may match nothing.
	sh-near -i "$D/ix" -k 4 "$D/q1.fp" >"$D/want" || [ $? -eq 1 ]
	sh-near -i "$D/ix" -k 4 "$D/q2.fp" >>"$D/want"
	[ "$(grep -c $'^n' "$D/got")" -ge 150 ]
	same_files "$D/want" "$D/got"
	# Queries with hundreds of matches each (the batch sizes follow
	# their matches): exact too.
	awk 'BEGIN { for (i = 0; i < 400; i++) printf "%016x\td%d\n", 3 * i, i }' >"$D/dense.fp"
	sh-index build "$D/dense" "$D/dense.fp"
	sed 's/\t/\tq/' "$D/dense.fp" >"$D/dq.fp"
	brute_query 9 "$D/dense.fp" "$D/dq.fp" >"$D/want"
	sh-near -i "$D/dense" -k 9 "$D/dq.fp" | LC_ALL=C sort >"$D/got"
	[ "$(wc -l <"$D/got")" -gt 40000 ]
	same_files "$D/want" "$D/got"
}

@test "an index written by an earlier release opens, verifies, answers, grows" {
	# tests/fixtures/v1.idx: tests/fixtures/v1.fp built by sh-index of
	# format 1 (sh-index(5)); it must stay readable as it is.
	cp -R "$FIXTURES/v1.idx" "$D/old"
	run -0 sh-index verify "$D/old"
	dump_sorted "$D/old" >"$D/got"
	LC_ALL=C sort "$FIXTURES/v1.fp" >"$D/want"
	same_files "$D/want" "$D/got"
	sed 's/\t/\tq/' "$FIXTURES/v1.fp" >"$D/q.fp"
	for k in 0 3 6; do
		brute_query "$k" "$FIXTURES/v1.fp" "$D/q.fp" >"$D/want"
		sh-near -i "$D/old" -k "$k" "$D/q.fp" | LC_ALL=C sort >"$D/got"
		same_files "$D/want" "$D/got"
	done
	printf '0123456789abcdef\tnew\n' | sh-index add "$D/old"
	run -0 sh-index verify "$D/old"
	[ "$(sh-index dump "$D/old" | wc -l)" -eq 601 ]
}

@test "add merges segments by size: few segments, all lines kept" {
	rand_fps "$D/r.fp" 3200 8
	split -l 100 "$D/r.fp" "$D/part."
	for f in "$D"/part.*; do
		sh-index add "$D/ix" "$f"
	done
	run -0 sh-index info "$D/ix"
	n=$(grep -c $'^segment\t' <<<"$output")
	[ "$n" -ge 1 ] && [ "$n" -le 5 ]
	[ "$(ls "$D/ix" | grep -c '^seg-')" -eq "$n" ]
	dump_sorted "$D/ix" >"$D/got"
	LC_ALL=C sort "$D/r.fp" >"$D/want"
	same_files "$D/want" "$D/got"
	sh-index verify "$D/ix"
}

@test "build refuses an existing index unless -f; -f replaces it" {
	sh-index build "$D/ix" "$D/small.fp"
	run -2 --separate-stderr sh-index build "$D/ix" "$D/small.fp"
	eq "$stderr" "sh-index: $D/ix: index exists (use -O to replace it)"
	printf '1111111111111111\tnew\n' | sh-index build -O "$D/ix"
	run -0 sh-index dump "$D/ix"
	eq "$output" "$(printf '1111111111111111\tnew')"
	[ "$(ls "$D/ix" | grep -c '^seg-')" -eq 1 ]
}

@test "a directory that is not an index is never touched" {
	mkdir "$D/docs"
	echo keep >"$D/docs/notes.txt"
	for verb in build add; do
		run -2 --separate-stderr sh-index "$verb" "$D/docs" "$D/small.fp"
		eq "$stderr" "sh-index: $D/docs: not an sh index"
	done
	eq "$(ls "$D/docs")" notes.txt
	run -2 --separate-stderr sh-near -i "$D/docs" "$D/small.fp"
	eq "$stderr" "sh-near: $D/docs: not an sh index"
	run -2 --separate-stderr sh-near -i "$D/nothing" "$D/small.fp"
	eq "$stderr" "sh-near: $D/nothing: No such file or directory"
}

@test "empty input: an empty index that answers nothing" {
	run -0 sh-index build "$D/ix" </dev/null
	run -0 sh-index info "$D/ix"
	eq "${lines[3]}" "$(printf 'fingerprints\t0')"
	eq "${lines[5]}" "$(printf 'deleted_fingerprints\t0')"
	eq "${lines[7]}" "$(printf 'segments\t0')"
	run -0 sh-index dump "$D/ix"
	eq "$output" ""
	run -1 sh-near -i "$D/ix" "$D/small.fp"
	eq "$output" ""
	run -0 sh-index add "$D/ix" </dev/null
	run -0 sh-near -i "$D/ix" -u "$D/small.fp"
	eq "$output" "$(printf '0000000000000000\ta\nffffffffffffffff\td')"
	run -1 sh-near -i "$D/ix" </dev/null
}

@test "bad input lines: reported, nothing written" {
	sh-index build "$D/ix" "$D/small.fp"
	dump_sorted "$D/ix" >"$D/before"
	printf '2222222222222222\tok\nnot hex\tx\n22\ty\n' >"$D/bad.fp"
	run -2 --separate-stderr sh-index add "$D/ix" "$D/bad.fp" "$D/missing"
	eq "$stderr" "$(printf '%s\n' \
	    "sh-index: $D/bad.fp:2: fingerprint is not 16 hex digits" \
	    "sh-index: $D/bad.fp:3: fingerprint is not 16 hex digits" \
	    "sh-index: $D/missing: No such file or directory" \
	    "sh-index: $D/ix: not written: the input has errors")"
	dump_sorted "$D/ix" >"$D/after"
	same_files "$D/before" "$D/after"
}

@test "-k: served distance is the query default; add must agree" {
	printf '000000000000001f\tfive\n' | sh-index build -k 5 "$D/ix"
	run -0 sh-near -i "$D/ix" "$D/small.fp"
	eq "$output" "$(printf 'a\tfive\t5\nb\tfive\t2\ndup\tfive\t5')"
	run -2 --separate-stderr sh-index add -k 3 "$D/ix" "$D/small.fp"
	eq "$stderr" "sh-index: $D/ix: index was built for another -k"
	run -0 sh-index add -k 5 "$D/ix" "$D/small.fp"
}

@test "-u with -i drops lines near the index or near a passed line" {
	sh-index build "$D/ix" "$D/small.fp"
	printf '000000000000000f\tnear-b\n0f0f0f0f0f0f0f0f\tnew\n0f0f0f0f0f0f0f0e\tnew-copy\n' >"$D/in.fp"
	run -0 sh-near -u -i "$D/ix" "$D/in.fp"
	eq "$output" "$(printf '0f0f0f0f0f0f0f0f\tnew')"
	run -0 sh-near -u -K -i "$D/ix" "$D/in.fp"
	eq "$output" "$(printf '0f0f0f0f0f0f0f0f\tnew')"
}

@test "-u -i over a long stream: what -u keeps of the lines the index does not match" {
	# The index part is looked up in batches; -u alone judges each line
	# as it comes.
	rand_fps "$D/r.fp" 3000 6
	sh-index build "$D/ix" "$D/r.fp"
	rand_fps "$D/in.fp" 30000 12
	awk 'NR % 10 == 0' "$D/r.fp" | sed 's/\t/\tx/' >>"$D/in.fp"
	sh-near -i "$D/ix" "$D/in.fp" | cut -f 1 | sort -u >"$D/matched"
	[ "$(wc -l <"$D/matched")" -ge 300 ]
	awk -F '\t' 'NR == FNR { m[$1]; next } !($2 in m)' "$D/matched" "$D/in.fp" |
	    sh-near -u >"$D/want"
	sh-near -u -i "$D/ix" "$D/in.fp" >"$D/got"
	[ "$(wc -l <"$D/got")" -gt 10000 ]
	same_files "$D/want" "$D/got"
}

@test "a lone segment file is an index too" {
	sh-index build "$D/ix" "$D/small.fp"
	seg=$(ls "$D"/ix/seg-*)
	run -0 sh-near -i "$seg" -k 0 "$D/small.fp"
	eq "${lines[0]}" "$(printf 'a\ta\t0')"
	run -0 sh-index verify "$seg"
}

@test "usage errors exit 2" {
	run -2 --separate-stderr sh-index
	eq "${stderr_lines[0]}" "usage: sh-index build [-EO] [-b blocks -r keyblocks] [-k max] [-P shard/shards]"
	run -2 sh-index frobnicate "$D/ix"
	run -2 sh-index build
	run -2 --separate-stderr sh-index add -O "$D/ix"
	eq "$stderr" "sh-index: -O: only with build"
	run -2 --separate-stderr sh-index add -b 4 -r 1 "$D/ix"
	eq "$stderr" "sh-index: -b: only with build"
	run -2 --separate-stderr sh-index build -b 4 "$D/ix"
	eq "$stderr" "sh-index: -b: only with -r"
	run -2 --separate-stderr sh-index build -r 1 "$D/ix"
	eq "$stderr" "sh-index: -r: only with -b"
	run -2 --separate-stderr sh-index info -k 3 "$D/ix"
	eq "$stderr" "sh-index: -k: only with build or add"
	run -2 --separate-stderr sh-index dump -S 1M "$D/ix"
	eq "$stderr" "sh-index: -S: only with build or add"
	run -2 sh-index info "$D/ix" extra
	run -2 --separate-stderr sh-index build -k 17 "$D/ix"
	eq "$stderr" "sh-index: -k 17: number out of range"
	run -2 --separate-stderr sh-index build -b 20 -r 10 "$D/ix"
	eq "$stderr" "sh-index: -b 20 -r 10: number out of range"
	run -2 sh-near -g -i "$D/ix"
	[ ! -e "$D/ix" ]
	run -2 --separate-stderr sh-near -K "$D/small.fp"
	eq "$stderr" "sh-near: -K: only with -i"
}
