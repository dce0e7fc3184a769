/*
 * The option descriptions of -h (help.c): the lines of program prog's
 * options, or NULL for a program it does not know; *docopts the lines of
 * the document options (docopt.h), or NULL when prog takes none.
 */
#ifndef HELP_H
#define HELP_H

const char *help_options(const char *prog, const char **docopts);

#endif
