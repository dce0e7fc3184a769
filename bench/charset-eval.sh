#!/bin/sh
# charset-eval.sh: how often sh-fp finds the charset of a page that
# declares none (lib/text/detect.h), per encoding, over real pages.
#
# The pages: Debian's man pages in simplified and traditional Chinese,
# Japanese, Russian, French and German, rendered to text by
# bench/corpus.sh (CORPORA "zh tw ja ru fr de", pages of MINBYTES or
# more); each page converted with iconv -c to the legacy encoding of its
# language (GBK, Big5, Shift_JIS, windows-1251, windows-1252: the
# characters it lacks dropped), kept when that leaves 1024 bytes or
# more.  The truth is that text converted back to UTF-8 by iconv.  A page
# counts as found when sh-fp, given the legacy bytes without -C, gives
# the fingerprint of the truth: its text decoded the same, word for
# word (the undeclared twin at distance 0).  Debian has no Korean man
# pages: the Korean pages are the messages of the Korean gettext
# catalogs installed here (/usr/share/locale/ko, read by python3), cut
# into pages of about 2000 bytes, for EUC-KR.
#
# usage: bench/charset-eval.sh [DIR]	(default ${TMPDIR:-/tmp}/sh-eval)
# environment: BIN (directory of the tools, default bin), PAGES (pages
# per encoding at most, default 600), MINBYTES (1024).

set -eu
LC_ALL=C
export LC_ALL

prog=charset-eval.sh
root=$(cd "$(dirname "$0")/.." && pwd)
BIN=${BIN:-$root/bin}
dir=${1:-${TMPDIR:-/tmp}/sh-eval}
pages=${PAGES:-600}
minbytes=${MINBYTES:-1024}

die() {
	echo "$prog: $*" >&2
	exit 2
}

[ -x "$BIN/sh-fp" ] || die "$BIN/sh-fp: not found; run make first"
command -v iconv >/dev/null 2>&1 || die "iconv not found"
CORPORA="zh tw ja ru fr de" MINBYTES=$minbytes LANG_MAX=$pages \
    "$root/bench/corpus.sh" "$dir" >&2 || die "bench/corpus.sh failed"
work=$(mktemp -d "${TMPDIR:-/tmp}/charset-eval.XXXXXX") ||
    die "cannot create a work directory"
trap 'rm -rf "$work"' EXIT
# Korean: the translated messages of each catalog, in pages.
python3 - "$dir/ko.txt" <<'PY' || die "python3 failed on the Korean catalogs"
import gettext, glob, sys
out = open(sys.argv[1], "w", encoding="utf-8")
for f in sorted(glob.glob("/usr/share/locale/ko/LC_MESSAGES/*.mo")):
    try:
        cat = gettext.GNUTranslations(open(f, "rb"))._catalog
    except Exception:
        continue
    words = " ".join(v if isinstance(v, str) else " ".join(v)
                     for k, v in sorted(cat.items(), key=str) if k).split()
    page, n = [], 0
    for w in words:
        page.append(w)
        if len(" ".join(page).encode()) >= 2000:
            n += 1
            out.write("%s#%d\t%s\n" % (f.split("/")[-1], n, " ".join(page)))
            page = []
PY

# pages CORPUS ENCODING: the legacy pages into $work/ENC.tsv and their
# truth into $work/ENC.utf8, at most $pages of them.
pages() {
	n=0
	while IFS="$(printf '\t')" read -r id text; do
		printf '%s' "$text" | iconv -c -f UTF-8 -t "$2" >"$work/page" \
		    2>/dev/null || true
		[ "$(wc -c <"$work/page")" -ge "$minbytes" ] || continue
		iconv -f "$2" -t UTF-8 <"$work/page" >"$work/truth" ||
		    continue
		{ printf '%s\t' "$id"; cat "$work/page"; echo; } >>"$work/$2.tsv"
		{ printf '%s\t' "$id"; cat "$work/truth"; echo; } \
		    >>"$work/$2.utf8"
		n=$((n + 1))
		[ "$n" -lt "$pages" ] || break
	done <"$dir/$1.txt"
}

echo
echo "charset detection: sh-fp without -C on pages of $minbytes bytes or" \
    "more that declare no charset"
printf '%-18s %6s %6s %6s %9s\n' encoding pages right wrong 'right %'
for pair in zh:GBK tw:BIG5 ja:SHIFT_JIS ko:EUC-KR ru:WINDOWS-1251 \
    fr:WINDOWS-1252 de:WINDOWS-1252; do
	c=${pair%%:*}
	e=${pair#*:}
	[ -s "$dir/$c.txt" ] || die "$dir/$c.txt: empty"
	rm -f "$work/$e.tsv" "$work/$e.utf8"
	pages "$c" "$e"
	"$BIN/sh-fp" "$work/$e.tsv" 2>/dev/null | sort >"$work/got"
	"$BIN/sh-fp" -C UTF-8 "$work/$e.utf8" 2>/dev/null | sort >"$work/want"
	total=$(wc -l <"$work/want")
	right=$(comm -12 "$work/got" "$work/want" | wc -l)
	awk -v e="$e ($c)" -v t="$total" -v r="$right" 'BEGIN {
		printf "%-18s %6d %6d %6d %8.1f%%\n", e, t, r, t - r,
		    t ? 100 * r / t : 0 }'
done
