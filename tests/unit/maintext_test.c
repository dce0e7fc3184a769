/*
 * The main content of HTML pages (text/maintext.h): templates dropped,
 * articles kept, in English and Chinese; the text kept is that of
 * sh_html_text; odd input.
 */
#include <stdlib.h>
#include <string.h>

#include "text/html.h"
#include "text/maintext.h"
#include "tap.h"

#define PARA1 "<p>When the old bridge fell into the water in the spring, " \
	"the people of the village had to find another way to reach the " \
	"market on the other side of the river.</p>\n"
#define PARA2 "<p>They built a raft from the trunks of the trees that " \
	"the storm had brought down, and it carried four of them at a " \
	"time across the water until the summer.</p>\n"
#define TEXT1 " When the old bridge fell into the water in the spring, " \
	"the people of the village had to find another way to reach the " \
	"market on the other side of the river. "
#define TEXT2 " They built a raft from the trunks of the trees that " \
	"the storm had brought down, and it carried four of them at a " \
	"time across the water until the summer. "

/* TEXT1 TEXT2 as is() writes them. */
#define WORDS12 "When the old bridge fell into the water in the spring, " \
	"the people of the village had to find another way to reach the " \
	"market on the other side of the river. They built a raft from the " \
	"trunks of the trees that the storm had brought down, and it " \
	"carried four of them at a time across the water until the summer."
/* One paragraph over 200 characters: good by itself. */
#define LONG "<p>When the old bridge fell into the water in the spring, " \
	"the people of the village had to find another way to reach the " \
	"market on the other side of the river. They built a raft from the " \
	"trunks of the trees that the storm had brought down.</p>\n"
#define LONGTEXT "When the old bridge fell into the water in the spring, " \
	"the people of the village had to find another way to reach the " \
	"market on the other side of the river. They built a raft from the " \
	"trunks of the trees that the storm had brought down."
/* A chapter's title and table of contents, over 200 characters of
 * links. */
#define TOCITEM(n) "<li><a href=\"" #n ".html\">" #n ". The crossing " \
	"of the river</a></li>"
#define TOC "<h1>The river</h1><div class=\"toc\"><ul>" TOCITEM(1) \
	TOCITEM(2) TOCITEM(3) TOCITEM(4) TOCITEM(5) TOCITEM(6) TOCITEM(7) \
	TOCITEM(8) "</ul></div>\n"
#define TOCTEXT "The river 1. The crossing of the river 2. The crossing " \
	"of the river 3. The crossing of the river 4. The crossing of the " \
	"river 5. The crossing of the river 6. The crossing of the river 7. " \
	"The crossing of the river 8. The crossing of the river"
/* A list of definitions, linked, after the text. */
#define DEFS "<dl><dt><a href=\"b.html\">bridge</a></dt><dd>A way over." \
	"</dd></dl>\n"

#define ZH1 "<p>当旧桥在春天落入水中的时候，村里的人们不得不寻找另一条" \
	"路，到河的对岸去赶集。他们用暴风雨吹倒的树干做了一只木筏。</p>\n"
#define ZH2 "<p>木筏一次可以载四个人，全村的人过河要花上大半个上午。" \
	"到了夏天，他们又用石头建起了一座新桥，这座桥今天还在那里。</p>\n"

static struct sh_maintext *m;

/* The main text of page, as a string (static). */
static const char *
main_of(const char *page)
{
	static char buf[65536];
	size_t n = strlen(page), len;

	memcpy(buf, page, n);
	if (sh_maintext(m, buf, n, buf, &len) != 0)
		return "(error)";
	buf[len] = '\0';
	return buf;
}

/* The plain reduction of page. */
static const char *
plain_of(const char *page)
{
	static char buf[65536];
	size_t n = strlen(page);

	memcpy(buf, page, n);
	buf[sh_html_text(buf, n, buf)] = '\0';
	return buf;
}

/* Whether s, with runs of white space made one space and the ends
 * trimmed, is want. */
static int
is(const char *s, const char *want)
{
	static char buf[65536];
	size_t n = 0;

	while (*s == ' ' || *s == '\n')
		s++;
	for (; *s != '\0'; s++)
		if (*s != ' ' && *s != '\n')
			buf[n++] = *s;
		else if (s[1] != ' ' && s[1] != '\n' && s[1] != '\0')
			buf[n++] = ' ';
	buf[n] = '\0';
	if (strcmp(buf, want) != 0)
		printf("# got  \"%s\"\n# want \"%s\"\n", buf, want);
	return strcmp(buf, want) == 0;
}

int
main(void)
{
	static const char *const tpl[][2] = {
		{ "<html><head><title>Site</title><style>p{}</style></head>"
		  "<body><nav><ul><li><a href=/>Home</a></li><li><a href=/a>"
		  "About us</a></li></ul></nav><main>",
		  "</main><footer>&copy; 2024 Site. <a href=/p>Privacy</a>"
		  "</footer></body></html>" },
		{ "<body><div class=\"cookie-notice\">We use cookies to give "
		  "you the best experience on our website, and by going on "
		  "you agree to the use of cookies.</div><div id=\"topnav\">"
		  "<a href=/>Home</a> | <a href=/x>News</a></div>",
		  "<div class=\"sidebar\"><h3>Related</h3><ul><li><a href=/1>"
		  "Another story</a></li><li><a href=/2>One more story about "
		  "bridges</a></li></ul></div></body>" },
		{ "<table><tr><td><a href=/>Home</a><br><a href=/m>Manuals"
		  "</a><br><a href=/f>FAQ</a></td><td>",
		  "</td></tr><tr><td>Copyright &copy; 1998 The Archive."
		  "</td></tr></table>" },
	};
	static char page[65536];
	const char *bare = "<h1>The river</h1>" PARA1 PARA2;
	const char *want = "The river" TEXT1 TEXT2;
	char *big, *p;
	size_t i, n, len;

	if ((m = sh_maintext_new()) == NULL)
		return 1;
	ok(is(main_of(bare), "The river When the old bridge fell into the "
	    "water in the spring, the people of the village had to find "
	    "another way to reach the market on the other side of the "
	    "river. They built a raft from the trunks of the trees that the "
	    "storm had brought down, and it carried four of them at a time "
	    "across the water until the summer."), "a bare article is kept "
	    "whole");
	(void)want;
	for (i = 0; i < sizeof(tpl) / sizeof(tpl[0]); i++) {
		snprintf(page, sizeof(page), "%s%s%s", tpl[i][0], bare,
		    tpl[i][1]);
		ok(is(main_of(page), "The river When the old bridge fell "
		    "into the water in the spring, the people of the village "
		    "had to find another way to reach the market on the other "
		    "side of the river. They built a raft from the trunks of "
		    "the trees that the storm had brought down, and it carried "
		    "four of them at a time across the water until the "
		    "summer."), "template %zu: only the article", i + 1);
		snprintf(page, sizeof(page), "%s<h1>河</h1>" ZH1 ZH2 "%s",
		    tpl[i][0], tpl[i][1]);
		ok(is(main_of(page), "河 当旧桥在春天落入水中的时候，村里的人们"
		    "不得不寻找另一条路，到河的对岸去赶集。他们用暴风雨吹倒的树"
		    "干做了一只木筏。 木筏一次可以载四个人，全村的人过河要花上大"
		    "半个上午。到了夏天，他们又用石头建起了一座新桥，这座桥今天"
		    "还在那里。"), "template %zu, Chinese: only the article",
		    i + 1);
	}

	/* A link without a letter or digit (a permalink) is no link: the
	 * heading is kept before the text; one with words is a link. */
	ok(is(main_of("<h1>The river<a href=\"#top\">\xc2\xb6</a></h1>"
	    PARA1 PARA2), "The river \xc2\xb6 " WORDS12),
	    "a heading with a permalink is kept");
	ok(is(main_of("<h1><a href=\"/\">The river</a></h1>" PARA1 PARA2),
	    WORDS12), "a heading that is a link is not");

	/* The container of the good text is kept whole: the chapter's
	 * title, its table of contents and its definitions, linked; the
	 * template around it is not.  Without the container, jusText's
	 * rules alone drop them. */
	snprintf(page, sizeof(page), "%s<div class=\"chapter\">" TOC LONG
	    DEFS "</div>%s", tpl[1][0], tpl[1][1]);
	ok(is(main_of(page), TOCTEXT " " LONGTEXT " bridge A way over."),
	    "an article's container: its table of contents and definitions");
	snprintf(page, sizeof(page), "%s" TOC LONG DEFS "%s", tpl[1][0],
	    tpl[1][1]);
	ok(is(main_of(page), LONGTEXT), "no container: the text alone");
	snprintf(page, sizeof(page), "%s<div class=\"chapter\">" TOC LONG
	    DEFS "</div>%s", tpl[2][0], tpl[2][1]);
	ok(is(main_of(page), TOCTEXT " " LONGTEXT " bridge A way over."),
	    "an article's container in a table layout");
	/* Cells left open: a cell ends the one before it. */
	ok(is(main_of("<table><tr><td><a href=/>Home</a><br><a href=/m>"
	    "Manuals</a><br><a href=/f>FAQ</a><td><div>" TOC LONG DEFS
	    "</div><tr><td>Copyright &copy; 1998 The Archive.</table>"),
	    TOCTEXT " " LONGTEXT " bridge A way over."),
	    "cells left open");

	/* In the article's container, a box that says only "sidebar" is
	 * the article's, links and all; a share bar is not. */
	snprintf(page, sizeof(page), "%s<div class=\"section\">" LONG
	    "<div class=\"sidebar\"><p>Tip: see <a href=\"http://x.org/\">"
	    "the bridges of the world</a></p></div>" LONG
	    "<div class=\"sidebar\"><p><a href=\"http://x.org/r\">"
	    "http://x.org/r</a></p></div><div class=\"share\"><a href=/t>"
	    "Twitter</a> <a href=/f>Facebook</a></div></div>%s", tpl[0][0],
	    tpl[0][1]);
	ok(is(main_of(page), LONGTEXT " Tip: see the bridges of the world "
	    LONGTEXT " http://x.org/r"), "a sidebar in the article is kept");
	snprintf(page, sizeof(page), "%s<div class=\"section\">" LONG
	    "</div><div class=\"sidebar\"><p><a href=\"/r\">Rafts</a> and "
	    "<a href=\"/b\">bridges</a></p></div>%s", tpl[0][0], tpl[0][1]);
	ok(is(main_of(page), LONGTEXT), "a sidebar beside it is not");

	/* The kept text is a run of the plain text's blocks, byte for
	 * byte (spaces included). */
	snprintf(page, sizeof(page), "%s%s%s", tpl[0][0], bare, tpl[0][1]);
	ok(strstr(plain_of(page), main_of(page)) != NULL ||
	    (printf("# [%s]\n# [%s]\n", plain_of(page), main_of(page)), 0),
	    "the kept text is the plain reduction's, byte for byte");

	/* An article is never lost. */
	ok(is(main_of("<p>Short.</p><p>Also short.</p><h2>Head</h2>"),
	    "Short. Also short. Head"), "only short blocks: all kept");
	ok(is(main_of("<ul><li><a href=/a>one</a></li><li><a href=/b>two"
	    "</a></li></ul>"), "one two"), "only links: all kept");
	ok(is(main_of("no tags at all, just text"), "no tags at all, just "
	    "text"), "no tags");
	ok(is(main_of(""), ""), "empty page");
	ok(is(main_of("<nav><a href=/>Home</a></nav>"), "Home"),
	    "only boilerplate: all kept");
	ok(is(main_of("<p>Caf&eacute; &amp; cr&egrave;me, &#x4e2d;</p>"),
	    "Café & crème, 中"), "entities decoded as sh_html_text does");

	/* Malformed: unclosed tags and links, stray bytes, a tag that
	 * never ends. */
	ok(is(main_of("<div class=nav><a href=/x>Home" PARA1),
	    "Home When the old bridge fell into the water in the spring, "
	    "the people of the village had to find another way to reach the "
	    "market on the other side of the river."),
	    "an unclosed boilerplate element and link: the page kept");
	ok(strlen(main_of("<p>\xff\xfe\x80 <a href=\"x")) <= 20,
	    "binary bytes and a tag without end");

	/* A huge page of tiny blocks: linear, and one block per run of
	 * blocks past the limit. */
	n = 6u << 20;
	if ((big = malloc(n)) == NULL)
		return 1;
	for (p = big; p + 8 <= big + n; p += 8)
		memcpy(p, "<p>ab</p", 8);
	for (; p < big + n; p++)
		*p = ' ';
	ok(sh_maintext(m, big, n, big, &len) == 0 && len <= n,
	    "a page of 786432 blocks");
	free(big);
	sh_maintext_free(m);
	sh_maintext_free(NULL);
	return tap_done();
}
