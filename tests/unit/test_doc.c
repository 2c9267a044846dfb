/* The documents of src/doc/: each round-trips (write -> parse -> write gives the same bytes) and
 * its parser refuses mistyped input with a message naming the place; the JSON writer keeps
 * strings valid UTF-8; gzip files read back, and a gzip bomb is refused at the cap. */
#include "src/doc/check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "src/base/gzip.h"
#include "src/base/json_write.h"
#include "src/doc/compare.h"
#include "src/doc/versions_similarity.h"
#include "tests/unit/helpers.h"

/* ---- check --json ---- */

static const char check_text[] =
    "{\"id\":\"t/1\",\"kind\":\"assert\",\"status\":\"pass\",\"failed_test\":null,\"failed_tests\":[],"
    "\"exc_type\":null,\"exc_message\":null,\"signal\":0,\"tests_run\":1,\"wall_s\":0.0123,\"peak_rss_kb\":9000,"
    "\"stdout\":\"caf\xc3\xa9 \xef\xbf\xbd\\n\",\"stderr\":\"\",\"apart_failure\":\"Refused: a type\"}\n"
    "{\"id\":\"t/2\",\"kind\":\"unittest\",\"status\":\"fail\",\"failed_test\":\"test_a\","
    "\"failed_tests\":[\"test_a\",\"test_b\"],\"exc_type\":\"AssertionError\",\"exc_message\":\"1 != 2\","
    "\"signal\":0,\"tests_run\":3,\"wall_s\":1.5000,\"peak_rss_kb\":-1,\"stdout\":\"\",\"stderr\":\"tab\\there\","
    "\"pylint\":null,\"pylint_error\":\"no pylint\"}\n"
    "{\"id\":\"t/3\",\"kind\":\"stdio\",\"status\":\"timeout\",\"failed_test\":\"2\",\"failed_tests\":[\"2\"],"
    "\"exc_type\":null,\"exc_message\":null,\"signal\":9,\"tests_run\":2,\"wall_s\":10.0000,\"peak_rss_kb\":1,"
    "\"stdout\":\"\",\"stderr\":\"\",\"pylint\":7.2500}\n"
    "{\"summary\":{\"file\":\"b.jsonl\",\"tasks\":3,\"passed\":1,\"failed\":1,\"timeout\":1,\"crash\":0,\"error\":0,"
    "\"bad_lines\":0,\"sandbox\":\"bwrap\",\"python\":\"/usr/bin/python3\",\"python_version\":\"3.11.2\","
    "\"workers\":2,\"start_s\":0.250,\"run_s\":11.125,\"remap\":\"none\",\"together\":1}}\n";

static void test_check_doc_round_trips(void **state)
{
    (void)state;
    GbCheckDoc doc;
    GbError err = {{0}};
    bool ok = gb_check_doc_parse(check_text, &doc, &err);
    if (!ok) fail_msg("%s", err.msg);
    assert_int_equal(doc.tasks.len, 3);
    assert_string_equal(doc.tasks.items[1].failed_tests.items[1], "test_b");
    assert_true(doc.tasks.items[2].lint);
    assert_near(doc.tasks.items[2].pylint, 7.25, 1e-12);
    assert_int_equal(doc.summary.timeout, 1);
    assert_string_equal(doc.tasks.items[0].apart_failure, "Refused: a type");
    assert_null(doc.tasks.items[1].apart_failure);
    assert_int_equal(doc.summary.together, 1);
    GbStr out;
    gb_str_init(&out);
    gb_check_doc_write(&out, &doc);
    assert_string_equal(out.data, check_text);
    gb_str_destroy(&out);
    gb_check_doc_destroy(&doc);
}

static void test_check_doc_writes_valid_utf8_for_any_output(void **state)
{
    (void)state;
    GbCheckDocTask t = {.id = "x",
                        .kind = "assert",
                        .status = "pass",
                        .out = "a\xff\xfe"
                               "b\xc3",
                        .err = "\xe2\x82"};
    GbStr out;
    gb_str_init(&out);
    gb_check_doc_write_task(&out, &t);
    size_t bad;
    assert_true(gb_utf8_valid(out.data, out.len, &bad));
    assert_non_null(strstr(out.data, "\"stdout\":\"a\xef\xbf\xbd\xef\xbf\xbd"
                                     "b\xef\xbf\xbd\""));
    gb_check_doc_write_summary(
        &out, &(GbCheckDocSummary){.file = "f", .sandbox = "none", .python = "p", .python_version = "3", .remap = "r"});
    GbCheckDoc doc;
    GbError err;
    assert_true(gb_check_doc_parse(out.data, &doc, &err));
    GbStr again;
    gb_str_init(&again);
    gb_check_doc_write(&again, &doc);
    assert_string_equal(again.data, out.data);
    gb_str_destroy(&again);
    gb_check_doc_destroy(&doc);
    gb_str_destroy(&out);
}

/* Each case: a bad output and a piece of the message that must name what is wrong. */
static void test_check_doc_refuses_mistyped_input(void **state)
{
    (void)state;
    static const char summary[] =
        "{\"summary\":{\"file\":\"b\",\"tasks\":0,\"passed\":0,\"failed\":0,\"timeout\":0,\"crash\":0,\"error\":0,"
        "\"bad_lines\":0,\"sandbox\":\"none\",\"python\":\"p\",\"python_version\":\"3\",\"workers\":1,"
        "\"start_s\":0.000,\"run_s\":0.000,\"remap\":\"r\"}}\n";
    const char *task = "{\"id\":\"a\",\"kind\":\"assert\",\"status\":\"pass\",\"failed_test\":null,\"failed_tests\":[],"
                       "\"exc_type\":null,\"exc_message\":null,\"signal\":0,\"tests_run\":1,\"wall_s\":0.1000,"
                       "\"peak_rss_kb\":1,\"stdout\":\"\",\"stderr\":\"\"}\n";
    struct {
        const char *from, *to, *msg;
    } cases[] = {
        {"\"tests_run\":1", "\"tests_run\":\"1\"", "line 1: \"tests_run\": expected an integer, not a string"},
        {"\"status\":\"pass\"", "\"status\":\"passed\"", "line 1: \"status\" is \"passed\""},
        {"\"stdout\":\"\"", "\"stdout\":null", "line 1: \"stdout\": expected a string, not null"},
        {"\"failed_tests\":[]", "\"failed_tests\":[1]", "line 1: \"failed_tests\"[0]: expected a string"},
        {"\"signal\":0,", "", "line 1: \"signal\": expected an integer (missing)"},
        {"\"id\":\"a\",", "\"id\":\"a\",\"extra\":1,", "line 1: \"extra\": unknown key"},
        {"\"wall_s\":0.1000", "\"wall_s\":true", "line 1: \"wall_s\": expected a number, not a boolean"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *at = strstr(task, cases[i].from);
        assert_non_null(at);
        char *bad = gb_asprintf("%.*s%s%s%s", (int)(at - task), task, cases[i].to, at + strlen(cases[i].from), summary);
        GbCheckDoc doc;
        GbError err = {{0}};
        assert_false(gb_check_doc_parse(bad, &doc, &err));
        if (!strstr(err.msg, cases[i].msg)) fail_msg("case %zu: %s", i, err.msg);
        gb_check_doc_destroy(&doc);
        free(bad);
    }
    GbCheckDoc doc;
    GbError err = {{0}};
    assert_false(gb_check_doc_parse(task, &doc, &err));
    assert_non_null(strstr(err.msg, "no summary line"));
    gb_check_doc_destroy(&doc);
    char *after = gb_asprintf("%s%s", summary, task);
    assert_false(gb_check_doc_parse(after, &doc, &err));
    assert_non_null(strstr(err.msg, "line 2: a line after the summary line"));
    gb_check_doc_destroy(&doc);
    free(after);
    assert_false(gb_check_doc_parse("[1]\n", &doc, &err));
    assert_non_null(strstr(err.msg, "line 1: not a JSON object"));
    gb_check_doc_destroy(&doc);
}

/* ---- versions' similarity.json ---- */

static void fill_vsim(GbVsimDoc *doc)
{
    memset(doc, 0, sizeof *doc);
    doc->tokenizer = "tree-sitter lexical tokens (comments dropped)";
    for (int k = 0; k < 2; k++) {
        GbVsimPair p;
        memset(&p, 0, sizeof p);
        p.a = "original";
        p.b = k ? "seed-2" : "seed-1";
        for (int t = 0; t < 2; t++) {
            GbVsimTask x = {.id = t ? "HumanEval/1" : "HumanEval/0"};
            for (int m = 0; m < GB_VSIM_MEASURES; m++) x.v[m] = m == 3 && t ? NAN : 0.125 * (m + 1) + 0.01 * t + k;
            gb_array_push(&p.per_task, x);
        }
        for (int m = 0; m < GB_VSIM_MEASURES; m++) p.summary[m] = (GbVsimStats){0.5, 0.25, 0.125, 0.75, 0, 1};
        gb_array_push(&doc->pairs, p);
    }
    doc->has_embedding = true;
    doc->embedding = "built-in tokens: x, dimension 256";
    doc->embedding_source = "{\"kind\":\"builtin\",\"name\":\"tokens\",\"dimension\":256}";
    for (int v = 0; v < 2; v++) {
        GbVsimNnmr n = {.label = v ? "seed-2" : "seed-1",
                        .o2h = 12.5,
                        .h2o = 0,
                        .mean_rank_o2h = 1.333333,
                        .mean_rank_h2o = 1,
                        .displacement_median = 0,
                        .displacement_mean = 0.5,
                        .displaced = 3};
        gb_array_push(&doc->nnmr, n);
    }
}

static void test_vsim_doc_round_trips(void **state)
{
    (void)state;
    GbVsimDoc doc;
    fill_vsim(&doc);
    GbStr a;
    gb_str_init(&a);
    gb_vsim_doc_write(&a, &doc);
    gb_vsim_doc_release(&doc);
    assert_non_null(strstr(a.data, "\"syntax\":null"));
    assert_non_null(strstr(a.data, ",\"original_to_seed-2\":12.5,\"seed-2_to_original\":0,\"graded_seed-2\":{"));
    GbVsimDoc back;
    GbError err = {{0}};
    bool ok = gb_vsim_doc_parse(a.data, "similarity.json", &back, &err);
    if (!ok) fail_msg("%s", err.msg);
    assert_int_equal(back.pairs.len, 2);
    assert_int_equal(back.nnmr.len, 2);
    assert_string_equal(back.nnmr.items[1].label, "seed-2");
    assert_true(isnan(back.pairs.items[0].per_task.items[1].v[3]));
    GbStr b;
    gb_str_init(&b);
    gb_vsim_doc_write(&b, &back);
    assert_string_equal(b.data, a.data);
    gb_vsim_doc_destroy(&back);
    gb_vsim_doc_destroy(NULL);
    /* no embedding: "nnmr" is {} */
    GbVsimDoc bare = {.tokenizer = "t"};
    gb_str_clear(&b);
    gb_vsim_doc_write(&b, &bare);
    assert_string_equal(b.data, "{\"tokenizer\":\"t\",\"pairs\":[],\"nnmr\":{}}\n");
    assert_true(gb_vsim_doc_parse(b.data, "s.json", &back, &err));
    assert_false(back.has_embedding);
    gb_vsim_doc_destroy(&back);
    gb_str_destroy(&a);
    gb_str_destroy(&b);
}

static void test_vsim_doc_refuses_mistyped_input(void **state)
{
    (void)state;
    GbVsimDoc doc;
    fill_vsim(&doc);
    GbStr good;
    gb_str_init(&good);
    gb_vsim_doc_write(&good, &doc);
    gb_vsim_doc_release(&doc);
    struct {
        const char *from, *to, *msg;
    } cases[] = {
        {"\"a\":\"original\"", "\"a\":1", "s.json: \"pairs[0].a\": expected a string, not an integer"},
        {"\"codebleu\":0.125", "\"codebleu\":\"x\"",
         "s.json: \"pairs[0].per_task[0].codebleu\": expected a number or null, not a string"},
        {"\"graded_seed-1\"", "\"graded_seed-9\"", "s.json: \"nnmr.graded_seed-1\": expected an object (missing)"},
        {"\"displacement_at_least_1\":3", "\"displacement_at_least_1\":3.5",
         "\"nnmr.graded_seed-1.displacement_at_least_1\": expected a count (an integer >= 0), not a real number"},
        {"\"dimension\":256", "\"dimension\":[256]",
         "s.json: \"nnmr.embedding_source.dimension\": expected a string or an integer"},
        {"\"tokenizer\"", "\"tokeniser\"", "s.json: \"tokeniser\": unknown key"},
        {"\"tokenizer\":\"tree-sitter lexical tokens (comments dropped)\"", "\"tokenizer\":[\"t\"]",
         "s.json: \"tokenizer\": expected a string, not an array"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *at = strstr(good.data, cases[i].from);
        assert_non_null(at);
        char *bad = gb_asprintf("%.*s%s%s", (int)(at - good.data), good.data, cases[i].to, at + strlen(cases[i].from));
        GbVsimDoc d;
        GbError err = {{0}};
        assert_false(gb_vsim_doc_parse(bad, "s.json", &d, &err));
        if (!strstr(err.msg, cases[i].msg)) fail_msg("case %zu: %s", i, err.msg);
        gb_vsim_doc_destroy(&d);
        free(bad);
    }
    GbVsimDoc d;
    GbError err = {{0}};
    assert_false(gb_vsim_doc_parse("{\"tokenizer\":", "s.json", &d, &err));
    assert_non_null(strstr(err.msg, "s.json: malformed JSON at line 1"));
    gb_vsim_doc_destroy(&d);
    gb_str_destroy(&good);
}

/* ---- compare -o ---- */

static void fill_compare(GbCompareDoc *doc, GbCompareDocTask *t)
{
    memset(doc, 0, sizeof *doc);
    doc->a = "a.jsonl";
    doc->b = "b.jsonl";
    doc->seed = 1;
    t[0] = (GbCompareDocTask){.id = "t/0",
                              .status = GB_COMPARE_AGREE,
                              .derived = 40,
                              .inputs = 32,
                              .large = 2,
                              .agreed = 32,
                              .checked = 32,
                              .cost_a_s = 0.012345,
                              .cost_b_s = 0.5,
                              .wall_a_s = 1,
                              .wall_b_s = 2.25,
                              .branches = 6,
                              .covered = 5,
                              .covered_before = 3,
                              .uncovered = "line 4 false"};
    t[1] = (GbCompareDocTask){.id = "t/1",
                              .status = GB_COMPARE_DISAGREE,
                              .derived = 10,
                              .inputs = 8,
                              .agreed = 3,
                              .checked = 8,
                              .probe_failed = "AssertionError",
                              .has_first = true,
                              .first_index = 3,
                              .first_input = "f(1)",
                              .first_a = "2",
                              .first_b = "\"x\\ny\""};
    t[2] = (GbCompareDocTask){.id = "t/2", .status = GB_COMPARE_MISSING};
    t[3] = (GbCompareDocTask){.id = "t/3", .status = GB_COMPARE_ERROR, .error = "task t/3: no tests"};
    for (int i = 0; i < 4; i++) {
        gb_array_push(&doc->tasks, t[i]);
        doc->count[t[i].status]++;
    }
    doc->with_inputs = 2;
    doc->inputs = 40;
    doc->inputs_checked = 40;
    doc->inputs_agreed = 35;
}

static void test_compare_doc_round_trips(void **state)
{
    (void)state;
    GbCompareDoc doc;
    GbCompareDocTask t[4];
    fill_compare(&doc, t);
    GbStr a;
    gb_str_init(&a);
    gb_compare_doc_write(&a, &doc);
    gb_array_free(&doc.tasks);
    assert_non_null(strstr(a.data, "{\"id\":\"t/2\",\"status\":\"missing\",\"derived\":0,\"inputs\":0,\"large\":0}"));
    assert_non_null(strstr(a.data, "\"summary\":{\"tasks\":4,\"with_inputs\":2,\"inputs\":40,\"inputs_checked\":40,"
                                   "\"inputs_agreed\":35,\"agree\":1,\"disagree\":1,\"slower\":0,\"noinput\":0,"
                                   "\"missing\":1,\"error\":1}}\n"));
    GbCompareDoc back;
    GbError err = {{0}};
    bool ok = gb_compare_doc_parse(a.data, "r.json", &back, &err);
    if (!ok) fail_msg("%s", err.msg);
    assert_int_equal(back.tasks.len, 4);
    assert_string_equal(back.tasks.items[1].first_b, "\"x\\ny\"");
    assert_int_equal(back.tasks.items[0].covered_before, 3);
    assert_string_equal(back.tasks.items[0].uncovered, "line 4 false");
    GbStr b;
    gb_str_init(&b);
    gb_compare_doc_write(&b, &back);
    assert_string_equal(b.data, a.data);
    gb_compare_doc_destroy(&back);
    struct {
        const char *from, *to, *msg;
    } cases[] = {
        {"\"status\":\"agree\"", "\"status\":\"AGREE\"", "r.json: \"tasks[0].status\" is \"AGREE\""},
        {"\"derived\":40", "\"derived\":-1", "r.json: \"tasks[0].derived\": expected a count (an integer >= 0)"},
        {"\"large\":0}", "\"large\":0,\"agreed\":1}", "r.json: \"tasks[2].agreed\": unknown key for status missing"},
        {"\"missing\":1", "\"missing\":2", "r.json: \"summary.missing\" is 2 but 1 tasks have that status"},
        {"\"seed\":1", "\"seed\":\"1\"", "r.json: \"seed\": expected a number, not a string"},
        {"\"before\":3", "\"before\":3,\"after\":4", "r.json: \"tasks[0].coverage.after\": unknown key"},
        {"\"covered\":5", "\"covered\":\"5\"", "r.json: \"tasks[0].coverage.covered\": expected a count"},
        {"\"branches\":6", "\"branches\":0", "r.json: \"tasks[0].coverage.branches\": expected a count above 0"},
        {"\"large\":0}", "\"large\":0,\"coverage\":{}}", "r.json: \"tasks[2].coverage\": unknown key for status"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *at = strstr(a.data, cases[i].from);
        assert_non_null(at);
        char *bad = gb_asprintf("%.*s%s%s", (int)(at - a.data), a.data, cases[i].to, at + strlen(cases[i].from));
        GbCompareDoc d;
        assert_false(gb_compare_doc_parse(bad, "r.json", &d, &err));
        if (!strstr(err.msg, cases[i].msg)) fail_msg("case %zu: %s", i, err.msg);
        gb_compare_doc_destroy(&d);
        free(bad);
    }
    gb_str_destroy(&a);
    gb_str_destroy(&b);
}

/* ---- the JSON writer ---- */

static void test_json_string_replaces_ill_formed_utf8(void **state)
{
    (void)state;
    struct {
        const char *in, *out;
    } cases[] = {
        {"plain", "\"plain\""},
        {"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\""},
        {"\xff", "\"\xef\xbf\xbd\""},
        {"a\xc3", "\"a\xef\xbf\xbd\""},                               /* truncated sequence at the end */
        {"\xc0\xaf", "\"\xef\xbf\xbd\xef\xbf\xbd\""},                 /* overlong */
        {"\xed\xa0\x80", "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\""}, /* a surrogate */
        {"\x01\b\x7f", "\"\\u0001\\b\x7f\""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        GbStr s;
        gb_str_init(&s);
        gb_json_string(&s, cases[i].in);
        if (strcmp(s.data, cases[i].out) != 0) fail_msg("case %zu: %s", i, s.data);
        gb_str_destroy(&s);
    }
    GbStr s;
    gb_str_init(&s);
    gb_json_fixed(&s, 1.5, 4);
    gb_str_append(&s, " ");
    gb_json_fixed(&s, NAN, 3);
    assert_string_equal(s.data, "1.5000 null");
    gb_str_destroy(&s);
}

static void test_json_string_as_escapes_upper_and_to_ascii(void **state)
{
    (void)state;
    struct {
        const char *in;
        unsigned flags;
        const char *out;
    } cases[] = {
        {"\x01\x1b\n", GB_JSON_HEX_UPPER, "\"\\u0001\\u001B\\n\""},
        {"\x1b", 0, "\"\\u001b\""},
        {"caf\xc3\xa9", GB_JSON_HEX_UPPER, "\"caf\xc3\xa9\""},
        {"caf\xc3\xa9 \xe2\x82\xac", GB_JSON_HEX_UPPER | GB_JSON_ASCII, "\"caf\\u00E9 \\u20AC\""},
        {"\xf0\x9f\x98\x80", GB_JSON_HEX_UPPER | GB_JSON_ASCII, "\"\\uD83D\\uDE00\""}, /* a surrogate pair */
        {"\xf0\x9f\x98\x80", GB_JSON_ASCII, "\"\\ud83d\\ude00\""},
        {"a\xff\x7f/", GB_JSON_HEX_UPPER | GB_JSON_ASCII, "\"a\\uFFFD\x7f/\""},
        {NULL, GB_JSON_ASCII, "null"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        GbStr s;
        gb_str_init(&s);
        gb_json_string_as(&s, cases[i].in, cases[i].flags);
        if (strcmp(s.data, cases[i].out) != 0) fail_msg("case %zu: %s", i, s.data);
        gb_str_destroy(&s);
    }
}

static void test_json_number_real_writes_whole_values_as_integers(void **state)
{
    (void)state;
    const double in[] = {3.0, -0.0, 0.1, 1.0 / 3.0, 1e15, 1e-7, -2.5e20, NAN, INFINITY};
    GbStr s;
    gb_str_init(&s);
    for (size_t i = 0; i < sizeof in / sizeof *in; i++) {
        if (i) gb_str_append(&s, " ");
        gb_json_number_real(&s, in[i], 12);
    }
    assert_string_equal(s.data, "3 0 0.1 0.333333333333 1e15 1e-7 -2.5e20 null null");
    gb_str_destroy(&s);
}

/* ---- gzip ---- */

static char *write_temp(const char *data, size_t len)
{
    char *path = gb_strdup("/tmp/gb_test_doc_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, data, len), (ssize_t)len);
    close(fd);
    return path;
}

static void test_gzip_reads_back_and_refuses_a_bomb(void **state)
{
    (void)state;
    const char text[] = "{\"id\": \"a\"}\n{\"id\": \"b\"}\n";
    GbStr z;
    gb_gzip(text, strlen(text), &z);
    assert_true(gb_gzip_detect(z.data, z.len));
    assert_false(gb_gzip_detect(text, strlen(text)));
    char *path = write_temp(z.data, z.len);
    size_t len = 0;
    GbError err = {{0}};
    char *back = gb_read_data_file(path, &len, &err);
    assert_non_null(back);
    assert_int_equal(len, strlen(text));
    assert_string_equal(back, text);
    free(back);
    /* two members, as `gzip -c a b` writes */
    GbStr two;
    gb_str_init(&two);
    gb_str_append_n(&two, z.data, z.len);
    gb_str_append_n(&two, z.data, z.len);
    GbStr out;
    assert_true(gb_gunzip("two", two.data, two.len, 1 << 20, &out, &err));
    assert_int_equal(out.len, 2 * strlen(text));
    gb_str_destroy(&out);
    gb_str_destroy(&two);
    /* the cap: 1 MiB of zeros read with a 64 KiB cap */
    size_t big = (size_t)1 << 20;
    char *zeros = calloc(big, 1);
    GbStr bomb;
    gb_gzip(zeros, big, &bomb);
    free(zeros);
    assert_true(bomb.len < 4096);
    char *bpath = write_temp(bomb.data, bomb.len);
    assert_null(gb_read_data_file_capped(bpath, (size_t)64 << 10, &len, &err));
    assert_non_null(strstr(err.msg, bpath));
    assert_non_null(strstr(err.msg, "decompresses to more than 65536 bytes"));
    char *whole = gb_read_data_file_capped(bpath, big, &len, &err);
    assert_non_null(whole);
    assert_int_equal(len, big);
    free(whole);
    /* a corrupt gzip */
    char *cpath = write_temp("\x1f\x8bgarbage", 9);
    assert_null(gb_read_data_file(cpath, &len, &err));
    assert_non_null(strstr(err.msg, "not a valid gzip file"));
    /* writing: .gz compresses, other names do not */
    char *gz = gb_asprintf("%s.jsonl.gz", path), *plain = gb_asprintf("%s.jsonl", path);
    assert_true(gb_write_data_file_atomic(gz, text, strlen(text), &err));
    assert_true(gb_write_data_file_atomic(plain, text, strlen(text), &err));
    char *raw = gb_read_file(gz, &len, &err);
    assert_true(gb_gzip_detect(raw, len));
    free(raw);
    raw = gb_read_file(plain, &len, &err);
    assert_string_equal(raw, text);
    free(raw);
    back = gb_read_data_file(gz, &len, &err);
    assert_string_equal(back, text);
    free(back);
    unlink(gz);
    unlink(plain);
    unlink(path);
    unlink(bpath);
    unlink(cpath);
    free(gz);
    free(plain);
    free(path);
    free(bpath);
    free(cpath);
    gb_str_destroy(&z);
    gb_str_destroy(&bomb);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_check_doc_round_trips),
        cmocka_unit_test(test_check_doc_writes_valid_utf8_for_any_output),
        cmocka_unit_test(test_check_doc_refuses_mistyped_input),
        cmocka_unit_test(test_vsim_doc_round_trips),
        cmocka_unit_test(test_vsim_doc_refuses_mistyped_input),
        cmocka_unit_test(test_compare_doc_round_trips),
        cmocka_unit_test(test_json_string_replaces_ill_formed_utf8),
        cmocka_unit_test(test_json_string_as_escapes_upper_and_to_ascii),
        cmocka_unit_test(test_json_number_real_writes_whole_values_as_integers),
        cmocka_unit_test(test_gzip_reads_back_and_refuses_a_bomb),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
