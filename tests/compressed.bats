#!/usr/bin/env bats
# Compressed input: gzip, bzip2, xz and zstd operands and documents are
# told by their first bytes and read through the system's decompressor,
# run as a child process; its failures are one line naming the file, and
# no child outlives the tool.

load helper

# The crawl's pages and its C source: no response skipped, none said.
export W='-f warc -M text/html,text/x-csrc'

setup() {
	D=$BATS_TEST_TMPDIR
	zcat "$FIXTURES/crawl.warc.gz" >"$D/crawl.warc"
	for z in gzip bzip2 xz zstd; do
		command -v $z >/dev/null || skip "$z is needed"
		$z -c "$D/crawl.warc" >"$D/crawl.warc.$z"
	done
	sh-fp $W "$D/crawl.warc" >"$D/want.fp"
	[ -s "$D/want.fp" ]
}

# A decompressor of our own, first in PATH, named after the real one:
# fake NAME SCRIPT.
fake() {
	mkdir -p "$D/fake"
	printf '#!/bin/sh\n%s\n' "$2" >"$D/fake/$1"
	chmod +x "$D/fake/$1"
}

@test "every kind, from a file and from a pipe, gives the bytes of the plain file" {
	for z in gzip bzip2 xz zstd; do
		run -0 --separate-stderr sh-fp $W "$D/crawl.warc.$z"
		eq "$output" "$(cat "$D/want.fp")"
		run -0 --separate-stderr sh -c 'cat "$1" | sh-fp $W' sh "$D/crawl.warc.$z"
		eq "$output" "$(cat "$D/want.fp")"
		run -0 --separate-stderr sh -c 'sh-fp $W <"$1"' sh "$D/crawl.warc.$z"
		eq "$output" "$(cat "$D/want.fp")"
	done
	# A .warc.gz of one gzip member a record, as wget writes it.
	run -0 --separate-stderr sh-fp $W "$FIXTURES/crawl.warc.gz"
	eq "$output" "$(cat "$D/want.fp")"
	eq "$stderr" ""
}

@test "every tool reads compressed operands" {
	gzip -c "$D/want.fp" >"$D/fp.gz"
	xz -c "$D/want.fp" >"$D/fp.xz"
	run -0 sh-near -k 8 "$D/want.fp"
	want=$output
	run -0 sh-near -k 8 "$D/fp.gz"
	eq "$output" "$want"
	run -0 sh-near -k 8 "$D/fp.xz" 
	eq "$output" "$want"
	run -0 sh -c 'cat "$1" | sh-near -k 8' sh "$D/fp.gz"
	eq "$output" "$want"
	run -0 sh-tokenize $W "$D/crawl.warc"
	want=$output
	run -0 sh-tokenize $W "$D/crawl.warc.bzip2"
	eq "$output" "$want"
	sh-index build "$D/a.idx" "$D/want.fp"
	sh-index build "$D/b.idx" "$D/fp.gz"
	eq "$(sh-index dump "$D/b.idx")" "$(sh-index dump "$D/a.idx")"
	cut -f 1 "$D/want.fp" | head -n 4 | paste - - | gzip >"$D/pairs.gz"
	run -0 sh-dist -p "$D/pairs.gz"
	eq "$output" "$(cut -f 1 "$D/want.fp" | head -n 4 | paste - - | sh-dist -p)"
}

@test "-v reads compressed documents once, with no copy of them left" {
	sh-fp -B $W "$D/crawl.warc" >"$D/sk"
	run -0 sh-near -v "$D/crawl.warc" $W -a 0.5 "$D/sk"
	want=$output
	[ -n "$want" ]
	mkdir "$D/tmp"
	for z in gzip bzip2 xz zstd; do
		TMPDIR=$D/tmp run -0 --separate-stderr sh-near -v "$D/crawl.warc.$z" $W -a 0.5 "$D/sk"
		eq "$output" "$want"
		eq "$stderr" ""
		eq "$(ls -A "$D/tmp")" ""
	done
	cut -f 2 "$D/want.fp" | paste - - | sed -n 1p >"$D/pairs"
	run -0 sh-dist -v "$D/crawl.warc" $W "$D/pairs"
	want=$output
	run -0 sh-dist -v "$D/crawl.warc.xz" $W "$D/pairs"
	eq "$output" "$want"
	run -0 sh -c 'cat "$1" | sh-dist -v - $W "$2"' sh "$D/crawl.warc.gzip" "$D/pairs"
	eq "$output" "$want"
	U=http://news.example.org
	run -0 sh-dist -x $W "$D/crawl.warc" "$U/budget.html" "$U/budget-update.html"
	want=$output
	# The text lines name the file, and the record's bytes in what
	# its decompressor wrote.
	run -0 sh-dist -x $W "$D/crawl.warc.zstd" "$U/budget.html" "$U/budget-update.html"
	eq "$output" "${want//crawl.warc /crawl.warc.zstd }"
}

@test "-Z and -Y: a compressed file of -v decoded once, its records written as from the plain file" {
	sh-fp -B $W "$D/crawl.warc" >"$D/sk"
	sh-near -g -v "$D/crawl.warc" $W -a 0.5 -Y max:Content-Length \
	    -Z "$D/k" -Z "$D/r" "$D/sk" >"$D/g"
	[ -s "$D/r" ]
	mkdir "$D/tmp"
	for z in gzip bzip2 xz zstd; do
		# The decompressor, counted.
		real=$(command -v $z)
		fake $z "echo >>'$D/runs'; exec '$real' \"\$@\""
		: >"$D/runs"
		TMPDIR=$D/tmp PATH=$D/fake:$PATH run -0 --separate-stderr \
		    sh-near -g -v "$D/crawl.warc.$z" $W -a 0.5 \
		    -Y max:Content-Length -Z "$D/kz" -Z "$D/rz" "$D/sk"
		eq "$stderr" ""
		eq "$output" "$(cat "$D/g")"
		same_files "$D/k" "$D/kz"
		same_files "$D/r" "$D/rz"
		eq "$(wc -l <"$D/runs")" 1
		eq "$(ls -A "$D/tmp")" ""
		rm "$D/fake/$z"
	done
}

@test "a truncated or corrupt stream: one line naming the file and what failed, status 2" {
	n=$(wc -c <"$D/crawl.warc.gzip")
	head -c $((n - 40)) "$D/crawl.warc.gzip" >"$D/cut.gz"
	run -2 --separate-stderr sh-fp $W "$D/cut.gz"
	eq "$stderr" "sh-fp: $D/cut.gz: gzip: unexpected end of file"
	n=$(wc -c <"$D/crawl.warc.xz")
	head -c $((n - 40)) "$D/crawl.warc.xz" >"$D/cut.xz"
	run -2 --separate-stderr sh-fp $W "$D/cut.xz"
	eq "$stderr" "sh-fp: $D/cut.xz: xz: Unexpected end of input"
	run -2 --separate-stderr sh -c 'cat "$1" | sh-near -v - $W -a 0.5 "$2"' sh "$D/cut.xz" "$D/want.fp"
	eq "$output" ""
	eq "$stderr" "sh-near: <stdin>: xz: Unexpected end of input"
	# The other operands are still read.
	run -2 --separate-stderr sh-fp $W "$D/cut.gz" "$D/crawl.warc"
	eq "$(sed -n '$p' <<<"$output")" "$(sed -n '$p' "$D/want.fp")"
	eq "$stderr" "sh-fp: $D/cut.gz: gzip: unexpected end of file"
	# Corrupt: bytes changed in the middle.
	cp "$D/crawl.warc.bzip2" "$D/bad.bz2"
	printf 'XXXXXXXX' | dd of="$D/bad.bz2" bs=1 seek=200 conv=notrunc 2>/dev/null
	run -2 --separate-stderr sh-tokenize $W "$D/bad.bz2"
	[[ $stderr == "sh-tokenize: $D/bad.bz2: bzip2: "* ]]
	eq "${#stderr_lines[@]}" 1
}

@test "a missing or failing decompressor: one line, status 2, the other files read" {
	mkdir "$D/only"
	ln -s "$(command -v sh-fp)" "$D/only/sh-fp"
	run -2 --separate-stderr env PATH="$D/only" "$D/only/sh-fp" $W "$D/crawl.warc.zstd" "$D/crawl.warc"
	eq "$stderr" "sh-fp: $D/crawl.warc.zstd: zstd-compressed: cannot run zstd: No such file or directory"
	eq "$output" "$(cat "$D/want.fp")"
	fake gzip 'echo "gzip: stdin: invalid compressed data--format violated" >&2; exit 1'
	PATH=$D/fake:$PATH run -2 --separate-stderr sh-fp $W "$D/crawl.warc.gzip"
	eq "$output" ""
	eq "$stderr" "sh-fp: $D/crawl.warc.gzip: gzip: invalid compressed data--format violated"
	fake gzip 'kill -9 $$'
	PATH=$D/fake:$PATH run -2 --separate-stderr sh-fp $W "$D/crawl.warc.gzip"
	eq "$stderr" "sh-fp: $D/crawl.warc.gzip: gzip: killed by signal 9"
	fake gzip 'exit 3'
	PATH=$D/fake:$PATH run -2 --separate-stderr sh-near "$D/crawl.warc.gzip"
	eq "$stderr" "sh-near: $D/crawl.warc.gzip: gzip: exit status 3"
}

@test "no decompressor outlives the tool: at the end, on SIGPIPE, on an error, on a signal" {
	# A large stream, so that the decompressor is still writing.
	for i in $(seq 200); do cat "$D/crawl.warc"; done | gzip -1 >"$D/big.gz"
	real=$(command -v gzip)
	fake gzip "echo \$\$ >>'$D/pids'; exec '$real' \"\$@\""
	export PATH=$D/fake:$PATH
	run -0 sh -c 'sh-fp $W "$1" | head -n 1' sh "$D/big.gz"
	eq "$output" "$(head -n 1 "$D/want.fp")"
	! sh-fp $W -P 0/2 "$D/big.gz" 2>/dev/null
	# Killed while it waits for a reader that does not read.
	mkfifo "$D/fifo"
	exec 7<>"$D/fifo"
	sh-tokenize $W "$D/big.gz" >"$D/fifo" &
	pid=$!
	sleep 0.5
	kill -TERM $pid
	wait $pid || true
	exec 7>&-
	# Every decompressor started has ended (a zombie that no init
	# reaps has ended too).
	sleep 0.5
	[ "$(wc -l <"$D/pids")" -ge 2 ]
	while read -r p; do
		state=$(sed 's/.*) //' "/proc/$p/stat" 2>/dev/null | cut -c 1)
		[ -z "$state" ] || [ "$state" = Z ] || { echo "gzip $p still runs"; return 1; }
	done <"$D/pids"
}

@test "plain text that starts like a compressed stream, on a pipe, is read as it is" {
	printf 'BZh\tBig text\n(a\tround\n' >"$D/b.tsv"
	run -0 sh -c 'cat "$1" | sh-fp' sh "$D/b.tsv"
	eq "$output" "$(sh-fp "$D/b.tsv")"
	printf 'Bob\tBig text\n' | sh-fp >"$D/got"
	eq "$(cut -f 2 "$D/got")" "Bob"
	# "-" twice: the second reads nothing.
	run -0 sh -c 'cat "$1" | sh-fp - -' sh "$D/b.tsv"
	eq "$output" "$(sh-fp "$D/b.tsv")"
}

@test "-P: compressed data does not split by bytes" {
	run -2 --separate-stderr sh-fp -P 0/2 $W "$D/crawl.warc.gzip"
	eq "$output" ""
	eq "$stderr" "sh-fp: $D/crawl.warc.gzip: -P: gzip-compressed data does not split by bytes: give each process whole files"
}

@test "-v: several files, or a file that lists them; IDs unique across them, a duplicate named" {
	awk 'NR % 2' "$FIXTURES/sample.tsv" >"$D/a.tsv"
	awk 'NR % 2 == 0' "$FIXTURES/sample.tsv" | gzip >"$D/b.tsv.gz"
	sh-fp -B "$FIXTURES/sample.tsv" >"$D/sk"
	run -0 sh-near -v "$FIXTURES/sample.tsv" -a 0.5 "$D/sk"
	want=$output
	[ -n "$want" ]
	run -0 --separate-stderr sh-near -v "$D/a.tsv" -v "$D/b.tsv.gz" -a 0.5 "$D/sk"
	eq "$output" "$want"
	eq "$stderr" ""
	printf '%s\n' "$D/a.tsv" "" "$D/b.tsv.gz" >"$D/list"
	run -0 --separate-stderr sh-near -v @"$D/list" -a 0.5 "$D/sk"
	eq "$output" "$want"
	# A record whose ID a file before holds: counted and named, the
	# first one read.
	head -n 1 "$D/a.tsv" | sed 's/\t.*/\tsomething else entirely/' >"$D/c.tsv"
	run -0 --separate-stderr sh-near -v "$D/a.tsv" -v "$D/b.tsv.gz" -v "$D/c.tsv" -a 0.5 "$D/sk"
	eq "$output" "$want"
	id=$(head -n 1 "$D/a.tsv" | cut -f 1)
	eq "$stderr" "sh-near: $D/a.tsv, $D/b.tsv.gz, $D/c.tsv: 1 document(s) with the ID of one before, not read (the first of an ID is): \"$id\""
	printf '%s\n' "$D/a.tsv" "$D/b.tsv.gz" "$D/c.tsv" "$D/a.tsv" >"$D/list"
	run -1 --separate-stderr sh-dist -v @"$D/list" /dev/null
	[[ $stderr == "sh-dist: $D/a.tsv, $D/b.tsv.gz, $D/c.tsv and 1 more: "*" document(s) with the ID of one before"* ]]
	run -2 --separate-stderr sh-near -v @"$D/nolist" "$D/sk"
	eq "$stderr" "sh-near: $D/nolist: No such file or directory"
	: >"$D/empty"
	run -2 --separate-stderr sh-near -v @"$D/empty" "$D/sk"
	eq "$stderr" "sh-near: $D/empty: no file named"
	# Numbered lines of several files: "NAME:N", as sh-fp names them.
	sh-fp -B -l "$D/a.tsv" "$D/c.tsv" >"$D/lsk"
	run -0 --separate-stderr sh-near -l -v "$D/a.tsv" -v "$D/c.tsv" -a 0.1 "$D/lsk"
	eq "$stderr" ""
	[ -n "$output" ]
	awk '{ print FILENAME ":" FNR "\t" $0 }' "$D/a.tsv" "$D/c.tsv" >"$D/named"
	eq "$output" "$(sh-near -v "$D/named" -a 0.1 "$D/lsk")"
}

@test "-F: a compressed file is one document, its text decoded, verified so too" {
	mkdir "$D/dump"
	printf 'the council met on tuesday to discuss the budget for the coming year\n' >"$D/dump/a.txt"
	printf 'the council met on tuesday to discuss the budget for the coming year\n' | gzip >"$D/dump/b.txt.gz"
	printf 'the council met on monday to discuss the budget for the coming year\n' | xz >"$D/dump/c.txt.xz"
	cd "$D/dump"
	run -0 --separate-stderr sh -c 'sh-fp -F -B a.txt b.txt.gz c.txt.xz | sh-near -v . -F -a 0.5'
	eq "${lines[0]}" "$(printf 'a.txt\tb.txt.gz\t0\t1.000000')"
	sim=$(sh-dist -v . -F <<<"a.txt	c.txt.xz" | cut -f 3)
	[[ ${lines[1]} == "a.txt	c.txt.xz	"*"	$sim" ]]
	[[ ${lines[2]} == "b.txt.gz	c.txt.xz	"*"	$sim" ]]
	run -0 sh-dist -v . -F <<<"a.txt	b.txt.gz"
	eq "$output" "a.txt	b.txt.gz	1.000000"
	# A compressed file cut short is the decompressor's failure.
	head -c 20 b.txt.gz >d.txt.gz
	run -2 --separate-stderr sh-dist -v . -F <<<"a.txt	d.txt.gz"
	eq "$stderr" "sh-dist: .: the decompressor failed"
}

@test "sh-dist -x doc1 doc2: a compressed file read decoded; a broken one said" {
	printf 'the council met on tuesday to discuss the budget\n' | gzip >"$D/x.txt.gz"
	printf 'the council met on tuesday to discuss the budget\n' >"$D/x.txt"
	printf 'the council met on monday to discuss the budget\n' >"$D/y.txt"
	run -0 sh-dist -x "$D/x.txt" "$D/y.txt"
	want=$output
	run -0 sh-dist -x "$D/x.txt.gz" "$D/y.txt"
	eq "$output" "${want//x.txt/x.txt.gz}"
	head -c 10 "$D/x.txt.gz" >"$D/bad.gz"
	run -2 --separate-stderr sh-dist -x "$D/bad.gz" "$D/y.txt"
	eq "$stderr" "sh-dist: $D/bad.gz:1: the decompressor failed"
}
