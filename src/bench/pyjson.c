#include "src/bench/pyjson.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/json_write.h"

static void gb_pyjson__newline(GbStr *out, int indent, int level)
{
    gb_str_append(out, "\n");
    for (int i = 0; i < indent * level; i++) gb_str_append_n(out, " ", 1);
}

/* Decode one UTF-8 sequence (input is valid UTF-8: jansson checked it). */
static unsigned gb_pyjson__utf8(const unsigned char *p, size_t *n)
{
    if (p[0] < 0x80) {
        *n = 1;
        return p[0];
    }
    if ((p[0] & 0xE0) == 0xC0) {
        *n = 2;
        return ((unsigned)(p[0] & 0x1F) << 6) | (p[1] & 0x3F);
    }
    if ((p[0] & 0xF0) == 0xE0) {
        *n = 3;
        return ((unsigned)(p[0] & 0x0F) << 12) | ((unsigned)(p[1] & 0x3F) << 6) | (p[2] & 0x3F);
    }
    *n = 4;
    return ((unsigned)(p[0] & 0x07) << 18) | ((unsigned)(p[1] & 0x3F) << 12) | ((unsigned)(p[2] & 0x3F) << 6) |
           (p[3] & 0x3F);
}

static void gb_pyjson__string(const char *s, size_t len, bool ensure_ascii, GbStr *out)
{
    const unsigned char *p = (const unsigned char *)s;
    gb_str_append_n(out, "\"", 1);
    size_t i = 0;
    while (i < len) {
        unsigned char c = p[i];
        switch (c) {
        case '"':
            gb_str_append(out, "\\\"");
            i++;
            continue;
        case '\\':
            gb_str_append(out, "\\\\");
            i++;
            continue;
        case '\n':
            gb_str_append(out, "\\n");
            i++;
            continue;
        case '\r':
            gb_str_append(out, "\\r");
            i++;
            continue;
        case '\t':
            gb_str_append(out, "\\t");
            i++;
            continue;
        case '\b':
            gb_str_append(out, "\\b");
            i++;
            continue;
        case '\f':
            gb_str_append(out, "\\f");
            i++;
            continue;
        default:
            break;
        }
        if (c < 0x20) {
            gb_str_appendf(out, "\\u%04x", c);
            i++;
            continue;
        }
        if (!ensure_ascii) {
            /* json.dumps(ensure_ascii=False) escapes only quotes, backslashes and controls. */
            size_t j = i;
            while (j < len && p[j] >= 0x20 && p[j] != '"' && p[j] != '\\') j++;
            gb_str_append_n(out, s + i, j - i);
            i = j;
            continue;
        }
        if (c >= 0x20 && c < 0x7F) {
            gb_str_append_n(out, s + i, 1);
            i++;
            continue;
        }
        size_t n;
        unsigned cp = gb_pyjson__utf8(p + i, &n);
        if (cp >= 0x10000) {
            cp -= 0x10000;
            gb_str_appendf(out, "\\u%04x\\u%04x", 0xD800 + (cp >> 10), 0xDC00 + (cp & 0x3FF));
        } else {
            gb_str_appendf(out, "\\u%04x", cp);
        }
        i += n;
    }
    gb_str_append_n(out, "\"", 1);
}

/* Python's float repr: the shortest digits that round-trip, fixed notation when the
 * decimal exponent is in (-4, 16], otherwise d.ddde+XX. */
static void gb_pyjson__real(double x, GbStr *out)
{
    if (isnan(x)) {
        gb_str_append(out, "NaN");
        return;
    }
    if (isinf(x)) {
        gb_str_append(out, x < 0 ? "-Infinity" : "Infinity");
        return;
    }
    char buf[64];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*e", prec - 1, x);
        if (strtod(buf, NULL) == x) break;
    }
    /* buf = [-]d[.ddd]e[+-]XX */
    const char *q = buf;
    bool neg = false;
    if (*q == '-') {
        neg = true;
        q++;
    }
    char digits[32];
    size_t nd = 0;
    while (*q && *q != 'e') {
        if (*q != '.') digits[nd++] = *q;
        q++;
    }
    int exp10 = atoi(q + 1);
    while (nd > 1 && digits[nd - 1] == '0') nd--;
    digits[nd] = '\0';
    int decpt = exp10 + 1;
    if (neg) gb_str_append(out, "-");
    if (decpt > -4 && decpt <= 16) {
        if (decpt <= 0) {
            gb_str_append(out, "0.");
            for (int i = 0; i < -decpt; i++) gb_str_append(out, "0");
            gb_str_append(out, digits);
        } else if ((size_t)decpt >= nd) {
            gb_str_append(out, digits);
            for (size_t i = nd; i < (size_t)decpt; i++) gb_str_append(out, "0");
            gb_str_append(out, ".0");
        } else {
            gb_str_append_n(out, digits, (size_t)decpt);
            gb_str_append(out, ".");
            gb_str_append(out, digits + decpt);
        }
    } else {
        gb_str_append_n(out, digits, 1);
        if (nd > 1) {
            gb_str_append(out, ".");
            gb_str_append(out, digits + 1);
        }
        int e = decpt - 1;
        gb_str_appendf(out, "e%c%02d", e < 0 ? '-' : '+', e < 0 ? -e : e);
    }
}

static void gb_pyjson__dump(const json_t *v, GbPyJsonStyle style, int level, GbStr *out)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: {
        if (json_object_size(v) == 0) {
            gb_str_append(out, "{}");
            return;
        }
        gb_str_append(out, "{");
        bool first = true;
        const char *key;
        json_t *val;
        /* json_object_foreach takes a non-const object; it does not modify it. */
        json_t *obj = (json_t *)v;
        json_object_foreach(obj, key, val)
        {
            if (!first) gb_str_append(out, style.indent >= 0 || style.compact ? "," : ", ");
            first = false;
            if (style.indent >= 0) gb_pyjson__newline(out, style.indent, level + 1);
            gb_pyjson__string(key, strlen(key), style.ensure_ascii, out);
            gb_str_append(out, style.compact ? ":" : ": ");
            gb_pyjson__dump(val, style, level + 1, out);
        }
        if (style.indent >= 0) gb_pyjson__newline(out, style.indent, level);
        gb_str_append(out, "}");
        return;
    }
    case JSON_ARRAY: {
        size_t n = json_array_size(v);
        if (n == 0) {
            gb_str_append(out, "[]");
            return;
        }
        gb_str_append(out, "[");
        for (size_t i = 0; i < n; i++) {
            if (i) gb_str_append(out, style.indent >= 0 || style.compact ? "," : ", ");
            if (style.indent >= 0) gb_pyjson__newline(out, style.indent, level + 1);
            gb_pyjson__dump(json_array_get(v, i), style, level + 1, out);
        }
        if (style.indent >= 0) gb_pyjson__newline(out, style.indent, level);
        gb_str_append(out, "]");
        return;
    }
    case JSON_STRING:
        gb_pyjson__string(json_string_value(v), json_string_length(v), style.ensure_ascii, out);
        return;
    case JSON_INTEGER:
        gb_str_appendf(out, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
        return;
    case JSON_REAL:
        if (style.fixed6)
            gb_json_number(out, json_real_value(v));
        else
            gb_pyjson__real(json_real_value(v), out);
        return;
    case JSON_TRUE:
        gb_str_append(out, "true");
        return;
    case JSON_FALSE:
        gb_str_append(out, "false");
        return;
    case JSON_NULL:
        gb_str_append(out, "null");
        return;
    }
}

void gb_pyjson_dump(const json_t *v, GbPyJsonStyle style, GbStr *out)
{
    if (style.compact) style.indent = -1;
    gb_pyjson__dump(v, style, 0, out);
}

static size_t gb_json__ws(const char *t, size_t len, size_t i)
{
    while (i < len && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r')) i++;
    return i;
}

/* i is at the opening quote; returns the index after the closing quote. */
static size_t gb_json__skip_string(const char *t, size_t len, size_t i)
{
    i++;
    while (i < len && t[i] != '"') i += t[i] == '\\' ? 2 : 1;
    return i < len ? i + 1 : len;
}

static size_t gb_json__skip_value(const char *t, size_t len, size_t i)
{
    if (i >= len) return len;
    if (t[i] == '"') return gb_json__skip_string(t, len, i);
    if (t[i] == '{' || t[i] == '[') {
        int depth = 0;
        while (i < len) {
            char c = t[i];
            if (c == '"') {
                i = gb_json__skip_string(t, len, i);
                continue;
            }
            if (c == '{' || c == '[') depth++;
            if (c == '}' || c == ']') {
                depth--;
                if (depth == 0) return i + 1;
            }
            i++;
        }
        return len;
    }
    while (i < len && !strchr(",}] \t\r\n", t[i])) i++;
    return i;
}

bool gb_json_spans(const char *text, size_t len, GbJsonSpanArray *spans)
{
    size_t i = gb_json__ws(text, len, 0);
    if (i >= len || (text[i] != '{' && text[i] != '[')) return false;
    bool is_object = text[i] == '{';
    char close = is_object ? '}' : ']';
    i = gb_json__ws(text, len, i + 1);
    while (i < len && text[i] != close) {
        if (is_object) {
            i = gb_json__skip_string(text, len, i);
            i = gb_json__ws(text, len, i);
            if (i < len && text[i] == ':') i++;
            i = gb_json__ws(text, len, i);
        }
        GbJsonSpan s = {i, gb_json__skip_value(text, len, i)};
        gb_array_push(spans, s);
        i = gb_json__ws(text, len, s.end);
        if (i < len && text[i] == ',') i = gb_json__ws(text, len, i + 1);
    }
    return true;
}

char *gb_json_compact(const json_t *v)
{
    GbStr s;
    gb_str_init(&s);
    GbPyJsonStyle style = {.ensure_ascii = false, .indent = -1, .compact = true};
    gb_pyjson_dump(v, style, &s);
    return gb_str_take(&s);
}

const char *gb_json_type_name(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT:
        return "an object";
    case JSON_ARRAY:
        return "an array";
    case JSON_STRING:
        return "a string";
    case JSON_INTEGER:
        return "an integer";
    case JSON_REAL:
        return "a number";
    case JSON_TRUE:
    case JSON_FALSE:
        return "a boolean";
    case JSON_NULL:
        return "null";
    }
    return "?";
}
