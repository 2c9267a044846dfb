#pragma once
/* Type-preserving perturbation of a call's literal arguments and of a stdio case's input, for
 * the equivalence check beyond the tests (nsga2/equiv.h). Deterministic: the result depends
 * only on the input text and the rng's state (keyed by the caller on seed, task and input).
 *
 * Arguments (gb_perturb_args), each value keeps its type, recursively:
 *   int      nudged (+-1, +-2..5), doubled, halved or kept; a non-negative int stays
 *            non-negative; bool flipped or kept; None and ... kept
 *   float    scaled (x0.5, x1.5), shifted (+0.25, +1, -0.5) or kept
 *   str      (and bytes) a character changed within its class (digit, lower, upper), a
 *            character inserted or dropped; escape sequences are kept whole; f-strings kept
 *   list, set, dict   elements (pairs) dropped, duplicated or perturbed; an empty set is set()
 *   tuple    same length, elements perturbed (tuples are often records)
 *   calls of the data constructors (set(...), frozenset(...), ...)   arguments perturbed
 *   anything else (binary operators, concatenated strings) kept as written
 * With scale k > 1 ("larger" inputs, for the cost bound) numbers are kept and every list, set,
 * dict and string is made k times longer (its elements repeated, the copies perturbed), so a
 * program whose run time grows faster than the original's shows it.
 *
 * Grown inputs (gb_perturb_grow, for the cost bound): every argument that is a list, set, dict
 * or string (or a tuple of them) made about target elements (characters) long, its elements
 * repeated and the copies perturbed as at scale k above, except that the r-th copy of an integer
 * element is perturbed and shifted by its position (distinct values, as real large inputs have); an argument the caller
 * marks as a count (a non-negative integer the program loops on, gb_perturb_counts) raised to target. Large enough that
 * an O(n) -> O(n^2) change costs far more than a constant factor.
 *
 * stdin (gb_perturb_stdin): the line structure is kept; each whitespace-separated token is
 * perturbed with probability 1/3: an integer nudged by 1..3 (a non-negative one stays
 * non-negative, a positive one positive), a decimal number nudged in its last digit, a word
 * has one letter changed within its case; whitespace is kept byte for byte.
 *
 * Thread-safety: the caller's parser and rng. */
#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "src/base/rng.h"

/* The perturbed argument list (owned), or NULL when args is not a literal argument list
 * (src/model/calls.h). */
char *gb_perturb_args(TSParser *parser, const char *args, GbRng *rng, int scale);
/* The grown argument list (owned; gb_perturb_grow above), or NULL when args is not literal data.
 * counts: bit i set when positional argument i is a count. The text stays under about
 * GB_PERTURB_GROW_BYTES per argument. */
#define GB_PERTURB_GROW_BYTES (256u * 1024u)
char *gb_perturb_grow(TSParser *parser, const char *args, GbRng *rng, size_t target, uint32_t counts);
/* The positional parameters (bit i: parameter i, the first 32) of the function named entry in
 * source that appear in the arguments of a range(...) call in its body. */
uint32_t gb_perturb_counts(TSParser *parser, const char *source, const char *entry);
/* The perturbed stdin text (owned). */
char *gb_perturb_stdin(const char *text, GbRng *rng);
