/* The JSON outputs of nnmr, similarity, metrics and inject-bugs (src/doc/nnmr.h, similarity.h,
 * metrics.h, inject_bugs.h): write -> parse -> write gives the same bytes, and each parser
 * refuses missing, mistyped and unknown keys naming the file and the key. */
#include "src/doc/inject_bugs.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/doc/metrics.h"
#include "src/doc/nnmr.h"
#include "src/doc/similarity.h"
#include "tests/unit/helpers.h"

/* One refusal: the first `from` in the good text replaced by `to` must fail with an error that
 * contains `message`. */
typedef struct {
    const char *from, *to, *message;
} BadCase;

typedef bool (*ParseFn)(const char *text, size_t len, const char *name, void *doc, GbError *err);
typedef void (*DestroyFn)(void *doc);

static void refuses(const char *good, const BadCase *cases, size_t n, ParseFn parse, DestroyFn destroy, void *doc)
{
    for (size_t i = 0; i < n; i++) {
        const char *at = strstr(good, cases[i].from);
        if (!at) fail_msg("case %zu: \"%s\" is not in the document", i, cases[i].from);
        char *bad = gb_asprintf("%.*s%s%s", (int)(at - good), good, cases[i].to, at + strlen(cases[i].from));
        GbError err = {{0}};
        if (parse(bad, strlen(bad), "bad.json", doc, &err)) {
            destroy(doc);
            fail_msg("case %zu was accepted", i);
        }
        if (!strstr(err.msg, cases[i].message))
            fail_msg("case %zu: got \"%s\", expected \"%s\"", i, err.msg, cases[i].message);
        free(bad);
    }
}

/* ---- nnmr --json ---- */

static bool nnmr_parse(const char *t, size_t n, const char *name, void *d, GbError *e)
{
    return gb_nnmr_doc_parse(t, n, name, d, e);
}
static void nnmr_destroy(void *d)
{
    gb_nnmr_doc_destroy(d);
}

static void test_nnmr_doc_round_trips(void **state)
{
    (void)state;
    GbNnmrDoc doc = {.original = gb_strdup("a.jsonl"),
                     .hardened = gb_strdup("b\xff.jsonl"),
                     .n = 2,
                     .embedding = gb_strdup("built-in structure, dimension 64"),
                     .embedding_source = gb_strdup("{\"kind\":\"builtin\",\"name\":\"structure\",\"dimension\":64}"),
                     .nnmr_orig_to_hard = 50,
                     .misses_orig_to_hard = 1,
                     .nnmr_hard_to_orig = 0,
                     .mean_rank_orig_to_hard = 1.5,
                     .mean_rank_hard_to_orig = 1,
                     .displacement_median = NAN,
                     .displacement_mean = 0.1234567,
                     .displaced = 0,
                     .counterpart_cosine_mean = 0.975,
                     .counterpart_cosine_median = 0.975};
    GbNnmrDocTask t0 = {gb_strdup("T/1"), 1, gb_strdup("T/1"), gb_strdup("T/1"), 1, 1, 0};
    GbNnmrDocTask t1 = {gb_strdup("T/2"), 0.95, gb_strdup("T/1"), gb_strdup("T/2"), 2, 1, NAN};
    gb_array_push(&doc.tasks, t0);
    gb_array_push(&doc.tasks, t1);
    gb_array_push(&doc.only_in_hardened, gb_strdup("only-b"));
    GbStr a, b;
    gb_str_init(&a);
    gb_str_init(&b);
    gb_nnmr_doc_write(&a, &doc);
    gb_nnmr_doc_destroy(&doc);
    assert_non_null(strstr(a.data, "\"hardened\":\"b\xef\xbf\xbd.jsonl\""));
    assert_non_null(strstr(a.data, "\"displacement\":{\"median\":null,\"mean\":0.123457,\"at_least_1\":0}"));
    assert_non_null(strstr(a.data, "\"only_in_original\":[],\"only_in_hardened\":[\"only-b\"]}\n"));
    GbNnmrDoc back;
    GbError err = {{0}};
    if (!gb_nnmr_doc_parse(a.data, a.len, "n.json", &back, &err)) fail_msg("%s", err.msg);
    assert_int_equal(back.tasks.len, 2);
    assert_true(isnan(back.tasks.items[1].displacement));
    assert_string_equal(back.tasks.items[1].nearest_hard_of_orig, "T/1");
    gb_nnmr_doc_write(&b, &back);
    assert_string_equal(a.data, b.data);
    gb_nnmr_doc_destroy(&back);
    static const BadCase cases[] = {
        {"\"n\":2", "\"n\":3", "bad.json: \"n\" is 3 but \"tasks\" has 2 entries"},
        {"\"metric\":\"cosine similarity\"", "\"metric\":\"dot\"",
         "bad.json: \"metric\": expected \"cosine similarity\""},
        {"\"dimension\":64", "\"dimension\":6.4",
         "bad.json: \"embedding_source.dimension\": expected a string or an integer"},
        {"\"rank_orig_to_hard\":2", "\"rank_orig_to_hard\":-2",
         "bad.json: \"tasks[1].rank_orig_to_hard\": expected a count"},
        {"\"id\":\"T/2\",", "", "bad.json: \"tasks[1].id\": expected a string (missing)"},
        {"\"at_least_1\":0", "\"at_least_1\":0,\"max\":1", "bad.json: \"displacement.max\": unknown key"},
        {"[\"only-b\"]", "[\"only-b\",3]", "bad.json: \"only_in_hardened[1]\": expected a string, not an integer"},
        {"\"ties\"", "\"tie\"", "bad.json: \"tie\": unknown key"},
    };
    refuses(a.data, cases, sizeof cases / sizeof *cases, nnmr_parse, nnmr_destroy, &back);
    gb_str_destroy(&a);
    gb_str_destroy(&b);
}

/* ---- similarity --json ---- */

static bool sim_parse(const char *t, size_t n, const char *name, void *d, GbError *e)
{
    return gb_sim_doc_parse(t, n, name, d, e);
}
static void sim_destroy(void *d)
{
    gb_sim_doc_destroy(d);
}

static void test_similarity_doc_round_trips(void **state)
{
    (void)state;
    GbSimDoc doc = {.reference = gb_strdup("a.jsonl"),
                    .prediction = gb_strdup("b.jsonl"),
                    .weights = {0.1, 0.2, 1.0 / 3, 0.4},
                    .strict_dataflow = true};
    for (int i = 0; i < 2; i++) {
        GbSimDocTask t = {.id = gb_asprintf("T/%d", i), .dataflow_defined = i == 0, .dataflow_truncated = i == 1};
        for (int m = 0; m < GB_SIM_MEASURE_COUNT; m++) t.v[m] = 0.5 + 0.01 * m + 0.25 * i;
        if (i == 1) t.v[GB_SIM_DATAFLOW] = NAN;
        gb_array_push(&doc.tasks, t);
    }
    for (int m = 0; m < GB_SIM_MEASURE_COUNT; m++) {
        doc.summary[m] = (GbDocStats){0.6, 0.6, 0.55, 0.65, 0.5, 0.75};
        doc.corpus[m] = gb_sim_measure_info((GbSimMeasure)m)->corpus ? 0.625 : 0;
    }
    gb_array_push(&doc.only_in_reference, gb_strdup("only-a"));
    GbStr a, b;
    gb_str_init(&a);
    gb_str_init(&b);
    gb_sim_doc_write(&a, &doc);
    gb_sim_doc_destroy(&doc);
    assert_non_null(strstr(a.data, "\"weights\":[0.1,0.2,0.333333,0.4],\"strict_dataflow\":true,"));
    assert_non_null(strstr(a.data, "\"dataflow_match\":null,\"token_cosine\":0.8,"));
    assert_non_null(strstr(a.data, "\"corpus\":{\"codebleu\":0.625,\"ngram_match\":0.625,"));
    GbSimDoc back;
    GbError err = {{0}};
    if (!gb_sim_doc_parse(a.data, a.len, "s.json", &back, &err)) fail_msg("%s", err.msg);
    assert_true(isnan(back.tasks.items[1].v[GB_SIM_DATAFLOW]));
    assert_true(back.tasks.items[1].dataflow_truncated);
    gb_sim_doc_write(&b, &back);
    assert_string_equal(a.data, b.data);
    gb_sim_doc_destroy(&back);
    static const BadCase cases[] = {
        {"\"n\":2", "\"n\":1", "bad.json: \"summary.n\" is 1 but \"tasks\" has 2 entries"},
        {"0.4]", "0.4,1]", "bad.json: \"codebleu.weights\": expected 4 numbers"},
        {"\"grammar\":\"tree-sitter-python 0.23.6\"", "\"grammar\":\"x\"",
         "bad.json: \"codebleu.grammar\": expected \"tree-sitter-python 0.23.6\""},
        {"\"token_jaccard\":0.56,", "", "bad.json: \"tasks[0].token_jaccard\": expected a number or null (missing)"},
        {"\"dataflow_defined\":true", "\"dataflow_defined\":1",
         "bad.json: \"tasks[0].dataflow_defined\": expected true or false"},
        {"\"corpus\":{", "\"corpus\":{\"token_cosine\":1,", "bad.json: \"corpus.token_cosine\": unknown key"},
        {"\"q3\":0.65", "\"q3\":\"0.65\"",
         "bad.json: \"summary.codebleu.q3\": expected a number or null, not a string"},
    };
    refuses(a.data, cases, sizeof cases / sizeof *cases, sim_parse, sim_destroy, &back);
    gb_str_destroy(&a);
    gb_str_destroy(&b);
}

/* ---- metrics ---- */

static bool metrics_parse(const char *t, size_t n, const char *name, void *d, GbError *e)
{
    return gb_metrics_doc_parse(t, n, name, d, e);
}
static void metrics_destroy(void *d)
{
    gb_metrics_doc_destroy(d);
}

static void test_metrics_doc_round_trips(void **state)
{
    (void)state;
    GbMetricsDoc doc = {.n_tasks = 3, .thresholds = gb_strdup("paper")};
    for (int i = 0; i < 2; i++) {
        GbMetricsDocTask t = {.id = gb_asprintf("T/%d", i), .rc = 0.123456, .rr = 1, .exceeds = i ? 2 : -1};
        for (int k = 0; k < GB_METRIC_COUNT; k++) t.metrics[k] = k + 0.5 * i;
        t.metrics[GB_METRIC_COUNT - 1] = 4.92812345;
        gb_array_push(&doc.tasks, t);
        for (int k = 0; k < GB_METRIC_COUNT; k++) doc.mean[k] += t.metrics[k] / 2;
    }
    doc.mean_rc = 0.123456;
    doc.mean_rr = 1;
    GbStr a, b;
    gb_str_init(&a);
    gb_str_init(&b);
    gb_metrics_doc_write(&a, &doc);
    gb_metrics_doc_destroy(&doc);
    assert_non_null(strstr(a.data, "{\"id\": \"T/0\", \"metrics\": {\"C1\": 0, \"C2\": 1, "));
    assert_non_null(strstr(a.data, "\"entropy\": 4.9281}, \"rc\": 0.1235, \"rr\": 1, \"exceeds\": null}\n"));
    assert_non_null(strstr(a.data, "\"exceeds\": \"num_conditions\"}\n{\"summary\": {\"tasks\": 3, \"measured\": 2, "
                                   "\"thresholds\": \"paper\", \"mean\": {\"C1\": 0.25, "));
    GbMetricsDoc back;
    GbError err = {{0}};
    if (!gb_metrics_doc_parse(a.data, a.len, "m.jsonl", &back, &err)) fail_msg("%s", err.msg);
    assert_int_equal(back.tasks.len, 2);
    assert_int_equal(back.tasks.items[1].exceeds, 2);
    gb_metrics_doc_write(&b, &back);
    assert_string_equal(a.data, b.data);
    gb_metrics_doc_destroy(&back);
    static const BadCase cases[] = {
        {"\"measured\": 2", "\"measured\": 3", "bad.json:3: \"summary.measured\" is 3 but 2 task lines come before it"},
        {"\"exceeds\": \"num_conditions\"", "\"exceeds\": \"C1\"",
         "bad.json:2: \"exceeds\": \"C1\" is not a readability"},
        {"\"C2\": 1, ", "", "bad.json:1: \"metrics.C2\": expected a number (missing)"},
        {"\"rr\": 1, \"exceeds\"", "\"rr\": \"1\", \"exceeds\"", "bad.json:1: \"rr\": expected a number, not a string"},
        {"\"thresholds\"", "\"threshold\"", "bad.json:3: \"summary.threshold\": unknown key"},
        {"\"rr\": 1}}}\n", "\"rr\": 1}}}\n{}\n", "bad.json:4: a line after the summary"},
        {"{\"summary\"", "{\"summery\"", "bad.json:3: \"summery\": unknown key"},
    };
    refuses(a.data, cases, sizeof cases / sizeof *cases, metrics_parse, metrics_destroy, &back);
    /* no summary at all */
    const char *first_line_end = strchr(a.data, '\n');
    char *one = gb_strndup(a.data, (size_t)(first_line_end - a.data) + 1);
    assert_false(gb_metrics_doc_parse(one, strlen(one), "one.jsonl", &back, &err));
    assert_string_equal(err.msg, "one.jsonl: no summary line");
    free(one);
    gb_str_destroy(&a);
    gb_str_destroy(&b);
}

/* ---- inject-bugs' summary ---- */

static bool inject_parse(const char *t, size_t n, const char *name, void *d, GbError *e)
{
    return gb_inject_bugs_doc_parse(t, n, name, d, e);
}
static void inject_destroy(void *d)
{
    gb_inject_bugs_doc_destroy(d);
}

static void test_inject_bugs_doc_round_trips(void **state)
{
    (void)state;
    GbInjectBugsDoc doc = {.version = gb_strdup("0.1.0"),
                           .original = gb_strdup("o.jsonl"),
                           .hardened = gb_strdup("h.jsonl"),
                           .python = gb_strdup("/usr/bin/python3"),
                           .seed = 5,
                           .order_min = 2,
                           .order_max = 3,
                           .max_per_task = 2,
                           .max_attempts = 5,
                           .timeout_s = 1.5,
                           .tasks = 19,
                           .processed = 18,
                           .skipped = 1,
                           .mutants = 40,
                           .sites_found = 300,
                           .sites_shared = 250,
                           .sites_moved = 7,
                           .time_s = 12.3456789};
    for (int k = 0; k < 2; k++) {
        GbInjectBugsOrder o = {.tasks_with_mutant = 17 - (size_t)k, .share = (17.0 - k) / 18, .unusable = 1};
        o.outcome[GB_MUTANT_KEPT] = 20;
        o.outcome[GB_MUTANT_TIMEOUT] = (size_t)k;
        gb_array_push(&doc.orders, o);
    }
    GbStr a, b;
    gb_str_init(&a);
    gb_str_init(&b);
    gb_inject_bugs_doc_write(&a, &doc);
    gb_inject_bugs_doc_destroy(&doc);
    assert_non_null(strstr(a.data, "{\"tool\":\"genebench inject-bugs\",\"version\":\"0.1.0\","));
    assert_non_null(
        strstr(a.data, "\"seed\":5,\"orders\":[2, 3],\"max_per_task\":2,\"max_attempts\":5,\"timeout_s\":1.5,"));
    assert_non_null(strstr(a.data, "\"by_order\":{\"2\":{\"tasks_with_mutant\":17,\"share\":0.944444,\"kept\":20,"));
    assert_non_null(strstr(a.data, "\"time_s\":12.345679}\n"));
    GbInjectBugsDoc back;
    GbError err = {{0}};
    if (!gb_inject_bugs_doc_parse(a.data, a.len, "i.json", &back, &err)) fail_msg("%s", err.msg);
    assert_int_equal(back.orders.len, 2);
    assert_int_equal(back.orders.items[1].outcome[GB_MUTANT_TIMEOUT], 1);
    gb_inject_bugs_doc_write(&b, &back);
    assert_string_equal(a.data, b.data);
    gb_inject_bugs_doc_destroy(&back);
    static const BadCase cases[] = {
        {"\"orders\":[2, 3]", "\"orders\":[2, 4]", "bad.json: \"by_order\": expected the orders 2 to 4"},
        {"\"orders\":[2, 3]", "\"orders\":[3, 2]", "bad.json: \"orders\": expected [min, max] with 1 <= min <= max"},
        {"\"tool\":\"genebench inject-bugs\"", "\"tool\":\"genebench\"",
         "bad.json: \"tool\": expected \"genebench inject-bugs\""},
        {"\"kept\":20,", "", "bad.json: \"by_order.2.kept\": expected a count (an integer >= 0) (missing)"},
        {"\"moved\":7", "\"moved\":7,\"lost\":1", "bad.json: \"sites.lost\": unknown key"},
        {"\"mutants\":40", "\"mutants\":-40", "bad.json: \"mutants\": expected a count"},
        {"\"python\":\"/usr/bin/python3\"", "\"python\":null", "bad.json: \"python\": expected a string, not null"},
    };
    refuses(a.data, cases, sizeof cases / sizeof *cases, inject_parse, inject_destroy, &back);
    gb_str_destroy(&a);
    gb_str_destroy(&b);
}

/* The outputs main's genebench wrote on examples/benchmark.jsonl and a hardened version of it
 * (tests/data/doc/commands/) read and write back to the same bytes. */
static void test_command_outputs_read_back(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        int kind; /* 0 nnmr, 1 similarity, 2 metrics, 3 inject-bugs */
    } files[] = {
        {"nnmr.json", 0},     {"nnmr_tokens.json", 0},    {"similarity.json", 1},         {"similarity_strict.json", 1},
        {"metrics.jsonl", 2}, {"metrics_paper.jsonl", 2}, {"bugs.jsonl.summary.json", 3},
    };
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        char *path = gb_asprintf("%s/doc/commands/%s", GB_TEST_DATA, files[i].file);
        GbError err = {{0}};
        size_t len;
        char *text = gb_read_file(path, &len, &err);
        if (!text) fail_msg("%s", err.msg);
        GbStr again;
        gb_str_init(&again);
        bool ok = false;
        if (files[i].kind == 0) {
            GbNnmrDoc d;
            if ((ok = gb_nnmr_doc_parse(text, len, path, &d, &err))) gb_nnmr_doc_write(&again, &d);
            gb_nnmr_doc_destroy(&d);
        } else if (files[i].kind == 1) {
            GbSimDoc d;
            if ((ok = gb_sim_doc_parse(text, len, path, &d, &err))) gb_sim_doc_write(&again, &d);
            gb_sim_doc_destroy(&d);
        } else if (files[i].kind == 2) {
            GbMetricsDoc d;
            if ((ok = gb_metrics_doc_parse(text, len, path, &d, &err))) gb_metrics_doc_write(&again, &d);
            gb_metrics_doc_destroy(&d);
        } else {
            GbInjectBugsDoc d;
            if ((ok = gb_inject_bugs_doc_parse(text, len, path, &d, &err))) gb_inject_bugs_doc_write(&again, &d);
            gb_inject_bugs_doc_destroy(&d);
        }
        if (!ok) fail_msg("%s", err.msg);
        assert_string_equal(again.data, text);
        gb_str_destroy(&again);
        free(text);
        free(path);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nnmr_doc_round_trips),      cmocka_unit_test(test_similarity_doc_round_trips),
        cmocka_unit_test(test_metrics_doc_round_trips),   cmocka_unit_test(test_inject_bugs_doc_round_trips),
        cmocka_unit_test(test_command_outputs_read_back),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
