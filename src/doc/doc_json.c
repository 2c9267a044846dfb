/* Typed reading and writing shared by the document modules (doc_json.h). */
#include "src/doc/doc_json.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

void gb_doc_fail(GbDocReader *c, const char *fmt, ...)
{
    if (!c->ok) return;
    c->ok = false;
    va_list ap;
    va_start(ap, fmt);
    char *msg = gb_vasprintf(fmt, ap);
    va_end(ap);
    gb_error_set(c->err, "%s: %s", c->name, msg);
    free(msg);
}

/* "a string", "an integer", ... for messages. */
static const char *gb_doc__type_name(const json_t *v)
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
        return "a real number";
    case JSON_TRUE:
    case JSON_FALSE:
        return "a boolean";
    case JSON_NULL:
        return "null";
    }
    return "a value";
}

json_t *gb_doc_get(GbDocReader *c, const json_t *obj, const char *where, const char *key, json_type type,
                   const char *what)
{
    if (!c->ok) return NULL;
    json_t *v = json_object_get(obj, key);
    bool good = v && (json_typeof(v) == type || (type == JSON_REAL && json_is_number(v)) ||
                      (type == JSON_TRUE && json_is_boolean(v)));
    if (!good) {
        if (v)
            gb_doc_fail(c, "\"%s%s\": expected %s, not %s", where, key, what, gb_doc__type_name(v));
        else
            gb_doc_fail(c, "\"%s%s\": expected %s (missing)", where, key, what);
        return NULL;
    }
    return v;
}

void gb_doc_size(GbDocReader *c, const json_t *obj, const char *where, const char *key, size_t *out)
{
    json_t *v = gb_doc_get(c, obj, where, key, JSON_INTEGER, "a count (an integer >= 0)");
    if (!v) return;
    if (json_integer_value(v) < 0) {
        gb_doc_fail(c, "\"%s%s\": expected a count (an integer >= 0)", where, key);
        return;
    }
    *out = (size_t)json_integer_value(v);
}

void gb_doc_long(GbDocReader *c, const json_t *obj, const char *where, const char *key, long *out)
{
    json_t *v = gb_doc_get(c, obj, where, key, JSON_INTEGER, "an integer");
    if (v) *out = (long)json_integer_value(v);
}

void gb_doc_real(GbDocReader *c, const json_t *obj, const char *where, const char *key, double *out)
{
    json_t *v = gb_doc_get(c, obj, where, key, JSON_REAL, "a number");
    if (v) *out = json_number_value(v);
}

void gb_doc_rate(GbDocReader *c, const json_t *obj, const char *where, const char *key, double *out)
{
    if (c->ok && json_is_null(json_object_get(obj, key))) {
        *out = NAN;
        return;
    }
    json_t *v = gb_doc_get(c, obj, where, key, JSON_REAL, "a number or null");
    if (v) *out = json_number_value(v);
}

void gb_doc_bool(GbDocReader *c, const json_t *obj, const char *where, const char *key, bool *out)
{
    json_t *v = gb_doc_get(c, obj, where, key, JSON_TRUE, "true or false");
    if (v) *out = json_is_true(v);
}

void gb_doc_string_ref(GbDocReader *c, const json_t *obj, const char *where, const char *key, bool nullable,
                       const char **out)
{
    if (nullable && c->ok && json_is_null(json_object_get(obj, key))) {
        *out = NULL;
        return;
    }
    json_t *v = gb_doc_get(c, obj, where, key, JSON_STRING, nullable ? "a string or null" : "a string");
    if (v) *out = json_string_value(v);
}

void gb_doc_string(GbDocReader *c, const json_t *obj, const char *where, const char *key, bool nullable, char **out)
{
    const char *s = NULL;
    bool was_ok = c->ok;
    gb_doc_string_ref(c, obj, where, key, nullable, &s);
    if (was_ok && c->ok) *out = s ? gb_strdup(s) : NULL;
}

void gb_doc_keys(GbDocReader *c, const json_t *obj, const char *where, const char *const *keys)
{
    if (!c->ok || !obj) return;
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)obj, k, v)
    {
        bool known = false;
        for (size_t i = 0; keys[i] && !known; i++) known = strcmp(keys[i], k) == 0;
        if (!known) {
            gb_doc_fail(c, "\"%s%s\": unknown key", where, k);
            return;
        }
    }
}

json_t *gb_doc_parse(GbDocReader *c, const char *text, size_t len)
{
    json_error_t jerr;
    json_t *v = json_loadb(text, len, JSON_DECODE_ANY, &jerr);
    if (!v) gb_doc_fail(c, "malformed JSON at line %d: %s", jerr.line, jerr.text);
    return v;
}

json_t *gb_doc_number(double v)
{
    if (!isfinite(v)) return json_null();
    if (v == floor(v) && fabs(v) < 1e15) return json_integer((json_int_t)v);
    return json_real(v);
}

/* The length of the UTF-8 sequence at s (1..4), or 0 when it is not one. */
static size_t gb_doc__utf8_len(const unsigned char *s)
{
    size_t bad;
    size_t n = s[0] < 0x80 ? 1 : (s[0] & 0xE0) == 0xC0 ? 2 : (s[0] & 0xF0) == 0xE0 ? 3 : (s[0] & 0xF8) == 0xF0 ? 4 : 0;
    for (size_t i = 1; i < n; i++)
        if (!s[i]) return 0;
    return n && gb_utf8_valid((const char *)s, n, &bad) ? n : 0;
}

json_t *gb_doc_str(const char *s)
{
    if (!s) return json_null();
    json_t *j = json_string(s);
    if (j) return j;
    GbStr fixed;
    gb_str_init(&fixed);
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        size_t n = gb_doc__utf8_len(p);
        if (n) {
            gb_str_append_n(&fixed, (const char *)p, n);
            p += n;
        } else {
            gb_str_append(&fixed, "\xEF\xBF\xBD");
            p++;
        }
    }
    j = json_string(fixed.data ? fixed.data : "");
    gb_str_destroy(&fixed);
    return j;
}
