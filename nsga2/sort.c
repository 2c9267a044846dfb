#include "nsga2/sort.h"

#include <assert.h>
#include <stdbool.h>
#include <stdlib.h>

#include "nsga2/dominance.h"
#include "src/base/util.h"

static int gb_sort__cmp_index(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

size_t gb_nondominated_sort(const double *obj, size_t n, size_t k, size_t *rank, size_t *order, size_t *front_start)
{
    assert(rank != NULL && k >= 1);
    if (front_start) front_start[0] = 0;
    if (n == 0) return 0;

    size_t *dominated_by = gb_calloc(n, sizeof *dominated_by); /* Deb's n_p */
    size_t *queue = order ? order : gb_malloc(n * sizeof *queue);
    for (size_t p = 0; p < n; p++) {
        for (size_t q = p + 1; q < n; q++) {
            GbDominance d = gb_dominance_compare(obj + p * k, obj + q * k, k);
            if (d == GB_DOM_A)
                dominated_by[q]++;
            else if (d == GB_DOM_B)
                dominated_by[p]++;
        }
    }

    /* queue[0..len) holds every individual ranked so far, front after front. */
    size_t len = 0;
    for (size_t p = 0; p < n; p++) {
        if (dominated_by[p] == 0) {
            rank[p] = 0;
            queue[len++] = p;
        }
    }
    size_t nfronts = 0, begin = 0;
    while (begin < len) {
        size_t end = len;
        nfronts++;
        if (front_start) front_start[nfronts] = end;
        for (size_t i = begin; i < end; i++) {
            size_t p = queue[i];
            for (size_t q = 0; q < n; q++) {
                /* Only individuals p dominates are decremented; they are all still unranked,
                 * because a dominated individual cannot be peeled before its dominator. */
                if (q == p || !gb_dominates(obj + p * k, obj + q * k, k)) continue;
                assert(dominated_by[q] > 0);
                if (--dominated_by[q] == 0) {
                    rank[q] = nfronts;
                    queue[len++] = q;
                }
            }
        }
        /* The next front was discovered in dominator order; make it ascending by index. */
        qsort(queue + end, len - end, sizeof *queue, gb_sort__cmp_index);
        begin = end;
    }
    assert(len == n);
    if (queue != order) free(queue);
    free(dominated_by);
    return nfronts;
}
