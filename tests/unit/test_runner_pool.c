/* The runner's pools: a killed worker replaced, concurrent runs, import sets started on demand,
 * the compile check, the lint worker and its sessions, and remapped runs that keep behaviour. */
#include "tests/unit/runner_fixture.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_runner_concurrent_runs),
        cmocka_unit_test(test_runner_rest_sets_start_one_worker),
        cmocka_unit_test(test_runner_compile_check),
        cmocka_unit_test(test_runner_lint_scores),
        cmocka_unit_test(test_runner_lint_session),
        cmocka_unit_test(test_runner_lint_sessions_share_worker),
        cmocka_unit_test(test_runner_lint_session_during_warm_up),
        cmocka_unit_test(test_runner_remap_keeps_behaviour),
        cmocka_unit_test(test_runner_disk_is_capped),
    };
    return runner_main("test_runner_pool", tests, sizeof tests / sizeof *tests);
}
