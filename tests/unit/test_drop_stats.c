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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_drop_stats_wilson_known_values),
        cmocka_unit_test(test_drop_stats_mann_whitney_separated_and_tied),
        cmocka_unit_test(test_drop_stats_logistic_follows_the_predictor_that_decides),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
