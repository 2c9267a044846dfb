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
 * stdin (gb_perturb_stdin): the line structure is kept; each whitespace-separated token is
 * perturbed with probability 1/3: an integer nudged by 1..3 (a non-negative one stays
 * non-negative, a positive one positive), a decimal number nudged in its last digit, a word
 * has one letter changed within its case; whitespace is kept byte for byte.
 *
 * Thread-safety: the caller's parser and rng. */
#include <tree_sitter/api.h>

#include "src/base/rng.h"

/* The perturbed argument list (owned), or NULL when args is not a literal argument list
 * (src/model/calls.h). */
char *gb_perturb_args(TSParser *parser, const char *args, GbRng *rng, int scale);
/* The perturbed stdin text (owned). */
char *gb_perturb_stdin(const char *text, GbRng *rng);
