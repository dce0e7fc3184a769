#!/usr/bin/env bats
# A real crawl: wget writes a WARC of pages the test makes, served on
# 127.0.0.1 by python3's http.server (wget asks for robots.txt too: a
# 404); sh-fp keeps the 2xx responses of pages (HTML, plain text), decodes their charsets and
# names them without angle brackets.  Skipped where wget or python3 is
# missing.

load helper

# The rules are shown on the features of fingerprint version 1: single
# words, CJK bigrams, term frequency.
export V1='-n 2 -w 1 -W tf'

setup() {
	command -v wget >/dev/null && command -v python3 >/dev/null ||
	    skip "wget and python3 are needed"
	D=$BATS_TEST_TMPDIR
	mkdir -p "$D/site"
	cd "$D/site" || return 1
	printf '<html><a href="a.html">a</a> <a href="b.html">b</a> <a href="c.txt.gz">c</a> <a href="d.pdf">d</a> <a href="gone.html">e</a> <a href="z.html">z</a> <a href="m1.html">m1</a> <a href="m2.html">m2</a> <a href="prog.c">p</a></html>\n' >index.html
	# A page and its mirror: the same text under another script,
	# other attributes and comments; and a C source served as text.
	text='the committee met on tuesday to discuss the budget for the coming year and agreed to spend more on schools roads and the public library while cutting the cost of running the town hall'
	printf '<!DOCTYPE html><html><head><script>var tracker = "alpha"; function ping() { send(tracker, window.location) }</script></head><body><nav>home news sport weather</nav><p>%s</p><footer>copyright town gazette all rights reserved</footer></body></html>\n' "$text" >m1.html
	printf '<!DOCTYPE html><html lang="en"><head><script>window.dataLayer = []; gtag("config", "mirror-site-42"); loadAds("sidebar", "banner")</script><!-- mirrored by example mirrors limited --></head><body class="mirror wide"><nav id="top">home news sport weather</nav><p class="story">%s</p><footer style="color: grey">copyright town gazette all rights reserved</footer></body></html>\n' "$text" >m2.html
	printf '#include <stdio.h>\n#include <stdlib.h>\nint main(void) { printf("the budget\\n"); return 0; }\n' >prog.c
	printf '<html><head><meta charset="gbk"></head><body><p>今天北京的天气很好，适合出去散步，公园里有很多人在锻炼身体。</p></body></html>\n' |
	    iconv -f UTF-8 -t GBK >a.html
	printf '<html><body><p>今天北京的天气很好，适合出去散步，公园里有很多人在锻炼身体！</p></body></html>\n' >b.html
	printf 'compressed words that are not text to fingerprint\n' | gzip >c.txt.gz
	printf '%%PDF-1.4 not a page\n' >d.pdf
	printf '<html><body><p>a page of its own about something else entirely</p></body></html>\n' >z.html
	PORT=$((20000 + $$ % 20000))
	python3 -m http.server "$PORT" --bind 127.0.0.1 >/dev/null 2>&1 &
	SERVER=$!
	for i in 1 2 3 4 5 6 7 8 9 10; do
		wget -q -O /dev/null "http://127.0.0.1:$PORT/" && break
		sleep 0.3
	done
	cd "$D" || return 1
	wget -q -r -l 2 -np -P mirror --warc-file=crawl "http://127.0.0.1:$PORT/" ||
	    true	# gone.html: wget exits 8 on a 404
	[ -s crawl.warc.gz ]
}

teardown() {
	[ -z "${SERVER:-}" ] || kill "$SERVER" 2>/dev/null || true
}

@test "crawl: 2xx text pages only, charsets decoded, IDs without brackets" {
	U=http://127.0.0.1:$PORT
	run -0 --separate-stderr sh -c 'zcat crawl.warc.gz | sh-fp -f warc -H | cut -f 2 | sort'
	eq "$output" "$U/
$U/a.html
$U/b.html
$U/m1.html
$U/m2.html
$U/z.html"
	# Not kept: c.txt.gz, d.pdf and prog.c (text/x-csrc, no page).
	eq "$stderr" "sh-fp: skipped 2 WARC response(s) of an HTTP status other than 2xx (-A keeps them)
sh-fp: skipped 3 WARC response(s) of a media type not kept (-M)"
	run -0 --separate-stderr sh -c 'zcat crawl.warc.gz | sh-fp -f warc -H | sh-near'
	eq "$output" "$U/a.html	$U/b.html	0
$U/m1.html	$U/m2.html	0"
	run -0 sh -c 'zcat crawl.warc.gz | sh-tokenize $V1 -f warc -H 2>/dev/null | grep a.html'
	eq "$output" "$U/a.html	今天^1 天北^1 北京^1 京的^1 的天^1 天气^1 气很^1 很好^1 适合^1 合出^1 出去^1 去散^1 散步^1 公园^1 园里^1 里有^1 有很^1 很多^1 多人^1 人在^1 在锻^1 锻炼^1 炼身^1 身体^1"
}

@test "crawl: HTML reduced to text where the Content-Type says HTML, by default and only there; -X keeps the markup" {
	U=http://127.0.0.1:$PORT
	# Without -H, the pairs of -H: the mirror is found.
	zcat crawl.warc.gz | sh-fp -f warc -H 2>/dev/null | sh-near >"$D/forced"
	run -0 sh -c 'zcat crawl.warc.gz | sh-fp -f warc 2>/dev/null | sh-near'
	eq "$output" "$(cat "$D/forced")"
	[[ $output == *"$U/m1.html	$U/m2.html	0"* ]]
	# The C source (text/x-csrc, kept by -M) keeps <stdio.h>; -H
	# strips it.
	run -0 sh -c 'zcat crawl.warc.gz | sh-tokenize $V1 -f warc -M "text/*" 2>/dev/null | grep prog.c'
	[[ $output == *" stdio^1 "* ]]
	run -0 sh -c 'zcat crawl.warc.gz | sh-tokenize $V1 -f warc -M "text/*" -H 2>/dev/null | grep prog.c'
	[[ $output != *"stdio"* ]]
	# -X: markup kept, so the mirror's script and bars count.
	run -0 sh -c 'zcat crawl.warc.gz | sh-tokenize $V1 -f warc -X 2>/dev/null | grep m1.html'
	[[ $output == *" tracker^"* ]]
	run -1 sh -c 'zcat crawl.warc.gz | sh-fp -f warc -X 2>/dev/null | sh-near'
	eq "$output" ""
	run -2 --separate-stderr sh-fp -f warc -H -X /dev/null
	eq "${stderr%%$'\n'*}" "sh-fp: -H and -X cannot be used together"
}

@test "crawl: -A keeps every status, -M '*' every type; binary bodies are skipped and counted" {
	run -0 --separate-stderr sh -c 'zcat crawl.warc.gz | sh-fp -f warc -H -A -M "*" | wc -l'
	eq "$output" 9
	eq "$stderr" "sh-fp: skipped 2 binary document(s): a NUL byte, the magic number of a binary format, or control bytes"
	run -0 --separate-stderr sh -c 'zcat crawl.warc.gz | sh-fp -f warc -M "text/plain,text/x-csrc" | cut -f 2'
	eq "$output" "http://127.0.0.1:$PORT/prog.c"
	eq "$stderr" "sh-fp: skipped 2 WARC response(s) of an HTTP status other than 2xx (-A keeps them)
sh-fp: skipped 8 WARC response(s) of a media type not kept (-M)"
}

# The records of a WARC, each on one line in hex, in order.
warc_records() {
	python3 -c '
import sys
b = open(sys.argv[1], "rb").read()
i = 0
while i < len(b):
    h = b.index(b"\r\n\r\n", i) + 4
    n = [int(l.split(b":")[1]) for l in b[i:h].split(b"\r\n") if l.lower().startswith(b"content-length:")][0]
    j = h + n
    while b[j:j + 2] == b"\r\n":
        j += 2
    print(b[i:j].hex())
    i = j
' "$1"
}

@test "crawl: -Z writes the clean WARC, fingerprinted again no pair at the threshold; kept and removed records are the crawl's, byte for byte, in order" {
	U=http://127.0.0.1:$PORT
	zcat crawl.warc.gz >crawl.warc
	sh-fp -f warc crawl.warc.gz 2>/dev/null >fp
	run -0 --separate-stderr sh-near -g -v crawl.warc.gz -f warc -a 0.9 -k 16 -Z kept.warc -Z gone.warc fp
	eq "$(awk -F '\t' '$1 != $2' <<<"$output")" "$U/a.html	$U/b.html
$U/m1.html	$U/m2.html"
	warc_records crawl.warc >all
	warc_records kept.warc >kept
	# The removed records, each with the ID of the copy that stays.
	eq "$(grep -a '^Sh-Near-Kept-Copy: ' gone.warc | tr -d '\r')" "Sh-Near-Kept-Copy: $U/a.html
Sh-Near-Kept-Copy: $U/a.html
Sh-Near-Kept-Copy: $U/m1.html
Sh-Near-Kept-Copy: $U/m1.html"
	grep -av '^Sh-Near-Kept-Copy: ' gone.warc >gone.plain
	warc_records gone.plain >gone
	# The removed responses, each with its request before it.
	eq "$(grep -a -e '^WARC-Type' -e '^WARC-Target-URI' gone.warc | tr -d '\r')" "WARC-Type: request
WARC-Target-URI: <$U/b.html>
WARC-Type: response
WARC-Target-URI: <$U/b.html>
WARC-Type: request
WARC-Target-URI: <$U/m2.html>
WARC-Type: response
WARC-Target-URI: <$U/m2.html>"
	# Kept and removed, merged in the crawl's order: the crawl.
	[ "$(wc -l <gone)" -eq 4 ]
	[ "$(($(wc -l <kept) + 4))" -eq "$(wc -l <all)" ]
	grep -vxF -f gone all | same_files - kept
	grep -xF -f gone all | same_files - gone
	# The same bytes read decompressed, within -S, on one thread.
	sh-near -g -S 1M -j 1 -v crawl.warc -f warc -a 0.9 -k 16 -Z k2 -Z g2 fp >/dev/null 2>&1
	same_files kept.warc k2
	same_files gone.warc g2
	# Fingerprinted again: no pair at the threshold.
	sh-fp -f warc kept.warc 2>/dev/null >fp2
	[ "$(wc -l <fp2)" -eq 4 ]
	run -1 --separate-stderr sh-near -v kept.warc -f warc -a 0.9 -k 16 fp2
	eq "$output" ""
}
