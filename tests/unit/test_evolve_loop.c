/* The evolution loop's steps (nsga2/evolve_private.h) on hand-made populations whose objectives
 * are set directly, so every rank, selection and pick below follows from the objectives alone:
 * parent selection, the children's validation order, the waves of a generation against the real
 * runner (a one-line task; the cheap gates, the tests gate and the cut-off after cfg->accept),
 * with and without helper threads, the gates' cost order, and the final pick with and without
 * earlier versions. */
#include <stdlib.h>
#include <string.h>

#include "nsga2/equiv_private.h"
#include "nsga2/evolve_private.h"
#include "src/python/pyparse.h"
#include "tests/unit/helpers.h"

/* ---- fixtures ---- */

static const char *const orig_src = "def f(x):\n    return x + 1\n";

static void make_task(GbTask *t)
{
    gb_task_init(t);
    t->id = gb_strdup("loop/1");
    t->kind = GB_TESTS_ASSERT;
    t->entry_point = gb_strdup("f");
    t->source = gb_strdup(orig_src);
    t->test_code = gb_strdup("assert f(1) == 2\nassert f(-3) == -2\n");
}

/* An individual of task t with source src (NULL: the task's own), objectives (score = rc, rr)
 * and lineage; measured, so that nothing recomputes its objectives. */
static GbIndividual individual(const GbTask *t, const char *src, double score, double rr, long parent, int op)
{
    GbIndividual ind;
    memset(&ind, 0, sizeof ind);
    gb_program_from_task(&ind.prog, t);
    if (src) gb_program_set_source_take(&ind.prog, 0, gb_strdup(src));
    ind.rc = ind.score = score;
    ind.rr = rr;
    ind.parent = parent;
    ind.op = op;
    ind.measured = true;
    return ind;
}

typedef struct {
    GbEvolveConfig cfg;
    GbThresholds thr; /* all zero: no readability limit is exceeded by all-zero metrics */
    GbTask task;
    GbRun run;
} Fixture;

/* A run of the fixture task with a population of n individuals with objectives obj[2i], obj[2i+1]
 * (the first is the original, the others its children). */
static void fixture_init(Fixture *f, const double *obj, size_t n)
{
    memset(f, 0, sizeof *f);
    gb_evolve_config_defaults(&f->cfg);
    f->cfg.balanced = false;
    f->cfg.lint = false;
    f->cfg.equiv = false;
    f->cfg.thresholds = &f->thr;
    make_task(&f->task);
    f->run.cfg = &f->cfg;
    f->run.task = &f->task;
    f->run.stop_reason = "generations";
    pthread_mutex_init(&f->run.lint_mu, NULL);
    pthread_mutex_init(&f->run.cost_mu, NULL);
    for (size_t i = 0; i < n; i++) {
        char *src = i ? gb_asprintf("def f(x):\n    y%zu = x + 1\n    return y%zu\n", i, i) : NULL;
        GbIndividual ind = individual(&f->task, src, obj[2 * i], obj[2 * i + 1], i ? 0 : -1, i ? 0 : -1);
        free(src);
        gb_array_push(&f->run.pop, ind);
    }
}

static void fixture_destroy(Fixture *f)
{
    gb_evolve_crew_end(&f->run);
    for (size_t i = 0; i < f->run.pop.len; i++) gb_individual_destroy(&f->run.pop.items[i]);
    gb_array_free(&f->run.pop);
    pthread_mutex_destroy(&f->run.lint_mu);
    pthread_mutex_destroy(&f->run.cost_mu);
    gb_task_destroy(&f->task);
}

/* Five individuals: fronts {1, 2} (neither dominates the other), {3, 4}, {0}. */
static const double five[] = {0.10, 0.10, 0.50, 0.40, 0.70, 0.20, 0.30, 0.30, 0.60, 0.10};

/* ---- selection ---- */

/* The crowded-comparison order is 1, 2 (first front, both boundaries), 3, 4, 0; the breeding
 * fraction takes a prefix of it (ceil), max_parents cuts it. */
static void test_select_parents_takes_the_ranked_prefix(void **state)
{
    (void)state;
    static const struct {
        double breed;
        int max_parents;
        size_t n;
        size_t want[5];
    } cases[] = {
        {1.0, 0, 5, {1, 2, 3, 4, 0}}, {0.6, 0, 3, {1, 2, 3}}, {0.6, 2, 2, {1, 2}}, {0.2, 0, 1, {1}},
        {0.5, 4, 3, {1, 2, 3}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        Fixture f;
        fixture_init(&f, five, 5);
        f.cfg.breed = cases[c].breed;
        f.cfg.max_parents = cases[c].max_parents;
        size_t sel[5];
        size_t n = gb_evolve_select_parents(&f.run, sel);
        assert_int_equal(n, cases[c].n);
        for (size_t i = 0; i < n; i++) assert_int_equal(sel[i], cases[c].want[i]);
        fixture_destroy(&f);
    }
}

/* Spent individuals (a breeding found no site left on them) are ranked with the others but never
 * selected: the next ones in the order breed instead, and the breeding fraction counts the
 * others only. */
static void test_select_parents_skips_spent_individuals(void **state)
{
    (void)state;
    Fixture f;
    fixture_init(&f, five, 5);
    f.cfg.breed = 0.2;
    f.cfg.max_parents = 0;
    f.run.pop.items[1].spent = true;
    size_t sel[5];
    assert_int_equal(gb_evolve_select_parents(&f.run, sel), 1);
    assert_int_equal(sel[0], 2);
    f.cfg.breed = 1.0;
    f.run.pop.items[3].spent = true;
    assert_int_equal(gb_evolve_select_parents(&f.run, sel), 3);
    assert_int_equal(sel[0], 2);
    assert_int_equal(sel[1], 4);
    assert_int_equal(sel[2], 0);
    for (size_t i = 0; i < 5; i++) f.run.pop.items[i].spent = true;
    assert_int_equal(gb_evolve_select_parents(&f.run, sel), 0);
    fixture_destroy(&f);
}

/* A parent whose every operator site was tried is marked spent by the breeding that finds
 * nothing left on it; one with sites left is not. */
static void test_breeding_marks_a_parent_without_sites_spent(void **state)
{
    (void)state;
    static const double two[] = {0.10, 0.10, 0.20, 0.20};
    Fixture f;
    fixture_init(&f, two, 2);
    TSParser *parser = gb_parser_new();
    size_t sel[1] = {1};
    GbEvolveStats stats;
    memset(&stats, 0, sizeof stats);
    size_t bred = 0;
    for (int g = 1; g < 200 && !f.run.pop.items[1].spent; g++) {
        GbIndividual *kids = NULL;
        size_t n = 0;
        gb_evolve_breed_generation(&f.cfg, &f.run, 7, g, sel, 1, parser, &kids, &n, &stats);
        assert_true(n > 0 || f.run.pop.items[1].spent);
        bred += n;
        for (size_t i = 0; i < n; i++) gb_individual_destroy(&kids[i]);
        free(kids);
    }
    assert_true(f.run.pop.items[1].spent);
    assert_true(bred > 0);
    assert_false(f.run.pop.items[0].spent);
    ts_parser_delete(parser);
    fixture_destroy(&f);
}

/* ---- validation order ---- */

/* Children ranked with the population: the original (0.1, 0.1) and (0.5, 0.4) against children
 * (0.2, 0.2), (0.8, 0.1), (0.6, 0.3), (0.05, 0.05). First front: pop 1, child 1, child 2 (child
 * 2 inside it, finite crowding, after the two boundaries); then child 0, the original, child 3. */
static void test_rank_children_orders_by_crowded_comparison(void **state)
{
    (void)state;
    static const double pop[] = {0.10, 0.10, 0.50, 0.40};
    static const double kids[][2] = {{0.2, 0.2}, {0.8, 0.1}, {0.6, 0.3}, {0.05, 0.05}};
    Fixture f;
    fixture_init(&f, pop, 2);
    TSParser *parser = gb_parser_new();
    GbIndividual children[4];
    for (int c = 0; c < 4; c++) children[c] = individual(&f.task, NULL, kids[c][0], kids[c][1], 0, c);
    gb_evolve_rank_children(&f.run, children, 4, parser);
    static const int want[] = {1, 2, 0, 3};
    for (int r = 0; r < 4; r++) assert_int_equal(children[r].op, want[r]);
    for (int c = 0; c < 4; c++) gb_individual_destroy(&children[c]);
    ts_parser_delete(parser);
    fixture_destroy(&f);
}

/* A child that changes no objective of its parent (a renaming) cannot move the front: it is
 * validated after every child that does, in rank order among its kind; so is a child of an
 * operator that the run gates rejected twice in this task and never passed. */
static void test_rank_children_puts_renamings_and_demoted_operators_last(void **state)
{
    (void)state;
    static const double pop[] = {0.10, 0.50};
    /* child 0 renames (the original's objectives), 1 and 2 raise the score, 3 lowers RR only */
    static const double kids[][2] = {{0.10, 0.50}, {0.30, 0.45}, {0.20, 0.48}, {0.10, 0.40}};
    for (int demote = 0; demote < 2; demote++) {
        Fixture f;
        fixture_init(&f, pop, 1);
        TSParser *parser = gb_parser_new();
        GbIndividual children[4];
        for (int c = 0; c < 4; c++) children[c] = individual(&f.task, NULL, kids[c][0], kids[c][1], 0, c);
        if (demote) {
            f.run.op_failed[1] = GB_EVOLVE_DEMOTE_FAILS;
            assert_true(gb_evolve_op_demoted(&f.run, 1));
            f.run.op_failed[2] = GB_EVOLVE_DEMOTE_FAILS;
            f.run.op_passed[2] = 1; /* it passed once: not demoted */
            assert_false(gb_evolve_op_demoted(&f.run, 2));
            f.run.op_failed[3] = GB_EVOLVE_DEMOTE_FAILS - 1; /* failed once only: not demoted */
            assert_false(gb_evolve_op_demoted(&f.run, 3));
        }
        gb_evolve_rank_children(&f.run, children, 4, parser);
        /* with op 1 demoted: 2 and 3, then 1 and 0 in rank order (both on the first front's
         * boundary, so either may come first) */
        static const int want[2][4] = {{1, 2, 3, 0}, {2, 3, -1, -1}};
        for (int r = 0; r < 4; r++)
            if (want[demote][r] >= 0) assert_int_equal(children[r].op, want[demote][r]);
        if (demote) assert_int_equal(children[2].op + children[3].op, 1);
        for (int c = 0; c < 4; c++) gb_individual_destroy(&children[c]);
        ts_parser_delete(parser);
        fixture_destroy(&f);
    }
}

/* ---- stacked children ---- */

/* The stack depth follows the original's test time against the budget; none without one. */
static void test_stack_depth_follows_the_test_time(void **state)
{
    (void)state;
    assert_int_equal(gb_evolve_stack_depth(0, 5.0), 1);
    assert_int_equal(gb_evolve_stack_depth(15, 0.04), 1);
    assert_int_equal(gb_evolve_stack_depth(15, 0.0501), 2);
    assert_int_equal(gb_evolve_stack_depth(15, 0.125), 3);
    assert_int_equal(gb_evolve_stack_depth(15, 0.2001), 5);
    assert_int_equal(gb_evolve_stack_depth(15, 0.3501), 8);
    assert_int_equal(gb_evolve_stack_depth(15, 0.7501), 16);
    assert_int_equal(gb_evolve_stack_depth(15, 4.0), GB_EVOLVE_STACK_MAX);
    assert_int_equal(gb_evolve_stack_depth(60, 0.125), 1);
}

/* A generation bred from the (really measured) original of a program with many sites: with
 * run->stack = 3, each parent gets stacked children of two or three distinct operators, each
 * step applied on the one before (the history holds one run of entries per operator, in
 * order), each raising the score and reading within the gate; each is counted as offered to
 * each of its operators. With run->stack = 1 none is added. */
/* Stacked children: the careful stack (first) and the bold one (second, when it differs). Cases:
 * no time budget at depth 1 (nothing stacked), a time budget at depth 1 (the careful stack only,
 * up to GB_STACK_EFF_DEPTH steps), depth 16 (both; the bold one goes on from the careful one). */
static void test_stacked_children_carry_gaining_operators(void **state)
{
    (void)state;
    static const char *const src = "def f(xs, n):\n    total = 0\n    for i in range(n):\n"
                                   "        total = total + xs[i] * 2\n    if total > 10:\n"
                                   "        total = total - 1\n    return total\n";
    static const struct {
        int depth;
        double budget;
    } cases[] = {{1, 0}, {1, 15}, {GB_EVOLVE_STACK_MAX, 0}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        int depth = cases[k].depth;
        Fixture f;
        fixture_init(&f, NULL, 0);
        f.cfg.time_budget = cases[k].budget;
        GbError err;
        assert_true(gb_thresholds_load("builtin:calibrated", &f.thr, &err));
        TSParser *parser = gb_parser_new();
        GbIndividual orig = individual(&f.task, src, 0, 0, -1, -1);
        orig.measured = false;
        assert_true(gb_evolve_measure(&f.run, &orig, parser));
        gb_array_push(&f.run.pop, orig);
        f.run.stack = depth;
        size_t sel[1] = {0};
        GbEvolveStats stats;
        memset(&stats, 0, sizeof stats);
        GbIndividual *kids = NULL;
        size_t n = 0;
        gb_evolve_breed_generation(&f.cfg, &f.run, 7, 1, sel, 1, parser, &kids, &n, &stats);
        assert_true(n >= 4);
        GbEvolveStats before = stats;
        size_t bred = n;
        gb_evolve_stack_children(&f.run, 7, 1, parser, &kids, &n, &stats);
        if (depth == 1 && cases[k].budget == 0)
            assert_int_equal(n, bred);
        else if (depth == 1)
            assert_int_equal(n, bred + 1);
        else
            assert_true(n > bred && n <= bred + 2);
        for (size_t c = 0; c < bred; c++) assert_true(kids[c].nops <= 1);
        for (size_t c = bred; c < n; c++) {
            const GbIndividual *st = &kids[c];
            bool careful = c == bred;
            assert_int_equal(st->parent, 0);
            int cap = careful ? (depth > 6 ? depth : 6) : kids[bred].nops + depth;
            assert_true(st->nops >= 2 && st->nops <= cap && st->nops <= GB_EVOLVE_STACK_OPS);
            assert_int_equal(st->op, st->ops[0]);
            int ops[GB_EVOLVE_STACK_OPS];
            assert_int_equal(gb_individual_ops(st, ops), st->nops);
            assert_true(st->score > f.run.pop.items[0].score);
            assert_true(gb_evolve_readable(&f.run, st));
            /* the history's runs of one operator name are the steps with repeats next to each
             * other merged, in order */
            int steps[GB_EVOLVE_STACK_OPS], ns = 0;
            for (int a = 0; a < st->nops; a++)
                if (ns == 0 || steps[ns - 1] != st->ops[a]) steps[ns++] = st->ops[a];
            int run = -1;
            const char *prev = NULL;
            for (size_t h = 0; h < st->prog.history.len; h++) {
                const char *name = st->prog.history.items[h].op;
                if (!prev || strcmp(prev, name) != 0) {
                    run++;
                    assert_true(run < ns);
                    assert_string_equal(name, gb_operator((GbOperatorId)steps[run])->name);
                }
                prev = name;
            }
            assert_int_equal(run + 1, ns);
            if (careful) {
                /* the first pass takes each operator once; a repeated one comes after every
                 * operator of the first pass */
                int first = 1;
                while (first < st->nops) {
                    bool seen = false;
                    for (int a = 0; a < first; a++) seen |= st->ops[a] == st->ops[first];
                    if (seen) break;
                    first++;
                }
                for (int a = first; a < st->nops; a++) {
                    bool seen = false;
                    for (int b = 0; b < first; b++) seen |= st->ops[b] == st->ops[a];
                    assert_true(seen);
                }
            } else {
                /* the bold stack goes on from the careful one, with operators it does not hold */
                const GbIndividual *cs = &kids[bred];
                assert_true(st->nops > cs->nops);
                for (int a = 0; a < cs->nops; a++) assert_int_equal(st->ops[a], cs->ops[a]);
                for (int a = cs->nops; a < st->nops; a++)
                    for (int b = 0; b < a; b++) assert_int_not_equal(st->ops[a], st->ops[b]);
            }
        }
        long extra = 0;
        for (int o = 0; o < GB_OP_COUNT; o++) extra += (long)(stats.offered[o] - before.offered[o]);
        long want = 0;
        for (size_t c = bred; c < n; c++) want += kids[c].nops;
        assert_int_equal(extra, want);
        for (size_t c = 0; c < n; c++) gb_individual_destroy(&kids[c]);
        free(kids);
        ts_parser_delete(parser);
        fixture_destroy(&f);
        gb_thresholds_destroy(&f.thr);
    }
}

/* ---- the gates' cost order ---- */

static void test_gates_run_cheapest_first_in_today_order(void **state)
{
    (void)state;
    static const GbGate want[] = {GB_GATE_PARSE, GB_GATE_READABILITY, GB_GATE_DUPLICATE, GB_GATE_DOMINATED,
                                  GB_GATE_TESTS, GB_GATE_EQUIV,       GB_GATE_LINT};
    assert_int_equal(sizeof want / sizeof want[0], GB_GATE_COUNT);
    size_t at = 0;
    for (int cost = 0; cost < GB_GATE_COST_COUNT; cost++)
        for (int g = 0; g < GB_GATE_COUNT; g++)
            if (gb_gate_cost((GbGate)g) == (GbGateCost)cost) assert_int_equal(g, want[at++]);
    assert_int_equal(at, GB_GATE_COUNT);
    assert_int_equal(gb_gate_cost(GB_GATE_DOMINATED), GB_GATE_COST_TREE);
    assert_int_equal(gb_gate_cost(GB_GATE_TESTS), GB_GATE_COST_RUN);
    assert_int_equal(gb_gate_cost(GB_GATE_LINT), GB_GATE_COST_LINT);
    assert_true(gb_gate_runs_before(GB_GATE_DUPLICATE, GB_GATE_DOMINATED));
    assert_true(gb_gate_runs_before(GB_GATE_DOMINATED, GB_GATE_TESTS));
    assert_false(gb_gate_runs_before(GB_GATE_TESTS, GB_GATE_DUPLICATE));
    assert_false(gb_gate_runs_before(GB_GATE_LINT, GB_GATE_LINT));
}

/* A child whose expensive gates run on one thread goes to its lint first when, in this task so
 * far, the lint spent less wall time per child it rejected than the runs (tests, equivalence)
 * did; only under a time budget, with the lint gate on, once each was seen a few times. */
static void test_lint_goes_first_where_it_rejects_for_less(void **state)
{
    (void)state;
    Fixture f;
    fixture_init(&f, five, 1);
    f.cfg.lint = true;
    f.cfg.time_budget = 15;
    /* runs of 0.2 s that reject nothing, lints of 0.06 s that reject 4 of 10 */
    f.run.cost_n[GB_GATE_CLASS_RUN] = f.run.cost_n[GB_GATE_CLASS_LINT] = 10;
    f.run.cost_s[GB_GATE_CLASS_RUN] = 2.0;
    f.run.cost_s[GB_GATE_CLASS_LINT] = 0.6;
    f.run.cost_rej[GB_GATE_CLASS_LINT] = 4;
    assert_true(gb_evolve_lint_first(&f.run));
    /* with --generations the order of the gate list holds */
    f.cfg.time_budget = 0;
    assert_false(gb_evolve_lint_first(&f.run));
    f.cfg.time_budget = 15;
    f.cfg.lint = false;
    assert_false(gb_evolve_lint_first(&f.run));
    f.cfg.lint = true;
    /* too few lints seen to tell */
    f.run.cost_n[GB_GATE_CLASS_LINT] = GB_EVOLVE_COST_SEEN - 1;
    assert_false(gb_evolve_lint_first(&f.run));
    f.run.cost_n[GB_GATE_CLASS_LINT] = 10;
    /* the runs reject half, the lints nothing: 0.2 x 12 / 6 = 0.4 s per rejection against
     * 0.06 x 12 / 1 = 0.72 s */
    f.run.cost_rej[GB_GATE_CLASS_RUN] = 5;
    f.run.cost_rej[GB_GATE_CLASS_LINT] = 0;
    assert_false(gb_evolve_lint_first(&f.run));
    /* cheap runs that never reject, a dear lint that often does: 0.02 x 12 against 0.3 x 12 / 6 */
    f.run.cost_rej[GB_GATE_CLASS_RUN] = 0;
    f.run.cost_s[GB_GATE_CLASS_RUN] = 0.2;
    f.run.cost_s[GB_GATE_CLASS_LINT] = 3.0;
    f.run.cost_rej[GB_GATE_CLASS_LINT] = 5;
    assert_false(gb_evolve_lint_first(&f.run));
    fixture_destroy(&f);
}

/* ---- waves, in the sandbox ---- */

/* One pool for the group (the tests' state), with workers for the fixture task only. */
static int pool_setup(void **state)
{
    GbPoolConfig cfg;
    gb_pool_config_defaults(&cfg);
    cfg.workers = 2;
    cfg.timeout_s = 20;
    cfg.cpu_s = 20;
    GbTask t;
    make_task(&t);
    gb_pool_config_need(&cfg, &t); /* only the standard library's workers */
    gb_task_destroy(&t);
    GbError err = {{0}};
    GbPool *pool = gb_pool_new(&cfg, &err);
    if (!pool) print_error("gb_pool_new: %s\n", err.msg);
    *state = pool;
    return pool ? 0 : -1;
}

static int pool_teardown(void **state)
{
    gb_pool_delete(*state);
    return 0;
}

/* A generation's children, in breeding order; each a distinct operator (op) so the counts can
 * be told apart. On the chain p1 > a > b > c > d > e > g > original (each dominates the next)
 * the validation order is a, b, c, d, e, g: waves of min(accept, GB_EVOLVE_WAVE = 4).
 *   a fails the tests; b passes; c passes the tests but its parent p1 dominates it; d is the
 *   original's tokens with other layout (a duplicate); e and g would pass. */
enum { KID_A = 1, KID_B, KID_C, KID_D, KID_E, KID_G, NKIDS = 6 };
static const struct {
    int op;
    long parent;
    double obj;
    const char *src;
} wave_kids[NKIDS] = {
    {KID_E, 0, 0.70, "def f(x):\n    e = x + 1\n    return e\n"},
    {KID_C, 1, 0.80, "def f(x):\n    c = 1\n    return x + c\n"},
    {KID_A, 0, 0.90, "def f(x):\n    return x + 2\n"},
    {KID_G, 0, 0.65, "def f(x):\n    g = 1 + x\n    return g\n"},
    {KID_D, 0, 0.75, "def f(x):\n    return x+1  # the same tokens\n"},
    {KID_B, 0, 0.85, "def f(x):\n    return 1 + x\n"},
};

/* Validate the generation above with accept children wanted (0: all) and helpers on nslots - 1
 * borrowed slots (0: none); pop gets the original (0.5, 0.5) and p1 (0.95, 0.95). */
static void validate_wave_kids(GbPool *pool, int accept, int nslots, Fixture *f, GbEvolveStats *stats)
{
    static const double pop[] = {0.50, 0.50, 0.95, 0.95};
    fixture_init(f, pop, 2);
    f->cfg.pool = pool;
    f->cfg.accept = accept;
    GbEvolveSlots slots;
    if (nslots) {
        gb_evolve_slots_init(&slots, nslots - 1); /* the task thread holds one */
        f->cfg.slots = &slots;
    }
    TSParser *parser = gb_parser_new();
    GbHashList hashes = {0};
    for (size_t i = 0; i < f->run.pop.len; i++) {
        f->run.pop.items[i].hash = gb_program_token_hash(&f->run.pop.items[i].prog, parser);
        gb_array_push(&hashes, f->run.pop.items[i].hash);
    }
    f->run.orig_prog = f->run.pop.items[0].prog;
    GbIndividual *children = gb_malloc(NKIDS * sizeof *children);
    memset(stats, 0, sizeof *stats);
    for (int c = 0; c < NKIDS; c++) {
        children[c] = individual(&f->task, wave_kids[c].src, wave_kids[c].obj, wave_kids[c].obj, wave_kids[c].parent,
                                 wave_kids[c].op);
        stats->offered[wave_kids[c].op] = 1;
    }
    gb_evolve_validate_generation(&f->cfg, &f->run, children, NKIDS, parser, &hashes, stats);
    free(children);
    gb_evolve_crew_end(&f->run);
    if (nslots) assert_int_equal(atomic_load(&slots.free), nslots - 1);
    f->cfg.slots = NULL;
    assert_int_equal(hashes.len, f->run.pop.len);
    gb_array_free(&hashes);
    ts_parser_delete(parser);
}

static void test_waves_stop_after_the_wave_that_reaches_accept(void **state)
{
    GbPool *pool = *state;
    for (int nslots = 0; nslots <= 3; nslots += 3) {
        Fixture f;
        GbEvolveStats st;
        /* accept 1: waves of one; a is rejected by its tests, b joins, and nothing after b is
         * validated or counted as offered */
        validate_wave_kids(pool, 1, nslots, &f, &st);
        assert_int_equal(f.run.pop.len, 3);
        assert_int_equal(f.run.pop.items[2].op, KID_B);
        assert_int_equal(f.run.pop.items[2].parent, 0);
        assert_int_equal(st.rejected[KID_A][GB_GATE_TESTS], 1);
        assert_int_equal(st.accepted[KID_B], 1);
        assert_int_equal(st.validated, 2);
        for (int k = KID_C; k <= KID_G; k++) assert_int_equal(st.offered[k], 0);
        fixture_destroy(&f);
        /* accept 4: a wave of four (a, b, c, d) in which b alone joins, c rejected where
         * one-at-a-time validation rejects it (its parent dominates it) and d as a duplicate
         * without a run; then e and g, the second wave, join */
        validate_wave_kids(pool, 4, nslots, &f, &st);
        assert_int_equal(f.run.pop.len, 5);
        assert_int_equal(f.run.pop.items[2].op, KID_B);
        assert_int_equal(f.run.pop.items[3].op, KID_E);
        assert_int_equal(f.run.pop.items[4].op, KID_G);
        assert_int_equal(st.rejected[KID_A][GB_GATE_TESTS], 1);
        assert_int_equal(st.rejected[KID_C][GB_GATE_DOMINATED], 1);
        assert_int_equal(st.rejected[KID_D][GB_GATE_DUPLICATE], 1);
        assert_int_equal(st.validated, 4); /* a, b, e and g ran their tests; c and d never reached them */
        fixture_destroy(&f);
    }
}

static void test_accept_zero_validates_all_in_breeding_order(void **state)
{
    GbPool *pool = *state;
    Fixture f;
    GbEvolveStats st;
    validate_wave_kids(pool, 0, 0, &f, &st);
    const GbRun run = f.run;
    /* e, g and b pass and join in breeding order (e, c, a, g, d, b) */
    assert_int_equal(run.pop.len, 5);
    assert_int_equal(run.pop.items[2].op, KID_E);
    assert_int_equal(run.pop.items[3].op, KID_G);
    assert_int_equal(run.pop.items[4].op, KID_B);
    assert_int_equal(st.validated, 4);
    for (int c = 0; c < NKIDS; c++) assert_int_equal(st.offered[wave_kids[c].op], 1);
    assert_int_equal(st.rejected[KID_A][GB_GATE_TESTS], 1);
    assert_int_equal(st.rejected[KID_C][GB_GATE_DOMINATED], 1);
    assert_int_equal(st.rejected[KID_D][GB_GATE_DUPLICATE], 1);
    fixture_destroy(&f);
}

/* ---- the pick ---- */

/* Without earlier versions: the first front {1, 2}, the highest score 2. With them (target
 * 0.4): the best among those at most 0.4 similar, or the least similar when none is. */
static void test_pick_best_score_within_the_away_target(void **state)
{
    (void)state;
    static const struct {
        size_t n_away;
        double sim[5];
        size_t want;
    } cases[] = {
        {0, {0}, 2},
        /* candidates 0, 1, 3, 4: first front among them {1 (0.5, 0.4), 4 (0.6, 0.1)} -> 4 */
        {1, {0.10, 0.30, 0.90, 0.20, 0.35}, 4},
        /* none at most 0.4: the least similar, 3 */
        {1, {0.95, 0.50, 0.90, 0.45, 0.60}, 3},
        /* only 2 within the target */
        {1, {0.95, 0.50, 0.40, 0.45, 0.60}, 2},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        Fixture f;
        fixture_init(&f, five, 5);
        f.run.n_away = cases[c].n_away;
        for (size_t i = 0; i < 5; i++) f.run.pop.items[i].sim = cases[c].sim[i];
        double obj[15];
        size_t k = gb_evolve_pop_objectives(&f.run, obj);
        assert_int_equal(k, cases[c].n_away ? 3 : 2);
        assert_int_equal(gb_evolve_pick(&f.run, obj, k), cases[c].want);
        f.run.n_away = 0;
        fixture_destroy(&f);
    }
}

/* Under a time budget the children of a slow task are checked on the equivalence gate's screen;
 * the pick is then checked on the other kept inputs. Child 1 (the best) differs from the original
 * on one input outside the screen only: it is refuted and child 2 is picked; with --keep-front
 * the front is checked too, and the original never is. */
static void test_pick_refutes_what_the_screen_let_through(void **state)
{
    GbPool *pool = *state;
    for (int keep_front = 0; keep_front < 2; keep_front++) {
        static const double pop[] = {0.10, 0.10, 0.90, 0.90, 0.50, 0.50};
        Fixture f;
        fixture_init(&f, pop, 3);
        f.cfg.pool = pool;
        f.cfg.equiv = true;
        f.cfg.keep_front = keep_front;
        TSParser *parser = gb_parser_new();
        GbEquivConfig ecfg = f.cfg.equiv_cfg;
        ecfg.task_budget_s = 15;
        GbError err = {{0}};
        f.run.equiv = gb_equiv_record(pool, &f.task, NULL, &ecfg, parser, &err);
        assert_non_null(f.run.equiv);
        /* the smallest screen (this one is fast): a budget each input fits in alone */
        double slowest = 0;
        for (size_t i = 0; i < gb_equiv_kept(f.run.equiv); i++)
            if (f.run.equiv->wall.items[i] > slowest) slowest = f.run.equiv->wall.items[i];
        gb_equiv_screen_choose(f.run.equiv, slowest);
        size_t n, outside = 0;
        assert_true(gb_equiv_screened(f.run.equiv, &n));
        while (f.run.equiv->screen.items[outside]) outside++;
        gb_program_set_source_take(
            &f.run.pop.items[1].prog, 0,
            gb_asprintf("def f(x):\n    return None if x == (%s) else x + 1\n", f.run.equiv->kept.items[outside]));
        gb_evolve_verify(&f.run);
        assert_true(f.run.pop.items[1].refuted);
        assert_true(f.run.pop.items[2].verified);
        assert_false(f.run.pop.items[0].verified || f.run.pop.items[0].refuted);
        assert_int_equal(f.run.refuted, 1);
        double obj[9];
        size_t k = gb_evolve_pop_objectives(&f.run, obj);
        assert_int_equal(gb_evolve_pick(&f.run, obj, k), 2);
        gb_equiv_delete(f.run.equiv);
        ts_parser_delete(parser);
        fixture_destroy(&f);
    }
}

/* With the cases run in one probe (run->tests_together), what is written passes them run apart, one
 * process per case, and so do its ancestors: a program that passes in the probe but not apart is
 * refuted, and so is its descendant, whose lineage would hold it. */
static void test_pick_refutes_what_fails_its_cases_apart(void **state)
{
    GbPool *pool = *state;
    /* prints 5 when its stdout is the probe's (a wrapper over BytesIO), 6 when run on its own */
    static const char *const probe_only =
        "import io, sys\nn = int(input())\nprint(n + (0 if isinstance(getattr(sys.stdout, 'buffer', None), "
        "io.BytesIO) else 1))\n";
    static const char *const right = "n = int(input())\nprint(n + 0)\n";
    for (int keep_front = 0; keep_front < 2; keep_front++) {
        static const double pop[] = {0.10, 0.90, 0.60, 0.50, 0.90, 0.40, 0.30, 0.45};
        Fixture f;
        fixture_init(&f, pop, 4);
        gb_task_destroy(&f.task);
        gb_task_init(&f.task);
        f.task.id = gb_strdup("loop/stdio");
        f.task.kind = GB_TESTS_STDIO;
        f.task.source = gb_strdup("n = int(input())\nprint(n)\n");
        GbStdioCase c = {gb_strdup("5\n"), gb_strdup("5\n")};
        gb_array_push(&f.task.cases, c);
        f.cfg.pool = pool;
        f.cfg.keep_front = keep_front;
        f.run.tests_together = true;
        /* 1 (from 0) passes only in the probe; 2 descends from it; 3 (from 0) passes everywhere */
        const char *srcs[] = {NULL, probe_only, right, right};
        for (size_t i = 0; i < 4; i++) {
            gb_program_destroy(&f.run.pop.items[i].prog);
            gb_program_from_task(&f.run.pop.items[i].prog, &f.task);
            if (srcs[i]) gb_program_set_source_take(&f.run.pop.items[i].prog, 0, gb_strdup(srcs[i]));
        }
        f.run.pop.items[2].parent = 1;
        GbError err;
        GbRunResult rr;
        assert_true(gb_pool_run_cases_together(pool, &f.task, &f.run.pop.items[1].prog, &rr, &err));
        assert_int_equal(rr.status, GB_RUN_PASS);
        gb_run_result_destroy(&rr);
        gb_evolve_verify(&f.run);
        assert_true(f.run.pop.items[2].refuted);
        assert_true(f.run.pop.items[3].verified);
        assert_int_equal(f.run.pop.items[1].apart, -1);
        assert_int_equal(f.run.pop.items[2].apart, 1);
        assert_int_equal(f.run.apart_refuted, keep_front ? 2 : 1 + f.run.pop.items[1].refuted);
        assert_int_equal(f.run.refuted, 0);
        double obj[12];
        size_t k = gb_evolve_pop_objectives(&f.run, obj);
        assert_int_equal(gb_evolve_pick(&f.run, obj, k), 3);
        fixture_destroy(&f);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_select_parents_takes_the_ranked_prefix),
        cmocka_unit_test(test_select_parents_skips_spent_individuals),
        cmocka_unit_test(test_breeding_marks_a_parent_without_sites_spent),
        cmocka_unit_test(test_rank_children_orders_by_crowded_comparison),
        cmocka_unit_test(test_rank_children_puts_renamings_and_demoted_operators_last),
        cmocka_unit_test(test_stack_depth_follows_the_test_time),
        cmocka_unit_test(test_stacked_children_carry_gaining_operators),
        cmocka_unit_test(test_gates_run_cheapest_first_in_today_order),
        cmocka_unit_test(test_lint_goes_first_where_it_rejects_for_less),
        cmocka_unit_test(test_waves_stop_after_the_wave_that_reaches_accept),
        cmocka_unit_test(test_accept_zero_validates_all_in_breeding_order),
        cmocka_unit_test(test_pick_best_score_within_the_away_target),
        cmocka_unit_test(test_pick_refutes_what_the_screen_let_through),
        cmocka_unit_test(test_pick_refutes_what_fails_its_cases_apart),
    };
    return cmocka_run_group_tests(tests, pool_setup, pool_teardown);
}
