/* pass@k, paired counts, relative drop and its bootstrap interval (stats.h). */
#include "src/eval/stats.h"

#include <math.h>
#include <stdlib.h>

#include "src/base/rng.h"
#include "src/base/util.h"

double gb_pass_at_k(long n, long c, long k)
{
    if (n <= 0 || k <= 0 || k > n || c < 0 || c > n) return NAN;
    if (n - c < k) return 1.0;
    double prod = 1.0;
    for (long i = n - c + 1; i <= n; i++) prod *= 1.0 - (double)k / (double)i;
    return 1.0 - prod;
}

void gb_paired_count(const double *p_orig, const double *p_hard, size_t n, GbPaired *out)
{
    *out = (GbPaired){0};
    for (size_t i = 0; i < n; i++) {
        bool a = p_orig[i] >= 0.5, b = p_hard[i] >= 0.5;
        if (a && b)
            out->both_pass++;
        else if (a)
            out->lost++;
        else if (b)
            out->gained++;
        else
            out->both_fail++;
    }
}

double gb_relative_drop(const double *p_orig, const double *p_hard, size_t n)
{
    double so = 0, sh = 0;
    for (size_t i = 0; i < n; i++) so += p_orig[i], sh += p_hard[i];
    if (n == 0 || so == 0) return NAN;
    return (so - sh) / so;
}

static int gb_stats__cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double gb_quantile_sorted(const double *sorted, size_t n, double q)
{
    if (n == 0) return NAN;
    double pos = q * (double)(n - 1);
    size_t i = (size_t)floor(pos);
    if (i + 1 >= n) return sorted[n - 1];
    double frac = pos - (double)i;
    return sorted[i] + (sorted[i + 1] - sorted[i]) * frac;
}

void gb_drop_bootstrap(const double *p_orig, const double *p_hard, size_t n, size_t resamples, uint64_t seed,
                       GbDropCI *out)
{
    *out = (GbDropCI){.drop = gb_relative_drop(p_orig, p_hard, n), .lo = NAN, .hi = NAN, .resamples = resamples};
    if (n == 0 || resamples == 0) return;
    GbRng rng;
    gb_rng_seed(&rng, seed, 0x65766131u); /* stream "eva1" */
    double *d = gb_malloc(resamples * sizeof *d);
    size_t m = 0;
    for (size_t r = 0; r < resamples; r++) {
        double so = 0, sh = 0;
        for (size_t i = 0; i < n; i++) {
            size_t j = gb_rng_bounded(&rng, (uint32_t)n);
            so += p_orig[j];
            sh += p_hard[j];
        }
        if (so == 0) {
            out->undefined++;
            continue;
        }
        d[m++] = (so - sh) / so;
    }
    qsort(d, m, sizeof *d, gb_stats__cmp);
    out->lo = gb_quantile_sorted(d, m, 0.025);
    out->hi = gb_quantile_sorted(d, m, 0.975);
    free(d);
}
