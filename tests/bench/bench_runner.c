/* Benchmark of the test runner (run with `meson test -C build --benchmark runner` or
 * directly: build/tests/bench_runner [POOL_RUNS [COLD_RUNS [full|empty [WORKERS]]]]).
 * Measures, side by side in one run, validations per second of a HumanEval-style task whose
 * program imports numpy, scipy and sklearn:
 *   - through the warm worker pool (WORKERS workers and calling threads, default: one per
 *     online CPU), as genebench runs it (workers remapped, src/runner/remap.c);
 *   - through the same pool with the remap off (GbPoolConfig.no_remap), to show its effect;
 *   - with a cold interpreter per run (GB_DEFAULT_PYTHON on a file holding program + tests,
 *     one per online CPU in flight at all times), which is what the published tool does;
 * The two pools run in alternating rounds, so that a change in the host's load falls on
 * both. Then it prints the ratios, CPU time per validation, and the pools' per-run overhead
 * breakdown (gb_pool_stats). With "empty", the program and tests are `pass`: the runner's
 * own cost. */
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

/* A HumanEval-style problem (written for this benchmark) whose program imports numpy, scipy
 * and sklearn, as the library-call operators make programs do. */
static const char *k_program = "import numpy as np\n"
                               "import scipy.stats\n"
                               "from sklearn.utils import check_scalar\n"
                               "\n"
                               "\n"
                               "def below_zero(operations):\n"
                               "    \"\"\"True if the running balance of the operations ever drops below zero.\"\"\"\n"
                               "    check_scalar(len(operations), 'operations', int, min_val=0)\n"
                               "    balance = np.cumsum([0] + list(operations))\n"
                               "    return bool(balance.min() < 0)\n";

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

typedef struct {
    GbPool *pool;
    int wpids[8];
    size_t nw;
    double start_s; /* gb_pool_new */
    double wall_s;  /* summed over rounds */
    double cpu_s;   /* genebench + workers + runs */
    double self_s;  /* genebench alone */
    long runs, passed;
    GbPoolStats before;
    char mode[64];
    char remap[256];
} BenchPool;

static bool bench_pool_start(BenchPool *b, const GbTask *task, int parallel, bool no_remap)
{
    memset(b, 0, sizeof *b);
    GbPoolConfig cfg;
    gb_pool_config_defaults(&cfg);
    cfg.workers = parallel;
    cfg.stderr_fails = true;
    cfg.no_remap = no_remap;
    GbError err = {{0}};
    double t0 = gb_now();
    b->pool = gb_pool_new(&cfg, &err);
    if (!b->pool) {
        fprintf(stderr, "bench_runner: %s\n", err.msg);
        return false;
    }
    b->start_s = gb_now() - t0;
    /* warm-up: one run per worker, not counted */
    for (int i = 0; i < parallel; i++) {
        GbRunResult r;
        gb_pool_run(b->pool, task, NULL, &r, &err);
        if (r.status != GB_RUN_PASS) {
            fprintf(stderr, "bench_runner: the benchmark task does not pass: %s %s\n", r.exc_type, r.exc_message);
            return false;
        }
        gb_run_result_destroy(&r);
    }
    gb_pool_stats(b->pool, &b->before);
    b->nw = gb_pool_worker_pids(b->pool, b->wpids, 8);
    snprintf(b->mode, sizeof b->mode, "%s", gb_pool_sandbox(b->pool));
    snprintf(b->remap, sizeof b->remap, "%s", gb_pool_remap(b->pool));
    return true;
}

static void bench_pool_round(BenchPool *b, const GbTask *task, long runs, int parallel)
{
    GbPool *pool = b->pool;
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
    b->wall_s += gb_now() - t1;
    double cpu1 = self_cpu(RUSAGE_SELF), self1 = cpu1;
    for (size_t i = 0; i < b->nw; i++) cpu1 += proc_cpu(b->wpids[i]);
    b->cpu_s += cpu1 - cpu0;
    b->self_s += self1 - self0;
    b->runs += runs;
    b->passed += passed;
}

static void bench_pool_print(const char *name, const BenchPool *b, int parallel)
{
    printf("%s: %d workers (sandbox %s, started in %.2f s): %ld validations in %.2f s = %.1f validations/s "
           "(%ld passed)\n",
           name, parallel, b->mode, b->start_s, b->runs, b->wall_s, (double)b->runs / b->wall_s, b->passed);
    printf("  remap: %s\n", b->remap);
}

int main(int argc, char **argv)
{
    long pool_runs = argc > 1 ? atol(argv[1]) : 2000;
    long cold_runs = argc > 2 ? atol(argv[2]) : 10;
    bool empty = argc > 3 && strcmp(argv[3], "empty") == 0;
    int parallel = argc > 4 ? atoi(argv[4]) : (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (parallel < 1 || parallel > 8) parallel = 2;
    if (pool_runs < 4) pool_runs = 4;
    const int cold_parallel = (int)sysconf(_SC_NPROCESSORS_ONLN);

    GbTask task;
    gb_task_init(&task);
    task.id = gb_strdup("bench/below_zero");
    task.source = gb_strdup(empty ? "pass\n" : k_program);
    task.entry_point = gb_strdup("below_zero");
    task.kind = GB_TESTS_ASSERT;
    task.test_code = gb_strdup(empty ? "pass\n" : k_tests);

    /* Both pools stay up; their idle workers cost nothing while the other one runs. */
    BenchPool on, off;
    if (!bench_pool_start(&on, &task, parallel, false) || !bench_pool_start(&off, &task, parallel, true)) return 1;
    const int rounds = 4;
    for (int k = 0; k < rounds; k++) {
        long n = pool_runs / rounds + (k < pool_runs % rounds ? 1 : 0);
        bench_pool_round(&on, &task, n, parallel);
        bench_pool_round(&off, &task, n, parallel);
    }
    GbPoolStats st_on, st_off;
    gb_pool_stats(on.pool, &st_on);
    gb_pool_stats(off.pool, &st_off);
    gb_pool_delete(on.pool);
    gb_pool_delete(off.pool);

    /* the cold path: the same program + tests in a file, one interpreter per run */
    char dir[] = "/tmp/gb-bench-XXXXXX";
    if (!mkdtemp(dir)) return 1;
    char file[64];
    snprintf(file, sizeof file, "%s/prog.py", dir);
    FILE *f = fopen(file, "w");
    fprintf(f, "%s\n%s", task.source, task.test_code);
    fclose(f);
    long cold_passed = 0;
    double ccpu0 = self_cpu(RUSAGE_CHILDREN);
    double t2 = gb_now();
    /* cold_parallel interpreters in flight at all times: a new one starts as soon as one ends */
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
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0) cold_passed++;
    }
    double cold_s = gb_now() - t2;
    double cold_cpu = (self_cpu(RUSAGE_CHILDREN) - ccpu0) / (double)cold_runs;
    unlink(file);
    rmdir(dir);

    double on_rate = (double)on.runs / on.wall_s, off_rate = (double)off.runs / off.wall_s;
    double on_cpu = on.cpu_s / (double)on.runs, off_cpu = off.cpu_s / (double)off.runs;
    double cold_rate = (double)cold_runs / cold_s;
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    printf("task: %s; %ld CPUs online\n",
           empty ? "empty program and tests (the runner's own cost)"
                 : "HumanEval-style, the program imports numpy, scipy.stats and sklearn.utils",
           online);
    printf("(the two pools ran in %d alternating rounds)\n", rounds);
    bench_pool_print("pool", &on, parallel);
    bench_pool_print("pool, remap off", &off, parallel);
    printf("cold: %s per run, %d in parallel: %ld validations in %.2f s = %.2f validations/s (%ld passed)\n",
           GB_DEFAULT_PYTHON, cold_parallel, cold_runs, cold_s, cold_rate, cold_passed);
    printf("ratio: pool / cold = %.0fx (remap off: %.0fx); pool / pool with remap off = %.2fx\n", on_rate / cold_rate,
           off_rate / cold_rate, on_rate / off_rate);
    double loadavg[1] = {0};
    getloadavg(loadavg, 1);
    printf("CPU per validation (user+system, genebench + workers + runs): pool %.2f ms, remap off %.2f ms, "
           "cold %.0f ms (%.0fx; remap off %.0fx)\n",
           on_cpu * 1000, off_cpu * 1000, cold_cpu * 1000, cold_cpu / on_cpu, cold_cpu / off_cpu);
    printf("  -> CPU-bound capacity of %ld idle CPUs: pool %.0f validations/s, remap off %.0f, cold %.2f "
           "(load average now %.1f)\n",
           online, (double)online / on_cpu, (double)online / off_cpu, (double)online / cold_cpu, loadavg[0]);
    printf("  CPU split: genebench %.2f ms, workers and their runs %.2f ms per validation (remap off: %.2f + %.2f)\n",
           on.self_s / (double)on.runs * 1000, (on.cpu_s - on.self_s) / (double)on.runs * 1000,
           off.self_s / (double)off.runs * 1000, (off.cpu_s - off.self_s) / (double)off.runs * 1000);
    double n1 = (double)(st_on.runs - on.before.runs), n0 = (double)(st_off.runs - off.before.runs);
    if (n1 > 0 && n0 > 0) {
#define GB_MS(field) (st_on.field - on.before.field) / n1 * 1000.0, (st_off.field - off.before.field) / n0 * 1000.0
        printf("per-run breakdown (ms, mean; fork/start/run/exit/reap happen in the worker):\n");
        printf("           pool  remap off\n");
        printf("  prepare  %.3f  %.3f  run directory, module files, pipes, request (genebench)\n", GB_MS(prepare_s));
        printf("  dispatch %.3f  %.3f  request sent -> worker calls fork()\n", GB_MS(dispatch_s));
        printf("  fork     %.3f  %.3f  fork() of the warm worker\n", GB_MS(fork_s));
        printf("  start    %.3f  %.3f  fork returned -> child running\n", GB_MS(start_s));
        printf("  run      %.3f  %.3f  child: sandbox set-up, program + tests, result written\n", GB_MS(run_s));
        printf("  exit     %.3f  %.3f  child exit (address-space teardown)\n", GB_MS(exit_s));
        printf("  reap     %.3f  %.3f  every process of the run killed and reaped\n", GB_MS(reap_s));
        printf("  report   %.3f  %.3f  worker -> genebench\n", GB_MS(report_s));
        printf("  teardown %.3f  %.3f  output drained, run directory removed (genebench)\n", GB_MS(teardown_s));
        printf("  total    %.3f  %.3f  per run, end to end (latency; %d run concurrently)\n", GB_MS(total_s), parallel);
#undef GB_MS
#define GB_PER(field) (st_on.field - on.before.field) / n1, (st_off.field - off.before.field) / n0
        printf("page faults per run: child %.0f (remap off %.0f), worker %.0f (remap off %.0f)\n", GB_PER(child_faults),
               GB_PER(worker_faults));
#undef GB_PER
    }
    gb_task_destroy(&task);
    return on.passed == on.runs && off.passed == off.runs && cold_passed == cold_runs ? 0 : 1;
}
