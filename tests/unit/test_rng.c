#include "src/base/rng.h"

#include "tests/unit/helpers.h"

/* Reference: the pcg32-demo program of the PCG C library, seeded with
 * pcg32_srandom_r(&rng, 42u, 54u), round 1. */
static void test_rng_pcg32_demo_numbers(void **state)
{
    (void)state;
    GbRng rng;
    gb_rng_seed(&rng, 42u, 54u);
    assert_true(rng.inc == 109u);
    assert_true(rng.state == 1753877967969059832ULL);
    const uint32_t want[] = {0xa15c02b7, 0x7b47f409, 0xba1d3330, 0x83d2f293, 0xbfa4784b, 0xcbed606e};
    for (size_t i = 0; i < 6; i++) assert_int_equal(gb_rng_next(&rng), want[i]);
    /* coins: bounded(2), H=1 T=0 */
    const char *coins = "HHTTTHTHHHTHTTTHHHHHTTTHHHTHTHTHTTHTTTHHHHHHTTTTHHTTTTTHTTTTTTTHT";
    for (const char *c = coins; *c; c++) assert_int_equal(gb_rng_bounded(&rng, 2) ? 'H' : 'T', *c);
    const int rolls[] = {3, 4, 1, 1, 2, 2, 3, 2, 4, 3, 2, 4, 3, 3, 5, 2, 3, 1, 3};
    for (size_t i = 0; i < sizeof rolls / sizeof rolls[0]; i++)
        assert_int_equal((int)gb_rng_bounded(&rng, 6) + 1, rolls[i]);
}

static void test_rng_keyed_streams_are_reproducible_and_distinct(void **state)
{
    (void)state;
    GbRng a, b, c;
    gb_rng_init_keyed(&a, 7, 1, 2, 3);
    gb_rng_init_keyed(&b, 7, 1, 2, 3);
    gb_rng_init_keyed(&c, 7, 1, 2, 4);
    int same_c = 0;
    for (int i = 0; i < 100; i++) {
        uint32_t x = gb_rng_next(&a), y = gb_rng_next(&b), z = gb_rng_next(&c);
        assert_int_equal(x, y);
        same_c += (x == z);
    }
    assert_true(same_c < 3);
}

static void test_rng_bounded_and_double_ranges(void **state)
{
    (void)state;
    GbRng r;
    gb_rng_seed(&r, 1, 1);
    int seen[7] = {0};
    for (int i = 0; i < 7000; i++) {
        uint32_t v = gb_rng_bounded(&r, 7);
        assert_true(v < 7);
        seen[v]++;
        double d = gb_rng_double(&r);
        assert_true(d >= 0.0 && d < 1.0);
    }
    for (int i = 0; i < 7; i++) assert_true(seen[i] > 800 && seen[i] < 1200);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rng_pcg32_demo_numbers),
        cmocka_unit_test(test_rng_keyed_streams_are_reproducible_and_distinct),
        cmocka_unit_test(test_rng_bounded_and_double_ranges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
