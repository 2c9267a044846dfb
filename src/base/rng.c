#include "src/base/rng.h"

#define GB_PCG_MULT 6364136223846793005ULL

uint32_t gb_rng_next(GbRng *rng)
{
    uint64_t old = rng->state;
    rng->state = old * GB_PCG_MULT + rng->inc;
    uint32_t xorshifted = (uint32_t)(((old >> 18u) ^ old) >> 27u);
    uint32_t rot = (uint32_t)(old >> 59u);
    return (xorshifted >> rot) | (xorshifted << ((-rot) & 31u));
}

void gb_rng_seed(GbRng *rng, uint64_t initstate, uint64_t initseq)
{
    rng->state = 0u;
    rng->inc = (initseq << 1u) | 1u;
    gb_rng_next(rng);
    rng->state += initstate;
    gb_rng_next(rng);
}

uint32_t gb_rng_bounded(GbRng *rng, uint32_t bound)
{
    /* Rejection of the low values that would bias the modulo (as pcg32_boundedrand_r). */
    uint32_t threshold = (-bound) % bound;
    for (;;) {
        uint32_t r = gb_rng_next(rng);
        if (r >= threshold) return r % bound;
    }
}

double gb_rng_double(GbRng *rng)
{
    uint64_t hi = gb_rng_next(rng) >> 5; /* 27 bits */
    uint64_t lo = gb_rng_next(rng) >> 6; /* 26 bits */
    return (double)(hi * 67108864.0 + lo) / 9007199254740992.0;
}

static uint64_t gb_rng__mix(uint64_t x)
{
    /* splitmix64 finaliser: spreads nearby keys over the whole state space. */
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

void gb_rng_init_keyed(GbRng *rng, uint64_t seed, uint64_t k1, uint64_t k2, uint64_t k3)
{
    uint64_t s = gb_rng__mix(seed);
    s = gb_rng__mix(s ^ k1);
    s = gb_rng__mix(s ^ k2);
    s = gb_rng__mix(s ^ k3);
    gb_rng_seed(rng, s, gb_rng__mix(s ^ 0xDA3E39CB94B95BDBULL));
}
