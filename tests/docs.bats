#!/usr/bin/env bats
# Every example in the man pages and README is run and its output compared
# word for word with what the document shows; each must succeed, but for
# those that say "# exit N".

load helper

ROOT=$(cd "$BATS_TEST_DIRNAME/.." && pwd)

# Run the examples of document $1 from a scratch directory that holds the
# repository's tests/ and a small dump/ of files; fail on the first
# mismatch, naming the command.  Where GNU parallel is not installed, the
# first example that runs it and every one after it (they may use its
# output) are left out, and the test is skipped at the end.
check_examples() {
	local ex="$BATS_TEST_TMPDIR/ex" work="$BATS_TEST_TMPDIR/work" n=0 f want
	local left=0
	mkdir -p "$ex" "$work/dump/a"
	ln -s "$ROOT/tests" "$work/tests"
	printf 'first page\n' >"$work/dump/one.txt"
	printf 'second page\n' >"$work/dump/a/two.txt"
	"$ROOT/tests/doc-examples" "$ROOT/$1" "$ex"
	for f in "$ex"/*.cmd; do
		[ -e "$f" ] || break
		if [ "$left" -gt 0 ] || { grep -q '\bparallel\b' "$f" &&
		    ! command -v parallel >/dev/null; }; then
			left=$((left + 1))
			continue
		fi
		n=$((n + 1))
		# The sample files, installed in /usr/local/share/sh, are
		# the fixtures here.
		run sh -c "cd '$work' && $(sed 's|/usr/local/share/sh/|tests/fixtures/|g' "$f")"
		# An example that fails by design says so: "# exit N".
		want=$(sed -n 's/.*# exit \([0-9][0-9]*\).*/\1/p' "$f")
		if [ "$status" -ne "${want:-0}" ]; then
			echo "example: $(cat "$f")"
			echo "exit status $status, not ${want:-0}: $output"
			return 1
		fi
		if [ "$output" != "$(sed 's|/usr/local/share/sh/|tests/fixtures/|g' "${f%.cmd}.out")" ]; then
			echo "example: $(cat "$f")"
			echo "expected: $(cat "${f%.cmd}.out")"
			echo "got: $output"
			return 1
		fi
	done
	[ "$n" -gt 0 ] || { echo "no examples found in $1"; return 1; }
	[ "$left" -eq 0 ] || skip "GNU parallel is not installed: $left" \
	    "examples of $1 not run"
}

@test "README.md examples" {
	check_examples README.md
}

@test "sh-index(1) examples" {
	check_examples man/sh-index.1
}

@test "sh-tokenize(1) examples" {
	check_examples man/sh-tokenize.1
}

@test "sh-fp(1) examples" {
	check_examples man/sh-fp.1
}

@test "sh-dist(1) examples" {
	check_examples man/sh-dist.1
}

@test "sh-near(1) examples" {
	check_examples man/sh-near.1
}
