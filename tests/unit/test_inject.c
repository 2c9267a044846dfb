/* Bug injection (src/inject/inject.h): mapping positions through an edit history (insertions before,
 * at and after a range, replacements, wraps with re-indentation as many small insertions,
 * overlapping edits refused), shared sites between an original and a program hardened by the
 * real operators, applying a higher-order mutant to both versions, failing-test ids and
 * outcomes, and whole tasks run by the worker pool (kept mutants, determinism, skipped and
 * bad tasks). Every program here was written for these tests. */
#include "src/inject/inject.h"

#include "src/bench/record.h"
#include "src/bench/task_io.h"
#include "tests/unit/op_helpers.h"

/* ---- mapping table ---- */

typedef struct {
    const char *module;
    size_t start, old_end, new_end;
} Ed;

typedef struct {
    const char *name;
    size_t start, end; /* range in the original */
    Ed edits[4];       /* module NULL ends the list */
    bool shared;
    size_t want_start, want_end;
} MapCase;

static const MapCase map_cases[] = {
    {"no edits", 10, 13, {{NULL, 0, 0, 0}}, true, 10, 13},
    {"insertion before", 10, 13, {{"main.py", 2, 2, 7}}, true, 15, 18},
    {"insertion at the start is before", 10, 13, {{"main.py", 10, 10, 14}}, true, 14, 17},
    {"insertion at the end is after", 10, 13, {{"main.py", 13, 13, 20}}, true, 10, 13},
    {"insertion after", 10, 13, {{"main.py", 30, 30, 35}}, true, 10, 13},
    {"insertion inside", 10, 13, {{"main.py", 11, 11, 12}}, false, 0, 0},
    {"empty insertion inside", 10, 13, {{"main.py", 11, 11, 11}}, true, 10, 13},
    {"replacement ending at the start (longer)", 10, 13, {{"main.py", 4, 10, 20}}, true, 20, 23},
    {"replacement ending at the start (shorter)", 10, 13, {{"main.py", 0, 10, 3}}, true, 3, 6},
    {"deletion before", 10, 13, {{"main.py", 5, 8, 5}}, true, 7, 10},
    {"replacement starting at the end", 10, 13, {{"main.py", 13, 20, 14}}, true, 10, 13},
    {"replacement over the start", 10, 13, {{"main.py", 8, 11, 9}}, false, 0, 0},
    {"replacement over the end", 10, 13, {{"main.py", 12, 15, 13}}, false, 0, 0},
    {"replacement inside", 10, 13, {{"main.py", 11, 12, 14}}, false, 0, 0},
    {"replacement covering", 10, 13, {{"main.py", 5, 20, 30}}, false, 0, 0},
    {"replacement of exactly the range", 10, 13, {{"main.py", 10, 13, 13}}, false, 0, 0},
    {"edits of another module", 10, 13, {{"helper.py", 0, 0, 50}, {"helper.py", 10, 20, 11}}, true, 10, 13},
    {"several, in order",
     10,
     13,
     {{"main.py", 0, 0, 4}, {"main.py", 17, 20, 30}, {"main.py", 14, 14, 16}},
     true,
     16,
     19},
    {"a later edit meets the shifted range", 10, 13, {{"main.py", 0, 0, 4}, {"main.py", 15, 15, 16}}, false, 0, 0},
};

static void test_inject_map_table(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof map_cases / sizeof map_cases[0]; i++) {
        const MapCase *c = &map_cases[i];
        GbApplied edits[4];
        size_t n = 0;
        for (; n < 4 && c->edits[n].module; n++) {
            GbApplied a = {
                "op", "", (char *)c->edits[n].module, c->edits[n].start, c->edits[n].old_end, c->edits[n].new_end};
            edits[n] = a;
        }
        size_t s = c->start, e = c->end;
        bool ok = gb_inject_map_range(edits, n, "main.py", &s, &e);
        if (ok != c->shared) fail_msg("%s: shared %d, want %d", c->name, ok, c->shared);
        if (ok && (s != c->want_start || e != c->want_end))
            fail_msg("%s: [%zu, %zu), want [%zu, %zu)", c->name, s, e, c->want_start, c->want_end);
        if (!ok && (s != c->start || e != c->end)) fail_msg("%s: range changed although not shared", c->name);
    }
}

/* ---- mapping against text: apply edits one by one and check the mapped text ---- */

typedef struct {
    char *text;
    GbArray(GbApplied) hist;
} Doc;

static void doc_init(Doc *d, const char *text)
{
    d->text = gb_strdup(text);
    memset(&d->hist, 0, sizeof d->hist);
}

static void doc_edit(Doc *d, size_t start, size_t end, const char *with)
{
    GbStr s;
    gb_str_init(&s);
    gb_str_append_n(&s, d->text, start);
    gb_str_append(&s, with);
    gb_str_append(&s, d->text + end);
    free(d->text);
    d->text = gb_str_take(&s);
    GbApplied a = {"op", "", "main.py", start, end, start + strlen(with)};
    gb_array_push(&d->hist, a);
}

static void doc_destroy(Doc *d)
{
    free(d->text);
    gb_array_free(&d->hist);
}

/* The range of the first occurrence of needle in the original must map onto the same text
 * (shared) or be refused. */
static void expect_maps(const char *orig, const Doc *d, const char *needle, bool shared)
{
    const char *at = strstr(orig, needle);
    assert_non_null(at);
    size_t s = (size_t)(at - orig), e = s + strlen(needle);
    bool ok = gb_inject_map_range(d->hist.items, d->hist.len, "main.py", &s, &e);
    if (ok != shared) fail_msg("'%s': shared %d, want %d, in:\n%s", needle, ok, shared, d->text);
    if (ok && (e > strlen(d->text) || strncmp(d->text + s, needle, e - s) != 0 || e - s != strlen(needle)))
        fail_msg("'%s' maps to '%.*s' in:\n%s", needle, (int)(e - s), d->text + s, d->text);
}

static void test_inject_map_wrap_reindent(void **state)
{
    (void)state;
    const char *orig = "def f(a, b):\n    x = a + b\n    if x > 3:\n        x = x - 1\n    return x\n";
    Doc d;
    doc_init(&d, orig);
    /* Wrap the body of f in `for _ in [1]:` the way the edit layer records it: from the last
     * position to the first, one insertion of the indent unit per line, then the header. */
    size_t l2 = (size_t)(strstr(orig, "    x = a") - orig), l3 = (size_t)(strstr(orig, "    if x") - orig);
    size_t l4 = (size_t)(strstr(orig, "        x = x") - orig), l5 = (size_t)(strstr(orig, "    return") - orig);
    doc_edit(&d, l5, l5, "    ");
    doc_edit(&d, l4, l4, "    ");
    doc_edit(&d, l3, l3, "    ");
    doc_edit(&d, l2, l2, "    ");
    doc_edit(&d, l2, l2, "    for _ in [1]:\n");
    assert_string_equal(d.text, "def f(a, b):\n    for _ in [1]:\n        x = a + b\n        if x > 3:\n"
                                "            x = x - 1\n        return x\n");
    expect_maps(orig, &d, "+", true);
    expect_maps(orig, &d, "x > 3", true);
    expect_maps(orig, &d, "-", true);
    expect_maps(orig, &d, "3", true);
    expect_maps(orig, &d, "return x", true);
    /* Then a replacement of `x - 1` (the value) with `[x - 1][0]`: the `-` and `1` are gone. */
    const char *v = strstr(d.text, "x - 1");
    size_t vs = (size_t)(v - d.text);
    doc_edit(&d, vs, vs + 5, "[x - 1][0]");
    expect_maps(orig, &d, "-", false);
    expect_maps(orig, &d, "+", true);
    expect_maps(orig, &d, "x > 3", true);
    doc_destroy(&d);
}

/* ---- real operators: every mapped site holds the same text; what an edit replaced is refused ---- */

static const char *const prog_src = "def score(xs: list, limit: int):\n"
                                    "    total = 0\n"
                                    "    for x in xs:\n"
                                    "        if x > limit:\n"
                                    "            total = total + 2 * x\n"
                                    "        else:\n"
                                    "            total -= 1\n"
                                    "    return round(total)\n";

static void harden_program(OpEnv *e)
{
    op_env_open(e, prog_src, "score", "assert score([1, 5], 2) == 9\n");
    op_env_apply(e, GB_OP_S2, "if x > limit", 3); /* AddNestedIf: a wrap with re-indentation */
    op_env_apply(e, GB_OP_S12, "total = 0", 3);   /* TransformPrimToCompound: replaces the value */
    op_env_apply(e, GB_OP_S5, "def score", 3);    /* AddTryExcept: wraps the whole body */
}

static void test_inject_map_real_history(void **state)
{
    (void)state;
    OpEnv e;
    harden_program(&e);
    const char *hard = op_env_src(&e);
    TSParser *parser = gb_parser_new();
    TSTree *tree = gb_parse(parser, prog_src, strlen(prog_src));
    size_t mapped = 0, refused = 0;
    for (int op = 0; op < GB_MUT_COUNT; op++) {
        GbMutSites sites = {0};
        gb_mutate_find_sites(prog_src, tree, (GbMutOp)op, &sites);
        for (size_t i = 0; i < sites.len; i++) {
            size_t s = sites.items[i].start, t = sites.items[i].end;
            if (!gb_inject_map_range(e.prog.history.items, e.prog.history.len, "main.py", &s, &t)) {
                refused++;
                continue;
            }
            mapped++;
            if (strncmp(hard + s, sites.items[i].original, t - s) != 0)
                fail_msg("%s maps to '%.*s' in:\n%s", sites.items[i].description, (int)(t - s), hard + s, hard);
        }
        gb_mutate_sites_destroy(&sites);
    }
    /* `0` of `total = 0` was replaced (S12); everything else survives the wraps. */
    assert_int_equal(refused, 1);
    assert_int_equal(mapped, 7);
    ts_tree_delete(tree);
    ts_parser_delete(parser);
    op_env_close(&e);
}

/* ---- shared sites ---- */

static void program_of(GbProgram *p, const char *src)
{
    GbTask t;
    gb_task_init(&t);
    t.id = gb_strdup("t");
    t.source = gb_strdup(src);
    gb_program_from_task(p, &t);
    gb_task_destroy(&t);
}

static void test_inject_shared_sites(void **state)
{
    (void)state;
    OpEnv e;
    harden_program(&e);
    GbProgram orig;
    program_of(&orig, prog_src);
    GbSharedSites ss = {0};
    GbSharedStats st = {0};
    gb_inject_shared_sites(&orig, &e.prog, e.prog.history.items, e.prog.history.len, &ss, &st);
    assert_int_equal(st.found, st.shared + st.unmapped + st.moved + st.no_variant);
    assert_int_equal(st.unmapped, 1);
    assert_int_equal(st.moved, 0);
    assert_int_equal(ss.len, st.shared);
    assert_int_equal(ss.len, 7);
    const char *hard = op_env_src(&e);
    bool have_return = false;
    for (size_t i = 0; i < ss.len; i++) {
        const GbSharedSite *s = &ss.items[i];
        assert_int_equal(s->orig.op, s->hard.op);
        assert_string_equal(s->orig.original, s->hard.original);
        assert_memory_equal(hard + s->hard.start, s->orig.original, s->orig.end - s->orig.start);
        assert_true(s->pairs.len > 0);
        for (size_t p = 0; p < s->pairs.len; p++)
            assert_string_equal(s->orig.variants.items[s->pairs.items[p].orig].label,
                                s->hard.variants.items[s->pairs.items[p].hard].label);
        have_return = have_return || s->orig.op == GB_MUT_RETURN;
        /* the hardened program is wrapped: every shared site moved */
        assert_true(s->hard.line > s->orig.line);
    }
    assert_true(have_return);
    gb_shared_sites_destroy(&ss);

    /* A history that does not describe the hardening: sites map to other text ("moved"). */
    GbSharedStats st2 = {0};
    gb_inject_shared_sites(&orig, &e.prog, NULL, 0, &ss, &st2);
    assert_int_equal(st2.shared, 0);
    assert_int_equal(st2.moved, st2.found);
    gb_shared_sites_destroy(&ss);

    /* Unchanged program: every site is shared with itself. */
    GbSharedStats st3 = {0};
    gb_inject_shared_sites(&orig, &orig, NULL, 0, &ss, &st3);
    assert_int_equal(st3.shared, st3.found);
    gb_shared_sites_destroy(&ss);
    gb_program_destroy(&orig);
    op_env_close(&e);
}

static const GbSharedSite *find_shared(const GbSharedSites *ss, GbMutOp op, const char *text)
{
    for (size_t i = 0; i < ss->len; i++)
        if (ss->items[i].orig.op == op && strcmp(ss->items[i].orig.original, text) == 0) return &ss->items[i];
    fail_msg("no shared %s site '%s'", gb_mutate_op_name(op), text);
    return NULL;
}

static size_t pair_with_label(const GbSharedSite *s, const char *label)
{
    for (size_t p = 0; p < s->pairs.len; p++)
        if (strcmp(s->orig.variants.items[s->pairs.items[p].orig].label, label) == 0) return p;
    fail_msg("no variant %s", label);
    return 0;
}

static void test_inject_apply_both_versions(void **state)
{
    (void)state;
    OpEnv e;
    harden_program(&e);
    GbProgram orig;
    program_of(&orig, prog_src);
    GbSharedSites ss = {0};
    GbSharedStats st = {0};
    gb_inject_shared_sites(&orig, &e.prog, e.prog.history.items, e.prog.history.len, &ss, &st);
    const GbSharedSite *sites[3] = {find_shared(&ss, GB_MUT_ARITH, "+"), find_shared(&ss, GB_MUT_COMPARE, ">"),
                                    find_shared(&ss, GB_MUT_CONDITION, "x > limit")};
    size_t pairs[3] = {pair_with_label(sites[0], "op:-"), pair_with_label(sites[1], "op:>="),
                       pair_with_label(sites[2], "negate")};
    GbProgram mo, mh;
    GbError err = {{0}};
    assert_true(gb_inject_apply(&orig, false, sites, pairs, 3, &mo, &err));
    assert_true(gb_inject_apply(&e.prog, true, sites, pairs, 3, &mh, &err));
    const char *o = mo.modules.items[0].source, *h = mh.modules.items[0].source;
    assert_non_null(strstr(o, "        if not (x >= limit):\n            total = total - 2 * x\n"));
    assert_non_null(strstr(h, "if not (x >= limit):"));
    assert_non_null(strstr(h, "total = total - 2 * x"));
    assert_null(strstr(h, "x > limit"));
    /* everything else of the hardened program is untouched */
    assert_int_equal(strlen(h) - strlen(op_env_src(&e)), strlen(o) - strlen(prog_src));
    gb_program_destroy(&mo);
    gb_program_destroy(&mh);

    /* The negation and the `>` inside it combine; two variants of one site do not. */
    const GbSharedSite *twice[2] = {sites[1], sites[1]};
    size_t tp[2] = {pair_with_label(sites[1], "op:>="), pair_with_label(sites[1], "op:<")};
    assert_false(gb_inject_apply(&orig, false, twice, tp, 2, &mo, &err));
    assert_int_equal(mo.modules.len, 0);
    gb_shared_sites_destroy(&ss);
    gb_program_destroy(&orig);
    op_env_close(&e);
}

/* ---- failing-test ids and outcomes ---- */

static void result_of(GbRunResult *r, GbRunStatus status, const char *failed_test, const char *const *ids)
{
    gb_run_result_init(r);
    r->status = status;
    r->failed_test = failed_test ? gb_strdup(failed_test) : NULL;
    for (; ids && *ids; ids++) gb_array_push(&r->failed_tests, gb_strdup(*ids));
}

static char *ids_text(const GbRunResult *r)
{
    GbInjectIds ids = {0};
    gb_inject_failure_ids(r, &ids);
    GbStr s;
    gb_str_init(&s);
    gb_str_append(&s, "");
    for (size_t i = 0; i < ids.len; i++) gb_str_appendf(&s, "%s%s", i ? "|" : "", ids.items[i]);
    gb_inject_ids_destroy(&ids);
    return gb_str_take(&s);
}

static void test_inject_failure_ids(void **state)
{
    (void)state;
    static const char *const unsorted[] = {"T.test_b", "T.test_a", "T.test_b", NULL};
    static const char *const cases[] = {"2", "0", NULL};
    struct {
        GbRunStatus status;
        const char *failed_test;
        const char *const *ids;
        const char *want;
    } table[] = {
        {GB_RUN_PASS, NULL, NULL, ""},
        {GB_RUN_FAIL, "tests line 3: assert f(1) == 2", NULL, "tests line 3: assert f(1) == 2"},
        {GB_RUN_FAIL, "main.py line 9: return 1 / 0", NULL, "(program)"},
        {GB_RUN_FAIL, NULL, NULL, "(program)"},
        {GB_RUN_FAIL, "T.test_b (main.py line 4: x)", unsorted, "T.test_a|T.test_b"},
        {GB_RUN_FAIL, NULL, cases, "0|2"},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        GbRunResult r;
        result_of(&r, table[i].status, table[i].failed_test, table[i].ids);
        char *got = ids_text(&r);
        if (strcmp(got, table[i].want) != 0) fail_msg("case %zu: '%s', want '%s'", i, got, table[i].want);
        free(got);
        gb_run_result_destroy(&r);
    }
}

static void test_inject_classify(void **state)
{
    (void)state;
    static const char *const ab[] = {"T.a", "T.b", NULL}, *const ba[] = {"T.b", "T.a", NULL},
                             *const a[] = {"T.a", NULL};
    struct {
        GbRunStatus so;
        const char *fo;
        const char *const *io;
        GbRunStatus sh;
        const char *fh;
        const char *const *ih;
        GbMutantOutcome want;
    } table[] = {
        {GB_RUN_PASS, NULL, NULL, GB_RUN_PASS, NULL, NULL, GB_MUTANT_EQUIVALENT},
        {GB_RUN_FAIL, "tests line 2: assert f(0)", NULL, GB_RUN_FAIL, "tests line 2: assert f(0)", NULL,
         GB_MUTANT_KEPT},
        {GB_RUN_FAIL, "tests line 2: assert f(0)", NULL, GB_RUN_FAIL, "tests line 3: assert f(1)", NULL,
         GB_MUTANT_DIVERGENT},
        {GB_RUN_FAIL, "main.py line 2: x", NULL, GB_RUN_FAIL, "main.py line 40: x", NULL, GB_MUTANT_KEPT},
        {GB_RUN_FAIL, NULL, ab, GB_RUN_FAIL, NULL, ba, GB_MUTANT_KEPT},
        {GB_RUN_FAIL, NULL, ab, GB_RUN_FAIL, NULL, a, GB_MUTANT_DIVERGENT},
        {GB_RUN_FAIL, NULL, a, GB_RUN_PASS, NULL, NULL, GB_MUTANT_DIVERGENT},
        {GB_RUN_PASS, NULL, NULL, GB_RUN_FAIL, NULL, a, GB_MUTANT_DIVERGENT},
        {GB_RUN_FAIL, NULL, a, GB_RUN_TIMEOUT, NULL, NULL, GB_MUTANT_TIMEOUT},
        {GB_RUN_CRASH, NULL, NULL, GB_RUN_FAIL, NULL, a, GB_MUTANT_CRASH},
        {GB_RUN_ERROR, NULL, NULL, GB_RUN_TIMEOUT, NULL, NULL, GB_MUTANT_ERROR},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        GbRunResult o, h;
        result_of(&o, table[i].so, table[i].fo, table[i].io);
        result_of(&h, table[i].sh, table[i].fh, table[i].ih);
        GbMutantOutcome got = gb_inject_classify(&o, &h);
        if (got != table[i].want)
            fail_msg("case %zu: %s, want %s", i, gb_mutant_outcome_name(got), gb_mutant_outcome_name(table[i].want));
        gb_run_result_destroy(&o);
        gb_run_result_destroy(&h);
    }
}

/* ---- whole tasks through the worker pool ---- */

static const char *const task_tests = "def check(candidate):\n"
                                      "    assert candidate([1, 5], 2) == 9\n"
                                      "    assert candidate([3, 3], 3) == -2\n"
                                      "    assert candidate([], 0) == 0\n"
                                      "\n"
                                      "check(score)\n";

/* A hardened task in evolve's format: hardened source + "original" + "genebench". */
static void hardened_task(GbTask *out, const GbTask *orig, const OpEnv *e, const char *status, const char *source)
{
    gb_task_copy(out, orig);
    gb_program_to_task(&e->prog, out);
    GbRecord rec;
    gb_record_init(&rec);
    rec.has_status = gb_evolve_status_parse(status, &rec.status);
    assert_true(rec.has_status);
    rec.has_edits = true;
    for (size_t i = 0; i < e->prog.history.len; i++) {
        const GbApplied *h = &e->prog.history.items[i];
        GbApplied a = {gb_strdup(h->op), gb_strdup(""), gb_strdup(h->module), h->start, h->old_end, h->new_end};
        gb_array_push(&rec.edits, a);
    }
    rec.original_source = gb_strdup(source);
    gb_record_attach(out, &rec);
    gb_record_destroy(&rec);
}

static char *results_json(const GbInjectResult *r)
{
    GbStr s;
    gb_str_init(&s);
    gb_str_append(&s, "");
    for (size_t i = 0; i < r->mutants.len; i++) {
        char *a = gb_task_to_json(&r->mutants.items[i]), *b = gb_task_to_json(&r->hardened.items[i]);
        gb_str_appendf(&s, "%s\n%s\n", a, b);
        free(a);
        free(b);
    }
    return gb_str_take(&s);
}

static void test_inject_task_pool(void **state)
{
    (void)state;
    GbPoolConfig pc;
    gb_pool_config_defaults(&pc);
    pc.workers = 2;
    pc.timeout_s = 3;
    pc.cpu_s = 3;
    GbError err = {{0}};
    GbPool *pool = gb_pool_new(&pc, &err);
    if (!pool) fail_msg("pool: %s", err.msg);

    GbTask orig;
    gb_task_init(&orig);
    orig.id = gb_strdup("demo/score");
    orig.source = gb_strdup(prog_src);
    orig.entry_point = gb_strdup("score");
    orig.test_code = gb_strdup(task_tests);
    gb_array_push(&orig.pinned, gb_strdup("score"));
    OpEnv e;
    harden_program(&e);
    GbTask hard;
    hardened_task(&hard, &orig, &e, "hardened", prog_src);

    GbInjectConfig cfg;
    gb_inject_config_defaults(&cfg);
    cfg.seed = 7;
    cfg.max_per_task = 3;
    cfg.max_attempts = 12;
    cfg.pool = pool;
    GbInjectResult r1, r2;
    gb_inject_task(&cfg, &orig, &hard, &r1);
    assert_int_equal(r1.status, GB_INJECT_OK);
    for (int k = 1; k <= 3; k++) {
        size_t ran = 0;
        for (int x = 0; x < GB_MUTANT_OUTCOME_COUNT; x++) ran += r1.orders[k].outcome[x];
        assert_true(r1.orders[k].outcome[GB_MUTANT_KEPT] >= 1);
        assert_true(r1.orders[k].outcome[GB_MUTANT_KEPT] <= 3);
        assert_true(ran <= 12);
        /* the hardening here preserves behaviour exactly: no mutant may diverge */
        assert_int_equal(r1.orders[k].outcome[GB_MUTANT_DIVERGENT], 0);
    }
    assert_int_equal(r1.mutants.len, r1.hardened.len);
    for (size_t i = 0; i < r1.mutants.len; i++) {
        const GbTask *m = &r1.mutants.items[i], *h = &r1.hardened.items[i];
        assert_true(strncmp(m->id, "demo/score#bug-", 15) == 0);
        assert_string_equal(m->id, h->id);
        assert_string_not_equal(m->source, prog_src);
        assert_string_not_equal(h->source, m->source);
        assert_string_equal(m->test_code, task_tests);
        assert_non_null(gb_task_get_field(m, "hardened_buggy"));
        assert_non_null(gb_task_get_field(h, "original_buggy"));
        assert_string_equal(gb_task_get_field(m, "failing_tests"), gb_task_get_field(h, "failing_tests"));
        assert_non_null(strstr(gb_task_get_field(m, "failing_tests"), "\"tests line "));
        /* each mutant really fails both ways, with the recorded test */
        GbProgram po, ph;
        gb_program_from_task(&po, m);
        gb_program_from_task(&ph, h);
        GbRunResult ro, rh;
        gb_pool_run(pool, &orig, &po, &ro, &err);
        gb_pool_run(pool, &orig, &ph, &rh, &err);
        assert_int_equal(gb_inject_classify(&ro, &rh), GB_MUTANT_KEPT);
        char *want = gb_asprintf("[\"%s\"]", ro.failed_test);
        assert_string_equal(gb_task_get_field(m, "failing_tests"), want);
        free(want);
        gb_run_result_destroy(&ro);
        gb_run_result_destroy(&rh);
        gb_program_destroy(&po);
        gb_program_destroy(&ph);
    }

    /* Same seed, same output; another seed, other mutants. */
    gb_inject_task(&cfg, &orig, &hard, &r2);
    char *a = results_json(&r1), *b = results_json(&r2);
    assert_string_equal(a, b);
    free(b);
    gb_inject_result_destroy(&r2);
    cfg.seed = 8;
    gb_inject_task(&cfg, &orig, &hard, &r2);
    b = results_json(&r2);
    assert_string_not_equal(a, b);
    free(a);
    free(b);
    gb_inject_result_destroy(&r2);
    gb_inject_result_destroy(&r1);

    /* A hardened task made from another program, or without a record, is an error; an
     * original that fails its tests is skipped. */
    GbTask other;
    hardened_task(&other, &orig, &e, "hardened", "def score(xs, limit):\n    return 0\n");
    gb_inject_task(&cfg, &orig, &other, &r1);
    assert_int_equal(r1.status, GB_INJECT_ERROR);
    assert_non_null(strstr(r1.message, "different program"));
    gb_inject_result_destroy(&r1);
    gb_task_destroy(&other);
    gb_inject_task(&cfg, &orig, &orig, &r1);
    assert_int_equal(r1.status, GB_INJECT_ERROR);
    assert_non_null(strstr(r1.message, "not an output of genebench evolve"));
    gb_inject_result_destroy(&r1);
    GbTask broken_orig, broken_hard;
    gb_task_copy(&broken_orig, &orig);
    free(broken_orig.test_code);
    broken_orig.test_code = gb_strdup("assert score([1], 0) == 100\n");
    hardened_task(&broken_hard, &broken_orig, &e, "hardened", prog_src);
    gb_inject_task(&cfg, &broken_orig, &broken_hard, &r1);
    assert_int_equal(r1.status, GB_INJECT_SKIPPED);
    assert_non_null(strstr(r1.message, "original program does not pass"));
    assert_int_equal(r1.mutants.len, 0);
    gb_inject_result_destroy(&r1);
    gb_task_destroy(&broken_orig);
    gb_task_destroy(&broken_hard);

    gb_task_destroy(&hard);
    gb_task_destroy(&orig);
    op_env_close(&e);
    gb_pool_delete(pool);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_inject_map_table),
        cmocka_unit_test(test_inject_map_wrap_reindent),
        cmocka_unit_test(test_inject_map_real_history),
        cmocka_unit_test(test_inject_shared_sites),
        cmocka_unit_test(test_inject_apply_both_versions),
        cmocka_unit_test(test_inject_failure_ids),
        cmocka_unit_test(test_inject_classify),
        cmocka_unit_test(test_inject_task_pool),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
