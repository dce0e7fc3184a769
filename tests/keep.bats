#!/usr/bin/env bats
# sh-near's keep decisions (-g, -u): the first copy of each family stays
# and every other one is removed against the copy that stays, only at or
# above the threshold to it, never through a chain; -gg the connected
# components; the same bytes on every route and whatever -j and -S.

load helper

F='-w 1 -W binary'

# A chain: page i holds words 2i .. 2i + 9, so neighbours share 8 of 12
# words (Jaccard 0.667) and pages two apart 6 of 14 (0.429).
chain() {
	awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) {
		s = ""
		for (j = 2 * i; j < 2 * i + 10; j++)
			s = s (s == "" ? "" : " ") "w" j
		print "p" i "\t" s } }'
}

# The anchors by brute force over "ID1 ID2 SIM" lines at threshold t,
# for the IDs of ids in order: each kept unless a kept one before it
# is at or above t; its anchor the first such.
brute_keep() {
	awk -F '\t' -v t="$2" 'NR == FNR { if ($3 >= t) { m[$1 SUBSEP $2] = 1
	    m[$2 SUBSEP $1] = 1 }; next }
	    { id[++n] = $2 }
	    END { for (i = 1; i <= n; i++) { a = id[i]
		for (j = 1; j < i; j++)
			if (keep[id[j]] && ((id[j] SUBSEP id[i]) in m)) {
				a = id[j]; break }
		if (a == id[i]) keep[id[i]] = 1
		print a "\t" id[i] } }' "$1" "$3"
}

@test "a chain A-B-C with A and C below t: A and C stay, B goes against A; -gg joins them" {
	local d="$BATS_TEST_TMPDIR"
	chain 3 >"$d/docs"
	sh-fp $F "$d/docs" >"$d/fp"
	all_pairs "$d/docs" >"$d/all"
	run -0 sh-near -g -v "$d/docs" $F -a 0.6 -m "$d/all" "$d/fp"
	eq "$output" "$(printf 'p0\tp0\np0\tp1\np2\tp2')"
	run -0 sh-near -gg -v "$d/docs" $F -a 0.6 -m "$d/all" "$d/fp"
	eq "$output" "$(printf 'p0\tp0\np0\tp1\np0\tp2')"
}

@test "a templated family of 40 pages in a chain: every other page stays, each removed one at or above t to its own anchor" {
	local d="$BATS_TEST_TMPDIR"
	chain 40 >"$d/docs"
	sh-fp $F "$d/docs" >"$d/fp"
	all_pairs "$d/docs" >"$d/all"
	sh-near -g -v "$d/docs" $F -a 0.6 -m "$d/all" "$d/fp" >"$d/g"
	awk -F '\t' '{ i = substr($2, 2) + 0
	    if ($1 != "p" (i - i % 2)) exit 1 }' "$d/g"
	[ "$(wc -l <"$d/g")" -eq 40 ]
	# Each removed page against its anchor: 0.667, at or above 0.6.
	awk -F '\t' '$1 != $2' "$d/g" | sh-dist -v "$d/docs" $F | cut -f 3 |
	    sort -u >"$d/sims"
	eq "$(cat "$d/sims")" "0.666667"
	# -gg takes the whole chain as one.
	sh-near -gg -v "$d/docs" $F -a 0.6 -m "$d/all" "$d/fp" | cut -f 1 |
	    sort -u >"$d/comp"
	eq "$(cat "$d/comp")" "p0"
}

@test "-g and -u -v agree with brute force, in memory, within -S, on one thread, and with -m" {
	local d="$BATS_TEST_TMPDIR" t
	near_copies "$d/docs" 40 7
	sh-fp -w 3 -W binary "$d/docs" >"$d/fp"
	all_pairs "$d/docs" >"$d/all"
	sh-dist -v "$d/docs" -w 3 -W binary "$d/all" >"$d/sim"
	for t in 0.7 0.9; do
		# At these t every pair lies within 16.
		brute_keep "$d/sim" "$t" "$d/fp" >"$d/want"
		awk -F '\t' '$1 != $2' "$d/want" | grep -q .
		sh-near -g -v "$d/docs" -w 3 -W binary -a "$t" -k 16 "$d/fp" >"$d/got"
		same_files "$d/want" "$d/got"
		sh-near -g -S 1M -v "$d/docs" -w 3 -W binary -a "$t" -k 16 "$d/fp" >"$d/got"
		same_files "$d/want" "$d/got"
		sh-near -g -j 1 -v "$d/docs" -w 3 -W binary -a "$t" -k 16 "$d/fp" >"$d/got"
		same_files "$d/want" "$d/got"
		sh-near -g -m "$d/all" -v "$d/docs" -w 3 -W binary -a "$t" "$d/fp" >"$d/got"
		same_files "$d/want" "$d/got"
		awk -F '\t' '$1 == $2 { print $1 }' "$d/want" >"$d/kept"
		sh-near -u -v "$d/docs" -w 3 -W binary -a "$t" -k 16 "$d/fp" | cut -f 2 >"$d/got"
		same_files "$d/kept" "$d/got"
	done
}

@test "-g on 20,000 equal fingerprints: one family, each line against the first, at a cost linear in the lines" {
	local d="$BATS_TEST_TMPDIR"
	awk 'BEGIN { for (i = 0; i < 20000; i++) printf "00000000000000ff\tx%d\n", i }' >"$d/fp"
	run -0 sh -c "sh-near -g '$d/fp' | cut -f 1 | uniq -c"
	eq "$output" "  20000 x0"
	run -0 sh -c "sh-near -gg '$d/fp' | cut -f 1 | uniq -c"
	eq "$output" "  20000 x0"
	run -0 sh -c "sh-near -g -S 1M '$d/fp' | tail -n 1"
	eq "$output" "$(printf 'x0\tx19999')"
}

@test "-Y longest: the copy with the longest text stays, ties by input order; the same within -S; -Y needs -v" {
	local d="$BATS_TEST_TMPDIR"
	printf 'a\tthe budget of the town for the year\nb\tthe budget of the town for the year and the schools too\nc\tthe budget of the town\nd\tthe budget of the town for the year and the schools aa\n' >"$d/docs"
	sh-fp -w 1 "$d/docs" >"$d/fp"
	all_pairs "$d/docs" >"$d/all"
	run -0 sh-near -g -v "$d/docs" -w 1 -a 0.3 -m "$d/all" "$d/fp"
	eq "$output" "$(printf 'a\ta\na\tb\na\tc\na\td')"
	# b and d are as long: b, the first of them, stays.
	run -0 sh-near -g -Y longest -v "$d/docs" -w 1 -a 0.3 -m "$d/all" "$d/fp"
	eq "$output" "$(printf 'b\ta\nb\tb\nb\tc\nb\td')"
	run -0 sh-near -g -Y longest -S 1M -v "$d/docs" -w 1 -a 0.3 -m "$d/all" "$d/fp"
	eq "$output" "$(printf 'b\ta\nb\tb\nb\tc\nb\td')"
	# -u keeps the lines that -g keeps.
	sh-near -g -Y longest -v "$d/docs" -w 1 -a 0.3 -k 16 "$d/fp" |
	    awk -F '\t' '$1 == $2 { print $1 }' >"$d/want"
	grep -qx b "$d/want"
	run -0 sh-near -u -Y longest -v "$d/docs" -w 1 -a 0.3 -k 16 "$d/fp"
	eq "$(cut -f 2 <<<"$output")" "$(cat "$d/want")"
	run -2 --separate-stderr sh-near -g -Y longest "$d/fp"
	eq "$stderr" "sh-near: -Y: only with -v"
	run -2 --separate-stderr sh-near -g -Y best -v "$d/docs" "$d/fp"
	eq "$stderr" "sh-near: -Y best: not first, longest, newest, newest:FIELD or max:FIELD"
	run -2 --separate-stderr sh-near -gg -Y longest -v "$d/docs" "$d/fp"
	eq "$stderr" "sh-near: -Y: not with -gg, whose REP is the first member"
}
