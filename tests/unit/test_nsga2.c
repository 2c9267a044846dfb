/* NSGA-II building blocks: dominance, fast non-dominated sort, crowding distance, ranking
 * and selection. Every expectation below was computed by hand (the arithmetic is in the
 * comments); one property test checks the sort's invariants on seeded random populations. */
#include "nsga2/crowding.h"
#include "nsga2/dominance.h"
#include "nsga2/select.h"
#include "nsga2/sort.h"

#include <math.h>
#include <stdlib.h>

#include "src/base/rng.h"
#include "src/base/util.h"
#include "tests/unit/helpers.h"

#define MAXN 16
#define INF INFINITY

static void assert_distances(const double *got, const double *want, size_t m)
{
    for (size_t j = 0; j < m; j++) {
        assert_false(isnan(got[j]));
        if (isinf(want[j]))
            assert_true(isinf(got[j]) && got[j] > 0);
        else
            assert_near(got[j], want[j], 1e-12);
    }
}

/* ---- dominance ---- */

typedef struct {
    size_t k;
    double a[4], b[4];
    GbDominance want;
} DomCase;

static void test_dominance_table(void **state)
{
    (void)state;
    static const DomCase cases[] = {
        {2, {1, 1}, {0, 0}, GB_DOM_A},         /* better in both */
        {2, {1, 0}, {0, 1}, GB_DOM_NEITHER},   /* trade-off */
        {2, {1, 1}, {1, 1}, GB_DOM_NEITHER},   /* identical never dominates */
        {2, {1, 1}, {1, 0}, GB_DOM_A},         /* equal in one, better in the other */
        {2, {0.5, 0.2}, {0.5, 0.3}, GB_DOM_B}, /* maximisation: larger RR wins */
        {2, {-1, -1}, {-2, -1}, GB_DOM_A},     /* negative values */
        {1, {3}, {2}, GB_DOM_A},
        {1, {2}, {2}, GB_DOM_NEITHER},
        {3, {1, 2, 3}, {1, 2, 3}, GB_DOM_NEITHER},
        {3, {1, 2, 3}, {1, 2, 4}, GB_DOM_B}, /* only the last objective differs */
        {3, {2, 2, 2}, {1, 3, 2}, GB_DOM_NEITHER},
        {4, {0, 0, 0, 1}, {0, 0, 0, 0}, GB_DOM_A},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const DomCase *c = &cases[i];
        assert_int_equal(gb_dominance_compare(c->a, c->b, c->k), c->want);
        /* Swapping the arguments mirrors the answer. */
        assert_int_equal(gb_dominance_compare(c->b, c->a, c->k), -(int)c->want);
        assert_int_equal(gb_dominates(c->a, c->b, c->k), c->want == GB_DOM_A);
        assert_int_equal(gb_dominates(c->b, c->a, c->k), c->want == GB_DOM_B);
    }
}

/* ---- non-dominated sort ---- */

typedef struct {
    const char *name;
    size_t n, k;
    double obj[MAXN * 3];
    size_t nfronts;
    size_t rank[MAXN];
    size_t order[MAXN];
    size_t front_start[MAXN + 1];
} SortCase;

static void test_sort_table(void **state)
{
    (void)state;
    static const SortCase cases[] = {
        /* 0 (1,5), 1 (2,4), 2 (3,3), 6 (3,3) are non-dominated (2 and 6 are equal).
         * 4 (2,2) is dominated by 1 and 2; 3 (1,1) by 0 and 4; 5 (0,0) by 3. */
        {"mixed",
         7,
         2,
         {1, 5, 2, 4, 3, 3, 1, 1, 2, 2, 0, 0, 3, 3},
         4,
         {0, 0, 0, 2, 1, 3, 0},
         {0, 1, 2, 6, 4, 3, 5},
         {0, 4, 5, 6, 7}},
        {"identical", 3, 2, {0.5, 0.5, 0.5, 0.5, 0.5, 0.5}, 1, {0, 0, 0}, {0, 1, 2}, {0, 3}},
        /* A chain whose best point has the highest index. */
        {"chain", 3, 2, {0, 0, 1, 1, 2, 2}, 3, {2, 1, 0}, {2, 1, 0}, {0, 1, 2, 3}},
        {"single", 1, 2, {0.3, 0.7}, 1, {0}, {0}, {0, 1}},
        /* 4 (1,1,1) dominates everything; 0, 1, 2 are unit vectors; 3 is the origin. */
        {"three objectives",
         5,
         3,
         {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1},
         3,
         {1, 1, 1, 2, 0},
         {4, 0, 1, 2, 3},
         {0, 1, 4, 5}},
        /* Peeling 0 (5,1) frees 3 (4,0) before peeling 1 (1,5) frees 2 (0,4): the second
         * front is discovered as [3, 2] and must come out ascending. */
        {"front discovered out of order", 4, 2, {5, 1, 1, 5, 0, 4, 4, 0}, 2, {0, 0, 1, 1}, {0, 1, 2, 3}, {0, 2, 4}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const SortCase *c = &cases[i];
        size_t rank[MAXN], order[MAXN], starts[MAXN + 1];
        size_t nf = gb_nondominated_sort(c->obj, c->n, c->k, rank, order, starts);
        if (nf != c->nfronts) fail_msg("%s: %zu fronts, expected %zu", c->name, nf, c->nfronts);
        for (size_t j = 0; j < c->n; j++) {
            if (rank[j] != c->rank[j]) fail_msg("%s: rank[%zu] = %zu, expected %zu", c->name, j, rank[j], c->rank[j]);
            if (order[j] != c->order[j])
                fail_msg("%s: order[%zu] = %zu, expected %zu", c->name, j, order[j], c->order[j]);
        }
        for (size_t f = 0; f <= nf; f++) assert_int_equal(starts[f], c->front_start[f]);
        /* order and front_start are optional outputs. */
        size_t rank2[MAXN];
        assert_int_equal(gb_nondominated_sort(c->obj, c->n, c->k, rank2, NULL, NULL), nf);
        for (size_t j = 0; j < c->n; j++) assert_int_equal(rank2[j], rank[j]);
    }
}

static void test_sort_empty_population(void **state)
{
    (void)state;
    size_t rank[1], order[1], starts[1] = {99};
    assert_int_equal(gb_nondominated_sort(NULL, 0, 2, rank, order, starts), 0);
    assert_int_equal(starts[0], 0);
}

/* Invariants on seeded random populations with many ties (values on a coarse grid):
 * nobody in a front dominates a member of the same front, every member of front f > 0 is
 * dominated by some member of front f - 1, and fronts are ascending. */
static void test_sort_invariants_random(void **state)
{
    (void)state;
    enum { N = 60 };
    double obj[N * 3];
    size_t rank[N], order[N], starts[N + 1];
    GbRng rng;
    for (unsigned trial = 0; trial < 40; trial++) {
        size_t k = 1 + trial % 3;
        gb_rng_init_keyed(&rng, 2024, trial, 0, 0);
        for (size_t i = 0; i < N * k; i++) obj[i] = (double)gb_rng_bounded(&rng, 6) / 5.0;
        size_t nf = gb_nondominated_sort(obj, N, k, rank, order, starts);
        assert_int_equal(starts[nf], N);
        for (size_t f = 0; f < nf; f++) {
            assert_true(starts[f] < starts[f + 1]);
            for (size_t a = starts[f]; a < starts[f + 1]; a++) {
                size_t p = order[a];
                assert_int_equal(rank[p], f);
                if (a > starts[f]) assert_true(order[a - 1] < p);
                for (size_t b = starts[f]; b < starts[f + 1]; b++)
                    assert_false(gb_dominates(obj + order[b] * k, obj + p * k, k));
                if (f == 0) continue;
                bool dominated = false;
                for (size_t b = starts[f - 1]; b < starts[f]; b++)
                    dominated = dominated || gb_dominates(obj + order[b] * k, obj + p * k, k);
                assert_true(dominated);
            }
            double cd[N];
            gb_crowding_distance(obj, k, order + starts[f], starts[f + 1] - starts[f], cd);
            for (size_t j = 0; j < starts[f + 1] - starts[f]; j++) assert_true(!isnan(cd[j]) && cd[j] >= 0);
        }
    }
}

/* ---- crowding distance ---- */

typedef struct {
    const char *name;
    size_t k;
    double obj[MAXN * 2];
    size_t m;
    size_t members[MAXN];
    double want[MAXN];
} CrowdCase;

static void test_crowding_table(void **state)
{
    (void)state;
    static const CrowdCase cases[] = {
        /* obj0 order 0,1,2,3 (0,1,2,4), range 4: 1 += (2-0)/4 = 0.5, 2 += (4-1)/4 = 0.75.
         * obj1 order 3,2,1,0 (0,1,3,4), range 4: 2 += (3-0)/4 = 0.75, 1 += (4-1)/4 = 0.75. */
        {"four points", 2, {0, 4, 1, 3, 2, 1, 4, 0}, 4, {0, 1, 2, 3}, {INF, 1.25, 1.5, INF}},
        /* obj1 has zero range and contributes nothing; obj0: 1 += (4-1)/3. */
        {"zero range objective", 2, {1, 7, 2, 7, 4, 7}, 3, {0, 1, 2}, {INF, 1.0, INF}},
        {"all identical: zero, not NaN", 2, {3, 3, 3, 3, 3, 3}, 3, {0, 1, 2}, {0, 0, 0}},
        {"lone point", 2, {0.2, 0.8}, 1, {0}, {0}},
        {"two distinct points", 2, {0.2, 0.8, 0.8, 0.2}, 2, {0, 1}, {INF, INF}},
        /* Members are a subset, listed out of index order: 5 (3,0), 2 (1,2), 7 (2,1).
         * obj0 order 2,7,5, range 2: 7 += (3-1)/2; obj1 order 5,7,2, range 2: 7 += (2-0)/2. */
        {"subset out of order", 2, {9, 9, 9, 9, 1, 2, 9, 9, 9, 9, 3, 0, 9, 9, 2, 1}, 3, {5, 2, 7}, {INF, INF, 2.0}},
        /* Tie at the minimum: values 1 (idx 0), 1 (idx 1), 3 (idx 2), 5 (idx 3), range 4.
         * Stable order puts idx 0 first (boundary); idx 1 is interior: (3-1)/4 = 0.5;
         * idx 2: (5-1)/4 = 1.0. Members listed backwards. */
        {"tie at the extreme goes by index", 1, {1, 1, 3, 5}, 4, {3, 2, 1, 0}, {INF, 1.0, 0.5, INF}},
        /* Tie at the maximum: idx 2 (5) and idx 3 (5); the higher index is last. */
        {"tie at the maximum", 1, {1, 3, 5, 5}, 4, {0, 1, 2, 3}, {INF, 1.0, 0.5, INF}},
        /* max - min overflows to infinity; the result must still be finite: (1e308 + 1e308)
         * / 2e308 = 1, computed on halves. */
        {"huge range", 1, {-1e308, 0, 1e308}, 3, {0, 1, 2}, {INF, 1.0, INF}},
        {"empty front", 2, {0}, 0, {0}, {0}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const CrowdCase *c = &cases[i];
        double dist[MAXN];
        print_message("crowding case: %s\n", c->name);
        gb_crowding_distance(c->obj, c->k, c->members, c->m, dist);
        assert_distances(dist, c->want, c->m);
    }
}

/* ---- ranking and selection ---- */

/* Front 0: 0 (.1,.9), 1 (.5,.5), 2 (.9,.1), 3 (.4,.7).
 *   RC order 0,3,1,2 (.1,.4,.5,.9), range .8: 3 += .4/.8 = .5, 1 += .5/.8 = .625;
 *   RR order 2,1,3,0 (.1,.5,.7,.9), range .8: 1 += .6/.8 = .75, 3 += .4/.8 = .5.
 *   => 0 inf, 1 1.375, 2 inf, 3 1.0.
 * Front 1: 4 (.3,.4) (under 1), 5 (.05,.8) (under 0), 6 (.2,.6) (under 3).
 *   RC order 5,6,4, range .25: 6 += .25/.25 = 1; RR order 4,6,5, range .4: 6 += .4/.4 = 1.
 *   => 4 inf, 5 inf, 6 2.0.
 * Front 2: 7 (0,0). Lone point: 0. */
static const double POP[] = {.1, .9, .5, .5, .9, .1, .4, .7, .3, .4, .05, .8, .2, .6, 0, 0};
#define POP_N 8

static void test_rank_order_rank_and_crowding(void **state)
{
    (void)state;
    size_t order[POP_N], rank[POP_N];
    double cd[POP_N];
    gb_nsga2_rank(POP, POP_N, 2, order, rank, cd);
    const size_t want_order[POP_N] = {0, 2, 1, 3, 4, 5, 6, 7};
    const size_t want_rank[POP_N] = {0, 0, 0, 0, 1, 1, 1, 2};
    const double want_cd[POP_N] = {INF, 1.375, INF, 1.0, INF, INF, 2.0, 0};
    for (size_t i = 0; i < POP_N; i++) {
        assert_int_equal(order[i], want_order[i]);
        assert_int_equal(rank[i], want_rank[i]);
    }
    assert_distances(cd, want_cd, POP_N);
    /* rank and crowding are optional. */
    size_t order2[POP_N];
    gb_nsga2_rank(POP, POP_N, 2, order2, NULL, NULL);
    for (size_t i = 0; i < POP_N; i++) assert_int_equal(order2[i], want_order[i]);
}

static void test_rank_identical_population_goes_by_index(void **state)
{
    (void)state;
    const double obj[] = {0.4, 0.4, 0.4, 0.4, 0.4, 0.4};
    size_t order[3];
    double cd[3];
    gb_nsga2_rank(obj, 3, 2, order, NULL, cd);
    for (size_t i = 0; i < 3; i++) {
        assert_int_equal(order[i], i);
        assert_true(cd[i] == 0.0);
    }
}

typedef struct {
    size_t n;
    double fraction;
    size_t want;
} CountCase;

static void test_select_count_table(void **state)
{
    (void)state;
    static const CountCase cases[] = {
        {0, 0.2, 0},    {1, 0.2, 1},   {4, 0.2, 1},     /* 0.8 -> 1 */
        {5, 0.2, 1},    {6, 0.2, 2},   {7, 0.2, 2},     /* 1.4 -> 2: ceil, not round */
        {10, 0.2, 2},   {11, 0.2, 3},  {100, 0.55, 55}, /* 0.55 * 100 = 55.00000000000001 -> 55 */
        {100, 0.2, 20}, {3, 1.0, 3},   {10, 0.05, 1},   /* 0.5 -> at least one */
        {3, 0.34, 2},   {49, 0.2, 10},                  /* 9.8 -> 10 */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t got = gb_nsga2_select_count(cases[i].n, cases[i].fraction);
        if (got != cases[i].want)
            fail_msg("n=%zu fraction=%g: %zu, expected %zu", cases[i].n, cases[i].fraction, got, cases[i].want);
    }
}

typedef struct {
    double fraction;
    size_t count;
    size_t want[POP_N];
} SelectCase;

static void test_select_table(void **state)
{
    (void)state;
    static const SelectCase cases[] = {
        {0.2, 2, {0, 2}},              /* ceil(1.6): the two boundary points of front 0 */
        {0.5, 4, {0, 2, 1, 3}},        /* exactly front 0, most isolated first */
        {0.6, 5, {0, 2, 1, 3, 4}},     /* ceil(4.8): front 0 + the lower-index boundary of front 1 */
        {0.75, 6, {0, 2, 1, 3, 4, 5}}, /* 6 (crowding 2.0) is left out */
        {1.0, 8, {0, 2, 1, 3, 4, 5, 6, 7}},
        {0.01, 1, {0}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t sel[POP_N];
        size_t got = gb_nsga2_select(POP, POP_N, 2, cases[i].fraction, sel);
        assert_int_equal(got, cases[i].count);
        for (size_t j = 0; j < got; j++) assert_int_equal(sel[j], cases[i].want[j]);
    }
}

static void test_first_front(void **state)
{
    (void)state;
    size_t front[POP_N];
    assert_int_equal(gb_nsga2_first_front(POP, POP_N, 2, front), 4);
    for (size_t i = 0; i < 4; i++) assert_int_equal(front[i], i);
    assert_int_equal(gb_nsga2_first_front(NULL, 0, 2, front), 0);
}

typedef struct {
    const char *name;
    size_t n, k;
    double obj[MAXN * 3];
    size_t want;
} BestCase;

static void test_best_rc_table(void **state)
{
    (void)state;
    static const BestCase cases[] = {
        {"highest RC", POP_N, 2, {.1, .9, .5, .5, .9, .1, .4, .7, .3, .4, .05, .8, .2, .6, 0, 0}, 2},
        {"only individual", 1, 2, {0.1, 0.2}, 0},
        /* Third objective: 0 (.5,.2,.9) and 1 (.5,.4,.1) are both on the first front and tie
         * on RC; the higher RR wins. */
        {"RC tie -> higher RR", 3, 3, {.5, .2, .9, .5, .4, .1, .3, .9, .9}, 1},
        /* 1 and 3 are identical (RC .7, RR .4) and non-dominated: the lower index wins. */
        {"full tie -> lower index", 4, 3, {.2, .9, 0, .7, .4, .1, .1, .1, .1, .7, .4, .1}, 1},
        /* 0 and 1 tie on RC and RR, but 1 dominates 0 on the third objective, so 0 is not on
         * the first front even though its index is lower. */
        {"dominated tie is not picked", 3, 3, {.7, .4, .1, .7, .4, .5, .1, .9, 0}, 1},
        {"identical population", 3, 2, {.3, .3, .3, .3, .3, .3}, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t got = gb_nsga2_best_rc(cases[i].obj, cases[i].n, cases[i].k);
        if (got != cases[i].want) fail_msg("%s: picked %zu, expected %zu", cases[i].name, got, cases[i].want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dominance_table),
        cmocka_unit_test(test_sort_table),
        cmocka_unit_test(test_sort_empty_population),
        cmocka_unit_test(test_sort_invariants_random),
        cmocka_unit_test(test_crowding_table),
        cmocka_unit_test(test_rank_order_rank_and_crowding),
        cmocka_unit_test(test_rank_identical_population_goes_by_index),
        cmocka_unit_test(test_select_count_table),
        cmocka_unit_test(test_select_table),
        cmocka_unit_test(test_first_front),
        cmocka_unit_test(test_best_rc_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
