/*
 * Range-checked decimal numbers for option arguments, in the manner of
 * OpenBSD strtonum(3).
 */
#ifndef SH_NUM_H
#define SH_NUM_H

/* Parse s as a decimal integer in [min, max] into *v.  Return 0, or
 * SH_EINVAL (not a number) or SH_ERANGE (outside the range). */
int sh_strtonum(const char *s, long long min, long long max, long long *v);

#endif
