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

void gb_json_string(GbStr *out, const char *s)
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
                gb_str_appendf(out, "\\u%04x", *p);
            } else if (*p < 0x80) {
                gb_str_append_n(out, (const char *)p, 1);
            } else {
                /* A byte that starts no well-formed UTF-8 sequence becomes U+FFFD, as Python's
                 * errors="replace" does: the document stays valid UTF-8 whatever a program printed. */
                size_t k = gb_json__utf8_len(p, end);
                if (k == 0) {
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
