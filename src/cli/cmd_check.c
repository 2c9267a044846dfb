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

static void gb_check__usage(FILE *out)
{
    fprintf(out,
            "usage: genebench check BENCH.jsonl [--python PATH] [-j N] [--timeout S] [--stderr-fails] [--lint]\n"
            "                       [--sandbox MODE] [--json]\n"
            "  Run every task's tests against its program (source + extra files) in the sandboxed pool of warm\n"
            "  Python workers and report pass/fail per task, with the failing test and exception, and a summary.\n"
            "\n"
            "options:\n"
            "  --python PATH      interpreter that runs the programs (default %s; never the python3 on PATH)\n"
            "  -j, --jobs N       worker processes and parallel tasks (default: number of CPUs)\n"
            "  --timeout S        wall-clock limit per run in seconds (default 10; also the CPU limit)\n"
            "  --stderr-fails     any output on stderr fails a task (as the published GeneBench tool does)\n"
            "  --lint             also print each program's pylint score (0-10)\n"
            "  --sandbox MODE     auto (default), namespaces, userns or plain; see the README\n"
            "  --json             one JSON object per task, then a summary object, instead of text\n"
            "  -h, --help         show this help\n"
            "\n"
            "Exit status: 0 every task passed, 1 some task failed or was bad, 2 usage error.\n",
            GB_DEFAULT_PYTHON);
}

static void gb_check__json_str(FILE *out, const char *s)
{
    if (!s) {
        fputs("null", out);
        return;
    }
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"':
            fputs("\\\"", out);
            break;
        case '\\':
            fputs("\\\\", out);
            break;
        case '\n':
            fputs("\\n", out);
            break;
        case '\r':
            fputs("\\r", out);
            break;
        case '\t':
            fputs("\\t", out);
            break;
        default:
            if (*p < 0x20)
                fprintf(out, "\\u%04x", *p);
            else
                fputc(*p, out);
        }
    }
    fputc('"', out);
}

/* One line of text for a result; the exception message is cut to keep lines readable. */
static void gb_check__print_text(const GbTask *t, const GbRunResult *r, bool lint, double score, const char *lint_err)
{
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
    printf("\n");
}

static void gb_check__print_json(const GbTask *t, const GbRunResult *r, bool lint, double score, const char *lint_err)
{
    printf("{\"id\":");
    gb_check__json_str(stdout, t->id);
    printf(",\"kind\":\"%s\",\"status\":\"%s\",\"failed_test\":", gb_test_kind_name(t->kind),
           gb_run_status_name(r->status));
    gb_check__json_str(stdout, r->failed_test);
    printf(",\"failed_tests\":[");
    for (size_t i = 0; i < r->failed_tests.len; i++) {
        if (i) putchar(',');
        gb_check__json_str(stdout, r->failed_tests.items[i]);
    }
    printf("],\"exc_type\":");
    gb_check__json_str(stdout, r->exc_type);
    printf(",\"exc_message\":");
    gb_check__json_str(stdout, r->exc_message);
    printf(",\"signal\":%d,\"tests_run\":%d,\"wall_s\":%.4f,\"peak_rss_kb\":%ld,\"stdout\":", r->signal, r->tests_run,
           r->wall_s, r->peak_rss_kb);
    gb_check__json_str(stdout, r->out);
    printf(",\"stderr\":");
    gb_check__json_str(stdout, r->err);
    if (lint) {
        if (lint_err) {
            printf(",\"pylint\":null,\"pylint_error\":");
            gb_check__json_str(stdout, lint_err);
        } else {
            printf(",\"pylint\":%.4f", score);
        }
    }
    printf("}\n");
}

/* Ctrl-C / SIGTERM: a thread waits for the signal (blocked everywhere else) and stops the
 * pool; the runs in progress end at once and the command reports what it has. */
typedef struct {
    GbPool *pool;
    int signo;
} GbCheckSignals;

static void *gb_check__signal_thread(void *arg)
{
    GbCheckSignals *s = arg;
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGUSR2);
    int sig = 0;
    if (sigwait(&set, &sig) == 0 && sig != SIGUSR2) {
        s->signo = sig;
        gb_pool_interrupt(s->pool);
    }
    return NULL;
}

int gb_cmd_check(int argc, char **argv)
{
    enum { OPT_PYTHON = 256, OPT_TIMEOUT, OPT_STDERR, OPT_LINT, OPT_JSON, OPT_SANDBOX };
    static const struct option opts[] = {{"python", required_argument, NULL, OPT_PYTHON},
                                         {"jobs", required_argument, NULL, 'j'},
                                         {"timeout", required_argument, NULL, OPT_TIMEOUT},
                                         {"stderr-fails", no_argument, NULL, OPT_STDERR},
                                         {"lint", no_argument, NULL, OPT_LINT},
                                         {"sandbox", required_argument, NULL, OPT_SANDBOX},
                                         {"json", no_argument, NULL, OPT_JSON},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    GbPoolConfig cfg;
    gb_pool_config_defaults(&cfg);
    bool json = false;
    long jobs = 0;
    double timeout = 0;
    optind = 0;
    int c;
    while ((c = getopt_long(argc, argv, "j:h", opts, NULL)) != -1) {
        switch (c) {
        case OPT_PYTHON:
            cfg.python = optarg;
            break;
        case 'j':
            if (!gb_cli_parse_long("--jobs", optarg, 1, 1024, &jobs)) return GB_EXIT_USAGE;
            break;
        case OPT_TIMEOUT:
            if (!gb_cli_parse_double("--timeout", optarg, 0.1, 86400, &timeout)) return GB_EXIT_USAGE;
            break;
        case OPT_STDERR:
            cfg.stderr_fails = true;
            break;
        case OPT_LINT:
            cfg.lint = true;
            break;
        case OPT_JSON:
            json = true;
            break;
        case OPT_SANDBOX: {
            int mode = -1;
            for (int m = GB_SANDBOX_AUTO; m <= GB_SANDBOX_PLAIN; m++)
                if (strcmp(optarg, gb_sandbox_mode_name((GbSandboxMode)m)) == 0) mode = m;
            if (mode < 0) {
                fprintf(stderr, "genebench check: --sandbox must be auto, namespaces, userns or plain, not '%s'\n",
                        optarg);
                return GB_EXIT_USAGE;
            }
            cfg.sandbox = mode;
            break;
        }
        case 'h':
            gb_check__usage(stdout);
            return GB_EXIT_OK;
        default:
            gb_check__usage(stderr);
            return GB_EXIT_USAGE;
        }
    }
    if (optind != argc - 1) {
        fprintf(stderr, "genebench check: need exactly one BENCH.jsonl\n");
        gb_check__usage(stderr);
        return GB_EXIT_USAGE;
    }
    if (jobs > 0) cfg.workers = (int)jobs;
    if (timeout > 0) {
        cfg.timeout_s = timeout;
        cfg.cpu_s = timeout;
    }
    const char *input = argv[optind];
    GbBench bench;
    gb_bench_init(&bench);
    GbDiag diag;
    gb_diag_init(&diag);
    bool readable = gb_bench_read(input, &bench, &diag);
    for (size_t i = 0; i < diag.messages.len; i++) fprintf(stderr, "%s\n", diag.messages.items[i]);
    size_t bad = diag.messages.len;
    gb_diag_destroy(&diag);
    if (!readable || bench.tasks.len == 0) {
        gb_bench_destroy(&bench);
        return GB_EXIT_FAIL;
    }

    /* Block the signals before any thread exists, so only the signal thread takes them. */
    sigset_t set, old;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGUSR2);
    pthread_sigmask(SIG_BLOCK, &set, &old);

    GbError err = {{0}};
    double t0 = gb_now();
    char *warm = cfg.lint ? gb_api_warm_program() : NULL;
    cfg.lint_warm = warm;
    GbPool *pool = gb_pool_new(&cfg, &err);
    free(warm);
    cfg.lint_warm = NULL;
    if (!pool) {
        fprintf(stderr, "genebench check: %s\n", err.msg);
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        gb_bench_destroy(&bench);
        return GB_EXIT_FAIL;
    }
    double t_started = gb_now();
    GbCheckSignals sig = {pool, 0};
    pthread_t sig_thread;
    bool have_sig_thread = pthread_create(&sig_thread, NULL, gb_check__signal_thread, &sig) == 0;

    size_t n = bench.tasks.len;
    GbRunResult *results = gb_calloc(n, sizeof *results);
    bool *oks = gb_calloc(n, sizeof *oks);
    double *scores = gb_calloc(n, sizeof *scores);
    char **lint_errs = gb_calloc(n, sizeof *lint_errs);
    char **run_errs = gb_calloc(n, sizeof *run_errs);
    int threads = cfg.workers > 0 ? cfg.workers : (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (threads < 1) threads = 1;
    bool lint = cfg.lint;
    GbBench *b = &bench;
#pragma omp parallel for num_threads(threads) schedule(dynamic) default(none)                                          \
    shared(b, pool, results, oks, scores, lint_errs, run_errs, lint, n)
    for (size_t i = 0; i < n; i++) {
        GbError e = {{0}};
        oks[i] = gb_pool_run(pool, &b->tasks.items[i], NULL, &results[i], &e);
        if (!oks[i]) run_errs[i] = gb_strdup(e.msg);
        if (lint && oks[i]) {
            GbProgram prog;
            gb_program_from_task(&prog, &b->tasks.items[i]);
            GbError le = {{0}};
            if (!gb_pool_lint(pool, &prog, &scores[i], &le)) lint_errs[i] = gb_strdup(le.msg);
            gb_program_destroy(&prog);
        }
    }
    double t_done = gb_now();

    size_t count[5] = {0, 0, 0, 0, 0};
    for (size_t i = 0; i < n; i++) {
        const GbTask *t = &bench.tasks.items[i];
        GbRunResult *r = &results[i];
        if (!oks[i] && run_errs[i] && !r->exc_message) r->exc_message = gb_strdup(run_errs[i]);
        count[r->status]++;
        if (json)
            gb_check__print_json(t, r, lint, scores[i], lint_errs[i]);
        else
            gb_check__print_text(t, r, lint, scores[i], lint_errs[i]);
    }
    double secs = t_done - t_started;
    if (json) {
        printf("{\"summary\":{\"file\":");
        gb_check__json_str(stdout, input);
        printf(",\"tasks\":%zu,\"passed\":%zu,\"failed\":%zu,\"timeout\":%zu,\"crash\":%zu,\"error\":%zu,"
               "\"bad_lines\":%zu,\"sandbox\":\"%s\",\"python\":",
               n, count[GB_RUN_PASS], count[GB_RUN_FAIL], count[GB_RUN_TIMEOUT], count[GB_RUN_CRASH],
               count[GB_RUN_ERROR], bad, gb_pool_sandbox(pool));
        gb_check__json_str(stdout, cfg.python);
        printf(",\"python_version\":\"%s\",\"workers\":%d,\"start_s\":%.3f,\"run_s\":%.3f,\"remap\":",
               gb_pool_python_version(pool), threads, t_started - t0, secs);
        gb_check__json_str(stdout, gb_pool_remap(pool));
        printf("}}\n");
    } else {
        printf("%s: %zu tasks, %zu passed, %zu failed", input, n, count[GB_RUN_PASS], n - count[GB_RUN_PASS]);
        if (n - count[GB_RUN_PASS])
            printf(" (fail %zu, timeout %zu, crash %zu, error %zu)", count[GB_RUN_FAIL], count[GB_RUN_TIMEOUT],
                   count[GB_RUN_CRASH], count[GB_RUN_ERROR]);
        if (bad) printf(", %zu bad lines", bad);
        printf("\n  sandbox %s, python %s (%s), %d workers: started in %.2fs, ran in %.2fs\n", gb_pool_sandbox(pool),
               cfg.python, gb_pool_python_version(pool), threads, t_started - t0, secs);
        printf("  workers: %s\n", gb_pool_remap(pool));
    }
    fflush(stdout);
    if (have_sig_thread) {
        pthread_kill(sig_thread, SIGUSR2);
        pthread_join(sig_thread, NULL);
    }
    gb_pool_delete(pool);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    int rc = count[GB_RUN_PASS] == n && bad == 0 ? GB_EXIT_OK : GB_EXIT_FAIL;
    if (sig.signo) {
        fprintf(stderr, "genebench check: interrupted by signal %d\n", sig.signo);
        rc = 128 + sig.signo;
    }
    for (size_t i = 0; i < n; i++) {
        gb_run_result_destroy(&results[i]);
        free(lint_errs[i]);
        free(run_errs[i]);
    }
    free(results);
    free(oks);
    free(scores);
    free(lint_errs);
    free(run_errs);
    gb_bench_destroy(&bench);
    return rc;
}
