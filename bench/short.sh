#!/bin/sh
# short.sh: the measurements behind the short-text policy of sh-fp(1).
#
# 1. How far one changed character moves a fingerprint, by length: the
#    first L ideographs of each Chinese page (zh.txt, everything else
#    dropped), L = 20 40 60 80 120, one ideograph substituted (bench/edit
#    char-sub at 1 %: one edit below 150 characters), fingerprinted with
#    -n 2 and -n 1 (with -w 1 -W tf, the features of fingerprint
#    version 1); share of copies within 3, 6 and 9.
# 2. The policy on short texts (zhshort.txt: sentences of 10 to 59
#    characters cut from the Chinese pages): every source and a copy with
#    one character substituted, fingerprinted with POLICY_FP (-n 1 -w 1
#    -W tf), all
#    pairs within POLICY_K (10) found by sh-near, then kept by sh-dist -v
#    POLICY_VERIFY (-n 1 -w 1 -W tf -J weighted) when their exact similarity (by
#    default the weighted Jaccard of the character counts) is at least
#    POLICY_MIN (0.8) and, unless POLICY_VERIFY2 is empty, by a second
#    sh-dist -v POLICY_VERIFY2 (-n 2 -w 1 -W tf -J weighted: pairs, which
#    tell a reordered sentence from a copy) at least POLICY_MIN2 (0.6).
#    Recall: share of copies paired with their source, before and after
#    verification.  Precision: share of the kept pairs that are
#    near-duplicates in truth, that is a source and its copy, or two
#    texts whose edit distance is at most 20 % of the longer one, counting
#    ideographs and other characters one by one but a run of ASCII
#    letters and digits (a name, a number) as one: the pages repeat many
#    sentences with one name changed, and such pairs are right, not
#    errors.  Sources that share their features exactly are dropped
#    first.
#
# usage: bench/short.sh		(make eval builds what it needs)
# environment: BIN (bin), BENCH (bench), POLICY_FP, POLICY_K, POLICY_MIN,
# POLICY_VERIFY (sh-dist -v options), POLICY_MIN2, POLICY_VERIFY2, SEED
# (1: of the edits);
# corpora in ${TMPDIR:-/tmp}/sh-eval, built by bench/corpus.sh if missing.

set -eu

prog=short.sh
bin=${BIN:-bin}
bench=${BENCH:-bench}
pfp=${POLICY_FP:--n 1 -w 1 -W tf}
pk=${POLICY_K:-10}
pmin=${POLICY_MIN:-0.8}
pv=${POLICY_VERIFY:--n 1 -w 1 -W tf -J weighted}
pmin2=${POLICY_MIN2:-0.6}
pv2=${POLICY_VERIFY2--n 2 -w 1 -W tf -J weighted}
seed=${SEED:-1}

die() {
	printf '%s: %s\n' "$prog" "$*" >&2
	exit 2
}

for t in sh-fp sh-near sh-dist sh-tokenize; do
	[ -x "$bin/$t" ] || die "$bin/$t not found: build it first"
done
for t in edit evalstat; do
	[ -x "$bench/$t" ] || die "$bench/$t not found: run make eval"
done
dir=${TMPDIR:-/tmp}/sh-eval
if [ ! -s "$dir/zh.txt" ] || [ ! -s "$dir/zhshort.txt" ]; then
	sh "$bench/corpus.sh" "$dir" >&2 || die "cannot build corpora"
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/sh-short.XXXXXX") ||
    die "cannot create work directory"
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
trap 'exit 2' HUP INT TERM

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
echo

echo "== the policy on short Chinese texts: sh-fp $pfp, sh-near -k $pk," \
    "sh-dist -v $pv >= $pmin${pv2:+, sh-dist -v $pv2 >= $pmin2}"
# Sources numbered s1.., without exact feature duplicates; copies c1..
# shellcheck disable=SC2086
"$bin/sh-tokenize" $pfp -W binary "$dir/zhshort.txt" |
    LC_ALL=C awk -F'\t' 'NR == FNR {
	if (!($2 in seen))
		keep[NR] = 1
	seen[$2] = 1
	next
    }
    FNR in keep { print "s" ++n "\t" substr($0, index($0, "\t") + 1) }' \
    - "$dir/zhshort.txt" >"$work/src.txt"
"$bench/edit" -s "$seed" <"$work/src.txt" | grep '^[0-9]*|char-sub|1|' |
    sed 's/^\([0-9]*\)|[^	]*/c\1/' >"$work/copies.txt"
cat "$work/src.txt" "$work/copies.txt" >"$work/docs.txt"
# shellcheck disable=SC2086
"$bin/sh-fp" $pfp "$work/docs.txt" >"$work/docs.fp" 2>/dev/null
"$bin/sh-near" -k "$pk" "$work/docs.fp" >"$work/pairs" || [ $? -eq 1 ]
# shellcheck disable=SC2086
"$bin/sh-dist" -v "$work/docs.txt" $pv "$work/pairs" >"$work/scored" ||
    [ $? -eq 1 ]
if [ -n "$pv2" ]; then
	# shellcheck disable=SC2086
	"$bin/sh-dist" -v "$work/docs.txt" $pv2 "$work/scored" \
	    >"$work/scored2" || [ $? -eq 1 ]
	mv "$work/scored2" "$work/scored"
fi
nsrc=$(($(wc -l <"$work/src.txt")))
ncopy=$(($(wc -l <"$work/copies.txt")))
# A true pair: s<N> and c<N>, or texts at most 20 % apart in edits.
LC_ALL=C awk -F'\t' -v min="$pmin" -v min2="$pmin2" -v ncopy="$ncopy" \
    -v nsrc="$nsrc" '
# units(s, a): the units of s into a[1..n], return n: a run of ASCII
# letters and digits is one (a name, a number), space is none, any other
# UTF-8 character is one.
function units(s, a,    n, c, l) {
	n = 0
	while (s != "") {
		c = substr(s, 1, 1)
		if (c ~ /[A-Za-z0-9]/) {
			match(s, /^[A-Za-z0-9]+/)
			l = RLENGTH
		} else
			l = c < "\200" ? 1 : c < "\340" ? 2 : c < "\360" ? 3 : 4
		if (c != " ")
			a[++n] = substr(s, 1, l)
		s = substr(s, l + 1)
	}
	return n
}
# The edit distance of s and t, in units, over the length of the longer.
function lev(s, t,    a, b, n, m, i, j, prev, cur, x, y) {
	n = units(s, a)
	m = units(t, b)
	for (j = 0; j <= m; j++)
		prev[j] = j
	for (i = 1; i <= n; i++) {
		cur[0] = i
		for (j = 1; j <= m; j++) {
			x = prev[j - 1] + (a[i] != b[j])
			if ((y = prev[j] + 1) < x)
				x = y
			if ((y = cur[j - 1] + 1) < x)
				x = y
			cur[j] = x
		}
		for (j = 0; j <= m; j++)
			prev[j] = cur[j]
	}
	return prev[m] / (n > m ? n : m)
}
NR == FNR {
	text[$1] = $2
	next
}
{
	copy = substr($1, 2) == substr($2, 2) &&
	    substr($1, 1, 1) != substr($2, 1, 1)
	t = copy || lev(text[$1], text[$2]) <= 0.2
	cand++
	ccopy += copy
	ctrue += t
	if ($4 + 0 >= min && (NF < 5 || $5 + 0 >= min2)) {
		kept++
		kcopy += copy
		ktrue += t
	}
}
END {
	printf "sources %d, copies %d; pairs within k: %d (%d copies, %d " \
	    "near-duplicates in all)\n", nsrc, ncopy, cand, ccopy, ctrue
	printf "recall before verification %.4f, after %.4f\n",
	    ccopy / ncopy, kcopy / ncopy
	printf "precision before verification %.4f, after %.4f (%d of %d " \
	    "kept)\n", cand ? ctrue / cand : 1, kept ? ktrue / kept : 1,
	    ktrue, kept
}' "$work/docs.txt" "$work/scored"
