#!/bin/sh
# t2s-eval.sh: how close a traditional and a simplified Chinese copy of the
# same text come, with and without sh-fp -z.  The pairs are the man pages
# that Debian's manpages-zh ships both in zh_CN (simplified) and zh_TW
# (traditional), rendered by bench/corpus.sh at run time (zh.txt, tw.txt),
# never committed.  The zh_TW pages are conversions of the zh_CN ones that
# also change words (使用者 for 用户, 建立 for 创建), so even a perfect
# character mapping leaves some distance.
#
# For each set of flags (none, then -z) it prints: the share of pairs
# within each distance of KS, the quartiles and a histogram of the
# distances; the unrelated pairs (pages of different names, zh_CN and
# zh_TW pages pooled) within each distance of KS; and, for -z, how
# many zh_CN fingerprints -z changes.
#
# usage: bench/t2s-eval.sh [DIR]	(default ${TMPDIR:-/tmp}/sh-eval)
# environment: BIN (bin), FPFLAGS (extra sh-fp options for both runs),
# KS ("3 6").

set -eu

prog=t2s-eval.sh
bin=${BIN:-bin}
ks=${KS:-3 6}
fpflags=${FPFLAGS:-}
dir=${1:-${TMPDIR:-/tmp}/sh-eval}

die() {
	printf '%s: %s\n' "$prog" "$*" >&2
	exit 2
}

for t in sh-fp sh-dist sh-near; do
	[ -x "$bin/$t" ] || die "$bin/$t not found: build it first"
done
kmax=0
for k in $ks; do
	[ "$k" -gt "$kmax" ] && kmax=$k
done
need=
[ -s "$dir/zh.txt" ] || need=zh
[ -s "$dir/tw.txt" ] || need="$need tw"
if [ -n "$need" ]; then
	CORPORA=$need sh "$(dirname "$0")/corpus.sh" "$dir" >&2 ||
	    die "cannot build the corpora"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/t2s-eval.XXXXXX") ||
    die "cannot create work directory"
trap 'rm -rf "$work"' EXIT
trap 'exit 2' HUP INT TERM

# Page name: the ID without its locale (man1/ls.1).
LC_ALL=C awk -F '\t' '{ sub(/^zh_(CN|TW)\//, "", $1); print $1 }' \
    "$dir/zh.txt" | sort >"$work/cn.names"
LC_ALL=C awk -F '\t' '{ sub(/^zh_(CN|TW)\//, "", $1); print $1 }' \
    "$dir/tw.txt" | sort >"$work/tw.names"
npairs=$(LC_ALL=C comm -12 "$work/cn.names" "$work/tw.names" | wc -l)
nsame=$(LC_ALL=C awk -F '\t' '
	NR == FNR { sub(/^zh_CN\//, "", $1); t[$1] = $2; next }
	{ sub(/^zh_TW\//, "", $1); if ($1 in t && t[$1] == $2) n++ }
	END { print n + 0 }' "$dir/zh.txt" "$dir/tw.txt")
echo "== $dir/zh.txt and $dir/tw.txt"
echo "pairs $npairs (pages in both zh_CN and zh_TW; $nsame with the" \
    "same text)"

for z in '' -z; do
	flags="$fpflags${fpflags:+ }$z"
	# shellcheck disable=SC2086
	"$bin/sh-fp" $flags "$dir/zh.txt" >"$work/cn$z.fp" 2>/dev/null ||
	    die "sh-fp $flags zh.txt failed"
	# shellcheck disable=SC2086
	"$bin/sh-fp" $flags "$dir/tw.txt" >"$work/tw$z.fp" 2>/dev/null ||
	    die "sh-fp $flags tw.txt failed"
	# "FP_CN<TAB>FP_TW<TAB>NAME" per pair, then the distance.
	LC_ALL=C awk -F '\t' '
	NR == FNR { sub(/^zh_CN\//, "", $2); cn[$2] = $1; next }
	{ sub(/^zh_TW\//, "", $2); if ($2 in cn) print cn[$2] "\t" $1 "\t" $2 }
	' "$work/cn$z.fp" "$work/tw$z.fp" | "$bin/sh-dist" -p |
	    cut -f 4 | sort -n >"$work/d$z"
	[ -s "$work/d$z" ] || die "no pair of pages measured"
	echo
	echo "sh-fp flags: ${flags:-(none)}"
	LC_ALL=C awk -v ks="$ks" '
	{ d[NR] = $1 }
	END {
		n = split(ks, k, " ")
		for (i = 1; i <= n; i++) {
			c = 0
			for (j = 1; j <= NR; j++)
				if (d[j] <= k[i])
					c++
			printf "  within %2d: %4d of %d, %5.1f %%\n", k[i], c,
			    NR, 100 * c / NR
		}
		printf "  distance quartiles: %d %d %d, max %d\n",
		    d[int((NR + 3) / 4)], d[int((NR + 1) / 2)],
		    d[int((3 * NR + 3) / 4)], d[NR]
		split("0 3 6 10 15 20 25 64", top, " ")
		lo = 0
		printf "  histogram:"
		for (i = 1; i <= 8; i++) {
			c = 0
			for (j = 1; j <= NR; j++)
				if (d[j] >= lo && d[j] <= top[i])
					c++
			printf " %s%s:%d", lo == top[i] ? "" : lo "-", top[i], c
			lo = top[i] + 1
		}
		printf "\n"
	}' "$work/d$z"
	# Unrelated pairs: both corpora pooled, IDs keep their locale.
	cat "$work/cn$z.fp" "$work/tw$z.fp" |
	    "$bin/sh-near" -k "$kmax" 2>/dev/null |
	    LC_ALL=C awk -F '\t' -v ks="$ks" '
	{
		a = $1; b = $2
		sub(/^zh_(CN|TW)\//, "", a)
		sub(/^zh_(CN|TW)\//, "", b)
		if (a == b)
			next
		x = substr($1, 1, 5) == substr($2, 1, 5) ? "same" : "cross"
		d[x, ++n[x]] = $3
	}
	END {
		nk = split(ks, k, " ")
		for (i = 1; i <= nk; i++) {
			c["cross"] = c["same"] = 0
			for (x in n)
				for (j = 1; j <= n[x]; j++)
					if (d[x, j] <= k[i])
						c[x]++
			printf "  unrelated pairs within %2d: %d between a " \
			    "zh_CN and a zh_TW page, %d within one locale\n",
			    k[i], c["cross"], c["same"]
		}
	}'
done
changed=$(LC_ALL=C awk 'NR == FNR { f[$2] = $1; next } f[$2] != $1 { n++ }
    END { print n + 0 }' "$work/cn.fp" "$work/cn-z.fp")
echo
echo "zh_CN fingerprints changed by -z: $changed of" \
    "$(($(wc -l <"$work/cn.fp")))"
