#!/usr/bin/env bats
# sh-index on hostile index directories (files forged and signed again,
# tests/unit/forge), and the promises around a commit: an add with
# nothing to add, overlapping adds, a list that cannot be printed.

load helper

FORGE=$BATS_TEST_DIRNAME/unit/forge

setup_file() {
	local d=$BATS_FILE_TMPDIR
	export FORGE_SKIP=
	# make check builds it (TESTBIN); run alone, the file builds it as
	# make would, over the library as it was built.  A skip in
	# setup_file fails the file (bats 1.8): setup skips each test.
	if [ ! -x "$FORGE" ] && ! make -s -C "$BATS_TEST_DIRNAME/.." \
	    tests/unit/forge >"$d/make.log" 2>&1; then
		FORGE_SKIP="tests/unit/forge is not built and make could not build it (make check does): $(tail -n 1 "$d/make.log")"
		return 0
	fi
	near_copies "$d/docs" 20 11
	sh-fp -B -w 3 -W binary "$d/docs" >"$d/fpb"
	rand_fps "$d/base.fp" 50 3
}

setup() {
	D=$BATS_TEST_TMPDIR
	F=$BATS_FILE_TMPDIR
	[ -z "$FORGE_SKIP" ] || skip "$FORGE_SKIP"
}

# same_dir A B: the two directories hold the same files, byte for byte.
same_dir() {
	diff -r "$1" "$2"
}

# band_ix DIR: a band index of the 80 sketch lines, one of them deleted.
band_ix() {
	sh-index build -a 0.8 "$1" "$F/fpb"
	head -n 1 "$F/fpb" | sh-index delete "$1" >/dev/null
}

@test "a forged band-table entry past the segment, signed: every writer stops with one line and exit 2, the index as it was" {
	local n=80 b=16 ref
	band_ix "$D/ix"
	# Band 0's entry of key 0 (sh-index(5)): past the fingerprints and
	# the keys of every band.
	for ref in 80 4294967295; do
		rm -rf "$D/ix" "$D/keep"
		band_ix "$D/ix"
		"$FORGE" set "$D/ix/seg-000001" $((128 + 8 * n + 8 * b * n)) 4 \
		    "$ref"
		"$FORGE" seal "$D/ix/seg-000001"
		cp -a "$D/ix" "$D/keep"
		run -2 --separate-stderr sh-index verify "$D/ix"
		eq "$stderr" "sh-index: $D/ix/seg-000001: corrupt index file"
		run -2 --separate-stderr timeout 1 sh-index merge "$D/ix"
		eq "$stderr" "sh-index: $D/ix/seg-000001: corrupt index file"
		same_dir "$D/keep" "$D/ix"
		# An add whose merge takes that segment.
		run -2 --separate-stderr timeout 1 sh-index add "$D/ix" "$F/fpb"
		eq "$stderr" "sh-index: $D/ix/seg-000001: corrupt index file"
		same_dir "$D/keep" "$D/ix"
	done
}

@test "every header field of a segment set to 0, 1, the most and past the file, signed: refused at open, never a crash" {
	local f v size
	sh-index build "$D/ix" "$F/base.fp"
	size=$(wc -c <"$D/ix/seg-000001")
	cp "$D/ix/seg-000001" "$D/good"
	# Every field but the magic, k (the distance recorded, which no
	# read depends on) and the checksums.
	for f in 1 3 4 5 6 7 8 9 10 11 12; do
		for v in 0 1 0xffffffffffffffff 0xffffffff $size; do
			cp "$D/good" "$D/ix/seg-000001"
			"$FORGE" set "$D/ix/seg-000001" $((8 * f)) 8 "$v"
			"$FORGE" seal "$D/ix/seg-000001"
			cmp -s "$D/good" "$D/ix/seg-000001" && continue
			for cmd in "sh-index verify" "sh-index dump" \
			    "sh-index merge" "sh-index expire -o 1d"; do
				run timeout 1 $cmd "$D/ix"
				[ "$status" -eq 2 ] || { echo "field $f = $v:" \
				    "$cmd: $status"; return 1; }
				[ "${#lines[@]}" -eq 1 ] || return 1
			done
		done
	done
}

@test "a MANIFEST of 65 to 200,000 segments is refused at once; one of 64 missing ones fails at the first, at once" {
	local n m="$D/ix/MANIFEST"
	sh-index build "$D/ix" "$F/base.fp"
	for n in 64 65 1000 200000; do
		awk -v n="$n" 'BEGIN { print "sh-index 1"
		    print "k 3 plan 0 0 shard 0 1 next 999999"
		    for (i = 10; i < 10 + n; i++) print "seg-" i " 5 5"
		    print "end 0" }' >"$m"
		"$FORGE" seal "$m"
		for cmd in "sh-index verify" "sh-index add" "sh-near -i"; do
			if [ "$cmd" = "sh-index verify" ]; then
				run -2 --separate-stderr timeout 1 $cmd "$D/ix"
			else
				run -2 --separate-stderr timeout 1 $cmd "$D/ix" \
				    "$F/base.fp"
			fi
			if [ "$n" -eq 64 ]; then
				eq "$stderr" "${cmd%% *}: $D/ix/seg-10: No such file or directory"
			else
				eq "$stderr" "${cmd%% *}: $m: more segments than an index holds (64)"
			fi
		done
	done
}

@test "a MANIFEST naming one segment file twice (a hard link) is a corrupt segment to every reader and writer" {
	local m="$D/ix/MANIFEST" cmd
	sh-index build "$D/ix" "$F/base.fp"
	ln "$D/ix/seg-000001" "$D/ix/seg-000009"
	awk '$1 == "k" { $NF = 10 } $1 == "seg-000001" { print
	    $1 = "seg-000009" } $1 != "end"' "$m" >"$m.new"
	echo "end 0" >>"$m.new"
	mv "$m.new" "$m"
	"$FORGE" seal "$m"
	for cmd in "sh-index verify" "sh-index dump" "sh-index add" "sh-near -i"; do
		if [ "$cmd" = "sh-index add" ] || [ "$cmd" = "sh-near -i" ]; then
			run -2 --separate-stderr $cmd "$D/ix" "$F/base.fp"
		else
			run -2 --separate-stderr $cmd "$D/ix"
		fi
		eq "$stderr" "${cmd%% *}: $D/ix/seg-000009: corrupt index file"
	done
}

@test "an add with nothing to add succeeds on every kind of index; so does an add -u whose lines are all there" {
	local kind
	for kind in "" "-E" "-a 0.8"; do
		rm -rf "$D/ix"
		# shellcheck disable=SC2086
		sh-index build $kind "$D/ix" "$F/fpb"
		cp -a "$D/ix" "$D/keep"
		run -0 --separate-stderr sh-index add "$D/ix" </dev/null
		eq "$output$stderr" ""
		run -0 --separate-stderr sh-index add -u "$D/ix" "$F/fpb"
		eq "$output$stderr" ""
		same_dir "$D/keep" "$D/ix"
		rm -rf "$D/keep"
	done
}

@test "two overlapping add -u of one batch on a band index add each line once" {
	local n
	head -n 40 "$F/fpb" >"$D/old"
	tail -n 40 "$F/fpb" >"$D/new"
	sh-index build -a 0.8 "$D/ix" "$D/old"
	sh-index add -u "$D/ix" "$D/new" >"$D/a" &
	sh-index add -u "$D/ix" "$D/new" >"$D/b" &
	wait
	# One of them added the new lines, the other found them there.
	n=$(cat "$D/a" "$D/b" | wc -l)
	[ "$n" -gt 0 ]
	[ ! -s "$D/a" ] || [ ! -s "$D/b" ]
	run -0 sh-index info "$D/ix"
	grep -qx "fingerprints	$((40 + n))" <<<"$output"
	sh-index dump "$D/ix" | cut -f 2 | LC_ALL=C sort | uniq -d |
	    same_files /dev/null -
}

@test "add -u and delete to a full disk: committed, exit 3 and one line saying so" {
	sh-index build "$D/ix" <(head -n 20 "$F/base.fp")
	run -3 --separate-stderr bash -c 'sh-index add -u "$1" "$2" >/dev/full' \
	    _ "$D/ix" "$F/base.fp"
	eq "$stderr" "sh-index: $D/ix: committed, output lost: stdout: No space left on device"
	run -0 sh-index info "$D/ix"
	grep -qx 'fingerprints	[0-9]*' <<<"$output"
	[ "$(sh-index dump "$D/ix" | wc -l)" -gt 20 ]
	run -3 --separate-stderr bash -c 'sh-index delete "$1" >/dev/full' \
	    _ "$D/ix" <<<f1
	eq "$stderr" "sh-index: $D/ix: committed, output lost: stdout: No space left on device"
	sh-index dump "$D/ix" | cut -f 2 | grep -qvx f1
}

@test "add -u -l and delete -l: the list synced before the commit, stdout unused; a list on a full disk leaves the index as it was" {
	sh-index build "$D/ix" <(head -n 20 "$F/base.fp")
	cp -a "$D/ix" "$D/keep"
	sh-index add -u "$D/copy" <(head -n 20 "$F/base.fp") >/dev/null
	sh-index add -u "$D/copy" "$F/base.fp" >"$D/want"
	run -0 --separate-stderr bash -c 'sh-index add -u -l "$1" "$2" "$3" \
	    >/dev/full' _ "$D/list" "$D/ix" "$F/base.fp"
	eq "$output$stderr" ""
	same_files "$D/want" "$D/list"
	[ ! -e "$D/list.tmp" ]
	# The same, deleting.
	run -0 sh-index delete -l "$D/dlist" "$D/ix" <<<"$(printf 'f1\nf2\nnone\n')"
	eq "$(cat "$D/dlist")" "$(printf 'f1\nf2')"
	# A list that cannot be written: the index unchanged, exit 2.
	rm -rf "$D/ix"
	cp -a "$D/keep" "$D/ix"
	run -2 --separate-stderr sh-index add -u -l /dev/full/x "$D/ix" \
	    "$F/base.fp"
	eq "$stderr" "sh-index: /dev/full/x.tmp: Not a directory"
	same_dir "$D/keep" "$D/ix"
	# A list left by a run killed after its commit is never written
	# over.
	: >"$D/list.tmp"
	run -2 --separate-stderr sh-index add -u -l "$D/list" "$D/ix" \
	    "$F/base.fp"
	eq "$stderr" "sh-index: $D/list.tmp: the list of an earlier run, perhaps committed (see sh-index(1))"
	same_dir "$D/keep" "$D/ix"
	run -2 --separate-stderr sh-index add -l "$D/list" "$D/ix" "$F/base.fp"
	eq "$stderr" "sh-index: -l: only with add -u or delete"
}

@test "a bad times file met by a merge or an expire: one line, exit 2, the index as it was" {
	local t
	sh-index build "$D/ix" "$F/base.fp"
	sh-index add "$D/ix" <(sed 's/\tf/\tg/' "$F/base.fp" | head -n 3)
	t=$D/ix/tim-000001
	cp "$t" "$D/good"
	# The version, the count, the least time above the greatest.
	for off in 8 16 $(($(wc -c <"$D/good") - 16)); do
		cp "$D/good" "$t"
		"$FORGE" set "$t" "$off" 4 0xffffffff
		"$FORGE" seal "$t"
		cp -a "$D/ix" "$D/keep"
		run -2 --separate-stderr sh-index merge "$D/ix"
		[ "${#stderr_lines[@]}" -eq 1 ]
		[[ $stderr == "sh-index: $t: "* ]]
		run -2 --separate-stderr sh-index expire -o 1d "$D/ix"
		[ "${#stderr_lines[@]}" -eq 1 ]
		same_dir "$D/keep" "$D/ix"
		rm -rf "$D/keep"
	done
}

@test "strays named like index files (empty, a FIFO, a link) are a writer's leftovers, removed; a first build that fails leaves no directory" {
	sh-index build "$D/ix" "$F/base.fp"
	: >"$D/ix/seg-000077"
	mkfifo "$D/ix/seg-000078"
	ln -s "$F/base.fp" "$D/ix/tim-000079"
	sh-index verify "$D/ix"
	run -0 timeout 1 sh-index add "$D/ix" <(sed 's/\tf/\tg/' "$F/base.fp" | head -n 2)
	run -0 ls "$D/ix"
	eq "$output" "$(printf 'LOCK\nMANIFEST\nseg-000001\nseg-000002\ntim-000001\ntim-000002')"
	[ -s "$F/base.fp" ]
	run -2 sh-index build "$D/new" <<<"no fingerprint"
	[ ! -e "$D/new" ]
}
