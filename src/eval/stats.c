/* pass@k, paired counts, McNemar, drops and their bootstrap intervals, robust metrics (stats.h). */
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
    *out = (GbDropCI){.drop = gb_relative_drop(p_orig, p_hard, n),
                      .lo = NAN,
                      .hi = NAN,
                      .abs = NAN,
                      .abs_lo = NAN,
                      .abs_hi = NAN,
                      .resamples = resamples};
    if (n == 0) return;
    double so = 0, sh = 0;
    for (size_t i = 0; i < n; i++) so += p_orig[i], sh += p_hard[i];
    out->abs = (so - sh) / (double)n;
    if (resamples == 0) return;
    GbRng rng;
    gb_rng_seed(&rng, seed, 0x65766131u); /* stream "eva1" */
    double *d = gb_malloc(resamples * sizeof *d), *a = gb_malloc(resamples * sizeof *a);
    size_t m = 0;
    for (size_t r = 0; r < resamples; r++) {
        double ro = 0, rh = 0;
        for (size_t i = 0; i < n; i++) {
            size_t j = gb_rng_bounded(&rng, (uint32_t)n);
            ro += p_orig[j];
            rh += p_hard[j];
        }
        /* both drops from the same resample, so the relative interval is unchanged */
        a[r] = (ro - rh) / (double)n;
        if (ro == 0) {
            out->undefined++;
            continue;
        }
        d[m++] = (ro - rh) / ro;
    }
    qsort(d, m, sizeof *d, gb_stats__cmp);
    out->lo = gb_quantile_sorted(d, m, 0.025);
    out->hi = gb_quantile_sorted(d, m, 0.975);
    qsort(a, resamples, sizeof *a, gb_stats__cmp);
    out->abs_lo = gb_quantile_sorted(a, resamples, 0.025);
    out->abs_hi = gb_quantile_sorted(a, resamples, 0.975);
    free(d);
    free(a);
}

void gb_mean_bootstrap(const double *x, size_t n, size_t resamples, uint64_t seed, double *mean, double *lo, double *hi)
{
    *mean = *lo = *hi = NAN;
    if (n == 0) return;
    double sum = 0;
    for (size_t i = 0; i < n; i++) sum += x[i];
    *mean = sum / (double)n;
    if (resamples == 0) return;
    GbRng rng;
    gb_rng_seed(&rng, seed, 0x65766132u); /* stream "eva2" */
    double *m = gb_malloc(resamples * sizeof *m);
    for (size_t r = 0; r < resamples; r++) {
        double s = 0;
        for (size_t i = 0; i < n; i++) s += x[gb_rng_bounded(&rng, (uint32_t)n)];
        m[r] = s / (double)n;
    }
    qsort(m, resamples, sizeof *m, gb_stats__cmp);
    *lo = gb_quantile_sorted(m, resamples, 0.025);
    *hi = gb_quantile_sorted(m, resamples, 0.975);
    free(m);
}

double gb_mcnemar_exact(size_t lost, size_t gained)
{
    size_t n = lost + gained, x = lost < gained ? lost : gained;
    if (n == 0) return 1.0;
    /* P(X <= x) summed in log space: C(n, i) / 2^n underflows for a few thousand items */
    double tail = 0, logc = 0; /* log C(n, 0) */
    for (size_t i = 0; i <= x; i++) {
        if (i) logc += log((double)(n - i + 1)) - log((double)i);
        tail += exp(logc - (double)n * log(2.0));
    }
    double p = 2 * tail;
    return p > 1 ? 1 : p;
}

void gb_robust_count(const signed char *pass, size_t s, size_t n, GbRobustCount *out)
{
    *out = (GbRobustCount){0};
    for (size_t i = 0; i < n; i++) {
        bool scored = true, every = true, some = false;
        for (size_t j = 0; j <= s && scored; j++) scored = pass[j * n + i] >= 0;
        if (!scored) continue;
        for (size_t j = 1; j <= s; j++) {
            every = every && pass[j * n + i] == 1;
            some = some || pass[j * n + i] == 1;
        }
        out->used++;
        out->all += every;
        if (pass[i] == 1 && !every) out->worse++;
        if (pass[i] == 0 && some) out->better++;
    }
}
