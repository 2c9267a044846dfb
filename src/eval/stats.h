#pragma once
/* The statistics of genebench eval: pass@k, the paired comparison of the original and a
 * hardened version, the relative drop with a bootstrap confidence interval. Pure functions,
 * thread-safe. */
#include <stddef.h>
#include <stdint.h>

/* Unbiased pass@k of one item with n samples of which c passed: 1 - C(n-c, k) / C(n, k),
 * computed as 1 - prod_{i=n-c+1..n} (1 - k/i) (Chen et al. 2021). NaN when k > n or n == 0. */
double gb_pass_at_k(long n, long c, long k);

/* Per-item outcome of the original vs a version: an item counts as solved when at least half
 * of its samples passed (with one sample: when it passed). */
typedef struct {
    size_t both_pass, lost, gained, both_fail;
} GbPaired;
void gb_paired_count(const double *p_orig, const double *p_hard, size_t n, GbPaired *out);

/* (mean(p_orig) - mean(p_hard)) / mean(p_orig); NaN when mean(p_orig) == 0. */
double gb_relative_drop(const double *p_orig, const double *p_hard, size_t n);

/* The relative drop over n paired items with a percentile bootstrap interval: `resamples`
 * resamples of the items (with replacement, PCG32 seeded with seed), the drop of each (skipped,
 * and counted in `undefined`, when its original mean is 0), the 2.5 and 97.5 percentiles by
 * linear interpolation (NaN when no resample is defined). */
typedef struct {
    double drop, lo, hi;
    size_t resamples, undefined;
} GbDropCI;
void gb_drop_bootstrap(const double *p_orig, const double *p_hard, size_t n, size_t resamples, uint64_t seed,
                       GbDropCI *out);

/* The q-quantile (0..1) of sorted[0..n) by linear interpolation (numpy's default); NaN when n == 0. */
double gb_quantile_sorted(const double *sorted, size_t n, double q);
