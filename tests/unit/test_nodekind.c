#include "src/python/nodekind.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/python/pyparse.h"
#include "tests/unit/helpers.h"

/* The kind of a type name as the string comparisons decided it: the listed kind with that
 * name, or GB_NK_OTHER. */
static GbNodeKind kind_by_name(const char *type)
{
    for (int k = 1; k < GB_NK_COUNT; k++)
        if (strcmp(gb_node_kind_name((GbNodeKind)k), type) == 0) return (GbNodeKind)k;
    return GB_NK_OTHER;
}

/* Every node below n, named or not, gets the kind its type name stands for. Returns the
 * number of nodes checked; counts[k] counts the nodes of kind k. */
static size_t check_tree(TSNode n, size_t *counts)
{
    GbNodeKind want = kind_by_name(ts_node_type(n)), got = gb_node_kind(n);
    if (want != got) {
        print_error("node %s at byte %u: kind %s, expected %s\n", ts_node_type(n), ts_node_start_byte(n),
                    gb_node_kind_name(got), gb_node_kind_name(want));
        fail();
    }
    counts[got]++;
    size_t total = 1;
    uint32_t c = ts_node_child_count(n);
    for (uint32_t i = 0; i < c; i++) total += check_tree(ts_node_child(n, i), counts);
    return total;
}

static size_t check_source(const char *src, size_t *counts)
{
    TSParser *p = gb_parser_new();
    TSTree *t = gb_parse(p, src, strlen(src));
    size_t n = check_tree(ts_tree_root_node(t), counts);
    ts_tree_delete(t);
    ts_parser_delete(p);
    return n;
}

/* Names that are both a named node and a keyword token, aliases, soft keywords, patterns. */
static const char gb_test_src[] = "import os, sys as system\n"
                                  "from . import x\n"
                                  "from __future__ import annotations\n"
                                  "type Alias = int | None\n"
                                  "async def f(a, /, b: int = 1, *args, c=2, **kw) -> list[int]:\n"
                                  "    global g\n"
                                  "    x = lambda y: (yield y)\n"
                                  "    await g(*args, **kw)\n"
                                  "    async for i in x: pass\n"
                                  "    async with a as b: pass\n"
                                  "    z = [i async for i in x if i is not None and i not in b]\n"
                                  "    return f'{a!r:>{b}}' 'tail' \\\n"
                                  "        + b'\\x00'\n"
                                  "match cmd:\n"
                                  "    case [1, *rest] | {'k': v, **kw} if v: pass\n"
                                  "    case Point(x=0) as p: pass\n"
                                  "    case _: pass\n"
                                  "try:\n"
                                  "    del a[1:2], b.c\n"
                                  "except* (ValueError, TypeError) as e:\n"
                                  "    raise RuntimeError from e\n"
                                  "finally:\n"
                                  "    x @= y; x //= 2; x -= ~1 % 3; print >> f, x\n"
                                  "while (n := n - 1) > 0: continue\n"
                                  "x = ) 1 $ 2\n";

static void test_nodekind_matches_type_names(void **state)
{
    (void)state;
    size_t counts[GB_NK_COUNT] = {0};
    size_t n = check_source(gb_test_src, counts);
    assert_true(n > 300);
    /* The dual names: the named node and the keyword token both have the kind. */
    assert_true(counts[GB_NK_LAMBDA] >= 2);
    assert_true(counts[GB_NK_TYPE] >= 2);
    assert_true(counts[GB_NK_YIELD] >= 2);
    assert_true(counts[GB_NK_AWAIT] >= 2);
    assert_true(counts[GB_NK_ERROR] >= 1);
    assert_true(counts[GB_NK_AS_PATTERN_TARGET] >= 1);
    assert_true(counts[GB_NK_IS_NOT] == 1 && counts[GB_NK_NOT_IN] == 1);
}

static void test_nodekind_matches_type_names_sample_file(void **state)
{
    (void)state;
    FILE *f = fopen(GB_TEST_DATA "/mutate_sample.py", "rb");
    assert_non_null(f);
    static char buf[1 << 20];
    size_t len = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[len] = '\0';
    size_t counts[GB_NK_COUNT] = {0};
    assert_true(check_source(buf, counts) > 100);
    assert_true(counts[GB_NK_FUNCTION_DEFINITION] > 0 && counts[GB_NK_IDENTIFIER] > 0);
}

static void test_nodekind_null_is_other(void **state)
{
    (void)state;
    TSNode null = {0};
    assert_int_equal(gb_node_kind(null), GB_NK_OTHER);
    assert_false(gb_node_is_kind(null, GB_NK_IDENTIFIER));
    assert_false(gb_node_is_kind(null, GB_NK_OTHER));
}

static void test_nodekind_names_are_distinct(void **state)
{
    (void)state;
    assert_string_equal(gb_node_kind_name(GB_NK_OTHER), "");
    assert_string_equal(gb_node_kind_name(GB_NK_FOR_STATEMENT), "for_statement");
    assert_string_equal(gb_node_kind_name(GB_NK_IS_NOT), "is not");
    for (int a = 1; a < GB_NK_COUNT; a++)
        for (int b = a + 1; b < GB_NK_COUNT; b++)
            assert_string_not_equal(gb_node_kind_name((GbNodeKind)a), gb_node_kind_name((GbNodeKind)b));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nodekind_matches_type_names),
        cmocka_unit_test(test_nodekind_matches_type_names_sample_file),
        cmocka_unit_test(test_nodekind_null_is_other),
        cmocka_unit_test(test_nodekind_names_are_distinct),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
