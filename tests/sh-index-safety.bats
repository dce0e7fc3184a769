#!/usr/bin/env bats
# sh-index under damage and accidents: corrupt, truncated and foreign
# files, a writer killed at any moment, concurrent writers, a full disk.

load helper

setup() {
	D=$BATS_TEST_TMPDIR
	rand_fps "$D/base.fp" 500 21
	sh-index build "$D/ix" "$D/base.fp"
	SEG=$(ls "$D"/ix/seg-*)
	LC_ALL=C sort "$D/base.fp" >"$D/base.sorted"
}

# big FILE N PREFIX SEED: rand_fps with IDs PREFIX1..PREFIXN.
big() {
	rand_fps "$1" "$2" "$4"
	sed -i "s/\tf/\t$3/" "$1"
}

# poke FILE OFFSET: overwrite one byte of FILE at OFFSET.
poke() {
	printf 'Z' | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}

# verify and the searches, mapped and loaded, fail with message $1.
search_fails() {
	run -2 --separate-stderr sh-index verify "$D/ix"
	eq "$stderr" "sh-index: $1"
	run -2 --separate-stderr sh-near -i "$D/ix" "$D/base.fp"
	eq "$stderr" "sh-near: $1"
	run -2 --separate-stderr sh-near -K -i "$D/ix" "$D/base.fp"
	eq "$stderr" "sh-near: $1"
}

# Every way of reading the whole index fails with message $1 (info reads
# headers only: with $2, it must fail too).
all_fail() {
	local cmd
	for cmd in "sh-index dump" ${2:+"sh-index info"}; do
		run -2 --separate-stderr $cmd "$D/ix"
		eq "$stderr" "sh-index: $1"
	done
	search_fails "$1"
}

@test "a corrupt byte anywhere in a segment is an error, never an answer" {
	local size off
	size=$(wc -c <"$SEG")
	cp "$SEG" "$D/good"
	# Header, table 0, table 1, the ID offsets, the checksums.
	for off in 0 100 128 1000 5000 $((size - 5500)) $((size - 9)) \
	    $((size - 1)); do
		cp "$D/good" "$SEG"
		poke "$SEG" "$off"
		if [ "$off" -eq 0 ]; then
			all_fail "$SEG: not an sh index"
		elif [ "$off" -eq 5000 ]; then
			# dump reads table 0 and the IDs only: it recovers them.
			search_fails "$SEG: corrupt index file"
			sh-index dump "$D/ix" | LC_ALL=C sort >"$D/got"
			same_files "$D/base.sorted" "$D/got"
		else
			all_fail "$SEG: corrupt index file"
		fi
	done
}

@test "lean: a corrupt byte in any section is an error, never an answer" {
	local size n off
	sh-index build -E -O "$D/ix" "$D/base.fp"
	SEG=$(ls "$D"/ix/seg-*)
	n=$(sh-index info "$D/ix" | sed -n 's/^fingerprints\t//p')
	size=$(wc -c <"$SEG")
	cp "$SEG" "$D/good"
	# Header, table 0, table 1's tags, its references, the checksums.
	for off in 100 1000 $((128 + 8 * n + 50)) $((128 + 9 * n + 200)) \
	    $((size - 1)); do
		cp "$D/good" "$SEG"
		poke "$SEG" "$off"
		search_fails "$SEG: corrupt index file"
	done
	cp "$D/good" "$SEG"
	sh-near -i "$D/ix" "$D/base.fp" >/dev/null
}

@test "a truncated or foreign segment is rejected" {
	cp "$SEG" "$D/good"
	head -c 100 "$D/good" >"$SEG"
	all_fail "$SEG: truncated index file" info
	head -c 5000 "$D/good" >"$SEG"
	all_fail "$SEG: truncated index file" info
	: >"$SEG"
	all_fail "$SEG: truncated index file" info
	echo 'just some text' >"$SEG"
	all_fail "$SEG: not an sh index" info
	rm "$SEG"
	all_fail "$SEG: No such file or directory" info
}

@test "a damaged MANIFEST is rejected" {
	local m="$D/ix/MANIFEST"
	cp "$m" "$D/good"
	sed 's/ 500$/ 501/' "$D/good" >"$m"
	all_fail "$m: corrupt index file" info
	head -n 2 "$D/good" >"$m"
	all_fail "$m: truncated index file" info
	sed 's/^sh-index 1$/sh-index 2/' "$D/good" >"$m"
	all_fail "$m: corrupt index file" info
	echo hello >"$m"
	all_fail "$m: not an sh index" info
	rm "$m"
	all_fail "$D/ix: not an sh index" info
}

@test "a segment swapped for another one is rejected" {
	printf '1111111111111111\tx\n' | sh-index build "$D/other"
	cp "$D"/other/seg-* "$SEG"
	all_fail "$SEG: corrupt index file" info
}

# wait_tmp DIR: wait (up to 20 s) until a writer's temporary file shows
# in DIR.
wait_tmp() {
	local i
	for i in $(seq 2000); do
		ls "$1" | grep -q '\.tmp$' && return 0
		sleep 0.01
	done
	return 1
}

@test "kill -9 at any moment of an add leaves an index that is old or new" {
	local when got midwrite=0
	big "$D/new.fp" 1000000 n 31
	LC_ALL=C sort "$D/base.fp" "$D/new.fp" >"$D/both.sorted"
	# While reading the input, then while writing (when the temporary
	# file appears, and later), then perhaps after the rename.
	for when in 0.05 0.2 tmp tmp+0.05 tmp+0.1 tmp+0.2 tmp+0.4 tmp+0.8; do
		sh-index add "$D/ix" "$D/new.fp" &
		case $when in
		tmp*)	wait_tmp "$D/ix" && midwrite=$((midwrite + 1))
			sleep "${when#tmp+}" 2>/dev/null || true ;;
		*)	sleep "$when" ;;
		esac
		kill -9 $! 2>/dev/null || true
		wait $! || true
		sh-index verify "$D/ix"
		sh-index dump "$D/ix" | LC_ALL=C sort >"$D/got"
		if cmp -s "$D/got" "$D/both.sorted"; then
			got=new
			sh-index build -O "$D/ix" "$D/base.fp"
		else
			same_files "$D/base.sorted" "$D/got"
			got=old
		fi
		echo "killed at $when: $got index"
	done
	[ "$midwrite" -gt 0 ]
	# The next writer removes what killed ones left.
	printf '2222222222222222\tlast\n' | sh-index add "$D/ix"
	run -0 ls "$D/ix"
	[ "$(grep -c -v -e '^seg-[0-9]*$' -e '^tim-[0-9]*$' -e '^MANIFEST$' -e '^LOCK$' <<<"$output")" -eq 0 ]
	[ "$(grep -c '^seg-' <<<"$output")" -eq "$(($(wc -l <"$D/ix/MANIFEST") - 3))" ]
}

@test "band tables: kill -9 at any moment of an add leaves an index that is old or new" {
	local when got midwrite=0
	# 100,000 sketch lines whose keys agree nowhere: random values.
	awk 'BEGIN { srand(41); for (i = 1; i <= 100000; i++) {
		s = ""; for (j = 0; j < 64; j++) s = s sprintf("%08x",
		    int(rand() * 4294967296))
		printf "%016x\tb%d\tm1:%s\n", i, i, s } }' >"$D/new.fpb"
	head -n 1000 "$D/new.fpb" | sed 's/\tb/\ta/' >"$D/base.fpb"
	sh-index build -a 0.8 "$D/bx" "$D/base.fpb"
	cut -f 1,2 "$D/base.fpb" >"$D/bold"
	cut -f 1,2 "$D/base.fpb" "$D/new.fpb" >"$D/bnew"
	for when in 0.05 tmp tmp+0.05 tmp+0.1 tmp+0.2 tmp+0.4 tmp+0.8; do
		sh-index add "$D/bx" "$D/new.fpb" &
		case $when in
		tmp*)	wait_tmp "$D/bx" && midwrite=$((midwrite + 1))
			sleep "${when#tmp+}" 2>/dev/null || true ;;
		*)	sleep "$when" ;;
		esac
		kill -9 $! 2>/dev/null || true
		wait $! || true
		sh-index verify "$D/bx"
		sh-index dump "$D/bx" >"$D/got"
		if cmp -s "$D/got" "$D/bnew"; then
			got=new
			sh-index build -O -a 0.8 "$D/bx" "$D/base.fpb"
		else
			same_files "$D/bold" "$D/got"
			got=old
		fi
		echo "killed at $when: $got index"
	done
	[ "$midwrite" -gt 0 ]
	head -n 1 "$D/base.fpb" | sh-index add "$D/bx"
	run -0 ls "$D/bx"
	[ "$(grep -c -v -e '^seg-[0-9]*$' -e '^tim-[0-9]*$' -e '^MANIFEST$' -e '^LOCK$' <<<"$output")" -eq 0 ]
}

@test "kill -9 at any moment of a delete or a merge leaves an index that is old or new" {
	local verb when got old midwrite=0
	big "$D/new.fp" 1000000 n 32
	sh-index add "$D/ix" "$D/new.fp"
	# A delete of a tenth of the IDs, then a merge of what is left.
	awk 'NR % 10 == 0 { print $2 }' "$D/new.fp" >"$D/gone"
	cp -a "$D/ix" "$D/ix0"
	sh-index dump "$D/ix" | LC_ALL=C sort >"$D/full.sorted"
	awk -F '\t' 'NR == FNR { g[$1] = 1; next } !($2 in g)' "$D/gone" \
	    "$D/full.sorted" >"$D/left.sorted"
	for verb in delete merge; do
		old=$D/full.sorted
		[ "$verb" = delete ] || old=$D/left.sorted
		for when in 0.05 tmp tmp+0.05 tmp+0.1 tmp+0.3 tmp+0.6; do
			if [ "$verb" = delete ]; then
				rm -rf "$D/ix"
				cp -a "$D/ix0" "$D/ix"
				sh-index delete "$D/ix" "$D/gone" >/dev/null &
			else
				rm -rf "$D/ix"
				cp -a "$D/ix1" "$D/ix"
				sh-index merge "$D/ix" &
			fi
			case $when in
			tmp*)	wait_tmp "$D/ix" && midwrite=$((midwrite + 1))
				sleep "${when#tmp+}" 2>/dev/null || true ;;
			*)	sleep "$when" ;;
			esac
			kill -9 $! 2>/dev/null || true
			wait $! || true
			sh-index verify "$D/ix"
			sh-index dump "$D/ix" | LC_ALL=C sort >"$D/got"
			if cmp -s "$D/got" "$D/left.sorted"; then
				got=new
			else
				same_files "$old" "$D/got"
				got=old
			fi
			echo "$verb killed at $when: $got index"
			# The next writer removes what the killed one left.
			sh-index add "$D/ix" </dev/null
			run -0 ls "$D/ix"
			eq "$(grep -v -x -e LOCK -e MANIFEST <<<"$output" | sort)" \
			    "$(awk 'NR > 2 && $1 != "end" { print $1; print "tim-" substr($1, 5); if (NF > 3) print $4 }' \
			    "$D/ix/MANIFEST" | sort)"
		done
		[ "$verb" = merge ] || { rm -rf "$D/ix1"; cp -a "$D/ix0" \
		    "$D/ix1"; sh-index delete "$D/ix1" "$D/gone" >/dev/null; }
	done
	[ "$midwrite" -gt 0 ]
}

@test "concurrent adds are serialized and all batches land" {
	local i
	for i in 1 2 3 4; do
		big "$D/b$i.fp" 20000 "b$i-" "4$i"
	done
	for i in 1 2 3 4; do
		sh-index add "$D/ix" "$D/b$i.fp" &
	done
	wait
	sh-index verify "$D/ix"
	sh-index dump "$D/ix" | LC_ALL=C sort >"$D/got"
	LC_ALL=C sort "$D/base.fp" "$D"/b?.fp >"$D/want"
	same_files "$D/want" "$D/got"
}

@test "add -u: concurrent nightly runs on one batch add each new line once, beside readers" {
	local i
	big "$D/night.fp" 20000 n 47
	# What one run alone would add: the lines new to the index and to
	# the lines before them.
	sh-near -u -i "$D/ix" "$D/night.fp" >"$D/want"
	[ "$(wc -l <"$D/want")" -gt 10000 ]
	for i in 1 2 3 4; do
		sh-index add -u "$D/ix" "$D/night.fp" >"$D/added.$i" &
	done
	for i in $(seq 10); do
		sh-near -i "$D/ix" -k 0 "$D/base.fp" | cut -f 1 | sort -u |
		    wc -l >"$D/seen"
		[ "$(cat "$D/seen")" -eq 500 ]
	done
	wait
	sh-index verify "$D/ix"
	# One run added them all, the others nothing.
	cat "$D"/added.? | same_files "$D/want" -
	[ "$(for i in 1 2 3 4; do [ -s "$D/added.$i" ] && echo x; done |
	    wc -l)" -eq 1 ]
	sh-index dump "$D/ix" | LC_ALL=C sort >"$D/got"
	LC_ALL=C sort "$D/base.fp" "$D/want" | same_files - "$D/got"
}

@test "add -u in shards: each shard adds and prints only its own new lines" {
	local i
	big "$D/night.fp" 2000 n 48
	for i in 0 1; do
		sh-index build -P $i/2 "$D/part.$i" "$D/base.fp"
		sh-index add -u "$D/part.$i" "$D/night.fp" >"$D/added.$i"
		# Its lines only, all of them in the index.
		sh-index dump "$D/part.$i" | cut -f 2 | LC_ALL=C sort >"$D/dump.$i"
		cut -f 2 "$D/added.$i" | LC_ALL=C sort | comm -23 - "$D/dump.$i" |
		    same_files /dev/null -
	done
	[ -s "$D/added.0" ] && [ -s "$D/added.1" ]
	# Together, no line twice.
	cat "$D"/added.? | cut -f 2 | LC_ALL=C sort | uniq -d | same_files /dev/null -
}

@test "add -u: band tables, concurrent runs add each new line once" {
	local d=$BATS_TEST_TMPDIR i
	near_copies "$d/docs" 40 5
	sh-fp -B "$d/docs" >"$d/all.fpb"
	head -n 40 "$d/all.fpb" | sh-index build -a 0.8 "$d/bx"
	sh-near -u -i "$d/bx" "$d/all.fpb" >"$d/want"
	for i in 1 2 3; do
		sh-index add -u "$d/bx" "$d/all.fpb" >"$d/added.$i" &
	done
	wait
	cat "$d"/added.? | same_files "$d/want" -
	sh-index dump "$d/bx" | cut -f 2 | LC_ALL=C sort >"$d/got"
	{ head -n 40 "$d/all.fpb"; cat "$d/want"; } | cut -f 2 | LC_ALL=C sort |
	    same_files - "$d/got"
}

@test "readers keep working while a writer replaces segments" {
	local i
	big "$D/new.fp" 20000 w 32
	head -n 50 "$D/base.fp" >"$D/q.fp"
	sh-near -i "$D/ix" "$D/q.fp" >"$D/want"
	(for i in 1 2 3 4 5 6; do
		sh-index build -O "$D/ix" "$D/base.fp"
		sh-index add "$D/ix" "$D/new.fp"
	done) &
	for i in $(seq 40); do
		sh-near -i "$D/ix" "$D/q.fp" | grep -v $'\tw[0-9]*\t' >"$D/got"
		same_files "$D/want" "$D/got"
	done
	wait
}

@test "a full disk: add fails cleanly, the index is unchanged" {
	big "$D/new.fp" 100000 f 33
	run -2 --separate-stderr sh -c "ulimit -f 200; trap '' XFSZ; exec sh-index add '$D/ix' '$D/new.fp'"
	[[ "$stderr" == "sh-index: $D/ix/seg-"*".tmp: File too large" ]]
	sh-index verify "$D/ix"
	sh-index dump "$D/ix" | LC_ALL=C sort >"$D/got"
	same_files "$D/base.sorted" "$D/got"
	[ "$(ls "$D/ix" | grep -c tmp)" -eq 0 ]
}

@test "a MANIFEST, a segment or a LOCK that is a FIFO is refused at once" {
	local d=$BATS_TEST_TMPDIR
	cp -a "$D/ix" "$d/f1"
	rm "$d/f1/MANIFEST"
	mkfifo "$d/f1/MANIFEST"
	run -2 --separate-stderr timeout 10 sh-index info "$d/f1"
	eq "$stderr" "sh-index: $d/f1/MANIFEST: not a regular file"
	run -2 --separate-stderr timeout 10 sh-index add "$d/f1" "$D/base.fp"
	eq "$stderr" "sh-index: $d/f1/MANIFEST: not a regular file"
	cp -a "$D/ix" "$d/f2"
	rm "$d/f2/seg-000001"
	mkfifo "$d/f2/seg-000001"
	run -2 --separate-stderr timeout 10 sh-index verify "$d/f2"
	eq "$stderr" "sh-index: $d/f2/seg-000001: not a regular file"
	run -2 --separate-stderr timeout 10 sh-near -i "$d/f2" "$D/base.fp"
	eq "$stderr" "sh-near: $d/f2/seg-000001: not a regular file"
	cp -a "$D/ix" "$d/f3"
	rm -f "$d/f3/LOCK"
	mkfifo "$d/f3/LOCK"
	run -2 --separate-stderr timeout 10 sh-index add "$d/f3" "$D/base.fp"
	eq "$stderr" "sh-index: $d/f3/LOCK: not a regular file"
}

@test "a LOCK that is a symbolic link is refused, its target not made" {
	local d=$BATS_TEST_TMPDIR
	cp -a "$D/ix" "$d/l"
	rm -f "$d/l/LOCK"
	ln -s "$d/made" "$d/l/LOCK"
	run -2 --separate-stderr sh-index add "$d/l" "$D/base.fp"
	eq "$stderr" "sh-index: $d/l/LOCK: Too many levels of symbolic links"
	[ ! -e "$d/made" ]
}

@test "build and add touch nothing in a directory that is not an index" {
	local d=$BATS_TEST_TMPDIR
	mkdir "$d/notes"
	echo x >"$d/notes/notes.tmp"
	run -2 --separate-stderr sh-index build "$d/notes" "$D/base.fp"
	eq "$stderr" "sh-index: $d/notes: not an sh index"
	run -2 --separate-stderr sh-index add "$d/notes" "$D/base.fp"
	eq "$stderr" "sh-index: $d/notes: not an sh index"
	eq "$(ls -A "$d/notes")" "notes.tmp"
	# A LOCK does not make an index of it, nor a file named like a
	# segment that is none.
	mkdir "$d/locked"
	: >"$d/locked/LOCK"
	echo mine >"$d/locked/seg-1"
	run -2 --separate-stderr sh-index build "$d/locked" "$D/base.fp"
	eq "$stderr" "sh-index: $d/locked: not an sh index"
	eq "$(cat "$d/locked/seg-1")" "mine"
	eq "$(ls -A "$d/locked" | tr '\n' ' ')" "LOCK seg-1 "
	# What a killed first build leaves is tidied away.
	mkdir "$d/killed"
	: >"$d/killed/LOCK"
	cp "$SEG" "$d/killed/seg-000007"
	echo half >"$d/killed/seg-000008.tmp"
	echo half >"$d/killed/MANIFEST.tmp"
	sh-index build "$d/killed" "$D/base.fp"
	eq "$(ls -A "$d/killed" | tr '\n' ' ')" "LOCK MANIFEST seg-000001 tim-000001 "
}

@test "an add checks what a reader checks: a damaged segment it does not merge stops it" {
	local d=$BATS_TEST_TMPDIR
	cp -a "$D/ix" "$d/x"
	printf 'Z' | dd of="$d/x/seg-000001" bs=1 seek=20 conv=notrunc 2>/dev/null
	cp "$d/x/seg-000001" "$d/damaged"
	# One line merges with nothing: the old segment is not read.
	run -2 --separate-stderr sh-index add "$d/x" <(head -n 1 "$D/base.fp")
	eq "$stderr" "sh-index: $d/x/seg-000001: corrupt index file"
	cmp "$d/x/seg-000001" "$d/damaged"
	eq "$(ls -A "$d/x" | tr '\n' ' ')" "LOCK MANIFEST seg-000001 tim-000001 "
}

@test "a MANIFEST or a segment that is a symbolic link is refused" {
	local d=$BATS_TEST_TMPDIR
	printf '0000000000000000\ta\n' >"$d/f"
	sh-index build "$d/lx" "$d/f"
	mv "$d/lx/seg-000001" "$d/elsewhere"
	ln -s "$d/elsewhere" "$d/lx/seg-000001"
	run -2 --separate-stderr sh-index info "$d/lx"
	eq "$stderr" "sh-index: $d/lx/seg-000001: Too many levels of symbolic links"
	run -2 --separate-stderr sh-index add "$d/lx" "$d/f"
	eq "$stderr" "sh-index: $d/lx/seg-000001: Too many levels of symbolic links"
	rm "$d/lx/seg-000001"
	mv "$d/elsewhere" "$d/lx/seg-000001"
	mv "$d/lx/MANIFEST" "$d/manifest"
	ln -s "$d/manifest" "$d/lx/MANIFEST"
	run -2 --separate-stderr sh-near -i "$d/lx" "$d/f"
	eq "$stderr" "sh-near: $d/lx/MANIFEST: Too many levels of symbolic links"
	rm "$d/lx/MANIFEST"
	mv "$d/manifest" "$d/lx/MANIFEST"
	run -0 sh-near -i "$d/lx" "$d/f"
	eq "$output" "$(printf 'a\ta\t0')"
	ln -s "$d/lx/seg-000001" "$d/lone"
	run -0 sh-index info "$d/lone"
}
