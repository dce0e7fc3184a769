/*
 * Weights: parsing and printing round trips, rounding, and the claim that
 * log-tf never sits near a rounding tie, so that every libm agrees.
 */
#include <math.h>
#include <string.h>

#include "base/errors.h"
#include "feat/weight.h"
#include "tap.h"

static int
parses(const char *s, uint64_t want)
{
	uint64_t w = 12345;

	return sh_weight_parse(s, strlen(s), &w) == 0 && w == want;
}

static int
rejects(const char *s)
{
	uint64_t w;

	return sh_weight_parse(s, strlen(s), &w) == SH_EWEIGHT;
}

int
main(void)
{
	char out[24];
	uint64_t w, tf, worst = 0;
	double x, frac, dist, closest = 1;
	size_t n;
	int bad = 0;

	ok(parses("1", 1000) && parses("2", 2000) && parses("0", 0),
	    "integers");
	ok(parses("0.5", 500) && parses("1.693", 1693) && parses(".25", 250) &&
	    parses("3.", 3000), "decimals");
	ok(parses("2.30259", 2303) && parses("0.0004", 0) &&
	    parses("0.0005", 1) && parses("0.9995", 1000),
	    "fourth decimal rounds half up");
	ok(parses("1000000000", SH_W_MAX), "largest weight");
	ok(rejects("") && rejects(".") && rejects("-1") && rejects("1e3") &&
	    rejects("1.2.3") && rejects("x") && rejects(" 1") &&
	    rejects("1000000000.001") && rejects("99999999999999999999999"),
	    "malformed or too large");
	for (w = 0; w <= 100000; w += 7) {
		n = sh_weight_format(w, out);
		if (sh_weight_parse(out, n, &tf) != 0 || tf != w)
			bad++;
	}
	ok(bad == 0, "format then parse is the identity");
	n = sh_weight_format(1500, out);
	ok(n == 3 && memcmp(out, "1.5", 3) == 0, "1500 units print as 1.5");
	n = sh_weight_format(2000, out);
	ok(n == 1 && memcmp(out, "2", 1) == 0, "2000 units print as 2");

	ok(sh_weight(SH_W_TF, 3) == 3000, "tf");
	ok(sh_weight(SH_W_BINARY, 3) == 1000, "binary");
	ok(sh_weight(SH_W_LOGTF, 1) == 1000 && sh_weight(SH_W_LOGTF, 2) == 1693
	    && sh_weight(SH_W_LOGTF, 10) == 3303, "log-tf 1 + ln tf");
	for (tf = 2; tf < (1 << 24); tf++) {
		x = 1000 * log((double)tf);
		frac = x - floor(x);
		dist = fabs(frac - 0.5);
		if (dist < closest) {
			closest = dist;
			worst = tf;
		}
	}
	ok(closest > 1e-9, "log-tf is never within 1e-9 of a tie (closest "
	    "%.3g at tf %llu)", closest, (unsigned long long)worst);
	ok(sh_weight_scheme("tf") == SH_W_TF &&
	    sh_weight_scheme("binary") == SH_W_BINARY &&
	    sh_weight_scheme("logtf") == SH_W_LOGTF &&
	    sh_weight_scheme("idf") == -1, "scheme names");
	return tap_done();
}
