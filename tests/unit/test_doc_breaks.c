/* breaks.json (src/doc/breaks.h): a file `genebench breaks` wrote (tests/data/doc/breaks.json, its
 * level paths made relative) parses and writes back byte-identical, and the parser refuses
 * missing, mistyped and unknown keys naming the file and the key. */
#include "src/doc/breaks.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/helpers.h"

static char *fixture(size_t *len)
{
    char *path = gb_asprintf("%s/doc/breaks.json", GB_TEST_DATA);
    GbError err = {{0}};
    char *text = gb_read_file(path, len, &err);
    free(path);
    if (!text) fail_msg("%s", err.msg);
    return text;
}

static void test_breaks_doc_round_trips(void **state)
{
    (void)state;
    size_t len;
    char *text = fixture(&len);
    GbBreaksDoc doc;
    GbError err = {{0}};
    if (!gb_breaks_doc_parse(text, len, "breaks.json", &doc, &err)) fail_msg("%s", err.msg);
    assert_int_equal(doc.levels.len, 9);
    assert_string_equal(doc.levels.items[0].file, "L/level_0.jsonl");
    assert_true(doc.by_format.len > 0);
    assert_null(doc.by_format.items[0].levels.items[0].file);
    assert_true(doc.items.len > 0);
    assert_string_equal(doc.points_at, "size");
    GbStr again;
    gb_str_init(&again);
    gb_breaks_doc_write(&again, &doc);
    assert_string_equal(again.data, text);
    gb_str_destroy(&again);
    gb_breaks_doc_destroy(&doc);
    free(text);
}

static void test_breaks_doc_refuses_bad_keys(void **state)
{
    (void)state;
    size_t len;
    char *good = fixture(&len);
    static const struct {
        const char *from, *to, *message;
    } cases[] = {
        {"\"version\":0,", "", "bad.json: \"levels[0].version\": expected an integer (missing)"},
        {"\"items\":25", "\"items\":\"25\"", "bad.json: \"levels[0].items\": expected an integer"},
        {"\"ci95\":[", "\"ci95\":[1, ", "bad.json: \"levels[0].ci95\": expected two numbers"},
        {"\"rungs\":[", "\"rungs\":[0.5, ", "bad.json: \"items["},
        {"\"breaking_version\":null", "\"breaking_version\":null,\"rungs\":[0, 1]", "only with a breaking version"},
        {"\"op\":", "\"extra\":1,\"op\":", "unknown key"},
        {"\"u\":", "\"v\":", "bad.json: \"rank_test.v\": unknown key"},
        {"\"log_tokens\":{", "\"log_lines\":{", "bad.json: \"complexity_vs_size.logistic_tokens.log_lines\""},
        {"\"mean_gap\":", "\"gap\":", "bad.json: \"complexity_vs_size.rc_at_equal_size.gap\": unknown key"},
        {"\"rank_test\"", "\"rank_tests\"", "bad.json: \"rank_tests\": unknown key"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *at = strstr(good, cases[i].from);
        if (!at) fail_msg("case %zu: \"%s\" is not in the document", i, cases[i].from);
        char *bad = gb_asprintf("%.*s%s%s", (int)(at - good), good, cases[i].to, at + strlen(cases[i].from));
        GbBreaksDoc d;
        GbError err = {{0}};
        if (gb_breaks_doc_parse(bad, strlen(bad), "bad.json", &d, &err)) {
            gb_breaks_doc_destroy(&d);
            fail_msg("case %zu was accepted", i);
        }
        if (!strstr(err.msg, cases[i].message))
            fail_msg("case %zu: got \"%s\", expected \"%s\"", i, err.msg, cases[i].message);
        free(bad);
    }
    free(good);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_breaks_doc_round_trips),
        cmocka_unit_test(test_breaks_doc_refuses_bad_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
