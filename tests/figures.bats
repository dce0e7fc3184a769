#!/usr/bin/env bats
# sh-near -R: the figures of a run of -g or -u, as a JSON object in a file
# and a table on standard error, each count derived here from the output
# of -g and from the pairs; the template guard of -L; the same bytes
# whatever -j and -S.

load helper

# resp URI STATUS TYPE BODY: a WARC response record.
resp() {
	local b n
	b="HTTP/1.1 $2"$'\r\n'"Content-Type: $3"$'\r\n\r\n'"$4"
	n=$(printf '%s' "$b" | wc -c)
	printf 'WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: %s\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n' \
	    "$1" "$n" "$b"
}

# crawl FILE: a small crawl: on a.example five pages of one template
# (four alike, one with a longer story of its own) and a page apart; on
# b.example two pages and one not found; on c.example a copy of a page
# of b.example, an image and a page apart.
crawl() {
	local tpl='<nav>home news sport weather contact about us</nav><p>welcome to the town gazette where every page carries the same long header and the same long footer about the paper and its staff and its history since the year it was founded</p>'
	local budget='<p>the committee met on tuesday to discuss the budget for the coming year and agreed to spend more on schools</p>'
	{
		for i in 1 2 3 4; do
			resp "http://a.example/p$i" '200 OK' text/html "$tpl<p>story $i</p>"
		done
		resp http://a.example/p5 '200 OK' text/html "$tpl<p>a longer story of the fair in the square with music and dancing until late at night</p>"
		resp http://a.example/own '200 OK' text/html '<p>a page of its own about the harbour and the boats that sail from it every morning before dawn</p>'
		resp http://b.example/1 '200 OK' text/html "$budget"
		resp http://b.example/gone '404 Not Found' text/html '<p>not found</p>'
		resp http://b.example/2 '200 OK' text/html '<p>rain is expected over the weekend in the north with sun in the south and wind on the coast</p>'
		resp http://c.example/1 '200 OK' text/html "$budget"
		resp http://c.example/logo.png '200 OK' image/png 'PNGDATA'
		resp http://c.example/3 '200 OK' text/html '<p>the library will close for repairs in march and open again in may with a new reading room for children</p>'
	} >"$1"
}

# expect PAIRS CLUSTERS FILE T GUARD DOCS SKIPPED: the figures that -R
# must write, in its layout, from the pairs within the distance with
# their similarities (sh-near -v without -a) and the output of -g; the
# entries kept in input order, each against the copies kept before it
# within the distance, verified in order until one reaches T.  DOCS and
# SKIPPED (status, media type, binary, bad, duplicate) come from how the
# crawl was made; FILE is the one file of -v.  With SUFFIX=table, the
# table of standard error instead.
expect() {
	LC_ALL=C awk -F '\t' -v file="$3" -v t="$4" -v guard="$5" \
	    -v docs="$6" -v skipped="$7" -v what="${SUFFIX:-json}" '
	function share(a, b) { return b == 0 ? "null" : sprintf("%.6f", a / b) }
	function host(id,   h) {
		if (id !~ /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//) return ""
		h = id; sub(/^[^:]*:\/\//, "", h); sub(/[\/?#].*/, "", h)
		sub(/.*@/, "", h); sub(/:.*/, "", h)
		return tolower(h)
	}
	function group(kind, name, g,   s, k, best, bk, c) {
		best = 0; bk = ""
		for (k = 1; k <= n; k++) {
			if (gof[k] != g || size[rep[k]] < 2 || seen[g, rep[k]]++)
				continue
			c = inc[g, rep[k]]
			if (c > best || (c == best && pos[rep[k]] < pos[bk])) {
				best = c; bk = rep[k] }
		}
		return sprintf("    {\"%s\": \"%s\", \"documents\": %d, \"removed\": %d, \"share_removed\": %s, \"largest_cluster\": %d, \"largest_kept\": %s}",
		    kind, name, gdocs[g], grem[g], share(grem[g], gdocs[g]),
		    best, bk == "" ? "null" : "\"" bk "\"")
	}
	NR == FNR { sim[$1, $2] = $4; next }
	{ n++; id[n] = $2; rep[n] = $1; pos[$2] = n; size[$1]++ }
	END {
		split(skipped, sk, " ")
		for (i = 1; i <= n; i++) {
			done = 0
			for (j = 1; j < i; j++) {
				if (!kept[id[j]] || !((id[j], id[i]) in sim))
					continue
				cand++
				if (done) continue
				ver++
				if (sim[id[j], id[i]] >= t) { acc++; done = 1 }
			}
			if (rep[i] == id[i]) { kept[id[i]] = 1; nk++ } else np++
		}
		for (i = 1; i <= n; i++)
			if (rep[i] == id[i] && size[id[i]] >= 2) {
				nc++
				for (b = 0; 2 ^ (b + 1) <= size[id[i]]; b++) ;
				hist[b]++; if (b > maxb) maxb = b
				top[nc] = id[i]
			}
		# The largest first, ties in input order.
		for (i = 2; i <= nc; i++)
			for (j = i; j > 1 && size[top[j]] > size[top[j - 1]]; j--) {
				x = top[j]; top[j] = top[j - 1]; top[j - 1] = x }
		if (what == "table") {
			printf "lines\t%d\ndocuments\t%d\nskipped\t%d\n", n, docs,
			    sk[1] + sk[2] + sk[3] + sk[4] + sk[5]
			printf "candidates\t%d\nverified\t%d\naccepted\t%d\t%s\n",
			    cand, ver, acc, share(acc, ver)
			printf "pairs\t%d\nclusters\t%d\nkept\t%d\nremoved\t%d\t%s\n",
			    np, nc, nk, np, share(np, n)
			if (nc) printf "largest\t%d\t%s\n", size[top[1]], top[1]
			exit
		}
		printf "{\n  \"mode\": \"g\",\n  \"lines\": %d,\n  \"documents\": %d,\n", n, docs
		printf "  \"skipped\": {\"status\": %d, \"media_type\": %d, \"binary\": %d, \"bad_record\": %d, \"duplicate_id\": %d},\n", sk[1], sk[2], sk[3], sk[4], sk[5]
		printf "  \"charset_unknown\": 0,\n  \"candidates\": %d,\n  \"verified\": %d,\n  \"accepted\": %d,\n  \"share_accepted\": %s,\n", cand, ver, acc, share(acc, ver)
		printf "  \"pairs\": %d,\n  \"clusters\": %d,\n  \"kept\": %d,\n  \"removed\": %d,\n  \"share_removed\": %s,\n  \"left_out\": 0,\n", np, nc, nk, np, share(np, n)
		printf "  \"cluster_sizes\": ["
		for (b = 1; b <= maxb; b++)
			printf "%s\n    {\"from\": %d, \"to\": %d, \"clusters\": %d}", (b > 1 ? "," : ""), 2 ^ b, 2 ^ (b + 1) - 1, hist[b]
		printf "%s],\n  \"largest\": [", maxb ? "\n  " : ""
		for (i = 1; i <= nc && i <= 10; i++)
			printf "%s\n    {\"kept\": \"%s\", \"size\": %d}", (i > 1 ? "," : ""), top[i], size[top[i]]
		printf "%s],\n  \"guard\": %s,\n  \"files\": [\n", nc ? "\n  " : "", guard
		for (k = 1; k <= n; k++) {
			gof[k] = "f"; gdocs["f"]++; grem["f"] += rep[k] != id[k]
			inc["f", rep[k]]++
		}
		print group("file", file, "f")
		printf "  ],\n  \"hosts\": ["
		for (k = 1; k <= n; k++) {
			h = host(id[k]); if (h == "") continue
			if (!(("h" h) in gdocs)) hosts[++nh] = h
			gof[k] = "h" h; gdocs["h" h]++; grem["h" h] += rep[k] != id[k]
			inc["h" h, rep[k]]++
		}
		for (i = 2; i <= nh; i++)
			for (j = i; j > 1 && hosts[j] < hosts[j - 1]; j--) {
				x = hosts[j]; hosts[j] = hosts[j - 1]; hosts[j - 1] = x }
		for (i = 1; i <= nh; i++)
			printf "%s\n%s", (i > 1 ? "," : ""), group("host", hosts[i], "h" hosts[i])
		printf "%s]\n}\n", nh ? "\n  " : ""
	}' "$1" "$2"
}

@test "-g -R: the figures of a small crawl, each count as the output of -g and the pairs give it; the table on stderr" {
	local d="$BATS_TEST_TMPDIR"
	cd "$d"
	crawl crawl.warc
	sh-fp -f warc crawl.warc 2>/dev/null >fp
	sh-near -v crawl.warc -f warc -k 16 fp >pairs
	sh-near -g -v crawl.warc -f warc -k 16 -a 0.8 fp >g
	# Something to count: a cluster of 4, one of 2, a pair rejected.
	eq "$(awk -F '\t' '$1 != $2' g | wc -l)" 4
	eq "$(awk -F '\t' '$4 < 0.8' pairs | wc -l)" 2
	run -0 --separate-stderr sh-near -g -v crawl.warc -f warc -k 16 -a 0.8 -R fig.json fp
	same_files g - <<<"$output"
	expect pairs g crawl.warc 0.8 0.500000 10 '1 1 0 0 0' >want
	same_files want fig.json
	SUFFIX=table expect pairs g crawl.warc 0.8 0.500000 10 '1 1 0 0 0' >want
	eq "$stderr" "$(cat want)
sh-near: host a.example: one cluster holds 4 of the 6 documents, more than -L 0.5: the copy that stays is \"http://a.example/p1\""
	# -u keeps the same: the same figures but for the mode.
	run -0 --separate-stderr sh-near -u -v crawl.warc -f warc -k 16 -a 0.8 -R u.json fp
	sed 's/"mode": "g"/"mode": "u"/' fig.json | same_files - u.json
}

@test "-R: the hosts of the IDs: lowercased, without user and port, none for an ID that is no URL; the share removed of each" {
	local d="$BATS_TEST_TMPDIR"
	cd "$d"
	{
		printf 'HTTP://User@WWW.Example.COM:8080/a?q\tthe quick brown fox jumps over the lazy dog\n'
		printf 'http://www.example.com/b\tthe quick brown fox jumps over the lazy dog\n'
		printf 'https://[::1]:443/c#x\tthe quick brown fox jumps over the lazy dog\n'
		printf 'urn:uuid:1\tthe quick brown fox jumps over the lazy dog\n'
		printf 'mailto:a@b\tfive boxing wizards jump quickly at dawn\n'
		printf 'ftp://other.example\tfive boxing wizards jump quickly at dawn\n'
	} >docs.tsv
	sh-fp docs.tsv >fp
	run -0 --separate-stderr sh-near -g -v docs.tsv -a 0.9 -k 3 -R fig.json fp
	eq "$output" "$(printf '%s\t%s\n' 'HTTP://User@WWW.Example.COM:8080/a?q' 'HTTP://User@WWW.Example.COM:8080/a?q' \
	    'HTTP://User@WWW.Example.COM:8080/a?q' http://www.example.com/b \
	    'HTTP://User@WWW.Example.COM:8080/a?q' 'https://[::1]:443/c#x' \
	    'HTTP://User@WWW.Example.COM:8080/a?q' urn:uuid:1 mailto:a@b mailto:a@b \
	    mailto:a@b ftp://other.example)"
	run -0 sed -n '/"hosts"/,$p' fig.json
	eq "$output" '  "hosts": [
    {"host": "[::1]", "documents": 1, "removed": 1, "share_removed": 1.000000, "largest_cluster": 1, "largest_kept": "HTTP://User@WWW.Example.COM:8080/a?q"},
    {"host": "other.example", "documents": 1, "removed": 1, "share_removed": 1.000000, "largest_cluster": 1, "largest_kept": "mailto:a@b"},
    {"host": "www.example.com", "documents": 2, "removed": 1, "share_removed": 0.500000, "largest_cluster": 2, "largest_kept": "HTTP://User@WWW.Example.COM:8080/a?q"}
  ]
}'
}

@test "-R: an ID in JSON: its quote and backslash escaped, its control bytes as \\u00XX" {
	local d="$BATS_TEST_TMPDIR"
	cd "$d"
	printf '0000000000000000\ta"b\\c\001\n0000000000000001\tx\n' >q.fp
	run -0 --separate-stderr sh-near -g -R q.json q.fp
	run -0 grep -F '"size"' q.json
	eq "$output" '    {"kept": "a\"b\\c\u0001", "size": 2}'
}

@test "-L: the guard warns where one cluster holds more than the share of a file's or a host's documents, and at least two; not at or below it" {
	local d="$BATS_TEST_TMPDIR"
	cd "$d"
	crawl crawl.warc
	sh-fp -f warc crawl.warc 2>/dev/null >fp
	# a.example: 4 of its 6 pages in one cluster (0.666667); the file:
	# 4 of 10 (0.4); c.example: 1 of 2 in b.example's cluster.
	run -0 --separate-stderr sh-near -g -v crawl.warc -f warc -k 16 -a 0.8 -R fig.json -L 0.66 fp
	eq "$(grep '^sh-near' <<<"$stderr")" 'sh-near: host a.example: one cluster holds 4 of the 6 documents, more than -L 0.66: the copy that stays is "http://a.example/p1"'
	grep -qx '  "guard": 0.660000,' fig.json
	run -0 --separate-stderr sh-near -g -v crawl.warc -f warc -k 16 -a 0.8 -R fig.json -L 0.666667 fp
	eq "$(grep -c '^sh-near' <<<"$stderr")" 0
	run -0 --separate-stderr sh-near -g -v crawl.warc -f warc -k 16 -a 0.8 -R fig.json -L 0.39 fp
	eq "$(grep '^sh-near' <<<"$stderr")" 'sh-near: crawl.warc: one cluster holds 4 of the 10 documents, more than -L 0.39: the copy that stays is "http://a.example/p1"
sh-near: host a.example: one cluster holds 4 of the 6 documents, more than -L 0.39: the copy that stays is "http://a.example/p1"'
	# c.example: 1 of its 2 is in a cluster, but one is not two.
	run -0 --separate-stderr sh-near -g -v crawl.warc -f warc -k 16 -a 0.8 -R fig.json -L 0 fp
	eq "$(grep -c '^sh-near' <<<"$stderr")" 2
}

@test "-R: the same bytes whatever -j and -S, on the band route and the fingerprints'; -u as -g" {
	local d="$BATS_TEST_TMPDIR" a opt
	cd "$d"
	near_copies docs 300 7
	sh-fp -B docs >fp
	for a in '-a 0.8' '-a 0.8 -k 8'; do
		sh-near -g -v docs $a -R want.json fp >g
		# Something to count.
		[ "$(awk -F '\t' '$1 != $2' g | wc -l)" -gt 100 ]
		grep -q '"from": 4, "to": 7, "clusters": [1-9]' want.json
		for opt in '-j 1' '-j 2' '-S 1M' '-S 1M -j 1'; do
			sh-near -g -v docs $a $opt -R fig.json fp 2>/dev/null >g2
			same_files g g2
			same_files want.json fig.json
		done
		sh-near -u -v docs $a -R u.json fp 2>/dev/null >/dev/null
		sed 's/"mode": "g"/"mode": "u"/' want.json | same_files - u.json
	done
}

@test "-R without -v: the counts of the lines, the rest null; the candidates those within the distance kept before" {
	local d="$BATS_TEST_TMPDIR"
	cd "$d"
	near_copies docs 40 3
	sh-fp docs >fp
	sh-near -k 6 fp >pairs
	run -0 --separate-stderr sh-near -g -k 6 -R fig.json fp
	printf '%s\n' "$output" >g
	run -0 awk -F '\t' 'NR == FNR { p[$1, $2] = 1; next }
	    { n++; id[n] = $2; rep[n] = $1 }
	    END { for (i = 1; i <= n; i++) {
		for (j = 1; j < i; j++)
			if (keep[id[j]] && ((id[j], id[i]) in p)) c++
		if (rep[i] == id[i]) { keep[id[i]] = 1; k++ } }
		print n, k, n - k, c + 0 }' pairs g
	read -r n k r c <<<"$output"
	[ "$r" -gt 0 ]
	run -0 sed -n 3,16p fig.json
	eq "$output" "  \"lines\": $n,
  \"documents\": null,
  \"skipped\": null,
  \"charset_unknown\": null,
  \"candidates\": $c,
  \"verified\": null,
  \"accepted\": null,
  \"share_accepted\": null,
  \"pairs\": $r,
  \"clusters\": $(awk -F '\t' '$1 != $2 { print $1 }' g | sort -u | wc -l),
  \"kept\": $k,
  \"removed\": $r,
  \"share_removed\": $(awk -v a="$r" -v b="$n" 'BEGIN { printf "%.6f", a / b }'),
  \"left_out\": 0,"
	grep -qx '  "files": \[\],' fig.json
	grep -qx '  "hosts": \[\]' fig.json
	eq "$(cut -f 1 <<<"$stderr" | tr '\n' ' ')" "lines candidates pairs clusters kept removed largest "
}

@test "-R: the files of -v, each with its documents and the share removed" {
	local d="$BATS_TEST_TMPDIR"
	cd "$d"
	printf 'one two three four five six\nseven eight nine ten eleven\n' >p1
	printf 'one two three four five six\nseven eight nine ten eleven\nthe last line of all\n' >p2
	sh-fp -l -w 1 p1 p2 >fp
	run -0 --separate-stderr sh-near -g -v p1 -v p2 -l -w 1 -a 0.9 -k 16 -R fig.json fp
	eq "$output" "$(printf 'p1:1\tp1:1\np1:2\tp1:2\np1:1\tp2:1\np1:2\tp2:2\np2:3\tp2:3')"
	run -0 sed -n '/"files"/,/^  \]/p' fig.json
	eq "$output" '  "files": [
    {"file": "p1", "documents": 2, "removed": 0, "share_removed": 0.000000, "largest_cluster": 1, "largest_kept": "p1:1"},
    {"file": "p2", "documents": 3, "removed": 2, "share_removed": 0.666667, "largest_cluster": 1, "largest_kept": "p1:1"}
  ],'
}

@test "-u -i -R: the lines with a match in the index are removed and left out, in no cluster" {
	local d="$BATS_TEST_TMPDIR" n kept out
	cd "$d"
	near_copies docs 20 5
	sh-fp docs >fp
	grep -e '	d[1-4]c1$' fp | sh-index build ix
	run -0 --separate-stderr sh-near -u -i ix -v docs -a 0.8 -k 8 -R fig.json fp
	n=$(wc -l <fp)
	kept=${#lines[@]}
	run -0 awk -F '[:,]' '$1 ~ /^  "(lines|kept|removed|pairs|left_out)"/ { gsub(/[ "]/, "", $1); printf "%s=%d ", $1, $2 }' fig.json
	# Left out: the lines that match in the index, as queries.
	out=$(sh-near -i ix -v docs -a 0.8 -k 8 fp | cut -f 1 | sort -u | wc -l)
	[ "$out" -ge 4 ]
	eq "$output" "lines=$n pairs=$((n - kept - out)) kept=$kept removed=$((n - kept)) left_out=$out "
}

@test "-R: its errors: a figures file that cannot be written is exit 2 in one line; the options it needs and excludes" {
	local d="$BATS_TEST_TMPDIR"
	cd "$d"
	printf 'a\tthe quick brown fox\nb\tthe quick brown fox\n' >docs
	sh-fp docs >fp
	run -2 --separate-stderr sh-near -g -v docs -a 0.9 -k 3 -R /dev/full fp
	eq "$stderr" "sh-near: /dev/full: No space left on device"
	eq "$output" ""
	run -2 --separate-stderr sh-near -g -R nosuch/fig.json fp
	eq "$stderr" "sh-near: nosuch/fig.json: No such file or directory"
	eq "$output" ""
	run -2 --separate-stderr sh-near -g -v docs -a 0.9 -k 3 -R docs fp
	eq "$stderr" "sh-near: -R docs: a file of -v"
	run -2 --separate-stderr sh-near -g -v docs -a 0.9 -k 3 -Z kept -R kept fp
	eq "$stderr" "sh-near: -R kept: a file of -Z"
	run -2 --separate-stderr sh-near -g -v docs -a 0.9 -k 3 -Z kept -R ./kept fp
	eq "$stderr" "sh-near: -R ./kept: a file of -Z"
	run -2 --separate-stderr sh-near -R fig.json fp
	eq "$stderr" "sh-near: -R: only with -g or -u"
	run -2 --separate-stderr sh-near -u -R fig.json fp
	eq "$stderr" "sh-near: -R: with -u, only with -v"
	run -2 --separate-stderr sh-near -gg -R fig.json fp
	eq "$stderr" "sh-near: -R: not with -gg: the figures are of -g's clusters"
	run -2 --separate-stderr sh-near -g -L 0.5 fp
	eq "$stderr" "sh-near: -L: only with -R"
	run -2 --separate-stderr sh-near -g -R fig.json -L 1.5 fp
	eq "$stderr" "sh-near: -L 1.5: number out of range"
}
