#!/usr/bin/env bats
# -G: the main content of HTML pages.  An article wrapped in several site
# templates (navigation bar, header, footer, sidebar of links, cookie
# notice) gives the features of the bare article; an article is never
# lost; without -G nothing changes.  -G is the default (fingerprint
# version 3); $WHOLE reads whole pages with the features of version 3.

load helper

WHOLE='-2 -n 5x'

ART_EN='<h1>How the river was crossed</h1>
<p>When the old bridge fell into the water in the spring, the people of the village had to find another way to reach the market on the other side of the river.</p>
<p>It was slow.</p>
<p>They built a raft from the trunks of the trees that the storm had brought down, and it carried four of them at a time across the water until the summer came.</p>'
ART_ZH='<h1>过河</h1>
<p>当旧桥在春天落入水中的时候，村里的人们不得不寻找另一条路，到河的对岸去赶集。</p>
<p>他们用暴风雨吹倒的树干做了一只木筏，木筏一次可以载四个人，全村的人过河要花上大半个上午。</p>'
# A chapter of a manual: its title and table of contents (links), a box
# of references (class "sidebar"), and definitions after the text; its
# paragraphs long enough (200 characters) to be good text by themselves.
# (A page with no such block goes by the fallback, which knows no
# container.)
ART_DOC='<div class="chapter"><h1>Crossing the river</h1><div class="toc"><ul>
<li><a href="1.html">1. The old bridge</a></li><li><a href="2.html">2. The spring flood</a></li>
<li><a href="3.html">3. The market on the other side</a></li><li><a href="4.html">4. The storm</a></li>
<li><a href="5.html">5. The raft of tree trunks</a></li><li><a href="6.html">6. Four at a time</a></li>
<li><a href="7.html">7. The new bridge of stone</a></li><li><a href="8.html">8. The bridge today</a></li></ul></div>
<p>When the old bridge fell into the water in the spring, the people of the village had to find another way to reach the market on the other side of the river, and for a while they went by the ford below the mill.</p>
<div class="sidebar"><p>More on fords: <a href="http://example.org/fords">http://example.org/fords</a></p></div>
<p>They built a raft from the trunks of the trees that the storm had brought down, and it carried four of them at a time across the water until the summer came and the new bridge of stone was built.</p>
<dl><dt><a href="#raft">raft</a></dt><dd>Logs tied together.</dd></dl></div>'

# page T LANG: the article of LANG (en, zh; doc, the chapter) in template
# T (0 bare, 1-4).
page() {
	local art
	case $2 in
	zh) art=$ART_ZH ;;
	doc) art=$ART_DOC ;;
	*) art=$ART_EN ;;
	esac
	case $1 in
	0) printf '<html><body>\n%s\n</body></html>\n' "$art" ;;
	1) printf '%s\n' '<!DOCTYPE html><html><head><title>Site news</title><style>p{color:red}</style></head><body>' \
	    '<header class="site-header"><a href="/">The Daily Site</a></header>' \
	    '<nav><ul><li><a href="/">Home</a></li><li><a href="/world">World</a></li><li><a href="/sport">Sport</a></li></ul></nav>' \
	    "<main>$art</main>" \
	    '<footer><p>&copy; 2024 The Daily Site. All rights reserved.</p><a href="/privacy">Privacy</a></footer></body></html>' ;;
	2) printf '%s\n' '<html><body><div id="cookie-notice">We use cookies to give you the best experience on our website, and by going on you agree to our use of cookies.</div>' \
	    '<div class="navbar"><a href="/">Home</a> | <a href="/blog">Blog</a> | <a href="/contact">Contact us</a></div>' \
	    "<div class=\"content\">$art</div>" \
	    '<div class="sidebar"><h3>Popular</h3><ul><li><a href="/1">Ten ways to cross a river</a></li><li><a href="/2">The best bridges of the world</a></li></ul></div>' \
	    '</body></html>' ;;
	3) printf '%s\n' '<html><body><table><tr><td><a href="/">Home</a><br><a href="/m">Manuals</a><br><a href="/f">FAQ</a><br><a href="/l">Links</a></td>' \
	    "<td>$art</td></tr>" \
	    '<tr><td colspan="2">Copyright &copy; 1998 The Archive.</td></tr></table></body></html>' ;;
	4) printf '%s\n' '<html><head><title>站点</title></head><body><div class="breadcrumb"><a href="/">首页</a> &gt; <a href="/n">新闻</a></div>' \
	    '<ul class="menu"><li><a href="/">首页</a></li><li><a href="/about">关于我们</a></li><li><a href="/c">联系我们</a></li></ul>' \
	    "<article>$art</article>" \
	    '<div class="site-footer">版权所有 &copy; 2024 本站 <a href="/icp">京ICP备12345678号</a></div></body></html>' ;;
	esac
}

setup() {
	cd "$BATS_TEST_TMPDIR"
	for l in en zh doc; do
		for t in 0 1 2 3 4; do
			page "$t" "$l" >"$l$t.html"
		done
	done
}

@test "sh-tokenize -G: an English article under four templates gives the bare article's words" {
	want='the^1 river^1 was^1 crossed^1 when^1 old^1 bridge^1 fell^1 into^1 water^1 in^1 spring^1 people^1 of^1 village^1 had^1 to^1 find^1 another^1 way^1 reach^1 market^1 on^1 other^1 side^1 it^1 slow^1 they^1 built^1 a^1 raft^1 from^1 trunks^1 trees^1 that^1 storm^1 brought^1 down^1 and^1 carried^1 four^1 them^1 at^1 time^1 across^1 until^1 summer^1 came^1'
	for t in 0 1 2 3 4; do
		run -0 --separate-stderr sh-tokenize -F -G -w 1 "en$t.html"
		eq "$output" "en$t.html	how^1 $want"
		eq "$stderr" ""
	done
}

@test "sh-tokenize -G: a Chinese article under four templates gives the bare article's characters" {
	run -0 sh-tokenize -F -G -n 1 zh0.html
	eq "$output" 'zh0.html	过^1 河^1 当^1 旧^1 桥^1 在^1 春^1 天^1 落^1 入^1 水^1 中^1 的^1 时^1 候^1 村^1 里^1 人^1 们^1 不^1 得^1 寻^1 找^1 另^1 一^1 条^1 路^1 到^1 对^1 岸^1 去^1 赶^1 集^1 他^1 用^1 暴^1 风^1 雨^1 吹^1 倒^1 树^1 干^1 做^1 了^1 只^1 木^1 筏^1 次^1 可^1 以^1 载^1 四^1 个^1 全^1 要^1 花^1 上^1 大^1 半^1 午^1'
	want=${output#*	}
	for t in 1 2 3 4; do
		run -0 sh-tokenize -F -G -n 1 "zh$t.html"
		eq "$output" "zh$t.html	$want"
	done
}

@test "sh-tokenize -G: a chapter keeps its table of contents, its box of references and its definitions under three templates" {
	run -0 sh-tokenize -F -G -w 1 doc0.html
	eq "$output" "$(sh-tokenize -F $WHOLE -w 1 doc0.html)"
	want=${output#*	}
	for t in 1 2 3; do
		run -0 sh-tokenize -F -G -w 1 "doc$t.html"
		eq "$output" "doc$t.html	$want"
	done
}

@test "sh-fp -G: the templated copies have the bare article's fingerprint, which they do not have without -G" {
	for l in en zh; do
		run -0 sh -c "sh-fp -F -G $l?.html | cut -f 1 | sort -u | wc -l"
		eq "$output" 1
		run -0 sh -c "sh-fp -F $l?.html | cut -f 1 | sort -u | wc -l"
		eq "$output" 1
		run -0 sh -c "sh-fp -F $WHOLE $l?.html | cut -f 1 | sort -u | wc -l"
		eq "$output" 5
		# -G after -2 reads the main content again.
		run -0 sh -c "sh-fp -F $WHOLE -G $l?.html | cut -f 1 | sort -u | wc -l"
		eq "$output" 1
	done
}

@test "sh-dist -v -G: each copy at Jaccard 1 with the bare article" {
	for t in 1 2 3 4; do
		printf 'en0.html\ten%s.html\nzh0.html\tzh%s.html\n' "$t" "$t"
	done >pairs
	run -0 sh-dist -v . -F -G pairs
	eq "$(cut -f 3 <<<"$output" | sort -u)" 1.000000
	run -0 sh-dist -v . -F pairs
	eq "$(cut -f 3 <<<"$output" | sort -u)" 1.000000
	run -0 sh-dist -v . -F $WHOLE pairs
	eq "$(cut -f 3 <<<"$output" | grep -c -v '^1.000000$')" 8
}

@test "sh-fp -G: records that are not HTML are left as they are" {
	printf 'a\tplain text <with> no tags, about the river\n' >plain.tsv
	run -0 sh-fp -G plain.tsv
	eq "$output" "$(sh-fp $WHOLE plain.tsv)"
	run -0 sh-fp -G -X -F en1.html
	eq "$output" "$(sh-fp $WHOLE -X -F en1.html)"
}

@test "sh-tokenize -G: an article is never lost" {
	long=$(printf 'the river was high and the rain went on %.0s' 1 2 3 4 5 6 7 8 9 10)
	printf '<p>%s</p>' "$long" >long.html
	printf '<h1>Notes</h1><h2>One</h2><p>It rained.</p><h2>Two</h2><p>The river rose.</p>' >short.html
	printf 'The river rose in the night &amp; the bridge fell.' >notags.html
	printf '<ul><li>Bread</li><li>Milk and eggs</li><li><a href="/x">Tea</a></li></ul><ol><li>Walk the dog</li></ol>' >lists.html
	for f in long short notags lists; do
		run -0 sh-tokenize -F -G -w 1 "$f.html"
		eq "$output" "$(sh-tokenize -F $WHOLE -w 1 "$f.html")"
	done
	run -0 sh-tokenize -F -G -w 1 short.html
	eq "$output" 'short.html	notes^1 one^1 it^1 rained^1 two^1 the^1 river^1 rose^1'
}

@test "sh-tokenize -G: malformed and binary HTML never crash" {
	printf '<div class="nav"><a href="x">Home<p>unclosed <b>tags<td>everywhere\n<a href=' >bad.html
	run -0 sh-tokenize -F -G -w 1 bad.html
	eq "$output" 'bad.html	home^1 unclosed^1 tags^1 everywhere^1'
	printf '<p>\377\376\200 <a href="x' >bin.html
	run -0 sh-tokenize -F -G -w 1 bin.html
	awk 'BEGIN { for (i = 0; i < 200000; i++) printf "<p>a<a href=x>b</a></p><div class=menu>" }' >big.html
	run -0 sh -c 'sh-tokenize -F -G -w 1 big.html | wc -c'
}

@test "-G is a document option of sh-tokenize, sh-fp, sh-dist -v and -x, sh-near -v" {
	run -0 sh -c 'sh-tokenize -h 2>&1 | grep -c "^  -G "'
	eq "$output" 1
	run -0 sh -c 'sh-dist -x -G -F en0.html en1.html | grep -e ^distance -e jaccard'
	eq "$output" "distance	0
similarity	jaccard	1.000000"
	sh-fp -F -G en0.html en1.html >fps
	run -0 sh -c 'sh-near -k 0 fps | sh-near -v . -F -G -m - fps'
	run -2 --separate-stderr sh-near -G fps
	eq "$stderr" "sh-near: -G: only with -v"
}
