#!/bin/sh
# short.sh: the measurements behind the short-text route of sh-fp(1).
#
# 1. How far one changed character moves a fingerprint, by length: the
#    first L ideographs of each Chinese page (zh.txt, everything else
#    dropped), L = 20 40 60 80 120, one ideograph substituted (bench/edit
#    char-sub at 1 %: one edit below 150 characters), fingerprinted with
#    -n 2 and -n 1 (with -w 1 -W tf, the features of fingerprint
#    version 1); share of copies within 3, 6 and 9.
# 2. The edit route on short posts, Chinese and English: the posts are
#    (zh) the sentences of zhshort.txt and the fortunes of Debian's
#    fortunes-zh (tang300, song100, chinese; in fortune.txt when that
#    package is installed) of at most
#    140 characters, (en) the other fortunes of fortune.txt of at most 140
#    bytes; bench/shortgen adds to every other post a repost with random
#    edits (1 to a third of its characters changed, inserted, deleted, or
#    punctuation and spaces put in).  Truth: every pair at edit
#    similarity at least EDIT_MIN (0.8), exactly (bench/editjoin, the
#    measure of sh-dist -J edit).  Routes, scored by bench/prf:
#      edit    sh-fp -BB POSTS | sh-near -v POSTS -J edit -a EDIT_MIN
#      jaccard sh-fp -B POSTS | sh-near -v POSTS -a EDIT_MIN (the band
#              route of the features, verified by their Jaccard
#              similarity), for comparison;
#    then the time of the edit route against sh-fp alone (and sh-fp -B,
#    sh-fp -BB alone): medians of RUNS (5) runs in turn, wall clock and,
#    with GNU time, CPU (user + system), the load average before and
#    after, and the pairs sh-near verified.
#
# usage: bench/short.sh		(make eval builds what it needs)
# environment: BIN (bin), BENCH (bench), SEED (1: of the edits), EDIT_MIN
# (0.8), RUNS (5), SECTIONS ("1 2": the sections run);
# corpora in ${TMPDIR:-/tmp}/sh-eval, built by bench/corpus.sh if missing.

set -eu

prog=short.sh
bin=${BIN:-bin}
bench=${BENCH:-bench}
seed=${SEED:-1}
emin=${EDIT_MIN:-0.8}
runs=${RUNS:-5}
sections=${SECTIONS:-1 2}

die() {
	printf '%s: %s\n' "$prog" "$*" >&2
	exit 2
}

for t in sh-fp sh-near sh-dist sh-tokenize; do
	[ -x "$bin/$t" ] || die "$bin/$t not found: build it first"
done
for t in edit evalstat editjoin shortgen prf; do
	[ -x "$bench/$t" ] || die "$bench/$t not found: run make eval"
done
dir=${TMPDIR:-/tmp}/sh-eval
if [ ! -s "$dir/zh.txt" ] || [ ! -s "$dir/zhshort.txt" ] ||
    [ ! -s "$dir/fortune.txt" ]; then
	CORPORA="zh fortune" sh "$bench/corpus.sh" "$dir" >&2 ||
	    die "cannot build corpora"
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/sh-short.XXXXXX") ||
    die "cannot create work directory"
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
trap 'exit 2' HUP INT TERM

case " $sections " in *" 1 "*)
echo "== one substituted character, by length (Chinese pages, ideographs only)"
printf '%-6s %-6s %6s %8s %8s %8s %6s\n' length flags docs 'd<=3' 'd<=6' \
    'd<=9' mean
for len in 20 40 60 80 120; do
	# The first $len ideographs (3 bytes each in UTF-8) of each page.
	LC_ALL=C awk -F'\t' -v n="$len" '{
		t = $2
		h = ""
		while (length(h) < 3 * n &&
		    match(t, /[\344-\351][\200-\277][\200-\277]/)) {
			h = h substr(t, RSTART, 3)
			t = substr(t, RSTART + 3)
		}
		if (length(h) == 3 * n)
			print ++k "\t" h
	}' "$dir/zh.txt" >"$work/src.txt"
	"$bench/edit" <"$work/src.txt" | grep '^[0-9]*|char-sub|1|' \
	    >"$work/copies.txt"
	for flags in "-n 2 -w 1 -W tf" "-n 1 -w 1 -W tf"; do
		# shellcheck disable=SC2086
		"$bin/sh-fp" $flags "$work/src.txt" >"$work/src.fp"
		# shellcheck disable=SC2086
		"$bin/sh-fp" $flags "$work/copies.txt" >"$work/copies.fp"
		"$bench/evalstat" -k 3 -k 6 -k 9 "$work/src.fp" \
		    "$work/copies.fp" | awk -v len="$len" -v f="$flags" \
		    '$1 == "char-sub" {
			printf "%-6s %-6s %6s %8s %8s %8s %6s\n", len, f, $3,
			    $4, $5, $6, $7
		}'
	done
done
;; esac

case " $sections " in *" 2 "*)
# median: the middle of the numbers on standard input.
median() {
	sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
# now: seconds since the epoch, with nanoseconds where date has them.
now() {
	date +%s.%N | sed 's/\.N$//; s/\.$//'
}
gtime=
if /usr/bin/time -f %U true >/dev/null 2>&1; then
	gtime=/usr/bin/time
fi
# timed NAME CMD: run sh -c CMD, output dropped; its wall and CPU
# seconds appended to $work/NAME.wall and $work/NAME.cpu.
timed() {
	s=$(now)
	if [ -n "$gtime" ]; then
		"$gtime" -f '%U %S' -o "$work/cpu" sh -c "$2" >/dev/null 2>&1
		awk '{ print $1 + $2 }' "$work/cpu" >>"$work/$1.cpu"
	else
		sh -c "$2" >/dev/null 2>&1
		echo - >>"$work/$1.cpu"
	fi
	awk -v s="$s" -v e="$(now)" 'BEGIN { print e - s }' >>"$work/$1.wall"
}
for lang in zh en; do
	if [ "$lang" = zh ]; then
		# The Chinese fortunes without their colour escapes (which
		# corpus.sh left as text), and the sentences.
		{
			LC_ALL=C.UTF-8 awk -F'\t' '$1 ~ /^(tang300|song100|chinese)#/ {
				t = $2
				gsub(/\[[0-9;]*m/, "", t)
				gsub(/ +/, " ", t)
				sub(/^ /, "", t)
				if (length(t) <= 140)
					print $1 "\t" t
			}' "$dir/fortune.txt"
			cat "$dir/zhshort.txt"
		} >"$work/src"
	else
		LC_ALL=C awk -F'\t' '$1 !~ /^(tang300|song100|chinese)#/ &&
		    length($2) <= 140' "$dir/fortune.txt" >"$work/src"
	fi
	"$bench/shortgen" -s "$seed" "$work/src" >"$work/posts"
	"$bench/editjoin" -t "$emin" "$work/posts" >"$work/truth"
	p=$work/posts
	echo "== the edit route on $lang posts: $(wc -l <"$p" | tr -d ' ')" \
	    "posts ($(wc -l <"$work/src" | tr -d ' ') and reposts)," \
	    "$(wc -c <"$p" | tr -d ' ') bytes; truth: $(wc -l \
	    <"$work/truth" | tr -d ' ') pairs at edit similarity >= $emin"
	printf '%-8s %8s %7s %7s %7s %9s\n' route pairs P R F1 verified
	for route in edit jaccard; do
		if [ "$route" = edit ]; then
			b=-BB
			j="-J edit"
		else
			b=-B
			j=
		fi
		sh -c "'$bin/sh-fp' $b '$p' 2>/dev/null |
		    '$bin/sh-near' -v '$p' $j -a $emin --progress" \
		    >"$work/pairs" 2>"$work/err" || true
		v=$(sed -n 's/.* \([0-9]*\) pairs verified.*/\1/p' \
		    "$work/err" | tail -n 1)
		printf '%-8s %8s %s %9s\n' "$route" \
		    "$(wc -l <"$work/pairs" | tr -d ' ')" \
		    "$("$bench/prf" "$work/truth" "$work/pairs" |
		    awk '{ printf "%7.4f %7.4f %7.4f", $4, $5, $6 }')" \
		    "${v:-0}"
	done
	rm -f "$work"/*.wall "$work"/*.cpu
	load0=$(uptime | sed 's/.*load average[s]*: *//')
	i=0
	while [ "$i" -lt "$runs" ]; do
		timed fp "'$bin/sh-fp' '$p'"
		timed fpB "'$bin/sh-fp' -B '$p'"
		timed fpBB "'$bin/sh-fp' -BB '$p'"
		timed route "'$bin/sh-fp' -BB '$p' | '$bin/sh-near' -v '$p' -J edit -a $emin"
		i=$((i + 1))
	done
	load1=$(uptime | sed 's/.*load average[s]*: *//')
	printf '%-30s %9s %9s %7s\n' "medians of $runs runs" wall CPU \
	    "x sh-fp"
	fw=$(median <"$work/fp.wall")
	fc=$(median <"$work/fp.cpu")
	for n in fp:"sh-fp" fpB:"sh-fp -B" fpBB:"sh-fp -BB" \
	    route:"sh-fp -BB | sh-near -J edit"; do
		w=$(median <"$work/${n%%:*}.wall")
		c=$(median <"$work/${n%%:*}.cpu")
		printf '%-30s %9.3f %9s %7s\n' "${n#*:}" "$w" "$c" \
		    "$(awk -v w="$w" -v f="$fw" -v c="$c" -v g="$fc" 'BEGIN {
			r = sprintf("%.1f", w / f)
			if (c != "-" && g > 0)
				r = r "/" sprintf("%.1f", c / g)
			print r
		    }')"
	done
	echo "load average before: $load0; after: $load1"
	echo
done
;; esac
