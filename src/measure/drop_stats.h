#pragma once
/* Small statistics for explaining a model's drop along complexity levels (`genebench breaks`):
 * a binomial interval, a rank test and a two-predictor logistic model. Pure functions,
 * thread-safe. */
#include <stdbool.h>
#include <stddef.h>

/* Wilson score interval of k successes in n trials at z (1.96: 95%); [0, 1] for n = 0. */
void gb_wilson(long k, long n, double z, double *lo, double *hi);

/* Mann-Whitney U of sample a against sample b (U = pairs a > b, ties counting one half), and
 * the two-sided p-value of the normal approximation with tie correction (1 when a sample is
 * empty or every value ties). */
void gb_mann_whitney(const double *a, size_t na, const double *b, size_t nb, double *u, double *p);

/* Logistic regression y ~ b0 + b1 z(x1) + b2 z(x2), each predictor standardised to mean 0 and
 * standard deviation 1 (a constant predictor stays 0), fitted by Newton's method with an L2
 * penalty `ridge` on b1 and b2 (keeps the fit finite when the outcome is separable). beta and se
 * get the coefficients and their standard errors (from the penalised information), z = beta / se.
 * False when n < 3. */
bool gb_logistic2(const double *x1, const double *x2, const int *y, size_t n, double ridge, double beta[3],
                  double se[3]);

/* Exact two-sided sign test: the probability, under a fair coin, of a split of n at least as
 * uneven as k against n - k (1 when n = 0). */
double gb_sign_test(long k, long n);

/* A matched case-control comparison: does failure follow one measure when others are held close? */
typedef struct {
    long cases;         /* failures */
    long pairs;         /* failures matched with a success */
    long higher_failed; /* of the pairs, those where the failure has the larger varied measure */
    double rate;        /* higher_failed / pairs (NAN when no pair) */
    double lo, hi;      /* its Wilson 95% interval */
    double p;           /* exact two-sided sign test of higher_failed against pairs / 2 */
    double mean_gap;    /* mean |difference| of the varied measure over the pairs (NAN: none) */
} GbMatchedPairs;

/* Matches each failure (y[i] = 1) with one success (each used at most once) whose matched measures
 * match[k][j] all lie within tol[k] of the failure's and whose varied measure vary[j] differs from
 * it: the nearest in match[0] (ties: the earlier in order of match[0], then index), failures taken
 * in that order. When failure does not depend on the varied measure once the matched ones are
 * held, the failure is the larger member of a pair half the time. nmatch >= 1. Deterministic;
 * borrows every array. */
void gb_matched_pairs(const double *vary, const double *const *match, const double *tol, size_t nmatch, const int *y,
                      size_t n, GbMatchedPairs *out);
