/*
 * What every program answers alike: its usage, on a usage error to
 * stderr with status 2, or asked for with -h or --help to stdout with
 * status 0; and its version with -V or --version.
 */
#ifndef USAGE_H
#define USAGE_H

#if defined(__GNUC__)
#define USAGE_NORETURN __attribute__((noreturn))
#else
#define USAGE_NORETURN
#endif

/*
 * Take the program's usage text (static, ending in a newline) and its
 * name from argv[0]; answer --help and --version wherever they stand
 * before a "--" argument, and exit; take --progress out of argv, setting
 * progress_on (progress.h).  Return the number of arguments left.  Call
 * first in main.
 */
int usage_init(int argc, char *argv[], const char *text);

/* The usage text to stderr; exit 2. */
void usage(void) USAGE_NORETURN;

/* Options that cannot stand together: "-a and -b cannot be used
 * together" on stderr; exit 2. */
void usage_conflict(int a, int b) USAGE_NORETURN;

/*
 * Take option letter ch from getopt: an old spelling listed in renamed
 * (old and new letter after letter, "mJrR") is warned of ("-m is now -J;
 * -m goes in the next release"; it still works meanwhile) and replaced
 * by the new one; the letter is noted as given (usage_given).  Return
 * the letter.
 */
int usage_option(int ch, const char *renamed);

/* Whether getopt, with optstring, finds option ch in argv[0..argc): a
 * copy of argv is parsed, without messages, and getopt is then reset
 * (optind 1) for the program's own parse. */
int usage_has(int argc, char *const argv[], const char *optstring, int ch);

/* The letters usage_option has taken, each once, in order. */
const char *usage_given(void);

/* The first pair of pairs (strings of two letters, NULL-terminated) whose
 * letters were both given, as usage_conflict; nothing when none is. */
void usage_pairs(const char *const pairs[]);

/* An option that needs another, or a verb: "-a: only with WHAT" on
 * stderr; exit 2. */
void usage_only(int a, const char *what) USAGE_NORETURN;

/* The usage text to stdout (-h); exit 0, or 2 when it cannot be written. */
void usage_help(void) USAGE_NORETURN;

/* "PROGRAM (sh) VERSION, fingerprint version N" to stdout (-V); exit 0,
 * or 2 when it cannot be written. */
void usage_version(void) USAGE_NORETURN;

#endif
