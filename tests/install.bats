#!/usr/bin/env bats
# make install and uninstall honour DESTDIR and PREFIX; the man pages
# name the sample files where they are installed.

load helper

ROOT=$(cd "$BATS_TEST_DIRNAME/.." && pwd)

@test "make install puts programs, man pages and samples under DESTDIR/PREFIX" {
	local d="$BATS_TEST_TMPDIR/root" t
	run make -s -C "$ROOT" install DESTDIR="$d" PREFIX=/opt/sh
	[ "$status" -eq 0 ]
	for t in sh-dist sh-fp sh-index sh-near sh-tokenize; do
		[ -x "$d/opt/sh/bin/$t" ]
		[ -f "$d/opt/sh/share/man/man1/$t.1" ]
		run -0 "$d/opt/sh/bin/$t" -V
		eq "$output" "$t (sh) 0.12.0, fingerprint version 3, sketch version 1"
	done
	[ -f "$d/opt/sh/share/man/man5/sh-index.5" ]
	for t in sample.tsv sample.wet.gz short-zh.tsv zdump-zh.tsv; do
		cmp "$ROOT/tests/fixtures/$t" "$d/opt/sh/share/sh/$t"
	done
	run -0 grep -c /opt/sh/share/sh/sample.tsv "$d/opt/sh/share/man/man1/sh-near.1"
	[ "$output" -gt 0 ]
	run -1 grep -r /usr/local/share/sh "$d/opt/sh/share/man"
	run "$d/opt/sh/bin/sh-dist" 0000000000000000 0000000000000003
	[ "$output" = 2 ]
	run make -s -C "$ROOT" uninstall DESTDIR="$d" PREFIX=/opt/sh
	[ "$status" -eq 0 ]
	run find "$d" -type f
	[ "$output" = "" ]
	[ ! -e "$d/opt/sh/share/sh" ]
}

@test "an example of an installed man page runs on the installed samples" {
	local d="$BATS_TEST_TMPDIR/root"
	make -s -C "$ROOT" install DESTDIR="$d" PREFIX=/opt/sh
	# The man page names /opt/sh/share/sh: here it lies under DESTDIR.
	cmd=$(sed -n 's#^\$ \(sh-fp /opt/sh/share/sh/sample.tsv 2>/dev/null | sh-near\)$#\1#p' \
	    "$d/opt/sh/share/man/man1/sh-near.1" | sed "s#/opt/sh#$d/opt/sh#g")
	[ -n "$cmd" ]
	run -0 sh -c "PATH='$d/opt/sh/bin':\$PATH; $cmd"
	eq "$output" "$(sh-fp "$ROOT/tests/fixtures/sample.tsv" 2>/dev/null | sh-near)"
	[ "${#lines[@]}" -gt 0 ]
}
