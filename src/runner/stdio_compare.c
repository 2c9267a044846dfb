/* The stdio output comparison (gb_stdio_output_matches). */
#include "src/runner/runner.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/runner/runner_private.h"

static const char *gb_runner__skip_ws(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\v' || *p == '\f')) p++;
    return p;
}

static bool gb_runner__is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static bool gb_runner__number(const char *tok, size_t len, double *out)
{
    char buf[128];
    if (len == 0 || len >= sizeof buf) return false;
    memcpy(buf, tok, len);
    buf[len] = '\0';
    char *end;
    errno = 0;
    double v = strtod(buf, &end);
    if (end != buf + len || errno == ERANGE || !isfinite(v)) return false;
    /* strtod accepts hex floats and "inf"/"nan" words; AVATAR's float() does not take hex. */
    for (size_t i = 0; i < len; i++)
        if (buf[i] == 'x' || buf[i] == 'X') return false;
    *out = v;
    return true;
}

/* Compare one line (no '\n' inside) token by token. */
static bool gb_runner__line_matches(const char *a, const char *ae, const char *b, const char *be)
{
    for (;;) {
        a = gb_runner__skip_ws(a, ae);
        b = gb_runner__skip_ws(b, be);
        if (a == ae || b == be) return a == ae && b == be;
        const char *ta = a, *tb = b;
        while (a < ae && !gb_runner__is_space(*a)) a++;
        while (b < be && !gb_runner__is_space(*b)) b++;
        size_t la = (size_t)(a - ta), lb = (size_t)(b - tb);
        if (la == lb && memcmp(ta, tb, la) == 0) continue;
        double x, y;
        if (!gb_runner__number(ta, la, &x) || !gb_runner__number(tb, lb, &y)) return false;
        if (!(fabs(x - y) <= 1e-6)) return false;
    }
}

static void gb_runner__strip(const char **p, const char **end)
{
    while (*p < *end && gb_runner__is_space(**p)) (*p)++;
    while (*end > *p && gb_runner__is_space((*end)[-1])) (*end)--;
}

bool gb_stdio_output_matches(const char *got, const char *expected)
{
    const char *a = got, *ae = got + strlen(got);
    const char *b = expected, *be = expected + strlen(expected);
    gb_runner__strip(&a, &ae);
    gb_runner__strip(&b, &be);
    for (;;) {
        const char *na = memchr(a, '\n', (size_t)(ae - a));
        const char *nb = memchr(b, '\n', (size_t)(be - b));
        const char *la = na ? na : ae, *lb = nb ? nb : be;
        if (!gb_runner__line_matches(a, la, b, lb)) return false;
        if (!na || !nb) return !na && !nb;
        a = na + 1;
        b = nb + 1;
    }
}

void gb_stdio_judge(GbRunResult *r, const char *expected, char *(*excerpt)(const char *text))
{
    if (r->status != GB_RUN_PASS) return;
    size_t kept = strlen(r->out);
    if (kept != r->out_total) {
        r->status = GB_RUN_FAIL;
        r->exc_type = gb_strdup("WrongOutput");
        r->exc_message = kept < r->out_total && !memchr(r->out, '\0', kept)
                             ? gb_asprintf("the program wrote %zu bytes to stdout, more than the %zu that can match",
                                           r->out_total, kept)
                             : gb_asprintf("the output holds a NUL byte (after %zu of %zu bytes)", kept, r->out_total);
        return;
    }
    if (gb_stdio_output_matches(r->out, expected)) return;
    r->status = GB_RUN_FAIL;
    char *got = excerpt(r->out), *want = excerpt(expected);
    r->exc_type = gb_strdup("WrongOutput");
    r->exc_message = gb_asprintf("expected %s, got %s", want, got);
    free(got);
    free(want);
}
