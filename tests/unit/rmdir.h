/*
 * Removing a test's index directory and the files it holds (no
 * subdirectories), for the unit tests that write indexes.
 */
#ifndef RMDIR_H
#define RMDIR_H

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void
rmindex(const char *dir)
{
	char path[4400];
	struct dirent *de;
	DIR *d;

	if ((d = opendir(dir)) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		unlink(path);
	}
	closedir(d);
	rmdir(dir);
}

#endif
