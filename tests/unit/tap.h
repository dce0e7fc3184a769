/*
 * Minimal TAP producer for the library unit tests: each test program
 * prints "ok N - name" / "not ok N - name" lines and a final plan, and
 * exits 1 when anything failed.  tests/run counts the lines.
 */
#ifndef TAP_H
#define TAP_H

#include <stdio.h>

static int tap_n, tap_failed;

#define ok(cond, ...) do {						\
	int ok_c_ = (cond);						\
	printf("%sok %d - ", ok_c_ ? "" : "not ", ++tap_n);		\
	printf(__VA_ARGS__);						\
	printf("\n");							\
	if (!ok_c_) {							\
		tap_failed++;						\
		printf("#   failed at %s:%d\n", __FILE__, __LINE__);	\
	}								\
} while (0)

static int
tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed != 0;
}

#endif
