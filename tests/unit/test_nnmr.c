/* NNMR on hand-made vectors: hits, misses, ties (lowest index wins), zero vectors, counterpart
 * ranks and displacement. */
#include "src/measure/nnmr.h"

#include <math.h>

#include "tests/unit/helpers.h"

static void test_nnmr_all_counterparts_found(void **state)
{
    (void)state;
    const double o[] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    const double h[] = {2, 0.1, 0, 0, 3, 0.2, 0.1, 0, 5}; /* scaled: cosine ignores length */
    GbNnmr r;
    gb_nnmr_compute(o, h, 3, 3, &r);
    assert_int_equal(r.miss_o2h, 0);
    assert_int_equal(r.miss_h2o, 0);
    assert_near(r.nnmr_o2h, 0.0, 1e-12);
    gb_nnmr_destroy(&r);
}

static void test_nnmr_misses_in_each_direction(void **state)
{
    (void)state;
    /* o0 = (0.6, 0.8, 0), o1 = (0, 1, 1); h0 = (1, 0, 0), h1 = (0, 1, 0).
     * cos: o0.h0 = 0.6, o0.h1 = 0.8, o1.h0 = 0, o1.h1 = 0.707.
     * o->h: o0 -> h1 (miss), o1 -> h1 (hit).  h->o: h0 -> o0 (hit), h1 -> o0 (miss). */
    const double o[] = {0.6, 0.8, 0, 0, 1, 1};
    const double h[] = {1, 0, 0, 0, 1, 0};
    GbNnmr r;
    gb_nnmr_compute(o, h, 2, 3, &r);
    assert_int_equal(r.nn_o2h[0], 1);
    assert_int_equal(r.nn_o2h[1], 1);
    assert_int_equal(r.miss_o2h, 1);
    assert_near(r.nnmr_o2h, 50.0, 1e-12);
    assert_int_equal(r.nn_h2o[0], 0);
    assert_int_equal(r.nn_h2o[1], 0);
    assert_int_equal(r.miss_h2o, 1);
    assert_near(r.nnmr_h2o, 50.0, 1e-12);
    assert_near(r.self_cos[0], 0.6, 1e-12);
    assert_near(r.self_cos[1], sqrt(0.5), 1e-12);
    gb_nnmr_destroy(&r);
}

static void test_nnmr_ranks_and_displacement(void **state)
{
    (void)state;
    /* Same vectors as above: o->h ranks: o0 sees h1 (0.8) before h0 (0.6): rank 2; o1 sees h1
     * first: rank 1. h->o: h0 sees o0 first (0.6 > 0): 1; h1 sees o0 (0.8) before o1 (0.707): 2.
     * cos(o0, o1) = 0.8 / sqrt(2) = 0.5657; displacement_0 = (1 - 0.6) / (1 - 0.5657),
     * displacement_1 = (1 - 0.7071) / (1 - 0.5657). */
    const double o[] = {0.6, 0.8, 0, 0, 1, 1};
    const double h[] = {1, 0, 0, 0, 1, 0};
    GbNnmr r;
    gb_nnmr_compute(o, h, 2, 3, &r);
    assert_int_equal(r.rank_o2h[0], 2);
    assert_int_equal(r.rank_o2h[1], 1);
    assert_int_equal(r.rank_h2o[0], 1);
    assert_int_equal(r.rank_h2o[1], 2);
    assert_near(r.mean_rank_o2h, 1.5, 1e-12);
    assert_near(r.mean_rank_h2o, 1.5, 1e-12);
    double oo = 0.8 / sqrt(2.0);
    assert_near(r.displacement[0], 0.4 / (1 - oo), 1e-12);
    assert_near(r.displacement[1], (1 - sqrt(0.5)) / (1 - oo), 1e-12);
    assert_near(r.displacement_median, 0.5 * (r.displacement[0] + r.displacement[1]), 1e-12);
    assert_int_equal(r.displaced, 0);
    gb_nnmr_destroy(&r);
    /* identical sets: every rank 1, displacement 0 */
    const double e[] = {1, 0, 0, 1, 1, 1};
    gb_nnmr_compute(e, e, 3, 2, &r);
    assert_near(r.mean_rank_o2h, 1.0, 1e-12);
    assert_near(r.displacement_mean, 0.0, 1e-12);
    gb_nnmr_destroy(&r);
    /* one program: no other original to measure against */
    gb_nnmr_compute(e, e, 1, 2, &r);
    assert_true(isnan(r.displacement[0]) && isnan(r.displacement_median));
    gb_nnmr_destroy(&r);
}

static void test_nnmr_ties_go_to_the_lowest_index(void **state)
{
    (void)state;
    /* Every vector equal: each query ties over the whole gallery and picks index 0, so only
     * program 0 finds its counterpart. Zero vectors tie at cosine 0 the same way. */
    const double same[] = {1, 1, 1, 1, 1, 1, 1, 1};
    GbNnmr r;
    gb_nnmr_compute(same, same, 4, 2, &r);
    for (size_t i = 0; i < 4; i++) {
        assert_int_equal(r.nn_o2h[i], 0);
        assert_int_equal(r.nn_h2o[i], 0);
    }
    assert_int_equal(r.miss_o2h, 3);
    assert_near(r.nnmr_h2o, 75.0, 1e-12);
    /* the tie rule in the ranks too: program i ranks after the i equal programs before it */
    for (size_t i = 0; i < 4; i++) assert_int_equal(r.rank_o2h[i], i + 1);
    gb_nnmr_destroy(&r);
    const double zero[] = {0, 0, 0, 0};
    gb_nnmr_compute(zero, zero, 2, 2, &r);
    assert_int_equal(r.miss_o2h, 1);
    gb_nnmr_destroy(&r);
}

static void test_nnmr_sparse_and_dense_paths_agree(void **state)
{
    (void)state;
    /* 16-dim rows with 1 nonzero (sparse path) against dense rows. */
    double o[3 * 16] = {0}, h[3 * 16];
    o[0 * 16 + 3] = 1;
    o[1 * 16 + 7] = 2;
    o[2 * 16 + 11] = 1;
    for (size_t i = 0; i < 3; i++)
        for (size_t k = 0; k < 16; k++) h[i * 16 + k] = 0.01 * (double)(k % 5) + (o[i * 16 + k] != 0 ? 1.0 : 0.0);
    GbNnmr a, b;
    gb_nnmr_compute(o, h, 3, 16, &a);
    gb_nnmr_compute(h, o, 3, 16, &b);
    for (size_t i = 0; i < 3; i++) {
        assert_int_equal(a.nn_o2h[i], i);
        assert_int_equal(b.nn_h2o[i], a.nn_o2h[i]);
        assert_near(a.self_cos[i], b.self_cos[i], 1e-12);
    }
    gb_nnmr_destroy(&a);
    gb_nnmr_destroy(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nnmr_all_counterparts_found),
        cmocka_unit_test(test_nnmr_misses_in_each_direction),
        cmocka_unit_test(test_nnmr_ranks_and_displacement),
        cmocka_unit_test(test_nnmr_ties_go_to_the_lowest_index),
        cmocka_unit_test(test_nnmr_sparse_and_dense_paths_agree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
