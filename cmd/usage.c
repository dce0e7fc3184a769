/*
 * Usage, help and version, alike in every program.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/errors.h"
#include "base/sketch.h"
#include "base/version.h"
#include "fp/fingerprint.h"
#include "help.h"
#include "progress.h"
#include "usage.h"

static const char *prog = "sh";
static const char *text = "";
static char given[64];		/* the option letters taken */

static void out(FILE *, int) USAGE_NORETURN;

static void
out(FILE *f, int status)
{
	fputs(text, f);
	if (fflush(f) != 0 || ferror(f))
		err(2, "stdout");
	exit(status);
}

void
usage(void)
{
	out(stderr, 2);
}

void
usage_conflict(int a, int b)
{
	errx(2, "-%c and -%c cannot be used together", a, b);
}

int
usage_option(int ch, const char *renamed)
{
	size_t n = strlen(given);

	for (; renamed[0] != '\0' && renamed[1] != '\0'; renamed += 2)
		if (ch == renamed[0]) {
			warnx("-%c is now -%c; -%c goes in the next release",
			    ch, renamed[1], ch);
			ch = renamed[1];
			break;
		}
	if (strchr(given, ch) == NULL && n < sizeof(given) - 1)
		given[n] = (char)ch;
	return ch;
}

int
usage_has(int argc, char *const argv[], const char *optstring, int ch)
{
	char **copy;
	int c, found = 0, saved = opterr;

	if ((copy = malloc(((size_t)argc + 1) * sizeof(*copy))) == NULL)
		errx(2, "%s", sh_strerror(SH_ENOMEM));
	memcpy(copy, argv, (size_t)argc * sizeof(*copy));
	copy[argc] = NULL;
	opterr = 0;
	optind = 1;
	while ((c = getopt(argc, copy, optstring)) != -1)
		found |= c == ch;
	opterr = saved;
	optind = 1;
	free(copy);
	return found;
}

const char *
usage_given(void)
{
	return given;
}

void
usage_pairs(const char *const pairs[])
{
	for (; *pairs != NULL; pairs++)
		if (strchr(given, (*pairs)[0]) && strchr(given, (*pairs)[1]))
			usage_conflict((*pairs)[0], (*pairs)[1]);
}

void
usage_only(int a, const char *what)
{
	errx(2, "-%c: only with %s", a, what);
}

void
usage_help(void)
{
	const char *opts, *docs;

	/* The usage, then what each option does. */
	if ((opts = help_options(prog, &docs)) == NULL)
		out(stdout, 0);
	fputs(text, stdout);
	printf("\n%s", opts);
	if (docs != NULL)
		printf("\n%s", docs);
	printf("\nSee %s(1) for the rest.\n", prog);
	if (fflush(stdout) != 0 || ferror(stdout))
		err(2, "stdout");
	exit(0);
}

void
usage_version(void)
{
	printf("%s (sh) %s, fingerprint version %d, sketch version %d\n",
	    prog, SH_VERSION, SH_FP_VERSION, SH_SK_VERSION);
	if (fflush(stdout) != 0 || ferror(stdout))
		err(2, "stdout");
	exit(0);
}

int
usage_init(int argc, char *argv[], const char *usage_text)
{
	const char *slash;
	int i, n;

	text = usage_text;
	if (argc > 0 && argv[0] != NULL)
		prog = (slash = strrchr(argv[0], '/')) ? slash + 1 : argv[0];
	for (i = n = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0) {
			while (i < argc)
				argv[n++] = argv[i++];
			break;
		}
		if (strcmp(argv[i], "--help") == 0)
			usage_help();
		else if (strcmp(argv[i], "--version") == 0)
			usage_version();
		else if (strcmp(argv[i], "--progress") == 0)
			progress_on = 1;
		else
			argv[n++] = argv[i];
	}
	argv[n] = NULL;
	return argc > 0 ? n : argc;
}
