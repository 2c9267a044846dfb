#pragma once
/* Writing JSON text by hand into a GbStr, for fields that other modules attach to tasks
 * (gb_task_set_field takes JSON text). Deterministic formatting: numbers are printed with
 * gb_json_number's fixed rules so outputs are byte-identical across runs and thread counts. */
#include <stdbool.h>

#include "src/base/util.h"

/* Append s as a JSON string literal (quoted, escaped; NULL → null). The text written is always
 * valid UTF-8: every byte of s that starts no well-formed UTF-8 sequence is written as U+FFFD. */
void gb_json_string(GbStr *out, const char *s);
/* Options of gb_json_string_as, beyond what gb_json_string does: \u escapes with upper-case hex
 * digits ("\u001B"), and every character above U+007F escaped as \uXXXX (a UTF-16 surrogate pair
 * above U+FFFF), so the text is pure ASCII. Together they write strings as jansson's json_dumps
 * does (without and with JSON_ENSURE_ASCII). */
enum { GB_JSON_HEX_UPPER = 1u << 0, GB_JSON_ASCII = 1u << 1 };
/* gb_json_string with the options in flags (a bitwise or of the above; 0: gb_json_string). */
void gb_json_string_as(GbStr *out, const char *s, unsigned flags);
/* Append a number: integers exactly, other finite values with up to 6 decimals
 * (trailing zeros dropped), non-finite values as null. */
void gb_json_number(GbStr *out, double v);
/* Append a number with exactly `decimals` decimals (printf "%.*f"); non-finite values as null. */
void gb_json_fixed(GbStr *out, double v, int decimals);
/* Append a real with `digits` significant digits (printf "%.*g"), always with a '.' or an
 * exponent ("3.0", "1e-5": no '+' and no leading zeros in the exponent), as jansson writes reals
 * with JSON_REAL_PRECISION(digits); non-finite values as null. */
void gb_json_real(GbStr *out, double v, int digits);
/* Append a number as the documents built with jansson write one: an integer when whole and below
 * 1e15 in size, else gb_json_real with `digits`; non-finite values as null. */
void gb_json_number_real(GbStr *out, double v, int digits);
/* Append a number with up to `digits` significant digits (printf "%.*g": a whole value without a
 * '.', "1e-05" for small ones); non-finite values as null. */
void gb_json_general(GbStr *out, double v, int digits);
/* Append an integer. */
void gb_json_integer(GbStr *out, long long v);
/* Append true or false. */
void gb_json_bool(GbStr *out, bool v);
/* Append "key": (with a leading comma unless *first; clears *first). */
void gb_json_key(GbStr *out, const char *key, bool *first);
