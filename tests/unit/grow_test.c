/*
 * sh_grow: room made by doubling from SH_GROW_MIN bytes, contents kept,
 * sizes that overflow refused with the array left as it was.
 */
#include <stdint.h>
#include <stdlib.h>

#include "base/errors.h"
#include "base/grow.h"
#include "tap.h"

int
main(void)
{
	uint64_t *a = NULL, *keep;
	char *s = NULL;
	size_t cap = 0, scap = 0, i, bad, grows = 0;
	struct big {
		char b[SH_GROW_MIN * 2];
	} *big = NULL;
	size_t bcap = 0;

	ok(sh_grow(&a, &cap, 0, sizeof(*a)) == 0 && a == NULL && cap == 0,
	    "no room needed: nothing allocated");
	ok(sh_grow(&a, &cap, 1, sizeof(*a)) == 0 && a != NULL &&
	    cap == SH_GROW_MIN / sizeof(*a), "first room: SH_GROW_MIN bytes");
	/* Elements added one by one: the capacity doubles, contents kept. */
	for (i = 0, bad = 0; i < 100000; i++) {
		if (i == cap) {
			if (sh_grow(&a, &cap, i + 1, sizeof(*a)) != 0)
				break;
			grows++;
		}
		a[i] = i * 0x9E3779B97F4A7C15ULL;
	}
	for (i = 0; i < 100000; i++)
		bad += a[i] != i * 0x9E3779B97F4A7C15ULL;
	ok(bad == 0 && cap == 131072 && grows == 8,
	    "100000 elements: capacity 131072 after 8 doublings, all kept");
	ok(sh_grow(&a, &cap, 1000, sizeof(*a)) == 0 && cap == 131072,
	    "need within the capacity: unchanged");
	ok(sh_grow(&a, &cap, 1000000, sizeof(*a)) == 0 && cap == 1048576 &&
	    a[99999] == 99999 * 0x9E3779B97F4A7C15ULL,
	    "need far beyond: doubled until it holds it, contents kept");

	/* Overflow refused, the array untouched. */
	keep = a;
	ok(sh_grow(&a, &cap, SIZE_MAX / sizeof(*a) + 1, sizeof(*a)) ==
	    SH_ENOMEM && a == keep && cap == 1048576,
	    "need * size over SIZE_MAX: SH_ENOMEM, array unchanged");
	ok(sh_grow(&a, &cap, SIZE_MAX, 2) == SH_ENOMEM && a == keep &&
	    cap == 1048576, "SIZE_MAX elements of 2 bytes: SH_ENOMEM");

	/* Bytes: from SH_GROW_MIN, doubled until the need fits. */
	ok(sh_grow(&s, &scap, 5, 1) == 0 && scap == SH_GROW_MIN,
	    "bytes: SH_GROW_MIN first");
	ok(sh_grow(&s, &scap, 3 * SH_GROW_MIN + 1, 1) == 0 &&
	    scap == 4 * SH_GROW_MIN, "bytes: doubled until it fits");
	/* Elements larger than SH_GROW_MIN: one at least. */
	ok(sh_grow(&big, &bcap, 1, sizeof(*big)) == 0 && bcap == 1,
	    "an element over SH_GROW_MIN bytes: room for one");
	ok(sh_grow(&big, &bcap, 2, sizeof(*big)) == 0 && bcap == 2,
	    "then doubled");
	free(a);
	free(s);
	free(big);
	return tap_done();
}
