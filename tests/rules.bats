#!/usr/bin/env bats
# sh-near -Y newest and max:FIELD: the copy with the newest date (WARC-Date,
# or a named field) or the highest number of a named field stays, ties
# and copies without a value by input order, after those with one; the
# same bytes whatever -j, -S and the shards of -P, as brute force says.

load helper

F='-w 3 -W binary'

# The anchors by brute force, over "ID1 ID2 SIM" lines $1 at
# threshold $2, for the "ID<TAB>VALUE" lines $3 in input order (VALUE
# empty: none): the copies in keep order (a value first, the highest
# first, then input order); each kept unless a kept one before it in
# that order is at or above t, its anchor the first such; printed in
# input order.
brute_rank() {
	awk -F '\t' '{ print ($2 == "" ? 0 : 1) "\t" ($2 == "" ? 0 : $2) "\t" NR "\t" $1 }' "$3" |
	    sort -t "$(printf '\t')" -k1,1nr -k2,2gr -k3,3n | cut -f 3,4 >"$BATS_TEST_TMPDIR/order"
	awk -F '\t' -v t="$2" 'NR == FNR { if ($3 >= t) { m[$1 SUBSEP $2] = 1
	    m[$2 SUBSEP $1] = 1 }; next }
	    FILENAME == ARGV[2] { o[++n] = $2; next }
	    { id[++k] = $1 }
	    END { for (i = 1; i <= n; i++) { a = o[i]
		for (j = 1; j < i; j++)
			if (keep[o[j]] && ((o[j] SUBSEP o[i]) in m)) {
				a = o[j]; break }
		if (a == o[i]) keep[o[i]] = 1
		rep[o[i]] = a }
		for (i = 1; i <= k; i++) print rep[id[i]] "\t" id[i] }' \
	    "$1" "$BATS_TEST_TMPDIR/order" "$3"
}

# Families of near copies, each line with a score in column 2: 0 to 3
# (ties), or "-" (no number).
scored() {
	near_copies "$1.plain" "$2" "$3"
	awk -F '\t' -v seed="$3" '{ x = (NR * 37 + seed) % 9
	    print $1 "\t" (x == 4 ? "-" : x % 4) "\t" $2 }' "$1.plain" >"$1"
}

@test "-Y max:2 over TSV: the copy of the highest score stays, ties and those without by input order; as brute force, with -j 1, -S, the shards of -P and -u" {
	local d="$BATS_TEST_TMPDIR" t o i
	# Seed 3: every pair at 0.7 or more lies within 16 bits, and in a band.
	scored "$d/docs" 40 3
	sh-fp $F "$d/docs" >"$d/fp"
	all_pairs "$d/docs" >"$d/all"
	sh-dist -v "$d/docs" $F "$d/all" >"$d/sim"
	awk -F '\t' '{ print $1 "\t" ($2 == "-" ? "" : $2) }' "$d/docs" >"$d/vals"
	for t in 0.7 0.9; do
		brute_rank "$d/sim" "$t" "$d/vals" >"$d/want"
		# The rule changes which copies stay.
		sh-near -g -v "$d/docs" $F -a "$t" -k 16 "$d/fp" | cmp -s - "$d/want" && false
		run -0 --separate-stderr sh-near -g -Y max:2 -v "$d/docs" $F -a "$t" -k 16 "$d/fp"
		printf "%s\n" "$output" >"$d/got"
		same_files "$d/want" "$d/got"
		eq "$stderr" "sh-near: -Y max:2: $(grep -c '	-	' "$d/docs") of 160 document(s) without a number in column 2: they come after those with one"
		for o in "-j 1" "-j 2" "-S 1M" "-B"; do
			[ "$o" != -B ] || sh-fp -B $F "$d/docs" >"$d/fp.b"
			sh-near -g -Y max:2 $o -v "$d/docs" $F -a "$t" $( [ "$o" = -B ] || echo -k 16 ) \
			    "$d/fp$( [ "$o" != -B ] || echo .b )" 2>/dev/null | same_files "$d/want" -
		done
		for i in 0 1 2; do
			sh-near -P "$i/3" -v "$d/docs" $F -a "$t" -k 16 "$d/fp" || true
		done >"$d/pairs"
		sh-near -g -Y max:2 -m "$d/pairs" -v "$d/docs" $F -a "$t" "$d/fp" 2>/dev/null |
		    same_files "$d/want" -
		awk -F '\t' '$1 == $2 { print $2 }' "$d/want" >"$d/kept"
		sh-near -u -Y max:2 -v "$d/docs" $F -a "$t" -k 16 "$d/fp" 2>/dev/null | cut -f 2 |
		    same_files "$d/kept" -
	done
}

@test "-Y newest:FIELD over JSON Lines: dates with offsets and fractions, a number of seconds, ties by input order, none last; -Z all: names the newest" {
	local d="$BATS_TEST_TMPDIR" t='the budget of the town for the year'
	{
		printf '{"id":"a","text":"%s","at":"2025-03-01"}\n' "$t"
		printf '{"id":"b","text":"%s","at":"2025-03-01T10:00:00+02:00"}\n' "$t"
		printf '{"id":"c","text":"%s"}\n' "$t"
		printf '{"id":"d","text":"%s","at":"2025-03-01T08:00:00.000Z"}\n' "$t"
		printf '{"id":"e","text":"%s","at":"soon"}\n' "$t"
		printf '{"id":"f","text":"%s","at":1740816000}\n' "$t"
	} >"$d/j"
	sh-fp -f jsonl -w 1 "$d/j" >"$d/fp"
	# b and d are 08:00 UTC, the newest; b comes first.
	run -0 --separate-stderr sh-near -g -Y newest:at -v "$d/j" -f jsonl -w 1 -a 0.9 -k 16 -Z all:"$d/a" "$d/fp"
	eq "$output" "$(printf 'b\ta\nb\tb\nb\tc\nb\td\nb\te\nb\tf')"
	eq "$stderr" "sh-near: -Y newest:at: 2 of 6 document(s) without a date in at: they come after those with one"
	grep -c '"sh_near_kept_copy":"b","sh_near_fate":"removed"}$' "$d/a" | grep -qx 5
	# f is 2025-03-01T08:00Z too, and a its day: without b and d, f.
	grep -v -e '"id":"b"' -e '"id":"d"' "$d/j" >"$d/j2"
	sh-fp -f jsonl -w 1 "$d/j2" >"$d/fp"
	run -0 --separate-stderr sh-near -g -Y newest:at -v "$d/j2" -f jsonl -w 1 -a 0.9 -k 16 "$d/fp"
	eq "$output" "$(printf 'f\ta\nf\tc\nf\te\nf\tf')"
	# None with a date: the first.
	grep -e '"id":"c"' -e '"id":"e"' "$d/j" >"$d/j3"
	sh-fp -f jsonl -w 1 "$d/j3" >"$d/fp"
	run -0 --separate-stderr sh-near -g -Y newest:at -v "$d/j3" -f jsonl -w 1 -a 0.9 -k 16 "$d/fp"
	eq "$output" "$(printf 'c\tc\nc\te')"
}

@test "-Y newest over WARC: WARC-Date; the same compressed, with -S and -j 1; max:FIELD of a header" {
	local d="$BATS_TEST_TMPDIR" page
	page='HTTP/1.1 200 OK'$'\r\n''Content-Type: text/html'$'\r\n\r\n''<p>the committee met on tuesday to discuss the budget for the coming year and agreed to spend more on schools</p>'
	rec() {	# URI DATE ID SCORE
		local n
		n=$(printf '%s' "$page" | wc -c)
		printf 'WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: <%s>\r\nWARC-Date: %s\r\nWARC-Record-ID: <urn:uuid:%s>\r\nX-Score: %s\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n' \
		    "$1" "$2" "$3" "$4" "$n" "$page"
	}
	{
		rec http://a/ 2024-01-01T00:00:00Z r1 5
		rec http://b/ 2026-06-01T00:00:00Z r2 1
		rec http://c/ 2025-01-01T00:00:00Z r3 7
		rec http://d/ 2026-06-01T00:00:00Z r4 7
	} >"$d/c.warc"
	gzip -c "$d/c.warc" >"$d/c.warc.gz"
	sh-fp -f warc "$d/c.warc" >"$d/fp"
	run -0 sh-near -g -Y newest -v "$d/c.warc" -f warc -a 0.9 -k 16 "$d/fp"
	eq "$output" "$(printf 'http://b/\thttp://a/\nhttp://b/\thttp://b/\nhttp://b/\thttp://c/\nhttp://b/\thttp://d/')"
	for o in "-S 1M" "-j 1"; do
		run -0 sh-near -g -Y newest $o -v "$d/c.warc.gz" -f warc -a 0.9 -k 16 "$d/fp"
		eq "$output" "$(printf 'http://b/\thttp://a/\nhttp://b/\thttp://b/\nhttp://b/\thttp://c/\nhttp://b/\thttp://d/')"
	done
	run -0 sh-near -u -Y max:X-Score -v "$d/c.warc" -f warc -a 0.9 -k 16 "$d/fp"
	eq "$(cut -f 2 <<<"$output")" "http://c/"
	run -0 sh-near -g -Y newest:X-Score -v "$d/c.warc" -f warc -a 0.9 -k 16 "$d/fp"
	eq "$(cut -f 1 <<<"$output" | sort -u)" "http://c/"
}

@test "-Y: its errors" {
	local d="$BATS_TEST_TMPDIR"
	printf 'a\tone two three four five six seven eight\t3\nb\tone two three four five six seven eight\t4\n' >"$d/docs"
	sh-fp -w 1 "$d/docs" >"$d/fp"
	run -2 --separate-stderr sh-near -g -Y newest -v "$d/docs" -w 1 "$d/fp"
	eq "$stderr" "sh-near: -Y newest: name the field of the date: newest:FIELD"
	run -2 --separate-stderr sh-near -g -Y max:score -v "$d/docs" -w 1 "$d/fp"
	eq "$stderr" "sh-near: -Y max:score: score: not a column's number (the ID is column 1)"
	run -2 --separate-stderr sh-near -g -Y max: -v "$d/docs" -w 1 "$d/fp"
	eq "$stderr" "sh-near: -Y max:: not first, longest, newest, newest:FIELD or max:FIELD"
	run -2 --separate-stderr sh-near -g -Y max:3 -v - -w 1 "$d/fp" <"$d/docs"
	eq "$stderr" "sh-near: -Y: -v -: standard input is read once, and its records cannot be read again for their fields"
	run -2 --separate-stderr sh-near -g -Y max:3 -l -v "$d/docs" -w 1 "$d/fp"
	eq "$stderr" "sh-near: -Y max:3: the line framing has no fields"
	run -2 --separate-stderr sh-near -gg -Y max:3 -v "$d/docs" -w 1 "$d/fp"
	eq "$stderr" "sh-near: -Y: not with -gg, whose REP is the first member"
	run -0 sh-near -g -Y max:3 -v "$d/docs" -w 1 -a 0.7 -k 16 "$d/fp"
	eq "$output" "$(printf 'b\ta\nb\tb')"
}
