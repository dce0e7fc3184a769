#!/usr/bin/env bats
# Deletes (sh-index delete), expiry (sh-index expire) and merges
# (sh-index merge): what is deleted leaves every answer at once, a merge
# drops it for good, and the index then equals the one built from the
# lines that survive.

load helper

setup() {
	D=$BATS_TEST_TMPDIR
	# Three segments: 400 lines, then 40 and 10 (not merged), with
	# fingerprints held by several IDs across and within segments.
	rand_fps "$D/a.fp" 400 31
	rand_fps "$D/b.fp" 40 32
	sed -i 's/\tf/\tb/' "$D/b.fp"
	{ head -n 5 "$D/a.fp" | sed 's/\tf/\tc/'
	  head -n 5 "$D/b.fp" | sed 's/\tb/\tc/'; } >"$D/c.fp"
	sh-index build "$D/ix" "$D/a.fp"
	sh-index add "$D/ix" "$D/b.fp"
	sh-index add "$D/ix" "$D/c.fp"
	cat "$D/a.fp" "$D/b.fp" "$D/c.fp" >"$D/all.fp"
	# Deleted: every 7th line's ID, an ID of each segment's shared
	# fingerprints, and IDs the index never held.
	{ awk 'NR % 7 == 0 { print $2 }' "$D/all.fp"
	  echo f2; echo c3; echo nobody; echo f14; } >"$D/gone"
}

# survivors: the lines of all.fp whose ID is not in gone.
survivors() {
	awk -F '\t' 'NR == FNR { g[$1] = 1; next } !($2 in g)' \
	    "$D/gone" "$D/all.fp"
}

@test "sh-index delete: prints each ID deleted once, in input order; info counts what is left and what is deleted" {
	[ "$(sh-index info "$D/ix" | grep -c $'^segment\t')" -eq 3 ]
	run -0 sh-index delete "$D/ix" "$D/gone"
	# f14 twice in the input (the 14th line and the last), once out;
	# nobody not at all.
	eq "$output" "$(grep -vx nobody "$D/gone" | awk '!seen[$0]++')"
	n=$(survivors | wc -l)
	d=$((450 - n))
	run -0 sh-index info "$D/ix"
	eq "$(sed -n 's/^ids\t//p' <<<"$output")" "$n"
	eq "$(sed -n 's/^deleted_ids\t//p' <<<"$output")" "$d"
	eq "$(grep -o 'deleted=[0-9]*' <<<"$output" | cut -d= -f2 | paste -sd+ | bc)" "$d"
	sh-index verify "$D/ix"
	# Again: nothing more to delete, nothing printed, nothing changed.
	cp "$D/ix/MANIFEST" "$D/m"
	run -0 sh-index delete "$D/ix" <"$D/gone"
	eq "$output" ""
	cmp "$D/m" "$D/ix/MANIFEST"
}

@test "after deletes: dump, queries and -u answer as the index built from the survivors" {
	sh-index delete "$D/ix" "$D/gone" >/dev/null
	survivors >"$D/surv.fp"
	sh-index build "$D/s" "$D/surv.fp"
	sh-index dump "$D/ix" | LC_ALL=C sort >"$D/d1"
	LC_ALL=C sort "$D/surv.fp" | cmp - "$D/d1"
	rand_fps "$D/q.fp" 300 31
	sed -i 's/\tf/\tq/' "$D/q.fp"
	sh-near -i "$D/ix" -k 5 "$D/q.fp" | LC_ALL=C sort >"$D/q1"
	sh-near -i "$D/s" -k 5 "$D/q.fp" | LC_ALL=C sort >"$D/q2"
	[ -s "$D/q2" ]
	cmp "$D/q1" "$D/q2"
	eq "$(brute_query 5 "$D/surv.fp" "$D/q.fp")" "$(cat "$D/q1")"
	sh-near -u -i "$D/ix" "$D/q.fp" >"$D/u1"
	sh-near -u -i "$D/s" "$D/q.fp" >"$D/u2"
	cmp "$D/u1" "$D/u2"
}

@test "a fingerprint of several IDs keeps those not deleted, in their order" {
	fp=$(head -n 1 "$D/a.fp" | cut -f 1)
	printf 'f1\nb1\n' | sh-index delete "$D/ix" >/dev/null
	run -0 sh-index dump "$D/ix"
	eq "$(grep "^$fp" <<<"$output")" "$(printf '%s\tc1' "$fp")"
	printf '%s\tq\n' "$fp" | sh-near -i "$D/ix" -k 0 >"$D/out"
	eq "$(cat "$D/out")" "$(printf 'q\tc1\t0')"
	echo c1 | sh-index delete "$D/ix"
	run -1 sh-near -i "$D/ix" -k 0 <<<"$(printf '%s\tq' "$fp")"
	sh-index verify "$D/ix"
}

@test "sh-index merge: one segment, the deletion files gone, equal byte for byte to the index built from the survivors" {
	sh-index delete "$D/ix" "$D/gone" >/dev/null
	head -n 1 "$D/ix/MANIFEST" | grep -qx 'sh-index 4'
	run -0 sh-index merge "$D/ix"
	eq "$output" ""
	head -n 1 "$D/ix/MANIFEST" | grep -qx 'sh-index 1'
	eq "$(ls "$D/ix" | tr '\n' ' ')" "LOCK MANIFEST seg-000007 tim-000007 "
	survivors | sh-index build "$D/s"
	cmp "$D/ix/seg-000007" "$D/s/seg-000001"
	run -0 sh-index info "$D/ix"
	eq "$(sed -n 's/^deleted_ids\t//p' <<<"$output")" 0
	# Nothing to merge: nothing written.
	cp "$D/ix/MANIFEST" "$D/m"
	sh-index merge "$D/ix"
	cmp "$D/m" "$D/ix/MANIFEST"
}

@test "an add that merges segments drops their deletions; older segments keep theirs" {
	sh-index delete "$D/ix" "$D/gone" >/dev/null
	rand_fps "$D/m.fp" 20 33
	sed -i 's/\tf/\tm/' "$D/m.fp"
	sh-index add "$D/ix" "$D/m.fp"
	run -0 sh-index info "$D/ix"
	# The 40 and 10 merged with the 20; the 400 left with its file.
	[ "$(grep -c $'^segment\t' <<<"$output")" -eq 2 ]
	grep -q $'^segment\tseg-000001\t.*\tdeleted=[1-9]' <<<"$output"
	grep -q $'^segment\tseg-000[0-9]*\t.*\tdeleted=0\t' <<<"$output"
	eq "$(ls "$D/ix" | grep -c '^del-')" 1
	sh-index verify "$D/ix"
	{ survivors; cat "$D/m.fp"; } | LC_ALL=C sort >"$D/want"
	sh-index dump "$D/ix" | LC_ALL=C sort | cmp - "$D/want"
}

@test "an ID deleted and added again is live; a second delete removes it again" {
	echo f3 | sh-index delete "$D/ix"
	grep $'\tf3$' "$D/a.fp" | sh-index add "$D/ix"
	[ "$(sh-index dump "$D/ix" | grep -c $'\tf3$')" -eq 1 ]
	run -0 sh-index delete "$D/ix" <<<f3
	eq "$output" f3
	[ "$(sh-index dump "$D/ix" | grep -c $'\tf3$')" -eq 0 ]
	sh-index verify "$D/ix"
}

@test "sh-index delete takes fingerprint lines (their IDs) and skips empty lines" {
	run -0 sh-index delete "$D/ix" < <(sed -n '3p;5p' "$D/a.fp"; echo)
	eq "$output" "$(printf 'f3\nf5')"
}

@test "sh-index delete: a bad line is reported and nothing is written; a missing index is not made" {
	cp -a "$D/ix" "$D/before"
	printf 'f1\nnot\ta fingerprint\n' >"$D/bad"
	run -2 --separate-stderr sh-index delete "$D/ix" "$D/bad"
	eq "$output" ""
	eq "$stderr" "sh-index: $D/bad:2: fingerprint is not 16 hex digits
sh-index: $D/ix: not written: the input has errors"
	diff -r "$D/before" "$D/ix"
	run -2 --separate-stderr sh-index delete "$D/none" "$D/gone"
	eq "$stderr" "sh-index: $D/none: No such file or directory"
	[ ! -e "$D/none" ]
	run -2 --separate-stderr sh-index merge "$D/ix" extra
	run -2 --separate-stderr sh-index delete -k 3 "$D/ix"
	eq "${stderr%%$'\n'*}" "sh-index: -k: only with build or add"
}

@test "a damaged, missing or foreign deletion file: every reader fails naming it, never an answer" {
	sh-index delete "$D/ix" "$D/gone" >/dev/null
	del=$(ls "$D/ix" | grep '^del-' | head -n 1)
	cp "$D/ix/$del" "$D/keep"
	size=$(stat -c %s "$D/keep")
	for at in 0 8 16 30 $((size - 1)); do
		cp "$D/keep" "$D/ix/$del"
		printf '\x5a' | dd of="$D/ix/$del" bs=1 seek="$at" conv=notrunc status=none
		run -2 --separate-stderr sh-near -i "$D/ix" "$D/a.fp"
		eq "$output" ""
		[[ $stderr == "sh-near: $D/ix/$del: "* ]]
		run -2 sh-index verify "$D/ix"
	done
	head -c 20 "$D/keep" >"$D/ix/$del"
	run -2 --separate-stderr sh-index dump "$D/ix"
	eq "$stderr" "sh-index: $D/ix/$del: truncated index file"
	cp "$D/ix/seg-000001" "$D/ix/$del"
	run -2 --separate-stderr sh-index info "$D/ix"
	eq "$stderr" "sh-index: $D/ix/$del: not an sh index"
	rm "$D/ix/$del"
	run -2 --separate-stderr sh-index dump "$D/ix"
	eq "$stderr" "sh-index: $D/ix/$del: No such file or directory"
	run -2 --separate-stderr sh-index add "$D/ix" "$D/a.fp"
	cp "$D/keep" "$D/ix/$del"
	sh-index verify "$D/ix"
}

@test "band tables: deletes leave the queries, and a merge gives the index built from the survivors" {
	near_copies "$D/docs" 30 5
	sh-fp -B -w 3 -W binary "$D/docs" >"$D/fpb"
	head -n 60 "$D/fpb" | sh-index build -a 0.8 "$D/bx"
	sed -n '61,$p' "$D/fpb" | sh-index add -S 1M "$D/bx"
	sh-near -i "$D/bx" "$D/fpb" >"$D/q0"
	awk 'NR % 3 == 0 { print $2 }' "$D/fpb" >"$D/bgone"
	run -0 sh-index delete "$D/bx" "$D/bgone"
	eq "$output" "$(cat "$D/bgone")"
	sh-near -i "$D/bx" "$D/fpb" >"$D/q1"
	awk -F '\t' 'NR == FNR { g[$1] = 1; next } !($2 in g)' "$D/bgone" \
	    "$D/q0" | cmp - "$D/q1"
	sh-index verify "$D/bx"
	awk -F '\t' 'NR == FNR { g[$1] = 1; next } !($2 in g)' "$D/bgone" \
	    "$D/fpb" >"$D/bsurv"
	sh-index merge "$D/bx"
	sh-index build -a 0.8 "$D/bs" "$D/bsurv"
	cmp "$D"/bx/seg-* "$D/bs/seg-000001"
}

@test "concurrent deletes, adds and readers: each ID deleted once, readers never fail" {
	awk '{ print $2 }' "$D/a.fp" >"$D/ids"
	split -n r/4 "$D/ids" "$D/part."
	for p in "$D"/part.*; do
		sh-index delete "$D/ix" "$p" >"$p.out" &
	done
	rand_fps "$D/n.fp" 100 34
	sed -i 's/\tf/\tn/' "$D/n.fp"
	sh-index add "$D/ix" "$D/n.fp" &
	for i in 1 2 3 4 5 6 7 8; do
		sh-near -i "$D/ix" -k 2 "$D/b.fp" >/dev/null
	done
	wait
	cat "$D"/part.*.out | LC_ALL=C sort >"$D/deleted"
	LC_ALL=C sort -u "$D/ids" | cmp - "$D/deleted"
	run -0 sh-index info "$D/ix"
	eq "$(sed -n 's/^ids\t//p' <<<"$output")" 150
	sh-index verify "$D/ix"
}

# Expiry: batches added at stated times (-T), expired by time (-o).
expiry_index() {
	sh-index build -T @1000 "$D/ex" "$D/a.fp"
	sh-index add -T @2000 "$D/ex" "$D/b.fp"
	sh-index add -T @3000 "$D/ex" "$D/c.fp"
}

@test "sh-index expire: the IDs added before the time go; a segment all older goes whole, unread" {
	expiry_index
	run -0 sh-index expire -o @2000 "$D/ex"
	eq "$output" ""
	eq "$(ls "$D/ex" | tr '\n' ' ')" "LOCK MANIFEST seg-000002 seg-000003 tim-000002 tim-000003 "
	sh-index dump "$D/ex" | LC_ALL=C sort >"$D/got"
	LC_ALL=C sort "$D/b.fp" "$D/c.fp" | cmp - "$D/got"
	sh-index verify "$D/ex"
	# Nothing older: nothing written.
	cp "$D/ex/MANIFEST" "$D/m"
	sh-index expire -o @2000 "$D/ex"
	cmp "$D/m" "$D/ex/MANIFEST"
	sh-index expire -o @3001 "$D/ex"
	eq "$(sh-index dump "$D/ex")" ""
	eq "$(ls "$D/ex" | tr '\n' ' ')" "LOCK MANIFEST "
}

@test "add times ride through merges: an expire takes from a merged segment the IDs of old batches only" {
	expiry_index
	# 30 lines at 2500 merge the two newer segments with them.
	rand_fps "$D/m.fp" 30 35
	sed -i 's/\tf/\tm/' "$D/m.fp"
	sh-index add -T @2500 "$D/ex" "$D/m.fp"
	[ "$(sh-index info "$D/ex" | grep -c $'^segment\t')" -eq 2 ]
	sh-index expire -o @2600 "$D/ex"
	sh-index dump "$D/ex" | LC_ALL=C sort >"$D/got"
	LC_ALL=C sort "$D/c.fp" | cmp - "$D/got"
	run -0 sh-index info "$D/ex"
	eq "$(sed -n 's/^deleted_ids\t//p' <<<"$output")" "$((40 + 30))"
	sh-index verify "$D/ex"
	# A merge keeps the times of what is left.
	sh-index merge "$D/ex"
	sh-index expire -o @2999 "$D/ex"
	eq "$(sh-index dump "$D/ex" | LC_ALL=C sort)" "$(LC_ALL=C sort "$D/c.fp")"
	sh-index expire -o @3001 "$D/ex"
	eq "$(sh-index dump "$D/ex")" ""
}

@test "sh-index expire -o AGE: by the clock; -T AGE backdates an add" {
	sh-index build "$D/ag" "$D/a.fp"
	sh-index add -T 3d "$D/ag" "$D/b.fp"
	sh-index expire -o 2d "$D/ag"
	eq "$(sh-index dump "$D/ag" | LC_ALL=C sort)" "$(LC_ALL=C sort "$D/a.fp")"
	sh-index expire -o 90m "$D/ag"
	eq "$(sh-index dump "$D/ag" | LC_ALL=C sort)" "$(LC_ALL=C sort "$D/a.fp")"
	for bad in 5 5x -3d d @x 99999999999w; do
		run -2 --separate-stderr sh-index expire -o "$bad" "$D/ag"
		[[ $stderr == "sh-index: -o $bad: "* ]]
	done
	run -2 --separate-stderr sh-index expire "$D/ag"
	eq "${stderr%%$'\n'*}" "sh-index: expire: -o time is needed"
	run -2 --separate-stderr sh-index delete -T 1d "$D/ag"
	eq "${stderr%%$'\n'*}" "sh-index: -T: only with build or add"
	run -2 --separate-stderr sh-index add -o 1d "$D/ag"
	eq "${stderr%%$'\n'*}" "sh-index: -o: only with expire"
}

@test "a segment without add times counts as added when its file was written; a damaged times file fails verify and expire, not queries" {
	expiry_index
	rm "$D/ex/tim-000002"
	touch -d @1500 "$D/ex/seg-000002"
	sh-index verify "$D/ex"
	sh-index expire -o @1600 "$D/ex"
	eq "$(sh-index dump "$D/ex" | LC_ALL=C sort)" "$(LC_ALL=C sort "$D/c.fp")"
	printf 'Z' | dd of="$D/ex/tim-000003" bs=1 seek=30 conv=notrunc status=none
	run -2 --separate-stderr sh-index verify "$D/ex"
	eq "$stderr" "sh-index: $D/ex/tim-000003: corrupt index file"
	run -2 --separate-stderr sh-index expire -o @5000 "$D/ex"
	eq "$stderr" "sh-index: $D/ex/tim-000003: corrupt index file"
	run -0 sh-near -i "$D/ex" -k 0 "$D/c.fp"
	[ "${#lines[@]}" -ge 10 ]
}

@test "band tables: expire by time, through merges" {
	near_copies "$D/docs" 20 6
	sh-fp -B -w 3 -W binary "$D/docs" >"$D/fpb"
	head -n 40 "$D/fpb" | sh-index build -T @100 -a 0.8 "$D/bx"
	sed -n '41,60p' "$D/fpb" | sh-index add -T @200 "$D/bx"
	sed -n '61,$p' "$D/fpb" | sh-index add -T @300 "$D/bx"
	sh-index expire -o @250 "$D/bx"
	eq "$(sh-index dump "$D/bx")" "$(sed -n '61,$p' "$D/fpb" | cut -f 1,2)"
	sh-index verify "$D/bx"
	sh-index merge "$D/bx"
	sh-index expire -o @301 "$D/bx"
	eq "$(sh-index dump "$D/bx")" ""
}
