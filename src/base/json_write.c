#include "src/base/json_write.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void gb_json_string(GbStr *out, const char *s)
{
    if (!s) {
        gb_str_append(out, "null");
        return;
    }
    gb_str_append(out, "\"");
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
            if (*p < 0x20)
                gb_str_appendf(out, "\\u%04x", *p);
            else
                gb_str_append_n(out, (const char *)p, 1);
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

void gb_json_key(GbStr *out, const char *key, bool *first)
{
    if (!*first) gb_str_append(out, ",");
    *first = false;
    gb_json_string(out, key);
    gb_str_append(out, ":");
}
