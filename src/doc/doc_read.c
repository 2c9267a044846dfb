#include "src/doc/doc_read.h"

#include <math.h>
#include <string.h>

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

/* The value at key, or NULL with "WHERE: missing key" in err. */
static const json_t *gb_doc__get(const json_t *obj, const char *key, const char *where, GbError *err)
{
    const json_t *v = json_object_get(obj, key);
    if (!v) gb_error_set(err, "%s: missing key \"%s\"", where, key);
    return v;
}

static bool gb_doc__mistyped(const json_t *v, const char *key, const char *want, const char *where, GbError *err)
{
    gb_error_set(err, "%s: \"%s\" must be %s, not %s", where, key, want, gb_doc__type_name(v));
    return false;
}

bool gb_doc_read_string(const json_t *obj, const char *key, bool nullable, const char *where, char **out, GbError *err)
{
    *out = NULL;
    const json_t *v = gb_doc__get(obj, key, where, err);
    if (!v) return false;
    if (nullable && json_is_null(v)) return true;
    if (!json_is_string(v)) return gb_doc__mistyped(v, key, nullable ? "a string or null" : "a string", where, err);
    *out = gb_strndup(json_string_value(v), json_string_length(v));
    return true;
}

bool gb_doc_read_integer(const json_t *obj, const char *key, const char *where, long long *out, GbError *err)
{
    *out = 0;
    const json_t *v = gb_doc__get(obj, key, where, err);
    if (!v) return false;
    if (!json_is_integer(v)) return gb_doc__mistyped(v, key, "an integer", where, err);
    *out = json_integer_value(v);
    return true;
}

bool gb_doc_read_number(const json_t *obj, const char *key, bool nullable, const char *where, double *out, GbError *err)
{
    *out = NAN;
    const json_t *v = gb_doc__get(obj, key, where, err);
    if (!v) return false;
    if (nullable && json_is_null(v)) return true;
    if (!json_is_number(v)) return gb_doc__mistyped(v, key, nullable ? "a number or null" : "a number", where, err);
    *out = json_number_value(v);
    return true;
}

bool gb_doc_read_bool(const json_t *obj, const char *key, const char *where, bool *out, GbError *err)
{
    *out = false;
    const json_t *v = gb_doc__get(obj, key, where, err);
    if (!v) return false;
    if (!json_is_boolean(v)) return gb_doc__mistyped(v, key, "a boolean", where, err);
    *out = json_is_true(v);
    return true;
}

const json_t *gb_doc_read_typed(const json_t *obj, const char *key, json_type type, const char *where, GbError *err)
{
    const json_t *v = gb_doc__get(obj, key, where, err);
    if (!v) return NULL;
    if (json_typeof(v) != type) {
        static const char *const names[] = {
            [JSON_OBJECT] = "an object",   [JSON_ARRAY] = "an array",     [JSON_STRING] = "a string",
            [JSON_INTEGER] = "an integer", [JSON_REAL] = "a real number", [JSON_TRUE] = "a boolean",
            [JSON_FALSE] = "a boolean",    [JSON_NULL] = "null"};
        gb_doc__mistyped(v, key, names[type], where, err);
        return NULL;
    }
    return v;
}

bool gb_doc_only_keys(const json_t *obj, const char *const *keys, const char *where, GbError *err)
{
    const char *k;
    const json_t *v;
    json_object_foreach((json_t *)obj, k, v)
    {
        bool known = false;
        for (size_t i = 0; keys[i] && !known; i++) known = strcmp(keys[i], k) == 0;
        if (!known) {
            gb_error_set(err, "%s: unknown key \"%s\"", where, k);
            return false;
        }
    }
    return true;
}

json_t *gb_doc_load(const char *text, size_t len, const char *name, GbError *err)
{
    json_error_t jerr;
    json_t *v = json_loadb(text, len, JSON_DECODE_ANY, &jerr);
    if (!v) gb_error_set(err, "%s:%d: malformed JSON: %s", name, jerr.line, jerr.text);
    return v;
}
