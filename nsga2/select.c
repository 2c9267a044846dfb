#include "nsga2/select.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>

#include "nsga2/crowding.h"
#include "nsga2/sort.h"
#include "src/base/util.h"

typedef struct {
    size_t rank;
    double crowding;
    size_t index;
} GbRankKey;

static int gb_select__cmp(const void *a, const void *b)
{
    const GbRankKey *x = a, *y = b;
    if (x->rank != y->rank) return x->rank < y->rank ? -1 : 1;
    if (x->crowding > y->crowding) return -1;
    if (x->crowding < y->crowding) return 1;
    return (x->index > y->index) - (x->index < y->index);
}

void gb_nsga2_rank(const double *obj, size_t n, size_t k, size_t *order, size_t *rank, double *crowding)
{
    assert(order != NULL);
    if (n == 0) return;
    size_t *rk = rank ? rank : gb_malloc(n * sizeof *rk);
    double *cd = crowding ? crowding : gb_malloc(n * sizeof *cd);
    size_t *members = gb_malloc(n * sizeof *members);
    size_t *starts = gb_malloc((n + 1) * sizeof *starts);
    double *front_cd = gb_malloc(n * sizeof *front_cd);

    size_t nfronts = gb_nondominated_sort(obj, n, k, rk, members, starts);
    for (size_t f = 0; f < nfronts; f++) {
        size_t a = starts[f], m = starts[f + 1] - a;
        gb_crowding_distance(obj, k, members + a, m, front_cd);
        for (size_t j = 0; j < m; j++) cd[members[a + j]] = front_cd[j];
    }

    GbRankKey *keys = gb_malloc(n * sizeof *keys);
    for (size_t i = 0; i < n; i++) keys[i] = (GbRankKey){rk[i], cd[i], i};
    qsort(keys, n, sizeof *keys, gb_select__cmp);
    for (size_t i = 0; i < n; i++) order[i] = keys[i].index;

    free(keys);
    free(front_cd);
    free(starts);
    free(members);
    if (cd != crowding) free(cd);
    if (rk != rank) free(rk);
}

size_t gb_nsga2_select_count(size_t n, double fraction)
{
    assert(fraction > 0.0 && fraction <= 1.0);
    if (n == 0) return 0;
    size_t count = (size_t)ceil(fraction * (double)n - 1e-9);
    if (count < 1) count = 1;
    if (count > n) count = n;
    return count;
}

size_t gb_nsga2_select(const double *obj, size_t n, size_t k, double fraction, size_t *selected)
{
    size_t count = gb_nsga2_select_count(n, fraction);
    if (count == 0) return 0;
    /* selected has room for n: rank into it and keep the prefix. */
    gb_nsga2_rank(obj, n, k, selected, NULL, NULL);
    return count;
}

size_t gb_nsga2_first_front(const double *obj, size_t n, size_t k, size_t *front)
{
    if (n == 0) return 0;
    size_t *rank = gb_malloc(n * sizeof *rank);
    size_t *starts = gb_malloc((n + 1) * sizeof *starts);
    gb_nondominated_sort(obj, n, k, rank, front, starts);
    size_t size = starts[1];
    free(starts);
    free(rank);
    return size;
}

size_t gb_nsga2_best_rc(const double *obj, size_t n, size_t k)
{
    assert(n >= 1 && k >= 2);
    size_t *front = gb_malloc(n * sizeof *front);
    size_t m = gb_nsga2_first_front(obj, n, k, front);
    size_t best = front[0];
    for (size_t j = 1; j < m; j++) {
        /* front is ascending, so strict comparisons keep the lower index on a full tie. */
        const double *c = obj + front[j] * k, *b = obj + best * k;
        if (c[GB_NSGA2_OBJ_RC] > b[GB_NSGA2_OBJ_RC] ||
            (c[GB_NSGA2_OBJ_RC] == b[GB_NSGA2_OBJ_RC] && c[GB_NSGA2_OBJ_RR] > b[GB_NSGA2_OBJ_RR]))
            best = front[j];
    }
    free(front);
    return best;
}
