/*
 * Fuzz target: the main content of HTML pages (text/maintext.h).  The
 * whole input is the page.  Checks: the text fits, is the same in place
 * and apart, and is made of the plain reduction's bytes in order (a
 * subsequence of sh_html_text's output).
 */
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "text/html.h"
#include "text/maintext.h"
#include "util.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sh_maintext *m;
	char *a, *b, *plain;
	size_t na, nb, np, i, k;
	int ea, eb;

	if ((m = sh_maintext_new()) == NULL)
		return 0;
	a = malloc(size + 1);
	b = malloc(size + 1);
	plain = malloc(size + 1);
	if (a == NULL || b == NULL || plain == NULL)
		goto out;
	memcpy(a, data, size);
	memcpy(plain, data, size);
	np = sh_html_text(plain, size, plain);
	ea = sh_maintext(m, a, size, a, &na);
	eb = sh_maintext(m, (const char *)data, size, b, &nb);
	FZ_CHECK(ea == 0 || ea == SH_ENOMEM);
	FZ_CHECK(ea == eb && na == nb && memcmp(a, b, na) == 0);
	FZ_CHECK(na <= np);
	for (i = k = 0; i < na && k < np; k++)
		if (a[i] == plain[k])
			i++;
	FZ_CHECK(i == na);
out:
	free(a);
	free(b);
	free(plain);
	sh_maintext_free(m);
	return 0;
}
