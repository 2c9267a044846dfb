#pragma once
/* NSGA-II ranking and selection on top of nsga2/sort.h and nsga2/crowding.h. Objectives
 * are maximised; obj is n x k, row-major, finite. Pure functions, no globals, thread-safe;
 * the caller owns every array (scratch memory is allocated and freed inside). */
#include <stddef.h>

/* Column of each objective in genebench's (RC, RR) objective rows. */
enum { GB_NSGA2_OBJ_RC = 0, GB_NSGA2_OBJ_RR = 1 };

/* Rank a population: order (n entries) gets every index sorted by
 *   1. front rank ascending (first front first),
 *   2. crowding distance within the front, descending (INFINITY first),
 *   3. index ascending.
 * rank and crowding (n entries each, or NULL) get each individual's 0-based front and its
 * crowding distance within that front. This is the NSGA-II "crowded comparison" order;
 * taking a prefix of it is NSGA-II's environmental selection. */
void gb_nsga2_rank(const double *obj, size_t n, size_t k, size_t *order, size_t *rank, double *crowding);

/* How many of n individuals the fraction selects: ceil(fraction * n), at least 1 and at
 * most n (0 only when n == 0). fraction must be in (0, 1]. ceil, not round, so that the
 * selected share is never below the requested one (20% of 7 selects 2, not 1). A product
 * within 1e-9 of an integer counts as that integer, so 0.55 * 100
 * (= 55.00000000000001 in binary floating point) selects 55, not 56. */
size_t gb_nsga2_select_count(size_t n, double fraction);

/* Select the top gb_nsga2_select_count(n, fraction) individuals in gb_nsga2_rank order.
 * selected (n entries) gets their indices, best first. Returns the count. */
size_t gb_nsga2_select(const double *obj, size_t n, size_t k, double fraction, size_t *selected);

/* The first (non-dominated) front: front (n entries) gets its indices in ascending order.
 * Returns its size (>= 1 when n >= 1). */
size_t gb_nsga2_first_front(const double *obj, size_t n, size_t k, size_t *front);

/* genebench's final pick: among the first front, the individual with the highest RC
 * (column GB_NSGA2_OBJ_RC); ties go to the higher RR (column GB_NSGA2_OBJ_RR), then to the
 * lower index. Requires n >= 1 and k >= 2. Returns the index. */
size_t gb_nsga2_best_rc(const double *obj, size_t n, size_t k);
