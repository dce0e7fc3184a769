#!/usr/bin/env bats
# sh-near -v: the threshold route.  Candidates within k, verified against
# their documents: the pairs at or above a stated similarity, and only
# those, in every mode (pairs, clusters, streaming, index).

load helper

F='-w 3 -W binary'
# The default features of fingerprint version 1, for tests of other rules.
V1='-n 2 -w 1 -W tf'

# The warning of -a below 0.95 over fingerprints without sketches.
nosketch() {
	printf 'sh-near: %s:1: no sketch after the ID (sh-fp -B makes them): the fingerprints are searched instead, slower' "$1"
}

setup() {
	local d="$BATS_TEST_TMPDIR"
	near_copies "$d/docs" 40 7
	sh-fp $F "$d/docs" >"$d/fp"
	sh-fp -B $F "$d/docs" >"$d/fpb"
	all_pairs "$d/docs" >"$d/all"
	# Every pair with its similarity and distance, by brute force.
	sh-dist -v "$d/docs" $F "$d/all" >"$d/sim"
	awk -F '\t' 'NR == FNR { f[$2] = $1; next }
	    { print f[$1] "\t" f[$2] }' "$d/fp" "$d/all" |
	    sh-dist -p | paste "$d/sim" - | cut -f 1,2,3,6 >"$d/brute"
}

@test "-v -a: every pair at or above t and no other, as brute force, at several t" {
	local d="$BATS_TEST_TMPDIR" t
	for t in 0.7 0.8 0.9 0.95 1; do
		# At these t, all such pairs lie within 16.
		awk -F '\t' -v t="$t" '$3 >= t && $4 > 16 { exit 1 }' \
		    "$d/brute"
		awk -F '\t' -v t="$t" '$3 >= t { print $1 "\t" $2 "\t" $3 }' \
		    "$d/brute" >"$d/want"
		sh-near -v "$d/docs" $F -a "$t" -k 16 "$d/fp" |
		    cut -f 1,2,4 >"$d/got"
		[ -s "$d/want" ]
		same_files "$d/want" "$d/got"
	done
}

@test "-v -a without -k: the distance of the model, never a pair below t" {
	local d="$BATS_TEST_TMPDIR" t k
	for t in 0.8:15 0.9:11 0.95:8; do
		k=${t#*:}
		t=${t%:*}
		sh-near -v "$d/docs" $F -a "$t" "$d/fp" >"$d/got"
		sh-near -v "$d/docs" $F -a "$t" -k "$k" "$d/fp" >"$d/want"
		same_files "$d/want" "$d/got"
		# Each pair printed is at or above t, at its true distance.
		awk -F '\t' 'NR == FNR { b[$1 "\t" $2] = $4 "\t" $3; next }
		    b[$1 "\t" $2] != $3 "\t" $4 { print "wrong: " $0; bad = 1 }
		    END { exit bad }' "$d/brute" "$d/got"
		awk -F '\t' -v t="$t" '$4 < t { print "below: " $0; bad = 1 }
		    END { exit bad }' "$d/got"
	done
}

@test "-v without -a: every candidate within k with its similarity" {
	local d="$BATS_TEST_TMPDIR"
	awk -F '\t' '$4 <= 3 { print $1 "\t" $2 "\t" $4 "\t" $3 }' \
	    "$d/brute" >"$d/want"
	sh-near -v "$d/docs" $F "$d/fp" >"$d/got"
	[ -s "$d/want" ]
	same_files "$d/want" "$d/got"
}

@test "-g -v: the clusters of the verified pairs" {
	local d="$BATS_TEST_TMPDIR"
	# Union-find over the pairs at or above 0.8 within 16, in ID order.
	awk -F '\t' 'function find(x) { while (p[x] != x) x = p[x]; return x }
	    NR == FNR { id[++n] = $1; p[$1] = $1; pos[$1] = n; next }
	    $3 >= 0.8 { a = find($1); b = find($2); if (a != b) {
		if (pos[a] < pos[b]) p[b] = a; else p[a] = b } }
	    END { for (i = 1; i <= n; i++) print find(id[i]) "\t" id[i] }' \
	    "$d/docs" "$d/brute" >"$d/want"
	sh-near -g -v "$d/docs" $F -a 0.8 -k 16 "$d/fp" >"$d/got"
	same_files "$d/want" "$d/got"
	# Some clusters, and not all of one.
	[ "$(cut -f 1 "$d/got" | sort -u | wc -l)" -gt 40 ]
	[ "$(awk '$1 != $2' "$d/got" | wc -l)" -gt 20 ]
}

@test "-u -v: a line goes when a kept line before it is at or above t" {
	local d="$BATS_TEST_TMPDIR"
	awk -F '\t' 'NR == FNR { if ($3 >= 0.7 && $4 <= 16) near[$1, $2] = 1; next }
	    { for (i = 1; i <= nk; i++) if ((kept[i], $2) in near) next
	      kept[++nk] = $2; print }' "$d/brute" "$d/fp" >"$d/want"
	sh-near -u -v "$d/docs" $F -a 0.7 -k 16 "$d/fp" >"$d/got"
	same_files "$d/want" "$d/got"
	[ "$(wc -l <"$d/got")" -lt 160 ]
	[ "$(wc -l <"$d/got")" -gt 40 ]
}

@test "-i -v: the indexed documents at or above t" {
	local d="$BATS_TEST_TMPDIR"
	grep -v 'c[23]$' "$d/fp" >"$d/old.fp"
	grep 'c[23]$' "$d/fp" >"$d/new.fp"
	sh-index build "$d/ix" "$d/old.fp"
	awk -F '\t' 'NR == FNR { old[$2] = 1; next }
	    ($2 in old) && !($1 in old) && $3 >= 0.8 { print $2 "\t" $1 "\t" $3 }
	    ($1 in old) && !($2 in old) && $3 >= 0.8 { print $2 "\t" $1 "\t" $3 }' \
	    "$d/old.fp" "$d/brute" | LC_ALL=C sort >"$d/want"
	sh-near -i "$d/ix" -v "$d/docs" $F -a 0.8 -k 16 "$d/new.fp" |
	    cut -f 1,2,4 | LC_ALL=C sort >"$d/got"
	[ -s "$d/want" ]
	same_files "$d/want" "$d/got"
}

@test "-v: fingerprints made with other options fail loudly" {
	local d="$BATS_TEST_TMPDIR"
	sh-fp $V1 "$d/docs" >"$d/v1.fp"
	run -2 --separate-stderr sh-near -v "$d/docs" -a 0.9 "$d/v1.fp"
	eq "$output" ""
	eq "$stderr" "$(nosketch "$d/v1.fp")
sh-near: $d/docs: document d1: fingerprint is not the document's under these options"
	sh-fp -B $V1 "$d/docs" >"$d/v1.fpb"
	run -2 --separate-stderr sh-near -v "$d/docs" -a 0.9 "$d/v1.fpb"
	eq "$output" ""
	eq "$stderr" "sh-near: $d/docs: document d1: fingerprint is not the document's under these options"
	run -2 --separate-stderr sh-near -u -v "$d/docs" $V1 -a 0.9 "$d/fpb"
	eq "$stderr" "sh-near: $d/docs: document d1: fingerprint is not the document's under these options"
}

@test "-v: a document missing is reported for each pair, the others are verified" {
	local d="$BATS_TEST_TMPDIR" m
	grep -v '^d2c1	' "$d/docs" >"$d/fewer"
	run -2 --separate-stderr sh-near -v "$d/fewer" $F -a 0.5 "$d/fpb"
	m="sh-near: no document d2c1 in $d/fewer"
	eq "$stderr" "$(printf '%s\n%s\n%s' "$m" "$m" "$m")"
	sh-near -v "$d/docs" $F -a 0.5 "$d/fpb" | grep -v 'd2c1' >"$d/want"
	[ -s "$d/want" ]
	eq "$output" "$(cat "$d/want")"
}

@test "-v: its options need it, and bad values are refused" {
	local d="$BATS_TEST_TMPDIR"
	run -2 --separate-stderr sh-near -a 0.9 "$d/fp"
	eq "$stderr" "sh-near: -a: only with -v"
	run -2 --separate-stderr sh-near -w 3 "$d/fp"
	eq "$stderr" "sh-near: -w: only with -v"
	run -2 --separate-stderr sh-near -J cosine "$d/fp"
	eq "$stderr" "sh-near: -J: only with -v"
	run -2 --separate-stderr sh-near -v "$d/docs" -a 1.5 "$d/fp"
	eq "$stderr" "sh-near: -a 1.5: number out of range"
	run -2 --separate-stderr sh-near -v "$d/docs" -J nearness "$d/fp"
	eq "${stderr%%:*}" "sh-near"
	run -2 --separate-stderr sh-near -v "$d/nonesuch" "$d/fp"
	eq "$stderr" "sh-near: $d/nonesuch: No such file or directory"
}

@test "-v -J: the measure of the verification" {
	local d="$BATS_TEST_TMPDIR"
	sh-near -v "$d/docs" $F -J cosine "$d/fp" | cut -f 1,2,4 >"$d/got"
	cut -f 1,2 "$d/got" | sh-dist -v "$d/docs" $F -J cosine >"$d/want"
	[ -s "$d/want" ]
	same_files "$d/want" "$d/got"
}

@test "-v -J edit -a: the candidates at or above t by edit similarity, as sh-dist finds them" {
	local d="$BATS_TEST_TMPDIR" t
	for t in 0.5 0.9; do
		sh-near -v "$d/docs" $F -J edit -a "$t" -k 16 "$d/fp" |
		    cut -f 1,2,4 >"$d/got"
		sh-near -k 16 "$d/fp" | cut -f 1,2 |
		    sh-dist -v "$d/docs" $F -J edit -a "$t" >"$d/want"
		[ -s "$d/want" ]
		same_files "$d/want" "$d/got"
		# The same on both threads, with the documents cut ahead.
		sh-near -j 2 -v "$d/docs" $F -J edit -a "$t" -k 16 "$d/fp" |
		    cut -f 1,2,4 | same_files "$d/want" -
	done
	run -2 --separate-stderr sh-near -v "$d/docs" -t -J edit "$d/fp"
	eq "$stderr" "sh-near: -J edit: compares texts, not token lists (-t)"
}

@test "-v with -S (the join on disk) and with -m (pairs given): the same bytes" {
	local d="$BATS_TEST_TMPDIR"
	sh-near -v "$d/docs" $F -a 0.8 "$d/fp" >"$d/want"
	[ -s "$d/want" ]
	sh-near -v "$d/docs" $F -a 0.8 -S 1M "$d/fp" >"$d/got"
	same_files "$d/want" "$d/got"
	# The first copies within the budget: their lines on disk.
	sh-near -u -v "$d/docs" $F -a 0.8 "$d/fp" >"$d/first"
	sh-near -u -v "$d/docs" $F -a 0.8 -S 1M "$d/fp" | same_files "$d/first" -
	[ "$(wc -l <"$d/first")" -lt "$(wc -l <"$d/fp")" ]
	# The pairs of a sharded join, verified in the reduce step.
	for i in 0 1 2; do
		sh-near -k 15 -P $i/3 "$d/fp" >"$d/p.$i" || true
	done
	cat "$d/p.2" "$d/p.0" "$d/p.1" |
	    sh-near -m - -v "$d/docs" $F -a 0.8 "$d/fp" >"$d/got"
	same_files "$d/want" "$d/got"
}

# on_threads STATUS ARG...: sh-near -j N ARG... for N = 1, 2 and 3, each
# ending with STATUS, each with the same output and messages, which are
# left in $d/out and $d/err.
on_threads() {
	local st=$1 j
	shift
	for j in 1 2 3; do
		run -"$st" --separate-stderr sh-near -j $j "$@"
		printf '%s\n' "$output" >"$d/out.$j"
		printf '%s\n' "$stderr" >"$d/err.$j"
	done
	for j in 2 3; do
		cmp "$d/out.1" "$d/out.$j"
		cmp "$d/err.1" "$d/err.$j"
	done
	mv "$d/out.1" "$d/out"
	mv "$d/err.1" "$d/err"
}

@test "-v -j: pairs, clusters, the filter and index matches over many batches, spilled or not, the same bytes on 1 to 3 threads" {
	local d="$BATS_TEST_TMPDIR"
	near_copies "$d/many" 400 7
	sh-fp $F "$d/many" >"$d/many.fp"
	on_threads 0 -v "$d/many" $F -k 16 "$d/many.fp"
	# More pairs than three batches of sh-near's read-ahead (4096).
	[ "$(wc -l <"$d/out")" -gt 12288 ]
	# Each with its similarity, as sh-dist gives it pair by pair.
	cut -f 1,2 "$d/out" | sh-dist -v "$d/many" $F |
	    cmp - <(cut -f 1,2,4 "$d/out")
	# Past 1 MiB the features are spilled.
	mv "$d/out" "$d/want"
	on_threads 0 -v "$d/many" $F -k 16 -S 1M "$d/many.fp"
	cmp "$d/out" "$d/want"
	on_threads 0 -g -v "$d/many" $F -a 0.8 -k 16 "$d/many.fp"
	[ "$(cut -f 1 "$d/out" | sort -u | wc -l)" -gt 400 ]
	on_threads 0 -u -v "$d/many" $F -a 0.5 -k 16 "$d/many.fp"
	[ "$(wc -l <"$d/out")" -gt 200 ]
	[ "$(wc -l <"$d/out")" -lt 1200 ]
	# Queries of an index, in batches of 16 and more, their documents
	# and those of their hits cut ahead.
	grep -v 'c[23]$' "$d/many.fp" >"$d/old.fp"
	grep 'c[23]$' "$d/many.fp" >"$d/new.fp"
	sh-index build "$d/ix" "$d/old.fp"
	on_threads 0 -i "$d/ix" -v "$d/many" $F -k 16 "$d/new.fp"
	[ "$(wc -l <"$d/out")" -gt 4096 ]
	cut -f 1,2 "$d/out" | sh-dist -v "$d/many" $F |
	    cmp - <(cut -f 1,2,4 "$d/out")
}

@test "-v -j: a document missing, a fingerprint not its document's: the same messages and matches on 1 to 3 threads" {
	local d="$BATS_TEST_TMPDIR" fp f m
	near_copies "$d/many" 400 7
	sh-fp $F "$d/many" >"$d/many.fp"
	grep -v '^d300c1	' "$d/many" >"$d/fewer"
	for f in -g -u; do
		on_threads 2 $f -v "$d/fewer" $F -a 0.5 -k 16 "$d/many.fp"
		eq "$(sort -u "$d/err")" "sh-near: no document d300c1 in $d/fewer"
		[ "$(wc -l <"$d/out")" -gt 200 ]
	done
	on_threads 2 -v "$d/fewer" $F -k 16 "$d/many.fp"
	eq "$(sort -u "$d/err")" "sh-near: no document d300c1 in $d/fewer"
	[ "$(wc -l <"$d/err")" -gt 1 ]
	[ "$(wc -l <"$d/out")" -gt 12288 ]
	# A fingerprint one bit off, met in the second batch of the
	# read-ahead (4096 pairs): the pairs before it, then the error.
	awk -F '\t' '$2 == "d382c2" { n = index("0123456789abcdef",
	    substr($1, 16)); $1 = substr($1, 1, 15) \
	    substr("1032547698badcfe", n, 1) } 1' OFS='\t' \
	    "$d/many.fp" >"$d/bit.fp"
	# ID d6 again, with the fingerprint of d5: the first pair of that
	# entry fails, whether d6 was cut before or not.
	fp=$(awk -F '\t' '$2 == "d5" { print $1 }' "$d/many.fp")
	{ cat "$d/many.fp"; printf '%s\td6\n' "$fp"; } >"$d/dup.fp"
	m="fingerprint is not the document's under these options"
	on_threads 2 -v "$d/many" $F -k 16 "$d/bit.fp"
	eq "$(cat "$d/err")" "sh-near: $d/many: document d382c2: $m"
	[ "$(wc -l <"$d/out")" -gt 4096 ]
	on_threads 2 -v "$d/many" $F -k 16 "$d/dup.fp"
	eq "$(cat "$d/err")" "sh-near: $d/many: document d6: $m"
	# The same with index queries: d17, missing, is a hit of its
	# copies; query d382c2 is one bit off.
	grep -v 'c[23]$' "$d/many.fp" >"$d/old.fp"
	sh-index build "$d/ix" "$d/old.fp"
	grep 'c[23]$' "$d/many.fp" >"$d/new.fp"
	grep -v '^d17	' "$d/many" >"$d/fewer"
	on_threads 2 -i "$d/ix" -v "$d/fewer" $F -k 16 "$d/new.fp"
	# Ten of the same kind, then their count.
	eq "$(head -n 10 "$d/err" | sort -u)" "sh-near: no document d17 in $d/fewer"
	eq "$(sed -n '11,$p' "$d/err")" "sh-near: and 6 more: no such document"
	[ "$(wc -l <"$d/out")" -gt 4096 ]
	grep 'c[23]$' "$d/bit.fp" >"$d/bit.new"
	on_threads 2 -i "$d/ix" -v "$d/many" $F -k 16 "$d/bit.new"
	eq "$(cat "$d/err")" "sh-near: $d/many: document d382c2: $m"
	# A last query of ID d6 with the fingerprint of d5: d6, a hit of
	# the queries before, was cut and found right then; this query is
	# checked all the same, after all the matches of those before.
	sh-near -i "$d/ix" -v "$d/many" $F -k 16 "$d/new.fp" >"$d/want"
	grep -q '	d6	' "$d/want"
	printf '%s\td6\n' "$fp" >>"$d/new.fp"
	on_threads 2 -i "$d/ix" -v "$d/many" $F -k 16 "$d/new.fp"
	cmp "$d/out" "$d/want"
	eq "$(cat "$d/err")" "sh-near: $d/many: document d6: $m"
}

@test "-u -i -v: a line goes when the index or a kept line before it is at or above t" {
	local d="$BATS_TEST_TMPDIR"
	grep -v 'c[23]$' "$d/fp" >"$d/old.fp"
	grep 'c[23]$' "$d/fp" >"$d/new.fp"
	sh-index build "$d/ix" "$d/old.fp"
	awk -F '\t' 'FILENAME == ARGV[1] {
		if ($3 >= 0.7 && $4 <= 16) { near[$1, $2] = 1; near[$2, $1] = 1 }
		next }
	    FILENAME == ARGV[2] { old[++no] = $2; next }
	    { for (i = 1; i <= no; i++) if ((old[i], $2) in near) next
	      for (i = 1; i <= nk; i++) if ((kept[i], $2) in near) next
	      kept[++nk] = $2; print }' "$d/brute" "$d/old.fp" "$d/new.fp" \
	    >"$d/want"
	sh-near -u -i "$d/ix" -v "$d/docs" $F -a 0.7 -k 16 "$d/new.fp" >"$d/got"
	same_files "$d/want" "$d/got"
	[ "$(wc -l <"$d/got")" -lt 80 ]
	[ "$(wc -l <"$d/got")" -gt 5 ]
}

@test "-v: fingerprints on a pipe, drained while the documents are read, give the file's pairs" {
	local d="$BATS_TEST_TMPDIR" i
	sh-near -v "$d/docs" $F -a 0.8 "$d/fpb" >"$d/want"
	[ -s "$d/want" ]
	# 24 copies, more than a pipe holds.
	for i in $(seq 24); do cat "$d/fpb"; done >"$d/fp24"
	[ "$(wc -c <"$d/fp24")" -gt 65536 ]
	cat "$d/fp24" |
	    { sh-near -v "$d/docs" $F -a 0.8 >"$d/got" 2>"$d/err"; echo $?; } \
	    >"$d/st"
	eq "$(cat "$d/st")" 0
	eq "$(cat "$d/err")" ""
	sh-near -v "$d/docs" $F -a 0.8 "$d/fp24" | cmp - "$d/got"
	# Without room for the copy, the pipe is read as it comes.
	cat "$d/fpb" | TMPDIR="$d/none" sh-near -v "$d/docs" $F -a 0.8 |
	    cmp - "$d/want"
	# From a file nothing changes; -u -v and -g -v read all their
	# input first too.
	sh-near -v "$d/docs" $F -a 0.8 <"$d/fpb" | cmp - "$d/want"
	sh-near -u -v "$d/docs" $F -a 0.8 "$d/fp24" >"$d/u"
	cat "$d/fp24" | sh-near -u -v "$d/docs" $F -a 0.8 | cmp - "$d/u"
	sh-near -g -v "$d/docs" $F -a 0.8 "$d/fp24" >"$d/g"
	cat "$d/fp24" | sh-near -g -v "$d/docs" $F -a 0.8 | cmp - "$d/g"
}

@test "-v: a TMPDIR that fills while a pipe is drained: a warning, and the rest of the pipe read as it comes" {
	local d="$BATS_TEST_TMPDIR" i
	for i in $(seq 100); do cat "$d/fpb"; done >"$d/fp100"
	[ "$(wc -c <"$d/fp100")" -gt 200000 ]
	# 30 MB of documents besides, so that reading them takes far
	# longer than the copy of the pipe takes to fill.
	{ cat "$d/docs"; awk 'BEGIN { for (i = 0; i < 150000; i++)
	    printf "filler%d\t%0200d\n", i, i }'; } >"$d/big"
	sh-near -v "$d/big" $F -a 0.8 "$d/fp100" >"$d/want"
	[ -s "$d/want" ]
	# Files of at most 64 KiB, past which a write fails (EFBIG): the
	# copy fills after a chunk or more.  The output goes to a pipe,
	# which the limit does not touch.
	cat "$d/fp100" |
	    { (trap '' XFSZ; ulimit -f 64
	    exec sh-near -v "$d/big" $F -a 0.8 2>"$d/err"); echo $? >"$d/st"; } |
	    cat >"$d/got"
	eq "$(cat "$d/st")" 0
	eq "$(cat "$d/err")" "sh-near: ${TMPDIR:-/tmp}: temporary file: File too large: the rest of <stdin> is read as it comes"
	cmp "$d/want" "$d/got"
	# -u and -g the same.
	sh-near -u -v "$d/big" $F -a 0.8 "$d/fp100" >"$d/want"
	cat "$d/fp100" |
	    { (trap '' XFSZ; ulimit -f 64
	    exec sh-near -u -v "$d/big" $F -a 0.8 2>/dev/null); } |
	    cmp - "$d/want"
	sh-near -g -v "$d/big" $F -a 0.8 "$d/fp100" >"$d/want"
	cat "$d/fp100" |
	    { (trap '' XFSZ; ulimit -f 64
	    exec sh-near -g -v "$d/big" $F -a 0.8 2>/dev/null); } |
	    cmp - "$d/want"
}

@test "-v: the copy of a pipe ends once the documents are read; the rest is read as it comes" {
	local d="$BATS_TEST_TMPDIR" i
	for i in $(seq 100); do cat "$d/fpb"; done >"$d/fp100"
	sh-near -v "$d/docs" $F -a 0.8 "$d/fp100" >"$d/want"
	[ -s "$d/want" ]
	# 20 lines (11 KB) before the documents are read, 200 KB after: the
	# copy stays within 64 KiB (a file past it would fail, EFBIG, and
	# warn), and the pairs are those of the file.
	{ head -n 20 "$d/fp100"; sleep 1; tail -n +21 "$d/fp100"; } |
	    { (trap '' XFSZ; ulimit -f 64
	    exec sh-near -v "$d/docs" $F -a 0.8 2>"$d/err"); echo $? >"$d/st"; } |
	    cat >"$d/got"
	eq "$(cat "$d/st")" 0
	eq "$(cat "$d/err")" ""
	cmp "$d/want" "$d/got"
}
