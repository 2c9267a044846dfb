#pragma once
/* The fixture of the runner's tests (test_runner*.c): four pools started at once (auto sandbox with
 * a short timeout, a strict pool with lint, and one pool per forced sandbox mode), tasks of each
 * kind, and the checks that after every case the pools still work and no process or file of a run
 * is left (through /proc and the pools' temporary directory). Programs here are written for these
 * tests. */
#include "src/runner/runner.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gb_config.h"
#include "src/runner/sandbox.h"
#include "tests/unit/helpers.h"

/* ------------------------------------------------------------------ helpers */

static char g_tmp[256]; /* TMPDIR of this test process: pools put their directory here */

static inline void task_assert(GbTask *t, const char *id, const char *src, const char *test)
{
    gb_task_init(t);
    t->id = gb_strdup(id);
    t->source = gb_strdup(src);
    t->kind = GB_TESTS_ASSERT;
    t->test_code = gb_strdup(test);
}

static inline void task_unittest(GbTask *t, const char *id, const char *src, const char *test,
                                 const char *const *classes)
{
    gb_task_init(t);
    t->id = gb_strdup(id);
    t->source = gb_strdup(src);
    t->kind = GB_TESTS_UNITTEST;
    t->test_code = gb_strdup(test);
    for (; *classes; classes++) gb_array_push(&t->test_classes, gb_strdup(*classes));
}

static inline void task_stdio(GbTask *t, const char *id, const char *src, const char *const *io)
{
    gb_task_init(t);
    t->id = gb_strdup(id);
    t->source = gb_strdup(src);
    t->kind = GB_TESTS_STDIO;
    for (; io[0]; io += 2) {
        GbStdioCase c = {gb_strdup(io[0]), gb_strdup(io[1])};
        gb_array_push(&t->cases, c);
    }
}

/* The state and parent of the process named by a /proc entry; false when it is not one or is gone. */
static inline bool proc_state(const char *name, char *state, int *ppid)
{
    if (name[0] < '0' || name[0] > '9') return false;
    char path[300], buf[4096];
    snprintf(path, sizeof path, "/proc/%s/stat", name);
    FILE *f = fopen(path, "r");
    if (!f) return false;
    size_t len = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[len] = '\0';
    char *rp = strrchr(buf, ')');
    return rp && sscanf(rp + 2, "%c %d", state, ppid) == 2;
}

/* Processes descending from this test process (any depth). */
static inline int descendants(pid_t *out, int max)
{
    pid_t pids[8192], ppids[8192];
    int n = 0;
    DIR *d = opendir("/proc");
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL && n < 8192) {
        int ppid;
        char state;
        if (!proc_state(e->d_name, &state, &ppid)) continue;
        pids[n] = (pid_t)atoi(e->d_name);
        ppids[n] = (pid_t)ppid;
        n++;
    }
    if (d) closedir(d);
    bool in[8192] = {0};
    bool changed = true;
    while (changed) {
        changed = false;
        for (int i = 0; i < n; i++) {
            if (in[i]) continue;
            bool parent_in = ppids[i] == getpid();
            for (int j = 0; j < n && !parent_in; j++) parent_in = in[j] && pids[j] == ppids[i];
            if (parent_in) in[i] = changed = true;
        }
    }
    int count = 0;
    for (int i = 0; i < n; i++) {
        if (!in[i]) continue;
        if (out && count < max) out[count] = pids[i];
        count++;
    }
    return count;
}

static inline int count_run_dirs(const char *runs)
{
    int n = 0;
    DIR *r = opendir(runs);
    struct dirent *f;
    while (r && (f = readdir(r)) != NULL)
        if (f->d_name[0] != '.' && strncmp(f->d_name, "warm-", 5) != 0) n++;
    if (r) closedir(r);
    return n;
}

/* Entries of every pool's runs directory other than the pylint warm-up directories, on the
 * host and in the runs tmpfs of every namespaced worker (reached through /proc/PID/root). */
static inline int leftover_run_dirs(void)
{
    int n = 0;
    pid_t pids[256];
    int np = descendants(pids, 256);
    if (np > 256) np = 256;
    DIR *d = opendir(g_tmp);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, "genebench-pool-", 15) != 0) continue;
        char runs[600];
        snprintf(runs, sizeof runs, "%s/%s/runs", g_tmp, e->d_name);
        n += count_run_dirs(runs);
        for (int i = 0; i < np; i++) {
            char inner[700];
            snprintf(inner, sizeof inner, "/proc/%d/root%s", (int)pids[i], runs);
            n += count_run_dirs(inner);
        }
    }
    if (d) closedir(d);
    return n;
}

typedef struct {
    GbPool *pool;   /* 2 workers, auto sandbox, short timeout */
    GbPool *strict; /* 1 worker, stderr_fails + lint, long timeout */
    GbPool *userns; /* 1 worker each, forced sandbox modes */
    GbPool *plain;
    int workers; /* all workers of all pools */
} Fixture;

typedef struct {
    int workers;
    double timeout;
    bool strict;
    int sandbox;
    GbPool *pool;
} PoolJob;

static inline void *new_pool_thread(void *arg)
{
    PoolJob *j = arg;
    GbPoolConfig cfg;
    gb_pool_config_defaults(&cfg);
    cfg.workers = j->workers;
    cfg.timeout_s = j->timeout;
    cfg.cpu_s = 20;
    cfg.stderr_fails = j->strict;
    cfg.lint = j->strict;
    cfg.lint_workers = 0; /* the default: one lint worker serves every session and gb_pool_lint */
    cfg.sandbox = j->sandbox;
    GbError err = {{0}};
    j->pool = gb_pool_new(&cfg, &err);
    if (!j->pool) print_error("gb_pool_new: %s\n", err.msg);
    return NULL;
}

/* All pools start concurrently (the pylint warm-up of the strict pool takes longest). */
static inline int setup(void **state)
{
    static Fixture fx;
    PoolJob jobs[] = {{2, 1.5, false, GB_SANDBOX_AUTO, NULL},
                      {1, 30.0, true, GB_SANDBOX_AUTO, NULL},
                      {1, 1.5, false, GB_SANDBOX_USERNS, NULL},
                      {1, 1.5, false, GB_SANDBOX_PLAIN, NULL}};
    enum { NJOBS = sizeof jobs / sizeof jobs[0] };
    pthread_t th[NJOBS];
    for (int i = 0; i < NJOBS; i++) pthread_create(&th[i], NULL, new_pool_thread, &jobs[i]);
    for (int i = 0; i < NJOBS; i++) pthread_join(th[i], NULL);
    fx.pool = jobs[0].pool;
    fx.strict = jobs[1].pool;
    fx.userns = jobs[2].pool;
    fx.plain = jobs[3].pool;
    *state = &fx;
    for (int i = 0; i < NJOBS; i++)
        if (!jobs[i].pool) return -1;
    /* three test workers (one per import set) per -j, and the strict pool's lint worker */
    fx.workers = 0;
    for (int i = 0; i < NJOBS; i++) fx.workers += (int)gb_pool_worker_pids(jobs[i].pool, NULL, 0);
    if (fx.workers != 3 * 2 + (3 + 1) + 3 + 3) return -1;
    return 0;
}

static inline int teardown(void **state)
{
    Fixture *fx = *state;
    gb_pool_delete(fx->pool);
    gb_pool_delete(fx->strict);
    gb_pool_delete(fx->userns);
    gb_pool_delete(fx->plain);
    return 0;
}

/* The pool is healthy: exactly the workers are alive and nothing of a run is left. A lint
 * session's process exits by itself once its session is deleted (nobody waits for it: it
 * only ever waits for a request then), so the processes get 2 s to settle. */
static inline pid_t compile_server_pid(void);

/* The compile check's interpreter, once started, lives as long as its pool: it is one of ours. */
static inline void assert_clean(const Fixture *fx)
{
    int want = fx->workers + (compile_server_pid() > 0);
    int n = descendants(NULL, 0);
    for (int i = 0; i < 200 && n != want; i++) {
        usleep(10000);
        n = descendants(NULL, 0);
    }
    assert_int_equal(n, want);
    assert_int_equal(leftover_run_dirs(), 0);
}

static inline GbRunStatus run(GbPool *pool, const GbTask *t, GbRunResult *r)
{
    GbError err = {{0}};
    bool ok = gb_pool_run(pool, t, NULL, r, &err);
    if (!ok) print_error("gb_pool_run(%s): %s\n", t->id, err.msg);
    assert_true(ok);
    assert_non_null(r->out);
    assert_non_null(r->err);
    if (r->status != GB_RUN_PASS)
        print_message("  %s: %s %s: %s (%s) signal %d, %.2fs\n", t->id, gb_run_status_name(r->status),
                      r->exc_type ? r->exc_type : "", r->exc_message ? r->exc_message : "",
                      r->failed_test ? r->failed_test : "", r->signal, r->wall_s);
    return r->status;
}

static inline void run_simple_pass(GbPool *pool)
{
    GbTask t;
    task_assert(&t, "sanity", "def f(x):\n    return x + 1\n", "assert f(1) == 2\n");
    GbRunResult r;
    assert_int_equal(run(pool, &t, &r), GB_RUN_PASS);
    gb_run_result_destroy(&r);
    gb_task_destroy(&t);
}

/* A passing run on a worker of each import set (standard library, numpy, every library). */
static inline void run_pass_each_kind(GbPool *pool)
{
    static const char *const programs[] = {
        "import math\ndef f(x):\n    return math.floor(x) + 1\n",
        "import numpy as np\ndef f(x):\n    return int(np.int64(x)) + 1\n",
        "import scipy.special\ndef f(x):\n    return int(scipy.special.comb(x, 1)) + 1\n",
    };
    for (size_t i = 0; i < sizeof programs / sizeof *programs; i++) {
        GbTask t;
        task_assert(&t, "kinds", programs[i], "assert f(1) == 2\n");
        GbRunResult r;
        assert_int_equal(run(pool, &t, &r), GB_RUN_PASS);
        gb_run_result_destroy(&r);
        gb_task_destroy(&t);
    }
}

/* The child of this process that serves gb_pool_compile (its command line holds the script), or 0. */
static inline pid_t compile_server_pid(void)
{
    pid_t found = 0;
    DIR *d = opendir("/proc");
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL && !found) {
        int ppid;
        char st;
        if (!proc_state(e->d_name, &st, &ppid) || ppid != getpid()) continue;
        char path[300], buf[4096];
        snprintf(path, sizeof path, "/proc/%s/cmdline", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f) continue;
        size_t len = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        for (size_t i = 0; i < len; i++)
            if (buf[i] == '\0') buf[i] = ' ';
        buf[len] = '\0';
        if (strstr(buf, "dont_inherit=True")) found = (pid_t)atoi(e->d_name);
    }
    if (d) closedir(d);
    return found;
}

/* A runner test binary's main: a private TMPDIR, the cases with the four pools of setup(), then
 * nothing of ours may be left (no process, no file). */
static inline int runner_main(const char *group, const struct CMUnitTest *tests, size_t count)
{
    snprintf(g_tmp, sizeof g_tmp, "/tmp/gb-test-runner-XXXXXX");
    if (!mkdtemp(g_tmp)) return 1;
    chmod(g_tmp, 0755);
    setenv("TMPDIR", g_tmp, 1);
    int failed = _cmocka_run_group_tests(group, tests, count, setup, teardown);
    /* after every pool is gone: no process and no file of ours is left */
    int left = descendants(NULL, 0);
    DIR *d = opendir(g_tmp);
    int files = 0;
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL)
        if (e->d_name[0] != '.') files++;
    if (d) closedir(d);
    rmdir(g_tmp);
    if (left || files) {
        fprintf(stderr, "leftovers after the pools were deleted: %d processes, %d files\n", left, files);
        return 1;
    }
    return failed;
}
