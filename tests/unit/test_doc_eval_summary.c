/* The eval summary and results lines of src/doc: write -> parse -> write gives the same bytes, and
 * a mistyped document is refused with a message that names the key. */
#include "src/doc/eval_summary.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/doc/eval_results.h"
#include "tests/unit/helpers.h"

#define FIXTURE GB_TEST_DATA "/eval/summary.json"

static char *read_fixture(size_t *len)
{
    GbError err;
    char *text = gb_read_file(FIXTURE, len, &err);
    assert_non_null(text);
    return text;
}

/* A summary as `genebench eval` wrote it (output prediction, 2 samples, two hardened versions). */
static void test_summary_fixture_round_trips(void **state)
{
    (void)state;
    size_t len;
    char *text = read_fixture(&len);
    GbEvalSummary s;
    GbError err;
    assert_true(gb_eval_summary_parse(text, len, FIXTURE, &s, &err));
    assert_string_equal(s.model, "sim");
    assert_string_equal(s.task, "output");
    assert_int_equal(s.nk, 2);
    assert_int_equal(s.versions.len, 3);
    assert_int_equal(s.comparisons.len, 2);
    assert_int_equal(s.versions.items[1].verdicts[GB_V_FAIL], 6);
    assert_int_equal(s.comparisons.items[0].lost, 3);
    assert_near(s.comparisons.items[0].relative_drop, 0.428571428571, 1e-12);
    assert_null(s.stopped_by);
    assert_true(s.has_across);
    char *again = gb_eval_summary_write(&s);
    assert_string_equal(again, text);
    free(again);
    gb_eval_summary_destroy(&s);
    free(text);
}

/* Undefined rates, a stop reason, no across_versions, a negative drop: write, parse, write. */
static void test_summary_struct_round_trips(void **state)
{
    (void)state;
    GbEvalSummary s = {.model = gb_strdup("m/ü \"x\""),
                       .task = gb_strdup("input"),
                       .samples = 3,
                       .temperature = 0.2,
                       .top_p = NAN,
                       .max_tokens = 512,
                       .seed = -1,
                       .nk = 3,
                       .items = 4,
                       .samples_planned = 24,
                       .samples_scored = 20,
                       .samples_resumed = 2,
                       .samples_cached = 1,
                       .requests = 17,
                       .stopped_by = gb_strdup("time budget")};
    s.k = gb_malloc(3 * sizeof *s.k);
    s.k[0] = 1, s.k[1] = 5, s.k[2] = 10;
    for (long v = 0; v < 2; v++) {
        GbEvalSummaryVersion ver = {.version = v, .file = gb_asprintf("dir/v%ld.jsonl", v), .items_scored = 4};
        ver.pass_at = gb_malloc(3 * sizeof *ver.pass_at);
        ver.pass_at[0] = v ? 1.0 / 3 : 0.25, ver.pass_at[1] = NAN, ver.pass_at[2] = 1;
        ver.verdicts[GB_V_PASS] = 5, ver.verdicts[GB_V_ERROR] = (size_t)v;
        gb_array_push(&s.versions, ver);
    }
    GbEvalComparison c = {.version = 1,
                          .file = gb_strdup("dir/v1.jsonl"),
                          .items = 4,
                          .gained = 1,
                          .both_fail = 3,
                          .pass1_original = 0.25,
                          .pass1_version = 1.0 / 3,
                          .relative_drop = -1.0 / 3,
                          .drop_lo = NAN,
                          .drop_hi = 0.5,
                          .resamples = 1000,
                          .boot_seed = 7,
                          .undefined = 12};
    gb_array_push(&s.comparisons, c);
    char *first = gb_eval_summary_write(&s);
    GbEvalSummary back;
    GbError err;
    assert_true(gb_eval_summary_parse(first, strlen(first), "mem", &back, &err));
    assert_string_equal(back.model, s.model);
    assert_string_equal(back.stopped_by, "time budget");
    assert_false(back.complete);
    assert_false(back.has_across);
    assert_true(isnan(back.top_p));
    assert_true(isnan(back.versions.items[1].pass_at[1]));
    assert_true(isnan(back.comparisons.items[0].drop_lo));
    assert_near(back.comparisons.items[0].relative_drop, -1.0 / 3, 1e-11);
    assert_int_equal(back.versions.items[1].verdicts[GB_V_ERROR], 1);
    assert_int_equal(back.comparisons.items[0].boot_seed, 7);
    char *second = gb_eval_summary_write(&back);
    assert_string_equal(second, first);
    assert_non_null(strstr(first, "\"top_p\":null"));
    assert_non_null(strstr(first, "\"across_versions\":null}\n"));
    free(first);
    free(second);
    gb_eval_summary_destroy(&back);
    gb_eval_summary_destroy(&s);
}

/* Each case replaces one piece of the fixture; the parse must fail and the message name the key. */
static void test_summary_mistyped_refused(void **state)
{
    (void)state;
    static const struct {
        const char *from, *to, *says;
    } cases[] = {
        {"\"items\":7,", "\"items\":\"7\",", "\"items\": expected a count"},
        {"\"model\":\"sim\",", "", "\"model\": expected a string (missing)"},
        {"\"k\":[1,2]", "\"k\":[1,\"2\"]", "\"k[1]\": expected an integer"},
        {"\"pass_at\":{\"1\":1,\"2\":1}", "\"pass_at\":[1,1]", "\"versions[0].pass_at\": expected an object"},
        {"\"pass_at\":{\"1\":1,\"2\":1}", "\"pass_at\":{\"1\":1}", "\"versions[0].pass_at\": expected one value per k"},
        {"\"verdicts\":{\"pass\":14,", "\"verdicts\":{\"pass\":-1,", "\"versions[0].verdicts.pass\": expected a count"},
        {"\"drop_ci95\":[0.142857142857,0.857142857143]", "\"drop_ci95\":[0.1]",
         "\"comparisons[0].drop_ci95\": expected a list [low, high]"},
        {"\"complete\":true", "\"complete\":1", "\"complete\": expected true or false"},
        {"\"stopped_by\":null", "\"stopped_by\":false", "\"stopped_by\": expected a string or null"},
        {"\"comparisons\":[", "\"comparison\":[", "not the summary of `genebench eval`"},
        {"{\"model\"", "{{\"model\"", "malformed JSON"},
    };
    size_t len;
    char *text = read_fixture(&len);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *at = strstr(text, cases[i].from);
        assert_non_null(at);
        char *bad = gb_asprintf("%.*s%s%s", (int)(at - text), text, cases[i].to, at + strlen(cases[i].from));
        GbEvalSummary s;
        GbError err;
        bool ok = gb_eval_summary_parse(bad, strlen(bad), "x.json", &s, &err);
        if (ok || !strstr(err.msg, cases[i].says) || strncmp(err.msg, "x.json", 6) != 0) {
            print_error("case %zu: ok=%d, message \"%s\", expected it to name \"%s\"\n", i, ok, ok ? "" : err.msg,
                        cases[i].says);
            fail();
        }
        assert_null(s.model); /* a refused parse leaves nothing behind */
        free(bad);
    }
    free(text);
}

static void test_result_round_trips(void **state)
{
    (void)state;
    GbEvalResult r = {.task = "crux/1",
                      .item = "crux/1#2",
                      .version = 2,
                      .file = "b/hard.jsonl",
                      .sample = 1,
                      .model = "sim",
                      .prompt_sha256 = "ab12",
                      .raw = "line 1\n[ANSWER] ü \x01 [/ANSWER]",
                      .extracted = NULL,
                      .verdict = GB_V_INVALID,
                      .error = NULL,
                      .cached = true};
    char *first = gb_eval_result_write(&r);
    assert_non_null(strstr(first, "\"verdict\":\"invalid\""));
    assert_non_null(strstr(first, "\\u00FC")); /* non-ASCII escaped */
    GbEvalResult back;
    GbError err;
    assert_true(gb_eval_result_parse(first, strlen(first), &back, &err));
    assert_int_equal(back.verdict, GB_V_INVALID);
    assert_int_equal(back.version, 2);
    assert_string_equal(back.raw, r.raw);
    assert_null(back.extracted);
    assert_true(back.cached);
    char *second = gb_eval_result_write(&back);
    assert_string_equal(second, first);
    free(first);
    free(second);
    gb_eval_result_destroy(&back);
}

/* A reply that is not UTF-8 still gives a line that parses (the bad byte becomes U+FFFD). */
static void test_result_bad_utf8_still_json(void **state)
{
    (void)state;
    GbEvalResult r = {.task = "t",
                      .item = "t",
                      .file = "f",
                      .model = "m",
                      .prompt_sha256 = "h",
                      .raw = "a\xff"
                             "b\xc3",
                      .verdict = GB_V_FAIL};
    char *line = gb_eval_result_write(&r);
    GbEvalResult back;
    GbError err;
    assert_true(gb_eval_result_parse(line, strlen(line), &back, &err));
    assert_string_equal(back.raw, "a\xEF\xBF\xBD"
                                  "b\xEF\xBF\xBD");
    gb_eval_result_destroy(&back);
    free(line);
}

static void test_result_mistyped_refused(void **state)
{
    (void)state;
    static const struct {
        const char *line, *says;
    } cases[] = {
        {"{\"task\":\"t\",\"item\":\"t\",\"version\":0,\"file\":\"f\",\"sample\":0,\"model\":\"m\",\"prompt_sha256\":"
         "\"h\","
         "\"raw\":null,\"extracted\":null,\"verdict\":\"passed\",\"error\":null,\"cached\":false}",
         "\"passed\" is not a verdict"},
        {"{\"task\":\"t\",\"item\":\"t\",\"version\":\"0\",\"file\":\"f\",\"sample\":0,\"model\":\"m\","
         "\"prompt_sha256\":\"h\",\"raw\":null,\"extracted\":null,\"verdict\":\"pass\",\"error\":null,\"cached\":"
         "false}",
         "\"version\": expected an integer"},
        {"{\"task\":\"t\",\"item\":\"t\",\"version\":0,\"file\":\"f\",\"sample\":0,\"model\":\"m\",\"prompt_sha256\":"
         "\"h\","
         "\"extracted\":null,\"verdict\":\"pass\",\"error\":null,\"cached\":false}",
         "\"raw\": expected a string or null (missing)"},
        {"[1, 2]", "not a JSON object"},
        {"{\"task\":", "malformed JSON"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        GbEvalResult r;
        GbError err;
        bool ok = gb_eval_result_parse(cases[i].line, strlen(cases[i].line), &r, &err);
        if (ok || !strstr(err.msg, cases[i].says)) {
            print_error("case %zu: ok=%d, message \"%s\", expected \"%s\"\n", i, ok, ok ? "" : err.msg, cases[i].says);
            fail();
        }
    }
}

static void test_verdict_words_are_one_list(void **state)
{
    (void)state;
    for (int v = GB_V_NONE + 1; v < GB_V_COUNT; v++) {
        GbVerdict back = GB_V_NONE;
        assert_true(gb_verdict_parse(gb_verdict_name((GbVerdict)v), &back));
        assert_int_equal(back, v);
    }
    GbVerdict x = GB_V_PASS;
    assert_false(gb_verdict_parse("none", &x));
    assert_false(gb_verdict_parse("Pass", &x));
    assert_int_equal(x, GB_V_PASS);
    assert_true(gb_verdict_scored(GB_V_TIMEOUT));
    assert_false(gb_verdict_scored(GB_V_ERROR));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_summary_fixture_round_trips), cmocka_unit_test(test_summary_struct_round_trips),
        cmocka_unit_test(test_summary_mistyped_refused),    cmocka_unit_test(test_result_round_trips),
        cmocka_unit_test(test_result_bad_utf8_still_json),  cmocka_unit_test(test_result_mistyped_refused),
        cmocka_unit_test(test_verdict_words_are_one_list),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
