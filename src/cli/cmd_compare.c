/* genebench compare: equivalence of two benchmarks beyond their tests (nsga2/equiv.h), task by
 * task: inputs derived from A's tests, A's results recorded, B's program checked on them. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gb_config.h"
#include "nsga2/equiv.h"
#include "src/doc/compare.h"
#include "src/cli/cli.h"
#include "src/cli/commands.h"
#include "src/python/pyparse.h"

typedef struct {
    const char *output, *python;
    unsigned long long seed;
    long inputs, large, jobs, search;
    double cost_ratio, timeout;
    bool no_cost;
} GbCompareOptions;

static bool gb_compare__parse_seed(const char *value, void *dest, char *msg, size_t size)
{
    char *end;
    unsigned long long v = strtoull(value, &end, 10);
    if (!*value || *end || value[0] == '-') {
        snprintf(msg, size, "--seed needs a non-negative integer, not \"%s\"", value);
        return false;
    }
    *(unsigned long long *)dest = v;
    return true;
}

#define O GbCompareOptions
static const GbCliOption gb_compare__options[] = {
    GB_CLI_STRING("output", 'o', O, output, "FILE", NULL, "also write the report as JSON to FILE"),
    GB_CLI_PARSE("seed", 0, O, seed, "S", gb_compare__parse_seed, "1", "seed of the derived inputs"),
    GB_CLI_LONG("inputs", 0, O, inputs, "N", 0, 10000, "24", "derived inputs per task (besides the tests' own)"),
    GB_CLI_LONG("large", 0, O, large, "N", 0, 1000, "4", "larger inputs per task, for the cost bound"),
    GB_CLI_LONG("search", 0, O, search, "N", 0, 100, "3",
                "rounds of the search for inputs that reach the original's branches (0: derived inputs only)"),
    GB_CLI_DOUBLE("cost-ratio", 0, O, cost_ratio, "R", 1, 1e6, "4",
                  "B may cost at most R x A's time on the larger inputs (+ slack)"),
    GB_CLI_FLAG("no-cost", 0, O, no_cost, "compare results only, not run time"),
    GB_CLI_LONG("jobs", 'j', O, jobs, "N", 1, 1024, NULL, "tasks compared in parallel (default: number of CPUs)"),
    GB_CLI_STRING("python", 0, O, python, "PATH", GB_DEFAULT_PYTHON, "interpreter that runs the programs"),
    GB_CLI_DOUBLE("timeout", 0, O, timeout, "SECONDS", 0.1, 86400, "20", "wall-clock limit per probe run"),
    GB_CLI_END,
};
#undef O

static const GbCliExit gb_compare__exits[] = {
    {0, "every task of A with inputs agrees with its B counterpart (and is within the cost bound)"},
    {1, "some task disagrees, is slower than the bound, is missing from B, or could not be probed; or a file\n"
        "could not be read or had bad lines; or the pool did not start"},
    {2, "usage error"},
    {130, "interrupted by Ctrl-C (128 + the signal)"},
    {0, NULL},
};

static const GbCliCommand gb_compare__cmd = {
    .name = "compare",
    .synopsis = "A.jsonl B.jsonl [-o REPORT.json] [--seed S] [--inputs N] [--large N] [--cost-ratio R]\n"
                "                         [--no-cost] [-j N] [--python PATH] [--timeout SECONDS]",
    .about = "  Check that B's programs behave like A's beyond the tests (tasks matched by id). From each task's\n"
             "  tests the entry-point calls with literal arguments (stdio tasks: the cases' stdin) are taken and\n"
             "  more inputs derived by type-preserving perturbation (deterministic by --seed); A's program is run\n"
             "  on them twice in the sandbox (inputs with a nondeterministic or slow result are dropped), then B's\n"
             "  once. Per input: returned value or exception type, arguments after the call, stdout. Prints per\n"
             "  task AGREE / DISAGREE (with the first disagreeing input, A's result and B's) / SLOWER (B's CPU or\n"
             "  wall time on the larger inputs above R x A's + slack) / NOINPUT / MISSING / ERROR, and a summary.\n",
    .options = gb_compare__options,
    .min_args = 2,
    .max_args = 2,
    .args_error = "need A.jsonl and B.jsonl",
    .exits = gb_compare__exits,
};

typedef enum { GB_CMP_AGREE, GB_CMP_DISAGREE, GB_CMP_SLOWER, GB_CMP_NOINPUT, GB_CMP_MISSING, GB_CMP_ERROR } GbCmpStatus;
static const char *const gb_compare__names[] = {"AGREE", "DISAGREE", "SLOWER", "NOINPUT", "MISSING", "ERROR"};
_Static_assert(GB_CMP_ERROR == (int)GB_COMPARE_ERROR && GB_COMPARE_COUNT == 6, "compare's statuses are the report's");

typedef struct {
    GbCmpStatus status;
    size_t derived, kept, large;
    size_t branches, covered, covered_before;
    char *uncovered; /* owned: the original's branch outcomes no kept input reaches */
    GbEquivVerdict v;
    char *error; /* owned */
} GbCmpTask;

static const GbTask *gb_compare__find(const GbBench *b, const char *id)
{
    for (size_t i = 0; i < b->tasks.len; i++)
        if (strcmp(b->tasks.items[i].id, id) == 0) return &b->tasks.items[i];
    return NULL;
}

static void gb_compare__one(GbPool *pool, const GbEquivConfig *ecfg, const GbTask *ta, const GbTask *tb,
                            TSParser *parser, GbCmpTask *x)
{
    if (!tb) {
        x->status = GB_CMP_MISSING;
        return;
    }
    GbError err = {{0}};
    GbEquiv *e = gb_equiv_record(pool, ta, NULL, ecfg, parser, &err);
    if (!e) {
        x->status = GB_CMP_ERROR;
        x->error = gb_strdup(err.msg);
        return;
    }
    x->derived = gb_equiv_derived(e);
    x->kept = gb_equiv_kept(e);
    x->large = gb_equiv_large(e);
    x->branches = gb_equiv_branches(e);
    x->covered = gb_equiv_covered(e);
    x->covered_before = gb_equiv_covered_before(e);
    x->uncovered = gb_strdup(gb_equiv_uncovered(e));
    if (x->kept == 0) {
        x->status = GB_CMP_NOINPUT;
    } else {
        GbProgram prog;
        gb_program_from_task(&prog, tb);
        if (!gb_equiv_check(e, ecfg, pool, tb, &prog, &x->v, &err)) {
            x->status = GB_CMP_ERROR;
            x->error = gb_asprintf("task %s: %s", ta->id, err.msg);
        } else if (x->v.status != GB_RUN_PASS) {
            x->status = GB_CMP_DISAGREE;
        } else {
            x->status = !x->v.agree ? GB_CMP_DISAGREE : !x->v.cost_ok ? GB_CMP_SLOWER : GB_CMP_AGREE;
        }
        gb_program_destroy(&prog);
    }
    gb_equiv_delete(e);
}

/* s on one line: newlines and tabs escaped (owned). */
static char *gb_compare__one_line(const char *s)
{
    GbStr o;
    gb_str_init(&o);
    for (; s && *s; s++) {
        if (*s == '\n')
            gb_str_append(&o, "\\n");
        else if (*s == '\t')
            gb_str_append(&o, "\\t");
        else
            gb_str_append_n(&o, s, 1);
    }
    char *r = gb_str_take(&o);
    return r ? r : gb_strdup("");
}

/* The coverage line under a task's verdict (nothing without the search). */
static void gb_compare__coverage(const GbCmpTask *x)
{
    if (x->branches == 0) return;
    printf("    branches: %zu/%zu covered (%.0f%%; derived inputs alone %zu)%s%s\n", x->covered, x->branches,
           100.0 * (double)x->covered / (double)x->branches, x->covered_before,
           x->uncovered && *x->uncovered ? "; uncovered: " : "", x->uncovered ? x->uncovered : "");
}

static void gb_compare__line(const GbTask *t, const GbCmpTask *x, const char *entry)
{
    printf("%-8s %s", gb_compare__names[x->status], t->id);
    switch (x->status) {
    case GB_CMP_AGREE:
        printf(": %zu/%zu inputs agree (%zu derived, %zu larger kept); cost %.4fs vs %.4fs CPU\n", x->v.agreed,
               x->v.checked, x->derived, x->large, x->v.cost_child, x->v.cost_orig);
        gb_compare__coverage(x);
        break;
    case GB_CMP_SLOWER:
        printf(": %zu/%zu inputs agree, but B costs %.4fs CPU / %.4fs wall on the cost inputs, A %.4fs / %.4fs\n",
               x->v.agreed, x->v.checked, x->v.cost_child, x->v.wall_child, x->v.cost_orig, x->v.wall_orig);
        break;
    case GB_CMP_DISAGREE:
        if (x->v.why) {
            printf(": B's probe failed: %s\n", x->v.why);
        } else {
            char *in = gb_compare__one_line(x->v.input), *a = gb_compare__one_line(x->v.expected),
                 *b = gb_compare__one_line(x->v.got);
            if (t->kind == GB_TESTS_UNITTEST) /* a call sequence, written out whole */
                printf(": %zu/%zu inputs agree; first disagreement on input %ld: %s\n    A: %s\n    B: %s\n",
                       x->v.agreed, x->v.checked, x->v.first, in, a, b);
            else
                printf(": %zu/%zu inputs agree; first disagreement on input %ld: %s(%s)\n    A: %s\n    B: %s\n",
                       x->v.agreed, x->v.checked, x->v.first, entry ? entry : "stdin", in, a, b);
            free(in);
            free(a);
            free(b);
        }
        gb_compare__coverage(x);
        break;
    case GB_CMP_NOINPUT:
        printf(": no inputs (%s)\n", x->derived ? "the original's results were all nondeterministic or slow"
                                     : t->kind == GB_TESTS_UNITTEST
                                         ? "no constructor call with literal arguments in the test methods"
                                         : "no entry-point call with literal arguments in the tests");
        break;
    case GB_CMP_MISSING:
        printf(": not in B\n");
        break;
    case GB_CMP_ERROR:
        printf(": %s\n", x->error ? x->error : "?");
        break;
    }
}

/* The task's entry of the report (borrowing from t and x). */
static GbCompareDocTask gb_compare__doc_task(const GbTask *t, const GbCmpTask *x)
{
    GbCompareDocTask d = {.id = t->id,
                          .status = (GbCompareStatus)x->status,
                          .derived = x->derived,
                          .inputs = x->kept,
                          .large = x->large,
                          .agreed = x->v.agreed,
                          .checked = x->v.checked,
                          .cost_a_s = x->v.cost_orig,
                          .cost_b_s = x->v.cost_child,
                          .wall_a_s = x->v.wall_orig,
                          .wall_b_s = x->v.wall_child,
                          .probe_failed = x->v.why,
                          .has_first = x->v.first >= 0,
                          .first_index = x->v.first,
                          .first_input = x->v.input,
                          .first_a = x->v.expected,
                          .first_b = x->v.got,
                          .branches = x->branches,
                          .covered = x->covered,
                          .covered_before = x->covered_before,
                          .uncovered = x->uncovered,
                          .error = x->error};
    return d;
}

int gb_cmd_compare(int argc, char **argv)
{
    GbCompareOptions o = {0};
    GbCliArgs args;
    int prc = gb_cli_parse(&gb_compare__cmd, argc, argv, &o, &args);
    if (prc != GB_CLI_CONTINUE) return prc;
    const char *pa = args.items[0], *pb = args.items[1];
    const char *inputs[] = {pa, pb};
    if (gb_cli_refuse_output("compare", o.output, inputs, 2)) return GB_EXIT_USAGE;
    GbBench a, b;
    gb_bench_init(&a);
    gb_bench_init(&b);
    size_t bad = 0;
    if (!gb_cli_read_bench(pa, &a, NULL, &bad) || !gb_cli_read_bench(pb, &b, NULL, &bad)) {
        gb_bench_destroy(&a);
        gb_bench_destroy(&b);
        return GB_EXIT_FAIL;
    }
    GbEquivConfig ecfg;
    gb_equiv_config_defaults(&ecfg);
    ecfg.seed = o.seed;
    ecfg.inputs = (int)o.inputs;
    ecfg.large = (int)o.large;
    ecfg.search = (int)o.search;
    ecfg.cost_ratio = o.no_cost ? 1e18 : o.cost_ratio;
    if (o.no_cost) ecfg.cost_slack_s = ecfg.wall_slack_s = 1e18;

    GbPoolConfig pcfg;
    gb_pool_config_defaults(&pcfg);
    pcfg.python = o.python;
    pcfg.timeout_s = o.timeout;
    pcfg.cpu_s = o.timeout;
    pcfg.probes_apart = true; /* the second benchmark's programs are judged, not trusted */
    long jobs = o.jobs > 0 ? o.jobs : sysconf(_SC_NPROCESSORS_ONLN);
    if (jobs < 1) jobs = 1;
    pcfg.workers = (int)jobs;
    GbCliSignals sig;
    gb_cli_signals_start(&sig, NULL, NULL);
    GbPool *pool = gb_cli_pool_new("compare", &pcfg);
    if (!pool) {
        gb_cli_signals_stop(&sig);
        gb_bench_destroy(&a);
        gb_bench_destroy(&b);
        return GB_EXIT_FAIL;
    }
    sig.pool = pool;
    long n = (long)a.tasks.len;
    GbCmpTask *res = gb_calloc(a.tasks.len ? a.tasks.len : 1, sizeof *res);
    int threads = (int)jobs;
#pragma omp parallel num_threads(threads) default(none) shared(n, res, a, b, pool, ecfg)
    {
        TSParser *parser = gb_parser_new();
#pragma omp for schedule(dynamic, 1)
        for (long i = 0; i < n; i++) {
            const GbTask *ta = &a.tasks.items[i];
            gb_compare__one(pool, &ecfg, ta, gb_compare__find(&b, ta->id), parser, &res[i]);
        }
        ts_parser_delete(parser);
    }
    size_t count[6] = {0}, with = 0, kept = 0, checked = 0, agreed = 0;
    GbCompareDoc doc = {.a = pa, .b = pb, .seed = (double)o.seed};
    for (long i = 0; i < n; i++) {
        const GbTask *ta = &a.tasks.items[i];
        GbCmpTask *x = &res[i];
        count[x->status]++;
        if (x->kept) {
            with++;
            kept += x->kept;
            checked += x->v.checked;
            agreed += x->v.agreed;
        }
        gb_compare__line(ta, x, ta->kind == GB_TESTS_STDIO ? NULL : (ta->entry_point ? ta->entry_point : "f"));
        gb_array_push(&doc.tasks, gb_compare__doc_task(ta, x));
    }
    printf("%s vs %s: %ld tasks, %zu with inputs (%zu inputs, %.1f per task), %zu agree, %zu disagree, %zu slower, "
           "%zu without inputs, %zu missing, %zu errors; inputs agreeing %zu/%zu\n",
           pa, pb, n, with, kept, with ? (double)kept / (double)with : 0.0, count[GB_CMP_AGREE], count[GB_CMP_DISAGREE],
           count[GB_CMP_SLOWER], count[GB_CMP_NOINPUT], count[GB_CMP_MISSING], count[GB_CMP_ERROR], agreed, checked);
    doc.with_inputs = with;
    doc.inputs = kept;
    doc.inputs_checked = checked;
    doc.inputs_agreed = agreed;
    for (int k = 0; k < GB_COMPARE_COUNT; k++) doc.count[k] = count[k];
    GbStr js;
    gb_str_init(&js);
    gb_compare_doc_write(&js, &doc);
    gb_array_free(&doc.tasks);
    fflush(stdout);
    int rc = count[GB_CMP_AGREE] + count[GB_CMP_NOINPUT] == (size_t)n && bad == 0 ? GB_EXIT_OK : GB_EXIT_FAIL;
    if (o.output && !gb_cli_write_output("compare", o.output, &js)) rc = GB_EXIT_FAIL;
    gb_str_destroy(&js);
    gb_cli_signals_stop(&sig);
    gb_pool_delete(pool);
    if (sig.signo) rc = 128 + sig.signo;
    for (long i = 0; i < n; i++) {
        gb_equiv_verdict_destroy(&res[i].v);
        free(res[i].uncovered);
        free(res[i].error);
    }
    free(res);
    gb_bench_destroy(&a);
    gb_bench_destroy(&b);
    return rc;
}
