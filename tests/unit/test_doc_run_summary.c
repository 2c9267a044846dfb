/* The run summary document (src/doc/run_summary.h): write -> parse -> write gives the same bytes,
 * the layout is jansson's JSON_INDENT(2) with 10 significant digits (what the summary has always
 * been), and the parser refuses missing, mistyped and unknown keys naming the file and the key. */
#include "src/doc/run_summary.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/helpers.h"

/* A summary with every shape the writer has: away, a library that is not importable, a string
 * that is not UTF-8, operators never offered / offered but in no pick / in picks, an added
 * sentence and no added name, provenance with a readable and an unreadable input. */
static void fill(GbRunSummary *s)
{
    gb_run_summary_init(s);
    s->version = gb_strdup("0.1.0");
    s->seed = 7;
    s->generations = 3;
    s->time_budget = 0;
    s->breed = 0.2;
    s->thresholds = gb_strdup("dir\xff/thresholds.json");
    s->lint = true;
    s->objective = gb_strdup("balanced");
    s->accept = 4;
    s->away_versions = 2;
    s->away_target = 0.35;
    gb_run_summary_set_libs(s, "{\"version\": \"3.11.2\", \"numpy\": \"1.24.2\", \"scipy\": null, \"pylint\": 2}");
    s->interpreter = gb_strdup("/usr/bin/python3");
    s->tasks = 4;
    s->hardened = 2;
    s->unchanged = 1;
    s->failed = 1;
    s->rc_before_mean = 0.0409;
    s->rr_before_mean = 0.8361;
    s->rc_after_mean = 0.0628;
    s->rr_after_mean = 0.7863;
    s->time_s = 12.5;
    s->offspring_validated = 223;
    s->offspring_validated_this_run = 100;
    s->offspring_per_s = 8;
    s->has_gates = true;
    s->gates.offered = 384;
    for (int g = 0; g < GB_GATE_COUNT; g++) s->gates.rejected[g] = 10 + g;
    s->gates.accepted = 148;
    s->operators[0].counts.offered = 72;
    s->operators[0].counts.accepted = 27;
    s->operators[0].counts.rejected[0] = 5;
    s->operators[0].in_picks = 3;
    s->operators[0].mean_rc_delta = 0.0078881234567;
    s->operators[1].counts.offered = 9;
    s->operators[1].counts.accepted = 1;
    s->operators[1].mean_rc_delta = 0;
    s->operators[2].in_picks = 1;
    s->operators[2].mean_rc_delta = 1e-7;
    for (int k = 0; k < GB_METRIC_COUNT; k++) {
        s->metrics[k].before_mean = k * 1.25;
        s->metrics[k].after_mean = k * 1.5 + 0.0001;
        s->metrics[k].raised = k;
        s->metrics[k].lowered = 1;
        s->metrics[k].tasks = k + 1;
    }
    s->has_added_text = true;
    s->added_text = (GbRunSummaryAddedText){.tasks = 3,
                                            .sentence = gb_strdup("Return the \"total\"."),
                                            .sentence_tasks = 2,
                                            .sentence_share = 0.6667,
                                            .name = NULL,
                                            .name_tasks = 0,
                                            .name_share = 0};
    s->has_provenance = true;
    GbRunSummaryProvenance *p = &s->provenance;
    p->command_line = gb_strdup("genebench evolve 'b c.jsonl' --seed 7");
    p->tool_version = gb_strdup("0.1.0");
    p->git_commit = gb_strdup("abc1234");
    p->date = gb_strdup("2026-11-28T02:00:00Z");
    GbRunSummaryInput in = {.path = gb_strdup("b c.jsonl")};
    memset(in.sha256, 'a', 64);
    gb_array_push(&p->inputs, in);
    GbRunSummaryInput gone = {.path = gb_strdup("gone.jsonl")};
    gb_array_push(&p->inputs, gone);
}

static void test_run_summary_round_trips(void **state)
{
    (void)state;
    GbRunSummary s, back;
    fill(&s);
    char *text = gb_run_summary_write(&s);
    GbError err = {{0}};
    bool ok = gb_run_summary_parse(text, strlen(text), "x.summary.json", &back, &err);
    if (!ok) fail_msg("%s", err.msg);
    char *again = gb_run_summary_write(&back);
    assert_string_equal(text, again);
    assert_int_equal(back.n_libs, 4);
    assert_string_equal(back.libs[1].name, "numpy");
    assert_null(back.libs[2].version);
    assert_null(back.libs[3].version);
    assert_string_equal(back.thresholds, "dir\xef\xbf\xbd/thresholds.json");
    assert_int_equal(back.away_versions, 2);
    assert_int_equal(back.operators[0].counts.rejected[0], 5);
    assert_near(back.operators[0].mean_rc_delta, 0.007888123457, 1e-15);
    assert_true(back.has_added_text);
    assert_string_equal(back.added_text.sentence, "Return the \"total\".");
    assert_null(back.added_text.name);
    assert_true(back.has_provenance);
    assert_int_equal(back.provenance.inputs.len, 2);
    assert_string_equal(back.provenance.inputs.items[0].sha256, s.provenance.inputs.items[0].sha256);
    assert_string_equal(back.provenance.inputs.items[1].sha256, "");
    free(again);
    free(text);
    gb_run_summary_destroy(&back);

    /* merge's summary: no objective, accept or away; no gate counts; no provenance. An older
     * summary has no added text either. */
    free(s.objective);
    s.objective = NULL;
    s.has_gates = false;
    s.has_provenance = false;
    s.has_added_text = false;
    text = gb_run_summary_write(&s);
    assert_null(strstr(text, "\"objective\""));
    assert_null(strstr(text, "\"provenance\""));
    assert_null(strstr(text, "\"added_text\""));
    assert_non_null(strstr(text, "\"gates\": {},"));
    ok = gb_run_summary_parse(text, strlen(text), "m.summary.json", &back, &err);
    if (!ok) fail_msg("%s", err.msg);
    again = gb_run_summary_write(&back);
    assert_string_equal(text, again);
    free(again);
    free(text);
    gb_run_summary_destroy(&back);
    gb_run_summary_destroy(&s);
}

/* The bytes are what jansson writes for the same object with the flags the summary always used. */
static void test_run_summary_is_jansson_layout(void **state)
{
    (void)state;
    GbRunSummary s;
    fill(&s);
    char *text = gb_run_summary_write(&s);
    json_t *o = json_loads(text, 0, NULL);
    assert_non_null(o);
    char *dumped = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
    assert_non_null(dumped);
    size_t n = strlen(dumped);
    assert_int_equal(strlen(text), n + 1);
    assert_memory_equal(text, dumped, n);
    assert_int_equal(text[n], '\n');
    assert_non_null(strstr(text, "\"time_budget\": 0.0,"));
    assert_non_null(strstr(text, "\"mean_rc_delta\": 1e-7"));
    free(dumped);
    json_decref(o);
    free(text);
    gb_run_summary_destroy(&s);
}

/* Replace the first occurrence of from in text by to (owned). */
static char *replaced(const char *text, const char *from, const char *to)
{
    const char *at = strstr(text, from);
    assert_non_null(at);
    return gb_asprintf("%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
}

static void test_run_summary_refuses_bad_input(void **state)
{
    (void)state;
    GbRunSummary s, back;
    fill(&s);
    char *text = gb_run_summary_write(&s);
    gb_run_summary_destroy(&s);
    static const struct {
        const char *from, *to, *message;
    } cases[] = {
        {"\"seed\": 7", "\"seed\": \"7\"", "bad.json: \"seed\": expected an integer"},
        {"\"lint\": true,\n", "", "bad.json: \"lint\": expected true or false (missing)"},
        {"\"tasks\": 4", "\"tasks\": 4,\n  \"extra\": 1", "bad.json: \"extra\": unknown key"},
        {"\"tool\": \"genebench\"", "\"tool\": \"other\"", "bad.json: \"tool\": expected \"genebench\""},
        {"\"raised\": 0", "\"raised\": null", "bad.json: \"metrics.C1.raised\": expected an integer"},
        {"\"versions\": 2", "\"versions\": 2, \"more\": 1", "bad.json: \"away.more\": unknown key"},
        {"\"numpy\": \"1.24.2\"", "\"numpy\": 1", "bad.json: \"python.numpy\": expected a string or null"},
        {"\"objective\": \"balanced\",\n", "", "bad.json: \"objective\": expected a string (missing, with \"accept\")"},
        {"\"interpreter\"", "\"interp\"", "bad.json: \"python.interpreter\": expected a string (missing)"},
        {"{\n  \"tool\"", "[\n  \"tool\"", "bad.json: malformed JSON at line "},
        {"\"name\": null", "\"name\": 3", "bad.json: \"added_text.name\": expected a string"},
        {"\"name_share\": 0.0", "\"name_share\": 0.0, \"x\": 1", "bad.json: \"added_text.x\": unknown key"},
        {"\"sentence_tasks\": 2,\n", "", "bad.json: \"added_text.sentence_tasks\": expected an integer (missing)"},
        {"\"git_commit\": \"abc1234\",\n", "", "bad.json: \"provenance.git_commit\": expected a string (missing)"},
        {"\"date\": \"2026", "\"day\": \"2026", "bad.json: \"provenance.day\": unknown key"},
        {"\"path\": \"gone.jsonl\"", "\"path\": 1", "bad.json: \"provenance.inputs[1].path\": expected a string"},
        {"\"sha256\": \"aaaa", "\"sha256\": \"Xaaa", "bad.json: \"provenance.inputs[0].sha256\": expected 64"},
        {"\"tool_version\": \"0.1.0\"", "\"tool_version\": 1",
         "bad.json: \"provenance.tool_version\": expected a string"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *bad = replaced(text, cases[i].from, cases[i].to);
        GbError err = {{0}};
        bool ok = gb_run_summary_parse(bad, strlen(bad), "bad.json", &back, &err);
        if (ok) fail_msg("case %zu was accepted", i);
        if (strncmp(err.msg, cases[i].message, strlen(cases[i].message)) != 0)
            fail_msg("case %zu: got \"%s\", expected \"%s\"", i, err.msg, cases[i].message);
        assert_null(back.version);
        free(bad);
    }
    free(text);
}

/* Summaries genebench wrote with jansson, before this module existed: `evolve
 * examples/benchmark.jsonl --seed 1 --generations 3 -j 2` and `merge tests/data/report/bench.jsonl`,
 * from before "added_text" and "provenance" and from after, read and write back to the same bytes. */
static void test_run_summary_reads_what_genebench_wrote(void **state)
{
    (void)state;
    static const struct {
        const char *path;
        bool evolve, added_text;
    } files[] = {
        {GB_TEST_DATA "/doc/evolve.summary.json", true, false},
        {GB_TEST_DATA "/doc/merge.summary.json", false, false},
        {GB_TEST_DATA "/doc/evolve_provenance.summary.json", true, true},
        {GB_TEST_DATA "/doc/merge_added_text.summary.json", false, true},
    };
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        GbRunSummary s;
        GbError err = {{0}};
        if (!gb_run_summary_read(files[i].path, &s, &err)) fail_msg("%s", err.msg);
        size_t len;
        char *text = gb_read_file(files[i].path, &len, &err);
        assert_non_null(text);
        char *again = gb_run_summary_write(&s);
        assert_string_equal(text, again);
        /* evolve writes the objective and (now) its provenance, merge neither */
        assert_true((s.objective != NULL) == files[i].evolve);
        assert_true(s.has_provenance == (files[i].evolve && files[i].added_text));
        assert_true(s.has_added_text == files[i].added_text);
        free(again);
        free(text);
        gb_run_summary_destroy(&s);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_run_summary_round_trips),
        cmocka_unit_test(test_run_summary_is_jansson_layout),
        cmocka_unit_test(test_run_summary_refuses_bad_input),
        cmocka_unit_test(test_run_summary_reads_what_genebench_wrote),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
