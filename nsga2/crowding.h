#pragma once
/* NSGA-II crowding distance (Deb et al. 2002, section III-B) of the members of one front.
 * Pure function, no globals, thread-safe; the caller owns every array.
 *
 * For each objective the members are ordered by (value ascending, index ascending) -- a
 * total order, so ties are resolved by index and the result never depends on the sorting
 * algorithm. With range = max - min of that objective over the members:
 *   - range == 0: the objective contributes 0 to every member (there are no extremes; never
 *     the 0/0 = NaN of a naive implementation). A front of one member therefore gets 0;
 *   - otherwise the first and the last member in that order get INFINITY (the real IEEE
 *     infinity, not Deb's 1e14 stand-in), and every other member j adds
 *     (value of its successor - value of its predecessor) / range.
 * Among members tied at an extreme value only the lowest index (for the minimum) or the
 * highest index (for the maximum) is the boundary point; the others are interior points.
 * Objective values must be finite (asserted), so the result is never NaN. */
#include <stddef.h>

/* Crowding distance of the m individuals members[0..m) whose objectives are rows of obj
 * (k doubles per row, indexed by the values in members). dist[j] (m entries, written) is
 * the distance of members[j]. m may be 0. */
void gb_crowding_distance(const double *obj, size_t k, const size_t *members, size_t m, double *dist);
