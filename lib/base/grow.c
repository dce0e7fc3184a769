#include <sys/mman.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/errors.h"
#include "base/grow.h"

int
sh_grow(void *pp, size_t *cap, size_t need, size_t size)
{
	size_t max = SIZE_MAX / size, c = *cap;
	void *p;

	if (need <= c)
		return 0;
	if (need > max)
		return SH_ENOMEM;
	if (c < SH_GROW_MIN / size)
		c = SH_GROW_MIN / size;
	if (c == 0)
		c = 1;
	while (c < need)
		c = c > max / 2 ? max : 2 * c;
	/* pp points at a pointer of the caller's type: copied, not cast. */
	memcpy(&p, pp, sizeof(p));
	if ((p = realloc(p, c * size)) == NULL)
		return SH_ENOMEM;
	memcpy(pp, &p, sizeof(p));
	*cap = c;
	return 0;
}

void
sh_hugepages(void *p, size_t len)
{
#ifdef MADV_HUGEPAGE
	uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE), a, b;

	a = ((uintptr_t)p + pg - 1) / pg * pg;
	b = ((uintptr_t)p + len) / pg * pg;
	if (a < b)
		madvise((void *)a, b - a, MADV_HUGEPAGE);
#else
	(void)p;
	(void)len;
#endif
}
