/* Lexical tokens, cosine of token counts, Jaccard of token sets. */
#include "src/python/tokensim.h"

#include <stdlib.h>
#include <string.h>

#include "src/python/pyparse.h"
#include "src/base/util.h"
#include "tests/unit/helpers.h"

static TSParser *parser;

static int setup(void **state)
{
    (void)state;
    parser = gb_parser_new();
    return parser ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    ts_parser_delete(parser);
    return 0;
}

static size_t ntokens(const char *src)
{
    uint64_t *h;
    size_t n = gb_lex_tokens(parser, src, strlen(src), &h);
    free(h);
    return n;
}

static void test_tokensim_tokens_drop_comments_keep_strings_whole(void **state)
{
    (void)state;
    static const struct {
        const char *src;
        size_t want;
    } cases[] = {
        {"x = 1\n", 3},
        {"x = 1  # a comment with words\n", 3},
        {"s = \"a b c\"\n", 3},                 /* the string is one token */
        {"s = f\"{a} and {b!r}\"\n", 3},        /* so is an f-string */
        {"s = 'a' 'b'\n", 4},                   /* two literals, two tokens */
        {"x = 1 + \\\n    2\n", 5},             /* no token for the continuation */
        {"def f(a, b=2):\n    return a\n", 12}, /* def f ( a , b = 2 ) : return a */
        {"", 0},
        {"# only\n", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) assert_int_equal(ntokens(cases[i].src), cases[i].want);
}

static double sim(const char *a, const char *b, bool cosine)
{
    GbTokenBag x, y;
    gb_token_bag_init(&x, parser, a, strlen(a));
    gb_token_bag_init(&y, parser, b, strlen(b));
    double r = cosine ? gb_token_cosine(&x, &y) : gb_token_jaccard(&x, &y);
    gb_token_bag_destroy(&x);
    gb_token_bag_destroy(&y);
    return r;
}

static void test_tokensim_cosine_and_jaccard_values(void **state)
{
    (void)state;
    /* a: x = x + 1   counts {x:2, =:1, +:1, 1:1}
     * b: y = x + 1   counts {y:1, x:1, =:1, +:1, 1:1}
     * dot = 2 + 1 + 1 + 1 = 5; |a| = sqrt(7), |b| = sqrt(5); sets share 4 of 5. */
    assert_near(sim("x = x + 1\n", "y = x + 1\n", true), 5.0 / (sqrt(7.0) * sqrt(5.0)), 1e-12);
    assert_near(sim("x = x + 1\n", "y = x + 1\n", false), 4.0 / 5.0, 1e-12);
    /* identical, disjoint, empty */
    assert_near(sim("a = b\n", "a = b  # c\n", true), 1.0, 1e-12);
    assert_near(sim("a = b\n", "a = b\n", false), 1.0, 1e-12);
    assert_near(sim("a\n", "b\n", true), 0.0, 1e-12);
    assert_near(sim("a\n", "b\n", false), 0.0, 1e-12);
    assert_near(sim("", "", false), 0.0, 1e-12);
    assert_near(sim("", "a\n", true), 0.0, 1e-12);
    /* case matters; a string token differs from the identifier it spells */
    assert_near(sim("Name\n", "name\n", false), 0.0, 1e-12);
    assert_near(sim("x\n", "'x'\n", false), 0.0, 1e-12);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tokensim_tokens_drop_comments_keep_strings_whole),
        cmocka_unit_test(test_tokensim_cosine_and_jaccard_values),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
