#!/usr/bin/env bats
# The verified nightly add (sh-index add -u -v): on band tables, each
# line's candidates verified against the documents at the index's
# similarity; only the lines with none at or above it added, each once,
# and printed once the index holds them.

load helper

F='-w 3 -W binary'

setup_file() {
	local d="$BATS_FILE_TMPDIR"
	near_copies "$d/docs" 60 11
	sh-fp -B $F "$d/docs" >"$d/fpb"
	# Yesterday: the odd lines; today: the even ones.
	awk 'NR % 2' "$d/fpb" >"$d/old"
	awk 'NR % 2 == 0' "$d/fpb" >"$d/new"
	all_pairs "$d/docs" | sh-dist -v "$d/docs" $F >"$d/sim"
}

# same_dir A B: the two directories hold the same files, byte for byte.
same_dir() {
	diff -r "$1" "$2"
}

# brute SIM OLDIDS NEWIDS T: the IDs of NEWIDS, in order, whose exact
# similarity (SIM: every pair of two documents; a document is 1 to
# itself) is below T to every ID of OLDIDS and to every one printed
# before it (with a fifth argument, "index": to those of OLDIDS alone).
brute() {
	awk -F '\t' -v t="$4" -v only="${5:-}" 'FILENAME == ARGV[1] {
		s[$1 "\t" $2] = s[$2 "\t" $1] = $3; next }
	    FILENAME == ARGV[2] { old[++no] = $1; next }
	    { for (i = 1; i <= no; i++)
		if ($1 == old[i] || s[$1 "\t" old[i]] + 0 >= t) next
	      for (i = 1; only == "" && i <= nk; i++)
		if ($1 == kept[i] || s[$1 "\t" kept[i]] + 0 >= t) next
	      kept[++nk] = $1; print $1 }' "$1" "$2" "$3"
}

@test "add -u -v: the lines added are brute force's, over every pair, in input order; so are those of sh-near -u over the index's documents and the batch" {
	local d="$BATS_FILE_TMPDIR" t old
	for t in 0.8 0.9; do
		for old in "$d/old" "$d/old20"; do
			head -n 20 "$d/old" >"$d/old20"
			rm -rf "$d/ix0"
			# An index of the odd lines (or of the first 20),
			# near copies among them.
			sh-index build -a "$t" "$d/ix0" "$old"
			run -0 --separate-stderr sh-index add -u -v \
			    "$d/docs" $F "$d/ix0" "$d/new"
			eq "$stderr" ""
			printf '%s\n' "$output" >"$d/added0"
			brute "$d/sim" <(cut -f 2 "$old") \
			    <(cut -f 2 "$d/new") "$t" >"$d/want0"
			cut -f 2 "$d/added0" | same_files "$d/want0" -
			# Lines printed whole, and the index holds them.
			grep -Fxf "$d/added0" "$d/new" |
			    same_files "$d/added0" -
			sh-index dump "$d/ix0" | cut -f 2 | LC_ALL=C sort \
			    >"$d/got"
			cut -f 2 "$old" "$d/added0" | LC_ALL=C sort |
			    same_files - "$d/got"
			# Some are dropped against the index, some kept; with
			# yesterday's first families alone, some against the
			# batch alone.
			[ "$(wc -l <"$d/want0")" -gt 20 ]
			[ "$(wc -l <"$d/want0")" -lt \
			    "$(wc -l <"$d/new")" ]
			if [ "$old" = "$d/old20" ] && brute "$d/sim" \
			    <(cut -f 2 "$old") <(cut -f 2 "$d/new") "$t" index |
			    cmp -s - "$d/want0"; then
				echo "nothing dropped against the batch alone"
				return 1
			fi
		done
		rm -rf "$d/ix"
		# An index of what sh-near -u keeps of yesterday: the add
		# keeps of today what sh-near -u keeps of both, after
		# yesterday's.
		sh-near -u -v "$d/docs" $F -a "$t" "$d/old" >"$d/oldk"
		sh-index build -a "$t" "$d/ix" "$d/oldk"
		sh-index add -u -v "$d/docs" $F "$d/ix" "$d/new" >"$d/added"
		cat "$d/oldk" "$d/new" | sh-near -u -v "$d/docs" $F -a "$t" |
		    tail -n +"$(($(wc -l <"$d/oldk") + 1))" |
		    same_files - "$d/added"
		brute "$d/sim" <(cut -f 2 "$d/oldk") <(cut -f 2 "$d/new") \
		    "$t" | same_files - <(cut -f 2 "$d/added")
	done
}

@test "add -u -v: a retried night adds nothing and prints nothing, exit 0, the index as it was" {
	local d="$BATS_TEST_TMPDIR" f="$BATS_FILE_TMPDIR"
	sh-index build -a 0.8 "$d/ix" "$f/old"
	sh-index add -u -v "$f/docs" $F "$d/ix" "$f/new" >"$d/added"
	[ -s "$d/added" ]
	cp -a "$d/ix" "$d/keep"
	run -0 --separate-stderr sh-index add -u -v "$f/docs" $F "$d/ix" \
	    "$f/new"
	eq "$output$stderr" ""
	same_dir "$d/keep" "$d/ix"
	# Unverified, every line shares a band with itself: the same.
	run -0 sh-index add -u "$d/ix" "$f/new"
	eq "$output" ""
	# The night's lines twice in one batch: each added once.
	rm -rf "$d/ix"
	sh-index build -a 0.8 "$d/ix" "$f/old"
	cat "$f/new" "$f/new" | sh-index add -u -v "$f/docs" $F "$d/ix" |
	    same_files "$d/added" -
}

@test "add -u -v: two runs at once of overlapping batches add each page once, as one after the other would; so do three of one batch" {
	local d="$BATS_TEST_TMPDIR" f="$BATS_FILE_TMPDIR" i
	# Yesterday's first families: today's copies of the others are
	# kept by the one of the two runs that comes first.
	head -n 20 "$f/old" >"$d/old"
	sh-index build -a 0.8 "$d/ix" "$d/old"
	head -n 100 "$f/new" >"$d/a"
	tail -n 100 "$f/new" | tac >"$d/b"
	sh-index add -u -v "$f/docs" $F "$d/ix" "$d/a" >"$d/added.a" &
	sh-index add -u -v "$f/docs" $F "$d/ix" "$d/b" >"$d/added.b" &
	wait
	# Each page once in the index, and printed by the run that added it.
	sh-index dump "$d/ix" | cut -f 2 | LC_ALL=C sort >"$d/got"
	uniq -d "$d/got" | same_files /dev/null -
	cut -f 2 "$d/old" "$d/added.a" "$d/added.b" | LC_ALL=C sort |
	    same_files - "$d/got"
	# What one after the other adds, in either order.
	brute "$f/sim" <(cut -f 2 "$d/old") <(cut -f 2 "$d/a") 0.8 >"$d/ka"
	brute "$f/sim" <(cut -f 2 "$d/old" "$d/ka") <(cut -f 2 "$d/b") 0.8 |
	    cat "$d/ka" - | LC_ALL=C sort >"$d/ab"
	brute "$f/sim" <(cut -f 2 "$d/old") <(cut -f 2 "$d/b") 0.8 >"$d/kb"
	brute "$f/sim" <(cut -f 2 "$d/old" "$d/kb") <(cut -f 2 "$d/a") 0.8 |
	    cat "$d/kb" - | LC_ALL=C sort >"$d/ba"
	cut -f 2 "$d/added.a" "$d/added.b" | LC_ALL=C sort >"$d/both"
	cmp -s "$d/ab" "$d/both" || cmp -s "$d/ba" "$d/both"
	# The orders differ on this batch: the test tells them apart.
	if cmp -s "$d/ab" "$d/ba"; then
		echo "the two orders add the same pages"
		return 1
	fi
	# One batch, three runs at once: what one run adds, once.
	rm -rf "$d/ix"
	sh-index build -a 0.8 "$d/ix" "$d/old"
	for i in 1 2 3; do
		sh-index add -u -v "$f/docs" $F "$d/ix" "$d/a" >"$d/once.$i" &
	done
	wait
	cut -f 2 "$d"/once.? | LC_ALL=C sort | same_files <(LC_ALL=C sort \
	    "$d/ka") -
	sh-index dump "$d/ix" | cut -f 2 | LC_ALL=C sort >"$d/got"
	cut -f 2 "$d/old" "$d"/once.? | LC_ALL=C sort | same_files - "$d/got"
}

@test "add -u -v: a candidate with no document is one line, exit 2, the index as it was" {
	local d="$BATS_TEST_TMPDIR" f="$BATS_FILE_TMPDIR"
	sh-index build -a 0.8 "$d/ix" "$f/old"
	cp -a "$d/ix" "$d/keep"
	# An indexed page, and a page of the batch.
	for id in d1 d1c1; do
		grep -v "^$id	" "$f/docs" >"$d/docs"
		run -2 --separate-stderr sh-index add -u -v "$d/docs" $F \
		    "$d/ix" "$f/new"
		eq "$output" ""
		eq "$stderr" "sh-index: no document $id in $d/docs"
		same_dir "$d/keep" "$d/ix"
	done
	# A page of the index, changed, under its ID: its indexed
	# fingerprint is not the document's.
	awk -F '\t' -v OFS='\t' '$1 == "d1" { $2 = $2 " and more words" }
	    { print }' "$f/docs" >"$d/docs"
	sh-fp -B $F "$d/docs" | awk -F '\t' '$2 == "d1"' >"$d/d1"
	run -2 --separate-stderr sh-index add -u -v "$d/docs" $F "$d/ix" \
	    "$d/d1"
	eq "$stderr" "sh-index: $d/docs: document d1: fingerprint is not the document's under these options"
	same_dir "$d/keep" "$d/ix"
	# Within a budget, a segment written before it (a quarter of 1M
	# holds some 1,700 lines of 16 bands): none left.  2,000 pages
	# apart, then a copy of the first whose document is missing.
	awk 'BEGIN { for (i = 1; i <= 2000; i++) { s = ""
	    for (j = 1; j <= 30; j++) s = s " u" i "x" j
	    print "p" i "\t" substr(s, 2) } }' >"$d/big"
	{ cat "$d/big"; printf 'plast\t%s\n' "$(head -n 1 "$d/big" |
	    cut -f 2)"; } | sh-fp -B $F >"$d/big.fpb"
	sh-index build -a 0.8 "$d/bx" </dev/null
	cp -a "$d/bx" "$d/bkeep"
	run -2 --separate-stderr sh-index add -u -S 1M -v "$d/big" $F \
	    "$d/bx" "$d/big.fpb"
	eq "$stderr" "sh-index: no document plast in $d/big"
	same_dir "$d/bkeep" "$d/bx"
	# Without the copy, the same add adds every line, in segments
	# written as the budget fills.
	head -n -1 "$d/big.fpb" | sh-index add -u -S 1M -v "$d/big" $F \
	    "$d/bx" | same_files <(head -n -1 "$d/big.fpb") -
	run -0 sh-index info "$d/bx"
	[ "$(grep -c '^segment' <<<"$output")" -ge 2 ]
}

@test "add -u -v: a bad record of the documents is reported and nothing written; an empty input adds nothing; a full disk after the commit is exit 3" {
	local d="$BATS_TEST_TMPDIR" f="$BATS_FILE_TMPDIR"
	sh-index build -a 0.8 "$d/ix" "$f/old"
	cp -a "$d/ix" "$d/keep"
	{ head -n 3 "$f/docs"; echo 'no tab'; tail -n +4 "$f/docs"; } \
	    >"$d/docs"
	run -2 --separate-stderr sh-index add -u -v "$d/docs" $F "$d/ix" \
	    "$f/new"
	eq "$output" ""
	eq "$stderr" "sh-index: $d/docs:4: missing TAB after ID
sh-index: $d/ix: not written: the documents have errors"
	same_dir "$d/keep" "$d/ix"
	run -0 --separate-stderr sh-index add -u -v "$f/docs" $F "$d/ix" \
	    </dev/null
	eq "$output$stderr" ""
	same_dir "$d/keep" "$d/ix"
	cp -a "$d/keep" "$d/copy"
	sh-index add -u -v "$f/docs" $F "$d/copy" "$f/new" >/dev/null
	run -3 --separate-stderr bash -c 'sh-index add -u -v "$1" -w 3 \
	    -W binary "$2" "$3" >/dev/full' _ "$f/docs" "$d/ix" "$f/new"
	eq "$stderr" "sh-index: $d/ix: committed, output lost: stdout: No space left on device"
	sh-index dump "$d/ix" | cut -f 2 | LC_ALL=C sort >"$d/got"
	sh-index dump "$d/copy" | cut -f 2 | LC_ALL=C sort |
	    same_files - "$d/got"
}

@test "add -u -v -l: the lines added in the list, synced before the commit, stdout unused; a list left behind is not written over" {
	local d="$BATS_TEST_TMPDIR" f="$BATS_FILE_TMPDIR"
	sh-index build -a 0.8 "$d/ix" "$f/old"
	cp -a "$d/ix" "$d/keep"
	sh-index add -u -v "$f/docs" $F "$d/ix" "$f/new" >"$d/want"
	rm -rf "$d/ix"
	cp -a "$d/keep" "$d/ix"
	run -0 --separate-stderr bash -c 'sh-index add -u -v "$1" -w 3 \
	    -W binary -l "$2" "$3" "$4" >/dev/full' _ "$f/docs" "$d/list" \
	    "$d/ix" "$f/new"
	eq "$output$stderr" ""
	same_files "$d/want" "$d/list"
	[ ! -e "$d/list.tmp" ]
	# The retry: an empty list.
	run -0 sh-index add -u -v "$f/docs" $F -l "$d/list2" "$d/ix" "$f/new"
	same_files /dev/null "$d/list2"
	rm -rf "$d/ix"
	cp -a "$d/keep" "$d/ix"
	: >"$d/list.tmp"
	run -2 --separate-stderr sh-index add -u -v "$f/docs" $F -l \
	    "$d/list" "$d/ix" "$f/new"
	eq "$stderr" "sh-index: $d/list.tmp: the list of an earlier run, perhaps committed (see sh-index(1))"
	same_dir "$d/keep" "$d/ix"
}

@test "add -u -v: the record and measure options of sh-near -v; a new index made at -a; fingerprint tables keep -u's meaning" {
	local d="$BATS_TEST_TMPDIR" f="$BATS_FILE_TMPDIR"
	# The documents as JSON lines, the measure cosine.
	awk -F '\t' '{ printf "{\"id\":\"%s\",\"text\":\"%s\"}\n", $1, $2 }' \
	    "$f/docs" >"$d/docs.jsonl"
	sh-index build -a 0.8 "$d/ix" "$f/old"
	sh-index add -u -v "$f/docs" $F -J cosine "$d/ix" "$f/new" >"$d/want"
	rm -rf "$d/ix"
	sh-index build -a 0.8 "$d/ix" "$f/old"
	sh-index add -u -v "$d/docs.jsonl" -f jsonl $F -J cosine "$d/ix" \
	    "$f/new" | same_files "$d/want" -
	# A compressed WARC file: the mirror's copy and the update are at
	# or above 0.8 to the page indexed, the other page is new.
	sh-fp -B -f warc "$FIXTURES/crawl.warc.gz" 2>/dev/null >"$d/w.fpb"
	head -n 1 "$d/w.fpb" | sh-index build -a 0.8 "$d/wix"
	tail -n +2 "$d/w.fpb" | sh-near -u -i "$d/wix" -v \
	    "$FIXTURES/crawl.warc.gz" -f warc -a 0.8 >"$d/want"
	eq "$(cut -f 2 "$d/want")" "http://news.example.org/rain.html"
	tail -n +2 "$d/w.fpb" | sh-index add -u -v "$FIXTURES/crawl.warc.gz" \
	    -f warc "$d/wix" | same_files "$d/want" -
	# A new index: of -a's tables, only the batch's lines verified.
	sh-index add -u -a 0.8 -v "$f/docs" $F "$d/new.ix" "$f/new" >"$d/got"
	brute "$f/sim" /dev/null <(cut -f 2 "$f/new") 0.8 |
	    same_files - <(cut -f 2 "$d/got")
	# Fingerprint tables: -u at the index's distance, unverified.
	cut -f 1,2 "$f/old" | sh-index build "$d/kx"
	cp -a "$d/kx" "$d/kx2"
	sh-index add -u "$d/kx" "$f/new" >"$d/want"
	sh-index add -u -v "$f/docs" $F "$d/kx2" "$f/new" |
	    same_files "$d/want" -
}

@test "add -u -v: usage errors exit 2 with one line" {
	local d="$BATS_TEST_TMPDIR" f="$BATS_FILE_TMPDIR"
	run -2 --separate-stderr sh-index build -v "$f/docs" "$d/ix" "$f/old"
	eq "$stderr" "sh-index: -v: an index of fingerprint tables keeps no documents: -v is for band tables (-a)"
	run -2 --separate-stderr sh-index add -v "$f/docs" "$d/ix" "$f/old"
	eq "$stderr" "sh-index: -v: an index of fingerprint tables keeps no documents: -v is for band tables (-a)"
	run -2 --separate-stderr sh-index delete -v "$f/docs" "$d/ix" "$f/old"
	eq "$stderr" "sh-index: -v: only with build or add"
	run -2 --separate-stderr sh-index add -u -v "$f/docs" -f nope \
	    "$d/ix" "$f/old"
	eq "$stderr" "sh-index: -f nope: invalid value"
	run -2 --separate-stderr sh-index add -u -v "$f/docs" -J nope \
	    "$d/ix" "$f/old"
	eq "$stderr" "sh-index: -J nope: invalid value"
	run -2 --separate-stderr sh-index add -u -a 0.8 -v - "$d/ix" <"$f/old"
	eq "$stderr" "sh-index: -v -: standard input cannot hold both the documents and the fingerprints"
	run -2 --separate-stderr sh-index add -u -a 0.8 -v "$d/none" "$d/ix" \
	    "$f/old"
	eq "$stderr" "sh-index: $d/none: No such file or directory"
	[ ! -e "$d/ix" ]
	# Document options need -v; without it -f is still -O's old name.
	run -2 --separate-stderr sh-index add -u -J cosine "$d/ix" "$f/old"
	eq "${stderr_lines[0]}" "sh-index: invalid option -- 'J'"
	run -0 --separate-stderr sh-index build -f "$d/ix" "$f/old"
	eq "$stderr" "sh-index: -f is now -O; -f goes in the next release"
}
