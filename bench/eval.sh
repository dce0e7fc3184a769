#!/bin/sh
# eval.sh: accuracy of sh-fp on real text.  For each corpus ("ID<TAB>TEXT"
# lines): drop documents whose text repeats an earlier one, number the rest
# 1..N, make edited copies with bench/edit, fingerprint sources and copies
# with sh-fp, and report with bench/evalstat how close each kind of copy
# stays to its source and how often other sources come as close.  Since a
# corpus holds real near-copies too, the source pairs within the largest
# k are then judged by sh-near and sh-dist -v: a pair whose exact Jaccard
# similarity (same features) is below UNREL is counted as unrelated.
#
# usage: bench/eval.sh [corpus.txt ...]
# Without operands: zh.txt and en.txt of bench/corpus.sh in
# ${TMPDIR:-/tmp}/sh-eval, built first if missing.
# environment: FPFLAGS (extra sh-fp options), BIN (bin: where sh-fp is),
# BENCH (bench: where edit and evalstat are, built by make eval),
# SEED (1), COPIES (1: copies per edit kind and rate), KS ("3 4 5 6": the
# distances reported), PAIRS (5: closest unrelated pairs listed), MINFEAT
# (0: keep only the documents with at least this many features under
# MINFLAGS, by default FPFLAGS, as sh-fp -c counts them), UNREL (0.5:
# the Jaccard similarity below which two sources are unrelated).

set -eu

prog=eval.sh
bin=${BIN:-bin}
bench=${BENCH:-bench}
seed=${SEED:-1}
copies=${COPIES:-1}
ks=${KS:-3 4 5 6}
pairs=${PAIRS:-5}
fpflags=${FPFLAGS:-}
minfeat=${MINFEAT:-0}
minflags=${MINFLAGS-$fpflags}
unrel=${UNREL:-0.5}

die() {
	printf '%s: %s\n' "$prog" "$*" >&2
	exit 2
}

[ -x "$bin/sh-fp" ] || die "$bin/sh-fp not found: build it first"
for t in edit evalstat; do
	[ -x "$bench/$t" ] || die "$bench/$t not found: run make eval"
done
kflags=
kmax=0
for k in $ks; do
	kflags="$kflags -k $k"
	[ "$k" -le "$kmax" ] || kmax=$k
done

if [ $# -eq 0 ]; then
	dir=${TMPDIR:-/tmp}/sh-eval
	if [ ! -s "$dir/zh.txt" ] || [ ! -s "$dir/en.txt" ] ||
	    [ ! -s "$dir/zhshort.txt" ]; then
		sh "$bench/corpus.sh" "$dir" >&2 || die "cannot build corpora"
	fi
	set -- "$dir/zh.txt" "$dir/en.txt"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/sh-eval.XXXXXX") ||
    die "cannot create work directory"
trap 'rm -rf "$work"' EXIT
trap 'exit 2' HUP INT TERM

status=0
for corpus; do
	if [ ! -r "$corpus" ]; then
		echo "$prog: $corpus: cannot read" >&2
		status=2
		continue
	fi
	rm -f "$work/editrc" "$work/statrc"
	# Documents long enough: their IDs (after a line no ID can be, so
	# that the file is never empty for awk's NR == FNR).
	printf '\t\n' >"$work/long"
	if [ "$minfeat" -gt 0 ]; then
		# shellcheck disable=SC2086
		"$bin/sh-fp" -c $minflags "$corpus" 2>/dev/null |
		    awk -F'\t' -v m="$minfeat" '$3 >= m { print $2 }' \
		    >>"$work/long"
	fi
	# Exact duplicates (a page installed twice) are not unrelated pairs.
	LC_ALL=C awk -v dups="$work/dups" -v map="$work/map" \
	    -v minfeat="$minfeat" '
	NR == FNR {
		long[$0] = 1
		next
	}
	minfeat > 0 && !(substr($0, 1, index($0, "\t") - 1) in long) {
		short++
		next
	}
	{
		t = index($0, "\t")
		if (t == 0) {
			bad++
			next
		}
		text = substr($0, t + 1)
		if (text in seen) {
			dup++
			next
		}
		seen[text] = 1
		print ++n "\t" text
		print n "\t" substr($0, 1, t - 1) > map
	}
	END { print dup + 0, bad + 0, short + 0 > dups }' "$work/long" "$corpus" \
	    >"$work/src.txt"
	read -r ndup nbad nshort <"$work/dups"
	ndocs=$(($(wc -l <"$work/src.txt")))
	nbytes=$(($(wc -c <"$work/src.txt")))

	echo "== $corpus"
	printf 'docs %s (%s duplicates dropped' "$ndocs" "$ndup"
	[ "$nbad" -eq 0 ] || printf ', %s lines without tab dropped' "$nbad"
	[ "$nshort" -eq 0 ] ||
	    printf ', %s with fewer than %s features dropped' "$nshort" "$minfeat"
	awk -v b="$nbytes" 'BEGIN { printf "), %.1f MB\n", b / 1e6 }'
	echo "sh-fp flags: ${fpflags:-(none)}; seed $seed, $copies copies" \
	    "per edit"

	# shellcheck disable=SC2086
	"$bin/sh-fp" $fpflags <"$work/src.txt" >"$work/src.fp" || {
		echo "$prog: $corpus: sh-fp failed on the sources" >&2
		status=2
		continue
	}
	# No pipefail in POSIX sh: edit's status goes through a file.
	# shellcheck disable=SC2086
	{ rc=0
	    "$bench/edit" -s "$seed" -c "$copies" <"$work/src.txt" || rc=$?
	    echo "$rc" >"$work/editrc"; } | "$bin/sh-fp" $fpflags \
	    >"$work/copies.fp" || {
		echo "$prog: $corpus: sh-fp failed on the copies" >&2
		status=2
		continue
	}
	if [ "$(cat "$work/editrc" 2>/dev/null)" != 0 ]; then
		echo "$prog: $corpus: edit failed" >&2
		status=2
		continue
	fi
	echo "fingerprinted $(($(wc -l <"$work/src.fp"))) sources," \
	    "$(($(wc -l <"$work/copies.fp"))) copies"
	echo
	# Name the closest pairs by their corpus ids.
	# shellcheck disable=SC2086
	{ rc=0
	    "$bench/evalstat" $kflags -p "$pairs" "$work/src.fp" \
		"$work/copies.fp" || rc=$?
	    echo "$rc" >"$work/statrc"; } |
	    LC_ALL=C awk -F'\t' '
	NR == FNR {
		id[$1] = $2
		next
	}
	/^  closest / {
		if (!head++)
			print "  closest pairs:"
		printf "    d=%-2s %s  %s\n", substr($1, 11), id[$2], id[$3]
		next
	}
	{ print }' "$work/map" -
	[ "$(cat "$work/statrc" 2>/dev/null)" = 0 ] || status=2
	# The judge: exact Jaccard of the source pairs within kmax.
	"$bin/sh-near" -k "$kmax" "$work/src.fp" >"$work/near" ||
	    [ $? -eq 1 ] || status=2
	# shellcheck disable=SC2086
	"$bin/sh-dist" -v "$work/src.txt" $fpflags "$work/near" >"$work/sim" ||
	    [ $? -eq 1 ] || status=2
	awk -F'\t' -v ks="$ks" -v u="$unrel" -v n="$ndocs" '
	$4 < u + 0 { low[$3]++ }
	END {
		pairs = n * (n - 1) / 2
		printf "unrelated (Jaccard below %s) source pairs, of %d:\n",
		    u, pairs
		nk = split(ks, k, " ")
		for (i = 1; i <= nk; i++) {
			c = 0
			for (d = 0; d <= k[i]; d++)
				c += low[d]
			printf "  d<=%-2d %8d  %.2g\n", k[i], c,
			    (pairs > 0 ? c / pairs : 0)
		}
	}' "$work/sim"
	echo
done
exit "$status"
