#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "num.h"

int
sh_strtonum(const char *s, long long min, long long max, long long *v)
{
	char *end;
	long long x;

	if (*s == '\0' || *s == ' ' || *s == '\t' || *s == '+')
		return SH_EINVAL;
	errno = 0;
	x = strtoll(s, &end, 10);
	if (*end != '\0')
		return SH_EINVAL;
	if (errno == ERANGE || x < min || x > max)
		return SH_ERANGE;
	*v = x;
	return 0;
}

int
sh_strtosize(const char *s, long long min, long long *v)
{
	char buf[32];
	size_t len = strlen(s);
	int shift = 0, e;

	if (len == 0 || len >= sizeof(buf))
		return SH_EINVAL;
	memcpy(buf, s, len + 1);
	switch (buf[len - 1]) {
	case 'K': case 'k': shift = 10; break;
	case 'M': case 'm': shift = 20; break;
	case 'G': case 'g': shift = 30; break;
	case 'T': case 't': shift = 40; break;
	}
	if (shift)
		buf[len - 1] = '\0';
	if ((e = sh_strtonum(buf, 0, (1LL << 50) >> shift, v)) != 0)
		return e;
	*v <<= shift;
	return *v < min ? SH_ERANGE : 0;
}
