#pragma once
/* PCG32 (XSH-RR, 64-bit state, selectable stream), after M. E. O'Neill's published
 * algorithm. A GbRng lives in caller storage; it is not shared between threads.
 * Streams for the evolution are keyed on (seed, task, generation, individual) with
 * gb_rng_init_keyed, never on thread ids or time. */
#include <stdint.h>

typedef struct {
    uint64_t state;
    uint64_t inc; /* always odd */
} GbRng;

/* Seed with initial state and stream selector, as pcg32_srandom_r. */
void gb_rng_seed(GbRng *rng, uint64_t initstate, uint64_t initseq);
/* Next 32 uniformly distributed bits. */
uint32_t gb_rng_next(GbRng *rng);
/* Uniform integer in [0, bound) without modulo bias; bound > 0. */
uint32_t gb_rng_bounded(GbRng *rng, uint32_t bound);
/* Uniform double in [0, 1). */
double gb_rng_double(GbRng *rng);
/* Seed a stream derived from a user seed and up to three keys (task hash, generation,
 * individual): the same keys always give the same stream. */
void gb_rng_init_keyed(GbRng *rng, uint64_t seed, uint64_t k1, uint64_t k2, uint64_t k3);
