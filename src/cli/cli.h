#pragma once
/* Shared option parsing for subcommands: getopt_long wrappers with uniform usage errors.
 * Every subcommand accepts --help (prints its usage to stdout, exit 0); an unknown
 * option prints the usage to stderr and returns exit code 2. */
#include <getopt.h>
#include <stdbool.h>

#define GB_EXIT_OK 0
#define GB_EXIT_FAIL 1
#define GB_EXIT_USAGE 2

/* Parse a non-negative integer / double option value; prints an error naming the
 * option and returns false when it is not a number in [min, max]. */
bool gb_cli_parse_long(const char *opt, const char *value, long min, long max, long *out);
bool gb_cli_parse_double(const char *opt, const char *value, double min, double max, double *out);
/* True when both paths name the same existing file (same device and inode), so a command
 * can refuse to overwrite its own input. */
bool gb_cli_same_file(const char *a, const char *b);
