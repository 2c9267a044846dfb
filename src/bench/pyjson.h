#pragma once
/* JSON helpers private to the task I/O modules (src/bench/task_io.c, src/bench/upstream.c,
 * src/bench/record.c): the only header besides those files that mentions json_t.
 *  - gb_pyjson_dump: serialise a jansson value exactly as Python's json.dumps does, so that
 *    upstream benchmark files can be written back byte for byte.
 *  - gb_json_spans: the byte ranges of the members of a top-level JSON object or array in
 *    the original text, so unknown fields can be kept verbatim and array elements can be
 *    given line numbers.
 * Stateless and thread-safe. */
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "src/base/util.h"

/* Which json.dumps call to imitate. */
typedef struct {
    bool ensure_ascii; /* json.dumps default True: non-ASCII and DEL as \uXXXX */
    int indent;        /* < 0: no indent (items ", " and keys ": "); >= 0: indent=N (items ",") */
    bool compact;      /* separators=(",", ":") and no indent (overrides indent) */
    bool fixed6;       /* reals as gb_json_number writes them (src/base/json_write.h: integral values
                        * exactly, others with up to 6 decimals) instead of Python's repr */
} GbPyJsonStyle;

/* Append the serialisation of v to out. Floats are written as Python's repr would
 * (shortest round-trip form), integers in decimal, keys in the object's order. */
void gb_pyjson_dump(const json_t *v, GbPyJsonStyle style, GbStr *out);

/* The JSON type of v for error messages ("an object", "a string", ...). Static string. */
const char *gb_json_type_name(const json_t *v);

/* A member of a top-level object or array: where its value starts and ends in the text. */
typedef struct {
    size_t start; /* first byte of the value */
    size_t end;   /* one past its last byte */
} GbJsonSpan;

/* Fill spans with the value ranges of the members of the object or array that starts at
 * the first non-blank byte of text[0..len), in textual order. The text must already be known
 * to be valid JSON (parsed by jansson first). Returns false when the top-level value is
 * neither an object nor an array. spans is caller storage (append). */
typedef GbArray(GbJsonSpan) GbJsonSpanArray;
bool gb_json_spans(const char *text, size_t len, GbJsonSpanArray *spans);

/* Compact JSON text of v (owned): no spaces, UTF-8 kept, key order kept, floats in their
 * shortest round-trip form. Any value (not only objects/arrays). */
char *gb_json_compact(const json_t *v);
