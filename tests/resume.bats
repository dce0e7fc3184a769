#!/usr/bin/env bats
# The clean crawl as a job over many files (sh-near -E): fingerprints a
# job a file, one global step deciding which copies stay, each file's
# clean copy a job of its own; a rerun after a killed job redoes that job
# only, and the result is the one process's, byte for byte.

load helper

# crawl DIR N: the near copies of 24 documents (4 each) as WARC
# responses, dealt in turn to N gzip files DIR/part-I.warc.gz, each with
# a warcinfo record first; DIR/files lists them.
crawl() {
	near_copies "$1/docs" 24 7
	awk -F '\t' -v dir="$1" -v n="$2" '
	function rec(f, type, extra, body) {
		printf "WARC/1.0\r\nWARC-Type: %s\r\n%sContent-Length: %d\r\n\r\n%s\r\n\r\n",
		    type, extra, length(body), body >f
	}
	BEGIN {
		for (i = 1; i <= n; i++)
			rec(dir "/part-" i ".warc", "warcinfo", "", "software: test")
	}
	{
		f = dir "/part-" (NR - 1) % n + 1 ".warc"
		body = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n" $2
		rec(f, "response", "WARC-Target-URI: http://h" NR % 3 "/" $1 "\r\n" \
		    "Content-Type: application/http; msgtype=response\r\n", body)
	}' "$1/docs"
	gzip "$1"/part-*.warc
	(cd "$1" && ls part-*.warc.gz | sort -t - -k 2 -n >files)
}

# A stand-in for ssh: the host is dropped and the command run here, as on
# a machine that sees the same directory.
fake_ssh() {
	cat >"$1" <<'SSH'
#!/bin/sh
shift
while [ "${1#-}" != "$1" ]; do shift; done
exec sh -c "$*"
SSH
	chmod +x "$1"
}

# The recipe of the README, on hosts $HOSTS through $SSH, in the cwd.
recipe() {
	set -e
	parallel --ssh "$SSH" -S "$HOSTS" --wd . --joblog fp.log --resume-failed 'sh-fp -B -f warc {} >{}.fpb.tmp 2>{}.log && mv {}.fpb.tmp {}.fpb' :::: files
	[ -e groups ] || { sed 's/$/.fpb/' files | xargs cat | sh-near -g -v @files -f warc -a 0.8 >groups.tmp && mv groups.tmp groups; }
	mkdir -p clean
	parallel --ssh "$SSH" -S "$HOSTS" --wd . --joblog clean.log --resume-failed 'sh-near -E -v {} -f warc -Z clean/{.}.tmp groups && mv clean/{.}.tmp clean/{.}' :::: files
}

setup() {
	command -v parallel >/dev/null || skip "GNU parallel is not installed"
	export SHELL=/bin/sh
	export SSH="$BATS_TEST_TMPDIR/ssh" HOSTS=1/host-a,1/host-b
	fake_ssh "$SSH"
}

# one DIR: the one process's clean crawl of DIR's files, to DIR/one.
one() {
	(cd "$1" && cat $(sed 's/$/.fpb/' files) |
	    sh-near -g -v @files -f warc -a 0.8 -Z one >one.groups)
}

@test "-E: the job over many files on two hosts gives the one process's clean crawl, byte for byte" {
	local d="$BATS_TEST_TMPDIR/c"
	mkdir "$d"
	crawl "$d" 6
	(cd "$d" && recipe)
	same_as_one "$d"
	same_files "$d/one.groups" "$d/groups"
	# Copies went (a page and its copies lie in other files), and the
	# clean files hold the responses of the others.
	gone=$(awk -F '\t' '$1 != $2' "$d/groups" | wc -l)
	[ "$gone" -gt 10 ]
	eq "$(cat "$d"/clean/*.warc | grep -ac '^WARC-Type: response')" $((96 - gone))
	eq "$(cat "$d"/clean/*.warc | grep -ac '^WARC-Type: warcinfo')" 6
	# Annotated, the same: each file's part of the one process's.
	(cd "$d" && cat $(sed 's/$/.fpb/' files) |
	    sh-near -g -v @files -f warc -a 0.8 -Z all:one.all >/dev/null)
	(cd "$d" && while read -r f; do
		sh-near -E -v "$f" -f warc -Z "all:$f.all" groups || exit 2
	done <files && sed 's/$/.all/' files | xargs cat) | same_files "$d/one.all" -
	# The clean crawl fingerprinted again has no pair at 0.8.
	cat "$d"/clean/*.warc >"$d/all.warc"
	sh-fp -B -f warc "$d/all.warc" >"$d/again"
	run -1 sh-near -v "$d/all.warc" -f warc -a 0.8 "$d/again"
	eq "$output" ""
}

# shim DIR TOOL FILE: a TOOL first in PATH that logs each run and, on its
# first run for FILE, writes part of its output and is killed by SIGKILL.
shim() {
	mkdir -p "$1/shim"
	cat >"$1/shim/$2" <<SHIM
#!/bin/sh
echo "\$*" >>"$1/runs.$2"
case "\$*" in
*$3*)
	if [ ! -e "$1/killed.$2" ]; then
		: >"$1/killed.$2"
		"$(command -v "$2")" "\$@" | head -c 100
		kill -9 \$\$
	fi
esac
exec "$(command -v "$2")" "\$@"
SHIM
	chmod +x "$1/shim/$2"
}

# shimmed DIR: the recipe in DIR with the shims first in PATH.
shimmed() {
	PATH="$BATS_TEST_TMPDIR/shim:$PATH" sh -c "cd '$1' && $(declare -f recipe); recipe"
}

# same_as_one DIR: DIR's clean files, in order, are the one process's.
same_as_one() {
	one "$1"
	(cd "$1" && sed 's/\.gz$//; s|^|clean/|' files | xargs cat) | same_files "$1/one" -
}

@test "-E: a fingerprint job killed halfway: the rerun redoes that job only, and the result is the same" {
	local d="$BATS_TEST_TMPDIR/c"
	mkdir "$d"
	crawl "$d" 6
	shim "$BATS_TEST_TMPDIR" sh-fp part-3.warc.gz
	run shimmed "$d"
	[ "$status" -ne 0 ]
	[ ! -e "$d/part-3.warc.gz.fpb" ]
	[ ! -e "$d/groups" ]
	eq "$(wc -l <"$BATS_TEST_TMPDIR/runs.sh-fp")" 6
	shimmed "$d"
	# The rerun ran the killed job alone.
	eq "$(tail -n +7 "$BATS_TEST_TMPDIR/runs.sh-fp")" "-B -f warc part-3.warc.gz"
	same_as_one "$d"
	same_files "$d/one.groups" "$d/groups"
}

@test "-E: a clean-copy job killed halfway: the rerun redoes that job only, and the result is the same" {
	local d="$BATS_TEST_TMPDIR/c"
	mkdir "$d"
	crawl "$d" 6
	shim "$BATS_TEST_TMPDIR" sh-near part-5.warc.gz
	run shimmed "$d"
	[ "$status" -ne 0 ]
	[ ! -e "$d/clean/part-5.warc" ]
	shimmed "$d"
	# One global step, 6 jobs, then the killed one again.
	eq "$(wc -l <"$BATS_TEST_TMPDIR/runs.sh-near")" 8
	tail -n 1 "$BATS_TEST_TMPDIR/runs.sh-near" | grep -q -- '-E -v part-5.warc.gz'
	same_as_one "$d"
}

@test "-E: decisions that cannot be followed stop the run, one line, exit 2" {
	local d="$BATS_TEST_TMPDIR"
	printf 'a\tone two three four\nb\tone two three four\nc\tfive six seven\n' >"$d/docs"
	printf 'a\ta\na\tb\nc\tc\n' >"$d/groups"
	run -0 sh-near -E -v "$d/docs" -Z "$d/kept" -Z "$d/gone" "$d/groups"
	eq "$output" ""
	printf 'a\tone two three four\nc\tfive six seven\n' | same_files - "$d/kept"
	printf 'b\tone two three four\ta\n' | same_files - "$d/gone"
	# IDs the decisions do not name stay, as -Z keeps them.
	printf 'a\ta\n' >"$d/some"
	run -0 sh-near -E -v "$d/docs" -Z "$d/kept" "$d/some"
	same_files "$d/docs" "$d/kept"
	# A part of the decisions, in another order, with lines of other
	# files, serves as well; the copy that stays may be in another file.
	printf 'x\tx\nc\tc\nx\ty\na\tb\n' >"$d/part"
	run -0 sh-near -E -v "$d/docs" -Z "$d/kept" -Z "$d/gone" "$d/part"
	printf 'a\tone two three four\nc\tfive six seven\n' | same_files - "$d/kept"
	printf 'b\tone two three four\ta\n' | same_files - "$d/gone"
	printf 'z\ta\nz\tb\n' >"$d/part"
	run -0 sh-near -E -v "$d/docs" -Z "$d/kept" -Z "$d/gone" "$d/part"
	printf 'c\tfive six seven\n' | same_files - "$d/kept"
	printf 'a\tone two three four\tz\nb\tone two three four\tz\n' | same_files - "$d/gone"
	printf 'a\ta\nab\n' >"$d/bad"
	run -2 sh-near -E -v "$d/docs" -Z "$d/kept" "$d/bad"
	eq "$output" "sh-near: $d/bad:2: too few fields"
	printf 'a\ta\n0123456789abcdef\tb\tm1:00\n' >"$d/bad"
	run -2 sh-near -E -v "$d/docs" -Z "$d/kept" "$d/bad"
	eq "$output" "sh-near: $d/bad:2: not a line REP<TAB>ID, as sh-near -g prints"
	run -2 sh-near -E -v "$d/docs" "$d/groups"
	eq "$output" "sh-near: -E: only with -Z"
	run -2 sh-near -E -v "$d/docs" -a 0.8 -Z "$d/kept" "$d/groups"
	eq "$output" "sh-near: -E and -a cannot be used together"
	run -2 sh-near -E -Z "$d/kept" "$d/groups"
	eq "$output" "sh-near: -E: only with -v"
	run -2 sh-near -E -v "$d/docs" -f line -Z "$d/kept" "$d/groups"
	eq "$output" "sh-near: -E: the IDs of lines and paragraphs are their numbers in a file, which decisions over several files cannot name: give the records IDs (-f tab, jsonl, warc)"
	run -2 sh-near -E -v "$d/docs" -Z "$d/kept" "$d/missing"
	[[ "$output" == "sh-near: $d/missing: No such file or directory"* ]]
}
