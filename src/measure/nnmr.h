#pragma once
/* NNMR, the nearest-neighbour miss rate between two sets of program embeddings that are
 * paired by index (program i of the original set and program i of the hardened set):
 *
 *   NNMR(o->h) = 100 / N * |{ i : argmax_j cos(o_i, h_j) != i }|
 *   NNMR(h->o) = 100 / N * |{ j : argmax_i cos(h_j, o_i) != j }|
 *
 * It is 100 * (1 - Accuracy@1) of retrieving a program's counterpart. The gallery of each
 * query is the whole other set (N candidates, its own counterpart included, nothing from its
 * own set). Metric: cosine similarity (vectors are normalised first; a zero vector has
 * cosine 0 with everything). Ties: the lowest index wins, so a tie counts as a miss unless
 * the counterpart is the lowest-index program among the tied ones.
 * Pure function; thread-safe. */
#include <stddef.h>

typedef struct {
    size_t n;
    size_t miss_o2h, miss_h2o;
    double nnmr_o2h, nnmr_h2o; /* percentages */
    size_t *nn_o2h;            /* owned, n: nearest hardened program of each original */
    size_t *nn_h2o;            /* owned, n: nearest original program of each hardened one */
    double *self_cos;          /* owned, n: cos(o_i, h_i) */
    /* Graded measures (informative even when NNMR is 0):
     * rank: the counterpart's place among the gallery sorted by cosine, 1 = nearest (ties as
     * above: an equal program of lower index ranks before it). Means over the n queries. */
    size_t *rank_o2h, *rank_h2o; /* owned, n */
    double mean_rank_o2h, mean_rank_h2o;
    /* displacement_i = (1 - cos(o_i, h_i)) / (1 - max_{j != i} cos(o_i, o_j)): how far the
     * hardened program moved from its original, as a fraction of the distance from that
     * original to the nearest other original. >= 1: it moved at least as far as the nearest
     * different task is. NaN when n < 2 or that distance is 0. Median and mean over the finite
     * values (NaN when none), and how many are >= 1. */
    double *displacement; /* owned, n */
    double displacement_median, displacement_mean;
    size_t displaced; /* displacement_i >= 1 */
    size_t zero_rows; /* vectors of either set that are all zero: they match nothing, and their
                         queries fall to the lowest index (a caller should warn) */
} GbNnmr;

/* orig and hard: n * dim row-major vectors (not modified). Result in caller storage;
 * free with gb_nnmr_destroy. */
void gb_nnmr_compute(const double *orig, const double *hard, size_t n, size_t dim, GbNnmr *out);
void gb_nnmr_destroy(GbNnmr *r);
