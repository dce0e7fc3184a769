#!/usr/bin/env bats
# make install and uninstall honour DESTDIR and PREFIX.

load helper

ROOT=$(cd "$BATS_TEST_DIRNAME/.." && pwd)

@test "make install puts programs and man pages under DESTDIR/PREFIX" {
	local d="$BATS_TEST_TMPDIR/root"
	run make -s -C "$ROOT" install DESTDIR="$d" PREFIX=/opt/sh
	[ "$status" -eq 0 ]
	for t in sh-dist sh-fp sh-tokenize; do
		[ -x "$d/opt/sh/bin/$t" ]
		[ -f "$d/opt/sh/share/man/man1/$t.1" ]
	done
	run "$d/opt/sh/bin/sh-dist" 0000000000000000 0000000000000003
	[ "$output" = 2 ]
	run make -s -C "$ROOT" uninstall DESTDIR="$d" PREFIX=/opt/sh
	[ "$status" -eq 0 ]
	run find "$d" -type f
	[ "$output" = "" ]
}
