#include "src/measure/drop_stats.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/util.h"

void gb_wilson(long k, long n, double z, double *lo, double *hi)
{
    if (n <= 0) {
        *lo = 0;
        *hi = 1;
        return;
    }
    double p = (double)k / (double)n, nn = (double)n, z2 = z * z;
    double c = (p + z2 / (2 * nn)) / (1 + z2 / nn);
    double h = z * sqrt(p * (1 - p) / nn + z2 / (4 * nn * nn)) / (1 + z2 / nn);
    *lo = fmax(0, c - h);
    *hi = fmin(1, c + h);
}

typedef struct {
    double v;
    int group;
} GbRanked;

static int gb_drop__cmp(const void *a, const void *b)
{
    double x = ((const GbRanked *)a)->v, y = ((const GbRanked *)b)->v;
    return x < y ? -1 : x > y;
}

void gb_mann_whitney(const double *a, size_t na, const double *b, size_t nb, double *u, double *p)
{
    *u = 0;
    *p = 1;
    if (!na || !nb) return;
    size_t n = na + nb;
    GbRanked *r = gb_malloc(n * sizeof *r);
    for (size_t i = 0; i < na; i++) r[i] = (GbRanked){a[i], 0};
    for (size_t i = 0; i < nb; i++) r[na + i] = (GbRanked){b[i], 1};
    qsort(r, n, sizeof *r, gb_drop__cmp);
    double rank_a = 0, ties = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && r[j].v == r[i].v) j++;
        double mid = (double)(i + j + 1) / 2.0, t = (double)(j - i);
        ties += t * t * t - t;
        for (size_t k = i; k < j; k++)
            if (r[k].group == 0) rank_a += mid;
        i = j;
    }
    free(r);
    double fa = (double)na, fb = (double)nb, fn = (double)n;
    *u = rank_a - fa * (fa + 1) / 2.0;
    double var = fa * fb / 12.0 * ((fn + 1) - ties / (fn * (fn - 1)));
    if (var <= 0) return;
    double z = (fabs(*u - fa * fb / 2.0) - 0.5) / sqrt(var);
    *p = fmin(1.0, erfc(fmax(z, 0) / sqrt(2.0)));
}

static void gb_drop__standardise(const double *x, size_t n, double *out)
{
    double m = 0, s = 0;
    for (size_t i = 0; i < n; i++) m += x[i];
    m /= (double)n;
    for (size_t i = 0; i < n; i++) s += (x[i] - m) * (x[i] - m);
    s = sqrt(s / (double)n);
    for (size_t i = 0; i < n; i++) out[i] = s > 0 ? (x[i] - m) / s : 0;
}

/* Solve the 3x3 system a x = b in place (a is overwritten); false when singular. */
static bool gb_drop__solve3(double a[3][3], double b[3], double x[3])
{
    for (int c = 0; c < 3; c++) {
        int piv = c;
        for (int r = c + 1; r < 3; r++)
            if (fabs(a[r][c]) > fabs(a[piv][c])) piv = r;
        if (fabs(a[piv][c]) < 1e-300) return false;
        for (int k = 0; k < 3; k++) {
            double t = a[c][k];
            a[c][k] = a[piv][k];
            a[piv][k] = t;
        }
        double t = b[c];
        b[c] = b[piv];
        b[piv] = t;
        for (int r = 0; r < 3; r++) {
            if (r == c) continue;
            double f = a[r][c] / a[c][c];
            for (int k = 0; k < 3; k++) a[r][k] -= f * a[c][k];
            b[r] -= f * b[c];
        }
    }
    for (int c = 0; c < 3; c++) x[c] = b[c] / a[c][c];
    return true;
}

bool gb_logistic2(const double *x1, const double *x2, const int *y, size_t n, double ridge, double beta[3],
                  double se[3])
{
    memset(beta, 0, 3 * sizeof *beta);
    for (int i = 0; i < 3; i++) se[i] = NAN;
    if (n < 3) return false;
    double *z1 = gb_malloc(n * sizeof *z1), *z2 = gb_malloc(n * sizeof *z2);
    gb_drop__standardise(x1, n, z1);
    gb_drop__standardise(x2, n, z2);
    double info[3][3];
    for (int it = 0; it < 100; it++) {
        double g[3] = {0, -ridge * beta[1], -ridge * beta[2]};
        memset(info, 0, sizeof info);
        info[1][1] = info[2][2] = ridge;
        for (size_t i = 0; i < n; i++) {
            double row[3] = {1, z1[i], z2[i]};
            double eta = beta[0] + beta[1] * z1[i] + beta[2] * z2[i];
            double pr = 1 / (1 + exp(-eta)), w = pr * (1 - pr);
            for (int a = 0; a < 3; a++) {
                g[a] += (y[i] - pr) * row[a];
                for (int b = 0; b < 3; b++) info[a][b] += w * row[a] * row[b];
            }
        }
        double a[3][3], step[3];
        memcpy(a, info, sizeof a);
        if (!gb_drop__solve3(a, g, step)) break;
        double move = 0;
        for (int k = 0; k < 3; k++) {
            beta[k] += step[k];
            move = fmax(move, fabs(step[k]));
        }
        if (move < 1e-10) break;
    }
    for (int k = 0; k < 3; k++) {
        double a[3][3], e[3] = {0, 0, 0}, col[3];
        memcpy(a, info, sizeof a);
        e[k] = 1;
        se[k] = gb_drop__solve3(a, e, col) && col[k] > 0 ? sqrt(col[k]) : NAN;
    }
    free(z1);
    free(z2);
    return true;
}

double gb_sign_test(long k, long n)
{
    if (n <= 0) return 1;
    long m = k < n - k ? k : n - k;
    /* P(X <= m) for X ~ Binomial(n, 1/2), summed in logs so large n stays finite. */
    double tail = 0;
    for (long i = 0; i <= m; i++)
        tail += exp(lgamma((double)n + 1) - lgamma((double)i + 1) - lgamma((double)(n - i) + 1) - (double)n * log(2.0));
    return fmin(1.0, 2 * tail);
}

typedef struct {
    double key;
    size_t i;
} GbKeyed;

static int gb_drop__keyed_cmp(const void *a, const void *b)
{
    const GbKeyed *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

static bool gb_drop__close(const double *vary, const double *const *match, const double *tol, size_t nmatch, size_t i,
                           size_t j)
{
    if (vary[i] == vary[j]) return false;
    for (size_t k = 0; k < nmatch; k++)
        if (fabs(match[k][i] - match[k][j]) > tol[k]) return false;
    return true;
}

void gb_matched_pairs(const double *vary, const double *const *match, const double *tol, size_t nmatch, const int *y,
                      size_t n, GbMatchedPairs *out)
{
    assert(nmatch >= 1);
    memset(out, 0, sizeof *out);
    GbKeyed *order = gb_malloc((n ? n : 1) * sizeof *order);
    bool *used = gb_malloc((n ? n : 1) * sizeof *used);
    for (size_t i = 0; i < n; i++) {
        order[i] = (GbKeyed){match[0][i], i};
        used[i] = false;
    }
    qsort(order, n, sizeof *order, gb_drop__keyed_cmp);
    double gap = 0;
    for (size_t a = 0; a < n; a++) {
        size_t i = order[a].i;
        if (!y[i]) continue;
        out->cases++;
        /* The nearest unused success on either side of the failure in match[0] order. */
        size_t best = n;
        double best_d = INFINITY;
        for (size_t b = a; b-- > 0 && order[a].key - order[b].key <= tol[0];) {
            size_t j = order[b].i;
            if (y[j] || used[j] || !gb_drop__close(vary, match, tol, nmatch, i, j)) continue;
            best = b;
            best_d = order[a].key - order[b].key;
            break;
        }
        for (size_t b = a + 1; b < n && order[b].key - order[a].key <= tol[0] && order[b].key - order[a].key < best_d;
             b++) {
            size_t j = order[b].i;
            if (y[j] || used[j] || !gb_drop__close(vary, match, tol, nmatch, i, j)) continue;
            best = b;
            break;
        }
        if (best == n) continue;
        size_t j = order[best].i;
        used[j] = true;
        out->pairs++;
        gap += fabs(vary[i] - vary[j]);
        out->higher_failed += vary[i] > vary[j];
    }
    free(order);
    free(used);
    out->mean_gap = out->pairs ? gap / (double)out->pairs : NAN;
    out->rate = out->pairs ? (double)out->higher_failed / (double)out->pairs : NAN;
    gb_wilson(out->higher_failed, out->pairs, 1.96, &out->lo, &out->hi);
    out->p = gb_sign_test(out->higher_failed, out->pairs);
}
