#include "src/measure/nnmr.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/util.h"

/* Normalised copy of the rows, with each row's nonzero positions (for sparse rows, such as
 * the built-in embedding's, a dot product only needs those). */
typedef struct {
    double *v;
    size_t *nz;     /* concatenated nonzero positions */
    size_t *nz_off; /* row r: nz[nz_off[r] .. nz_off[r + 1]) */
} GbNnmr__Rows;

/* Returns the number of all-zero rows. */
static size_t gb_nnmr__rows(GbNnmr__Rows *r, const double *src, size_t n, size_t dim)
{
    size_t zero = 0;
    r->v = gb_malloc((n * dim > 0 ? n * dim : 1) * sizeof *r->v);
    r->nz_off = gb_malloc((n + 1) * sizeof *r->nz_off);
    GbArray(size_t) nz = {0};
    for (size_t i = 0; i < n; i++) {
        const double *s = src + i * dim;
        double *d = r->v + i * dim, norm = 0;
        for (size_t k = 0; k < dim; k++) norm += s[k] * s[k];
        norm = sqrt(norm);
        zero += !(norm > 0);
        r->nz_off[i] = nz.len;
        for (size_t k = 0; k < dim; k++) {
            d[k] = norm > 0 ? s[k] / norm : 0;
            if (d[k] != 0) gb_array_push(&nz, k);
        }
    }
    r->nz_off[n] = nz.len;
    r->nz = nz.items ? nz.items : gb_malloc(1);
    return zero;
}

static void gb_nnmr__rows_free(GbNnmr__Rows *r)
{
    free(r->v);
    free(r->nz);
    free(r->nz_off);
}

static double gb_nnmr__dot(const GbNnmr__Rows *a, size_t i, const GbNnmr__Rows *b, size_t j, size_t dim)
{
    const double *x = a->v + i * dim, *y = b->v + j * dim;
    double s = 0;
    size_t na = a->nz_off[i + 1] - a->nz_off[i];
    if (na * 4 < dim) {
        const size_t *p = a->nz + a->nz_off[i];
        for (size_t k = 0; k < na; k++) s += x[p[k]] * y[p[k]];
    } else {
        for (size_t k = 0; k < dim; k++) s += x[k] * y[k];
    }
    return s;
}

static int gb_nnmr__cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

void gb_nnmr_compute(const double *orig, const double *hard, size_t n, size_t dim, GbNnmr *out)
{
    memset(out, 0, sizeof *out);
    out->n = n;
    out->nn_o2h = gb_malloc((n ? n : 1) * sizeof *out->nn_o2h);
    out->nn_h2o = gb_malloc((n ? n : 1) * sizeof *out->nn_h2o);
    out->self_cos = gb_malloc((n ? n : 1) * sizeof *out->self_cos);
    out->rank_o2h = gb_malloc((n ? n : 1) * sizeof *out->rank_o2h);
    out->rank_h2o = gb_malloc((n ? n : 1) * sizeof *out->rank_h2o);
    out->displacement = gb_malloc((n ? n : 1) * sizeof *out->displacement);
    out->displacement_median = out->displacement_mean = NAN;
    out->mean_rank_o2h = out->mean_rank_h2o = NAN;
    if (n == 0) return;
    GbNnmr__Rows o, h;
    out->zero_rows = gb_nnmr__rows(&o, orig, n, dim);
    out->zero_rows += gb_nnmr__rows(&h, hard, n, dim);
    /* S[i][j] = cos(o_i, h_j), computed once; both directions read it. */
    double *S = gb_malloc(n * n * sizeof *S);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) S[i * n + j] = gb_nnmr__dot(&o, i, &h, j, dim);
    for (size_t i = 0; i < n; i++) {
        size_t best = 0;
        for (size_t j = 1; j < n; j++)
            if (S[i * n + j] > S[i * n + best]) best = j;
        out->nn_o2h[i] = best;
        out->miss_o2h += best != i;
        out->self_cos[i] = S[i * n + i];
    }
    for (size_t j = 0; j < n; j++) {
        size_t best = 0;
        for (size_t i = 1; i < n; i++)
            if (S[i * n + j] > S[best * n + j]) best = i;
        out->nn_h2o[j] = best;
        out->miss_h2o += best != j;
    }
    /* ranks: programs strictly nearer, plus equal ones of lower index (the tie rule) */
    double rs_o = 0, rs_h = 0;
    for (size_t i = 0; i < n; i++) {
        size_t ro = 1, rh = 1;
        double so = S[i * n + i];
        for (size_t j = 0; j < n; j++) {
            if (j == i) continue;
            ro += S[i * n + j] > so || (S[i * n + j] == so && j < i);
            rh += S[j * n + i] > so || (S[j * n + i] == so && j < i);
        }
        out->rank_o2h[i] = ro;
        out->rank_h2o[i] = rh;
        rs_o += (double)ro;
        rs_h += (double)rh;
    }
    out->mean_rank_o2h = rs_o / (double)n;
    out->mean_rank_h2o = rs_h / (double)n;
    /* displacement: against the nearest other original */
    double *fin = gb_malloc(n * sizeof *fin);
    size_t nf = 0;
    for (size_t i = 0; i < n; i++) {
        double best = -INFINITY;
        for (size_t j = 0; j < n; j++)
            if (j != i) {
                double c = gb_nnmr__dot(&o, i, &o, j, dim);
                if (c > best) best = c;
            }
        double den = 1.0 - best, num = 1.0 - out->self_cos[i];
        if (num < 0) num = 0;
        out->displacement[i] = n >= 2 && den > 1e-12 ? num / den : NAN;
        if (isfinite(out->displacement[i])) {
            fin[nf++] = out->displacement[i];
            out->displaced += out->displacement[i] >= 1.0;
        }
    }
    if (nf) {
        double sum = 0;
        for (size_t k = 0; k < nf; k++) sum += fin[k];
        out->displacement_mean = sum / (double)nf;
        qsort(fin, nf, sizeof *fin, gb_nnmr__cmp);
        out->displacement_median = nf % 2 ? fin[nf / 2] : 0.5 * (fin[nf / 2 - 1] + fin[nf / 2]);
    }
    free(fin);
    out->nnmr_o2h = 100.0 * (double)out->miss_o2h / (double)n;
    out->nnmr_h2o = 100.0 * (double)out->miss_h2o / (double)n;
    free(S);
    gb_nnmr__rows_free(&o);
    gb_nnmr__rows_free(&h);
}

void gb_nnmr_destroy(GbNnmr *r)
{
    free(r->nn_o2h);
    free(r->nn_h2o);
    free(r->self_cos);
    free(r->rank_o2h);
    free(r->rank_h2o);
    free(r->displacement);
    memset(r, 0, sizeof *r);
}
