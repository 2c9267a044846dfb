#include "nsga2/crowding.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>

#include "src/base/util.h"

typedef struct {
    double value;
    size_t index; /* individual index: the tie-breaker */
    size_t slot;  /* position in members / dist */
} GbCrowdKey;

static int gb_crowding__cmp(const void *a, const void *b)
{
    const GbCrowdKey *x = a, *y = b;
    if (x->value < y->value) return -1;
    if (x->value > y->value) return 1;
    return (x->index > y->index) - (x->index < y->index);
}

void gb_crowding_distance(const double *obj, size_t k, const size_t *members, size_t m, double *dist)
{
    assert(k >= 1);
    for (size_t j = 0; j < m; j++) dist[j] = 0.0;
    if (m == 0) return;
    GbCrowdKey *keys = gb_malloc(m * sizeof *keys);
    for (size_t i = 0; i < k; i++) {
        for (size_t j = 0; j < m; j++) {
            double v = obj[members[j] * k + i];
            assert(isfinite(v));
            keys[j] = (GbCrowdKey){v, members[j], j};
        }
        qsort(keys, m, sizeof *keys, gb_crowding__cmp);
        /* Halving keeps max - min finite for values near +-DBL_MAX; it is exact otherwise. */
        double half = isfinite(keys[m - 1].value - keys[0].value) ? 1.0 : 0.5;
        double range = half * keys[m - 1].value - half * keys[0].value;
        if (!(range > 0.0)) continue;
        dist[keys[0].slot] = INFINITY;
        dist[keys[m - 1].slot] = INFINITY;
        for (size_t j = 1; j + 1 < m; j++) {
            /* INFINITY + finite stays INFINITY: boundary points keep their status. */
            dist[keys[j].slot] += (half * keys[j + 1].value - half * keys[j - 1].value) / range;
        }
    }
    free(keys);
}
