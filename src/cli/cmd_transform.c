/* genebench transform: apply one operator to every task of a benchmark, check the tests, show
 * the diff. The debugging and robustness tool for operators. */
#include <omp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gb_config.h"
#include "nsga2/equiv.h"
#include "operators/operator.h"
#include "src/cli/cli.h"
#include "src/cli/commands.h"
#include "src/base/linediff.h"
#include "operators/naming.h"
#include "src/python/pyparse.h"
#include "src/runner/runner.h"
#include "src/bench/task_io.h"

static void gb_transform__program_diff(GbStr *out, const GbProgram *before, const GbProgram *after)
{
    for (size_t i = 0; i < after->modules.len; i++) {
        const GbFile *m = &after->modules.items[i];
        const char *old = "";
        for (size_t j = 0; j < before->modules.len; j++)
            if (strcmp(before->modules.items[j].path, m->path) == 0) old = before->modules.items[j].source;
        gb_diff_render_unified(out, m->path, old, m->source);
    }
}

/* ---- Per task ---- */

typedef struct {
    const GbOperator *op;
    unsigned long seed;
    long site; /* -1: random */
    bool list_only;
    bool all_sites;
    bool tests;
    bool diffs;
    GbPool *pool;
    const GbNamingConfig *naming; /* NULL: no natural names */
    bool equiv;                   /* with tests: also the equivalence check (nsga2/equiv.h) */
    GbEquivConfig ecfg;
} GbTransformOpts;

typedef struct {
    GbStr report;
    long sites, applied, rejected, passed, failed;
    bool skipped;             /* the original fails its tests or does not parse */
    GbArray(GbTask) variants; /* transformed tasks for -o */
} GbTransformResult;

static const char *gb_transform__status(const GbRunResult *r)
{
    return gb_run_status_name(r->status);
}

static void gb_transform__run_note(GbStr *s, const GbRunResult *r)
{
    gb_str_appendf(s, "%s", gb_transform__status(r));
    if (r->failed_test) gb_str_appendf(s, " in %s", r->failed_test);
    if (r->exc_type) gb_str_appendf(s, ": %s", r->exc_type);
    if (r->exc_message) gb_str_appendf(s, ": %.200s", r->exc_message);
}

/* Apply at site index k of a fresh copy of base; run tests. Returns the outcome in res. */
/* Apply at sites->items[k] (found on base) on a fresh copy of base and run the tests. */
static void gb_transform__one(const GbTransformOpts *o, const GbTask *task, const GbProgram *base, TSParser *parser,
                              const GbSiteList *sites, size_t k, bool report_all, const GbEquiv *eq,
                              GbTransformResult *res)
{
    GbProgram prog;
    gb_program_copy(&prog, base);
    GbOpContext ctx;
    gb_op_ctx_init(&ctx, &prog, task, parser);
    GbRng rng;
    gb_rng_init_keyed(&rng, o->seed, gb_hash64(task->id, strlen(task->id), 0), k, 1);
    GbError err = {{0}};
    GbApplyStatus st = gb_op_apply(&ctx, o->op, &sites->items[k], &rng, &err);
    const char *key = sites->items[k].key;
    if (st != GB_APPLY_OK) {
        res->rejected++;
        gb_str_appendf(&res->report, "%s: site %zu %s REJECTED: %s\n", task->id, k, key, err.msg);
    } else {
        res->applied++;
        bool pass = true;
        GbRunResult rr;
        gb_run_result_init(&rr);
        if (o->tests) {
            GbError rerr = {{0}};
            if (!gb_pool_run(o->pool, task, &prog, &rr, &rerr) && rr.status == GB_RUN_PASS) rr.status = GB_RUN_ERROR;
            pass = rr.status == GB_RUN_PASS;
            if (!pass && !rr.exc_message && rerr.msg[0]) rr.exc_message = gb_strdup(rerr.msg);
        }
        char *equiv_note = NULL;
        if (pass && eq && gb_equiv_kept(eq) > 0) {
            GbEquivVerdict v;
            GbError verr = {{0}};
            if (!gb_equiv_check(eq, &o->ecfg, o->pool, task, &prog, &v, &verr))
                equiv_note = gb_asprintf("error: %s", verr.msg);
            else if (v.why)
                equiv_note = gb_asprintf("the probe failed: %s", v.why);
            else if (!v.agree)
                equiv_note = gb_asprintf("disagrees on %zu of %zu derived inputs, first (%.200s): original %.200s, "
                                         "transformed %.200s",
                                         v.checked - v.agreed, v.checked, v.input, v.expected, v.got);
            else if (!v.cost_ok)
                equiv_note = gb_asprintf("over the cost bound: %.4fs CPU / %.4fs wall against the original's %.4fs / "
                                         "%.4fs",
                                         v.cost_child, v.wall_child, v.cost_orig, v.wall_orig);
            pass = equiv_note == NULL;
            if (pass && report_all) equiv_note = gb_asprintf("agrees on %zu derived inputs", v.checked);
            gb_equiv_verdict_destroy(&v);
        }
        if (pass)
            res->passed++;
        else
            res->failed++;
        /* Natural names for the synthetic identifiers, kept only when the tests still pass. */
        if (pass && o->naming) {
            GbProgram named;
            gb_program_copy(&named, &prog);
            char *renamed = NULL, *llm_err = NULL;
            const char *mode = NULL;
            if (gb_naming_apply(&named, task, parser, o->naming, &renamed, &mode, &llm_err)) {
                bool keep = true;
                if (o->tests) {
                    GbRunResult nr;
                    gb_run_result_init(&nr);
                    GbError nerr = {{0}};
                    keep = gb_pool_run(o->pool, task, &named, &nr, &nerr) && nr.status == GB_RUN_PASS;
                    gb_run_result_destroy(&nr);
                }
                if (report_all)
                    gb_str_appendf(&res->report, "%s: site %zu names (%s)%s: %s\n", task->id, k, mode,
                                   keep ? "" : " dropped, the tests fail with them", renamed);
                if (keep) {
                    GbProgram tmp = prog;
                    prog = named;
                    named = tmp;
                }
            }
            if (llm_err && report_all)
                gb_str_appendf(&res->report, "%s: site %zu: naming endpoint: %s (built-in names used)\n", task->id, k,
                               llm_err);
            free(llm_err);
            free(renamed);
            gb_program_destroy(&named);
        }
        if (report_all || !pass) {
            gb_str_appendf(&res->report, "%s: site %zu/%zu %s applied", task->id, k, sites->len, key);
            if (o->tests) {
                gb_str_append(&res->report, ", tests ");
                gb_transform__run_note(&res->report, &rr);
            }
            if (equiv_note) gb_str_appendf(&res->report, ", equiv: %s", equiv_note);
            gb_str_append(&res->report, "\n");
            if (o->diffs) gb_transform__program_diff(&res->report, base, &prog);
        }
        /* Only transformations that keep the tests passing go to the output. */
        if (pass) {
            GbTask v;
            gb_task_copy(&v, task);
            gb_program_to_task(&prog, &v);
            if (o->all_sites) {
                free(v.id);
                v.id = gb_asprintf("%s#%zu", task->id, k);
            }
            gb_array_push(&res->variants, v);
        }
        gb_run_result_destroy(&rr);
        free(equiv_note);
    }
    gb_op_ctx_destroy(&ctx);
    gb_program_destroy(&prog);
}

static void gb_transform__task(const GbTransformOpts *o, const GbTask *task, TSParser *parser, GbTransformResult *res)
{
    GbProgram base;
    gb_program_from_task(&base, task);
    for (size_t m = 0; m < base.modules.len; m++) {
        unsigned row, col;
        const char *src = base.modules.items[m].source;
        if (!gb_source_parses(parser, src, strlen(src), &row, &col)) {
            gb_str_appendf(&res->report, "%s: skipped: %s does not parse (line %u, column %u)\n", task->id,
                           base.modules.items[m].path, row + 1, col + 1);
            res->skipped = true;
            gb_program_destroy(&base);
            return;
        }
    }
    GbOpContext ctx;
    gb_op_ctx_init(&ctx, &base, task, parser);
    GbSiteList sites;
    gb_site_list_init(&sites);
    gb_op_find_sites(&ctx, o->op, &sites);
    res->sites = (long)sites.len;
    if (o->list_only) {
        gb_str_appendf(&res->report, "%s: %zu sites\n", task->id, sites.len);
        for (size_t i = 0; i < sites.len; i++) {
            const GbSite *s = &sites.items[i];
            const char *src = base.modules.items[s->module].source;
            unsigned line = 1, col = 1;
            for (uint32_t p = 0; p < s->start; p++) {
                if (src[p] == '\n')
                    line++, col = 1;
                else
                    col++;
            }
            size_t len = 0;
            while (s->start + len < s->end && src[s->start + len] != '\n' && len < 60) len++;
            gb_str_appendf(&res->report, "  %zu %s %s:%u:%u  %.*s\n", i, s->key, base.modules.items[s->module].path,
                           line, col, (int)len, src + s->start);
        }
    } else if (sites.len > 0) {
        bool baseline_ok = true;
        GbEquiv *eq = NULL;
        if (o->tests) {
            GbRunResult rr;
            gb_run_result_init(&rr);
            GbError rerr = {{0}};
            gb_pool_run(o->pool, task, NULL, &rr, &rerr);
            if (rr.status != GB_RUN_PASS) {
                baseline_ok = false;
                gb_str_appendf(&res->report, "%s: skipped: the original fails its tests (", task->id);
                gb_transform__run_note(&res->report, &rr);
                if (rerr.msg[0]) gb_str_appendf(&res->report, "; %s", rerr.msg);
                gb_str_append(&res->report, ")\n");
                res->skipped = true;
            }
            gb_run_result_destroy(&rr);
        }
        if (baseline_ok && o->equiv) {
            GbError eerr = {{0}};
            eq = gb_equiv_record(o->pool, task, NULL, &o->ecfg, parser, &eerr);
            if (!eq) gb_str_appendf(&res->report, "%s: equivalence not checked: %s\n", task->id, eerr.msg);
        }
        if (baseline_ok && o->all_sites) {
            for (size_t k = 0; k < sites.len; k++) gb_transform__one(o, task, &base, parser, &sites, k, false, eq, res);
            gb_str_appendf(&res->report, "%s: sites %ld, applied %ld", task->id, res->sites, res->applied);
            if (o->tests) gb_str_appendf(&res->report, ", passing %ld", res->passed);
            gb_str_append(&res->report, "\n");
        } else if (baseline_ok) {
            size_t k;
            if (o->site >= 0) {
                k = (size_t)o->site;
            } else {
                GbRng rng;
                gb_rng_init_keyed(&rng, o->seed, gb_hash64(task->id, strlen(task->id), 0), 0, 0);
                k = gb_rng_bounded(&rng, (uint32_t)sites.len);
            }
            if (k >= sites.len)
                gb_str_appendf(&res->report, "%s: no site %zu (%zu sites)\n", task->id, k, sites.len);
            else
                gb_transform__one(o, task, &base, parser, &sites, k, true, eq, res);
        }
        gb_equiv_delete(eq);
    } else {
        gb_str_appendf(&res->report, "%s: no site\n", task->id);
    }
    gb_site_list_destroy(&sites);
    gb_op_ctx_destroy(&ctx);
    gb_program_destroy(&base);
}

/* Transform every task (or only `only_task`) in parallel; res[i] gets task i's result. */
static void gb_transform__run(const GbTransformOpts *op, const GbBench *bp, const char *only_task,
                              GbTransformResult *res)
{
    long ni = (long)bp->tasks.len;
#pragma omp parallel default(none) shared(op, bp, res, ni, only_task)
    {
        TSParser *parser = gb_parser_new();
#pragma omp for schedule(dynamic, 1)
        for (long i = 0; i < ni; i++) {
            const GbTask *t = &bp->tasks.items[i];
            if (only_task && strcmp(t->id, only_task) != 0) continue;
            gb_transform__task(op, t, parser, &res[i]);
        }
        ts_parser_delete(parser);
    }
}

/* Print every task's report and the summary line, move the variants (or the unchanged task)
 * into out, and release res. Returns false when a transformation failed or was rejected or a
 * task was skipped. */
static bool gb_transform__collect(const GbTransformOpts *op, const GbBench *bench, const char *only_task,
                                  GbTransformResult *res, GbBench *out)
{
    const GbTransformOpts o = *op;
    size_t n = bench->tasks.len;
    long tasks = 0, with_sites = 0, sites = 0, applied = 0, rejected = 0, passed = 0, failed = 0, skipped = 0;
    for (size_t i = 0; i < n; i++) {
        GbTransformResult *r = &res[i];
        if (only_task && strcmp(bench->tasks.items[i].id, only_task) != 0) {
            gb_str_destroy(&r->report);
            continue;
        }
        if (r->report.len) fputs(r->report.data, stdout);
        tasks++;
        with_sites += r->sites > 0;
        sites += r->sites;
        applied += r->applied;
        rejected += r->rejected;
        passed += r->passed;
        failed += r->failed;
        skipped += r->skipped;
        if (!o.all_sites && r->variants.len == 0) {
            GbTask copy;
            gb_task_copy(&copy, &bench->tasks.items[i]);
            gb_array_push(&out->tasks, copy);
        }
        for (size_t k = 0; k < r->variants.len; k++) gb_array_push(&out->tasks, r->variants.items[k]);
        gb_array_free(&r->variants);
        gb_str_destroy(&r->report);
    }
    printf("%s (%s): %ld tasks, %ld with sites, %ld sites", o.op->name, o.op->code, tasks, with_sites, sites);
    if (!o.list_only) {
        printf("; applied %ld, rejected %ld", applied, rejected);
        if (o.tests) printf("; tests passing %ld, failing %ld", passed, failed);
        if (skipped) printf("; %ld tasks skipped", skipped);
    }
    printf("\n");
    return !(failed || rejected || skipped);
}

/* The command line, before it becomes GbTransformOpts. */
typedef struct {
    const char *op, *task, *output, *python, *llm_url, *llm_model;
    long seed, site, jobs;
    double timeout;
    bool list_sites, all_sites, no_tests, no_diff, names, no_equiv;
} GbTransformArgs;

#define O GbTransformArgs
static const GbCliOption gb_transform__options[] = {
    GB_CLI_STRING("op", 0, O, op, "NAME", NULL,
                  "operator: name, snake_case name or code (AddNestedFor, add_nested_for, S1)"),
    GB_CLI_LONG("seed", 0, O, seed, "S", 0, 0x7fffffffL, "1",
                "rng seed; the site and the operator's choices derive from it"),
    GB_CLI_LONG("site", 0, O, site, "K", 0, 1000000000L, NULL,
                "apply at site K (0-based, in --list-sites order) instead of a random one"),
    GB_CLI_FLAG("list-sites", 0, O, list_sites, "only list the sites of every task"),
    GB_CLI_FLAG("all-sites", 0, O, all_sites,
                "apply at every site, one at a time (robustness run): sites found, applied,\n"
                "tests still passing; diffs are shown for failures only"),
    GB_CLI_STRING("task", 0, O, task, "ID", NULL, "only this task"),
    GB_CLI_FLAG("no-tests", 0, O, no_tests, "do not run the tests (results are still re-parsed)"),
    GB_CLI_FLAG("no-equiv", 0, O, no_equiv,
                "no equivalence check (by default a result that passes the tests must also agree\n"
                "with the original on inputs derived from them, as evolve's equiv gate checks;\n"
                "a result that does not counts as failing)"),
    GB_CLI_FLAG("no-diff", 0, O, no_diff, "do not print diffs"),
    GB_CLI_STRING("output", 'o', O, output, "OUT", NULL,
                  "write the transformed benchmark: tasks whose transformation failed its tests\n"
                  "keep their original program; with --all-sites every passing variant, id \"ID#K\";\n"
                  "OUT may not be BENCH.jsonl"),
    GB_CLI_STRING("python", 0, O, python, "PATH", GB_DEFAULT_PYTHON, "interpreter that runs the tests"),
    GB_CLI_LONG("jobs", 0, O, jobs, "N", 1, 256, NULL, "test workers (default: number of CPUs)"),
    GB_CLI_DOUBLE("timeout", 0, O, timeout, "S", 0.1, 86400, "10", "wall-clock limit per test run in seconds"),
    GB_CLI_FLAG("names", 0, O, names,
                "give the synthetic identifiers natural names (built-in vocabulary), kept\n"
                "only when the tests still pass"),
    GB_CLI_STRING("llm-url", 0, O, llm_url, "URL", NULL,
                  "natural names from an OpenAI-compatible server (URL/v1/chat/completions;\n"
                  "key from GENEBENCH_API_KEY); implies --names; falls back to built-in names"),
    GB_CLI_STRING("llm-model", 0, O, llm_model, "M", NULL, "model name sent to that server (default \"default\")"),
    GB_CLI_END,
};
#undef O

static const GbCliExit gb_transform__exits[] = {
    {0, "every applied transformation passed its tests"},
    {1, "one failed or was rejected, a task was skipped (it does not parse or its original fails its\n"
        "       tests), --task names no task, the input had bad lines, or the output could not be written"},
    {2, "usage error (bad option or value, unknown operator, the output is the input)"},
    {0, NULL},
};

static const GbCliCommand gb_transform__cmd = {
    .name = "transform",
    .synopsis = "BENCH.jsonl --op NAME [options]",
    .about = "  Apply one operator to every task, run the tests, print the unified diff per task and a summary.\n",
    .options = gb_transform__options,
    .min_args = 1,
    .max_args = 1,
    .exits = gb_transform__exits,
};

int gb_cmd_transform(int argc, char **argv)
{
    GbTransformArgs a = {.site = -1};
    GbCliArgs args;
    int prc = gb_cli_parse(&gb_transform__cmd, argc, argv, &a, &args);
    if (prc != GB_CLI_CONTINUE) return prc;
    if (!a.op) {
        fprintf(stderr, "genebench transform: --op NAME is required\n");
        gb_cli_usage(&gb_transform__cmd, stderr);
        return GB_EXIT_USAGE;
    }
    GbTransformOpts o = {
        NULL, (unsigned long)a.seed, a.site, a.list_sites, a.all_sites, !a.no_tests, !a.no_diff, NULL, NULL, false,
        {0}};
    const char *op_name = a.op, *output = a.output, *only_task = a.task;
    GbNamingConfig naming;
    gb_naming_config_default(&naming);
    if (a.llm_url) naming.url = a.llm_url;
    if (a.llm_model) naming.model = a.llm_model;
    bool names = a.names || a.llm_url;
    o.op = gb_operator_find(op_name);
    if (!o.op) {
        fprintf(stderr, "genebench transform: unknown operator '%s'\n", op_name);
        return GB_EXIT_USAGE;
    }
    if (o.all_sites && o.site >= 0) {
        fprintf(stderr, "genebench transform: --site and --all-sites exclude each other\n");
        return GB_EXIT_USAGE;
    }
    if (o.list_only) o.tests = false;
    o.equiv = o.tests && !a.no_equiv;
    gb_equiv_config_defaults(&o.ecfg);
    o.ecfg.seed = (uint64_t)a.seed;
    if (names) {
        naming.api_key = getenv("GENEBENCH_API_KEY");
        o.naming = &naming;
    }
    const char *bench_path = args.items[0];
    if (!o.list_only && gb_cli_refuse_output("transform", output, &bench_path, 1)) return GB_EXIT_USAGE;

    GbBench bench;
    gb_bench_init(&bench);
    size_t bad = 0;
    if (!gb_cli_read_bench(bench_path, &bench, NULL, &bad)) {
        gb_bench_destroy(&bench);
        return GB_EXIT_FAIL;
    }
    bool input_problems = bad > 0;

    if (o.tests) {
        GbPoolConfig cfg;
        gb_pool_config_defaults(&cfg);
        cfg.python = a.python;
        cfg.workers = (int)a.jobs;
        cfg.timeout_s = a.timeout;
        o.pool = gb_cli_pool_new("transform", &cfg);
        if (!o.pool) {
            gb_bench_destroy(&bench);
            return GB_EXIT_FAIL;
        }
    }

    size_t n = bench.tasks.len;
    bool found_task = only_task == NULL;
    for (size_t i = 0; i < n; i++)
        if (only_task && strcmp(bench.tasks.items[i].id, only_task) == 0) found_task = true;
    if (!found_task) fprintf(stderr, "genebench transform: no task '%s' in %s\n", only_task, bench_path);
    GbTransformResult *res = gb_calloc(n ? n : 1, sizeof *res);
    for (size_t i = 0; i < n; i++) gb_str_init(&res[i].report);
    gb_transform__run(&o, &bench, only_task, res);
    GbBench out;
    gb_bench_init(&out);
    bool all_passed = gb_transform__collect(&o, &bench, only_task, res, &out);
    free(res);

    int rc = GB_EXIT_OK;
    if (output && !o.list_only) {
        GbError err = {{0}};
        if (!gb_bench_write(output, &out, &err)) {
            fprintf(stderr, "genebench transform: %s\n", err.msg);
            rc = GB_EXIT_FAIL;
        }
    }
    if (!all_passed || input_problems || !found_task) rc = GB_EXIT_FAIL;
    gb_bench_destroy(&out);
    gb_pool_delete(o.pool);
    gb_bench_destroy(&bench);
    return rc;
}
