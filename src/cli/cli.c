#include "src/cli/cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

bool gb_cli_parse_long(const char *opt, const char *value, long min, long max, long *out)
{
    char *end = NULL;
    errno = 0;
    long v = strtol(value, &end, 10);
    if (errno || !end || *end || end == value || v < min || v > max) {
        fprintf(stderr, "genebench: %s expects an integer in [%ld, %ld], got '%s'\n", opt, min, max, value);
        return false;
    }
    *out = v;
    return true;
}

bool gb_cli_parse_double(const char *opt, const char *value, double min, double max, double *out)
{
    char *end = NULL;
    errno = 0;
    double v = strtod(value, &end);
    if (errno || !end || *end || end == value || v < min || v > max) {
        fprintf(stderr, "genebench: %s expects a number in [%g, %g], got '%s'\n", opt, min, max, value);
        return false;
    }
    *out = v;
    return true;
}

bool gb_cli_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (stat(a, &sa) != 0 || stat(b, &sb) != 0) return false;
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}
