#include "src/base/json_write.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Bytes of the well-formed UTF-8 sequence at p (end: one past the last byte), 0 when the bytes
 * at p are not one. */
static size_t gb_json__utf8_len(const unsigned char *p, const unsigned char *end)
{
    size_t k = *p >= 0xc2 && *p <= 0xdf ? 2 : *p >= 0xe0 && *p <= 0xef ? 3 : *p >= 0xf0 && *p <= 0xf4 ? 4 : 0;
    if (k == 0 || (size_t)(end - p) < k) return 0;
    return gb_utf8_valid((const char *)p, k, NULL) ? k : 0;
}

/* The code point of the well-formed UTF-8 sequence of k bytes at p. */
static unsigned long gb_json__code_point(const unsigned char *p, size_t k)
{
    unsigned long c = k == 2 ? p[0] & 0x1fu : k == 3 ? p[0] & 0x0fu : p[0] & 0x07u;
    for (size_t i = 1; i < k; i++) c = c << 6 | (p[i] & 0x3fu);
    return c;
}

/* Append c as \uXXXX (a surrogate pair above U+FFFF). */
static void gb_json__escape(GbStr *out, unsigned long c, unsigned flags)
{
    const char *fmt = flags & GB_JSON_HEX_UPPER ? "\\u%04lX" : "\\u%04lx";
    if (c < 0x10000) {
        gb_str_appendf(out, fmt, c);
        return;
    }
    c -= 0x10000;
    gb_str_appendf(out, fmt, 0xd800 | (c >> 10));
    gb_str_appendf(out, fmt, 0xdc00 | (c & 0x3ff));
}

void gb_json_string(GbStr *out, const char *s)
{
    gb_json_string_as(out, s, 0);
}

void gb_json_string_as(GbStr *out, const char *s, unsigned flags)
{
    if (!s) {
        gb_str_append(out, "null");
        return;
    }
    gb_str_append(out, "\"");
    const unsigned char *end = (const unsigned char *)s + strlen(s);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"':
            gb_str_append(out, "\\\"");
            break;
        case '\\':
            gb_str_append(out, "\\\\");
            break;
        case '\n':
            gb_str_append(out, "\\n");
            break;
        case '\r':
            gb_str_append(out, "\\r");
            break;
        case '\t':
            gb_str_append(out, "\\t");
            break;
        case '\b':
            gb_str_append(out, "\\b");
            break;
        case '\f':
            gb_str_append(out, "\\f");
            break;
        default:
            if (*p < 0x20) {
                gb_json__escape(out, *p, flags);
            } else if (*p < 0x80) {
                gb_str_append_n(out, (const char *)p, 1);
            } else {
                /* A byte that starts no well-formed UTF-8 sequence becomes U+FFFD, as Python's
                 * errors="replace" does: the document stays valid UTF-8 whatever a program printed. */
                size_t k = gb_json__utf8_len(p, end);
                if (flags & GB_JSON_ASCII) {
                    gb_json__escape(out, k ? gb_json__code_point(p, k) : 0xfffd, flags);
                    if (k) p += k - 1;
                } else if (k == 0) {
                    gb_str_append(out, "\xef\xbf\xbd");
                } else {
                    gb_str_append_n(out, (const char *)p, k);
                    p += k - 1;
                }
            }
        }
    }
    gb_str_append(out, "\"");
}

void gb_json_number(GbStr *out, double v)
{
    if (!isfinite(v)) {
        gb_str_append(out, "null");
        return;
    }
    if (v == floor(v) && fabs(v) < 1e15) {
        gb_str_appendf(out, "%.0f", v);
        return;
    }
    char buf[64];
    snprintf(buf, sizeof buf, "%.6f", v);
    size_t n = strlen(buf);
    while (n > 0 && buf[n - 1] == '0') buf[--n] = '\0';
    if (n > 0 && buf[n - 1] == '.') buf[--n] = '\0';
    if (strcmp(buf, "-0") == 0) strcpy(buf, "0");
    gb_str_append(out, buf);
}

void gb_json_general(GbStr *out, double v, int digits)
{
    if (!isfinite(v)) {
        gb_str_append(out, "null");
        return;
    }
    gb_str_appendf(out, "%.*g", digits, v);
}

void gb_json_fixed(GbStr *out, double v, int decimals)
{
    if (!isfinite(v)) {
        gb_str_append(out, "null");
        return;
    }
    gb_str_appendf(out, "%.*f", decimals, v);
}

void gb_json_real(GbStr *out, double v, int digits)
{
    if (!isfinite(v)) {
        gb_str_append(out, "null");
        return;
    }
    char buf[64];
    snprintf(buf, sizeof buf, "%.*g", digits, v);
    char *e = strchr(buf, 'e');
    if (!e && !strchr(buf, '.')) {
        strcat(buf, ".0");
    } else if (e) {
        char *from = e + 1, *to = e + 1;
        if (*from == '-')
            from = ++to;
        else if (*from == '+')
            from++;
        while (*from == '0' && from[1]) from++;
        memmove(to, from, strlen(from) + 1);
    }
    gb_str_append(out, buf);
}

void gb_json_number_real(GbStr *out, double v, int digits)
{
    if (isfinite(v) && v == floor(v) && fabs(v) < 1e15)
        gb_json_integer(out, (long long)v);
    else
        gb_json_real(out, v, digits);
}

void gb_json_integer(GbStr *out, long long v)
{
    gb_str_appendf(out, "%lld", v);
}

void gb_json_bool(GbStr *out, bool v)
{
    gb_str_append(out, v ? "true" : "false");
}

void gb_json_key(GbStr *out, const char *key, bool *first)
{
    if (!*first) gb_str_append(out, ",");
    *first = false;
    gb_json_string(out, key);
    gb_str_append(out, ":");
}
