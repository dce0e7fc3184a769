#include <string.h>

#include "base/errors.h"
#include "base/utf8.h"
#include "text/detect.h"
#include "text/unicode.h"

/* The commonest Chinese characters, simplified: a few hundred of the
 * head of the frequency lists of news and technical text. */
static const char common[] =
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
    "候带导争运笔百千亿元钱买卖价商济府习研究"
    "技历史城农村企银育校医病朋友父母孩男昨始"
    "束需须希诉示影响况环境源息网络脑视纸闻消"
    "音乐艺赛健康际京广州深圳香港台湾英俄罗欧"
    "洲亚球每哪怎虽首概较号码令参选项户序录输"
    "错误字符显默置执服器库支持版模称功标准";

#define CJK_LO 0x4E00
#define CJK_HI 0x9FFF
#define SAMPLE 16384

/* The multi-byte candidates, in the order a tie goes. */
enum { GB, BIG5, SJIS, EUCKR, NCAND };
static const char *const name[NCAND] = { "GB18030", "BIG5", "SHIFT_JIS",
    "EUC-KR" };

/* Whether p[0..len) is UTF-8, by its first 64 characters past ASCII:
 * valid, or at least 8 times as many valid sequences as invalid bytes (a
 * UTF-8 text with a stray byte stays UTF-8, its bad bytes read as such).
 * Text in a legacy charset shows itself at once.  Runs of ASCII are
 * passed 32 bytes at a time: this is asked of every document. */
static int
utf8(const char *p, size_t len)
{
	const unsigned char *u = (const unsigned char *)p;
	size_t i = 0, good = 0, badn = 0;
	uint64_t w[4];
	uint32_t cp;
	int bad;

	while (i < len && good + badn < 64) {
		if (i + 32 <= len) {
			memcpy(w, u + i, 32);
			if (((w[0] | w[1] | w[2] | w[3]) &
			    0x8080808080808080ULL) == 0) {
				i += 32;
				continue;
			}
		}
		if (i + 8 <= len) {
			memcpy(w, u + i, 8);
			if ((w[0] & 0x8080808080808080ULL) == 0) {
				i += 8;
				continue;
			}
		}
		if (u[i] < 0x80) {
			i++;
			continue;
		}
		bad = 0;
		i += sh_utf8_decode(u + i, len - i, &cp, &bad);
		badn += bad;
		good += !bad;
	}
	return badn == 0 || good >= 8 * badn;
}

/* Score in thousandths of candidate k's conversion out[0..n) of a sample
 * whose first bad byte was at ok of len bytes (len when none). */
static int
score(int k, const char *out, size_t n, size_t ok, size_t len,
    const unsigned char *map)
{
	const unsigned char *u = (const unsigned char *)out;
	unsigned long long all = 0, hits = 0;
	size_t i = 0;
	uint32_t cp, s;
	int bad = 0;

	/* A charset the bytes break before the last few: not this one. */
	if (len - ok > 8)
		return 0;
	while (i < n) {
		if (u[i] < 0x80) {
			i++;
			continue;
		}
		i += sh_utf8_decode(u + i, n - i, &cp, &bad);
		all++;
		if (k == EUCKR) {
			hits += cp >= 0xAC00 && cp <= 0xD7A3;
			continue;
		}
		if (k == SJIS && cp >= 0x3040 && cp <= 0x30FF) {
			hits++;
			continue;
		}
		s = sh_uc_simplify(cp);
		hits += s >= CJK_LO && s <= CJK_HI &&
		    (map[(s - CJK_LO) >> 3] >> ((s - CJK_LO) & 7) & 1);
	}
	return all ? (int)(hits * 1000 / all) : 0;
}

/* Single-byte text: Cyrillic words (high bytes next to high bytes), or
 * Latin letters amid ASCII. */
static const char *
single(const char *p, size_t len)
{
	const unsigned char *u = (const unsigned char *)p;
	unsigned long long high = 0, runs = 0;
	size_t i;

	for (i = 0; i < len; i++) {
		if (u[i] < 0x80)
			continue;
		high++;
		runs += (i > 0 && u[i - 1] >= 0x80) ||
		    (i + 1 < len && u[i + 1] >= 0x80);
	}
	return runs * 2 > high ? "WINDOWS-1251" : "WINDOWS-1252";
}

const char *
sh_charset_detect(struct sh_charset *c, const char *p, size_t len, int *e)
{
	unsigned char map[(CJK_HI - CJK_LO) / 8 + 1];
	const unsigned char *u = (const unsigned char *)common;
	const char *out;
	size_t i, n, outlen, ok;
	uint32_t cp;
	int k, best = -1, bs = 0, s, bad = 0;

	*e = 0;
	if (len > SAMPLE) {
		/* Cut before a UTF-8 sequence that would be cut (in another
		 * charset, a character cut at the end breaks nothing). */
		for (n = SAMPLE; n > SAMPLE - 4 &&
		    ((unsigned char)p[n] & 0xC0) == 0x80; n--)
			;
		len = n;
	}
	if (utf8(p, len))
		return NULL;
	memset(map, 0, sizeof(map));
	for (i = 0; i < sizeof(common) - 1; ) {
		i += sh_utf8_decode(u + i, sizeof(common) - 1 - i, &cp, &bad);
		if (cp >= CJK_LO && cp <= CJK_HI)
			map[(cp - CJK_LO) >> 3] |= 1 << ((cp - CJK_LO) & 7);
	}
	for (k = 0; k < NCAND; k++) {
		s = sh_charset_conv(c, name[k], strlen(name[k]), p, len, &out,
		    &outlen);
		if (s == SH_ENOMEM) {
			*e = s;
			return NULL;
		}
		if (s == SH_EINVAL)
			continue;
		/* Where conversion stopped: the bytes kept as they were
		 * follow the converted text. */
		ok = sh_charset_done(c);
		if ((s = score(k, out, outlen, ok, len, map)) > bs) {
			bs = s;
			best = k;
		}
	}
	return bs >= 200 ? name[best] : single(p, len);
}
