/* The output record (nsga2/record.h) through its JSON module (src/bench/record.h): round trips
 * of every field through a whole task line, empty parts, the exact bytes of numbers, and bad
 * input that must give a clear error naming the field. */
#include "src/bench/record.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/bench/task_io.h"
#include "tests/unit/helpers.h"

static void assert_num_equal(double a, double b)
{
    if (isnan(a) && isnan(b)) return;
    if (a != b) {
        print_error("number %.17g, expected %.17g\n", a, b);
        fail();
    }
}

static void assert_str_or_null_equal(const char *a, const char *b)
{
    if (!a || !b) {
        assert_ptr_equal(a, b);
        return;
    }
    assert_string_equal(a, b);
}

static void assert_score_equal(const GbRecordScore *a, const GbRecordScore *b)
{
    assert_num_equal(a->rc, b->rc);
    assert_num_equal(a->rr, b->rr);
    for (int i = 0; i < GB_METRIC_COUNT; i++) assert_num_equal(a->metrics[i], b->metrics[i]);
}

static void assert_gates_equal(const GbGateCounts *a, const GbGateCounts *b)
{
    assert_int_equal(a->offered, b->offered);
    assert_int_equal(a->accepted, b->accepted);
    for (int g = 0; g < GB_GATE_COUNT; g++) assert_int_equal(a->rejected[g], b->rejected[g]);
}

/* Every field of the record. */
static void assert_record_equal(const GbRecord *a, const GbRecord *b)
{
    assert_int_equal(a->index, b->index);
    assert_int_equal(a->has_seed, b->has_seed);
    assert_true(a->seed == b->seed);
    assert_int_equal(a->has_status, b->has_status);
    assert_int_equal(a->status, b->status);
    assert_str_or_null_equal(a->error, b->error);
    assert_str_or_null_equal(a->stop_reason, b->stop_reason);
    assert_int_equal(a->generations, b->generations);
    assert_str_or_null_equal(a->thresholds, b->thresholds);
    assert_int_equal(a->has_scores, b->has_scores);
    assert_int_equal(a->has_operators, b->has_operators);
    assert_int_equal(a->has_front, b->has_front);
    assert_int_equal(a->has_gates, b->has_gates);
    assert_int_equal(a->has_gates_by_operator, b->has_gates_by_operator);
    assert_score_equal(&a->before, &b->before);
    assert_score_equal(&a->after, &b->after);
    assert_int_equal(a->operators.len, b->operators.len);
    for (size_t i = 0; i < a->operators.len; i++) {
        assert_string_equal(a->operators.items[i].op, b->operators.items[i].op);
        assert_str_or_null_equal(a->operators.items[i].name, b->operators.items[i].name);
        assert_str_or_null_equal(a->operators.items[i].site, b->operators.items[i].site);
        assert_num_equal(a->operators.items[i].rc_delta, b->operators.items[i].rc_delta);
    }
    assert_int_equal(a->has_edits, b->has_edits);
    assert_int_equal(a->edits.len, b->edits.len);
    for (size_t i = 0; i < a->edits.len; i++) {
        const GbApplied *x = &a->edits.items[i], *y = &b->edits.items[i];
        assert_string_equal(x->op, y->op);
        assert_string_equal(x->module, y->module);
        assert_int_equal(x->start, y->start);
        assert_int_equal(x->old_end, y->old_end);
        assert_int_equal(x->new_end, y->new_end);
    }
    assert_int_equal(a->front.len, b->front.len);
    for (size_t i = 0; i < a->front.len; i++) {
        const GbRecordFrontMember *x = &a->front.items[i], *y = &b->front.items[i];
        assert_num_equal(x->rc, y->rc);
        assert_num_equal(x->rr, y->rr);
        assert_int_equal(x->operators.len, y->operators.len);
        for (size_t k = 0; k < x->operators.len; k++) assert_string_equal(x->operators.items[k], y->operators.items[k]);
        assert_str_or_null_equal(x->source, y->source);
    }
    assert_gates_equal(&a->gates, &b->gates);
    for (int o = 0; o < GB_OP_COUNT; o++) assert_gates_equal(&a->gates_by_operator[o], &b->gates_by_operator[o]);
    assert_int_equal(a->has_naming, b->has_naming);
    assert_str_or_null_equal(a->naming_mode, b->naming_mode);
    assert_int_equal(a->renamed.len, b->renamed.len);
    for (size_t i = 0; i < a->renamed.len; i++) {
        assert_string_equal(a->renamed.items[i].old_name, b->renamed.items[i].old_name);
        assert_string_equal(a->renamed.items[i].new_name, b->renamed.items[i].new_name);
    }
    assert_int_equal(a->naming_kept, b->naming_kept);
    assert_int_equal(a->has_lint, b->has_lint);
    assert_num_equal(a->lint_before, b->lint_before);
    assert_num_equal(a->lint_after, b->lint_after);
    assert_int_equal(a->has_equiv, b->has_equiv);
    assert_int_equal(a->equiv_inputs, b->equiv_inputs);
    assert_int_equal(a->equiv_derived, b->equiv_derived);
    assert_int_equal(a->equiv_untraced, b->equiv_untraced);
    assert_int_equal(a->has_away, b->has_away);
    assert_int_equal(a->away_versions, b->away_versions);
    assert_num_equal(a->away_target, b->away_target);
    assert_num_equal(a->away_original, b->away_original);
    assert_num_equal(a->away_pick, b->away_pick);
    assert_int_equal(a->has_stack, b->has_stack);
    assert_int_equal(a->stack_depth, b->stack_depth);
    assert_int_equal(a->stack_stacked, b->stack_stacked);
    assert_int_equal(a->has_time, b->has_time);
    assert_num_equal(a->time_s, b->time_s);
    assert_int_equal(a->offspring_validated, b->offspring_validated);
    assert_str_or_null_equal(a->original_source, b->original_source);
    assert_int_equal(a->original_extra_files.len, b->original_extra_files.len);
    for (size_t i = 0; i < a->original_extra_files.len; i++) {
        assert_string_equal(a->original_extra_files.items[i].path, b->original_extra_files.items[i].path);
        assert_string_equal(a->original_extra_files.items[i].source, b->original_extra_files.items[i].source);
    }
}

static void fill_score(GbRecordScore *s, double base)
{
    s->rc = base;
    s->rr = 1 - base;
    /* Values that the 6-decimal format keeps exactly. */
    for (int i = 0; i < GB_METRIC_COUNT; i++) s->metrics[i] = i < 7 ? (double)i : i + base;
}

static void push_step(GbRecord *r, const char *op, const char *name, const char *site, double d)
{
    GbRecordStep st = {gb_strdup(op), name ? gb_strdup(name) : NULL, site ? gb_strdup(site) : NULL, d};
    gb_array_push(&r->operators, st);
}

static void push_edit(GbRecord *r, const char *op, const char *module, size_t s, size_t o, size_t n)
{
    GbApplied a = {gb_strdup(op), gb_strdup(""), gb_strdup(module), s, o, n};
    gb_array_push(&r->edits, a);
}

/* A record with every part filled, unicode and control characters in its strings. */
static void fill_full(GbRecord *r)
{
    gb_record_init(r);
    r->index = 7;
    r->seed = 1234567890123ULL;
    r->has_seed = true;
    r->status = GB_EVOLVED_HARDENED;
    r->has_status = true;
    r->error = gb_strdup("naïve \"quoted\" \\ tab\t and \x01 ✓ 𝄞");
    r->stop_reason = gb_strdup("rc_reached");
    r->generations = 3;
    r->thresholds = gb_strdup("corpora/thresholds — ünï.json");
    r->has_scores = r->has_operators = r->has_edits = r->has_front = r->has_gates = r->has_gates_by_operator = true;
    fill_score(&r->before, 0.125);
    fill_score(&r->after, 0.375);
    r->after.rc = 0.654321;
    push_step(r, "S11", "TransformLoopToRecursion", "main.py@o356:for_statement", 0.068618);
    push_step(r, "A2", "AddBase64", "", -0.00005);
    push_edit(r, "TransformLoopToRecursion", "main.py", 356, 473, 833);
    push_edit(r, "IntroduceDecorator", "pkg/helpers.py", 0, 0, 17);
    GbRecordFrontMember m1 = {0.086812, 0.700442, {0}, gb_strdup("def f():\n    return 'ü'\n")};
    gb_array_push(&m1.operators, gb_strdup("S8"));
    gb_array_push(&m1.operators, gb_strdup("N1"));
    gb_array_push(&r->front, m1);
    GbRecordFrontMember m2 = {0.5, 0.25, {0}, NULL};
    gb_array_push(&r->front, m2);
    r->gates.offered = 40;
    r->gates.accepted = 30;
    for (int g = 0; g < GB_GATE_COUNT; g++) r->gates.rejected[g] = g + 1;
    r->gates_by_operator[0].offered = 10;
    r->gates_by_operator[0].accepted = 9;
    r->gates_by_operator[0].rejected[GB_GATE_TESTS] = 1;
    r->gates_by_operator[GB_OP_COUNT - 1].offered = 30;
    r->gates_by_operator[GB_OP_COUNT - 1].accepted = 21;
    r->gates_by_operator[GB_OP_COUNT - 1].rejected[GB_GATE_LINT] = 9;
    r->has_naming = true;
    r->naming_mode = gb_strdup("llm");
    GbRename rn1 = {gb_strdup("value_1"), gb_strdup("größe")}, rn2 = {gb_strdup("tmp_2"), gb_strdup("total")};
    gb_array_push(&r->renamed, rn1);
    gb_array_push(&r->renamed, rn2);
    r->naming_kept = true;
    r->has_lint = true;
    r->lint_before = 9.5;
    r->lint_after = 8.75;
    r->has_equiv = true;
    r->equiv_inputs = 4;
    r->equiv_derived = 25;
    r->equiv_untraced = true; /* "traced": false, and no branches */
    r->has_away = true;
    r->away_versions = 2;
    r->away_target = 0.4;
    r->away_original = 0.3125;
    r->away_pick = 0.25;
    r->has_stack = true;
    r->stack_depth = 5;
    r->stack_stacked = 3;
    r->has_time = true;
    r->time_s = 12.345678;
    r->offspring_validated = 143;
    r->original_source = gb_strdup("print('héllo')\n");
    GbFile f1 = {gb_strdup("helpers.py"), gb_strdup("X = 1\n")}, f2 = {gb_strdup("pkg/ütil.py"), gb_strdup("")};
    gb_array_push(&r->original_extra_files, f1);
    gb_array_push(&r->original_extra_files, f2);
}

/* Attach to a task, write the whole line, read the line back, read the record. */
static void round_trip_line(const GbRecord *r, GbRecord *back)
{
    GbTask t;
    gb_task_init(&t);
    t.id = gb_strdup("demo/ü");
    t.source = gb_strdup("x = 1\n");
    t.test_code = gb_strdup("assert x == 1\n");
    gb_record_attach(&t, r);
    char *line = gb_task_to_json(&t);
    GbTask t2;
    GbError err = {{0}};
    if (!gb_task_from_json(line, &t2, &err)) fail_msg("task line: %s", err.msg);
    if (!gb_record_read(&t2, back, &err)) fail_msg("record: %s\n%s", err.msg, line);
    /* Writing what was read gives the same bytes. */
    char *a = gb_record_genebench_json(r), *b = gb_record_genebench_json(back);
    assert_string_equal(a, b);
    free(a);
    free(b);
    free(line);
    gb_task_destroy(&t);
    gb_task_destroy(&t2);
}

static void test_record_round_trip_all_fields(void **state)
{
    (void)state;
    GbRecord r, back;
    fill_full(&r);
    round_trip_line(&r, &back);
    assert_record_equal(&r, &back);
    gb_record_destroy(&back);
    gb_record_destroy(&r);
}

static void test_record_round_trip_empty_parts(void **state)
{
    (void)state;
    GbRecord r, back;
    gb_record_init(&r);
    r.index = 0;
    r.seed = 1;
    r.has_seed = true;
    r.status = GB_EVOLVED_UNCHANGED;
    r.has_status = true;
    r.stop_reason = gb_strdup("no_offspring");
    r.generations = 0;
    r.thresholds = gb_strdup("");
    r.has_scores = r.has_operators = r.has_edits = r.has_front = r.has_gates = r.has_gates_by_operator = true;
    fill_score(&r.before, 0);
    fill_score(&r.after, 0);
    r.offspring_validated = 0;
    r.original_source = gb_strdup("");
    char *gb = gb_record_genebench_json(&r), *orig = gb_record_original_json(&r);
    assert_non_null(strstr(gb, "\"operators\":[],\"edits\":[],\"front\":[]"));
    assert_non_null(strstr(gb, "\"gates_by_operator\":{}"));
    assert_null(strstr(gb, "naming"));
    assert_null(strstr(gb, "\"lint\":{"));
    assert_null(strstr(gb, "time_s"));
    assert_null(strstr(gb, "\"stack\""));
    assert_string_equal(orig, "{\"source\":\"\",\"extra_files\":{}}");
    free(gb);
    free(orig);
    round_trip_line(&r, &back);
    assert_record_equal(&r, &back);
    gb_record_destroy(&back);
    gb_record_destroy(&r);

    /* Nothing at all: an empty object, and absence reads back as absence. */
    gb_record_init(&r);
    gb = gb_record_genebench_json(&r);
    assert_string_equal(gb, "{}");
    assert_null(gb_record_original_json(&r));
    GbError err = {{0}};
    if (!gb_record_parse(gb, NULL, &back, &err)) fail_msg("%s", err.msg);
    assert_record_equal(&r, &back);
    free(gb);
    gb_record_destroy(&back);
    gb_record_destroy(&r);
}

/* Numbers keep the format evolve has always written (gb_json_number). */
static void test_record_number_bytes(void **state)
{
    (void)state;
    GbRecord r;
    gb_record_init(&r);
    r.index = 2;
    r.has_scores = r.has_operators = true;
    fill_score(&r.before, 0);
    fill_score(&r.after, 0);
    r.after.rc = 0.00005;                              /* Python's repr would write 5e-05 */
    r.after.rr = 0.1234567;                            /* rounded to 6 decimals */
    r.before.rc = 4.0;                                 /* integral: no ".0" */
    r.before.rr = NAN;                                 /* not finite: null */
    r.after.metrics[GB_METRIC_COUNT - 1] = -0.0000001; /* rounds to -0: written 0 */
    push_step(&r, "S1", "AddNestedFor", "k", 1e-7);
    char *gb = gb_record_genebench_json(&r);
    assert_non_null(strstr(gb, "\"before\":{\"rc\":4,\"rr\":null,\"metrics\":{\"C1\":0,"));
    assert_non_null(strstr(gb, "\"after\":{\"rc\":0.00005,\"rr\":0.123457,"));
    assert_non_null(strstr(gb, "\"entropy\":0}}"));
    assert_non_null(
        strstr(gb, "\"operators\":[{\"op\":\"S1\",\"name\":\"AddNestedFor\",\"site\":\"k\",\"rc_delta\":0}]"));
    assert_true(strncmp(gb, "{\"index\":2,\"before\":", 20) == 0);
    free(gb);
    gb_record_destroy(&r);
}

/* The key order of the "genebench" field is the documented one. */
static void test_record_key_order(void **state)
{
    (void)state;
    GbRecord r;
    fill_full(&r);
    char *gb = gb_record_genebench_json(&r);
    const char *keys[] = {"\"index\":",
                          "\"seed\":",
                          "\"status\":",
                          "\"error\":",
                          "\"stop_reason\":",
                          "\"generations\":",
                          "\"thresholds\":",
                          "\"before\":",
                          "\"after\":",
                          "\"operators\":",
                          "\"edits\":",
                          "\"front\":",
                          "\"gates\":",
                          "\"gates_by_operator\":",
                          "\"naming\":",
                          "\"lint\":",
                          "\"away\":",
                          "\"time_s\":",
                          "\"offspring_validated\":"};
    const char *at = gb;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const char *p = strstr(at, keys[i]);
        if (!p) fail_msg("%s missing or out of order in %s", keys[i], gb);
        at = p;
    }
    assert_non_null(strstr(gb, "\"gates\":{\"offered\":40,\"parse\":1,\"readability\":2,\"duplicate\":3,"
                               "\"dominated\":4,\"tests\":5,\"equiv\":6,\"lint\":7,\"accepted\":30}"));
    assert_non_null(strstr(gb, "\"away\":{\"versions\":2,\"target\":0.4,\"original\":0.3125,\"pick\":0.25}"));
    assert_non_null(strstr(gb, "\"renamed\":{\"value_1\":\"größe\",\"tmp_2\":\"total\"},\"kept\":true"));
    assert_non_null(strstr(gb, "\\u0001 ✓ 𝄞"));
    free(gb);
    gb_record_destroy(&r);
}

/* Bad input: each case names the field that is wrong. */
static void test_record_bad_input(void **state)
{
    (void)state;
    static const struct {
        const char *genebench, *original, *want;
    } cases[] = {
        {"{\"index\":", NULL, "field \"genebench\" is not valid JSON"},
        {"[1,2]", NULL, "field \"genebench\" must be an object, got an array"},
        {"{\"index\":-1}", NULL, "field \"genebench.index\" must be a non-negative integer"},
        {"{\"index\":1.5}", NULL, "field \"genebench.index\" must be a non-negative integer"},
        {"{\"status\":\"done\"}", NULL, "field \"genebench.status\" must be \"hardened\""},
        {"{\"status\":3}", NULL, "field \"genebench.status\" must be \"hardened\""},
        {"{\"thresholds\":true}", NULL, "field \"genebench.thresholds\" must be a string"},
        {"{\"before\":[]}", NULL, "field \"genebench.before\" must be an object"},
        {"{\"before\":{\"rc\":\"x\"}}", NULL, "field \"genebench.before.rc\" must be a number"},
        {"{\"after\":{\"metrics\":{\"C3\":\"x\"}}}", NULL, "field \"genebench.after.metrics.C3\" must be a number"},
        {"{\"operators\":{}}", NULL, "field \"genebench.operators\" must be an array"},
        {"{\"operators\":[{\"name\":\"x\"}]}", NULL,
         "field \"genebench.operators[0]\" must be an object with a string \"op\""},
        {"{\"edits\":[{\"module\":\"main.py\",\"start\":1,\"old_end\":2}]}", NULL,
         "field \"genebench.edits[0].new_end\" is missing"},
        {"{\"edits\":[{\"module\":\"main.py\",\"start\":5,\"old_end\":2,\"new_end\":9}]}", NULL,
         "field \"genebench.edits[0]\": old_end and new_end must not precede start"},
        {"{\"edits\":[{\"start\":0}]}", NULL,
         "field \"genebench.edits[0]\" must be an object with a string \"module\""},
        {"{\"front\":[{\"operators\":[1]}]}", NULL, "field \"genebench.front[0].operators[0]\" must be a string"},
        {"{\"gates\":{\"lint\":\"many\"}}", NULL, "field \"genebench.gates.lint\" must be a non-negative integer"},
        {"{\"gates_by_operator\":{\"Z9\":{}}}", NULL, "field \"genebench.gates_by_operator.Z9\": not an operator code"},
        {"{\"naming\":{\"mode\":\"builtin\",\"renamed\":{\"a\":1}}}", NULL,
         "field \"genebench.naming.renamed.a\" must be a string"},
        {"{\"naming\":{\"kept\":\"yes\"}}", NULL, "field \"genebench.naming.kept\" must be true or false"},
        {"{\"lint\":{\"after\":[]}}", NULL, "field \"genebench.lint.after\" must be a number"},
        {"{\"time_s\":\"1s\"}", NULL, "field \"genebench.time_s\" must be a number"},
        {"{}", "{\"extra_files\":{}}", "field \"original\" must be an object with a string \"source\""},
        {"{}", "{\"source\":\"\",\"extra_files\":[]}", "field \"original.extra_files\" must be an object"},
        {"{}", "{\"source\":\"\",\"extra_files\":{\"../x.py\":\"\"}}",
         "field \"original.extra_files\": bad entry \"../x.py\""},
        {"{}", "{\"source\":", "field \"original\" is not valid JSON"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        GbRecord r;
        GbError err = {{0}};
        bool ok = gb_record_parse(cases[i].genebench, cases[i].original, &r, &err);
        gb_record_destroy(&r);
        if (ok) fail_msg("case %zu (%s) was accepted", i, cases[i].genebench);
        if (!strstr(err.msg, cases[i].want)) fail_msg("case %zu: got \"%s\", want \"%s\"", i, err.msg, cases[i].want);
    }

    /* A task without a record, and records that inject-bugs cannot use. */
    GbTask t;
    gb_task_init(&t);
    t.id = gb_strdup("x");
    t.source = gb_strdup("");
    GbRecord r;
    GbError err = {{0}};
    assert_false(gb_record_read(&t, &r, &err));
    assert_non_null(strstr(err.msg, "no \"genebench\" field: not an output of genebench evolve"));
    gb_record_destroy(&r);
    gb_task_set_field(&t, "genebench", "{\"status\":\"hardened\"}");
    assert_false(gb_record_read_hardening(&t, &r, &err));
    assert_non_null(strstr(err.msg, "no \"original\" field"));
    gb_record_destroy(&r);
    gb_task_set_field(&t, "original", "{\"source\":\"x = 1\\n\"}");
    assert_false(gb_record_read_hardening(&t, &r, &err));
    assert_non_null(strstr(err.msg, "no \"genebench.edits\""));
    gb_record_destroy(&r);
    gb_task_set_field(&t, "genebench", "{\"status\":\"unchanged\"}");
    if (!gb_record_read_hardening(&t, &r, &err)) fail_msg("%s", err.msg);
    GbProgram p;
    gb_record_original_program(&r, &p);
    assert_int_equal(p.modules.len, 1);
    assert_string_equal(p.modules.items[0].source, "x = 1\n");
    gb_program_destroy(&p);
    gb_record_destroy(&r);
    gb_task_destroy(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_record_round_trip_all_fields),
        cmocka_unit_test(test_record_round_trip_empty_parts),
        cmocka_unit_test(test_record_number_bytes),
        cmocka_unit_test(test_record_key_order),
        cmocka_unit_test(test_record_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
