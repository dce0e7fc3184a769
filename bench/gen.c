/*
 * gen: write N synthetic documents "ID<TAB>TEXT" for the benchmarks.
 * KIND is en (English words), zh (simplified Chinese characters) or mixed
 * (sentences alternating between the two); TEXT is about 2000 bytes of
 * UTF-8 with no TAB or newline (-b: about BYTES bytes, drawn from 3/4 to
 * 5/4 of it).  With -c N, every Nth document is followed by its copy
 * "ID-copy" with the word at the middle of its text replaced by "zzzN"
 * (the document's number): a planted near-duplicate.  The output
 * depends only on the options, KIND and N: the PRNG is our own and all
 * arithmetic is integer, so every machine writes the same bytes, and N
 * documents are a prefix of N+1.
 */

#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))

/* TEXT length is drawn uniformly from [3/4, 5/4] of -b, by default
 * [1500, 2500]. */
static uint64_t text_bytes = 2000;

/*
 * Rank k of a vocabulary gets weight ZIPF_K / (k + ZIPF_Q): Zipf with a
 * Mandelbrot offset so the head is not as heavy as pure 1/k.  The sum
 * stays far below 2^32, which uniform() needs.
 */
#define ZIPF_K		(1UL << 20)
#define ZIPF_Q		2

enum kind { EN, ZH, MIXED };

struct rng {
	uint64_t s[4];
};

struct doc {
	size_t len;		/* bytes of TEXT written so far */
	size_t target;		/* sentences stop once len reaches this */
};

/* -c: the text of the document, kept for its copy. */
static char *copybuf;
static size_t copylen, copycap;

/* English words, most frequent first. */
static const char *const en_words[] = {
	"the", "of", "and", "to", "a", "in", "is", "it", "you", "that", "he",
	"was", "for", "on", "are", "with", "as", "I", "his", "they", "be",
	"at", "one", "have", "this", "from", "or", "had", "by", "hot",
	"word", "but", "what", "some", "we", "can", "out", "other", "were",
	"all", "there", "when", "up", "use", "your", "how", "said", "an",
	"each", "she", "which", "do", "their", "time", "if", "will", "way",
	"about", "many", "then", "them", "write", "would", "like", "so",
	"these", "her", "long", "make", "thing", "see", "him", "two", "has",
	"look", "more", "day", "could", "go", "come", "did", "number",
	"sound", "no", "most", "people", "my", "over", "know", "water",
	"than", "call", "first", "who", "may", "down", "side", "been", "now",
	"find", "any", "new", "work", "part", "take", "get", "place", "made",
	"live", "where", "after", "back", "little", "only", "round", "man",
	"year", "came", "show", "every", "good", "me", "give", "our",
	"under", "name", "very", "through", "just", "form", "sentence",
	"great", "think", "say", "help", "low", "line", "differ", "turn",
	"cause", "much", "mean", "before", "move", "right", "boy", "old",
	"too", "same", "tell", "does", "set", "three", "want", "air", "well",
	"also", "play", "small", "end", "put", "home", "read", "hand",
	"port", "large", "spell", "add", "even", "land", "here", "must",
	"big", "high", "such", "follow", "act", "why", "ask", "men",
	"change", "went", "light", "kind", "off", "need", "house", "picture",
	"try", "us", "again", "animal", "point", "mother", "world", "near",
	"build", "self", "earth", "father", "head", "stand", "own", "page",
	"should", "country", "found", "answer", "school", "grow", "study",
	"still", "learn", "plant", "cover", "food", "sun", "four", "between",
	"state", "keep", "eye", "never", "last", "let", "thought", "city",
	"tree", "cross", "farm", "hard", "start", "might", "story", "saw",
	"far", "sea", "draw", "left", "late", "run", "don't", "while",
	"press", "close", "night", "real", "life", "few", "north", "open",
	"seem", "together", "next", "white", "children", "begin", "got",
	"walk", "example", "ease", "paper", "group", "always", "music",
	"those", "both", "mark", "often", "letter", "until", "mile", "river",
	"car", "feet", "care", "second", "book", "carry", "took", "science",
	"eat", "room", "friend", "began", "idea", "fish", "mountain", "stop",
	"once", "base", "hear", "horse", "cut", "sure", "watch", "color",
	"face", "wood", "main", "enough", "plain", "girl", "usual", "young",
	"ready", "above", "ever", "red", "list", "though", "feel", "talk",
	"bird", "soon", "body", "dog", "family", "direct", "pose", "leave",
	"song", "measure", "door", "product", "black", "short", "numeral",
	"class", "wind", "question", "happen", "complete", "ship", "area",
	"half", "rock", "order", "fire", "south", "problem", "piece", "told",
	"knew", "pass", "since", "top", "whole", "king", "space", "heard",
	"best", "hour", "better", "true", "during", "hundred", "five",
	"remember", "step", "early", "hold", "west", "ground", "interest",
	"reach", "fast", "verb", "sing", "listen", "six", "table", "travel",
	"less", "morning", "ten", "simple", "several", "vowel", "toward",
	"war", "lay", "against", "pattern", "slow", "center", "love",
	"person", "money", "serve", "appear", "road", "map", "rain", "rule",
	"govern", "pull", "cold", "notice", "voice", "unit", "power", "town",
	"fine", "certain", "fly", "fall", "lead", "cry", "dark", "machine",
	"note", "wait", "plan", "figure", "star", "box", "noun", "field",
	"rest", "correct", "able", "pound", "done", "beauty", "drive",
	"stood", "contain", "front", "teach", "week", "final", "gave",
	"green", "oh", "quick", "develop", "ocean", "warm", "free", "minute",
	"strong", "special", "mind", "behind", "clear", "tail", "produce",
	"fact", "street", "inch", "multiply", "nothing", "course", "stay",
	"wheel", "full", "force", "blue", "object", "decide", "surface",
	"deep", "moon", "island", "foot", "system", "busy", "test", "record",
	"boat", "common", "gold", "possible", "plane", "stead", "dry",
	"wonder", "laugh", "thousand", "ago", "ran", "check", "game",
	"shape", "equate", "miss", "brought", "heat", "snow", "tire",
	"bring", "yes", "distant", "fill", "east", "paint", "language",
	"among", "grand", "ball", "yet", "wave", "drop", "heart", "am",
	"present", "heavy", "dance", "engine", "position", "arm", "wide",
	"sail", "material", "size", "vary", "settle", "speak", "weight",
	"general", "ice", "matter", "circle", "pair", "include", "divide",
	"syllable", "felt", "perhaps", "pick", "sudden", "count", "square",
	"reason", "length", "represent", "art", "subject", "region",
	"energy", "hunt", "probable", "bed", "brother", "egg", "ride",
	"cell", "believe", "fraction", "forest", "sit", "race", "window",
	"store", "summer", "train", "sleep", "prove", "lone", "leg",
	"exercise", "wall", "catch", "mount", "wish", "sky", "board", "joy",
	"winter", "sat", "written", "wild", "instrument", "kept", "glass",
	"grass", "cow", "job", "edge", "sign", "visit", "past", "soft",
	"fun", "bright", "gas", "weather", "month", "million", "bear",
	"finish", "happy", "hope", "flower", "clothe", "strange", "gone",
	"jump", "baby", "eight", "village", "meet", "root", "buy", "raise",
	"solve", "metal", "whether", "push", "seven", "paragraph", "third",
	"shall", "held", "hair", "describe", "cook", "floor", "either",
	"result", "burn", "hill", "safe", "cat", "century", "consider",
	"type", "law", "bit", "coast", "copy", "phrase", "silent", "tall",
	"sand", "soil", "roll", "temperature", "finger", "industry", "value",
	"fight", "lie", "beat", "excite", "natural", "view", "sense", "ear",
	"else", "quite", "broke", "case", "middle", "kill", "son", "lake",
	"moment", "scale", "loud", "spring", "observe", "child", "straight",
	"consonant", "nation", "dictionary", "milk", "speed", "method",
	"organ", "pay", "age", "section", "dress", "cloud", "surprise",
	"quiet", "stone", "tiny", "climb", "cool", "design", "poor", "lot",
	"experiment", "bottom", "key", "iron", "single", "stick", "flat",
	"twenty", "skin", "smile", "crease", "hole", "trade", "melody",
	"trip", "office", "receive", "row", "mouth", "exact", "symbol",
	"die", "least", "trouble", "shout", "except", "wrote", "seed",
	"tone", "join", "suggest", "clean", "break", "lady", "yard", "rise",
	"bad", "blow", "oil", "blood", "touch", "grew", "cent", "mix",
	"team", "wire", "cost", "lost", "brown", "wear", "garden", "equal",
	"sent", "choose", "fell", "fit", "flow", "fair", "bank", "collect",
	"save", "control", "decimal", "gentle", "woman", "captain",
	"practice", "separate", "difficult", "doctor", "please", "protect",
	"noon", "whose", "locate", "ring", "character", "insect", "caught",
	"period", "indicate", "radio", "spoke", "atom", "human", "history",
	"effect", "electric", "expect", "crop", "modern", "element", "hit",
	"student", "corner", "party", "supply", "bone", "rail", "imagine",
	"provide", "agree", "thus", "capital", "won't", "chair", "danger",
	"fruit", "rich", "thick", "soldier", "process", "operate", "guess",
	"necessary", "sharp", "wing", "create", "neighbor", "wash", "bat",
	"rather", "crowd", "corn", "compare", "poem", "string", "bell",
	"depend", "meat", "rub", "tube", "famous", "dollar", "stream",
	"fear", "sight", "thin", "triangle", "planet", "hurry", "chief",
	"colony", "clock", "mine", "tie", "enter", "major", "fresh",
	"search", "send", "yellow", "gun", "allow", "print", "dead", "spot",
	"desert", "suit", "current", "lift", "rose", "continue", "block",
	"chart", "hat", "sell", "success", "company", "subtract", "event",
	"particular", "deal", "swim", "term", "opposite", "wife", "shoe",
	"shoulder", "spread", "arrange", "camp", "invent", "cotton", "born",
	"determine", "quart", "nine", "truck", "noise", "level", "chance",
	"gather", "shop", "stretch", "throw", "shine", "property", "column",
	"molecule", "select", "wrong", "gray", "repeat", "require", "broad",
	"prepare", "salt", "nose", "plural", "anger", "claim", "continent",
	"oxygen", "sugar", "death", "pretty", "skill", "women", "season",
	"solution", "magnet", "silver", "thank", "branch", "match", "suffix",
	"especially", "fig", "afraid", "huge", "sister", "steel", "discuss",
	"forward", "similar", "guide", "experience", "score", "apple",
	"bought", "led", "pitch", "coat", "mass", "card", "band", "rope",
	"slip", "win", "dream", "evening", "condition", "feed", "tool",
	"total", "basic", "smell", "valley", "nor", "double", "seat",
	"arrive", "master", "track", "parent", "shore", "division", "sheet",
	"substance", "favor", "connect", "post", "spend", "chord", "fat",
	"glad", "original", "share", "station", "dad", "bread", "charge",
	"proper", "bar", "offer", "segment", "slave", "duck", "instant",
	"market", "degree", "populate", "chick", "dear", "enemy", "reply",
	"drink", "occur", "support", "speech", "nature", "range", "steam",
	"motion", "path", "liquid", "log", "meant", "quotient", "teeth",
	"shell", "neck",
};

/* Simplified Chinese characters, most frequent first, 3 bytes each. */
static const char zh_chars[] =
	"的一是不了在人有我他这个们中来上大为和国"
	"地到以说时要就出会可也你对生能而子那得于"
	"着下自之年过发后作里用道行所然家种事成方"
	"多经么去法学如都同现当没动面起看定天分还"
	"进好小部其些主样理心她本前开但因只从想实"
	"日军者意无力它与长把机十民第公此已工使情"
	"明性知全三又关点正业外将两高间由问很最重"
	"并物手应战向头文体政美相见被利什二等产或"
	"新己制身果加西斯月话合回特代内信表化老给"
	"世位次度门任常先海通教儿原东声提立及比员"
	"解水名真论处走义各入几口认条平系气题活尔"
	"更别打女变四神总何电数安少报才结反受目太"
	"量再感建务做接必场件计管期市直德资命山金"
	"指克许统区保至队形社便空决治展马科司五基"
	"眼书非则听白却界达光放强即像难且权思王象"
	"完设式色路记南品住告类求据程北边死张该交"
	"规万取拉格望觉术领共确传师观清今切院让识"
	"候带导争运笑飞风步改收根干造言联持组每济"
	"车亲极林服快办议往元英士证近失转夫令准布"
	"始怎呢存未远叫台单影具罗字爱击流备兵连调"
	"深商算质团集百需价花党华城石级整府离况亚"
	"请技际约示复病息究线似官火断精满支视消越"
	"器容照须九增研写称企八功吗包片史委乎查轻"
	"易早曾除农找装广显吧阿李标谈吃图念六引历"
	"首医局突专费号尽另周较注语仅考落青随选列"
	"武红响虽推势参希古众构房半节土投某案黑维"
	"革划敌致陈律足态护七兴派孩验责营星够章音"
	"跟志底站严巴例防族供效续施留讲型料终答紧"
	"黄绝奇察母京段依批群项故按河米围江织害斗"
	"双境客纪采举杀攻父苏密低朝友诉止细愿千值"
	"仍男钱破网热助倒育属坐帝限船脸职速刻乐否"
	"刚威毛状率甚独球般普怕弹校苦创假久错承印"
	"晚兰试股拿脑预谁益阳若哪微尼继送急血惊伤"
	"素药适波夜省初喜卫源食险待述陆习置居劳财"
	"环排福纳欢雷警获模充负云停木游龙树疑层冷"
	"洲冲射略范竟句室异激汉村哈策演简卡罪判担"
	"州静退既衣您宗积余痛检差富灵协角占配征修"
	"皮挥胜降阶审沉坚善妈刘读啊超免压银买皇养"
	"伊怀执副乱抗犯追帮宣佛岁航优怪香著田铁控"
	"税左右份穿艺背阵草脚概恶块顿敢守酒岛托央"
	"户烈洋哥索胡款靠评版宝座释景顾弟登货互付"
	"伯慢欧换闻危忙核暗姐介坏讨丽良序升监临亮"
	"露永呼味野架域沙掉括舰鱼杂误湾吉减编楚肯"
	"测败屋跑梦散温困剑渐封救贵枪缺楼县尚毫移"
	"娘朋画班智亦耳恩短掌恐遗固席松秘谢鲁遇康"
	"虑幸均销钟诗藏赶剧票损忽巨炮旧端探湖录叶"
	"春乡附吸予礼港雨呀板庭妇归睛饭额含顺输摇"
	"招婚脱补谓督毒油疗旅泽材灭逐莫笔亡鲜词圣"
	"择寻厂睡博勒烟授诺伦岸奥唐卖俄炸载洛健堂"
	"旁宫喝借君禁阴园谋宋避抓荣姑孙逃牙束跳顶";

#define ZH_N	((sizeof(zh_chars) - 1) / 3)

/* Latin words as they turn up in Chinese web text. */
static const char *const zh_latin[] = {
	"AI", "App", "APP", "iPhone", "CEO", "GDP", "Wi-Fi", "USB", "PDF",
	"Python", "Linux", "Android", "VIP", "NBA", "DIY", "PPT", "vlog",
	"bug", "OK", "KTV", "5G", "GPS", "MBA", "IT", "PK", "QQ", "CPU",
	"GitHub", "Excel", "Windows", "HTML", "iPad", "SUV", "LED", "ETF",
	"IPO", "B2B", "O2O", "Logo", "Word"
};

/* After a number in Chinese text, often a measure word or unit. */
static const char *const zh_units[] = {
	"年", "月", "日", "元", "个", "%", "万", "次", "人", "岁", "号"
};

static uint32_t en_cum[NELEM(en_words)];
static uint32_t zh_cum[ZH_N];

/* splitmix64 (Steele, Lea, Flood 2014), used only to seed. */
static uint64_t
splitmix64(uint64_t *x)
{
	uint64_t z;

	z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t
rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/* xoshiro256** 1.0 (Blackman, Vigna 2018). */
static uint64_t
rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t v, t;

	v = rotl(s[1] * 5, 7) * 9;
	t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return v;
}

static void
rng_seed(struct rng *r, uint64_t seed)
{
	int i;

	for (i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

/* Uniform in [0, n) for 0 < n <= 2^32, by multiply and shift. */
static uint32_t
uniform(struct rng *r, uint32_t n)
{
	return (uint32_t)(((rng_next(r) >> 32) * n) >> 32);
}

static void
zipf_init(uint32_t *cum, size_t n)
{
	uint32_t sum = 0;
	size_t k;

	for (k = 0; k < n; k++) {
		sum += (uint32_t)(ZIPF_K / (k + ZIPF_Q));
		cum[k] = sum;
	}
}

/* Rank drawn from the cumulative weights cum[0..n-1]. */
static size_t
zipf_draw(struct rng *r, const uint32_t *cum, size_t n)
{
	uint32_t x;
	size_t lo = 0, hi = n - 1, mid;

	x = uniform(r, cum[n - 1]);
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (cum[mid] > x)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

static void
put(struct doc *d, const char *p, size_t n)
{
	fwrite(p, 1, n, stdout);
	d->len += n;
	if (copybuf == NULL)
		return;
	if (copylen + n > copycap) {
		while (copylen + n > copycap)
			copycap *= 2;
		if ((copybuf = realloc(copybuf, copycap)) == NULL) {
			fprintf(stderr, "gen: out of memory\n");
			exit(2);
		}
	}
	memcpy(copybuf + copylen, p, n);
	copylen += n;
}

/* -c: the copy of document i, its middle word replaced. */
static void
put_copy(const char *name, uint64_t i)
{
	size_t a, b;

	for (a = copylen / 2; a > 0 && copybuf[a - 1] != ' '; a--)
		;
	for (b = copylen / 2; b < copylen && copybuf[b] != ' '; b++)
		;
	printf("%s-%llu-copy\t%.*szzz%llu%.*s\n", name,
	    (unsigned long long)i, (int)a, copybuf, (unsigned long long)i,
	    (int)(copylen - b), copybuf + b);
}

static void
puts_doc(struct doc *d, const char *s)
{
	put(d, s, strlen(s));
}

/* A number as English prose has them: year, count, decimal, percent. */
static void
number_en(struct rng *r, struct doc *d)
{
	char buf[32];
	uint32_t a;
	int n;

	/* One draw per statement: argument order is unspecified in C. */
	switch (uniform(r, 4)) {
	case 0:
		n = snprintf(buf, sizeof(buf), "%u", 1900 + uniform(r, 130));
		break;
	case 1:
		n = snprintf(buf, sizeof(buf), "%u", 1 + uniform(r, 999));
		break;
	case 2:
		a = uniform(r, 100);
		n = snprintf(buf, sizeof(buf), "%u.%u", a, uniform(r, 10));
		break;
	default:
		n = snprintf(buf, sizeof(buf), "%u%%", 1 + uniform(r, 99));
		break;
	}
	put(d, buf, (size_t)n);
}

static void
sentence_en(struct rng *r, struct doc *d)
{
	const char *w;
	char c;
	size_t i, n;

	n = 4 + uniform(r, 18);
	for (i = 0; i < n && d->len < d->target; i++) {
		if (i > 0)
			put(d, " ", 1);
		if (uniform(r, 40) == 0) {
			number_en(r, d);
		} else {
			w = en_words[zipf_draw(r, en_cum, NELEM(en_words))];
			if (i == 0 && *w >= 'a' && *w <= 'z') {
				/* ASCII only: the C locale plays no part. */
				c = (char)(*w - 'a' + 'A');
				put(d, &c, 1);
				w++;
			}
			puts_doc(d, w);
		}
		if (i + 1 < n && d->len < d->target && uniform(r, 12) == 0)
			put(d, ",", 1);
	}
	put(d, uniform(r, 25) == 0 ? "?" : ".", 1);
}

static void
number_zh(struct rng *r, struct doc *d)
{
	char buf[16];
	int n;

	if (uniform(r, 3) == 0)
		n = snprintf(buf, sizeof(buf), "%u", 1990 + uniform(r, 36));
	else
		n = snprintf(buf, sizeof(buf), "%u", 1 + uniform(r, 500));
	put(d, buf, (size_t)n);
	if (uniform(r, 3) != 0)
		puts_doc(d, zh_units[uniform(r, NELEM(zh_units))]);
}

static void
latin_zh(struct rng *r, struct doc *d)
{
	int spaced;

	/* Some writers set Latin words off with spaces, most do not. */
	spaced = uniform(r, 3) == 0;
	if (spaced)
		put(d, " ", 1);
	puts_doc(d, zh_latin[uniform(r, NELEM(zh_latin))]);
	if (spaced)
		put(d, " ", 1);
}

static const char *
clause_punct(struct rng *r)
{
	uint32_t u;

	u = uniform(r, 16);
	if (u < 12)
		return "，";
	if (u < 14)
		return "、";
	return u == 14 ? "；" : "：";
}

static void
sentence_zh(struct rng *r, struct doc *d)
{
	size_t c, i, nc, n;
	uint32_t u;

	nc = 1 + uniform(r, 4);
	for (c = 0; c < nc && d->len < d->target; c++) {
		if (c > 0)
			puts_doc(d, clause_punct(r));
		n = 4 + uniform(r, 12);
		for (i = 0; i < n && d->len < d->target; i++) {
			u = uniform(r, 120);
			if (u == 0)
				number_zh(r, d);
			else if (u == 1)
				latin_zh(r, d);
			else
				put(d, zh_chars +
				    3 * zipf_draw(r, zh_cum, ZH_N), 3);
		}
	}
	u = uniform(r, 20);
	puts_doc(d, u == 0 ? "！" : u == 1 ? "？" : "。");
}

static void
text(struct rng *r, enum kind kind)
{
	struct doc d;
	int zh;

	d.len = 0;
	d.target = text_bytes * 3 / 4 +
	    uniform(r, (uint32_t)(text_bytes / 2 + 1));
	zh = kind == ZH || (kind == MIXED && uniform(r, 2) == 0);
	for (;;) {
		if (zh)
			sentence_zh(r, &d);
		else
			sentence_en(r, &d);
		if (d.len >= d.target)
			break;
		/* Chinese sets no space after its full stop. */
		if (!zh)
			put(&d, " ", 1);
		if (kind == MIXED)
			zh = !zh;
	}
}

static void
usage(void)
{
	fputs("usage: gen [-b bytes] [-c every] [-s seed] en|zh|mixed count\n",
	    stderr);
	exit(2);
}

/* Decimal digits only, no sign, no overflow; -1 on anything else. */
static int
parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	if (errno != 0 || *end != '\0')
		return -1;
	return 0;
}

int
main(int argc, char *argv[])
{
	static const char *const names[] = { "en", "zh", "mixed" };
	struct rng r;
	uint64_t seed = 1, every = 0, i, n;
	size_t k;
	int ch;

	while ((ch = getopt(argc, argv, "b:c:s:")) != -1) {
		switch (ch) {
		case 'b':
			if (parse_u64(optarg, &text_bytes) == -1 ||
			    text_bytes < 4 || text_bytes > 1 << 24) {
				fprintf(stderr, "gen: bad bytes: %s\n", optarg);
				exit(2);
			}
			break;
		case 'c':
			if (parse_u64(optarg, &every) == -1 || every == 0) {
				fprintf(stderr, "gen: bad every: %s\n", optarg);
				exit(2);
			}
			break;
		case 's':
			if (parse_u64(optarg, &seed) == -1) {
				fprintf(stderr, "gen: bad seed: %s\n", optarg);
				exit(2);
			}
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 2)
		usage();
	for (k = 0; k < NELEM(names); k++)
		if (strcmp(argv[0], names[k]) == 0)
			break;
	if (k == NELEM(names))
		usage();
	if (parse_u64(argv[1], &n) == -1) {
		fprintf(stderr, "gen: bad count: %s\n", argv[1]);
		exit(2);
	}

	zipf_init(en_cum, NELEM(en_cum));
	zipf_init(zh_cum, NELEM(zh_cum));
	/* Each kind gets its own stream for a given seed. */
	rng_seed(&r, seed ^ ((uint64_t)k << 56));
	if (every != 0 && (copybuf = malloc(copycap = 4096)) == NULL) {
		fprintf(stderr, "gen: out of memory\n");
		exit(2);
	}
	for (i = 1; i <= n; i++) {
		printf("%s-%llu\t", names[k], (unsigned long long)i);
		copylen = 0;
		text(&r, (enum kind)k);
		putchar('\n');
		if (every != 0 && i % every == 0)
			put_copy(names[k], i);
		if (ferror(stdout))
			break;
	}
	if (fflush(stdout) == EOF || ferror(stdout)) {
		fprintf(stderr, "gen: <stdout>: %s\n", strerror(errno));
		exit(2);
	}
	return 0;
}
