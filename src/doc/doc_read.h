#pragma once
/* Typed reading of jansson values for the parsers of src/doc/ (only the modules of this folder
 * include it: jansson stays inside the documents' owners). Every reader names the key and, through
 * `where`, the place in the document ("line 3", "similarity.json: \"pairs\"[2]") in its message. */
#include <jansson.h>
#include <stdbool.h>

#include "src/base/util.h"

/* The string at key (owned copy in *out). nullable: null is accepted (*out = NULL). */
bool gb_doc_read_string(const json_t *obj, const char *key, bool nullable, const char *where, char **out, GbError *err);
/* The integer at key (a JSON integer, not a real). */
bool gb_doc_read_integer(const json_t *obj, const char *key, const char *where, long long *out, GbError *err);
/* The number at key (an integer or a real); nullable: null is accepted as NaN. */
bool gb_doc_read_number(const json_t *obj, const char *key, bool nullable, const char *where, double *out,
                        GbError *err);
/* The boolean at key. */
bool gb_doc_read_bool(const json_t *obj, const char *key, const char *where, bool *out, GbError *err);
/* The value at key, which must have the JSON type `type` (borrowed). */
const json_t *gb_doc_read_typed(const json_t *obj, const char *key, json_type type, const char *where, GbError *err);
/* Refuse a key of obj that is not in keys (a NULL-terminated list). */
bool gb_doc_only_keys(const json_t *obj, const char *const *keys, const char *where, GbError *err);
/* Parse text (a whole JSON value) or fail with "NAME:LINE: malformed JSON: ..." in err. Owned. */
json_t *gb_doc_load(const char *text, size_t len, const char *name, GbError *err);
