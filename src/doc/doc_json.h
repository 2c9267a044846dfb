#pragma once
/* Shared by the document modules of src/doc (not for other layers): the one way their parsers read
 * typed fields out of parsed JSON, with messages that name the file (or line) and the key, and
 * writing numbers and strings the way the jansson-built documents do. jansson stays inside
 * src/doc. A parser fills a GbDocReader with the name and err, calls the readers in a row (each
 * does nothing once a problem was found) and looks at ok at the end. */
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "src/base/util.h"

/* A parse in progress: the first problem goes to err, later ones are ignored. */
typedef struct {
    const char *name; /* the file, for messages */
    GbError *err;
    bool ok;
} GbDocReader;

/* obj[key] (at `where`, e.g. "versions[1]." for messages) of the given kind (borrowed); on a
 * missing key or a wrong type, ok becomes false, err says "<name>: \"<where><key>\": expected
 * <what> (missing)" or "..., not <the type found>" and the output is left as it was. A size is an
 * integer >= 0; a real is any number; a rate is a number or null (NAN); a nullable string accepts
 * null (NULL). */
json_t *gb_doc_get(GbDocReader *c, const json_t *obj, const char *where, const char *key, json_type type,
                   const char *what);
void gb_doc_size(GbDocReader *c, const json_t *obj, const char *where, const char *key, size_t *out);
void gb_doc_long(GbDocReader *c, const json_t *obj, const char *where, const char *key, long *out);
void gb_doc_real(GbDocReader *c, const json_t *obj, const char *where, const char *key, double *out);
void gb_doc_rate(GbDocReader *c, const json_t *obj, const char *where, const char *key, double *out);
void gb_doc_bool(GbDocReader *c, const json_t *obj, const char *where, const char *key, bool *out);
/* Owned copy (NULL for null when nullable). */
void gb_doc_string(GbDocReader *c, const json_t *obj, const char *where, const char *key, bool nullable, char **out);
/* Borrowed from obj (NULL for null when nullable). */
void gb_doc_string_ref(GbDocReader *c, const json_t *obj, const char *where, const char *key, bool nullable,
                       const char **out);
/* Refuse a key of obj (at `where`) that is not in keys (NULL-terminated): "\"<where><key>\":
 * unknown key". Nothing when obj is NULL. */
void gb_doc_keys(GbDocReader *c, const json_t *obj, const char *where, const char *const *keys);
/* Parse text (a whole JSON value; owned, NULL on failure) or fail with "malformed JSON at line
 * L: ...". */
json_t *gb_doc_parse(GbDocReader *c, const char *text, size_t len);
/* Set err for a problem that is not one key's type. */
void gb_doc_fail(GbDocReader *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A number as the documents write it: null when not finite, an integer when whole (and below
 * 1e15 in size), else a real (dumped with JSON_REAL_PRECISION(12)). New reference. */
json_t *gb_doc_number(double v);
/* A string, NULL → null; bytes that are not UTF-8 become U+FFFD. New reference. */
json_t *gb_doc_str(const char *s);
