#!/bin/sh
# routes.sh: precision, recall and F1 of the routes to near-duplicates,
# against exact truth.  For each corpus ("ID<TAB>TEXT" lines), bench/jaccard
# finds every pair of documents whose Jaccard similarity over word
# 3-shingles and CJK 5-character shingles is at least t, exactly, for t in
# TS; then each route is scored against each t with bench/prf:
#
#   fp     sh-fp OPTS | sh-near -k K: the fingerprint alone, for K in KS;
#   verify sh-fp OPTS | sh-near -v CORPUS OPTS -a t: candidates within the
#          model's distance for t (no sketches: sh-near warns, on
#          stderr, which is left out), verified by exact Jaccard over
#          the features of OPTS;
#   bands  sh-fp -B OPTS | sh-near -B -v CORPUS OPTS -a t: candidates from
#          the bands of the MinHash sketches, verified the same way, for
#          t in BTS.
#
# for every option set of SETS ("name:options" words, options joined by
# commas): by default the defaults (fingerprint version 2: -n 5 -w 3
# -W binary), version 1 (-n 2 -w 1 -W tf), and the defaults with one
# option changed.  Seconds are the wall-clock time of the route, sh-fp included.
#
# With JFLAGS (bench/jaccard options, such as -S: shingles across
# punctuation and the other script), the truth is that of those shingles.
#
# usage: bench/routes.sh [corpus.txt ...]
# Without operands: en, api, zh, fortune and zhshort of bench/corpus.sh in
# ${TMPDIR:-/tmp}/sh-eval, built first if missing.
# environment: BIN (bin), BENCH (bench), TS ("0.8 0.9 0.95"), BTS ("0.5
# 0.7 0.8 0.9 0.95"), KS ("3 6"), SETS (see below), ROUTES ("fp verify
# bands"), JFLAGS (none).

set -eu

prog=routes.sh
bin=${BIN:-bin}
bench=${BENCH:-bench}
ts=${TS:-0.8 0.9 0.95}
bts=${BTS:-0.5 0.7 0.8 0.9 0.95}
ks=${KS:-3 6}
routes=${ROUTES:-fp verify bands}
jflags=${JFLAGS:-}
# The thresholds of the truth: those of every route, once each.
allts=$(printf '%s\n' $ts $bts | sort -n -u | tr '\n' ' ')
sets=${SETS:-default: v2:-2 v1:-n,2,-w,1,-W,tf w1:-w,1 w2:-w,2 n2:-n,2 \
n3:-n,3 tf:-W,tf}

die() {
	printf '%s: %s\n' "$prog" "$*" >&2
	exit 2
}

for t in sh-fp sh-near; do
	[ -x "$bin/$t" ] || die "$bin/$t not found: build it first"
done
for t in jaccard prf; do
	[ -x "$bench/$t" ] || die "$bench/$t not found: run make eval"
done

if [ $# -eq 0 ]; then
	dir=${TMPDIR:-/tmp}/sh-eval
	for c in en api zh fortune; do
		[ -s "$dir/$c.txt" ] && continue
		CORPORA="zh en api fortune" sh "$bench/corpus.sh" "$dir" >&2 ||
		    die "cannot build corpora"
		break
	done
	set -- "$dir/en.txt" "$dir/api.txt" "$dir/zh.txt" "$dir/fortune.txt" \
	    "$dir/zhshort.txt"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/sh-routes.XXXXXX") ||
    die "cannot create work directory"
trap 'rm -rf "$work"' EXIT
trap 'exit 2' HUP INT TERM

# now: seconds since the epoch, with nanoseconds where date has them.
now() {
	date +%s.%N | sed 's/\.N$//; s/\.$//'
}

# row ROUTE "THRESHOLDS" OPTIONS K START END PAIRS: one row per threshold,
# the pairs scored against its truth.
row() {
	for t in $2; do
		printf '%-7s %-5s %-26s %5s %7s  %s  %7.2f\n' "$1" "$t" "$3" \
		    "$4" "$(wc -l <"$7" | tr -d ' ')" \
		    "$("$bench/prf" "$work/truth.$t" "$7" |
		    awk '{ printf "%7.4f %7.4f %7.4f", $4, $5, $6 }')" \
		    "$(awk -v s="$5" -v e="$6" 'BEGIN { print e - s }')"
	done
}

for corpus; do
	[ -r "$corpus" ] || die "$corpus: cannot read"
	name=${corpus##*/}
	name=${name%.txt}
	echo "== $name: $(wc -l <"$corpus" | tr -d ' ') documents," \
	    "$(($(wc -c <"$corpus") / 1000000)) MB"
	printf 'truth%s (pairs at or above t):' "${jflags:+ $jflags}"
	for t in $allts; do
		# shellcheck disable=SC2086
		"$bench/jaccard" $jflags -t "$t" "$corpus" >"$work/truth.$t" ||
		    die "$corpus: jaccard failed"
		printf ' %s: %s' "$t" "$(wc -l <"$work/truth.$t" | tr -d ' ')"
	done
	echo
	printf '%-7s %-5s %-26s %5s %7s  %7s %7s %7s  %7s\n' route t options \
	    k pairs P R F1 seconds
	for set in $sets; do
		sname=${set%%:*}
		opts=$(printf '%s' "${set#*:}" | tr ',' ' ')
		label="$sname${opts:+ $opts}"
		for route in $routes; do
			case $route in
			fp)
				for k in $ks; do
					s=$(now)
					# shellcheck disable=SC2086
					"$bin/sh-fp" $opts "$corpus" 2>/dev/null |
					    "$bin/sh-near" -k "$k" >"$work/pairs" ||
					    true
					row fp "$ts" "$label" "$k" "$s" "$(now)" \
					    "$work/pairs"
				done ;;
			verify)
				for t in $ts; do
					s=$(now)
					# shellcheck disable=SC2086
					"$bin/sh-fp" $opts "$corpus" 2>/dev/null |
					    "$bin/sh-near" -v "$corpus" $opts \
					    -a "$t" 2>/dev/null >"$work/pairs" ||
					    true
					row verify "$t" "$label" model "$s" \
					    "$(now)" "$work/pairs"
				done ;;
			bands)
				for t in $bts; do
					s=$(now)
					# shellcheck disable=SC2086
					"$bin/sh-fp" -B $opts "$corpus" \
					    2>/dev/null | "$bin/sh-near" -B \
					    -v "$corpus" $opts -a "$t" \
					    >"$work/pairs" || true
					row bands "$t" "$label" bands "$s" \
					    "$(now)" "$work/pairs"
				done ;;
			esac
		done
	done
	echo
done
