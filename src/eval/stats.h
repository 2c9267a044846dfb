#pragma once
/* The statistics of genebench eval: pass@k and its interval, the paired comparison of the
 * original and a hardened version (counts, exact McNemar test), the relative and absolute drop
 * with bootstrap confidence intervals, and ReCode's robust metrics over several versions. Pure
 * functions, thread-safe. */
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
    double abs, abs_lo, abs_hi; /* mean(p_orig) - mean(p_hard), a fraction, and its interval over
                                   every resample (always defined when n > 0) */
    size_t resamples, undefined;
} GbDropCI;
void gb_drop_bootstrap(const double *p_orig, const double *p_hard, size_t n, size_t resamples, uint64_t seed,
                       GbDropCI *out);

/* The mean of x[0..n) with a percentile bootstrap 95% interval over `resamples` resamples of
 * the values (PCG32 seeded with seed, its own stream); *mean, *lo, *hi are NaN when n == 0. */
void gb_mean_bootstrap(const double *x, size_t n, size_t resamples, uint64_t seed, double *mean, double *lo,
                       double *hi);

/* The two-sided exact McNemar test of paired outcomes with `lost` items solved only on the
 * original and `gained` solved only on the version: min(1, 2 P(X <= min(lost, gained))) with X
 * ~ Binomial(lost + gained, 1/2); 1 when lost + gained == 0. */
double gb_mcnemar_exact(size_t lost, size_t gained);

/* ReCode's counts of one item over s versions with n sample indices (Wang et al. 2022). pass
 * holds (s + 1) rows of n: row 0 the original (nominal), row j the j-th version; each value 1
 * (the sample passed), 0 (it did not) or -1 (not scored). Only the sample indices scored in
 * every row count: *used gets them, *all their number that pass on every version (rows 1..s),
 * *worse those that pass on the original and fail on some version, *better those that fail on
 * the original and pass on some version. Robust Pass_s@k of the item is
 * gb_pass_at_k(used, all, k); Robust Relative_s@k is the sum of gb_pass_at_k(used, worse, k)
 * and gb_pass_at_k(used, better, k), averaged over items. */
typedef struct {
    long used, all, worse, better;
} GbRobustCount;
void gb_robust_count(const signed char *pass, size_t s, size_t n, GbRobustCount *out);

/* The q-quantile (0..1) of sorted[0..n) by linear interpolation (numpy's default); NaN when n == 0. */
double gb_quantile_sorted(const double *sorted, size_t n, double q);
