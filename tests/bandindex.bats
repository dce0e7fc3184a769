#!/usr/bin/env bats
# Indexes of band tables (sh-index build -a): built and grown from
# sketch lines, queried by sh-near -i at a stated similarity, verified,
# filtered with -u; their files checked like those of fingerprint tables.

load helper

F='-w 3 -W binary'

setup_file() {
	local d="$BATS_FILE_TMPDIR"
	near_copies "$d/docs" 60 11
	sh-fp -B $F "$d/docs" >"$d/fpb"
	# Indexed: the odd lines; queries: the even ones.
	awk 'NR % 2' "$d/fpb" >"$d/old"
	awk 'NR % 2 == 0' "$d/fpb" >"$d/new"
	all_pairs "$d/docs" | sh-dist -v "$d/docs" $F >"$d/sim"
	sh-index build -a 0.8 "$d/ix" "$d/old"
}

# truth T: the pairs (query, indexed) at or above T, sorted.
truth() {
	local d="$BATS_FILE_TMPDIR"
	awk -F '\t' -v t="$1" 'FILENAME == ARGV[1] { old[$2] = 1; next }
	    FILENAME == ARGV[2] { new[$2] = 1; next }
	    $3 >= t && ($1 in new) && ($2 in old) { print $1 "\t" $2 }
	    $3 >= t && ($2 in new) && ($1 in old) { print $2 "\t" $1 }' \
	    "$d/old" "$d/new" "$d/sim" | LC_ALL=C sort
}

@test "sh-index build -a: the plan in info, one segment, verify passes, dump gives the lines' fingerprints and IDs" {
	local d="$BATS_FILE_TMPDIR"
	run -0 sh-index info "$d/ix"
	eq "$(sed -n 2,10p <<<"$output")" "$(printf 'similarity\t0.800000
bands\t16
rows\t6
shard\t0/1
fingerprints\t120
ids\t120
deleted_fingerprints\t0
deleted_ids\t0
segments\t1')"
	grep -q $'^segment\tseg-000001\tfingerprints=120\tids=120\tdeleted=0\tbands=16\trows=6\ttables=16\tdirbits=5\tbytes=[0-9]*\tlayout=bands$' <<<"$output"
	sh-index verify "$d/ix"
	sh-index dump "$d/ix" | same_files <(cut -f 1,2 "$d/old") -
	run -0 cat "$d/ix/MANIFEST"
	eq "$(head -n 2 <<<"$output")" "$(printf 'sh-index 3\nbands 800000 16 6 shard 0 1 next 2')"
}

@test "sh-near -i -v -a: the indexed documents at or above t, each verified, at least 0.97 of them" {
	local d="$BATS_FILE_TMPDIR" t want got
	for t in 0.8 0.9; do
		truth "$t" >"$d/want"
		run -0 --separate-stderr sh-near -i "$d/ix" -v "$d/docs" $F \
		    -a "$t" "$d/new"
		eq "$stderr" ""
		printf '%s\n' "$output" | cut -f 1,2 | LC_ALL=C sort >"$d/got"
		# Each pair printed is true, with its exact similarity.
		comm -13 "$d/want" "$d/got" | same_files /dev/null -
		awk -F '\t' 'NR == FNR { s[$1 "\t" $2] = $3; next }
		    !(($1 "\t" $2) in s) && !(($2 "\t" $1) in s) ||
		    (s[$1 "\t" $2] s[$2 "\t" $1]) != $4 { print; bad = 1 }
		    END { exit bad }' "$d/sim" <(printf '%s\n' "$output")
		want=$(wc -l <"$d/want")
		got=$(wc -l <"$d/got")
		echo "t $t: $got of $want"
		[ "$want" -gt 20 ]
		[ $((got * 100)) -ge $((want * 97)) ]
	done
}

@test "sh-near -i: without -v, the candidates: every pair whose sketches agree in a band, their distance" {
	local d="$BATS_FILE_TMPDIR"
	run -0 sh-near -i "$d/ix" "$d/new"
	printf '%s\n' "$output" >"$d/cand"
	# The verified pairs are among them, with the same distance.
	sh-near -i "$d/ix" -v "$d/docs" $F -a 0.8 "$d/new" | cut -f 1-3 |
	    LC_ALL=C sort >"$d/ver"
	LC_ALL=C sort "$d/cand" | comm -23 "$d/ver" - | same_files /dev/null -
	# The first query's lines: its candidates, in the order entered.
	awk -F '\t' 'NR == 1 { print $2 }' "$d/new" >"$d/q1"
	[ "$(grep -c -F -f "$d/q1" "$d/cand")" -ge 1 ]
}

@test "sh-index add: batches merge into the same answers; the same bytes as one build" {
	local d="$BATS_FILE_TMPDIR"
	head -n 50 "$d/old" | sh-index build -a 0.8 "$d/grown"
	sed -n 51,110p "$d/old" | sh-index add "$d/grown"
	sed -n '111,$p' "$d/old" | sh-index add "$d/grown" -
	run -0 sh-index info "$d/grown"
	grep -q $'^segments\t' <<<"$output"
	sh-index verify "$d/grown"
	sh-index dump "$d/grown" | same_files <(cut -f 1,2 "$d/old") -
	sh-near -i "$d/ix" -v "$d/docs" $F -a 0.8 "$d/new" >"$d/one"
	sh-near -i "$d/grown" -v "$d/docs" $F -a 0.8 "$d/new" |
	    same_files "$d/one" -
	# Rebuilt: one segment, byte for byte the first build's.
	sh-index build -O -a 0.8 "$d/grown" "$d/old"
	cmp "$d/ix/seg-000001" "$d/grown/$(ls "$d/grown" | grep seg-)"
}

@test "sh-near -u -i: the lines with no match in the index nor before them, with and without -v" {
	local d="$BATS_FILE_TMPDIR" t
	for t in 0.8 0.9; do
		# Brute force: a line goes when a pair at t joins it to the
		# index or to a line kept before it.
		awk -F '\t' -v t="$t" 'FILENAME == ARGV[1] { old[$2] = 1; next }
		    FILENAME == ARGV[2] { if ($3 >= t) { s[$1 "\t" $2] = 1;
			s[$2 "\t" $1] = 1 }; next }
		    { for (x in old) if (($2 "\t" x) in s) next
		      for (i = 1; i <= n; i++) if (($2 "\t" kept[i]) in s) next
		      kept[++n] = $2; print }' \
		    "$d/old" "$d/sim" "$d/new" >"$d/want"
		sh-near -u -i "$d/ix" -v "$d/docs" $F -a "$t" "$d/new" >"$d/got"
		same_files "$d/want" "$d/got"
	done
	# Without -v: any agreeing band drops a line, so fewer pass, among
	# those verification keeps.
	sh-near -u -i "$d/ix" "$d/new" >"$d/cand"
	[ "$(wc -l <"$d/cand")" -gt 10 ]
	comm -23 <(LC_ALL=C sort "$d/cand") <(sh-near -u -i "$d/ix" \
	    -v "$d/docs" $F -a 0.8 "$d/new" | LC_ALL=C sort) |
	    same_files /dev/null -
}

@test "sh-index build -a -P: the shards' answers together are those of one index" {
	local d="$BATS_FILE_TMPDIR" i
	for i in 0 1 2; do
		sh-index build -a 0.8 -P $i/3 "$d/part.$i" "$d/old"
		sh-near -i "$d/part.$i" -v "$d/docs" $F -a 0.8 "$d/new"
	done | LC_ALL=C sort >"$d/parts"
	sh-near -i "$d/ix" -v "$d/docs" $F -a 0.8 "$d/new" | LC_ALL=C sort |
	    same_files - "$d/parts"
	run -0 sh-index info "$d/part.1"
	grep -qx $'shard\t1/3' <<<"$output"
	# Later adds keep the shard: each lands in one part.
	for i in 0 1 2; do
		sh-index add "$d/part.$i" "$d/new"
		sh-index dump "$d/part.$i"
	done | cut -f 2 | LC_ALL=C sort | same_files - <(cut -f 2 "$d/old" \
	    "$d/new" | LC_ALL=C sort)
}

@test "band tables: wrong questions get one line and exit 2" {
	local d="$BATS_FILE_TMPDIR"
	run -2 --separate-stderr sh-near -i "$d/ix" -k 3 "$d/new"
	eq "$stderr" "sh-near: $d/ix: index of the other kind (band tables answer sketches at -a, fingerprint tables distances)"
	run -2 --separate-stderr sh-near -i "$d/ix" -v "$d/docs" -a 0.7 "$d/new"
	eq "$stderr" "sh-near: $d/ix: the index's band tables hold the pairs of a higher similarity only (sh-index info shows it)"
	cut -f 1,2 "$d/new" >"$d/plain"
	run -2 --separate-stderr sh-near -i "$d/ix" "$d/plain"
	eq "$stderr" "sh-near: $d/plain:1: no sketch after the ID (sh-fp -B makes them)"
	# Fingerprint tables are not asked by sketches, nor grown by them.
	sh-index build "$d/fix" "$d/plain"
	run -2 --separate-stderr sh-index add -a 0.8 "$d/fix" "$d/new"
	eq "$stderr" "sh-index: $d/fix: index of the other kind (band tables answer sketches at -a, fingerprint tables distances)"
	run -2 --separate-stderr sh-index add -a 0.9 "$d/ix" "$d/new"
	eq "$stderr" "sh-index: $d/ix: index of the other kind (band tables answer sketches at -a, fingerprint tables distances)"
	# A line without a sketch: nothing written.
	cp -a "$d/ix" "$d/ix2"
	run -2 --separate-stderr sh-index add "$d/ix2" "$d/plain"
	eq "${stderr%%$'\n'*}" "sh-index: $d/plain:1: no sketch after the ID (sh-fp -B makes them)"
	eq "${stderr##*$'\n'}" "sh-index: $d/ix2: not written: the input has errors"
	diff -r "$d/ix" "$d/ix2"
	run -2 --separate-stderr sh-index build -a 0.8 -E "$d/x" "$d/new"
	eq "$stderr" "sh-index: -a and -E cannot be used together"
	run -2 --separate-stderr sh-index build -a 0.01 "$d/x" "$d/new"
	eq "$stderr" "sh-index: -a 0.01: number out of range"
	run -2 --separate-stderr sh-index info -a 0.8 "$d/ix"
	eq "$stderr" "sh-index: -a: only with build or add"
}

@test "band tables: a corrupt byte anywhere is an error, never an answer; a foreign plan is refused" {
	local d="$BATS_FILE_TMPDIR" seg size off
	sh-near -i "$d/ix" "$d/new" >"$d/good"
	for off in 200 2000 20000 30000 -100; do
		rm -rf "$d/bad"
		cp -a "$d/ix" "$d/bad"
		seg=$d/bad/seg-000001
		size=$(wc -c <"$seg")
		[ "$off" -ge 0 ] || off=$((size + off))
		printf 'Z' | dd of="$seg" bs=1 seek="$off" conv=notrunc 2>/dev/null
		run -2 --separate-stderr sh-index verify "$d/bad"
		eq "$stderr" "sh-index: $seg: corrupt index file"
		run --separate-stderr sh-near -i "$d/bad" "$d/new"
		if [ "$status" -eq 0 ]; then
			same_files "$d/good" <(printf '%s\n' "$output")
		else
			eq "$status" 2
			eq "$stderr" "sh-near: $seg: corrupt index file"
		fi
	done
	# A segment of fingerprint tables in a band index's MANIFEST.
	rm -rf "$d/bad"
	cp -a "$d/ix" "$d/bad"
	cut -f 1,2 "$d/old" | sh-index build "$d/fx"
	cp "$d/fx/seg-000001" "$d/bad/seg-000001"
	run -2 --separate-stderr sh-near -i "$d/bad" "$d/new"
	eq "$stderr" "sh-near: $d/bad/seg-000001: corrupt index file"
}
