/*
 * The plain driver of a fuzz target, linked instead of libFuzzer: run
 * the target once on each file named, and on every file of each
 * directory named (in byte order of the names); "-" is stdin.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static unsigned long long nrun;

/* Run the target on the whole of f, read into a buffer of its exact
 * size so that a read past the end is caught.  Return 0 or -1. */
static int
replay(FILE *f, const char *name)
{
	char chunk[65536];
	uint8_t *buf = NULL, *nb;
	size_t len = 0, got;

	while ((got = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		if ((nb = realloc(buf, len + got)) == NULL) {
			free(buf);
			warnx("%s: out of memory", name);
			return -1;
		}
		buf = nb;
		memcpy(buf + len, chunk, got);
		len += got;
	}
	if (ferror(f)) {
		warn("%s", name);
		free(buf);
		return -1;
	}
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	nrun++;
	return 0;
}

static int
replay_file(const char *path)
{
	FILE *f;
	int r;

	if ((f = fopen(path, "rb")) == NULL) {
		warn("%s", path);
		return -1;
	}
	r = replay(f, path);
	fclose(f);
	return r;
}

static int
replay_dir(const char *path)
{
	struct dirent **ent;
	struct stat st;
	char *file;
	int i, n, r = 0;

	if ((n = scandir(path, &ent, NULL, alphasort)) < 0) {
		warn("%s", path);
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (ent[i]->d_name[0] != '.' && (file = malloc(strlen(path) +
		    strlen(ent[i]->d_name) + 2)) != NULL) {
			sprintf(file, "%s/%s", path, ent[i]->d_name);
			if (stat(file, &st) == 0 && S_ISREG(st.st_mode) &&
			    replay_file(file) != 0)
				r = -1;
			free(file);
		} else if (ent[i]->d_name[0] != '.')
			r = -1;
		free(ent[i]);
	}
	free(ent);
	return r;
}

int
main(int argc, char *argv[])
{
	struct stat st;
	int i, status = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s file | dir ...\n", argv[0]);
		return 2;
	}
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-") == 0) {
			if (replay(stdin, "<stdin>") != 0)
				status = 2;
		} else if (stat(argv[i], &st) != 0) {
			warn("%s", argv[i]);
			status = 2;
		} else if ((S_ISDIR(st.st_mode) ? replay_dir(argv[i]) :
		    replay_file(argv[i])) != 0)
			status = 2;
	}
	fprintf(stderr, "%s: %llu inputs\n", argv[0], nrun);
	return status;
}
