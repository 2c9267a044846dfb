#pragma once
/* Fast non-dominated sort (Deb, Pratap, Agarwal, Meyarivan 2002, "A fast and elitist
 * multiobjective genetic algorithm: NSGA-II"), for maximisation (nsga2/dominance.h).
 * Pure function, no globals, thread-safe; the caller owns every array. */
#include <stddef.h>

/* Sort n individuals whose objectives are the rows of obj (n x k, row-major) into fronts.
 *   rank        (n entries, required): rank[i] = 0-based front of individual i
 *               (0 = the non-dominated first front).
 *   order       (n entries, or NULL): all indices, front by front; within a front in
 *               ascending index order (deterministic, independent of comparison order).
 *   front_start (n + 1 entries, or NULL): front f is order[front_start[f] ..
 *               front_start[f + 1]); front_start[nfronts] = n.
 * Returns the number of fronts (0 when n == 0; at most n).
 * Time O(k n^2). Deb's per-individual "dominated set" S_p is recomputed while a front is
 * peeled instead of being stored, so extra memory is O(n) rather than O(n^2); each pair is
 * compared at most three times. */
size_t gb_nondominated_sort(const double *obj, size_t n, size_t k, size_t *rank, size_t *order, size_t *front_start);
