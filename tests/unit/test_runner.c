/* The test runner: the three test kinds, the result fields, the stdio comparison, lint,
 * and the reliability cases (crashes, hangs, runaway memory and output). After every case the pool must still work and
 * no process of a run or file of a run may be left (checked through /proc and the pool's temporary directory). Programs
 * here are written for these tests. */
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

static void task_assert(GbTask *t, const char *id, const char *src, const char *test)
{
    gb_task_init(t);
    t->id = gb_strdup(id);
    t->source = gb_strdup(src);
    t->kind = GB_TESTS_ASSERT;
    t->test_code = gb_strdup(test);
}

static void task_unittest(GbTask *t, const char *id, const char *src, const char *test, const char *const *classes)
{
    gb_task_init(t);
    t->id = gb_strdup(id);
    t->source = gb_strdup(src);
    t->kind = GB_TESTS_UNITTEST;
    t->test_code = gb_strdup(test);
    for (; *classes; classes++) gb_array_push(&t->test_classes, gb_strdup(*classes));
}

static void task_stdio(GbTask *t, const char *id, const char *src, const char *const *io)
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

/* Processes descending from this test process (any depth). */
static int descendants(pid_t *out, int max)
{
    pid_t pids[8192], ppids[8192];
    int n = 0;
    DIR *d = opendir("/proc");
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL && n < 8192) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
        char path[300], buf[512];
        snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f) continue;
        size_t len = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[len] = '\0';
        char *rp = strrchr(buf, ')');
        int ppid;
        char state;
        if (!rp || sscanf(rp + 2, "%c %d", &state, &ppid) != 2) continue;
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

static int count_run_dirs(const char *runs)
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
static int leftover_run_dirs(void)
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

static void *new_pool_thread(void *arg)
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
static int setup(void **state)
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

static int teardown(void **state)
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
static pid_t compile_server_pid(void);

/* The compile check's interpreter, once started, lives as long as its pool: it is one of ours. */
static void assert_clean(const Fixture *fx)
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

static GbRunStatus run(GbPool *pool, const GbTask *t, GbRunResult *r)
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

static void run_simple_pass(GbPool *pool)
{
    GbTask t;
    task_assert(&t, "sanity", "def f(x):\n    return x + 1\n", "assert f(1) == 2\n");
    GbRunResult r;
    assert_int_equal(run(pool, &t, &r), GB_RUN_PASS);
    gb_run_result_destroy(&r);
    gb_task_destroy(&t);
}

/* A passing run on a worker of each import set (standard library, numpy, every library). */
static void run_pass_each_kind(GbPool *pool)
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

/* ------------------------------------------------------------------ assert kind */

static void test_runner_assert_pass_and_fail_named(void **state)
{
    Fixture *fx = *state;
    static const struct {
        const char *src, *test;
        GbRunStatus status;
        const char *exc_type, *failed_test;
    } cases[] = {
        {"def add(a, b):\n    return a + b\n", "assert add(1, 2) == 3\nassert add(-1, 1) == 0\n", GB_RUN_PASS, NULL,
         NULL},
        {"def add(a, b):\n    return a - b\n", "assert add(1, 0) == 1\nassert add(1, 2) == 3, 'sum'\n", GB_RUN_FAIL,
         "AssertionError", "tests line 2: assert add(1, 2) == 3, 'sum'"},
        {"def div(a, b):\n    return a / b\n",
         "def check(c):\n    assert c(4, 2) == 2\n    assert c(1, 0) == 0\n\ncheck(div)\n", GB_RUN_FAIL,
         "ZeroDivisionError", "tests line 3: assert c(1, 0) == 0"},
        {"import numpy as np\nimport scipy.stats\nfrom sklearn.utils import shuffle\n\ndef m(x):\n    return "
         "float(np.mean(x))\n",
         "assert m([1, 2, 3]) == 2.0\n", GB_RUN_PASS, NULL, NULL},
        {"def f(:\n    pass\n", "assert True\n", GB_RUN_FAIL, "SyntaxError", NULL},
        {"raise ValueError('at import')\n", "assert True\n", GB_RUN_FAIL, "ValueError",
         "main.py line 1: raise ValueError('at import')"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        GbTask t;
        task_assert(&t, "assert", cases[i].src, cases[i].test);
        GbRunResult r;
        GbRunStatus s = run(fx->pool, &t, &r);
        if (s != cases[i].status)
            print_error("case %zu: %s %s %s\n", i, gb_run_status_name(s), r.exc_type, r.exc_message);
        assert_int_equal(s, cases[i].status);
        if (cases[i].exc_type) assert_string_equal(r.exc_type, cases[i].exc_type);
        if (cases[i].failed_test) assert_string_equal(r.failed_test, cases[i].failed_test);
        assert_int_equal(r.tests_run, 1);
        assert_true(r.wall_s > 0);
        assert_true(r.peak_rss_kb > 0);
        gb_run_result_destroy(&r);
        gb_task_destroy(&t);
    }
    assert_clean(fx);
}

static void test_runner_assert_output_recorded_and_stderr_gate(void **state)
{
    Fixture *fx = *state;
    GbTask t;
    task_assert(&t, "io", "import sys\nprint('hello')\nprint('warn', file=sys.stderr)\n", "assert True\n");
    GbRunResult r;
    assert_int_equal(run(fx->pool, &t, &r), GB_RUN_PASS);
    assert_string_equal(r.out, "hello\n");
    assert_string_equal(r.err, "warn\n");
    gb_run_result_destroy(&r);
    /* the strict pool fails on any stderr output, like the published tool */
    assert_int_equal(run(fx->strict, &t, &r), GB_RUN_FAIL);
    assert_string_equal(r.exc_type, "StderrOutput");
    gb_run_result_destroy(&r);
    gb_task_destroy(&t);
}

static void test_runner_assert_sys_exit_is_not_a_pass(void **state)
{
    Fixture *fx = *state;
    static const char *const tests[] = {
        "assert f(1) == 2\nimport sys\nsys.exit(0)\nassert f(2) == 999\n",
        "import os\nos._exit(0)\n",
        "raise SystemExit\n",
    };
    for (size_t i = 0; i < 3; i++) {
        GbTask t;
        task_assert(&t, "exit", "def f(x):\n    return x + 1\n", tests[i]);
        GbRunResult r;
        assert_int_equal(run(fx->pool, &t, &r), GB_RUN_FAIL);
        assert_non_null(r.exc_type);
        assert_string_equal(r.exc_type, i == 1 ? "ProcessExit" : "SystemExit");
        gb_run_result_destroy(&r);
        gb_task_destroy(&t);
    }
    assert_clean(fx);
}

/* The names of the harness's modules (*.py) a pool wrote into its directory (every pool
 * writes the same), at most max; returns their count. */
static int harness_modules(char names[][64], int max)
{
    int n = 0;
    DIR *d = opendir(g_tmp);
    struct dirent *e;
    while (d && n == 0 && (e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, "genebench-pool-", 15) != 0) continue;
        char dir[600];
        snprintf(dir, sizeof dir, "%s/%s/harness", g_tmp, e->d_name);
        DIR *h = opendir(dir);
        struct dirent *f;
        while (h && (f = readdir(h)) != NULL) {
            size_t len = strlen(f->d_name);
            if (len < 4 || len >= 64 || strcmp(f->d_name + len - 3, ".py") != 0 || n == max) continue;
            snprintf(names[n++], 64, "%s", f->d_name);
        }
        if (h) closedir(h);
    }
    if (d) closedir(d);
    return n;
}

/* The seal covers every module of the harness: a program that replaces a function of any of
 * them (found through the stack, or in sys.modules) by a wrapper that behaves the same fails
 * with Tampering. A module left out of the seal lets this program pass. */
static void test_runner_seal_covers_every_harness_module(void **state)
{
    Fixture *fx = *state;
    char names[64][64];
    int modules = harness_modules(names, 64);
    assert_true(modules >= 2);
    for (int i = 0; i < modules; i++) {
        const char *name = names[i];
        char *src = gb_asprintf("import sys\nimport types\n\n"
                                "def _namespace(name):\n"
                                "    f = sys._getframe()\n"
                                "    while f is not None:\n"
                                "        if str(f.f_globals.get('__file__')).endswith('/' + name):\n"
                                "            return f.f_globals\n"
                                "        f = f.f_back\n"
                                "    for m in list(sys.modules.values()):\n"
                                "        if str(getattr(m, '__file__', None)).endswith('/' + name):\n"
                                "            return vars(m)\n"
                                "    raise LookupError(name)\n\n"
                                "_ns = _namespace('%s')\n"
                                "for _key, _fn in list(_ns.items()):\n"
                                "    if isinstance(_fn, types.FunctionType) and _fn.__module__ == _ns['__name__']:\n"
                                "        _ns[_key] = (lambda fn: lambda *a, **k: fn(*a, **k))(_fn)\n"
                                "        break\n\n"
                                "def add(a, b):\n    return a + b\n",
                                name);
        GbTask t;
        task_assert(&t, "seal", src, "assert add(1, 2) == 3\n");
        GbRunResult r;
        GbRunStatus status = run(fx->pool, &t, &r);
        if (status != GB_RUN_FAIL) print_error("%s: a replaced function went unnoticed\n", name);
        assert_int_equal(status, GB_RUN_FAIL);
        assert_string_equal(r.exc_type, "Tampering");
        assert_non_null(strstr(r.exc_message, "the program replaced the harness's "));
        gb_run_result_destroy(&r);
        gb_task_destroy(&t);
        free(src);
    }
    assert_clean(fx);
}

static void test_runner_helper_modules_share_main(void **state)
{
    Fixture *fx = *state;
    GbTask t;
    task_assert(&t, "modules",
                "from helpers.util import double\nSCALE = 3\n\ndef f(x):\n    return double(x) * SCALE\n",
                "assert f(2) == 12\n");
    gb_task_set_file(&t, "helpers/__init__.py", "");
    gb_task_set_file(&t, "helpers/util.py",
                     "def double(x):\n    from main import SCALE\n    return 2 * x if SCALE else 0\n");
    GbRunResult r;
    assert_int_equal(run(fx->pool, &t, &r), GB_RUN_PASS);
    gb_run_result_destroy(&r);
    /* a module path leaving the run directory is refused, not written */
    gb_task_set_file(&t, "../evil.py", "x = 1\n");
    GbError err = {{0}};
    assert_false(gb_pool_run(fx->pool, &t, NULL, &r, &err));
    assert_int_equal(r.status, GB_RUN_ERROR);
    assert_non_null(strstr(err.msg, "evil.py"));
    gb_run_result_destroy(&r);
    gb_task_destroy(&t);
    assert_clean(fx);
}

/* ------------------------------------------------------------------ unittest kind */

static const char *k_stack_src = "class Stack:\n"
                                 "    def __init__(self):\n"
                                 "        self.items = []\n"
                                 "    def push(self, x):\n"
                                 "        self.items.append(x)\n"
                                 "    def pop(self):\n"
                                 "        return self.items.pop()\n";

static void test_runner_unittest_results_structured(void **state)
{
    Fixture *fx = *state;
    const char *tests = "import unittest\n"
                        "class TestPush(unittest.TestCase):\n"
                        "    def test_one(self):\n"
                        "        s = Stack(); s.push(1)\n"
                        "        self.assertEqual(s.items, [1])\n"
                        "    def test_two(self):\n"
                        "        s = Stack(); s.push(1); s.push(2)\n"
                        "        self.assertEqual(len(s.items), 2)\n"
                        "class TestPop(unittest.TestCase):\n"
                        "    def test_pop(self):\n"
                        "        s = Stack(); s.push(5)\n"
                        "        self.assertEqual(s.pop(), 5)\n"
                        "    def test_empty(self):\n"
                        "        self.assertIsNone(Stack().pop())\n"
                        "class TestNothing(unittest.TestCase):\n"
                        "    pass\n";
    GbTask t;
    GbRunResult r;
    static const char *const good[] = {"TestPush", NULL};
    task_unittest(&t, "ut-pass", k_stack_src, tests, good);
    assert_int_equal(run(fx->pool, &t, &r), GB_RUN_PASS);
    assert_int_equal(r.tests_run, 2);
    gb_run_result_destroy(&r);
    gb_task_destroy(&t);

    static const char *const bad[] = {"TestPush", "TestPop", NULL};
    task_unittest(&t, "ut-fail", k_stack_src, tests, bad);
    assert_int_equal(run(fx->pool, &t, &r), GB_RUN_FAIL);
    assert_int_equal(r.tests_run, 4);
    assert_int_equal(r.failed_tests.len, 1);
    assert_string_equal(r.failed_tests.items[0], "TestPop.test_empty");
    assert_string_equal(r.exc_type, "IndexError");
    assert_non_null(strstr(r.failed_test, "TestPop.test_empty"));
    gb_run_result_destroy(&r);
    gb_task_destroy(&t);

    static const char *const empty[] = {"TestPush", "TestNothing", "TestMissing", NULL};
    task_unittest(&t, "ut-empty", k_stack_src, tests, empty);
    assert_int_equal(run(fx->pool, &t, &r), GB_RUN_FAIL);
    assert_int_equal(r.failed_tests.len, 2);
    assert_string_equal(r.failed_tests.items[0], "TestNothing");
    assert_string_equal(r.failed_tests.items[1], "TestMissing");
    gb_run_result_destroy(&r);
    gb_task_destroy(&t);

    /* a test that calls sys.exit is an error of that test, not a pass */
    const char *exiting = "import unittest, sys\n"
                          "class TestExit(unittest.TestCase):\n"
                          "    def test_ok(self):\n"
                          "        self.assertTrue(True)\n"
                          "    def test_exit(self):\n"
                          "        sys.exit(0)\n";
    static const char *const ex[] = {"TestExit", NULL};
    task_unittest(&t, "ut-exit", k_stack_src, exiting, ex);
    assert_int_equal(run(fx->pool, &t, &r), GB_RUN_FAIL);
    assert_string_equal(r.failed_tests.items[0], "TestExit.test_exit");
    gb_run_result_destroy(&r);
    gb_task_destroy(&t);
    assert_clean(fx);
}

/* ------------------------------------------------------------------ stdio kind */

static void test_runner_stdio_output_matches_table(void **state)
{
    (void)state;
    static const struct {
        const char *got, *want;
        bool match;
    } cases[] = {
        {"3\n", "3", true},
        {"  1   2 \n3\n\n", "1 2\n3", true},
        {"1 2\r\n3\r\n", "1 2\n3\n", true},
        {"1 2 3", "1 2\n3", false}, /* same tokens, different line count */
        {"0.0", "0.00000000000000000000", true},
        {"1.00000049", "1.0", true}, /* within 1e-6 */
        {"1.000002", "1.0", false},
        {"0.1666666666666666574", "0.1666666667", true},
        {"abc", "abd", false},
        {"1e3", "1000", true},
        {"0x10", "16", false},
        {"nan", "nan", true}, /* textually equal */
        {"inf", "1e309", false},
        {"", "", true},
        {"\n\n", "", true},
        {"a\n\nb", "a\nb", false}, /* blank line in the middle counts */
        {"YES", "yes", false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (gb_stdio_output_matches(cases[i].got, cases[i].want) != cases[i].match)
            print_error("case %zu: '%s' vs '%s'\n", i, cases[i].got, cases[i].want);
        assert_int_equal(gb_stdio_output_matches(cases[i].got, cases[i].want), cases[i].match);
    }
}

static void test_runner_stdio_cases(void **state)
{
    Fixture *fx = *state;
    const char *src =
        "n = int(input())\nxs = list(map(int, input().split()))\nprint(sum(xs[:n]))\nprint(sum(xs) / 3)\nexit()\n";
    static const char *const io[] = {"2\n1 2 3\n", "3\n2.0\n",        /* exact */
                                     "3\n1 1 1\n", "3  \n1.0000001",  /* tolerant */
                                     "1\n5 0 0\n", "6\n1.6666666667", /* wrong first line */
                                     NULL};
    GbTask t;
    task_stdio(&t, "stdio", src, io);
    GbRunResult r;
    assert_int_equal(run(fx->pool, &t, &r), GB_RUN_FAIL);
    assert_int_equal(r.tests_run, 3);
    assert_int_equal(r.failed_tests.len, 1);
    assert_string_equal(r.failed_tests.items[0], "2");
    assert_string_equal(r.failed_test, "case 2");
    assert_string_equal(r.exc_type, "WrongOutput");
    assert_string_equal(r.out, "5\n1.6666666666666667\n");
    gb_run_result_destroy(&r);
    gb_task_destroy(&t);

    /* an expected output far above the output cap is still compared whole */
    GbStr big;
    gb_str_init(&big);
    for (int i = 0; i < 40000; i++) gb_str_appendf(&big, "%d\n", i);
    const char *long_io[] = {"40000\n", big.data, NULL};
    task_stdio(&t, "stdio-long", "n = int(input())\nprint('\\n'.join(str(i) for i in range(n)))\n", long_io);
    assert_int_equal(run(fx->pool, &t, &r), GB_RUN_PASS);
    assert_int_equal(strlen(r.out), big.len);
    gb_run_result_destroy(&r);
    gb_task_destroy(&t);
    gb_str_destroy(&big);

    static const char *const crash_io[] = {"1\n", "1\n", "2\n", "2\n", NULL};
    task_stdio(&t, "stdio-exit", "import sys\nv = int(input())\nprint(v)\nsys.exit(v - 1)\n", crash_io);
    assert_int_equal(run(fx->pool, &t, &r), GB_RUN_FAIL);
    assert_int_equal(r.failed_tests.len, 1);
    assert_string_equal(r.failed_test, "case 1");
    assert_string_equal(r.exc_type, "SystemExit");
    gb_run_result_destroy(&r);
    gb_task_destroy(&t);
    assert_clean(fx);
}

/* ------------------------------------------------------------------ reliability */

static void test_runner_infinite_loop_and_fork_bomb_time_out(void **state)
{
    Fixture *fx = *state;
    static const char *const srcs[] = {
        "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n",
        "import os, time\nif os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n        time.sleep(1000)\n"
        "while True:\n    pass\n",
    };
    for (size_t i = 0; i < 2; i++) {
        GbTask t;
        task_assert(&t, "hang", srcs[i], "assert True\n");
        GbRunResult r;
        assert_int_equal(run(fx->pool, &t, &r), GB_RUN_TIMEOUT);
        assert_string_equal(r.exc_type, "Timeout");
        gb_run_result_destroy(&r);
        gb_task_destroy(&t);
        assert_clean(fx);
    }
    run_simple_pass(fx->pool);
}

static void test_runner_memory_file_and_output_limits(void **state)
{
    Fixture *fx = *state;
    GbTask t;
    GbRunResult r;
    task_assert(&t, "mem", "x = bytearray(50 * 1024 ** 3)\n", "assert len(x) > 0\n");
    assert_int_equal(run(fx->pool, &t, &r), GB_RUN_FAIL);
    assert_string_equal(r.exc_type, "MemoryError");
    gb_run_result_destroy(&r);
    gb_task_destroy(&t);

    task_assert(&t, "file",
                "block = b'\\0' * (1 << 20)\nwith open('big.bin', 'wb') as f:\n    for _ in range(10 * 1024):\n"
                "        f.write(block)\n",
                "assert True\n");
    assert_int_equal(run(fx->pool, &t, &r), GB_RUN_FAIL);
    assert_string_equal(r.exc_type, "OSError");
    assert_non_null(strstr(r.exc_message, "too large"));
    gb_run_result_destroy(&r);
    gb_task_destroy(&t);

    /* 1 GiB on stdout: kept up to the cap, the rest drained; the program passes */
    task_assert(&t, "print",
                "import sys\nchunk = 'x' * (1 << 20)\nfor _ in range(1024):\n    sys.stdout.write(chunk)\n",
                "assert True\n");
    GbPoolConfig cfg;
    gb_pool_config_defaults(&cfg);
    assert_int_equal(run(fx->strict, &t, &r), GB_RUN_PASS);
    assert_int_equal(strlen(r.out), cfg.output_cap);
    gb_run_result_destroy(&r);
    gb_task_destroy(&t);

    task_assert(&t, "close", "import os, sys\nprint('before')\nsys.stdout.close()\nos.close(1)\nos.close(2)\n",
                "assert True\n");
    assert_int_equal(run(fx->pool, &t, &r), GB_RUN_PASS);
    assert_string_equal(r.out, "before\n");
    gb_run_result_destroy(&r);
    gb_task_destroy(&t);
    assert_clean(fx);
}

static void test_runner_segfault_is_a_crash(void **state)
{
    Fixture *fx = *state;
    GbTask t;
    task_assert(&t, "segv", "import ctypes\nctypes.string_at(0)\n", "assert True\n");
    GbRunResult r;
    assert_int_equal(run(fx->pool, &t, &r), GB_RUN_CRASH);
    assert_int_equal(r.signal, SIGSEGV);
    gb_run_result_destroy(&r);
    gb_task_destroy(&t);
    assert_clean(fx);
    run_simple_pass(fx->pool);
}

static void test_runner_signals_to_the_worker_are_contained(void **state)
{
    Fixture *fx = *state;
    static const char *const srcs[] = {
        "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\n",
        "import os, signal\nos.killpg(os.getpgid(os.getppid()) or os.getppid(), signal.SIGKILL)\n",
        "import os, signal\nos.killpg(0, signal.SIGKILL)\n",
    };
    for (size_t i = 0; i < 3; i++) {
        GbTask t;
        task_assert(&t, "kill", srcs[i], "assert True\n");
        GbRunResult r;
        GbError err = {{0}};
        assert_true(gb_pool_run(fx->pool, &t, NULL, &r, &err));
        assert_int_not_equal(r.status, GB_RUN_ERROR);
        gb_run_result_destroy(&r);
        gb_task_destroy(&t);
        run_simple_pass(fx->pool);
        run_simple_pass(fx->pool);
        assert_clean(fx);
    }
}

static void test_runner_files_outside_are_protected(void **state)
{
    Fixture *fx = *state;
    char dir[300], file[340];
    snprintf(dir, sizeof dir, "%s/precious", g_tmp);
    snprintf(file, sizeof file, "%s/keep.txt", dir);
    assert_int_equal(mkdir(dir, 0755), 0);
    FILE *f = fopen(file, "w");
    fputs("keep\n", f);
    fclose(f);
    char *src = gb_asprintf("import os, shutil\n"
                            "errors = 0\n"
                            "for op in (lambda: os.remove('%s'), lambda: shutil.rmtree('%s'),\n"
                            "           lambda: open('%s', 'w').write('gone')):\n"
                            "    try:\n"
                            "        op()\n"
                            "    except OSError:\n"
                            "        errors += 1\n"
                            "open('mine.txt', 'w').write('ok')\n",
                            file, dir, file);
    GbTask t;
    task_assert(&t, "rm", src, "assert errors == 3, errors\nassert open('mine.txt').read() == 'ok'\n");
    GbRunResult r;
    GbRunStatus s = run(fx->pool, &t, &r);
    if (s != GB_RUN_PASS) print_error("%s: %s\n", r.exc_type, r.exc_message);
    assert_int_equal(s, GB_RUN_PASS);
    gb_run_result_destroy(&r);
    gb_task_destroy(&t);
    free(src);
    size_t len = 0;
    char *text = gb_read_file(file, &len, NULL);
    assert_non_null(text);
    assert_string_equal(text, "keep\n");
    free(text);
    unlink(file);
    rmdir(dir);
    assert_clean(fx);
}

static void test_runner_network_is_refused(void **state)
{
    Fixture *fx = *state;
    int ls = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(bind(ls, (struct sockaddr *)&a, sizeof a), 0);
    assert_int_equal(listen(ls, 4), 0);
    socklen_t alen = sizeof a;
    getsockname(ls, (struct sockaddr *)&a, &alen);
    char *src = gb_asprintf("import socket\n"
                            "def probe():\n"
                            "    s = socket.create_connection(('127.0.0.1', %d), timeout=2)\n"
                            "    s.sendall(b'hello')\n"
                            "    return True\n",
                            ntohs(a.sin_port));
    GbTask t;
    task_assert(&t, "net", src, "assert probe()\n");
    GbRunResult r;
    assert_int_equal(run(fx->pool, &t, &r), GB_RUN_FAIL);
    assert_non_null(r.exc_type);
    assert_string_not_equal(r.exc_type, "AssertionError");
    int c = accept(ls, NULL, NULL);
    assert_true(c < 0 && (errno == EAGAIN || errno == EWOULDBLOCK));
    close(ls);
    gb_run_result_destroy(&r);
    gb_task_destroy(&t);
    free(src);
    assert_clean(fx);
}

static void test_runner_killed_worker_is_replaced(void **state)
{
    Fixture *fx = *state;
    int pids[8];
    assert_int_equal(gb_pool_worker_pids(fx->pool, pids, 8), 6);
    for (int i = 0; i < 6; i++) assert_int_equal(kill(pids[i], SIGKILL), 0);
    int other[4];
    assert_int_equal(gb_pool_worker_pids(fx->plain, other, 4), 3);
    for (int i = 0; i < 3; i++) assert_int_equal(kill(other[i], SIGKILL), 0);
    /* runs rotate over both workers of a kind */
    for (int i = 0; i < 2; i++) run_pass_each_kind(fx->pool);
    run_pass_each_kind(fx->plain);
    int now[8];
    assert_int_equal(gb_pool_worker_pids(fx->pool, now, 8), 6);
    for (int i = 0; i < 6; i++)
        for (int k = 0; k < 6; k++) assert_int_not_equal(now[i], pids[k]);
    assert_clean(fx);
}

/* ------------------------------------------------------------------ concurrency, lint */

static void test_runner_concurrent_runs(void **state)
{
    Fixture *fx = *state;
    enum { N = 24 };
    GbTask tasks[N];
    GbRunResult results[N];
    for (int i = 0; i < N; i++) {
        char test[64];
        snprintf(test, sizeof test, "assert sq(%d) == %d\n", i, i % 3 == 0 ? i * i + 1 : i * i);
        task_assert(&tasks[i], "conc", "def sq(x):\n    return x * x\n", test);
    }
    GbPool *pool = fx->pool;
    bool oks[N];
#pragma omp parallel for num_threads(4) schedule(dynamic) default(none) shared(pool, tasks, results, oks)
    for (int i = 0; i < N; i++) {
        GbError err;
        oks[i] = gb_pool_run(pool, &tasks[i], NULL, &results[i], &err);
    }
    for (int i = 0; i < N; i++) {
        assert_true(oks[i]);
        assert_int_equal(results[i].status, i % 3 == 0 ? GB_RUN_FAIL : GB_RUN_PASS);
        gb_run_result_destroy(&results[i]);
        gb_task_destroy(&tasks[i]);
    }
    GbPoolStats st;
    gb_pool_stats(pool, &st);
    assert_true(st.runs >= N);
    assert_clean(fx);
}

/* A pool that waits for the standard-library set only (spawn_rest) starts one worker of each
 * other set; a second one starts when a run finds the first busy. */
static void test_runner_rest_sets_start_one_worker(void **state)
{
    Fixture *fx = *state;
    GbTask plain, np_tasks[2];
    task_assert(&plain, "plain", "def f(x):\n    return x\n", "assert f(1) == 1\n");
    for (int i = 0; i < 2; i++)
        task_assert(&np_tasks[i], "numpy-slow",
                    "import time\nimport numpy as np\n\n\ndef f(x):\n    time.sleep(1.0)\n"
                    "    return int(np.sum(x))\n",
                    "assert f([1, 2]) == 3\n");
    GbPoolConfig cfg;
    gb_pool_config_defaults(&cfg);
    cfg.workers = 2;
    cfg.timeout_s = 30;
    gb_pool_config_need(&cfg, &plain);
    cfg.spawn_rest = true;
    GbError err = {{0}};
    GbPool *pool = gb_pool_new(&cfg, &err);
    if (!pool) print_error("gb_pool_new: %s\n", err.msg);
    assert_non_null(pool);
    assert_int_equal(gb_pool_worker_pids(pool, NULL, 0), 2 + 1 + 1); /* stdlib x2, numpy, full */
    bool oks[2];
    GbRunResult results[2];
#pragma omp parallel for num_threads(2) default(none) shared(pool, np_tasks, results, oks)
    for (int i = 0; i < 2; i++) {
        GbError e;
        oks[i] = gb_pool_run(pool, &np_tasks[i], NULL, &results[i], &e);
    }
    for (int i = 0; i < 2; i++) {
        assert_true(oks[i]);
        assert_int_equal(results[i].status, GB_RUN_PASS);
        gb_run_result_destroy(&results[i]);
        gb_task_destroy(&np_tasks[i]);
    }
    assert_int_equal(gb_pool_worker_pids(pool, NULL, 0), 2 + 2 + 1); /* the second numpy worker */
    gb_pool_delete(pool);
    gb_task_destroy(&plain);
    assert_clean(fx);
}

/* The child of this process that serves gb_pool_compile (its command line holds the script), or 0. */
static pid_t compile_server_pid(void)
{
    pid_t found = 0;
    DIR *d = opendir("/proc");
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL && !found) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
        char path[300], buf[4096];
        snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f) continue;
        size_t len = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[len] = '\0';
        char *rp = strrchr(buf, ')');
        int ppid;
        char st;
        if (!rp || sscanf(rp + 2, "%c %d", &st, &ppid) != 2 || ppid != getpid()) continue;
        snprintf(path, sizeof path, "/proc/%s/cmdline", e->d_name);
        f = fopen(path, "r");
        if (!f) continue;
        len = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        for (size_t i = 0; i < len; i++)
            if (buf[i] == '\0') buf[i] = ' ';
        buf[len] = '\0';
        if (strstr(buf, "dont_inherit=True")) found = (pid_t)atoi(e->d_name);
    }
    if (d) closedir(d);
    return found;
}

/* gb_pool_compile: CPython's verdict on what tree-sitter accepts, for every module; a killed
 * interpreter is replaced. Prints the cost of one check of a small program. */
static void test_runner_compile_check(void **state)
{
    Fixture *fx = *state;
    static const struct {
        const char *src;
        bool compiles;
    } cases[] = {
        {"def f(x):\n    return x + 1\n", true},
        {"def f(n):\n    last = 0\n    def visit():\n        nonlocal last\n        last: int = 1\n    visit()\n",
         false},
        {"x = 1\nreturn x\n", false},
        {"import os\nfrom __future__ import annotations\n", false},
        {"def f():\n    yield 1\n    return 2\n", true},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        GbProgram p;
        GbTask t;
        task_assert(&t, "compile", cases[i].src, "assert True\n");
        gb_program_from_task(&p, &t);
        bool compiles = !cases[i].compiles;
        GbError err = {{0}};
        assert_true(gb_pool_compile(fx->pool, &p, &compiles, &err));
        if (compiles != cases[i].compiles) fail_msg("case %zu: compiles=%d (%s)", i, compiles, err.msg);
        if (!compiles) assert_non_null(strstr(err.msg, "main.py: SyntaxError"));
        gb_program_destroy(&p);
        gb_task_destroy(&t);
    }
    /* a helper module is compiled too */
    GbProgram p;
    GbTask t;
    task_assert(&t, "compile-modules", "from helper import f\n", "assert True\n");
    gb_task_set_file(&t, "helper.py", "def f(:\n    pass\n");
    gb_program_from_task(&p, &t);
    bool compiles = true;
    GbError err = {{0}};
    assert_true(gb_pool_compile(fx->pool, &p, &compiles, &err));
    assert_false(compiles);
    assert_non_null(strstr(err.msg, "helper.py"));
    /* the interpreter is replaced when it dies */
    pid_t pid = compile_server_pid();
    assert_true(pid > 0);
    kill(pid, SIGKILL);
    compiles = true;
    assert_true(gb_pool_compile(fx->pool, &p, &compiles, &err));
    assert_false(compiles);
    assert_true(compile_server_pid() != pid);
    gb_program_destroy(&p);
    gb_task_destroy(&t);
    /* the cost of a check, for the record */
    task_assert(&t, "compile-cost",
                "import math\n\n\ndef norm(values):\n    total = 0\n    for v in values:\n        total += v * v\n"
                "    return math.sqrt(total)\n",
                "assert True\n");
    gb_program_from_task(&p, &t);
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    enum { ROUNDS = 200 };
    for (int i = 0; i < ROUNDS; i++) assert_true(gb_pool_compile(fx->pool, &p, &compiles, &err) && compiles);
    clock_gettime(CLOCK_MONOTONIC, &b);
    print_message("gb_pool_compile: %.0f us per check of an 8-line program\n",
                  ((double)(b.tv_sec - a.tv_sec) * 1e6 + (double)(b.tv_nsec - a.tv_nsec) / 1e3) / ROUNDS);
    gb_program_destroy(&p);
    gb_task_destroy(&t);
}

static void test_runner_lint_scores(void **state)
{
    Fixture *fx = *state;
    static const struct {
        const char *src;
        double lo, hi;
    } cases[] = {
        {"import numpy as np\n\n\ndef mean(values):\n    return float(np.mean(values))\n", 10.0, 10.0},
        {"import os, sys\ndef f(x):\n  y = 1\n  return x\n", 0.0, 6.0},
    };
    for (size_t i = 0; i < 2; i++) {
        GbProgram p;
        GbTask t;
        task_assert(&t, "lint", cases[i].src, "assert True\n");
        gb_program_from_task(&p, &t);
        double s1 = -1, s2 = -1;
        GbError err = {{0}};
        if (!gb_pool_lint(fx->strict, &p, &s1, &err)) print_error("lint: %s\n", err.msg);
        assert_true(gb_pool_lint(fx->strict, &p, &s2, &err));
        assert_true(s1 >= cases[i].lo && s1 <= cases[i].hi);
        assert_true(s1 == s2); /* deterministic */
        gb_program_destroy(&p);
        gb_task_destroy(&t);
    }
    /* a program split over modules is linted as a whole: the helper import resolves */
    GbProgram p;
    GbTask t;
    task_assert(&t, "lint-modules",
                "from helpers.maths import double\n\n\ndef quad(value):\n    return double(double(value))\n",
                "assert True\n");
    gb_task_set_file(&t, "helpers/__init__.py", "");
    gb_task_set_file(&t, "helpers/maths.py", "def double(value):\n    return 2 * value\n");
    gb_program_from_task(&p, &t);
    double ms = -1;
    GbError merr = {{0}};
    if (!gb_pool_lint(fx->strict, &p, &ms, &merr)) print_error("lint: %s\n", merr.msg);
    assert_true(ms == 10.0);
    gb_program_destroy(&p);
    gb_task_destroy(&t);

    task_assert(&t, "lint", "x = 1\n", "assert True\n");
    gb_program_from_task(&p, &t);
    double s;
    GbError err = {{0}};
    assert_false(gb_pool_lint(fx->pool, &p, &s, &err)); /* started without lint */
    gb_program_destroy(&p);
    gb_task_destroy(&t);
}

/* The pid of a child of process pid (0 if none). */
static int first_child(int pid)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task/%d/children", pid, pid);
    FILE *f = fopen(path, "r");
    int child = 0;
    if (f) {
        if (fscanf(f, "%d", &child) != 1) child = 0;
        fclose(f);
    }
    return child;
}

static void session_case(GbLintSession *ls, GbPool *pool, const char *src, const char *file, const char *body,
                         double *session_score)
{
    GbTask t;
    GbProgram p;
    task_assert(&t, "lint-session", src, "assert True\n");
    if (file) {
        gb_task_set_file(&t, "helpers/__init__.py", "");
        gb_task_set_file(&t, file, body);
    }
    gb_program_from_task(&p, &t);
    double fresh = -1;
    GbError err = {{0}};
    if (!gb_lint_session_lint(ls, &p, session_score, &err)) print_error("session lint: %s\n", err.msg);
    assert_true(*session_score >= 0);
    assert_true(gb_pool_lint(pool, &p, &fresh, &err));
    print_message("  session %.4f, fresh %.4f\n", *session_score, fresh);
    assert_true(*session_score == fresh); /* a session lints like a fresh pylint */
    gb_program_destroy(&p);
    gb_task_destroy(&t);
}

/* A lint session gives the scores of fresh lints, never answers a program's import with an
 * earlier program's module of the same name, and survives its process being killed. */
static void test_runner_lint_session(void **state)
{
    Fixture *fx = *state;
    GbLintSession *ls = gb_lint_session_new(fx->strict);
    double a, b, c, d, e;
    const char *quad = "from helpers.maths import double\n\n\ndef quad(value):\n    return double(double(value))\n";
    session_case(ls, fx->strict, "import numpy as np\n\n\ndef mean(values):\n    return float(np.mean(values))\n", NULL,
                 NULL, &a);
    assert_true(a == 10.0);
    session_case(ls, fx->strict, quad, "helpers/maths.py", "def double(value):\n    return 2 * value\n", &b);
    assert_true(b == 10.0);
    /* same module names, but double is gone: pylint must see this program's helpers */
    session_case(ls, fx->strict, quad, "helpers/maths.py", "def triple(value):\n    return 3 * value\n", &c);
    assert_true(c < 10.0);
    session_case(ls, fx->strict, "import os, sys\ndef f(x):\n  y = 1\n  return x\n", NULL, NULL, &d);
    assert_true(d < 6.0);
    /* kill the session's process: the next lint starts a new one */
    int pids[8];
    size_t n = gb_pool_worker_pids(fx->strict, pids, 8);
    assert_int_equal(n, 4); /* test workers (full), the lint worker, test workers (stdlib, numpy) */
    int session_pid = first_child(pids[1]);
    assert_true(session_pid > 0);
    print_message("  pids %d %d, killing %d\n", pids[0], pids[1], session_pid);
    kill(session_pid, SIGKILL);
    session_case(ls, fx->strict, quad, "helpers/maths.py", "def double(value):\n    return 2 * value\n", &e);
    assert_true(e == 10.0);
    gb_lint_session_delete(ls);
    assert_clean(fx);
}

/* The children of pid (at most max), as listed by the kernel. */
static int children_of(int pid, int *out, int max)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task/%d/children", pid, pid);
    FILE *f = fopen(path, "r");
    int n = 0;
    if (f) {
        while (n < max && fscanf(f, "%d", &out[n]) == 1) n++;
        fclose(f);
    }
    return n;
}

/* The children of pid once there are want of them, waiting up to 2 s: the process of a
 * deleted lint session exits by itself, unwaited for, and its worker then reaps it. */
static int children_settled(int pid, int *out, int max, int want)
{
    int n = children_of(pid, out, max);
    for (int i = 0; i < 200 && n != want; i++) {
        usleep(10000);
        n = children_of(pid, out, max);
    }
    return n;
}

typedef struct {
    GbLintSession *ls;
    const char *const *srcs;
    double scores[3];
    bool ok;
} LintJob;

static void *lint_thread(void *arg)
{
    LintJob *j = arg;
    j->ok = true;
    for (int i = 0; i < 3; i++) {
        GbTask t;
        GbProgram p;
        task_assert(&t, "lint-shared", j->srcs[i], "assert True\n");
        gb_program_from_task(&p, &t);
        GbError err = {{0}};
        if (!gb_lint_session_lint(j->ls, &p, &j->scores[i], &err)) {
            print_error("session lint: %s\n", err.msg);
            j->ok = false;
        }
        gb_program_destroy(&p);
        gb_task_destroy(&t);
    }
    return NULL;
}

/* One lint worker serves several sessions at once (each in a process of its own): sessions
 * linting from two threads get the scores of fresh lints, and killing one session's process
 * leaves the other's alone. */
static void test_runner_lint_sessions_share_worker(void **state)
{
    Fixture *fx = *state;
    const char *const a_srcs[] = {"def add_one(value):\n    return value + 1\n",
                                  "import os, sys\ndef g(x):\n  y = 1\n  return x\n",
                                  "import numpy as np\n\n\ndef mean(v):\n    return float(np.mean(v))\n"};
    const char *const b_srcs[] = {
        "def keep(value):\n    unused = 3\n    return value\n", "def add_one(value):\n    return value + 1\n",
        "class Box:\n    def get(self):\n        return 1\n\n    def put(self):\n        return 2\n"};
    LintJob jobs[2] = {{gb_lint_session_new(fx->strict), a_srcs, {0}, false},
                       {gb_lint_session_new(fx->strict), b_srcs, {0}, false}};
    pthread_t th[2];
    for (int k = 0; k < 2; k++) pthread_create(&th[k], NULL, lint_thread, &jobs[k]);
    for (int k = 0; k < 2; k++) pthread_join(th[k], NULL);
    for (int k = 0; k < 2; k++) {
        assert_true(jobs[k].ok);
        for (int i = 0; i < 3; i++) {
            GbTask t;
            GbProgram p;
            task_assert(&t, "lint-fresh", jobs[k].srcs[i], "assert True\n");
            gb_program_from_task(&p, &t);
            double fresh = -1;
            GbError err = {{0}};
            assert_true(gb_pool_lint(fx->strict, &p, &fresh, &err));
            print_message("  session %d program %d: %.4f, fresh %.4f\n", k, i, jobs[k].scores[i], fresh);
            assert_true(jobs[k].scores[i] == fresh);
            gb_program_destroy(&p);
            gb_task_destroy(&t);
        }
    }
    int pids[8], kids[8];
    assert_int_equal(gb_pool_worker_pids(fx->strict, pids, 8), 4);
    assert_int_equal(children_settled(pids[1], kids, 8, 2), 2); /* both session processes, on the one lint worker */
    kill(kids[0], SIGKILL);
    for (int k = 0; k < 2; k++) pthread_create(&th[k], NULL, lint_thread, &jobs[k]);
    for (int k = 0; k < 2; k++) pthread_join(th[k], NULL);
    assert_true(jobs[0].ok && jobs[1].ok);
    int after[8];
    int n = children_settled(pids[1], after, 8, 2);
    assert_int_equal(n, 2);
    bool survivor = after[0] == kids[1] || after[1] == kids[1];
    assert_true(survivor); /* the other session kept its process */
    for (int k = 0; k < 2; k++) gb_lint_session_delete(jobs[k].ls);
    assert_clean(fx);
}

/* The lint worker is ready before the end of pylint's warm-up, whose second stage it runs
 * between requests: a session forked meanwhile builds the library modules it lacks itself
 * and gives the scores of a session forked after the end (here a no-member found only by
 * inferring into http.client); at its first lint after the end it starts again, from the
 * warm image. */
static void test_runner_lint_session_during_warm_up(void **state)
{
    (void)state;
    /* a second stage of several seconds: the first session is forked well before its end */
    static const char warm[] = "import argparse\nimport datetime\nimport decimal\nimport email.message\n"
                               "import fractions\nimport http.client\nimport json\nimport logging\n"
                               "import statistics\nimport urllib.request\n\n\n"
                               "def use():\n    return http.client.HTTPConnection('h'), datetime.date(2020, 1, 2)\n";
    GbPoolConfig cfg;
    gb_pool_config_defaults(&cfg);
    cfg.workers = 1;
    cfg.timeout_s = 60;
    cfg.lint = true;
    cfg.lint_warm = warm;
    GbError err = {{0}};
    GbPool *pool = gb_pool_new(&cfg, &err);
    if (!pool) print_error("gb_pool_new: %s\n", err.msg);
    assert_non_null(pool);
    const char *srcs[] = {"import datetime\nimport http.client\n\n\ndef stamp(host):\n"
                          "    conn = http.client.HTTPConnection(host, timeout=3)\n"
                          "    conn.no_such_method()\n"
                          "    return conn.host, datetime.date(2020, 1, 2).isoformat()\n",
                          "import json\n\n\ndef dump(value):\n    return json.dumps(value, sort_keys=True)\n"};
    GbLintSession *ls = gb_lint_session_new(pool);
    double during[2], after[2], fresh[2];
    GbProgram p[2];
    for (int i = 0; i < 2; i++) {
        GbTask t;
        task_assert(&t, "lint-warm-up", srcs[i], "assert True\n");
        gb_program_from_task(&p[i], &t);
        gb_task_destroy(&t);
    }
    int pids[8], before[8], later[8];
    assert_true(gb_lint_session_lint(ls, &p[0], &during[0], &err));
    assert_true(gb_lint_session_partial(ls));
    assert_true(gb_lint_session_lint(ls, &p[1], &during[1], &err));
    size_t n = gb_pool_worker_pids(pool, pids, 8);
    assert_true(n >= 2);
    int lint_pid = pids[1]; /* test workers (full), the lint worker, ... */
    assert_int_equal(children_of(lint_pid, before, 8), 1);
    assert_true(gb_pool_lint_await_warm(pool, &err));
    for (int i = 0; i < 2; i++) assert_true(gb_lint_session_lint(ls, &p[i], &after[i], &err));
    assert_false(gb_lint_session_partial(ls));
    assert_int_equal(children_settled(lint_pid, later, 8, 1), 1);
    print_message("  session process %d during the warm-up, %d after it\n", before[0], later[0]);
    assert_true(later[0] != before[0]); /* started again from the warm image */
    for (int i = 0; i < 2; i++) {
        assert_true(gb_pool_lint(pool, &p[i], &fresh[i], &err));
        print_message("  program %d: during %.4f, after %.4f, fresh %.4f\n", i, during[i], after[i], fresh[i]);
        assert_true(during[i] == fresh[i] && after[i] == fresh[i]);
    }
    assert_true(fresh[0] < 10.0); /* the no-member */
    assert_true(fresh[1] == 10.0);
    for (int i = 0; i < 2; i++) gb_program_destroy(&p[i]);
    gb_lint_session_delete(ls);
    gb_pool_delete(pool);
}

/* ------------------------------------------------------------------ remap */

/* The remap (src/runner/remap.c) changes how a worker's memory is backed, never what a program
 * sees: programs that exercise the remapped libraries, load new ones, make executable
 * trampolines, start threads and processes give the same output with and without it. */
static void test_runner_remap_keeps_behaviour(void **state)
{
    Fixture *fx = *state;
    const char *said = gb_pool_remap(fx->pool);
    print_message("  remap: %s\n", said);
    /* Either it happened, or the worker said why not (e.g. no transparent huge pages). */
    assert_true(strncmp(said, "remapped ", 9) == 0 || strncmp(said, "not remapped: ", 14) == 0);
    if (strncmp(said, "remapped ", 9) == 0) {
        const char *arrow = strstr(said, "-> ");
        assert_non_null(arrow);
        assert_true(atoi(arrow + 3) > 0 && atoi(arrow + 3) < 200); /* from about 800 */
    }
    GbPoolConfig cfg;
    gb_pool_config_defaults(&cfg);
    cfg.workers = 1;
    cfg.timeout_s = 30;
    cfg.cpu_s = 30;
    cfg.no_remap = true;
    GbError err = {{0}};
    GbPool *off = gb_pool_new(&cfg, &err);
    assert_non_null(off);
    assert_string_equal(gb_pool_remap(off), "off");
    /* and without the native helpers at all: the worker waits for its children in Python */
    cfg.no_native = true;
    cfg.timeout_s = 1.5;
    GbPool *py = gb_pool_new(&cfg, &err);
    assert_non_null(py);
    assert_string_equal(gb_pool_remap(py), "off");
    static const char *const programs[] = {
        /* numpy and BLAS/LAPACK */
        "import numpy as np\n"
        "rng = np.random.default_rng(7)\n"
        "a = rng.normal(size=(6, 6))\n"
        "print(np.round(np.linalg.svd(a, compute_uv=False), 9).tolist())\n"
        "print(np.round(np.fft.fft(np.arange(8.0)).real, 9).tolist(), int(np.cumsum(np.arange(100)).sum()))\n",
        /* scipy, including modules no worker preloads (loaded after the remap) */
        "import scipy.stats, scipy.special, scipy.optimize, scipy.integrate, scipy.sparse.linalg\n"
        "import numpy as np\n"
        "print(round(scipy.stats.norm.cdf(1.5), 12), round(float(scipy.special.gamma(4.5)), 12))\n"
        "r = scipy.optimize.minimize(lambda x: (x[0] - 3) ** 2 + (x[1] + 1) ** 2, [0, 0])\n"
        "print(np.round(r.x, 5).tolist(), round(scipy.integrate.quad(np.sin, 0, np.pi)[0], 10))\n"
        "m = scipy.sparse.csr_matrix(np.eye(4) * 2.0)\n"
        "print(scipy.sparse.linalg.spsolve(m, np.ones(4)).tolist())\n",
        /* sklearn */
        "from sklearn.utils import shuffle\n"
        "from sklearn.linear_model import LinearRegression\n"
        "import numpy as np\n"
        "print(shuffle(list(range(10)), random_state=3))\n"
        "x = np.arange(20.0).reshape(-1, 1)\n"
        "print(round(float(LinearRegression().fit(x, 3 * x.ravel() + 2).coef_[0]), 9))\n",
        /* cryptography (Rust and OpenSSL), hashlib, hmac */
        "from cryptography.fernet import Fernet\n"
        "from cryptography.hazmat.primitives import hashes\n"
        "import hashlib, hmac\n"
        "f = Fernet(b'0' * 43 + b'=')\n"
        "print(f.decrypt(f.encrypt(b'secret')))\n"
        "h = hashes.Hash(hashes.SHA256())\n"
        "h.update(b'abc')\n"
        "print(h.finalize().hex(), hashlib.sha256(b'abc').hexdigest())\n"
        "print(hmac.new(b'k', b'm', 'sha1').hexdigest())\n",
        /* ctypes calls and libffi closures (executable trampolines), threads, a subprocess */
        "import ctypes, threading, subprocess\n"
        "from concurrent.futures import ThreadPoolExecutor\n"
        "libc = ctypes.CDLL(None)\n"
        "arr = (ctypes.c_int * 5)(5, 1, 4, 2, 3)\n"
        "CMP = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int))\n"
        "libc.qsort(arr, 5, ctypes.sizeof(ctypes.c_int), CMP(lambda a, b: a[0] - b[0]))\n"
        "print(list(arr), libc.strlen(b'hello'))\n"
        "with ThreadPoolExecutor(4) as ex:\n"
        "    print(sum(ex.map(lambda n: n * n, range(100))))\n"
        "print(subprocess.run(['/bin/echo', 'child'], capture_output=True, text=True).stdout.strip())\n",
        /* extension modules loaded after the remap */
        "import lzma, bz2, zlib, sqlite3, decimal\n"
        "import xml.etree.ElementTree as ET\n"
        "data = b'genebench' * 50\n"
        "print(len(lzma.compress(data)) > 0, bz2.decompress(bz2.compress(data)) == data, zlib.crc32(data))\n"
        "db = sqlite3.connect(':memory:')\n"
        "print(db.execute('select sum(value) from json_each(\\'[1,2,3]\\')').fetchone())\n"
        "print(ET.fromstring('<a><b>x</b></a>').find('b').text, decimal.Decimal(1) / decimal.Decimal(7))\n",
    };
    for (size_t i = 0; i < sizeof programs / sizeof *programs; i++) {
        GbTask t;
        char id[32];
        snprintf(id, sizeof id, "remap-%zu", i);
        task_assert(&t, id, programs[i], "assert True\n");
        GbRunResult on_r, off_r, py_r;
        assert_int_equal(run(fx->strict, &t, &on_r), GB_RUN_PASS);
        assert_int_equal(run(off, &t, &off_r), GB_RUN_PASS);
        assert_int_equal(run(py, &t, &py_r), GB_RUN_PASS);
        if (strcmp(on_r.out, off_r.out) != 0)
            print_error("%s: remapped:\n%s\nnot remapped:\n%s\n", id, on_r.out, off_r.out);
        assert_string_equal(on_r.out, off_r.out);
        assert_string_equal(on_r.out, py_r.out);
        assert_true(strlen(on_r.out) > 10);
        gb_run_result_destroy(&on_r);
        gb_run_result_destroy(&off_r);
        gb_run_result_destroy(&py_r);
        gb_task_destroy(&t);
    }
    /* The Python wait loop also times out, kills and reaps a run, and reports a crash. */
    GbTask t;
    task_assert(&t, "py-forever", "import os\nif os.fork() == 0:\n    os.setsid()\nwhile True:\n    pass\n",
                "assert True\n");
    GbRunResult r;
    assert_int_equal(run(py, &t, &r), GB_RUN_TIMEOUT);
    gb_run_result_destroy(&r);
    gb_task_destroy(&t);
    task_assert(&t, "py-segv", "import ctypes\nctypes.string_at(0)\n", "assert True\n");
    assert_int_equal(run(py, &t, &r), GB_RUN_CRASH);
    assert_int_equal(r.signal, SIGSEGV);
    gb_run_result_destroy(&r);
    gb_task_destroy(&t);
    run_simple_pass(py);
    gb_pool_delete(py);
    gb_pool_delete(off);
    assert_clean(fx);
}

/* A run's directory is a tmpfs of cfg.disk_mb in the namespaced modes: many files, each
 * under the file-size limit, stop at the cap with ENOSPC instead of filling the host's disk. */
static void test_runner_disk_is_capped(void **state)
{
    Fixture *fx = *state;
    GbPoolConfig cfg;
    gb_pool_config_defaults(&cfg);
    cfg.workers = 1;
    cfg.disk_mb = 16;
    GbError err = {{0}};
    GbPool *pool = gb_pool_new(&cfg, &err);
    if (!pool) print_error("gb_pool_new: %s\n", err.msg);
    assert_non_null(pool);
    if (strcmp(gb_pool_sandbox(pool), "plain") == 0) {
        print_message("  plain sandbox here: no disk cap to test\n");
        gb_pool_delete(pool);
        return;
    }
    GbTask t;
    task_assert(&t, "disk",
                "total = 0\n"
                "err = None\n"
                "try:\n"
                "    for i in range(64):\n"
                "        with open('f%d' % i, 'wb') as f:\n"
                "            for _ in range(4):\n"
                "                f.write(b'x' * (1 << 20))\n"
                "                f.flush()\n"
                "                total += 1 << 20\n"
                "except OSError as e:\n"
                "    err = e.errno\n",
                "import errno\nassert err == errno.ENOSPC and 8 << 20 <= total <= 16 << 20, (err, total)\n");
    GbRunResult r;
    assert_int_equal(run(pool, &t, &r), GB_RUN_PASS);
    gb_run_result_destroy(&r);
    /* the next run starts with the whole cap again: the directory was removed */
    assert_int_equal(run(pool, &t, &r), GB_RUN_PASS);
    gb_run_result_destroy(&r);
    gb_task_destroy(&t);
    assert_int_equal(leftover_run_dirs(), 0);
    gb_pool_delete(pool);
    assert_clean(fx);
}

/* ------------------------------------------------------------------ pools in every mode */

static void reliability_subset(const Fixture *fx, GbPool *pool, const char *mode)
{
    int port;
    int ls = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bind(ls, (struct sockaddr *)&a, sizeof a);
    listen(ls, 4);
    socklen_t alen = sizeof a;
    getsockname(ls, (struct sockaddr *)&a, &alen);
    port = ntohs(a.sin_port);
    char *net = gb_asprintf("import socket\nsocket.create_connection(('127.0.0.1', %d), timeout=2)\n", port);
    static const char *const srcs[] = {
        "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n",
        "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\n",
        "import os, time\nif os.fork() == 0:\n    os.setsid()\n    time.sleep(1000)\n",
    };
    const GbRunStatus want[] = {GB_RUN_TIMEOUT, (GbRunStatus)-1, GB_RUN_PASS};
    for (size_t i = 0; i < 4; i++) {
        GbTask t;
        task_assert(&t, mode, i < 3 ? srcs[i] : net, "assert True\n");
        GbRunResult r;
        GbError err = {{0}};
        assert_true(gb_pool_run(pool, &t, NULL, &r, &err));
        if (i < 3 && want[i] != (GbRunStatus)-1) assert_int_equal(r.status, want[i]);
        if (i == 3) assert_int_equal(r.status, GB_RUN_FAIL);
        assert_int_not_equal(r.status, GB_RUN_ERROR);
        gb_run_result_destroy(&r);
        gb_task_destroy(&t);
        run_simple_pass(pool);
        /* only the workers (and the compile check's interpreter) remain: every process of the run is gone */
        assert_int_equal(descendants(NULL, 0), fx->workers + (compile_server_pid() > 0));
    }
    assert_true(accept(ls, NULL, NULL) < 0);
    close(ls);
    free(net);
}

static void test_runner_every_sandbox_mode(void **state)
{
    Fixture *fx = *state;
    GbPool *pools[] = {fx->userns, fx->plain};
    const int modes[] = {GB_SANDBOX_USERNS, GB_SANDBOX_PLAIN};
    for (size_t i = 0; i < 2; i++) {
        assert_string_equal(gb_pool_sandbox(pools[i]), gb_sandbox_mode_name((GbSandboxMode)modes[i]));
        reliability_subset(fx, pools[i], gb_pool_sandbox(pools[i]));
    }
    /* what a mode lacks is stated */
    assert_non_null(strstr(gb_pool_sandbox_detail(fx->plain), "plain (no namespaces: the host's /proc"));
    assert_int_equal(strncmp(gb_pool_sandbox_detail(fx->userns), "userns", 6), 0);
    print_message("  sandbox: %s; %s\n", gb_pool_sandbox_detail(fx->pool), gb_pool_sandbox_detail(fx->userns));
    assert_clean(fx);
}

/* ------------------------------------------------------------------ commands (gb_pool_exec) */

static GbRunStatus exec_sh(GbPool *pool, const char *script, const char *in, const GbRunFile *files, size_t nfiles,
                           const char *collect, GbRunResult *r, GbRunFiles *got)
{
    const char *argv[] = {"/bin/sh", "-c", script, NULL};
    const char *env[] = {"GB_TEST_VAR=seen", NULL};
    GbExecSpec spec = {.argv = argv,
                       .env = env,
                       .files = files,
                       .nfiles = nfiles,
                       .stdin_text = in,
                       .timeout_s = 1.5,
                       .collect_suffix = collect};
    GbError err = {{0}};
    bool ok = gb_pool_exec(pool, &spec, r, got, &err);
    if (!ok) print_error("gb_pool_exec: %s\n", err.msg);
    assert_true(ok);
    return r->status;
}

static void test_runner_exec_commands(void **state)
{
    Fixture *fx = *state;
    GbPool *pools[] = {fx->pool, fx->userns, fx->plain};
    for (size_t p = 0; p < 3; p++) {
        GbPool *pool = pools[p];
        GbRunResult r;
        /* exit status, stdin, stdout, stderr, the environment, the run directory */
        assert_int_equal(
            exec_sh(pool, "read x; echo got $x $GB_TEST_VAR; echo oops >&2; exit 3", "41\n", NULL, 0, NULL, &r, NULL),
            GB_RUN_FAIL);
        assert_string_equal(r.out, "got 41 seen\n");
        assert_string_equal(r.err, "oops\n");
        assert_string_equal(r.exc_type, "ExitStatus");
        assert_string_equal(r.exc_message, "exit status 3");
        gb_run_result_destroy(&r);
        /* files in, files out: binary data (with NULs) survive both ways; links are not collected */
        GbRunFile in = {"a.bin", "x\0y", 3};
        GbRunFiles got = {0};
        assert_int_equal(exec_sh(pool, "cat a.bin > b.bin; printf 'z\\000' >> b.bin; ln -s /etc/passwd c.bin", NULL,
                                 &in, 1, ".bin", &r, &got),
                         GB_RUN_PASS);
        assert_int_equal(got.len, 2);
        for (size_t i = 0; i < got.len; i++) {
            if (strcmp(got.items[i].name, "b.bin") == 0) {
                assert_int_equal(got.items[i].len, 5);
                assert_memory_equal(got.items[i].data, "x\0yz\0", 5);
            } else {
                assert_string_equal(got.items[i].name, "a.bin");
            }
        }
        gb_run_files_destroy(&got);
        gb_run_result_destroy(&r);
        /* the command cannot forge a result record: writing one into every descriptor does not
         * make a failing command pass, nor an error out of a passing one */
        assert_int_equal(exec_sh(pool,
                                 "for fd in 3 4 5 6 7 8 9; do printf '\\030\\000\\000\\000\\007\\000\\000\\000outcome"
                                 "\\004\\000\\000\\000pass' >&$fd; done 2>/dev/null; exit 1",
                                 NULL, NULL, 0, NULL, &r, NULL),
                         GB_RUN_FAIL);
        gb_run_result_destroy(&r);
        /* a hang (and what it started) is killed at the wall-clock limit */
        assert_int_equal(exec_sh(pool, "sleep 100 & while :; do :; done", NULL, NULL, 0, NULL, &r, NULL),
                         GB_RUN_TIMEOUT);
        assert_string_equal(r.exc_message, "wall-clock limit of 1.5 s exceeded");
        gb_run_result_destroy(&r);
        /* a signal is a crash */
        assert_int_equal(exec_sh(pool, "kill -SEGV $$", NULL, NULL, 0, NULL, &r, NULL), GB_RUN_CRASH);
        gb_run_result_destroy(&r);
        /* exec_nothing: the command itself runs, and nothing it starts (an interpreter, a shell,
         * itself again); without it the same script starts them */
        static const char *const starts[] = {"/usr/bin/python3 -c 'print(7)'", "/bin/sh -c 'echo 7'", "/bin/echo 7"};
        for (size_t i = 0; i < sizeof starts / sizeof *starts; i++) {
            const char *sargv[] = {"/bin/sh", "-c", starts[i], NULL};
            GbExecSpec only = {.argv = sargv, .timeout_s = 5, .exec_nothing = true};
            GbError e = {{0}};
            assert_true(gb_pool_exec(pool, &only, &r, NULL, &e));
            assert_int_equal(r.status, GB_RUN_FAIL);
            assert_string_equal(r.out, "");
            assert_non_null(strstr(r.err, "Permission denied"));
            gb_run_result_destroy(&r);
            only.exec_nothing = false;
            assert_true(gb_pool_exec(pool, &only, &r, NULL, &e));
            assert_int_equal(r.status, GB_RUN_PASS);
            assert_string_equal(r.out, "7\n");
            gb_run_result_destroy(&r);
        }
        /* a command the sandbox cannot start is the runner's error, not the program's */
        const char *argv[] = {"/nonexistent/tool", NULL};
        GbExecSpec spec = {.argv = argv};
        GbError err = {{0}};
        assert_true(gb_pool_exec(pool, &spec, &r, NULL, &err));
        assert_int_equal(r.status, GB_RUN_ERROR);
        assert_non_null(strstr(r.exc_message, "not an executable file"));
        gb_run_result_destroy(&r);
    }
    assert_clean(fx);
}

static void test_runner_bad_interpreters(void **state)
{
    (void)state;
    GbPoolConfig cfg;
    gb_pool_config_defaults(&cfg);
    cfg.workers = 1;
    GbError err = {{0}};
    cfg.python = "/nonexistent/python3";
    assert_null(gb_pool_new(&cfg, &err));
    assert_non_null(strstr(err.msg, "/nonexistent/python3"));
    /* an interpreter without dist-packages: the message names the module and interpreter */
    char wrapper[300];
    snprintf(wrapper, sizeof wrapper, "%s/bare-python", g_tmp);
    FILE *f = fopen(wrapper, "w");
    fprintf(f, "#!/bin/sh\nexec %s -S \"$@\"\n", GB_DEFAULT_PYTHON);
    fclose(f);
    chmod(wrapper, 0755);
    cfg.python = wrapper;
    assert_null(gb_pool_new(&cfg, &err));
    assert_non_null(strstr(err.msg, "'numpy'"));
    assert_non_null(strstr(err.msg, wrapper));
    unlink(wrapper);
}

static void *interrupter(void *arg)
{
    GbPool *pool = arg;
    usleep(300 * 1000);
    gb_pool_interrupt(pool);
    return NULL;
}

static void test_runner_interrupt_stops_runs(void **state)
{
    Fixture *fx = *state;
    GbPool *pool = fx->userns; /* the last test: this pool stays interrupted */
    GbTask t;
    task_assert(&t, "forever", "while True:\n    pass\n", "assert True\n");
    pthread_t th;
    pthread_create(&th, NULL, interrupter, pool);
    GbRunResult r;
    GbError err = {{0}};
    assert_false(gb_pool_run(pool, &t, NULL, &r, &err));
    assert_int_equal(r.status, GB_RUN_ERROR);
    assert_non_null(strstr(err.msg, "interrupted"));
    pthread_join(th, NULL);
    gb_run_result_destroy(&r);
    assert_false(gb_pool_run(pool, &t, NULL, &r, &err)); /* stays interrupted */
    gb_run_result_destroy(&r);
    gb_task_destroy(&t);
    assert_clean(fx);
}

int main(void)
{
    snprintf(g_tmp, sizeof g_tmp, "/tmp/gb-test-runner-XXXXXX");
    if (!mkdtemp(g_tmp)) return 1;
    chmod(g_tmp, 0755);
    setenv("TMPDIR", g_tmp, 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_runner_stdio_output_matches_table),
        cmocka_unit_test(test_runner_assert_pass_and_fail_named),
        cmocka_unit_test(test_runner_assert_output_recorded_and_stderr_gate),
        cmocka_unit_test(test_runner_assert_sys_exit_is_not_a_pass),
        cmocka_unit_test(test_runner_seal_covers_every_harness_module),
        cmocka_unit_test(test_runner_helper_modules_share_main),
        cmocka_unit_test(test_runner_unittest_results_structured),
        cmocka_unit_test(test_runner_stdio_cases),
        cmocka_unit_test(test_runner_infinite_loop_and_fork_bomb_time_out),
        cmocka_unit_test(test_runner_memory_file_and_output_limits),
        cmocka_unit_test(test_runner_segfault_is_a_crash),
        cmocka_unit_test(test_runner_signals_to_the_worker_are_contained),
        cmocka_unit_test(test_runner_files_outside_are_protected),
        cmocka_unit_test(test_runner_network_is_refused),
        cmocka_unit_test(test_runner_killed_worker_is_replaced),
        cmocka_unit_test(test_runner_concurrent_runs),
        cmocka_unit_test(test_runner_rest_sets_start_one_worker),
        cmocka_unit_test(test_runner_compile_check),
        cmocka_unit_test(test_runner_lint_scores),
        cmocka_unit_test(test_runner_lint_session),
        cmocka_unit_test(test_runner_lint_sessions_share_worker),
        cmocka_unit_test(test_runner_lint_session_during_warm_up),
        cmocka_unit_test(test_runner_remap_keeps_behaviour),
        cmocka_unit_test(test_runner_disk_is_capped),
        cmocka_unit_test(test_runner_every_sandbox_mode),
        cmocka_unit_test(test_runner_exec_commands),
        cmocka_unit_test(test_runner_bad_interpreters),
        cmocka_unit_test(test_runner_interrupt_stops_runs),
    };
    int failed = cmocka_run_group_tests(tests, setup, teardown);
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
