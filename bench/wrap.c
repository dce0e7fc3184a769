/*
 * wrap: put the article of an HTML page into the template of another
 * site, for bench/maintext.sh.
 *
 * usage: bench/wrap N <page.html >out.html
 *
 * The article is the page's main element: the first element with
 * role="main", else the first div whose class is one of DocBook's
 * divisions (chapter, section, sect1, appendix, preface, article,
 * part, reference, refentry, glossary, book), else the body.  N = 0
 * writes it alone in a bare page; 1, 2 and 3 in the templates of three
 * made-up sites (their header, navigation bar, breadcrumbs, sidebars of
 * links, share buttons, cookie notice and footer): one in HTML5 with
 * header, nav, main, aside and footer, one of divs classed as a
 * WordPress theme does, one an old table layout without a class.  A
 * page whose article holds more ideographs than ASCII letters gets the
 * Chinese version of each template.  Deterministic.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const head[2][4] = { {
	/* 0: bare */
	"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
	"<title>Article</title></head>\n<body>\n",
	/* 1: HTML5 */
	"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	"<title>OpenDocs Library - Guides</title>\n"
	"<link rel=\"stylesheet\" href=\"/static/site.css\">\n"
	"<script>window.dataLayer = window.dataLayer || [];</script>\n"
	"</head>\n<body>\n"
	"<div class=\"cookie-banner\" id=\"cookie-consent\"><p>We use cookies "
	"to make this site work and to understand how it is used. By "
	"continuing to browse, you agree to our use of cookies as described "
	"in our privacy policy.</p><button>Accept all</button> "
	"<a href=\"/privacy\">Learn more</a></div>\n"
	"<header class=\"site-header\"><a class=\"logo\" href=\"/\">OpenDocs "
	"Library</a>\n<form class=\"search\" action=\"/search\"><input "
	"name=\"q\" placeholder=\"Search the library\"><button>Search</button>"
	"</form></header>\n"
	"<nav class=\"main-nav\"><ul><li><a href=\"/\">Home</a></li>"
	"<li><a href=\"/guides/\">Guides</a></li><li><a href=\"/reference/\">"
	"Reference</a></li><li><a href=\"/blog/\">Blog</a></li><li><a "
	"href=\"/community/\">Community</a></li><li><a href=\"/donate/\">"
	"Donate</a></li></ul></nav>\n"
	"<div class=\"breadcrumb\"><a href=\"/\">Home</a> &raquo; <a "
	"href=\"/guides/\">Guides</a> &raquo; Current page</div>\n"
	"<main id=\"content\">\n",
	/* 2: WordPress-like divs */
	"<html><head><title>TechNotes | Articles</title>\n"
	"<meta name=\"viewport\" content=\"width=device-width\"></head>\n"
	"<body class=\"post-template-default single has-sidebar\">\n"
	"<div class=\"navbar navbar-default\"><div class=\"container\">"
	"<a class=\"navbar-brand\" href=\"/\">TechNotes</a>\n"
	"<ul class=\"nav navbar-nav\"><li><a href=\"/articles\">Articles</a>"
	"</li><li><a href=\"/tutorials\">Tutorials</a></li><li><a "
	"href=\"/news\">News</a></li><li><a href=\"/about\">About us</a></li>"
	"<li><a href=\"/contact\">Contact</a></li></ul></div></div>\n"
	"<div class=\"container\"><div class=\"row\">\n"
	"<div class=\"col-md-9\" id=\"primary\"><div class=\"entry-content\">\n",
	/* 3: tables */
	"<html><head><title>The Unix Archive</title></head>\n"
	"<body bgcolor=\"#ffffff\">\n<table width=\"100%\" border=\"0\">\n"
	"<tr><td colspan=\"2\"><font size=\"5\"><b>The Unix Archive</b>"
	"</font><br>Documentation for everyone since 1998</td></tr>\n"
	"<tr><td width=\"180\" valign=\"top\"><b>Sections</b><br>\n"
	"<a href=\"/\">Home</a><br><a href=\"/manuals/\">Manuals</a><br>"
	"<a href=\"/howto/\">HOWTOs</a><br><a href=\"/faq/\">FAQ</a><br>"
	"<a href=\"/mirrors/\">Mirrors</a><br><a href=\"/links/\">Links</a>"
	"<br><br>\n<b>Friends</b><br><a href=\"http://a.example/\">Linux "
	"Tips and Tricks</a><br><a href=\"http://b.example/\">The Shell "
	"Corner</a><br><a href=\"http://c.example/\">Free Software "
	"Directory</a><br><br>\n<a href=\"/guestbook\">Sign our guestbook!"
	"</a></td>\n<td valign=\"top\">\n",
}, {
	"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
	"<title>文章</title></head>\n<body>\n",
	"<!DOCTYPE html>\n<html lang=\"zh-CN\"><head><meta charset=\"utf-8\">\n"
	"<title>开源文档中心 - 指南</title>\n"
	"<script>var _hmt = _hmt || [];</script>\n</head>\n<body>\n"
	"<div class=\"cookie-banner\" id=\"cookie-consent\"><p>本网站使用 "
	"Cookie 来改善您的浏览体验，并了解网站的使用情况。继续浏览即表示您"
	"同意我们按照隐私政策使用 Cookie。</p><button>全部接受</button> "
	"<a href=\"/privacy\">了解更多</a></div>\n"
	"<header class=\"site-header\"><a class=\"logo\" href=\"/\">开源文档"
	"中心</a>\n<form class=\"search\" action=\"/search\"><input name=\"q\" "
	"placeholder=\"搜索文档\"><button>搜索</button></form></header>\n"
	"<nav class=\"main-nav\"><ul><li><a href=\"/\">首页</a></li>"
	"<li><a href=\"/guides/\">指南</a></li><li><a href=\"/ref/\">参考手册"
	"</a></li><li><a href=\"/blog/\">博客</a></li><li><a href=\"/bbs/\">"
	"社区论坛</a></li><li><a href=\"/donate/\">捐助我们</a></li></ul>"
	"</nav>\n<div class=\"breadcrumb\"><a href=\"/\">首页</a> &gt; <a "
	"href=\"/guides/\">指南</a> &gt; 正文</div>\n<main id=\"content\">\n",
	"<html><head><title>技术笔记 | 文章</title></head>\n"
	"<body class=\"post-template-default single has-sidebar\">\n"
	"<div class=\"navbar navbar-default\"><div class=\"container\">"
	"<a class=\"navbar-brand\" href=\"/\">技术笔记</a>\n"
	"<ul class=\"nav navbar-nav\"><li><a href=\"/articles\">文章</a></li>"
	"<li><a href=\"/tutorials\">教程</a></li><li><a href=\"/news\">新闻"
	"</a></li><li><a href=\"/about\">关于我们</a></li><li><a "
	"href=\"/contact\">联系方式</a></li></ul></div></div>\n"
	"<div class=\"container\"><div class=\"row\">\n"
	"<div class=\"col-md-9\" id=\"primary\"><div class=\"entry-content\">\n",
	"<html><head><title>自由软件资料库</title></head>\n"
	"<body bgcolor=\"#ffffff\">\n<table width=\"100%\" border=\"0\">\n"
	"<tr><td colspan=\"2\"><font size=\"5\"><b>自由软件资料库</b></font>"
	"<br>始于一九九八年的中文文档站</td></tr>\n"
	"<tr><td width=\"180\" valign=\"top\"><b>栏目</b><br>\n"
	"<a href=\"/\">首页</a><br><a href=\"/manuals/\">手册</a><br>"
	"<a href=\"/howto/\">入门指南</a><br><a href=\"/faq/\">常见问题</a>"
	"<br><a href=\"/mirrors/\">镜像站点</a><br><a href=\"/links/\">"
	"友情链接</a><br><br>\n<b>推荐网站</b><br><a href=\"http://a.example/\">"
	"Linux 技巧大全</a><br><a href=\"http://b.example/\">命令行之家</a>"
	"<br><a href=\"http://c.example/\">自由软件目录</a><br><br>\n"
	"<a href=\"/guestbook\">欢迎留言！</a></td>\n<td valign=\"top\">\n",
} };

static const char *const tail[2][4] = { {
	"\n</body></html>\n",
	"\n</main>\n"
	"<aside class=\"sidebar\"><h3>Popular guides</h3><ul><li><a "
	"href=\"/g/1\">Getting started with the command line</a></li><li><a "
	"href=\"/g/2\">Ten tips for faster builds</a></li><li><a "
	"href=\"/g/3\">Understanding file permissions</a></li><li><a "
	"href=\"/g/4\">A tour of the package manager</a></li></ul>\n"
	"<h3>Newsletter</h3><p>Get the best new guides in your inbox every "
	"month.</p><form><input name=\"email\"><button>Subscribe</button>"
	"</form></aside>\n"
	"<footer class=\"site-footer\"><p>&copy; 2024 OpenDocs Library. Each "
	"document is published under the license of its authors.</p><ul><li>"
	"<a href=\"/about\">About</a></li><li><a href=\"/contact\">Contact</a>"
	"</li><li><a href=\"/privacy\">Privacy</a></li><li><a href=\"/terms\">"
	"Terms of use</a></li></ul></footer>\n</body></html>\n",
	"\n</div>\n<div class=\"share-buttons\">Share this: <a href=\"#t\">"
	"Twitter</a> <a href=\"#f\">Facebook</a> <a href=\"#m\">Email</a>"
	"</div>\n<div class=\"related-posts\"><h4>You may also like</h4><ul>"
	"<li><a href=\"/p/1\">How to configure a web server in ten minutes</a>"
	"</li><li><a href=\"/p/2\">The best text editors of the year</a></li>"
	"<li><a href=\"/p/3\">Why you should learn regular expressions</a>"
	"</li></ul></div>\n</div>\n"
	"<div class=\"col-md-3 widget-area\" id=\"secondary\">\n"
	"<div class=\"widget\"><h4>About</h4><p>TechNotes collects useful "
	"documentation from around the web and keeps it in one place.</p>"
	"</div>\n<div class=\"widget\"><h4>Categories</h4><ul><li><a "
	"href=\"/c/linux\">Linux</a> (42)</li><li><a href=\"/c/db\">"
	"Databases</a> (17)</li><li><a href=\"/c/python\">Python</a> (23)"
	"</li><li><a href=\"/c/net\">Networking</a> (9)</li></ul></div>\n"
	"</div></div></div>\n"
	"<div id=\"footer\"><div class=\"container\"><p>Copyright 2023 "
	"TechNotes. All rights reserved. Powered by WordPress.</p><p><a "
	"href=\"/privacy\">Privacy policy</a> | <a href=\"/sitemap\">Sitemap"
	"</a> | <a href=\"/feed\">RSS</a></p></div></div>\n"
	"<div id=\"gdpr-notice\">This website uses cookies to ensure you get "
	"the best experience on our website. <a href=\"#ok\">Got it!</a>"
	"</div>\n</body></html>\n",
	"\n</td></tr>\n<tr><td colspan=\"2\"><hr><small>This page was last "
	"updated on 12 March 2022. Send your comments and corrections to the "
	"webmaster. Copyright &copy; 1998-2022 The Unix Archive.</small>"
	"</td></tr>\n</table>\n</body></html>\n",
}, {
	"\n</body></html>\n",
	"\n</main>\n<aside class=\"sidebar\"><h3>热门指南</h3><ul><li><a "
	"href=\"/g/1\">命令行入门</a></li><li><a href=\"/g/2\">加快编译的十个"
	"技巧</a></li><li><a href=\"/g/3\">理解文件权限</a></li><li><a "
	"href=\"/g/4\">软件包管理器漫游</a></li></ul>\n<h3>订阅</h3><p>每月"
	"把最好的新指南发到您的邮箱。</p><form><input name=\"email\"><button>"
	"订阅</button></form></aside>\n<footer class=\"site-footer\"><p>"
	"&copy; 2024 开源文档中心 版权所有 京ICP备12345678号</p><ul><li><a "
	"href=\"/about\">关于我们</a></li><li><a href=\"/contact\">联系我们"
	"</a></li><li><a href=\"/privacy\">隐私政策</a></li><li><a "
	"href=\"/terms\">使用条款</a></li></ul></footer>\n</body></html>\n",
	"\n</div>\n<div class=\"share-buttons\">分享到：<a href=\"#w\">微博</a> "
	"<a href=\"#x\">微信</a> <a href=\"#q\">QQ空间</a></div>\n"
	"<div class=\"related-posts\"><h4>猜你喜欢</h4><ul><li><a "
	"href=\"/p/1\">十分钟配置好网页服务器</a></li><li><a href=\"/p/2\">"
	"年度最佳文本编辑器</a></li><li><a href=\"/p/3\">为什么要学正则表达式"
	"</a></li></ul></div>\n</div>\n"
	"<div class=\"col-md-3 widget-area\" id=\"secondary\">\n"
	"<div class=\"widget\"><h4>关于本站</h4><p>技术笔记收集网上有用的"
	"文档，并把它们放在一个地方。</p></div>\n<div class=\"widget\"><h4>"
	"分类</h4><ul><li><a href=\"/c/linux\">Linux</a> (42)</li><li><a "
	"href=\"/c/db\">数据库</a> (17)</li><li><a href=\"/c/python\">Python"
	"</a> (23)</li><li><a href=\"/c/net\">网络</a> (9)</li></ul></div>\n"
	"</div></div></div>\n<div id=\"footer\"><div class=\"container\"><p>"
	"版权所有 2023 技术笔记。保留所有权利。</p><p><a href=\"/privacy\">"
	"隐私政策</a> | <a href=\"/sitemap\">网站地图</a> | <a href=\"/feed\">"
	"RSS</a></p></div></div>\n<div id=\"gdpr-notice\">本网站使用 Cookie "
	"以确保您获得最佳体验。<a href=\"#ok\">知道了</a></div>\n"
	"</body></html>\n",
	"\n</td></tr>\n<tr><td colspan=\"2\"><hr><small>本页最后更新于二〇二二"
	"年三月十二日。意见和更正请寄给站长。版权所有 &copy; 1998-2022 自由"
	"软件资料库。</small></td></tr>\n</table>\n</body></html>\n",
} };

static const char *const divisions[] = {
	"chapter", "section", "sect1", "appendix", "preface", "article",
	"part", "reference", "refentry", "glossary", "book"
};

/* Case-insensitive search for w in p[0..n); NULL when absent. */
static const char *
find(const char *p, size_t n, const char *w)
{
	size_t i, k = strlen(w);

	for (i = 0; i + k <= n; i++)
		if (strncasecmp(p + i, w, k) == 0)
			return p + i;
	return NULL;
}

/* The element that starts at the tag '<' at p, up to its end tag, by
 * counting the tags of its name (div, or the name at p). */
static size_t
element(const char *p, size_t n)
{
	char open[32] = "<", close[34] = "</";
	size_t i, k, depth = 0;

	for (k = 1; k < n && k < 20 && p[k] != ' ' && p[k] != '>'; k++)
		;
	memcpy(open + 1, p + 1, k - 1);
	open[k] = '\0';
	memcpy(close + 2, p + 1, k - 1);
	close[k + 1] = '\0';
	for (i = 0; i < n; i++) {
		if (strncasecmp(p + i, close, k + 1) == 0 && --depth == 0)
			return i + k + 2 <= n ? i + k + 2 : n;
		if (strncasecmp(p + i, open, k) == 0 && (p[i + k] == ' ' ||
		    p[i + k] == '>'))
			depth++;
	}
	return n;
}

/* The start of the tag around the attribute at a, when the tag is named
 * name (any name when NULL); else NULL. */
static const char *
tagof(const char *p, const char *a, const char *name)
{
	while (a > p && *a != '<' && *a != '>')
		a--;
	if (*a != '<' || (name != NULL && (strncasecmp(a + 1, name,
	    strlen(name)) != 0 || a[1 + strlen(name)] != ' ')))
		return NULL;
	return a;
}

/* The article of page p[0..n): *len bytes from the pointer returned. */
static const char *
article(const char *p, size_t n, size_t *len)
{
	const char *a = NULL, *t, *b, *e, *d;
	char attr[64];
	size_t i;
	int role = 0;

	if ((t = find(p, n, "role=\"main\"")) != NULL)
		role = (a = tagof(p, t, NULL)) != NULL;
	/* The first division of the page, the outermost. */
	for (i = 0; !role && i < sizeof(divisions) / sizeof(divisions[0]);
	    i++) {
		snprintf(attr, sizeof(attr), "class=\"%s\"", divisions[i]);
		for (t = p; (t = find(t, n - (size_t)(t - p), attr)) != NULL;
		    t++)
			if ((d = tagof(p, t, "div")) != NULL) {
				if (a == NULL || d < a)
					a = d;
				break;
			}
	}
	if (a != NULL) {
		*len = element(a, n - (size_t)(a - p));
		return a;
	}
	if ((b = find(p, n, "<body")) == NULL)
		b = p;
	else if ((b = memchr(b, '>', n - (size_t)(b - p))) == NULL)
		b = p + n;
	else
		b++;
	if ((e = find(b, n - (size_t)(b - p), "</body")) == NULL)
		e = p + n;
	*len = (size_t)(e - b);
	return b;
}

int
main(int argc, char **argv)
{
	static char buf[1 << 24];
	const char *a;
	size_t n, len, i, han = 0, latin = 0;
	int t, zh;

	if (argc != 2 || (t = atoi(argv[1])) < 0 || t > 3 ||
	    argv[1][1] != '\0') {
		fprintf(stderr, "usage: wrap N <page.html\n");
		return 2;
	}
	n = fread(buf, 1, sizeof(buf), stdin);
	a = article(buf, n, &len);
	for (i = 0; i < len; i++) {
		/* Lead bytes of U+4E00..U+9FFF. */
		han += (unsigned char)a[i] >= 0xE4 &&
		    (unsigned char)a[i] <= 0xE9;
		latin += (a[i] | 0x20) >= 'a' && (a[i] | 0x20) <= 'z';
	}
	/* Tag names and attributes are ASCII: count the text's letters
	 * roughly, a tag's letters against an ideograph's three bytes. */
	zh = han * 4 > latin;
	fputs(head[zh][t], stdout);
	fwrite(a, 1, len, stdout);
	fputs(tail[zh][t], stdout);
	return ferror(stdout) || fclose(stdout) != 0;
}
