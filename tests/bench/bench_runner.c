/* Benchmark of the test runner (run with `meson test -C build --benchmark runner` or
 * directly: build/tests/bench_runner [POOL_RUNS [COLD_RUNS [all|none|numpy|full|empty [WORKERS]]]]).
 * Measures, side by side in one run, validations per second of a HumanEval-style task in three
 * kinds: a program that imports nothing (none), one that imports numpy only (numpy), one that
 * imports numpy, scipy and sklearn (full); "all" (the default) does the three, "empty" is
 * `pass` for program and tests (the runner's own cost). For each kind:
 *   - through the warm worker pool as genebench runs it: test workers in three import sets, a
 *     run forks from the smallest that has what its program imports (src/runner/tier.c);
 *   - through the old pool, every test worker with every library (GbPoolConfig.no_tiers);
 *   - through the import-set pool with the tests in the program's process, under the seal only
 *     (GbPoolConfig.tests_in_program), against the judge that genebench uses (harness_judge.py);
 *   - with a cold interpreter per run (GB_DEFAULT_PYTHON on a file holding program + tests,
 *     one per online CPU in flight at all times), which is what the published tool does.
 * The three pools run in alternating rounds (POOL_RUNS each per kind), so that a change in the
 * host's load falls on both. It prints the host (CPUs, load average, the cost of a plain
 * fork + exit + wait of the interpreter with nothing and with numpy, scipy.stats and
 * sklearn.utils imported), the ratios, CPU time per validation and the pools' per-run
 * overhead breakdown (gb_pool_stats). */
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gb_config.h"
#include "src/runner/runner.h"

extern char **environ;

/* The programs (written for this benchmark): one HumanEval-style problem in three kinds. */
typedef struct {
    const char *name;
    const char *what;
    const char *program;
} BenchKind;

static const BenchKind k_kinds[] = {
    {"none", "imports nothing",
     "def below_zero(operations):\n"
     "    \"\"\"True if the running balance of the operations ever drops below zero.\"\"\"\n"
     "    balance = 0\n"
     "    for op in operations:\n"
     "        balance += op\n"
     "        if balance < 0:\n"
     "            return True\n"
     "    return False\n"},
    {"numpy", "imports numpy",
     "import numpy as np\n"
     "\n"
     "\n"
     "def below_zero(operations):\n"
     "    \"\"\"True if the running balance of the operations ever drops below zero.\"\"\"\n"
     "    balance = np.cumsum([0] + list(operations))\n"
     "    return bool(balance.min() < 0)\n"},
    {"full", "imports numpy, scipy.stats and sklearn.utils",
     "import numpy as np\n"
     "import scipy.stats\n"
     "from sklearn.utils import check_scalar\n"
     "\n"
     "\n"
     "def below_zero(operations):\n"
     "    \"\"\"True if the running balance of the operations ever drops below zero.\"\"\"\n"
     "    check_scalar(len(operations), 'operations', int, min_val=0)\n"
     "    balance = np.cumsum([0] + list(operations))\n"
     "    return bool(balance.min() < 0)\n"},
    {"empty", "empty program and tests (the runner's own cost)", "pass\n"},
};

static const char *k_tests = "def check(candidate):\n"
                             "    assert candidate([]) is False\n"
                             "    assert candidate([1, 2, -3, 1, 2, -3]) is False\n"
                             "    assert candidate([1, 2, -4, 5, 6]) is True\n"
                             "    assert candidate([1, -1, 2, -2, 5, -5, 4, -4]) is False\n"
                             "    assert candidate([1, -2, 2, -2, 5, -5, 4, -5]) is True\n"
                             "\n"
                             "check(below_zero)\n";

/* CPU seconds (user + system) of a process and of its waited-for children, from /proc. */
static double proc_cpu(int pid)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    char *p = strrchr(buf, ')');
    unsigned long long ut = 0, st = 0, cut = 0, cst = 0;
    if (!p ||
        sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %llu %llu", &ut, &st, &cut, &cst) != 4)
        return 0;
    return (double)(ut + st + cut + cst) / (double)sysconf(_SC_CLK_TCK);
}

static double self_cpu(int who)
{
    struct rusage ru;
    getrusage(who, &ru);
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec +
           ru.ru_stime.tv_usec * 1e-6;
}

/* One cold validation: a fresh interpreter runs program + tests; pass = exit status 0. */
static pid_t spawn_cold(const char *python, const char *file)
{
    char *argv[] = {(char *)python, (char *)file, NULL};
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid = -1;
    if (posix_spawn(&pid, python, &fa, NULL, argv, environ) != 0) pid = -1;
    posix_spawn_file_actions_destroy(&fa);
    return pid;
}

/* Mean milliseconds of fork + _exit + waitpid of the interpreter with the modules imported
 * (python -c), or -1. */
static double plain_fork_ms(const char *imports)
{
    char *cmd = NULL;
    if (asprintf(&cmd,
                 "%s -c 'import os, time\n%s\nn = 300\nt = time.monotonic()\nfor _ in range(n):\n"
                 "    pid = os.fork()\n    if pid == 0:\n        os._exit(0)\n    os.waitpid(pid, 0)\n"
                 "print((time.monotonic() - t) / n * 1000)' 2>/dev/null",
                 GB_DEFAULT_PYTHON, imports) < 0)
        return -1;
    FILE *p = popen(cmd, "r");
    free(cmd);
    if (!p) return -1;
    double ms = -1;
    if (fscanf(p, "%lf", &ms) != 1) ms = -1;
    pclose(p);
    return ms;
}

typedef struct {
    GbPool *pool;
    int wpids[64];
    size_t nw;
    double start_s;
    char mode[64];
} BenchPool;

typedef struct {
    double wall_s, cpu_s, self_s;
    long runs, passed;
    GbPoolStats st; /* this kind's share of the pool's stats */
} BenchScore;

static bool bench_pool_start(BenchPool *b, int parallel, bool no_tiers, bool tests_in_program)
{
    memset(b, 0, sizeof *b);
    GbPoolConfig cfg;
    gb_pool_config_defaults(&cfg);
    cfg.workers = parallel;
    cfg.stderr_fails = true;
    cfg.no_tiers = no_tiers;
    cfg.tests_in_program = tests_in_program;
    GbError err = {{0}};
    double t0 = gb_now();
    b->pool = gb_pool_new(&cfg, &err);
    if (!b->pool) {
        fprintf(stderr, "bench_runner: %s\n", err.msg);
        return false;
    }
    b->start_s = gb_now() - t0;
    b->nw = gb_pool_worker_pids(b->pool, b->wpids, 64);
    snprintf(b->mode, sizeof b->mode, "%s", gb_pool_sandbox(b->pool));
    return true;
}

/* Warm-up: a few runs of the task per worker, not counted. */
static bool bench_pool_warm(BenchPool *b, const GbTask *task, int parallel)
{
    for (int i = 0; i < 2 * parallel; i++) {
        GbRunResult r;
        GbError err;
        gb_pool_run(b->pool, task, NULL, &r, &err);
        bool ok = r.status == GB_RUN_PASS;
        if (!ok) fprintf(stderr, "bench_runner: the benchmark task does not pass: %s %s\n", r.exc_type, r.exc_message);
        gb_run_result_destroy(&r);
        if (!ok) return false;
    }
    return true;
}

static void stats_add(GbPoolStats *into, const GbPoolStats *a, const GbPoolStats *b)
{
#define GB_D(f) into->f += a->f - b->f
    GB_D(runs);
    GB_D(prepare_s);
    GB_D(dispatch_s);
    GB_D(fork_s);
    GB_D(start_s);
    GB_D(run_s);
    GB_D(exit_s);
    GB_D(reap_s);
    GB_D(report_s);
    GB_D(teardown_s);
    GB_D(total_s);
    GB_D(child_faults);
    GB_D(worker_faults);
#undef GB_D
}

static void bench_pool_round(BenchPool *b, BenchScore *sc, const GbTask *task, long runs, int parallel)
{
    GbPool *pool = b->pool;
    GbPoolStats before, after;
    gb_pool_stats(pool, &before);
    double cpu0 = self_cpu(RUSAGE_SELF), self0 = cpu0;
    for (size_t i = 0; i < b->nw; i++) cpu0 += proc_cpu(b->wpids[i]);
    long passed = 0;
    double t1 = gb_now();
#pragma omp parallel for num_threads(parallel) schedule(dynamic) default(none) shared(pool, task, runs, parallel) \
    reduction(+ : passed)
    for (long i = 0; i < runs; i++) {
        GbRunResult r;
        GbError e;
        if (gb_pool_run(pool, task, NULL, &r, &e) && r.status == GB_RUN_PASS) passed++;
        gb_run_result_destroy(&r);
    }
    sc->wall_s += gb_now() - t1;
    double cpu1 = self_cpu(RUSAGE_SELF), self1 = cpu1;
    for (size_t i = 0; i < b->nw; i++) cpu1 += proc_cpu(b->wpids[i]);
    sc->cpu_s += cpu1 - cpu0;
    sc->self_s += self1 - self0;
    sc->runs += runs;
    sc->passed += passed;
    gb_pool_stats(pool, &after);
    stats_add(&sc->st, &after, &before);
}

/* Cold validations per second: a fresh interpreter per run, cold_parallel in flight. */
static double bench_cold(const GbTask *task, long cold_runs, int cold_parallel, long *passed, double *cpu_per)
{
    char dir[] = "/tmp/gb-bench-XXXXXX";
    if (!mkdtemp(dir)) return 0;
    char file[64];
    snprintf(file, sizeof file, "%s/prog.py", dir);
    FILE *f = fopen(file, "w");
    fprintf(f, "%s\n%s", task->source, task->test_code);
    fclose(f);
    *passed = 0;
    double ccpu0 = self_cpu(RUSAGE_CHILDREN);
    double t2 = gb_now();
    long started = 0, finished = 0;
    int running = 0;
    while (finished < cold_runs) {
        while (running < cold_parallel && started < cold_runs) {
            if (spawn_cold(GB_DEFAULT_PYTHON, file) > 0)
                running++;
            else
                finished++;
            started++;
        }
        int status = 1;
        if (wait(&status) < 0) break;
        running--;
        finished++;
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0) (*passed)++;
    }
    double cold_s = gb_now() - t2;
    *cpu_per = (self_cpu(RUSAGE_CHILDREN) - ccpu0) / (double)cold_runs;
    unlink(file);
    rmdir(dir);
    return (double)cold_runs / cold_s;
}

static void print_breakdown(const BenchScore *a, const BenchScore *b, int parallel)
{
    double n1 = (double)a->st.runs, n0 = (double)b->st.runs;
    if (n1 <= 0 || n0 <= 0) return;
#define GB_MS(field) a->st.field / n1 * 1000.0, b->st.field / n0 * 1000.0
    printf("  per-run breakdown (ms, mean; fork/start/run/exit/reap happen in the worker):\n");
    printf("               new     old\n");
    printf("    prepare  %6.3f  %6.3f  run directory, module files, pipes, request (genebench)\n", GB_MS(prepare_s));
    printf("    dispatch %6.3f  %6.3f  request sent -> worker calls fork()\n", GB_MS(dispatch_s));
    printf("    fork     %6.3f  %6.3f  fork() of the warm worker\n", GB_MS(fork_s));
    printf("    start    %6.3f  %6.3f  fork returned -> child running\n", GB_MS(start_s));
    printf("    run      %6.3f  %6.3f  child: sandbox set-up, program + tests, result written\n", GB_MS(run_s));
    printf("    exit     %6.3f  %6.3f  child exit (address-space teardown)\n", GB_MS(exit_s));
    printf("    reap     %6.3f  %6.3f  every process of the run killed and reaped\n", GB_MS(reap_s));
    printf("    report   %6.3f  %6.3f  worker -> genebench\n", GB_MS(report_s));
    printf("    teardown %6.3f  %6.3f  output drained, run directory removed (genebench)\n", GB_MS(teardown_s));
    printf("    total    %6.3f  %6.3f  per run, end to end (latency; %d run concurrently)\n", GB_MS(total_s), parallel);
#undef GB_MS
    printf("  page faults per run: child %.0f (old %.0f), worker %.0f (old %.0f)\n", a->st.child_faults / n1,
           b->st.child_faults / n0, a->st.worker_faults / n1, b->st.worker_faults / n0);
}

int main(int argc, char **argv)
{
    long pool_runs = argc > 1 ? atol(argv[1]) : 1000;
    long cold_runs = argc > 2 ? atol(argv[2]) : 10;
    const char *which = argc > 3 ? argv[3] : "all";
    int parallel = argc > 4 ? atoi(argv[4]) : (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (parallel < 1 || parallel > 8) parallel = 2;
    if (pool_runs < 4) pool_runs = 4;
    if (cold_runs < 1) cold_runs = 1;
    const int cold_parallel = (int)sysconf(_SC_NPROCESSORS_ONLN);
    size_t kinds[4], nkinds = 0;
    for (size_t k = 0; k < 4; k++)
        if (strcmp(which, k_kinds[k].name) == 0 || (strcmp(which, "all") == 0 && k < 3)) kinds[nkinds++] = k;
    if (nkinds == 0) {
        fprintf(stderr, "bench_runner: unknown program kind '%s' (all, none, numpy, full, empty)\n", which);
        return 2;
    }

    double loadavg[3] = {0};
    getloadavg(loadavg, 3);
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    double fork_none = plain_fork_ms("");
    double fork_libs = plain_fork_ms("import numpy, scipy.stats, sklearn.utils");
    printf("host: %ld CPUs online, load average %.2f %.2f %.2f; plain %s fork+exit+wait: %.2f ms with nothing "
           "imported, %.2f ms with numpy, scipy.stats and sklearn.utils imported\n",
           online, loadavg[0], loadavg[1], loadavg[2], GB_DEFAULT_PYTHON, fork_none, fork_libs);

    /* Both pools stay up; their idle workers cost nothing while the other one runs. */
    BenchPool pnew, pold, ptog;
    if (!bench_pool_start(&pnew, parallel, false, false) || !bench_pool_start(&pold, parallel, true, false) ||
        !bench_pool_start(&ptog, parallel, false, true))
        return 1;
    printf("pools: %d test workers per import set (new: 3 sets, %zu processes, started in %.2f s; old: %zu "
           "processes, started in %.2f s); sandbox %s; remap: %s\n",
           parallel, pnew.nw, pnew.start_s, pold.nw, pold.start_s, pnew.mode, gb_pool_remap(pnew.pool));
    bool all_passed = true;
    for (size_t ki = 0; ki < nkinds; ki++) {
        const BenchKind *kind = &k_kinds[kinds[ki]];
        GbTask task;
        gb_task_init(&task);
        task.id = gb_strdup("bench/below_zero");
        task.source = gb_strdup(kind->program);
        task.entry_point = gb_strdup("below_zero");
        task.kind = GB_TESTS_ASSERT;
        task.test_code = gb_strdup(strcmp(kind->name, "empty") == 0 ? "pass\n" : k_tests);
        if (!bench_pool_warm(&pnew, &task, parallel) || !bench_pool_warm(&pold, &task, parallel) ||
            !bench_pool_warm(&ptog, &task, parallel))
            return 1;
        BenchScore snew = {0}, sold = {0}, stog = {0};
        const int rounds = 4;
        for (int k = 0; k < rounds; k++) {
            long n = pool_runs / rounds + (k < pool_runs % rounds ? 1 : 0);
            bench_pool_round(&pnew, &snew, &task, n, parallel);
            bench_pool_round(&pold, &sold, &task, n, parallel);
            bench_pool_round(&ptog, &stog, &task, n, parallel);
        }
        long cold_passed = 0;
        double cold_cpu = 0;
        double cold_rate = bench_cold(&task, cold_runs, cold_parallel, &cold_passed, &cold_cpu);
        double new_rate = (double)snew.runs / snew.wall_s, old_rate = (double)sold.runs / sold.wall_s;
        double tog_rate = (double)stog.runs / stog.wall_s;
        double new_cpu = snew.cpu_s / (double)snew.runs, old_cpu = sold.cpu_s / (double)sold.runs;
        getloadavg(loadavg, 1);
        printf("\nprogram %s: %s (load average now %.2f)\n", kind->name, kind->what, loadavg[0]);
        printf("  pool (new, import sets): %ld validations in %.2f s = %.1f validations/s (%ld passed)\n", snew.runs,
               snew.wall_s, new_rate, snew.passed);
        printf("  pool (old, all libraries): %ld validations in %.2f s = %.1f validations/s (%ld passed)\n", sold.runs,
               sold.wall_s, old_rate, sold.passed);
        printf("  pool (import sets, tests in the program's process): %ld validations in %.2f s = %.1f "
               "validations/s (%ld passed); judge / in-process = %.2fx, CPU per validation %.2f ms\n",
               stog.runs, stog.wall_s, tog_rate, stog.passed, new_rate / tog_rate,
               stog.cpu_s / (double)stog.runs * 1000);
        printf("  cold: %s per run, %d in parallel: %ld validations = %.2f validations/s (%ld passed)\n",
               GB_DEFAULT_PYTHON, cold_parallel, cold_runs, cold_rate, cold_passed);
        printf("  ratio: new / cold = %.0fx, old / cold = %.0fx, new / old = %.2fx\n", new_rate / cold_rate,
               old_rate / cold_rate, new_rate / old_rate);
        printf("  CPU per validation (genebench + workers + runs): new %.2f ms, old %.2f ms, cold %.0f ms\n",
               new_cpu * 1000, old_cpu * 1000, cold_cpu * 1000);
        print_breakdown(&snew, &sold, parallel);
        all_passed = all_passed && snew.passed == snew.runs && sold.passed == sold.runs && stog.passed == stog.runs &&
                     cold_passed == cold_runs;
        gb_task_destroy(&task);
    }
    gb_pool_delete(pnew.pool);
    gb_pool_delete(pold.pool);
    gb_pool_delete(ptog.pool);
    return all_passed ? 0 : 1;
}
