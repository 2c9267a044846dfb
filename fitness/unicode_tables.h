#pragma once
/* Unicode classification tables (generated, see fitness/gen_unicode_tables.py): sorted,
 * non-overlapping inclusive ranges of non-ASCII code points. Immutable; thread-safe. */
#include <stddef.h>
#include <stdint.h>

extern const uint32_t gb_uni_word[][2]; /* Python re \w */
extern const size_t gb_uni_word_len;
extern const uint32_t gb_uni_digit[][2]; /* Python re \d */
extern const size_t gb_uni_digit_len;
extern const uint32_t gb_uni_upper[][2]; /* str.isupper */
extern const size_t gb_uni_upper_len;
extern const uint32_t gb_uni_lower[][2]; /* str.islower */
extern const size_t gb_uni_lower_len;
