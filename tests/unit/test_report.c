#include "src/report/report.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "src/report/added_text.h"
#include "tests/unit/helpers.h"

#define FIX GB_TEST_DATA "/report"

/* A temporary directory with stand-in asset files (one with "</script>" in it, which the page
 * must not let end its script element). Owned string; removed by rm_assets. */
static char *make_assets(bool flat)
{
    char tmpl[] = "/tmp/gb-report-assets-XXXXXX";
    char *dir = mkdtemp(tmpl);
    assert_non_null(dir);
    static const char *const names[3] = {"vega", "vega-lite", "vega-embed"};
    for (int i = 0; i < 3; i++) {
        char *path;
        if (flat) {
            path = gb_asprintf("%s/%s.min.js", dir, names[i]);
        } else {
            char *d1 = gb_asprintf("%s/%s", dir, names[i]), *d2 = gb_asprintf("%s/%s/build", dir, names[i]);
            assert_int_equal(mkdir(d1, 0755), 0);
            assert_int_equal(mkdir(d2, 0755), 0);
            free(d1);
            free(d2);
            path = gb_asprintf("%s/%s/build/%s.min.js", dir, names[i], names[i]);
        }
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fprintf(f, "/*ASSET %s*/ var s%d = \"</script>\";\n", names[i], i);
        fclose(f);
        free(path);
    }
    return gb_strdup(dir);
}

static void rm_assets(char *dir)
{
    char *cmd = gb_asprintf("rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    free(cmd);
    free(dir);
}

/* The JSON spec of the chart with the given id, parsed (owned), or NULL. */
static json_t *chart_spec(const char *html, const char *id)
{
    char *open = gb_asprintf("data-chart=\"%s\">", id);
    const char *p = strstr(html, open);
    size_t olen = strlen(open);
    free(open);
    if (!p) return NULL;
    p += olen;
    const char *end = strstr(p, "</script>");
    assert_non_null(end);
    json_error_t jerr;
    json_t *spec = json_loadb(p, (size_t)(end - p), 0, &jerr);
    if (!spec) print_error("chart %s: %s\n", id, jerr.text);
    return spec;
}

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle)) n++;
    return n;
}

static void test_report_reads_runs_versions_and_lean_input(void **state)
{
    (void)state;
    static const struct {
        const char *path;
        size_t tasks, warnings;
        const char *warning; /* a substring of the first warning, or NULL */
    } cases[] = {
        {FIX "/bench.jsonl", 4, 0, NULL},
        {FIX "/versions", 9, 0, NULL},
        {FIX "/lean.jsonl", 2, 2, "lean.jsonl:2: malformed JSON"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        GbReportOptions opt = {0};
        GbReport *r = gb_report_new(&opt);
        GbError err;
        bool ok = gb_report_add_input(r, cases[i].path, &err);
        if (!ok) print_error("%s\n", err.msg);
        assert_true(ok);
        assert_int_equal(gb_report_task_count(r), cases[i].tasks);
        for (size_t w = 0; w < gb_report_warning_count(r); w++) print_message("warning: %s\n", gb_report_warning(r, w));
        assert_int_equal(gb_report_warning_count(r), cases[i].warnings);
        if (cases[i].warning) assert_non_null(strstr(gb_report_warning(r, 0), cases[i].warning));
        gb_report_delete(r);
    }
}

static void test_report_skips_byte_order_mark(void **state)
{
    (void)state;
    GbError err;
    size_t len;
    char *text = gb_read_file(FIX "/bench.jsonl", &len, &err);
    assert_non_null(text);
    char path[] = "/tmp/gb-report-bom-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "\xEF\xBB\xBF", 3), 3);
    assert_int_equal(write(fd, text, len), (ssize_t)len);
    close(fd);
    GbReport *r = gb_report_new(NULL);
    assert_true(gb_report_add_input(r, path, &err));
    assert_int_equal(gb_report_task_count(r), 4);
    /* The first line is read, not reported malformed. */
    for (size_t i = 0; i < gb_report_warning_count(r); i++) assert_null(strstr(gb_report_warning(r, i), "malformed"));
    gb_report_delete(r);
    unlink(path);
    free(text);
}

static void test_report_rejects_unusable_input(void **state)
{
    (void)state;
    GbReport *r = gb_report_new(NULL);
    GbError err;
    assert_false(gb_report_add_input(r, FIX "/no-such-file.jsonl", &err));
    assert_non_null(strstr(err.msg, "no-such-file.jsonl"));
    /* A file of JSON lines that are not evolve output holds no usable task. */
    assert_false(gb_report_add_input(r, FIX "/thresholds.json", &err));
    assert_non_null(strstr(err.msg, "no task with genebench results"));
    assert_null(gb_report_render(r, &err));
    assert_non_null(strstr(err.msg, "no input"));
    gb_report_delete(r);
}

static void test_report_render_has_every_panel(void **state)
{
    (void)state;
    char *assets = make_assets(false);
    GbReportOptions opt = {.assets_dir = assets, .title = "A <fixture> report"};
    GbReport *r = gb_report_new(&opt);
    GbError err;
    assert_true(gb_report_add_input(r, FIX "/bench.jsonl", &err));
    assert_true(gb_report_add_input(r, FIX "/versions", &err));
    char *html = gb_report_render(r, &err);
    if (!html) print_error("%s\n", err.msg);
    assert_non_null(html);
    /* Assets are inlined, and "</script" inside them is neutralised. */
    assert_non_null(strstr(html, "/*ASSET vega*/"));
    assert_non_null(strstr(html, "/*ASSET vega-lite*/"));
    assert_non_null(strstr(html, "/*ASSET vega-embed*/"));
    assert_int_equal(count(html, "\"<\\/script>\""), 3);
    assert_null(strstr(html, "<script src"));
    assert_non_null(strstr(html, "<title>A &lt;fixture&gt; report</title>"));

    /* Metrics: 7 complexity charts (one SVG each, so that the row wraps), each with the original
     * boxes once per benchmark and one box per run; the colour legend only on the first. */
    assert_int_equal(count(html, "data-chart=\"chart-complexity-"), 7);
    json_t *spec = chart_spec(html, "chart-complexity-1");
    assert_non_null(spec);
    json_t *c1 = spec;
    json_t *box = json_array_get(json_object_get(c1, "layer"), 0);
    /* bench: 4 originals + 3 hardened (one original fails); versions: 3 originals + 3 x 3 seeds. */
    assert_int_equal(json_array_size(json_object_get(json_object_get(box, "data"), "values")), 4 + 3 + 3 + 9);
    /* CT1 = 66.29 is far above every C1 value: it goes into the subtitle. */
    assert_string_equal(json_string_value(json_object_get(json_object_get(c1, "title"), "subtitle")),
                        "CT 66.29 ↑ off scale");
    assert_null(json_object_get(json_object_get(json_object_get(box, "encoding"), "color"), "legend"));
    json_decref(spec);
    spec = chart_spec(html, "chart-complexity-2");
    assert_non_null(spec);
    box = json_array_get(json_object_get(spec, "layer"), 0);
    assert_true(json_is_null(json_object_get(json_object_get(json_object_get(box, "encoding"), "color"), "legend")));
    json_decref(spec);
    assert_int_equal(count(html, "data-chart=\"chart-readability-"), 14);
    /* R6 (max nested loop, RT 2) is in scale: a rule layer and its label. */
    json_t *r6 = chart_spec(html, "chart-readability-6");
    assert_non_null(r6);
    assert_int_equal(json_array_size(json_object_get(r6, "layer")), 3);
    json_decref(r6);
    /* RC and RR before and after: a box per series, as for the metrics, on [0, 1]. */
    assert_int_equal(count(html, "data-chart=\"chart-relative-"), 2);
    const char *rel_title[] = {"RC relative complexity", "RR relative readability"};
    for (int q = 0; q < 2; q++) {
        char *id = gb_asprintf("chart-relative-%d", q + 1);
        spec = chart_spec(html, id);
        free(id);
        assert_non_null(spec);
        assert_string_equal(json_string_value(json_object_get(json_object_get(spec, "title"), "text")), rel_title[q]);
        box = json_array_get(json_object_get(spec, "layer"), 0);
        assert_string_equal(json_string_value(json_object_get(json_object_get(box, "mark"), "type")), "boxplot");
        json_t *vals = json_object_get(json_object_get(box, "data"), "values");
        assert_int_equal(json_array_size(vals), 4 + 3 + 3 + 9);
        size_t vi;
        json_t *val;
        size_t orig = 0;
        json_array_foreach(vals, vi, val)
        {
            double v = json_number_value(json_object_get(val, "v"));
            assert_true(v >= 0 && v <= 1);
            orig += strcmp(json_string_value(json_object_get(val, "phase")), "original") == 0;
        }
        assert_int_equal(orig, 4 + 3);
        json_decref(spec);
    }

    /* RC vs RR: per run, the originals, the picks, their links and the front points. */
    spec = chart_spec(html, "chart-fitness");
    assert_non_null(spec);
    json_t *rows = json_object_get(json_object_get(spec, "data"), "values");
    size_t kinds[4] = {0};
    size_t i;
    json_t *row;
    json_array_foreach(rows, i, row)
    {
        const char *k = json_string_value(json_object_get(row, "kind"));
        kinds[strcmp(k, "original") == 0 ? 0 : strcmp(k, "hardened pick") == 0 ? 1 : strcmp(k, "move") == 0 ? 2 : 3]++;
    }
    assert_int_equal(kinds[0], 4 + 9);
    assert_int_equal(kinds[1], 3 + 9);
    assert_int_equal(kinds[2], 3 + 9);
    assert_int_equal(kinds[3], 2 + 4 + 1 + (2 + 4 + 5) + (4 + 2 + 4) + (4 + 2 + 2)); /* fixture fronts */
    json_decref(spec);

    /* Operators: bench picks use S5 N1 S10 A1 and S1 A3 S2 S10, so S10 appears twice. */
    assert_int_equal(count(html, "data-chart=\"chart-operators-"), 2);
    spec = chart_spec(html, "chart-operators-1");
    assert_non_null(spec);
    json_array_foreach(json_object_get(json_object_get(spec, "data"), "values"), i, row)
    {
        if (strcmp(json_string_value(json_object_get(row, "run")), "bench") != 0) continue;
        if (strcmp(json_string_value(json_object_get(row, "op")), "S10") != 0) continue;
        assert_near(json_number_value(json_object_get(row, "n")), 2.0, 1e-9);
        assert_string_equal(json_string_value(json_object_get(row, "opname")), "S10 TransformAugAssignment");
    }
    json_decref(spec);

    /* One gate chart per run, in input order: bench first, and S4 (offered, never picked) is named. */
    assert_int_equal(count(html, "data-chart=\"chart-gates-"), 4); /* bench and 3 seeds */
    assert_non_null((spec = chart_spec(html, "chart-gates-1")));
    assert_string_equal(json_string_value(json_object_get(json_object_get(spec, "title"), "text")), "bench");
    bool s4 = false;
    json_array_foreach(json_object_get(json_object_get(spec, "data"), "values"), i, row)
    {
        assert_string_equal(json_string_value(json_object_get(row, "run")), "bench");
        s4 |= strcmp(json_string_value(json_object_get(row, "opname")), "S4 AddThread") == 0;
    }
    assert_true(s4);
    json_decref(spec);
    /* One similarity chart per measure, each with 3 pairs x 3 tasks. */
    assert_int_equal(count(html, "data-chart=\"chart-similarity-"), 7);
    assert_non_null((spec = chart_spec(html, "chart-similarity-1")));
    assert_string_equal(json_string_value(json_object_get(json_object_get(spec, "title"), "text")), "codebleu");
    assert_int_equal(json_array_size(json_object_get(json_object_get(spec, "data"), "values")), 9);
    json_decref(spec);
    assert_non_null((spec = chart_spec(html, "chart-nnmr")));
    json_decref(spec);

    /* Per-metric change: one table row per metric, C1 first, and one bar per metric and run over
     * the evolved tasks (bench's original_fails task is left out: 3 of its 4). */
    assert_int_equal(count(html, "<tr data-metric=\""), 21);
    assert_true(strstr(html, "<tr data-metric=\"C1\">") < strstr(html, "<tr data-metric=\"R1\">"));
    assert_int_equal(count(html, "data-chart=\"chart-change\""), 1);
    assert_non_null((spec = chart_spec(html, "chart-change")));
    json_t *bars =
        json_object_get(json_object_get(json_array_get(json_object_get(spec, "layer"), 0), "data"), "values");
    assert_int_equal(json_array_size(bars), 21 * 4);
    json_t *b0 = json_array_get(bars, 0);
    assert_string_equal(json_string_value(json_object_get(b0, "run")), "bench");
    assert_string_equal(json_string_value(json_object_get(b0, "metric")), "C1");
    assert_int_equal(json_integer_value(json_object_get(b0, "tasks")), 3);
    json_decref(spec);
    /* The table has one row and one diff per task; the diff escapes the programs. */
    assert_int_equal(count(html, "class=\"difflink\""), 13);
    assert_int_equal(count(html, "<details class=\"diff-task\""), 13);
    assert_non_null(strstr(html, "id=\"diff-13\""));
    assert_non_null(strstr(html, "aeiou&quot;"));
    /* Run facts from the summaries. */
    assert_non_null(strstr(html, "tests/data/report/thresholds.json"));
    assert_non_null(strstr(html, "numpy 1.24.2"));
    free(html);
    gb_report_delete(r);
    rm_assets(assets);
}

static void test_report_missing_assets_names_file_and_setup(void **state)
{
    (void)state;
    GbReportOptions opt = {.assets_dir = "/nonexistent-gb-assets"};
    GbReport *r = gb_report_new(&opt);
    GbError err;
    assert_true(gb_report_add_input(r, FIX "/bench.jsonl", &err));
    assert_null(gb_report_render(r, &err));
    assert_non_null(strstr(err.msg, "/nonexistent-gb-assets/vega/build/vega.min.js"));
    assert_non_null(strstr(err.msg, "src/setup.sh"));
    gb_report_delete(r);
    /* The flat layout (DIR/NAME.min.js) is accepted too. */
    char *assets = make_assets(true);
    char *paths[3];
    assert_true(gb_report_find_assets(assets, paths, &err));
    assert_non_null(strstr(paths[2], "vega-embed.min.js"));
    for (int i = 0; i < 3; i++) free(paths[i]);
    rm_assets(assets);
}

/* Thresholds files in the shapes a calibrated file may take: the metric keys at any depth, or
 * CT/RT arrays. The lean fixture names a missing file, so its charts only get rules from here. */
static void test_report_reads_threshold_file_shapes(void **state)
{
    (void)state;
    static const char *const shapes[] = {
        "{\"C1\": 6.5, \"num_tokens\": 500}",
        "{\"manifest\": {\"C1\": 99}, \"thresholds\": {\"complexity\": {\"C1\": 6.5}, \"readability\": "
        "{\"num_tokens\": 500}}}",
        "{\"ct\": [6.5, 1, 1, 1, 1, 1, 1], \"rt\": [500, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]}",
        "{\"C1\": 6.5, \"R1\": 500}",
    };
    char *assets = make_assets(true);
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        char path[] = "/tmp/gb-thresholds-XXXXXX";
        int fd = mkstemp(path);
        assert_true(fd >= 0);
        assert_int_equal(write(fd, shapes[i], strlen(shapes[i])), (ssize_t)strlen(shapes[i]));
        close(fd);
        GbReportOptions opt = {.assets_dir = assets, .thresholds = path};
        GbReport *r = gb_report_new(&opt);
        GbError err;
        assert_true(gb_report_add_input(r, FIX "/lean.jsonl", &err));
        char *html = gb_report_render(r, &err);
        assert_non_null(html);
        json_t *spec = chart_spec(html, "chart-complexity-1");
        json_t *c1 = spec;
        json_t *rule = json_array_get(json_object_get(c1, "layer"), 1);
        assert_non_null(rule);
        json_t *v = json_array_get(json_object_get(json_object_get(rule, "data"), "values"), 0);
        assert_near(json_number_value(json_object_get(v, "v")), 6.5, 1e-9);
        json_decref(spec);
        spec = chart_spec(html, "chart-readability-1");
        json_t *r1 = spec;
        /* 500 is more than three times the largest token count (tens): off scale. */
        assert_string_equal(json_string_value(json_object_get(json_object_get(r1, "title"), "subtitle")),
                            "RT 500 ↑ off scale");
        json_decref(spec);
        free(html);
        gb_report_delete(r);
        unlink(path);
    }
    rm_assets(assets);
}

/* The added-text measure counts a sentence or name once per task, and only when the original
 * program does not have it. */
static void test_added_text_counts_tasks_with_new_text(void **state)
{
    (void)state;
    GbAddedText at;
    gb_added_text_init(&at);
    const char *orig = "def f(x):\n    \"\"\"Double x.\"\"\"\n    return 2 * x  # twice\n";
    gb_added_text_add(&at, orig, NULL, 0,
                      "def g(v):\n    \"\"\"Run it. Then stop.\"\"\"\n    return v\n"
                      "def f(x):\n    \"\"\"Double x.\"\"\"\n    return 2 * g(x)  # twice\n",
                      NULL, 0);
    GbFile extra = {"helper.py", "# Run it.\nk = 1\n"};
    gb_added_text_add(&at, orig, NULL, 0, orig, &extra, 1);
    gb_added_text_add(&at, orig, NULL, 0, orig, NULL, 0);
    assert_int_equal(at.tasks, 3);
    char *text;
    assert_int_equal(gb_added_text_top(&at, 's', &text), 2);
    assert_string_equal(text, "Run it.");
    free(text);
    /* g, v and k once each: the smallest text wins the tie */
    assert_int_equal(gb_added_text_top(&at, 'n', &text), 1);
    assert_string_equal(text, "g");
    free(text);
    gb_added_text_destroy(&at);
    gb_added_text_init(&at);
    assert_int_equal(gb_added_text_top(&at, 's', &text), 0);
    assert_null(text);
    /* library words (imports, attribute names, keyword names at calls) do not count; a parameter
     * counts where it is defined */
    gb_added_text_add(&at, "", NULL, 0,
                      "import functools\nfrom os import path as p_\nz = functools.wraps(len, updated=())\n"
                      "print(p_.join('a', 'b'), end='')\n",
                      NULL, 0);
    assert_int_equal(gb_added_text_top(&at, 'n', &text), 1);
    assert_string_equal(text, "z");
    free(text);
    gb_added_text_destroy(&at);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_report_reads_runs_versions_and_lean_input),
        cmocka_unit_test(test_report_skips_byte_order_mark),
        cmocka_unit_test(test_report_rejects_unusable_input),
        cmocka_unit_test(test_report_render_has_every_panel),
        cmocka_unit_test(test_report_missing_assets_names_file_and_setup),
        cmocka_unit_test(test_report_reads_threshold_file_shapes),
        cmocka_unit_test(test_added_text_counts_tasks_with_new_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
