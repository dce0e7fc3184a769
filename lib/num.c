#include <errno.h>
#include <stdlib.h>

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
