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
