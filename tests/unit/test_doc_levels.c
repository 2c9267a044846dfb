/* levels.json (src/doc/levels.h): write -> parse -> write gives the same bytes, the layout
 * `genebench levels` has always written, and the parser refuses missing, mistyped and unknown
 * keys naming the file and the key. */
#include "src/doc/levels.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/helpers.h"

static void add_level(GbLevelsDoc *doc, const char *name, long tasks, double rc)
{
    char file[64];
    snprintf(file, sizeof file, "level_%s.jsonl", name);
    GbLevelsDocLevel l = {gb_strdup(name), gb_strdup(file), tasks, rc, 0.7, 119.125, 19.8125, tasks ? 0.4375 : NAN};
    gb_array_push(&doc->levels, l);
}

static char *written(const GbLevelsDoc *doc)
{
    GbStr s;
    gb_str_init(&s);
    gb_levels_doc_write(&s, doc);
    return s.data;
}

static void test_levels_doc_round_trips(void **state)
{
    (void)state;
    GbLevelsDoc doc = {gb_strdup("out/ev.jsonl"), gb_strdup("rungs"), 1, {0}, 1.5, {0}};
    gb_array_push(&doc.rc_targets, 0.0651);
    gb_array_push(&doc.rc_targets, 0.17456789);
    add_level(&doc, "0", 16, 0.0651);
    add_level(&doc, "1", 16, 0.1746);
    add_level(&doc, "size", 0, NAN);
    char *a = written(&doc);
    gb_levels_doc_destroy(&doc);
    assert_string_equal(
        a, "{\"input\":\"out/ev.jsonl\",\"by\":\"rungs\",\"k\":1,\"rc_targets\":[0.0651, 0.174568],"
           "\"size_budget\":1.5,\"levels\":[\n"
           "    {\"level\":\"0\",\"file\":\"level_0.jsonl\",\"tasks\":16,\"mean_rc\":0.0651,\"mean_rr\":0.7,"
           "\"mean_tokens\":119.125,\"mean_lines\":19.8125,\"mean_rung\":0.4375},\n"
           "    {\"level\":\"1\",\"file\":\"level_1.jsonl\",\"tasks\":16,\"mean_rc\":0.1746,\"mean_rr\":0.7,"
           "\"mean_tokens\":119.125,\"mean_lines\":19.8125,\"mean_rung\":0.4375},\n"
           "    {\"level\":\"size\",\"file\":\"level_size.jsonl\",\"tasks\":0,\"mean_rc\":null,"
           "\"mean_rr\":0.7,\"mean_tokens\":119.125,\"mean_lines\":19.8125,\"mean_rung\":null}\n  ]}\n");
    GbLevelsDoc back;
    GbError err = {{0}};
    if (!gb_levels_doc_parse(a, strlen(a), "levels.json", &back, &err)) fail_msg("%s", err.msg);
    assert_int_equal(back.levels.len, 3);
    assert_int_equal(back.rc_targets.len, 2);
    assert_true(isnan(back.levels.items[2].mean_rc));
    assert_string_equal(back.levels.items[2].level, "size");
    char *b = written(&back);
    assert_string_equal(a, b);
    gb_levels_doc_destroy(&back);
    free(b);
    free(a);
}

static void test_levels_doc_refuses_bad_keys(void **state)
{
    (void)state;
    GbLevelsDoc doc = {gb_strdup("ev.jsonl"), gb_strdup("rc"), 0, {0}, 2, {0}};
    gb_array_push(&doc.rc_targets, NAN);
    add_level(&doc, "0", 3, 0.5);
    char *good = written(&doc);
    gb_levels_doc_destroy(&doc);
    static const struct {
        const char *from, *to, *message;
    } cases[] = {
        {"\"k\":0", "\"k\":\"0\"", "bad.json: \"k\": expected an integer"},
        {"[null]", "[\"x\"]", "bad.json: \"rc_targets[0]\": expected a number or null"},
        {"\"tasks\":3", "\"tasks\":3,\"extra\":1", "bad.json: \"levels[0].extra\": unknown key"},
        {"\"file\":\"level_0.jsonl\",", "", "bad.json: \"levels[0].file\": expected a string (missing)"},
        {"\"mean_rc\":0.5", "\"mean_rc\":true", "bad.json: \"levels[0].mean_rc\""},
        {"\"size_budget\":2,", "", "bad.json: \"size_budget\""},
        {"{\"input\"", "[{\"input\"", "bad.json"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *at = strstr(good, cases[i].from);
        if (!at) fail_msg("case %zu: \"%s\" is not in the document", i, cases[i].from);
        char *bad = gb_asprintf("%.*s%s%s", (int)(at - good), good, cases[i].to, at + strlen(cases[i].from));
        GbLevelsDoc d;
        GbError err = {{0}};
        if (gb_levels_doc_parse(bad, strlen(bad), "bad.json", &d, &err)) {
            gb_levels_doc_destroy(&d);
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
        cmocka_unit_test(test_levels_doc_round_trips),
        cmocka_unit_test(test_levels_doc_refuses_bad_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
