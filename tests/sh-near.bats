#!/usr/bin/env bats
# sh-near: pairs, clusters and streaming dedup over fingerprint lines.

load helper

# The default features of fingerprint version 1, for tests of other rules.
V1='-n 2 -w 1 -W tf'

setup() {
	printf '0000000000000000\ta\n0000000000000007\tb\n000000000000000f\tc\nffffffffffffffff\td\n' >"$BATS_TEST_TMPDIR/n.fp"
}

@test "pairs within 3, each once, earlier ID first" {
	run -0 --separate-stderr sh-near "$BATS_TEST_TMPDIR/n.fp"
	eq "$output" "$(printf 'a\tb\t3\nb\tc\t1')"
	eq "$stderr" ""
}

@test "-k 0 finds exact duplicates; nothing near exits 1" {
	printf '00000000000000ff\tx\n00000000000000ff\ty\n00000000000000fe\tz\n' >"$BATS_TEST_TMPDIR/d.fp"
	run -0 sh-near -k 0 "$BATS_TEST_TMPDIR/d.fp"
	eq "$output" "$(printf 'x\ty\t0')"
	run -1 sh-near -k 0 "$BATS_TEST_TMPDIR/n.fp"
	eq "$output" ""
}

@test "-g: each line with the copy that stays; a chain does not join the copies apart; -gg the connected components" {
	# a-b at 3, b-c at 1, a-c at 4: c is not within 3 of a, which
	# stays, so c stays too; -u keeps the same.
	run -0 sh-near -g "$BATS_TEST_TMPDIR/n.fp"
	eq "$output" "$(printf 'a\ta\na\tb\nc\tc\nd\td')"
	run -0 sh-near -u "$BATS_TEST_TMPDIR/n.fp"
	eq "$(cut -f 2 <<<"$output")" "$(printf 'a\nc\nd')"
	run -0 sh-near -gg "$BATS_TEST_TMPDIR/n.fp"
	eq "$output" "$(printf 'a\ta\na\tb\na\tc\nd\td')"
	run -0 sh-near -g -g -S 1M "$BATS_TEST_TMPDIR/n.fp"
	eq "$output" "$(printf 'a\ta\na\tb\na\tc\nd\td')"
	run -0 sh-near -g -S 1M "$BATS_TEST_TMPDIR/n.fp"
	eq "$output" "$(printf 'a\ta\na\tb\nc\tc\nd\td')"
}

@test "-u passes the first copies through unchanged" {
	printf '0000000000000000\ta\tx y\n0000000000000001\tb\nFFFFFFFFFFFFFFFF\tc\n' >"$BATS_TEST_TMPDIR/u.fp"
	run -0 sh-near -u "$BATS_TEST_TMPDIR/u.fp"
	eq "$output" "$(printf '0000000000000000\ta\tx y\nFFFFFFFFFFFFFFFF\tc')"
}

@test "-u compares with kept lines only" {
	run -0 sh-near -u "$BATS_TEST_TMPDIR/n.fp"
	eq "$output" "$(printf '0000000000000000\ta\n000000000000000f\tc\nffffffffffffffff\td')"
}

@test "agrees with brute force over sh-dist on 1500 planted fingerprints" {
	local d="$BATS_TEST_TMPDIR"
	rand_fps "$d/r.fp" 1500 7
	for k in 0 3 6; do
		awk -F '\t' '{ f[NR] = $1; id[NR] = $2 } END {
		    for (i = 1; i <= NR; i++) for (j = i + 1; j <= NR; j++)
			print f[i] "\t" f[j] "\t" id[i] "\t" id[j] }' "$d/r.fp" |
		    sh-dist -p -k "$k" | cut -f 3- >"$d/want.$k"
		sh-near -k "$k" "$d/r.fp" >"$d/got.$k"
		[ -s "$d/want.$k" ]
		same_files "$d/want.$k" "$d/got.$k"
	done
}

@test "output does not depend on threads or forced plans" {
	local d="$BATS_TEST_TMPDIR"
	rand_fps "$d/r.fp" 2000 3
	sh-near -j 1 "$d/r.fp" >"$d/a"
	sh-near -j 4 -r 1 "$d/r.fp" >"$d/b"
	sh-near -j 2 -r 3 "$d/r.fp" >"$d/c"
	[ -s "$d/a" ]
	same_files "$d/a" "$d/b"
	same_files "$d/a" "$d/c"
}

@test "stdin, '-', several files, no final newline" {
	run -0 sh -c "printf '0000000000000001\tq' | sh-near - '$BATS_TEST_TMPDIR/n.fp'"
	eq "$output" "$(printf 'q\ta\t1\nq\tb\t2\nq\tc\t3\na\tb\t3\nb\tc\t1')"
}

@test "empty input: no pairs, exit 1; -c and -u exit 0" {
	run -1 sh-near </dev/null
	eq "$output" ""
	run -0 sh-near -g </dev/null
	run -0 sh-near -u </dev/null
	eq "$output" ""
}

@test "malformed lines are reported with their position, the rest is used" {
	printf '0000000000000000\ta\nzz\n00000000000000zz\tb\n0000000000000001\tc\n' >"$BATS_TEST_TMPDIR/bad.fp"
	run -2 --separate-stderr sh-near "$BATS_TEST_TMPDIR/bad.fp"
	eq "$output" "$(printf 'a\tc\t1')"
	eq "$stderr" "$(printf 'sh-near: %s:2: too few fields\nsh-near: %s:3: fingerprint is not 16 hex digits' "$BATS_TEST_TMPDIR/bad.fp" "$BATS_TEST_TMPDIR/bad.fp")"
}

@test "missing file is reported and the others are used" {
	run -2 --separate-stderr sh-near nosuch "$BATS_TEST_TMPDIR/n.fp"
	eq "$output" "$(printf 'a\tb\t3\nb\tc\t1')"
	eq "$stderr" "sh-near: nosuch: No such file or directory"
}

@test "usage errors exit 2" {
	run -2 --separate-stderr sh-near -x
	eq "${stderr_lines[1]}" "usage: sh-near [-g | -gg | -u] [-i index [-K]] [-j threads] [-k max]"
	run -2 --separate-stderr sh-near -g -u
	eq "$stderr" "sh-near: -g and -u cannot be used together"
	run -2 --separate-stderr sh-near -u -S 1M
	eq "$stderr" "sh-near: -S: with -u, only with -v"
	run -2 --separate-stderr sh-near -P 0/2 -m p
	eq "$stderr" "sh-near: -P and -m cannot be used together"
	run -2 --separate-stderr sh-near -i ix -g
	eq "$stderr" "sh-near: -i and -g cannot be used together"
	run -2 --separate-stderr sh-near -m - </dev/null
	eq "$stderr" "sh-near: -m -: standard input cannot hold both the pairs and the fingerprints"
	run -2 --separate-stderr sh-near -k 17
	eq "$stderr" "sh-near: -k 17: number out of range"
	run -2 --separate-stderr sh-near -j 0
	eq "$stderr" "sh-near: -j 0: number out of range"
}

@test "write error on stdout: exit 2" {
	run -2 --separate-stderr sh -c "sh-near '$BATS_TEST_TMPDIR/n.fp' >/dev/full"
	eq "$stderr" "sh-near: stdout: No space left on device"
}

@test "fields after the ID (the count of sh-fp -c) are no part of it" {
	local d=$BATS_TEST_TMPDIR
	printf 'a\tthe cat sat on the mat\nb\tthe cat sat on the mat\n' >"$d/c.tsv"
	sh-fp $V1 -c "$d/c.tsv" >"$d/c.fp"
	eq "$(cut -f 2,3 "$d/c.fp")" "$(printf 'a\t6\nb\t6')"
	run -0 --separate-stderr sh-near "$d/c.fp"
	eq "$output" "$(printf 'a\tb\t0')"
	run -0 sh-near -g "$d/c.fp"
	eq "$output" "$(printf 'a\ta\na\tb')"
	run -0 sh-near -u "$d/c.fp"
	eq "$output" "$(head -n 1 "$d/c.fp")"
	run -0 sh-index build "$d/ix" "$d/c.fp"
	run -0 sh-index dump "$d/ix"
	eq "$output" "$(cut -f 1,2 "$d/c.fp")"
	run -0 sh -c "sh-near '$d/c.fp' | sh-dist $V1 -v '$d/c.tsv'"
	eq "$output" "$(printf 'a\tb\t0\t1.000000')"
}

@test "a file of several MiB is read by the threads: the same pairs and messages as from a pipe" {
	local d=$BATS_TEST_TMPDIR
	# 120,000 lines (3 MiB, so 2 threads each take one): planted
	# pairs, bad lines in both halves, CRLF lines, and no final newline.
	awk 'BEGIN {
		srand(7)
		for (i = 1; i <= 120000; i++) {
			if (i % 25013 == 0) { print "zz\tbad" i; continue }
			if (i % 31 == 0) { printf "%s\tcr%d\r\n", h, i; continue }
			h = ""
			for (j = 0; j < 16; j++)
				h = h substr("0123456789abcdef", int(rand() * 16) + 1, 1)
			if (i == 120000) { printf "%s\tlast", h; continue }
			print h "\tid" i
		}
	}' >"$d/big.fp"
	[ "$(wc -c <"$d/big.fp")" -gt 2200000 ]
	run -2 --separate-stderr sh-near -j 2 "$d/big.fp"
	local out=$output err=$stderr
	[ "$(printf '%s\n' "$out" | wc -l)" -gt 3800 ]
	eq "$(printf '%s\n' "$err" | head -n 1)" "sh-near: $d/big.fp:25013: fingerprint is not 16 hex digits"
	[ "$(printf '%s\n' "$err" | wc -l)" -eq 4 ]
	run -2 --separate-stderr sh-near -j 1 "$d/big.fp"
	eq "$output" "$out"
	eq "$stderr" "$err"
	run -2 --separate-stderr sh -c 'sh-near -j 2 <"$1"' sh "$d/big.fp"
	eq "$output" "$out"
	eq "$stderr" "${err//$d\/big.fp/<stdin>}"
	run -2 --separate-stderr sh-near -S 1M "$d/big.fp"
	eq "$output" "$out"
	eq "$stderr" "$err"
	# Lines of one width: the second thread's share starts at a line,
	# a copy of the line before it.
	awk 'BEGIN {
		srand(8)
		for (i = 1; i <= 100000; i++) {
			if (i % 10 != 1 || i == 1)
				h = sprintf("%08x%08x", int(rand() * 2^31),
				    int(rand() * 2^31))
			printf "%s	id%06d\n", h, i
		}
	}' >"$d/even.fp"
	eq "$(head -c 1300000 "$d/even.fp" | wc -l)" 50000
	eq "$(head -c 1300000 "$d/even.fp" | tail -n 1 | cut -f 2)" id050000
	run -0 sh-near -j 2 "$d/even.fp"
	out=$output
	eq "$(printf '%s\n' "$out" | grep -c 'id050000	id050001	0')" 1
	run -0 sh-near -j 1 "$d/even.fp"
	eq "$output" "$out"
}

@test "the IDs of the pairs are read back from the files: the same pairs as from a pipe" {
	local d=$BATS_TEST_TMPDIR out
	# Two files of URL IDs (one of 2 MiB, read by 2 threads) with pairs
	# within and across them (a quarter of the lines in pairs), and a
	# bad line in each.
	awk 'BEGIN {
		srand(9)
		for (i = 1; i <= 40000; i++) {
			if (i % 8 != 0)
				h = sprintf("%08x%08x", int(rand() * 2^31),
				    int(rand() * 2^31))
			f = i <= 30007 ? "a" : "b"
			if (i == 20000 || i == 35000)
				print "bad line" >("'"$d"'/" f ".fp")
			printf "%s\thttps://example.org/%d/page?id=%d\n", h,
			    i % 97, i >("'"$d"'/" f ".fp")
		}
	}'
	[ "$(wc -c <"$d/a.fp")" -gt 1100000 ]
	run -2 --separate-stderr sh -c 'cat "$1" "$2" | sh-near' sh "$d/a.fp" "$d/b.fp"
	out=$output
	eq "$(printf '%s\n' "$out" | wc -l)" 5000
	eq "$(printf '%s\n' "$out" | grep -c '?id=30007	https://example.org/[0-9]*/page?id=30008	0$')" 1
	run -2 --separate-stderr sh-near "$d/a.fp" "$d/b.fp"
	eq "$output" "$out"
	eq "$stderr" "$(printf 'sh-near: %s:20000: too few fields\nsh-near: %s:4993: too few fields' "$d/a.fp" "$d/b.fp")"
	run -2 --separate-stderr sh-near -j 1 "$d/a.fp" "$d/b.fp"
	eq "$output" "$out"
	run -0 sh -c 'for s in 0 1; do
	    sh-near -j 3 -P $s/2 "$1" "$2" 2>/dev/null; done | sort' sh \
	    "$d/a.fp" "$d/b.fp"
	eq "$output" "$(printf '%s\n' "$out" | sort)"
	# A pipe among the operands: the IDs are held from the start.
	run -2 --separate-stderr bash -c 'sh-near "$1" <(cat "$2")' sh \
	    "$d/a.fp" "$d/b.fp"
	eq "$output" "$out"
	run -2 --separate-stderr sh -c 'cat "$1" "$2" | sh-near -g' sh \
	    "$d/a.fp" "$d/b.fp"
	out=$output
	run -2 --separate-stderr sh-near -g "$d/a.fp" "$d/b.fp"
	eq "$output" "$out"
}
