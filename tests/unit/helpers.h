#pragma once
/* Shared test helpers for cmocka tests (cmocka 1.1.5 has no assert_double_equal). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#define assert_near(a, b, eps)                                                                                         \
    do {                                                                                                               \
        double gb__a = (a), gb__b = (b);                                                                               \
        if (!(fabs(gb__a - gb__b) <= (eps))) {                                                                         \
            print_error("%s = %.9g, expected %.9g (±%g)\n", #a, gb__a, gb__b, (double)(eps));                          \
            fail();                                                                                                    \
        }                                                                                                              \
    } while (0)

/* Directory of the test fixtures (tests/data), set by meson. */
#ifndef GB_TEST_DATA
#define GB_TEST_DATA "tests/data"
#endif
