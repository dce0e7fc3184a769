#!/bin/sh
# corpus.sh: build the two real corpora used by bench/eval.sh from the man
# pages installed on this machine.  Nothing here is ever committed.
#
#   zh.txt  Simplified Chinese pages of Debian package manpages-zh
#           (/usr/share/man/zh_CN), installed with apt-get when missing
#           and running as root.
#   en.txt  English pages from /usr/share/man/man[1-8].
#   tw.txt  Traditional Chinese pages of manpages-zh (zh_TW), mostly the
#           same pages as zh.txt converted: only when CORPORA names it.
#   api.txt API reference pages of three libraries, installed with
#           apt-get when missing: the libcurl pages of libcurl4-doc (man3,
#           "*curl*" and "CURL*"), the OpenSSL pages of libssl-doc (man1,
#           man3 and man7, "*ssl.gz") and the Xlib pages of libx11-doc:
#           large families of templated pages sharing their headings,
#           boilerplate, example code and license text.
#   fortune.txt  Short texts: the fortunes of Debian packages fortunes and
#           fortunes-min (installed likewise), one document per fortune,
#           ID "FILE#N"; white space collapsed.
#   ja.txt, ru.txt, fr.txt, de.txt  Japanese, Russian, French and German
#           pages of manpages-ja, manpages-ru, manpages-fr and
#           manpages-de (installed likewise), at most LANG_MAX each: for
#           bench/charset-eval.sh, only when CORPORA names them.
#   zhshort.txt  Short Chinese texts: the sentences of zh.txt (pieces
#           between the marks 。！？；!?;) of 10 to 59 characters with at
#           least 8 ideographs, each once, every Nth so that at most
#           SHORT_MAX remain; ID "PAGE#N", N counting the page's pieces.
#
# One document per page, "ID<TAB>TEXT": ID is the page path below
# /usr/share/man without ".gz" (zh_CN/man1/ls.1, man1/ls.1), TEXT is the
# page rendered to plain UTF-8 at the usual 80 columns, then every run of
# white space collapsed to one space.  Pages are rendered without
# hyphenation or justification, so lines break only at spaces and the
# collapsed text is the same at any width, save tables.  The rules drawn
# by the renderer (box-drawing characters, runs of '_') are removed: they
# are decoration, not text.
#
# Skipped: symbolic links and ".so" stub pages (both duplicate another
# page), pages whose text is shorter than MINBYTES bytes, pages that do not
# render to valid UTF-8.  English pages come in families of machine-made
# near-copies (16000 "gcloud_*" pages, "x86_64-linux-gnu-*"); at most
# EN_FAMILY pages are taken per family (page name up to its first '-', '_'
# or '.'), then the first EN_MAX pages in sorted order.
#
# usage: bench/corpus.sh [DIR]	(default ${TMPDIR:-/tmp}/sh-eval)
# environment: CORPORA ("zh en": the corpora built, of zh, en, tw, api
# and fortune; zh brings zhshort), MANDIR (/usr/share/man), EN_MAX (3000), EN_FAMILY (10),
# MINBYTES (300), JOBS (number of processors), SHORT_MAX (20000),
# LANG_MAX (600).

set -eu

LC_ALL=C.UTF-8
export LC_ALL

prog=corpus.sh
dir=${1:-${TMPDIR:-/tmp}/sh-eval}
corpora=${CORPORA:-zh en}
mandir=${MANDIR:-/usr/share/man}
en_max=${EN_MAX:-3000}
en_family=${EN_FAMILY:-10}
minbytes=${MINBYTES:-300}
short_max=${SHORT_MAX:-20000}
lang_max=${LANG_MAX:-600}
jobs=${JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)}

die() {
	printf '%s: %s\n' "$prog" "$*" >&2
	exit 2
}

# zhshort.txt, from zh.txt: see the header.
build_short() {
	LC_ALL=C awk -F'\t' '
	{
		n = split($2, s, /。|！|？|；|!|\?|;/)
		for (i = 1; i <= n; i++) {
			t = s[i]
			sub(/^ +/, "", t)
			sub(/ +$/, "", t)
			u = t
			chars = length(u) - gsub(/[\200-\277]/, "", u)
			u = t
			han = gsub(/[\344-\351][\200-\277][\200-\277]/, "", u)
			if (chars >= 10 && chars < 60 && han >= 8 && !(t in seen)) {
				seen[t] = 1
				print $1 "#" i "\t" t
			}
		}
	}' "$dir/zh.txt" >"$work/short"
	awk -v max="$short_max" 'NR == FNR { n++; next }
	    FNR == 1 { step = n > max ? n / max : 1; next_at = 1 }
	    FNR >= next_at && kept < max { print; kept++; next_at += step }' \
	    "$work/short" "$work/short" >"$dir/zhshort.txt"
}

for c in $corpora; do
	case $c in
	zh|en|tw|api|fortune|ja|ru|fr|de) ;;
	*) die "unknown corpus $c (zh, en, tw, api, fortune, ja, ru, fr or de)" ;;
	esac
done

# The renderer: man-db if present, mandoc otherwise; col -b removes the
# overstrike bold and underline.
if command -v man >/dev/null 2>&1; then
	render='man'
elif command -v mandoc >/dev/null 2>&1; then
	render=mandoc
else
	die "neither man nor mandoc found"
fi
for t in col gzip iconv xargs; do
	command -v "$t" >/dev/null 2>&1 || die "$t not found"
done

# need PACKAGE PATH: install the Debian package when PATH is missing.
need() {
	[ -e "$2" ] && return 0
	if [ "$(id -u)" -ne 0 ]; then
		die "$2 missing: install the Debian package $1" \
		    "(apt-get install $1) as root"
	fi
	echo "$prog: installing $1" >&2
	apt-get install -y "$1" >&2 ||
	    { apt-get update >&2 && apt-get install -y "$1" >&2; } ||
	    die "apt-get install $1 failed"
	[ -e "$2" ] ||
	    die "$2 still missing after install" \
		"(is it excluded by a dpkg path-exclude?)"
}

fortunes=/usr/share/games/fortunes
for c in $corpora; do
	case $c in
	# A page of manpages-zh's own: man-db, login and others install a
	# few zh_CN pages of theirs too.
	zh|tw)	need manpages-zh "$mandir/zh_CN/man1/bash.1.gz" ;;
	ja)	need manpages-ja "$mandir/ja/man1/ls.1.gz" ;;
	ru|fr|de) need "manpages-$c" "$mandir/$c/man1/ls.1.gz" ;;
	api)	need libssl-doc "$mandir/man3/SSL_new.3ssl.gz"
		need libcurl4-doc "$mandir/man3/curl_easy_setopt.3.gz"
		need libx11-doc "$mandir/man3/XOpenDisplay.3.gz" ;;
	fortune) need fortunes "$fortunes/science"
		need fortunes-min "$fortunes/fortunes" ;;
	esac
done
ls "$mandir"/man1 >/dev/null 2>&1 || die "no English man pages in $mandir/man1"

mkdir -p "$dir" || die "cannot create $dir"
work=$(mktemp -d "$dir/.work.XXXXXX") || die "cannot create work directory"
trap 'rm -rf "$work"' EXIT
trap 'exit 2' HUP INT TERM
start=$(date +%s)

# Render the pages named on the command line (paths below $mandir) into
# $work/out/N, one "ID<TAB>TEXT" line each, where N is the page's position
# in the list ($1 "N:PATH").  Runs under xargs, hence a separate script.
cat >"$work/render.sh" <<'EOF'
cd "$PAGEDIR" || exit 2
# U+2500..U+257F in UTF-8, for sed in the C locale.
box=$(printf '\342[\224\225][\200-\277]')
for arg; do
	n=${arg%%:*}
	f=${arg#*:}
	o=$OUT/$n
	gzip -dc "$f" 2>/dev/null | head -n 5 | grep -q '^\.so ' && continue
	{
		printf '%s\t' "${f%.gz}"
		if [ "$RENDER" = man ]; then
			MANWIDTH=80 man --nh --nj -l -Tutf8 "$f"
		else
			mandoc -Tutf8 -Owidth=78 "$f"
		fi 2>/dev/null | col -bx |
		    LC_ALL=C sed "s/$box//g; s/___*_//g" |
		    tr -d '\000-\010\016-\037\177' |
		    tr '\011\012\013\014\015' '     ' | tr -s ' '
		echo
	} >"$o.tmp"
	if iconv -f UTF-8 -t UTF-8 <"$o.tmp" >/dev/null 2>&1; then
		mv "$o.tmp" "$o"
	else
		echo "$f" >"$o.bad"
		rm -f "$o.tmp"
	fi
done
EOF

# build NAME LIMIT < list: render the pages of the sorted list, keep the
# first LIMIT that pass, write $dir/NAME.txt.
build() {
	rm -rf "$work/out"
	mkdir "$work/out"
	awk '{ print NR ":" $0 }' >"$work/list"
	PAGEDIR=$mandir OUT=$work/out RENDER=$render \
	    xargs -n 20 -P "$jobs" sh "$work/render.sh" <"$work/list" ||
	    die "rendering failed"
	nbad=$(cat "$work/out"/*.bad 2>/dev/null | wc -l)
	# Reassemble in list order; trim, apply the size floor and limit.
	awk -F: '{ print $1 }' "$work/list" | while read -r n; do
		[ -f "$work/out/$n" ] && cat "$work/out/$n"
	done | LC_ALL=C awk -v min="$minbytes" -v max="$2" '
	{
		t = index($0, "\t")
		text = substr($0, t + 1)
		sub(/^ /, "", text)
		sub(/ $/, "", text)
		if (length(text) < min)
			next
		print substr($0, 1, t) text
		if (++n == max)
			exit
	}' >"$dir/$1.txt.tmp"
	mv "$dir/$1.txt.tmp" "$dir/$1.txt"
	[ "$nbad" -eq 0 ] ||
	    echo "$prog: $1: $nbad pages skipped: invalid UTF-8" >&2
}

# Chinese pages of locale $1 (zh_CN, zh_TW).  Regular files only:
# symbolic links duplicate their target.
zh_pages() {
	(cd "$mandir" && find "$1/man1" "$1/man2" "$1/man3" "$1/man4" \
	    "$1/man5" "$1/man6" "$1/man7" "$1/man8" -type f -name '*.gz' \
	    2>/dev/null) | sort
}

for c in $corpora; do
	case $c in
	zh)	zh_pages zh_CN | build zh 1000000000
		build_short ;;
	tw)	zh_pages zh_TW | build tw 1000000000 ;;
	ja|ru|fr|de) zh_pages "$c" | build "$c" "$lang_max" ;;
	api)	(cd "$mandir" && { find man3 -type f \( -name '*curl*' -o \
		    -name 'CURL*' \); find man1 man3 man7 -type f \
		    -name '*ssl.gz'; dpkg -L libx11-doc 2>/dev/null |
		    sed -n 's|^/usr/share/man/\(man3/.*\.3\.gz\)$|\1|p' |
		    while read -r f; do [ -L "$f" ] || echo "$f"; done
		    } 2>/dev/null) | sort -u | build api 1000000000 ;;
	fortune)
		# Fortune files: text files with a .dat index beside them.
		for f in "$fortunes"/*.dat; do
			f=${f%.dat}
			[ -f "$f" ] && printf '%s\n' "$f"
		done | sort | while read -r f; do
			LC_ALL=C awk -v name="${f##*/}" '
			function put() {
				gsub(/[\001-\037\177 ]+/, " ", text)
				sub(/^ /, "", text)
				sub(/ $/, "", text)
				if (text != "")
					print name "#" ++n "\t" text
				text = ""
			}
			/^%$/ { put(); next }
			{ text = text " " $0 }
			END { put() }' "$f"
		done | iconv -f UTF-8 -t UTF-8 -c >"$dir/fortune.txt.tmp"
		mv "$dir/fortune.txt.tmp" "$dir/fortune.txt" ;;
	en)	(cd "$mandir" && find man1 man2 man3 man4 man5 man6 man7 \
		    man8 -type f -name '*.gz' 2>/dev/null) | sort |
		    awk -v cap="$en_family" '{
			name = $0
			sub(/^[^\/]*\//, "", name)
			sub(/[-_.].*/, "", name)
			if (++seen[name] <= cap)
				print
		    }' | build en "$en_max" ;;
	esac
done

for c in $corpora $(case " $corpora " in *" zh "*) echo zhshort ;; esac); do
	wc -lc <"$dir/$c.txt" | awk -v f="$dir/$c.txt" \
	    '{ printf "%s: %d docs, %.1f MB\n", f, $1, $2 / 1e6 }'
done
echo "$prog: $(($(date +%s) - start)) s ($render, $jobs jobs)"
