/* The runner's test kinds: assert, unittest and stdio runs, their result fields and output,
 * the seal over every harness module, and the stdio comparison. */
#include "tests/unit/runner_fixture.h"

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
    int modules = harness_modules(names, 64), unreachable = 0;
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
        /* a module of the judge's process (harness.py itself: the program's process is forked
         * from a thread of the judge, with __main__ the program's) is not in the program's reach */
        if (strcmp(r.exc_type, "LookupError") == 0 && strcmp(r.exc_message, name) == 0) {
            unreachable++;
        } else {
            assert_string_equal(r.exc_type, "Tampering");
            assert_non_null(strstr(r.exc_message, "the program replaced the harness's "));
        }
        gb_run_result_destroy(&r);
        gb_task_destroy(&t);
        free(src);
    }
    assert_true(unreachable < modules);
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

/* Three cases, run apart and together: exact, within the tolerance, a wrong first line. */
static const char *const stdio_src =
    "n = int(input())\nxs = list(map(int, input().split()))\nprint(sum(xs[:n]))\nprint(sum(xs) / 3)\nexit()\n";
static const char *const stdio_io[] = {"2\n1 2 3\n", "3\n2.0\n",        /* exact */
                                       "3\n1 1 1\n", "3  \n1.0000001",  /* tolerant */
                                       "1\n5 0 0\n", "6\n1.6666666667", /* wrong first line */
                                       NULL};

static void test_runner_stdio_cases(void **state)
{
    Fixture *fx = *state;
    GbTask t;
    task_stdio(&t, "stdio", stdio_src, stdio_io);
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

/* The same cases in one probe: judged as runs of their own would be, each case a fresh __main__. */
static void test_runner_stdio_cases_together(void **state)
{
    Fixture *fx = *state;
    GbTask t;
    GbError err;
    task_stdio(&t, "stdio", stdio_src, stdio_io);
    assert_true(gb_pool_cases_together_ok(fx->pool, &t));
    GbRunResult r;
    assert_true(gb_pool_run_cases_together(fx->pool, &t, NULL, &r, &err));
    assert_int_equal(r.status, GB_RUN_FAIL);
    assert_int_equal(r.tests_run, 3);
    assert_int_equal(r.failed_tests.len, 1);
    assert_string_equal(r.failed_tests.items[0], "2");
    assert_string_equal(r.failed_test, "case 2");
    assert_string_equal(r.exc_type, "WrongOutput");
    gb_run_result_destroy(&r);
    gb_task_destroy(&t);

    /* module state does not carry from one case to the next */
    static const char *const fresh_io[] = {"a\n", "1\n", "b\n", "1\n", NULL};
    task_stdio(&t, "stdio-fresh", "try:\n    SEEN += 1\nexcept NameError:\n    SEEN = 1\ninput()\nprint(SEEN)\n",
               fresh_io);
    assert_true(gb_pool_run_cases_together(fx->pool, &t, NULL, &r, &err));
    assert_int_equal(r.status, GB_RUN_PASS);
    assert_int_equal(r.tests_run, 2);
    gb_run_result_destroy(&r);
    gb_task_destroy(&t);

    /* a program whose open(0) closes fd 0 when its file goes: the next case still reads its own stdin */
    static const char *const fd0_io[] = {"1 2\n", "3\n", "4 5 6\n", "15\n", "7\n", "7\n", NULL};
    task_stdio(&t, "stdio-fd0", "print(sum(map(int, open(0).read().split())))\n", fd0_io);
    assert_true(gb_pool_run_cases_together(fx->pool, &t, NULL, &r, &err));
    assert_int_equal(r.status, GB_RUN_PASS);
    assert_int_equal(r.tests_run, 3);
    gb_run_result_destroy(&r);
    gb_task_destroy(&t);

    static const char *const exit_io[] = {"1\n", "1\n", "2\n", "2\n", NULL};
    task_stdio(&t, "stdio-exit", "import sys\nv = int(input())\nprint(v)\nsys.exit(v - 1)\n", exit_io);
    assert_true(gb_pool_run_cases_together(fx->pool, &t, NULL, &r, &err));
    assert_int_equal(r.status, GB_RUN_FAIL);
    assert_string_equal(r.failed_test, "case 1");
    assert_string_equal(r.exc_type, "SystemExit");
    gb_run_result_destroy(&r);
    gb_task_destroy(&t);

    static const char *const raise_io[] = {"0\n", "0\n", NULL};
    task_stdio(&t, "stdio-raise", "v = int(input())\nprint(v)\nprint(1 // v)\n", raise_io);
    assert_true(gb_pool_run_cases_together(fx->pool, &t, NULL, &r, &err));
    assert_int_equal(r.status, GB_RUN_FAIL);
    assert_string_equal(r.exc_type, "ZeroDivisionError");
    gb_run_result_destroy(&r);
    gb_task_destroy(&t);

    /* refused: an expected output a probe would clip, and tests that are not stdio cases */
    GbStr big;
    gb_str_init(&big);
    for (int i = 0; i < 4000; i++) gb_str_appendf(&big, "%d\n", i);
    const char *long_io[] = {"4000\n", big.data, NULL};
    task_stdio(&t, "stdio-long", "n = int(input())\nprint('\\n'.join(str(i) for i in range(n)))\n", long_io);
    assert_false(gb_pool_cases_together_ok(fx->pool, &t));
    assert_false(gb_pool_run_cases_together(fx->pool, &t, NULL, &r, &err));
    gb_run_result_destroy(&r);
    gb_task_destroy(&t);
    gb_str_destroy(&big);
    task_assert(&t, "assert", "def f(x):\n    return x\n", "assert f(1) == 1\n");
    assert_false(gb_pool_cases_together_ok(fx->pool, &t));
    gb_task_destroy(&t);
    assert_clean(fx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_runner_stdio_output_matches_table),
        cmocka_unit_test(test_runner_assert_pass_and_fail_named),
        cmocka_unit_test(test_runner_assert_output_recorded_and_stderr_gate),
        cmocka_unit_test(test_runner_assert_sys_exit_is_not_a_pass),
        cmocka_unit_test(test_runner_seal_covers_every_harness_module),
        cmocka_unit_test(test_runner_helper_modules_share_main),
        cmocka_unit_test(test_runner_unittest_results_structured),
        cmocka_unit_test(test_runner_stdio_cases),
        cmocka_unit_test(test_runner_stdio_cases_together),
    };
    return runner_main("test_runner", tests, sizeof tests / sizeof *tests);
}
