/* genebench check: run every task's tests against its current program in the sandboxed
 * worker pool (src/runner/runner.h) and report pass/fail per task and a summary. */
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gb_config.h"
#include "operators/api_call.h"
#include "src/cli/cli.h"
#include "src/cli/commands.h"
#include "src/runner/runner.h"
#include "src/runner/sandbox.h"
#include "src/bench/task_io.h"
#include "src/doc/check.h"

/* The result of one task. */
typedef struct {
    GbRunResult r;
    bool ok;        /* the run itself worked (a failing test is still ok) */
    double score;   /* pylint, with --lint */
    char *lint_err; /* owned, NULL: none */
    char *apart;    /* owned, NULL: none; how the program failed judged apart, when it passed together */
} GbCheckResult;

/* One line of text for a result; the exception message is cut to keep lines readable. */
static void gb_check__print_text(const GbTask *t, const GbCheckResult *x, bool lint)
{
    const GbRunResult *r = &x->r;
    double score = x->score;
    const char *lint_err = x->lint_err;
    const char *tag = r->status == GB_RUN_PASS      ? "PASS"
                      : r->status == GB_RUN_FAIL    ? "FAIL"
                      : r->status == GB_RUN_TIMEOUT ? "TIMEOUT"
                      : r->status == GB_RUN_CRASH   ? "CRASH"
                                                    : "ERROR";
    printf("%-7s %s", tag, t->id);
    if (t->kind == GB_TESTS_UNITTEST || t->kind == GB_TESTS_STDIO)
        printf(" (%d %s)", r->tests_run, t->kind == GB_TESTS_STDIO ? "cases" : "tests");
    printf(" %.2fs", r->wall_s);
    if (lint) {
        if (lint_err)
            printf(" pylint error: %s", lint_err);
        else
            printf(" pylint %.2f", score);
    }
    if (r->status != GB_RUN_PASS) {
        if (r->failed_test) printf(": %s", r->failed_test);
        if (r->exc_type || r->exc_message) {
            const char *msg = r->exc_message ? r->exc_message : "";
            int n = (int)strcspn(msg, "\n");
            if (n > 300) n = 300;
            printf(" -- %s%s%.*s", r->exc_type ? r->exc_type : "", r->exc_type && *msg ? ": " : "", n, msg);
        }
        if (r->failed_tests.len > 1) printf(" [%zu failing]", r->failed_tests.len);
    }
    if (x->apart) printf(" (tests run in the program's process; judged apart: %s)", x->apart);
    printf("\n");
}

static void gb_check__print_json(const GbTask *t, const GbCheckResult *x, bool lint)
{
    const GbRunResult *r = &x->r;
    GbCheckDocTask d = {.id = t->id,
                        .kind = gb_test_kind_name(t->kind),
                        .status = gb_run_status_name(r->status),
                        .failed_test = r->failed_test,
                        .exc_type = r->exc_type,
                        .exc_message = r->exc_message,
                        .signal = r->signal,
                        .tests_run = r->tests_run,
                        .wall_s = r->wall_s,
                        .peak_rss_kb = r->peak_rss_kb,
                        .out = r->out,
                        .err = r->err,
                        .lint = lint,
                        .pylint = x->score,
                        .pylint_error = x->lint_err,
                        .apart_failure = x->apart};
    d.failed_tests.items = (const char **)r->failed_tests.items;
    d.failed_tests.len = r->failed_tests.len;
    GbStr line;
    gb_str_init(&line);
    gb_check_doc_write_task(&line, &d);
    fwrite(line.data, 1, line.len, stdout);
    gb_str_destroy(&line);
}

typedef struct {
    const char *python;
    long jobs;
    double timeout;
    bool stderr_fails, lint, json;
    int sandbox;
    int judge; /* GbCheckJudge */
} GbCheckOptions;

/* Where a task's tests run (--judge), in gb_check__judges order. */
typedef enum { GB_CHECK_JUDGE_AUTO, GB_CHECK_JUDGE_APART, GB_CHECK_JUDGE_TOGETHER } GbCheckJudge;
static const char *const gb_check__judges[] = {"auto", "apart", "together", NULL};

/* In GbSandboxMode order. */
static const char *const gb_check__sandboxes[] = {"auto", "namespaces", "userns", "plain", NULL};

#define O GbCheckOptions
static const GbCliOption gb_check__options[] = {
    GB_CLI_STRING("python", 0, O, python, "PATH", GB_DEFAULT_PYTHON,
                  "interpreter that runs the programs (never the python3 on PATH)"),
    GB_CLI_LONG("jobs", 'j', O, jobs, "N", 1, 1024, NULL,
                "worker processes and parallel tasks (default: number of CPUs)"),
    GB_CLI_DOUBLE("timeout", 0, O, timeout, "S", 0.1, 86400, "10",
                  "wall-clock limit per run in seconds (also the CPU limit)"),
    GB_CLI_FLAG("stderr-fails", 0, O, stderr_fails,
                "any output on stderr fails a task (as the published GeneBench tool does)"),
    GB_CLI_FLAG("lint", 0, O, lint, "also print each program's pylint score (0-10)"),
    GB_CLI_ENUM("sandbox", 0, O, sandbox, "MODE", gb_check__sandboxes, "auto",
                "auto, namespaces, userns or plain; see src/runner/README.md"),
    GB_CLI_ENUM("judge", 0, O, judge, "MODE", gb_check__judges, "auto",
                "where the tests run: apart from the program (a judge it cannot reach), together with it "
                "(under the seal, as evolve), or auto: apart, and together for a task whose program passes "
                "only so (its tests do not split); use apart for programs you do not trust"),
    GB_CLI_FLAG("json", 0, O, json, "one JSON object per task, then a summary object, instead of text"),
    GB_CLI_END,
};
#undef O

static const GbCliExit gb_check__exits[] = {
    {0, "every task passed"},
    {1, "some task failed, or the file is empty, unreadable or had bad lines, or the pool did not start"},
    {2, "usage error"},
    {130, "interrupted by Ctrl-C (128 + the signal: 143 for SIGTERM); the results so far are printed"},
    {0, NULL},
};

static const GbCliCommand gb_check__cmd = {
    .name = "check",
    .synopsis = "BENCH.jsonl [--python PATH] [-j N] [--timeout S] [--stderr-fails] [--lint]\n"
                "                       [--sandbox MODE] [--judge MODE] [--json]",
    .about = "  Run every task's tests against its program (source + extra files) in the sandboxed pool of warm\n"
             "  Python workers and report pass/fail per task, with the failing test and exception, and a summary.\n",
    .options = gb_check__options,
    .min_args = 1,
    .max_args = 1,
    .args_error = "need exactly one BENCH.jsonl",
    .exits = gb_check__exits,
};


/* "EXC: MESSAGE (in TEST)" of a failed run, on one line (owned). */
static char *gb_check__failure_text(const GbRunResult *r)
{
    const char *msg = r->exc_message ? r->exc_message : "";
    int n = (int)strcspn(msg, "\n");
    if (n > 300) n = 300;
    GbStr s;
    gb_str_init(&s);
    gb_str_appendf(&s, "%s%s%.*s", r->exc_type ? r->exc_type : gb_run_status_name(r->status),
                   *msg ? ": " : "", n, msg);
    if (r->failed_test) gb_str_appendf(&s, " (in %.200s)", r->failed_test);
    return gb_str_take(&s);
}

/* A task whose program fails with its tests judged apart is run again with them in its own
 * process, under the seal: when that passes, its tests do not split (they hand the program
 * objects that do not cross, or change its objects' state through what it returned), and the
 * task passes with the judged failure kept in x->apart. Answers to such a task are judged the
 * second way (eval sets GbTask.tests_together the same way). */
static void gb_check__together(GbPool *pool, const GbTask *task, GbCheckResult *x)
{
    if (!x->ok || x->r.status == GB_RUN_PASS || x->r.status == GB_RUN_ERROR || !gb_pool_judges_apart(pool, task))
        return;
    GbTask again;
    gb_task_copy(&again, task);
    again.tests_together = true;
    GbRunResult r2;
    GbError e = {{0}};
    if (gb_pool_run(pool, &again, NULL, &r2, &e) && r2.status == GB_RUN_PASS) {
        x->apart = gb_check__failure_text(&x->r);
        gb_run_result_destroy(&x->r);
        x->r = r2;
    } else {
        gb_run_result_destroy(&r2);
    }
    gb_task_destroy(&again);
}

/* Run every task's tests (and pylint) with `threads` tasks in parallel. */
static void gb_check__run(GbPool *pool, const GbBench *b, int threads, bool lint, bool fallback, GbCheckResult *res)
{
    size_t n = b->tasks.len;
#pragma omp parallel for num_threads(threads) schedule(dynamic) default(none) shared(b, pool, res, lint, n, fallback)
    for (size_t i = 0; i < n; i++) {
        GbError e = {{0}};
        GbCheckResult *x = &res[i];
        x->ok = gb_pool_run(pool, &b->tasks.items[i], NULL, &x->r, &e);
        if (!x->ok && !x->r.exc_message) x->r.exc_message = gb_strdup(e.msg);
        if (fallback) gb_check__together(pool, &b->tasks.items[i], x);
        if (lint && x->ok) {
            GbProgram prog;
            gb_program_from_task(&prog, &b->tasks.items[i]);
            GbError le = {{0}};
            if (!gb_pool_lint(pool, &prog, &x->score, &le)) x->lint_err = gb_strdup(le.msg);
            gb_program_destroy(&prog);
        }
    }
}

/* What the summary reports besides the results. */
typedef struct {
    const char *input, *python;
    size_t bad;
    int threads;
    double start_s, run_s;
} GbCheckFacts;

/* One line (or JSON object) per task, then the summary; counts[status] gets the tally. */
static void gb_check__report(const GbBench *b, const GbCheckResult *res, GbPool *pool, const GbCheckFacts *f, bool lint,
                             bool json, size_t *count)
{
    size_t n = b->tasks.len, together = 0;
    for (size_t i = 0; i < n; i++) {
        const GbCheckResult *x = &res[i];
        count[x->r.status]++;
        together += x->apart != NULL;
        if (json)
            gb_check__print_json(&b->tasks.items[i], x, lint);
        else
            gb_check__print_text(&b->tasks.items[i], x, lint);
    }
    if (json) {
        GbCheckDocSummary sum = {.file = f->input,
                                 .tasks = n,
                                 .passed = count[GB_RUN_PASS],
                                 .failed = count[GB_RUN_FAIL],
                                 .timeout = count[GB_RUN_TIMEOUT],
                                 .crash = count[GB_RUN_CRASH],
                                 .error = count[GB_RUN_ERROR],
                                 .bad_lines = f->bad,
                                 .sandbox = gb_pool_sandbox(pool),
                                 .python = f->python,
                                 .python_version = gb_pool_python_version(pool),
                                 .workers = f->threads,
                                 .start_s = f->start_s,
                                 .run_s = f->run_s,
                                 .remap = gb_pool_remap(pool),
                                 .together = together};
        GbStr line;
        gb_str_init(&line);
        gb_check_doc_write_summary(&line, &sum);
        fwrite(line.data, 1, line.len, stdout);
        gb_str_destroy(&line);
    } else {
        printf("%s: %zu tasks, %zu passed, %zu failed", f->input, n, count[GB_RUN_PASS], n - count[GB_RUN_PASS]);
        if (n - count[GB_RUN_PASS])
            printf(" (fail %zu, timeout %zu, crash %zu, error %zu)", count[GB_RUN_FAIL], count[GB_RUN_TIMEOUT],
                   count[GB_RUN_CRASH], count[GB_RUN_ERROR]);
        if (f->bad) printf(", %zu bad lines", f->bad);
        if (together)
            printf("; %zu passed only with their tests in the program's process (they do not split: "
                   "src/runner/README.md)",
                   together);
        printf("\n  sandbox %s, python %s (%s), %d workers: started in %.2fs, ran in %.2fs\n", gb_pool_sandbox(pool),
               f->python, gb_pool_python_version(pool), f->threads, f->start_s, f->run_s);
        printf("  workers: %s\n", gb_pool_remap(pool));
    }
    fflush(stdout);
}

int gb_cmd_check(int argc, char **argv)
{
    GbCheckOptions o = {0};
    GbCliArgs args;
    int prc = gb_cli_parse(&gb_check__cmd, argc, argv, &o, &args);
    if (prc != GB_CLI_CONTINUE) return prc;
    GbPoolConfig cfg;
    gb_pool_config_defaults(&cfg);
    cfg.python = o.python;
    cfg.stderr_fails = o.stderr_fails;
    cfg.lint = o.lint;
    cfg.sandbox = o.sandbox;
    const bool json = o.json;
    if (o.jobs > 0) cfg.workers = (int)o.jobs;
    cfg.timeout_s = o.timeout;
    cfg.cpu_s = o.timeout;
    const char *input = args.items[0];
    GbBench bench;
    gb_bench_init(&bench);
    size_t bad = 0;
    if (!gb_cli_read_bench(input, &bench, NULL, &bad) || bench.tasks.len == 0) {
        gb_bench_destroy(&bench);
        return GB_EXIT_FAIL;
    }

    /* No more workers than tasks: each one imports numpy, scipy and scikit-learn as it starts. */
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    long nw = cfg.workers > 0 ? cfg.workers : ncpu > 0 ? ncpu : 1;
    if ((size_t)nw > bench.tasks.len) cfg.workers = (int)bench.tasks.len;
    /* and only the import sets the tasks need (numpy, scipy and scikit-learn take seconds) */
    for (size_t i = 0; i < bench.tasks.len; i++) gb_pool_config_need(&cfg, &bench.tasks.items[i]);

    /* Block the signals before any thread exists, so only the signal thread takes them. */
    GbCliSignals sig;
    gb_cli_signals_start(&sig, NULL, NULL);
    double t0 = gb_now();
    char *warm = cfg.lint ? gb_api_warm_program() : NULL;
    cfg.lint_warm = warm;
    GbPool *pool = gb_cli_pool_new("check", &cfg);
    free(warm);
    cfg.lint_warm = NULL;
    if (!pool) {
        gb_cli_signals_stop(&sig);
        gb_bench_destroy(&bench);
        return GB_EXIT_FAIL;
    }
    double t_started = gb_now();
    sig.pool = pool;

    size_t n = bench.tasks.len;
    GbCheckResult *res = gb_calloc(n, sizeof *res);
    int threads = cfg.workers > 0 ? cfg.workers : (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (threads < 1) threads = 1;
    if (o.judge == GB_CHECK_JUDGE_TOGETHER)
        for (size_t i = 0; i < n; i++) bench.tasks.items[i].tests_together = true;
    gb_check__run(pool, &bench, threads, cfg.lint, o.judge == GB_CHECK_JUDGE_AUTO, res);
    GbCheckFacts facts = {input, cfg.python, bad, threads, t_started - t0, gb_now() - t_started};

    size_t count[5] = {0, 0, 0, 0, 0};
    gb_check__report(&bench, res, pool, &facts, cfg.lint, json, count);
    gb_cli_signals_stop(&sig);
    gb_pool_delete(pool);
    int rc = count[GB_RUN_PASS] == n && bad == 0 ? GB_EXIT_OK : GB_EXIT_FAIL;
    if (sig.signo) {
        fprintf(stderr, "genebench check: interrupted by signal %d\n", (int)sig.signo);
        rc = 128 + sig.signo;
    }
    for (size_t i = 0; i < n; i++) {
        gb_run_result_destroy(&res[i].r);
        free(res[i].lint_err);
        free(res[i].apart);
    }
    free(res);
    gb_bench_destroy(&bench);
    return rc;
}
