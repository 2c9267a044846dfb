#pragma once
/* Pareto dominance for NSGA-II. Every objective is MAXIMISED (genebench maximises RC and
 * RR). Objective vectors are plain arrays of k doubles; they must be finite (NaN or
 * infinite objective values are a bug and assert). Pure functions, thread-safe. */
#include <stdbool.h>
#include <stddef.h>

/* Result of comparing two objective vectors a and b. */
typedef enum {
    GB_DOM_NEITHER = 0, /* equal, or each is better somewhere: mutually non-dominated */
    GB_DOM_A = 1,       /* a dominates b */
    GB_DOM_B = -1,      /* b dominates a */
} GbDominance;

/* a dominates b iff a[i] >= b[i] for every i < k and a[i] > b[i] for at least one i.
 * Identical vectors dominate neither way. k must be at least 1. */
bool gb_dominates(const double *a, const double *b, size_t k);

/* One pass over the k objectives telling which of a and b dominates, if any. */
GbDominance gb_dominance_compare(const double *a, const double *b, size_t k);
