#!/bin/sh
# maintext.sh: the main content of pages (-G) under the templates of other
# sites.  Real pages (Debian's HTML documentation, where it is installed)
# have their article cut out and wrapped by bench/wrap in a bare page and
# in three site templates; then, with and without -G (the default since
# fingerprint version 3; "none" is -2 -n 5x, the whole page with the
# features of version 3):
#   - the share of pairs of copies of a page (the four copies two by two)
#     at Jaccard >= 0.8 (sh-dist -v, word 3-shingles) and within Hamming
#     distance 3 (sh-fp, then sh-dist);
#   - of the words of a copy (sh-tokenize -w 1 -n 1 -W tf: words and
#     ideographs, counted), the share of the article's words kept and of
#     the template's words dropped, pooled over the templated copies,
#     and the pages that keep less than half of their article;
#   - the cost: sh-fp over all the copies, as NUL-framed records, without
#     and with -G, RUNS times each in alternation, medians.
#
# usage: bench/maintext.sh
# environment: BIN (bin), BENCH (bench: where wrap is, built by make
# eval), RUNS (5), DOCS (the HTML files to take, one path a line; by
# default a deterministic sample of the packages below).
# Pages: debian-reference-en, debian-handbook (en-US, zh-CN),
# postgresql-doc-15, python3.11-doc, maint-guide-zh-cn, debian-faq-zh-cn
# (apt-get install them); the section is skipped without any.

set -eu

prog=maintext.sh
bin=${BIN:-bin}
bench=${BENCH:-bench}
runs=${RUNS:-5}

die() {
	printf '%s: %s\n' "$prog" "$*" >&2
	exit 2
}

[ -x "$bin/sh-fp" ] || die "$bin/sh-fp not found: build it first"
[ -x "$bench/wrap" ] || die "$bench/wrap not found: run make eval"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sh-maintext.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM

# Every $2-th file of the glob $1, in byte order.
every()
{
	# shellcheck disable=SC2086
	ls -d $1 2>/dev/null | LC_ALL=C sort | awk -v n="$2" '(NR - 1) % n == 0'
}

if [ -n "${DOCS:-}" ]; then
	cat "$DOCS" >"$tmp/list"
else
	{
		every '/usr/share/debian-reference/*.en.html' 1
		every '/usr/share/doc/debian-handbook/html/en-US/*.html' 4
		every '/usr/share/doc/debian-handbook/html/zh-CN/*.html' 4
		every '/usr/share/doc/postgresql-doc-15/html/*.html' 25
		every '/usr/share/doc/python3.11/html/library/*.html' 12
		every '/usr/share/doc/maint-guide-zh-cn/html/*.html' 1
		every '/usr/share/doc/debian/FAQ/zh-cn/*.html' 1
	} >"$tmp/list"
fi
if [ ! -s "$tmp/list" ]; then
	echo "maintext: skipped: no HTML documentation installed (apt-get" \
	    "install debian-reference-en debian-handbook postgresql-doc-15" \
	    "python3.11-doc maint-guide-zh-cn debian-faq-zh-cn)"
	exit 0
fi

# The copies: p/N.T.html, T = 0 the bare article, 1-3 the templates.
mkdir "$tmp/p"
n=0
while IFS= read -r f; do
	n=$((n + 1))
	for t in 0 1 2 3; do
		"$bench/wrap" "$t" <"$f" >"$tmp/p/$n.$t.html" ||
		    die "$f: wrap $t failed"
	done
done <"$tmp/list"
(cd "$tmp/p" && ls) | LC_ALL=C sort >"$tmp/files"
awk -v n="$n" 'BEGIN {
	for (i = 1; i <= n; i++)
		for (a = 0; a < 4; a++)
			for (b = a + 1; b < 4; b++)
				printf "%d.%d.html\t%d.%d.html\n", i, a, i, b
}' >"$tmp/pairs"
zh=$(awk '/zh-cn|zh-CN/' "$tmp/list" | wc -l)
echo "maintext: $n pages ($zh Chinese), each bare and in 3 templates;" \
    "$(wc -l <"$tmp/pairs") pairs of copies"
printf '%-4s %10s %10s %10s %10s %8s\n' flag 'J>=0.8' 'k<=3' 'art kept' \
    'tpl drop' 'lost'
# The whole page, with the features of version 3 (-2 -n 5x), and the
# main content (-G, the default since version 3).
for flag in none -G; do
	g=-G
	[ "$flag" = -G ] || g='-2 -n 5x'
	# Jaccard of word 3-shingles, exact.
	(cd "$tmp/p" && "$OLDPWD/$bin/sh-dist" -v . -F $g "$tmp/pairs") \
	    >"$tmp/jac" || die "sh-dist -v $g failed"
	jac=$(awk -F '\t' '{ n++; if ($3 >= 0.8) k++ }
	    END { printf "%.1f %%", 100 * k / n }' "$tmp/jac")
	# Hamming distance of the fingerprints.
	(cd "$tmp/p" && xargs "$OLDPWD/$bin/sh-fp" -F $g <"$tmp/files") \
	    >"$tmp/fp" || die "sh-fp $g failed"
	awk -F '\t' 'NR == FNR { fp[$2] = $1; next }
	    { print fp[$1] "\t" fp[$2] }' "$tmp/fp" "$tmp/pairs" |
	    "$bin/sh-dist" -p >"$tmp/ham" || die "sh-dist -p failed"
	ham=$(awk -F '\t' '{ n++; if ($3 <= 3) k++ }
	    END { printf "%.1f %%", 100 * k / n }' "$tmp/ham")
	# Words kept and dropped, against the bare article without -G.
	(cd "$tmp/p" && xargs "$OLDPWD/$bin/sh-tokenize" -F -2 -w 1 -n 1 \
	    -W tf <"$tmp/files") >"$tmp/tok" || die "sh-tokenize failed"
	if [ "$flag" = -G ]; then
		(cd "$tmp/p" && xargs "$OLDPWD/$bin/sh-tokenize" -F $g -w 1 \
		    -n 1 -W tf <"$tmp/files") >"$tmp/tokg" ||
		    die "sh-tokenize $g failed"
	else
		cp "$tmp/tok" "$tmp/tokg"
	fi
	awk -F '\t' '
	function bag(s, a,    n, i, w, c) {
		n = split(s, w, " ")
		for (i = 1; i <= n; i++) {
			c = w[i]
			sub(/.*\^/, "", c)
			sub(/\^[^^]*$/, "", w[i])
			a[w[i]] = c + 0
		}
	}
	NR == FNR { plain[$1] = $2; next }
	{
		split($1, id, ".")
		if (id[2] == 0)
			next
		delete art; delete all; delete got
		bag(plain[id[1] ".0.html"], art)
		bag(plain[$1], all)
		bag($2, got)
		a = k = 0
		for (w in art) {
			a += art[w]
			k += got[w] < art[w] ? got[w] : art[w]
		}
		ta += a; tk += k
		if (k * 2 < a)
			lost[id[1]] = 1
		for (w in all) {
			t = all[w] - art[w]
			if (t <= 0)
				continue
			kt = got[w] - art[w]
			kt = kt < 0 ? 0 : kt > t ? t : kt
			tt += t; tkt += kt
		}
	}
	END {
		for (p in lost)
			nl++
		printf "%.1f %% %.1f %% %d\n", 100 * tk / ta,
		    100 * (1 - tkt / tt), nl
	}' "$tmp/tok" "$tmp/tokg" >"$tmp/words"
	read -r kept _ drop _ lost <"$tmp/words"
	printf '%-4s %10s %10s %8s %% %8s %% %8s\n' "$flag" "$jac" \
	    "$ham" "$kept" "$drop" "$lost"
done

# The cost: every copy a NUL-framed record.
while IFS= read -r f; do
	printf '%s\t' "$f"
	cat "$tmp/p/$f"
	printf '\0'
done <"$tmp/files" >"$tmp/all.nul"
bytes=$(wc -c <"$tmp/all.nul")
"$bin/sh-fp" -f nul "$tmp/all.nul" >/dev/null || die "sh-fp failed"
ta=
tb=
i=0
while [ "$i" -lt "$runs" ]; do
	for g in '-2 -n 5x' -G; do
		t0=$(date +%s.%N)
		"$bin/sh-fp" -f nul $g "$tmp/all.nul" >/dev/null ||
		    die "sh-fp $g failed"
		t1=$(date +%s.%N)
		s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }')
		if [ "$g" != -G ]; then ta="$ta $s"; else tb="$tb $s"; fi
	done
	i=$((i + 1))
done
med() {
	printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 }
	    END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
# shellcheck disable=SC2086
ma=$(med $ta)
# shellcheck disable=SC2086
mb=$(med $tb)
awk -v a="$ma" -v b="$mb" -v n="$(wc -l <"$tmp/files")" -v mb="$bytes" \
    -v r="$runs" -v up="$(uptime | sed 's/.*load average: //')" 'BEGIN {
	printf "cost: sh-fp -f nul over %d copies (%.1f MB), median of %d: " \
	    "%.3f s plain, %.3f s with -G, %.2f times; %.2f ms a page with " \
	    "-G; load %s\n", n, mb / 1e6, r, a, b, b / a, 1000 * b / n, up
}'
