#include "src/measure/drop_stats.h"

#include <math.h>

#include "tests/unit/helpers.h"

static void test_drop_stats_wilson_known_values(void **state)
{
    (void)state;
    double lo, hi;
    gb_wilson(5, 10, 1.96, &lo, &hi);
    assert_true(fabs(lo - 0.236593) < 1e-5 && fabs(hi - 0.763407) < 1e-5);
    gb_wilson(0, 9, 1.96, &lo, &hi);
    assert_true(lo == 0 && fabs(hi - 0.299145) < 1e-5);
    gb_wilson(0, 0, 1.96, &lo, &hi);
    assert_true(lo == 0 && hi == 1);
}

static void test_drop_stats_mann_whitney_separated_and_tied(void **state)
{
    (void)state;
    double a[] = {1, 2, 3}, b[] = {4, 5, 6}, u, p;
    gb_mann_whitney(a, 3, b, 3, &u, &p);
    /* U = 0; mean 4.5, variance 9 * 7 / 12 = 5.25, continuity-corrected z = 4 / sqrt(5.25). */
    assert_true(u == 0);
    assert_true(fabs(p - erfc(4 / sqrt(5.25) / sqrt(2))) < 1e-12);
    gb_mann_whitney(b, 3, a, 3, &u, &p);
    assert_true(u == 9);
    double c[] = {2, 2}, d[] = {2, 2, 2};
    gb_mann_whitney(c, 2, d, 3, &u, &p);
    assert_true(u == 3 && p == 1);
    gb_mann_whitney(c, 0, d, 3, &u, &p);
    assert_true(p == 1);
}

static void test_drop_stats_logistic_follows_the_predictor_that_decides(void **state)
{
    (void)state;
    /* y = 1 exactly when x2 > 5; x1 is noise unrelated to y. */
    double x1[20], x2[20];
    int y[20];
    for (int i = 0; i < 20; i++) {
        x2[i] = i * 0.5;
        x1[i] = (i * 7) % 5;
        y[i] = x2[i] > 5;
    }
    double beta[3], se[3];
    assert_true(gb_logistic2(x1, x2, y, 20, 1.0, beta, se));
    assert_true(beta[2] > 0 && fabs(beta[2] / se[2]) > fabs(beta[1] / se[1]));
    assert_false(gb_logistic2(x1, x2, y, 2, 1.0, beta, se));
}

static void test_drop_stats_sign_test_known_values(void **state)
{
    (void)state;
    /* 2 * P(X <= 0) for n = 5: 2 / 32; all ten on one side: 2 / 1024; an even split: 1. */
    assert_true(fabs(gb_sign_test(5, 5) - 0.0625) < 1e-12);
    assert_true(fabs(gb_sign_test(0, 10) - 2.0 / 1024) < 1e-12);
    assert_true(gb_sign_test(3, 6) == 1 && gb_sign_test(0, 0) == 1);
    /* n = 6, k = 1: 2 * (1 + 6) / 64. */
    assert_true(fabs(gb_sign_test(1, 6) - 14.0 / 64) < 1e-12);
}

static void test_drop_stats_matched_pairs_follow_the_cause(void **state)
{
    (void)state;
    /* Two observations per size (4, 4, 5, 5, ... 15, 15 lines); RC rises with lines, the second of
     * each size 0.003 higher. */
    enum { N = 24 };
    double lines[N], rc[N];
    int by_lines[N], by_rc[N];
    for (int i = 0; i < N; i++) {
        lines[i] = 4 + i / 2;
        rc[i] = 0.01 * lines[i] + (i % 2 ? 0.003 : 0);
        by_lines[i] = lines[i] > 10;
        by_rc[i] = i % 2;
    }
    const double *size_key[] = {lines}, *rc_key[] = {rc};
    double exact[] = {0}, near[] = {0.02};
    GbMatchedPairs m;
    /* Failure on lines > 10. At equal lines no success is left for a failure: no pair. */
    gb_matched_pairs(rc, size_key, exact, 1, by_lines, N, &m);
    assert_int_equal(m.cases, 10);
    assert_int_equal(m.pairs, 0);
    assert_true(isnan(m.rate) && isnan(m.mean_gap) && m.p == 1);
    /* At RC within 0.02: 0.110 and 0.113 (11 lines) find 0.103 and 0.100 (10 lines); the failures
     * beyond find every success within reach used. */
    gb_matched_pairs(lines, rc_key, near, 1, by_lines, N, &m);
    assert_int_equal(m.pairs, 2);
    assert_int_equal(m.higher_failed, 2);
    assert_true(m.rate == 1 && m.mean_gap == 1);
    /* Failure on the second, higher-RC one of each size. At equal lines each failure meets its
     * twin: the failure has the higher RC every time. */
    gb_matched_pairs(rc, size_key, exact, 1, by_rc, N, &m);
    assert_int_equal(m.pairs, 12);
    assert_int_equal(m.higher_failed, 12);
    assert_true(m.lo > 0.5 && fabs(m.p - 2.0 / 4096) < 1e-12);
    /* At RC within 0.02 the nearest success has one more line (its twin ties on lines): the
     * failure is the shorter one, so lines do not explain it. */
    gb_matched_pairs(lines, rc_key, near, 1, by_rc, N, &m);
    assert_true(m.pairs >= 11 && m.higher_failed <= 1 && m.hi < 0.5);
    /* A second matched measure that never lies within tolerance leaves no pair. */
    double far[N];
    for (int i = 0; i < N; i++) far[i] = 10.0 * i;
    const double *two[] = {rc, far};
    double tol2[] = {1, 1};
    gb_matched_pairs(lines, two, tol2, 2, by_lines, N, &m);
    assert_int_equal(m.pairs, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_drop_stats_wilson_known_values),
        cmocka_unit_test(test_drop_stats_mann_whitney_separated_and_tied),
        cmocka_unit_test(test_drop_stats_logistic_follows_the_predictor_that_decides),
        cmocka_unit_test(test_drop_stats_sign_test_known_values),
        cmocka_unit_test(test_drop_stats_matched_pairs_follow_the_cause),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
