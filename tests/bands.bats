#!/usr/bin/env bats
# The band route: sh-fp -B writes each document's MinHash sketch after
# its ID, sh-dist estimates the similarity of two sketches, and sh-near
# -v -a below 0.95 takes the candidate pairs from the sketches' bands and
# verifies each: never a pair below t, and at least 0.99 of those at or
# above it expected.

load helper

F='-w 3 -W binary'

setup_file() {
	local d="$BATS_FILE_TMPDIR"
	near_copies "$d/docs" 60 11
	sh-fp $F "$d/docs" >"$d/fp"
	sh-fp -B $F "$d/docs" >"$d/fpb"
	all_pairs "$d/docs" | sh-dist -v "$d/docs" $F >"$d/sim"
}

@test "-B: the sketch after the ID, m1: and 512 hex digits; the fingerprint as without it" {
	local d="$BATS_FILE_TMPDIR"
	cut -f 1,2 "$d/fpb" | cmp - "$d/fp"
	awk -F '\t' 'NF != 3 || $3 !~ /^m1:[0-9a-f]+$/ || length($3) != 515 {
	    print "bad: " $0; bad = 1 } END { exit bad }' "$d/fpb"
	# -c: the count after the sketch.
	sh-fp -B -c $F "$d/docs" | cut -f 1-3 | cmp - "$d/fpb"
	sh-fp -c $F "$d/docs" | cut -f 3 >"$d/count"
	sh-fp -B -c $F "$d/docs" | cut -f 4 | cmp - "$d/count"
}

@test "-B: the sketches of the test vectors, frozen (sketch version 1)" {
	local d="$BATS_FILE_TMPDIR" i
	sh-fp -B "$FIXTURES/vectors.in" 2>/dev/null |
	    same_files "$FIXTURES/vectors-sketch.out" -
	sh-fp -B -2 "$FIXTURES/vectors.in" 2>/dev/null |
	    same_files "$FIXTURES/vectors-v2-sketch.out" -
	sh-fp -B -n 2 -w 1 -W tf "$FIXTURES/vectors.in" 2>/dev/null |
	    same_files "$FIXTURES/vectors-v1-sketch.out" -
	# Token lists give the sketch of the text they list; threads and
	# shards change no byte.
	sh-tokenize "$FIXTURES/vectors.in" 2>/dev/null | sh-fp -t -B |
	    same_files "$FIXTURES/vectors-sketch.out" -
	sh-fp -B -j 3 $F "$d/docs" | same_files "$d/fpb" -
	for i in 0 1 2; do
		sh-fp -B -P $i/3 $F "$d/docs"
	done | same_files "$d/fpb" -
}

@test "sh-dist: the similarity two sketches estimate, near the exact one" {
	local d="$BATS_FILE_TMPDIR" a b
	a=$(awk -F '\t' '$2 == "d1" { print $3 }' "$d/fpb")
	b=$(awk -F '\t' '$2 == "d1c1" { print $3 }' "$d/fpb")
	run -0 sh-dist "$a" "$a"
	eq "$output" "1.000000"
	run -0 sh-dist "$a" "$b"
	# Within four standard errors (0.035 at 0.8) of the exact value.
	awk -v e="$output" -F '\t' '$1 == "d1" && $2 == "d1c1" {
	    d = e - $3; exit !(d < 0.15 && d > -0.15) }' "$d/sim"
	run -0 sh-dist -q "$a" "$b"
	eq "$output" ""
	run -2 sh-dist -k 3 "$a" "$b"
	eq "$output" "sh-dist: -k: a distance between fingerprints, not sketches"
	run -2 sh-dist "$a" "m2:${b#m1:}"
	eq "$output" "sh-dist: m2:${b:3:17}...: sketch of another version (this one reads m1 and e1 to e3)"
	run -2 sh-dist "$a" "${b}0"
	eq "$output" "sh-dist: ${b:0:20}...: not a sketch (m1: and 512 hex digits)"
}

@test "sh-near -a: every pair printed at or above t, at least 0.97 of those, at 0.5, 0.7, 0.8 and 0.9" {
	local d="$BATS_FILE_TMPDIR" t want got
	for t in 0.5 0.7 0.8 0.9; do
		awk -F '\t' -v t="$t" '$3 >= t { print $1 "\t" $2 "\t" $3 }' \
		    "$d/sim" >"$d/want"
		run -0 --separate-stderr sh-near -v "$d/docs" $F -a "$t" \
		    "$d/fpb"
		eq "$stderr" ""
		printf '%s\n' "$output" | cut -f 1,2,4 >"$d/got"
		# Each pair printed is true, with its exact similarity.
		awk -F '\t' 'NR == FNR { w[$0] = 1; next }
		    !($0 in w) { print "not true: " $0; bad = 1 }
		    END { exit bad }' "$d/want" "$d/got"
		want=$(wc -l <"$d/want")
		got=$(wc -l <"$d/got")
		echo "t $t: $got of $want"
		[ "$want" -gt 30 ]
		[ $((got * 100)) -ge $((want * 97)) ]
	done
}

@test "sh-near -a: clusters and first copies of the verified band pairs, from the bands' groups" {
	local d="$BATS_FILE_TMPDIR" t
	for t in 0.5 0.7 0.9; do
		sh-near -v "$d/docs" $F -a $t "$d/fpb" >"$d/pairs"
		# The clusters of exactly those pairs.
		sh-near -g -m "$d/pairs" "$d/fpb" >"$d/want"
		sh-near -g -v "$d/docs" $F -a $t "$d/fpb" |
		    same_files "$d/want" -
		# A line goes when a kept line before it makes a pair with it.
		awk -F '\t' 'NR == FNR { pre[$2] = pre[$2] " " $1; next }
		    { n = split(pre[$2], a, " "); for (i = 1; i <= n; i++)
			if (a[i] in kept) next
		      kept[$2] = 1; print }' "$d/pairs" "$d/fpb" >"$d/firsts"
		sh-near -u -v "$d/docs" $F -a $t "$d/fpb" |
		    same_files "$d/firsts" -
	done
}

@test "sh-near -a: the same bytes on 1 to 3 threads, and from a pipe" {
	local d="$BATS_FILE_TMPDIR" j
	sh-near -v "$d/docs" $F -a 0.6 -j 1 "$d/fpb" >"$d/want"
	[ -s "$d/want" ]
	for j in 2 3; do
		sh-near -v "$d/docs" $F -a 0.6 -j $j "$d/fpb" |
		    same_files "$d/want" -
	done
	sh-fp -B $F "$d/docs" | sh-near -v "$d/docs" $F -a 0.6 |
	    same_files "$d/want" -
}

@test "sh-near -a -P: the shards' pairs together are those of one process" {
	local d="$BATS_FILE_TMPDIR" i
	sh-near -v "$d/docs" $F -a 0.6 "$d/fpb" | LC_ALL=C sort >"$d/want"
	for n in 3 40; do
		for i in $(seq 0 $((n - 1))); do
			sh-near -P $i/$n -v "$d/docs" $F -a 0.6 "$d/fpb" || true
		done | LC_ALL=C sort | same_files "$d/want" -
		# Within a budget, each shard sorts its own bands only.
		for i in $(seq 0 $((n - 1))); do
			sh-near -P $i/$n -S 1M -v "$d/docs" $F -a 0.6 \
			    "$d/fpb" || true
		done | LC_ALL=C sort | same_files "$d/want" -
	done
}

@test "sh-near -a: the fingerprints searched at and above 0.95, or when a line has no sketch, with a warning" {
	local d="$BATS_FILE_TMPDIR"
	# At 0.95 both inputs give the fingerprints' search, silently.
	sh-near -v "$d/docs" $F -a 0.95 "$d/fp" >"$d/want"
	run -0 --separate-stderr sh-near -v "$d/docs" $F -a 0.95 "$d/fpb"
	eq "$stderr" ""
	eq "$output" "$(cat "$d/want")"
	# Below, a line without a sketch: its place named, then the
	# fingerprints' search.
	sh-near -v "$d/docs" $F -a 0.8 -k 15 "$d/fp" >"$d/want"
	{ head -n 5 "$d/fpb"; cut -f 1,2 "$d/fpb" | sed -n '6p'
	    tail -n +7 "$d/fpb"; } >"$d/mixed"
	run -0 --separate-stderr sh-near -v "$d/docs" $F -a 0.8 "$d/mixed"
	eq "$stderr" "sh-near: $d/mixed:6: no sketch after the ID (sh-fp -B makes them): the fingerprints are searched instead, slower"
	eq "$output" "$(cat "$d/want")"
	# -k chooses the fingerprints' search, without a word.
	run -0 --separate-stderr sh-near -v "$d/docs" $F -a 0.8 -k 15 \
	    "$d/fpb"
	eq "$stderr" ""
	eq "$output" "$(cat "$d/want")"
}

@test "sh-near -a: a bad sketch is reported with its line, the others go on" {
	local d="$BATS_FILE_TMPDIR"
	{ head -n 3 "$d/fpb"; sed -n '4s/m1:./m1:g/p' "$d/fpb"
	    sed -n '5s/m1:/m7:/p' "$d/fpb"; tail -n +6 "$d/fpb"; } >"$d/bad"
	run -2 --separate-stderr sh-near -v "$d/docs" $F -a 0.8 "$d/bad"
	eq "$stderr" "sh-near: $d/bad:4: not a sketch (m1: and 512 hex digits)
sh-near: $d/bad:5: sketch of another version (this one reads m1 and e1 to e3)"
	[ -n "$output" ]
}

@test "sh-near -a: a family of 2000 copies costs 1999 verifications for clusters and first copies (in memory and within -S), not 2 million" {
	local d="$BATS_TEST_TMPDIR"
	awk 'BEGIN { for (i = 1; i <= 2000; i++)
	    print "c" i "\tone text copied again and again, word for word, " \
		"into every line of this file" }' >"$d/fam"
	printf 'other\tnothing like the others at all in any of its words\n' \
	    >>"$d/fam"
	sh-fp -B "$d/fam" >"$d/fam.fp"
	run -0 --separate-stderr sh-near --progress -g -v "$d/fam" -a 0.8 \
	    "$d/fam.fp"
	eq "${stderr_lines[-1]}" "sh-near: 1999 pairs verified"
	eq "$(printf '%s\n' "$output" | cut -f 1 | sort | uniq -c |
	    awk '{ print $1 }' | sort -n | tr '\n' ' ')" "1 2000 "
	run -0 --separate-stderr sh-near --progress -g -S 1M -v "$d/fam" \
	    -a 0.8 "$d/fam.fp"
	eq "${stderr_lines[-1]}" "sh-near: 1999 pairs verified"
	for s in '' '-S 1M'; do
		run -0 --separate-stderr sh-near --progress -u $s \
		    -v "$d/fam" -a 0.8 "$d/fam.fp"
		eq "${stderr_lines[-1]}" "sh-near: 1999 pairs verified"
		eq "$(printf '%s\n' "$output" | cut -f 2)" "c1
other"
	done
}

@test "sh-near -a -S: the band route within a budget, spilled to TMPDIR, the same bytes" {
	local d="$BATS_TEST_TMPDIR"
	# Enough sketches that 16 sorts of 1 MiB / 2 / 16 each spill.
	near_copies "$d/big" 2500 3
	sh-fp -B $F "$d/big" >"$d/big.fp"
	sh-near -v "$d/big" $F -a 0.7 "$d/big.fp" >"$d/want"
	[ "$(wc -l <"$d/want")" -gt 5000 ]
	mkdir "$d/tmp"
	TMPDIR="$d/tmp" sh-near -S 1M -v "$d/big" $F -a 0.7 "$d/big.fp" |
	    same_files "$d/want" -
	sh-near -g -v "$d/big" $F -a 0.7 "$d/big.fp" >"$d/want"
	TMPDIR="$d/tmp" sh-near -g -S 1M -v "$d/big" $F -a 0.7 "$d/big.fp" |
	    same_files "$d/want" -
	# The first copies: the whole lines kept go to TMPDIR too.
	sh-near -u -v "$d/big" $F -a 0.7 "$d/big.fp" >"$d/want"
	[ "$(wc -l <"$d/want")" -lt 2500 ]
	TMPDIR="$d/tmp" sh-near -u -S 1M -v "$d/big" $F -a 0.7 "$d/big.fp" |
	    same_files "$d/want" -
	sh-near -v "$d/big" $F -a 0.7 "$d/big.fp" | LC_ALL=C sort >"$d/want"
	for i in 0 1; do
		TMPDIR="$d/tmp" sh-near -P $i/2 -S 1M -v "$d/big" $F -a 0.7 \
		    "$d/big.fp"
	done | LC_ALL=C sort | same_files "$d/want" -
	[ -z "$(ls -A "$d/tmp")" ]
	# A TMPDIR that cannot be written: the error, exit 2.
	for u in '' -u; do
		run -2 --separate-stderr env TMPDIR="$d/none" sh-near $u \
		    -S 1M -v "$d/big" $F -a 0.7 "$d/big.fp"
		eq "$stderr" "sh-near: $d/none: temporary file: No such file or directory"
	done
}

# --- the edit route: sh-fp -BB, sh-near -v -J edit -a ---------------------

# posts FILE: short texts, Chinese, English and mixed, each with a repost
# of 1 to 8 random characters changed, inserted or deleted, or of commas
# and spaces put in (awk may count bytes: the texts are made of units,
# a character or a word, and edited unit by unit).
posts() {
	awk 'BEGIN {
	    srand(7)
	    nh = split("的 是 不 了 在 人 有 我 他 这 中 大 来 上 国 个 到 说 们 为 子 和 你 地 出 道 也 时 年 得 就 那 要 下 以 生 会 自 着 去 之 过 家 学 对 可 她 里 后 小 么 心", han, " ")
	    nw = split("the of and to in is you that it he was for on are as with his they at be this have from or one had by word but not what all were we when", eng, " ")
	    nl = split("a b c d e f g h i j k l m n o p q r s t u v w x y z", lat, " ")
	    for (i = 1; i <= 150; i++) {
		n = 8 + int(rand() * 50)
		for (j = 1; j <= n; j++) {
		    if (i % 3 == 0)
			c[j] = lat[1 + int(rand() * nl)] (rand() < 0.2 ? " " : "")
		    else if (i % 3 == 1)
			c[j] = han[1 + int(rand() * nh)] (rand() < 0.1 ? "，" : "")
		    else
			c[j] = rand() < 0.3 ? " " eng[1 + int(rand() * nw)] " " : han[1 + int(rand() * nh)]
		}
		t = ""
		for (j = 1; j <= n; j++)
		    t = t c[j]
		print "p" i "\t" t
		e = 1 + int(rand() * 8)
		for (j = 0; j < e; j++) {
		    r = 1 + int(rand() * n)
		    x = rand()
		    if (x < 0.3) c[r] = i % 3 ? han[1 + int(rand() * nh)] : lat[1 + int(rand() * nl)]
		    else if (x < 0.5) c[r] = c[r] "，"
		    else if (x < 0.6) c[r] = c[r] " "
		    else if (x < 0.8) c[r] = ""
		    else c[r] = c[r] (i % 3 ? han[1 + int(rand() * nh)] : "x")
		}
		t = ""
		for (j = 1; j <= n; j++)
		    t = t c[j]
		print "p" i "~\t" t
	    }
	}' >"$1"
}

@test "-BB: the sketch of the characters after the ID, e1: to e3: by the share of ideographs; the fingerprint as without it; not with -t" {
	local d="$BATS_TEST_TMPDIR"
	printf 'zh\t你妈妈喊你回家吃饭哦，回家罗回家罗\nen\tHello, world: how are you?\nmix\tls -l 列出文件\nnone\t!!! ...\n' >"$d/in"
	run -0 --separate-stderr sh-fp -BB "$d/in"
	eq "${#lines[@]}" 3
	eq "$(printf '%s\n' "$output" | cut -f 2 | tr '\n' ' ')" "zh en mix "
	eq "$(printf '%s\n' "$output" | cut -c 18- | sed 's/^[^	]*	\(...\).*/\1/' | tr '\n' ' ')" "e1: e3: e2: "
	awk -F '\t' 'NF != 3 || $3 !~ /^e[123]:[0-9a-f]+$/ || length($3) != 515 {
	    print "bad: " $0; bad = 1 } END { exit bad }' <<<"$output"
	sh-fp "$d/in" 2>/dev/null | cmp - <(printf '%s\n' "$output" | cut -f 1,2)
	# The characters of the edit measure: punctuation and case do not
	# count; -BBB is -BB.
	printf 'a\tHELLO world how are you\n' | sh-fp -BB | cut -f 3 >"$d/a"
	printf 'a\thello, World! How are you?\n' | sh-fp -BBB | cut -f 3 | cmp - "$d/a"
	run -2 --separate-stderr sh-fp -BB -t "$d/in"
	eq "$stderr" "sh-fp: -BB: the characters of text, not of token lists (-t)"
}

@test "sh-near -v -J edit -a: the pairs at edit similarity t from the sketches of the characters, as brute force finds them, never one below t" {
	local d="$BATS_TEST_TMPDIR" t n m
	posts "$d/posts"
	sh-fp -BB "$d/posts" >"$d/fp"
	for t in 0.8 0.9; do
		all_pairs "$d/posts" | sh-dist -v "$d/posts" -J edit -a $t >"$d/want"
		n=$(wc -l <"$d/want")
		[ "$n" -gt 90 ]
		run -0 --separate-stderr sh-near -v "$d/posts" -J edit -a $t "$d/fp"
		eq "$stderr" ""
		# Each pair found is one of the truth, with its similarity.
		printf '%s\n' "$output" | cut -f 1,2,4 | LC_ALL=C sort >"$d/got"
		eq "$(LC_ALL=C sort "$d/want" | LC_ALL=C comm -13 - "$d/got")" ""
		m=$(wc -l <"$d/got")
		[ "$m" -ge $((n * 97 / 100)) ]
	done
	# Threads change no byte; -BB's sketches at 0.95 too (no search of
	# the fingerprints by distance).
	sh-near -v "$d/posts" -J edit -a 0.8 "$d/fp" >"$d/one"
	sh-near -j 1 -v "$d/posts" -J edit -a 0.8 "$d/fp" | cmp - "$d/one"
	run -0 --separate-stderr sh-near -v "$d/posts" -J edit -a 0.95 "$d/fp"
	eq "$stderr" ""
}

@test "sh-near -v: a sketch of the other kind than the measure takes ends the run, exit 2" {
	local d="$BATS_TEST_TMPDIR"
	posts "$d/posts"
	sh-fp -B "$d/posts" >"$d/fpb"
	sh-fp -BB "$d/posts" >"$d/fpbb"
	run -2 --separate-stderr sh-near -v "$d/posts" -J edit -a 0.8 "$d/fpb"
	eq "$output" ""
	eq "$stderr" "sh-near: $d/fpb:1: sketch of the features: -J edit takes that of the characters (sh-fp -BB)"
	run -2 --separate-stderr sh-near -v "$d/posts" -a 0.8 "$d/fpbb"
	eq "$output" ""
	eq "$stderr" "sh-near: $d/fpbb:1: sketch of the characters (sh-fp -BB): only with -J edit"
	run -2 --separate-stderr sh-near -v "$d/posts" -J edit -a 0.3 "$d/fpbb"
	eq "$stderr" "sh-near: -a 0.3: no bands hold 0.99 of the pairs at this edit similarity"
	# sh-index takes the sketches of the features only.
	run -2 --separate-stderr sh-index build -a 0.8 "$d/ix" "$d/fpbb"
	[[ "$stderr" == *"sketch of the characters (sh-fp -BB): only with -J edit"* ]]
}
