/* genebench metrics: the raw metrics (fitness/metric_list.h), RC and RR of every task of a benchmark. */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fitness/fitness.h"
#include "src/cli/cli.h"
#include "src/cli/commands.h"
#include "src/doc/metrics.h"
#include "src/model/program.h"
#include "src/python/pyparse.h"
#include "src/bench/task_io.h"

/* Short column names of the table, in metric order. */
static const char *const gb_metrics__short[GB_METRIC_COUNT] = {
#define GB_METRIC(id, key, kind, short, label) short,
    GB_METRIC_LIST
#undef GB_METRIC
};

static void gb_metrics__row(const char *id, const double *v, double rc, double rr, int exceeds)
{
    printf("%-24.24s", id);
    for (int i = 0; i < GB_METRIC_COUNT; i++) {
        if (i == GB_METRIC_R14 || (v[i] != floor(v[i])))
            printf(" %6.2f", v[i]);
        else
            printf(" %6.0f", v[i]);
    }
    printf(" %6.4f %6.4f", rc, rr);
    if (exceeds >= 0) printf("  >%s", gb_metric_key((GbMetricId)(GB_N_COMPLEXITY + exceeds)));
    printf("\n");
}

typedef struct {
    bool ok;
    GbMetrics m;
    char *error; /* owned */
} GbMetricsResult;

typedef struct {
    const char *thresholds;
    bool table;
    long threads;
} GbMetricsCmdOptions;

#define O GbMetricsCmdOptions
static const GbCliOption gb_metrics__options[] = {
    GB_CLI_STRING("thresholds", 't', O, thresholds, "FILE", NULL,
                  "thresholds file (corpora/NAME.json) or a built-in: paper, calibrated\n"
                  "(default: calibrated, embedded from corpora/calibrated.json at build time)"),
    GB_CLI_FLAG("table", 0, O, table, "a readable table instead of JSON lines"),
    GB_CLI_LONG("threads", 'j', O, threads, "N", 1, 1024, NULL,
                "measure tasks with N threads (default: OpenMP's default)"),
    GB_CLI_END,
};
#undef O

static const GbCliExit gb_metrics__exits[] = {
    {0, "every task was measured"},
    {1, "some task could not be read or measured, or the thresholds could not be loaded"},
    {2, "usage error"},
    {0, NULL},
};

static const GbCliCommand gb_metrics__cmd = {
    .name = "metrics",
    .synopsis = "BENCH.jsonl [--thresholds FILE] [--table] [--threads N]",
    .about = "  Measure every task's program (its main module and extra files as a whole): complexity C1..C7,\n"
             "  readability R1..R14 (keys num_tokens ... entropy), RC and RR against the thresholds, and the\n"
             "  first readability metric that exceeds its threshold (the evolution rejects such programs).\n"
             "  Default output: one JSON object per task, then one summary object with the mean of every\n"
             "  metric over the measured tasks:\n"
             "    {\"id\": ..., \"metrics\": {\"C1\": v, ..., \"entropy\": v}, \"rc\": x, \"rr\": y, \"exceeds\": "
             "key|null}\n"
             "    {\"summary\": {\"tasks\": n, \"measured\": m, \"thresholds\": name, \"mean\": {..., \"rc\": x, "
             "\"rr\": y}}}\n"
             "  A task whose program does not parse is reported on stderr (FILE:LINE: task ID: MODULE:LINE:COL:\n"
             "  syntax error) and left out of the summary.\n",
    .options = gb_metrics__options,
    .min_args = 1,
    .max_args = 1,
    .args_error = "need exactly one BENCH.jsonl",
    .exits = gb_metrics__exits,
};

/* Measure every task with `threads` threads (0: OpenMP's default). */
static void gb_metrics__measure(const GbBench *bench, long threads, GbMetricsResult *res)
{
    long n = (long)bench->tasks.len;
    const GbTask *tasks = bench->tasks.items;
    int nt = threads > 0 ? (int)threads : omp_get_max_threads();
#pragma omp parallel num_threads(nt) default(none) shared(n, res, tasks)
    {
        TSParser *parser = gb_parser_new();
#pragma omp for schedule(dynamic, 1)
        for (long i = 0; i < n; i++) {
            GbProgram prog;
            gb_program_from_task(&prog, &tasks[i]);
            GbError e;
            res[i].ok = gb_metrics_compute(&prog, parser, &res[i].m, &e);
            if (!res[i].ok) res[i].error = gb_strdup(e.msg);
            gb_program_destroy(&prog);
        }
        ts_parser_delete(parser);
    }
}

/* Print every measured task (JSON lines or the table) and the means; a task that could not be
 * measured goes to stderr. Returns false when there was one. */
static bool gb_metrics__print(const char *input, const GbBench *bench, const GbMetricsResult *res,
                              const GbThresholds *thr, bool table)
{
    bool all = true;
    long n = (long)bench->tasks.len;
    const GbTask *tasks = bench->tasks.items;
    if (table) {
        printf("%-24s", "task");
        for (int i = 0; i < GB_METRIC_COUNT; i++) printf(" %6s", gb_metrics__short[i]);
        printf(" %6s %6s\n", "RC", "RR");
    }
    double sum[GB_METRIC_COUNT] = {0}, sum_rc = 0, sum_rr = 0;
    GbMetricsDoc doc = {.n_tasks = n, .thresholds = gb_strdup(thr->name)};
    for (long i = 0; i < n; i++) {
        const GbTask *t = &tasks[i];
        if (!res[i].ok) {
            fprintf(stderr, "%s:%zu: task %s: %s\n", input, t->line, t->id, res[i].error);
            all = false;
            continue;
        }
        double r = gb_fitness_rc(&res[i].m, thr), rr = gb_fitness_rr(&res[i].m, thr);
        int ex = gb_fitness_exceeds(&res[i].m, thr);
        for (int k = 0; k < GB_METRIC_COUNT; k++) sum[k] += res[i].m.v[k];
        sum_rc += r;
        sum_rr += rr;
        if (table) gb_metrics__row(t->id, res[i].m.v, r, rr, ex);
        GbMetricsDocTask dt = {.id = gb_strdup(t->id), .rc = r, .rr = rr, .exceeds = ex};
        memcpy(dt.metrics, res[i].m.v, sizeof dt.metrics);
        gb_array_push(&doc.tasks, dt);
    }
    long measured = (long)doc.tasks.len;
    if (measured) {
        for (int k = 0; k < GB_METRIC_COUNT; k++) doc.mean[k] = sum[k] / (double)measured;
        doc.mean_rc = sum_rc / (double)measured;
        doc.mean_rr = sum_rr / (double)measured;
    }
    if (table) {
        printf("%-24s", "");
        for (int i = 0; i < GB_METRIC_COUNT + 2; i++) printf(" %6s", "------");
        printf("\n");
        gb_metrics__row("mean", doc.mean, doc.mean_rc, doc.mean_rr, -1);
        printf("\n%ld of %ld tasks measured; thresholds %s\n", measured, n, thr->name);
        printf("keys: tok=num_tokens loc=lines_of_code cond=num_conditions loop=num_loops asgn=num_assignments\n"
               "      nloop=num_max_nested_loop nif=num_max_nested_if cif=num_max_conditions_in_if\n"
               "      ltok=max_line_tokens var=num_of_variables arr=num_of_arrays op=num_of_operators\n"
               "      cast=num_of_nested_casting ent=entropy; >KEY: first readability metric above its threshold\n");
    } else {
        GbStr lines;
        gb_str_init(&lines);
        gb_metrics_doc_write(&lines, &doc);
        fputs(lines.data, stdout);
        gb_str_destroy(&lines);
    }
    gb_metrics_doc_destroy(&doc);
    return all;
}

int gb_cmd_metrics(int argc, char **argv)
{
    GbMetricsCmdOptions o = {0};
    GbCliArgs args;
    int prc = gb_cli_parse(&gb_metrics__cmd, argc, argv, &o, &args);
    if (prc != GB_CLI_CONTINUE) return prc;
    const char *thr_path = o.thresholds;
    const bool table = o.table;
    const long threads = o.threads;
    const char *input = args.items[0];
    GbThresholds thr;
    GbError err;
    if (!thr_path) thr_path = gb_thresholds_default_path();
    if (!gb_thresholds_load(thr_path, &thr, &err)) {
        fprintf(stderr, "genebench metrics: %s\n", err.msg);
        return GB_EXIT_FAIL;
    }
    GbBench bench;
    gb_bench_init(&bench);
    size_t bad = 0;
    bool readable = gb_cli_read_bench(input, &bench, NULL, &bad);
    int rc = bad ? GB_EXIT_FAIL : GB_EXIT_OK;
    if (!readable) {
        gb_bench_destroy(&bench);
        gb_thresholds_destroy(&thr);
        return GB_EXIT_FAIL;
    }

    long n = (long)bench.tasks.len;
    GbMetricsResult *res = gb_calloc(n ? (size_t)n : 1, sizeof *res);
    gb_metrics__measure(&bench, threads, res);
    if (!gb_metrics__print(input, &bench, res, &thr, table)) rc = GB_EXIT_FAIL;
    for (long i = 0; i < n; i++) free(res[i].error);
    free(res);
    gb_bench_destroy(&bench);
    gb_thresholds_destroy(&thr);
    return rc;
}
