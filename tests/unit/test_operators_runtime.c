/* Operators that change how a computation runs: S4 AddThread, S9 ReplaceNumpy and S11
 * TransformLoopToRecursion. Before/after cases, refusal cases (sites that must not be listed),
 * and behaviour checks under /usr/bin/python3 over several seeds and sites. */
#include "tests/unit/op_behaviour.h"

static void test_s4_runs_call_in_thread(void **state)
{
    (void)state;
    expect_applied(GB_OP_S4,
                   "def f(xs):\n"
                   "    total = sum(xs, start=1)\n"
                   "    return total\n",
                   "total = sum", 1,
                   "import concurrent.futures as concurrent_futures\n"
                   "def f(xs):\n"
                   "    with concurrent_futures.ThreadPoolExecutor(max_workers=1) as queue_pool:\n"
                   "        total = queue_pool.submit(sum, xs, start=1).result()\n"
                   "    return total\n");
}

static const char *const s4_prog = "import sys\n"
                                   "LOG = []\n"
                                   "class Bad(Exception):\n"
                                   "    pass\n"
                                   "def parse(text, base=10):\n"
                                   "    if not text:\n"
                                   "        raise Bad('empty', text)\n"
                                   "    return int(text, base)\n"
                                   "def quit_now(code):\n"
                                   "    sys.exit(code)\n"
                                   "def run(items, default):\n"
                                   "    first = second = parse(items[0], base=16)\n"
                                   "    count: int = len(items)\n"
                                   "    LOG.append(first)\n"
                                   "    squares = sorted(x * x for x in items_as_ints(items))\n"
                                   "    print('run', first, second, count, squares)\n"
                                   "    return parse(items[-1] if items[-1] else default)\n"
                                   "def items_as_ints(items):\n"
                                   "    return [int(i, 16) for i in items if i]\n"
                                   "value = run(['a', '10'], '7')\n";

static void test_s4_values_exceptions_and_exit_are_unchanged(void **state)
{
    (void)state;
    const char *check = "print(value, LOG)\n"
                        "try:\n"
                        "    run(['', '1'], '2')\n"
                        "except Bad as e:\n"
                        "    print('Bad', e.args, type(e).__name__)\n"
                        "try:\n"
                        "    run(['f', ''], '')\n"
                        "except Bad as e:\n"
                        "    print('Bad', e.args)\n"
                        "try:\n"
                        "    quit_now(3)\n"
                        "except SystemExit as e:\n"
                        "    print('exit', e.code)\n"
                        "print(run(['ff', ''], '12'))\n";
    expect_same_behaviour(GB_OP_S4, s4_prog, check, 2);
    /* The very exception object the callee raised reaches the caller. */
    const char *prog = "SEEN = []\n"
                       "def boom():\n"
                       "    e = KeyError('k')\n"
                       "    SEEN.append(e)\n"
                       "    raise e\n"
                       "def call():\n"
                       "    boom()\n";
    expect_same_behaviour(GB_OP_S4, prog, "try:\n    call()\nexcept KeyError as e:\n    print(e is SEEN[0], repr(e))\n",
                          2);
}

/* The class forms: the thread code lives in a runner method of the class (called through
 * `self`, C7) or in a static method of a new class just before it (called through that class,
 * C6). */
static const char *const s4_class_prog = "class Cart:\n"
                                         "    def __init__(self, items):\n"
                                         "        self.items = list(items)\n"
                                         "\n"
                                         "    def total(self):\n"
                                         "        return sum(x for x in self.items)\n"
                                         "\n"
                                         "    def tags(self):\n"
                                         "        out = dict(self=1, func=2, args=3, kwargs=4, function=5, fn=6)\n"
                                         "        return out\n"
                                         "\n"
                                         "    def first(self):\n"
                                         "        value = self.items.pop(0)\n"
                                         "        return value\n";

static void test_s4_class_forms(void **state)
{
    (void)state;
    expect_applied_tag(GB_OP_S4, s4_class_prog, "value = self", "method", 1,
                       "import concurrent.futures as concurrent_futures\n"
                       "class Cart:\n"
                       "    def __init__(self, items):\n"
                       "        self.items = list(items)\n"
                       "\n"
                       "    def total(self):\n"
                       "        return sum(x for x in self.items)\n"
                       "\n"
                       "    def tags(self):\n"
                       "        out = dict(self=1, func=2, args=3, kwargs=4, function=5, fn=6)\n"
                       "        return out\n"
                       "\n"
                       "    def extract_reading(self, action, /, *argv, **keywords):\n"
                       "        with concurrent_futures.ThreadPoolExecutor(max_workers=1) as side_lane:\n"
                       "            return side_lane.submit(action, *argv, **keywords).result()\n"
                       "\n"
                       "    def first(self):\n"
                       "        value = self.extract_reading(self.items.pop, 0)\n"
                       "        return value\n");
    expect_applied_tag(GB_OP_S4, s4_class_prog, "value = self", "sibling", 1,
                       "import concurrent.futures as concurrent_futures\n"
                       "class Cart:\n"
                       "    def __init__(self, items):\n"
                       "        self.items = list(items)\n"
                       "\n"
                       "    def total(self):\n"
                       "        return sum(x for x in self.items)\n"
                       "\n"
                       "    def tags(self):\n"
                       "        out = dict(self=1, func=2, args=3, kwargs=4, function=5, fn=6)\n"
                       "        return out\n"
                       "\n"
                       "    def first(self):\n"
                       "        value = VectorMethods.extract_reading(self.items.pop, 0)\n"
                       "        return value\n"
                       "\n"
                       "\n"
                       "class VectorMethods(Cart):\n"
                       "    @staticmethod\n"
                       "    def extract_reading(command, /, *parts, **extra_options):\n"
                       "        with concurrent_futures.ThreadPoolExecutor(max_workers=1) as helper_pool:\n"
                       "            return helper_pool.submit(command, *parts, **extra_options).result()\n");
}

/* The module runner form: one runner function after the leading imports, reused by every later
 * application (C7 at each call site). */
static const char *const s4_runner_prog = "import math\n"
                                          "def area(r):\n"
                                          "    value = math.pi * r\n"
                                          "    return round(value, 3)\n"
                                          "x = area(2)\n"
                                          "print(x, area(r=1))\n";

static void test_s4_runner_form(void **state)
{
    (void)state;
    expect_applied_tag(GB_OP_S4, s4_runner_prog, "x = area", "runner", 1,
                       "import math\n"
                       "import concurrent.futures as concurrent_futures\n"
                       "def extract_reading(action, /, *argv, **keywords):\n"
                       "    with concurrent_futures.ThreadPoolExecutor(max_workers=1) as side_lane:\n"
                       "        return side_lane.submit(action, *argv, **keywords).result()\n"
                       "\n"
                       "\n"
                       "def area(r):\n"
                       "    value = math.pi * r\n"
                       "    return round(value, 3)\n"
                       "x = extract_reading(area, 2)\n"
                       "print(x, area(r=1))\n");
    /* A second application reuses the runner. */
    OpEnv e;
    op_env_open(&e, s4_runner_prog, NULL, NULL);
    for (int round = 0; round < 2; round++) {
        op_env_find(&e, GB_OP_S4);
        long at = -1;
        for (size_t i = 0; i < e.sites.len && at < 0; i++)
            if (strstr(e.sites.items[i].key, ":runner") &&
                strncmp(op_env_src(&e) + e.sites.items[i].start, round ? "print(" : "x = area", round ? 6 : 8) == 0)
                at = (long)i;
        assert_true(at >= 0);
        GbRng rng;
        gb_rng_seed(&rng, 3 + (uint64_t)round, 7);
        GbError err = {{0}};
        assert_int_equal(gb_op_apply(&e.ctx, gb_operator(GB_OP_S4), &e.sites.items[at], &rng, &err), GB_APPLY_OK);
    }
    const char *src = op_env_src(&e);
    const char *def = strstr(src, "\ndef ");
    assert_non_null(def);
    char runner[64];
    assert_int_equal(sscanf(def + 5, "%63[a-z_](", runner), 1);
    int pools = 0;
    for (const char *p = strstr(src, "(max_workers=1)"); p; p = strstr(p + 1, "(max_workers=1)")) pools++;
    assert_int_equal(pools, 1);
    char *first = gb_asprintf("x = %s(area, 2)\n", runner), *second = gb_asprintf("%s(print, x, area(r=1))\n", runner);
    if (!strstr(src, first) || !strstr(src, second)) fail_msg("%s", src);
    free(first);
    free(second);
    int status;
    char *out = op_run_python(src, &status);
    assert_int_equal(status, 0);
    assert_string_equal(out, "6.283 3.142\n");
    free(out);
    op_env_close(&e);
}

static void test_s4_runner_form_behaves(void **state)
{
    (void)state;
    const char *check = "print(x, area(3))\n";
    expect_same_behaviour(GB_OP_S4, s4_runner_prog, check, 4);
}

static void test_s4_class_forms_behave(void **state)
{
    (void)state;
    const char *check = "c = Cart([3, 4])\n"
                        "print(c.total(), c.tags(), c.first(), c.items)\n"
                        "try:\n"
                        "    Cart([]).first()\n"
                        "except IndexError as e:\n"
                        "    print('IndexError', e)\n";
    expect_same_behaviour(GB_OP_S4, s4_class_prog, check, 4);
}

static void test_s4_class_form_refusals(void **state)
{
    (void)state;
    /* no class: the in-place form and the module runner */
    assert_int_equal(count_sites(GB_OP_S4, "def f(x):\n    return abs(x)\n", NULL), 2);
    /* a method of the class: all three forms */
    assert_int_equal(count_sites(GB_OP_S4, "class A:\n    def f(self, x):\n        return abs(x)\n", NULL), 3);
    /* a method also reached as A.f (self may be any object), a nested function, a method whose first
     * parameter is not self, a decorated class: no runner method */
    const char *const progs[] = {
        "class A:\n    def f(self, x):\n        return abs(x)\nprint(A.f(None, -1))\n",
        "class A:\n    def f(self, x):\n        def g():\n            return abs(x)\n        return g\n",
        "class A:\n    def f(this, x):\n        return abs(x)\n",
    };
    for (size_t i = 0; i < N_OF(progs); i++) {
        OpEnv e;
        op_env_open(&e, progs[i], NULL, NULL);
        op_env_find(&e, GB_OP_S4);
        for (size_t k = 0; k < e.sites.len; k++)
            if (strstr(e.sites.items[k].key, ":method")) fail_msg("runner method offered in:\n%s", progs[i]);
        op_env_close(&e);
    }
    assert_int_equal(count_sites(GB_OP_S4,
                                 "import functools\n@functools.total_ordering\nclass A:\n    def f(self, x):\n"
                                 "        return abs(x)\n",
                                 NULL),
                     1);
    /* no runner class deriving from a class with bases, or whose body runs calls while it is created */
    assert_int_equal(count_sites(GB_OP_S4, "class A(dict):\n    def f(self, x):\n        return abs(x)\n", NULL), 2);
    assert_int_equal(
        count_sites(GB_OP_S4, "class A:\n    N = len('ab')\n    def f(self, x):\n        return abs(x)\n", NULL), 2);
}

static void test_s4_refusals(void **state)
{
    (void)state;
    const char *prog = "def fact(n):\n"
                       "    return 1 if n < 2 else n * fact(n - 1)\n"
                       "def helper(x):\n"
                       "    return x + 1\n"
                       "def looped(xs):\n"
                       "    return helper(xs)\n"
                       "def g(xs, kw):\n"
                       "    a = fact(5)\n"
                       "    b = helper(*xs)\n"
                       "    c = helper(**kw)\n"
                       "    d = helper((y := 2))\n"
                       "    for x in xs:\n"
                       "        e = helper(x)\n"
                       "    try:\n"
                       "        f = helper(1)\n"
                       "    except ValueError:\n"
                       "        h = helper(2)\n"
                       "    finally:\n"
                       "        i = helper(3)\n"
                       "    with open('x') as fh:\n"
                       "        j = helper(4)\n"
                       "    k = helper(5)\n"
                       "    return helper(k)\n"
                       "def gen():\n"
                       "    z = helper(1)\n"
                       "    yield z\n"
                       "async def co():\n"
                       "    z = helper(1)\n"
                       "    return z\n"
                       "class C:\n"
                       "    attr = helper(1)\n"
                       "    def m(self):\n"
                       "        return helper(self)\n"
                       "for q in range(3):\n"
                       "    looped(q)\n"
                       "print(helper(0))\n";
    const char *listed[] = {"f = helper(1)", "k = helper(5)", "return helper(k)", "return helper(self)",
                            "print(helper(0))"};
    const char *refused[] = {
        "a = fact(5)", "b = helper", "c = helper", "d = helper",        "e = helper",  "h = helper", "i = helper",
        "j = helper",  "z = helper", "attr = ",    "return helper(xs)", "return 1 if", "looped(q)"};
    expect_sites(GB_OP_S4, prog, listed, N_OF(listed), refused, N_OF(refused));
    /* Thread-local or thread-affine state anywhere in the program or the tests. */
    assert_int_equal(count_sites(GB_OP_S4, "import decimal\nx = abs(-1)\n", NULL), 0);
    assert_int_equal(
        count_sites(GB_OP_S4, "x = abs(-1)\n", "import numpy as np\nwith np.errstate(all='raise'):\n    pass\n"), 0);
    assert_int_equal(count_sites(GB_OP_S4, "import sqlite3\nx = abs(-1)\n", NULL), 0);
    assert_int_equal(count_sites(GB_OP_S4, "x = abs(-1)\n", "assert x == 1\n"), 2);
}

/* ---- S9 ReplaceNumpy ---- */

static void test_s9_proven_sites_before_after(void **state)
{
    (void)state;
    const char *prog = "def f(xs, n):\n"
                       "    m = len(xs)\n"
                       "    k = 0\n"
                       "    for i in range(n):\n"
                       "        k += 1\n"
                       "    c = sum(1 for x in xs if x > 0)\n"
                       "    u = sorted((j % 4 for j in range(m)), reverse=True)\n"
                       "    return max(m, k + 1), abs(k - m), c, u\n";
    expect_applied(GB_OP_S9, prog, "max(m", 2,
                   "import numpy as np\n"
                   "def f(xs, n):\n"
                   "    m = len(xs)\n"
                   "    k = 0\n"
                   "    for i in range(n):\n"
                   "        k += 1\n"
                   "    c = sum(1 for x in xs if x > 0)\n"
                   "    u = sorted((j % 4 for j in range(m)), reverse=True)\n"
                   "    return int(np.maximum(m, k + 1)), abs(k - m), c, u\n");
    expect_applied(GB_OP_S9, prog, "sum(1", 0,
                   "import numpy as np\n"
                   "def f(xs, n):\n"
                   "    m = len(xs)\n"
                   "    k = 0\n"
                   "    for i in range(n):\n"
                   "        k += 1\n"
                   "    c = int(np.sum([1 for x in xs if x > 0]))\n"
                   "    u = sorted((j % 4 for j in range(m)), reverse=True)\n"
                   "    return max(m, k + 1), abs(k - m), c, u\n");
    expect_applied(GB_OP_S9, prog, "sorted(", 0,
                   "import numpy as np\n"
                   "def f(xs, n):\n"
                   "    m = len(xs)\n"
                   "    k = 0\n"
                   "    for i in range(n):\n"
                   "        k += 1\n"
                   "    c = sum(1 for x in xs if x > 0)\n"
                   "    u = np.sort(np.array([j % 4 for j in range(m)], dtype=np.int64))[::-1].tolist()\n"
                   "    return max(m, k + 1), abs(k - m), c, u\n");
    const char *check = "for args in (([3, -1, 0, 5], 4), ([], 0), ([1], 7)):\n"
                        "    r = f(*args)\n"
                        "    print(r, [type(v).__name__ for v in r], [type(v).__name__ for v in r[3]])\n";
    expect_same_behaviour(GB_OP_S9, prog, check, 3);
}

static void test_s9_guarded_helper_before_after(void **state)
{
    (void)state;
    expect_applied(GB_OP_S9,
                   "def top(xs):\n"
                   "    return max(xs)\n",
                   "max(xs)", 0,
                   "import numpy as np\n"
                   "def array_max(*values):\n"
                   "    items = values[0] if len(values) == 1 else values\n"
                   "    if type(items) not in (list, tuple) or not items:\n"
                   "        return max(*values)\n"
                   "    if {type(item) for item in items} != {int} or not all(-2 ** 62 <= item < 2 ** 62 for item in "
                   "items):\n"
                   "        return max(*values)\n"
                   "    return int(np.max(np.array(items, dtype=np.int64)))\n"
                   "\n"
                   "\n"
                   "def top(xs):\n"
                   "    return array_max(xs)\n");
}

/* The guarded helpers give the builtin's value, type and exception for every kind of input. */
static void test_s9_guarded_helpers_are_exact(void **state)
{
    (void)state;
    const char *prog = "import enum\n"
                       "class Level(enum.IntEnum):\n"
                       "    LOW = 1\n"
                       "    HIGH = 2\n"
                       "def hi(*xs):\n"
                       "    return max(*xs)\n"
                       "def lo(xs):\n"
                       "    return min(xs)\n"
                       "def total(xs):\n"
                       "    return sum(xs)\n"
                       "def size(x):\n"
                       "    return abs(x)\n"
                       "def order(xs):\n"
                       "    return sorted(xs)\n";
    const char *check =
        "big = 2 ** 70\n"
        "cases = [[3, 1, 2], (5, -7), [], [True, False, True], [2.5, float('nan'), 1.0], [big, 1], [-big, 3],\n"
        "         [Level.HIGH, Level.LOW], ['b', 'a'], [1, 2.0], [2 ** 62, 2 ** 62 - 1], [2 ** 31, 1], {3: 1, 1: 2},\n"
        "         (x for x in [4, 2]), 'cab', [[2], [1]]]\n"
        "def show(fn, *a):\n"
        "    try:\n"
        "        r = fn(*a)\n"
        "        print(repr(r), type(r).__name__, [type(v).__name__ for v in r] if isinstance(r, list) else '')\n"
        "    except Exception as e:\n"
        "        print(type(e).__name__, e)\n"
        "for c in cases:\n"
        "    for fn in (lo, total, order):\n"
        "        show(fn, c)\n"
        "    show(hi, c)\n"
        "    if isinstance(c, (list, tuple)):\n"
        "        show(hi, *c)\n"
        "for x in (-3, 0, 2 ** 62, -2 ** 62, 2 ** 63, -0.0, float('-inf'), float('nan'), True, Level.LOW, -2.5, 3j):\n"
        "    show(size, x)\n"
        "show(size, 'x')\n"
        "show(hi)\n"
        "show(hi, 5)\n";
    expect_same_behaviour(GB_OP_S9, prog, check, 2);
}

static void test_s9_refusals(void **state)
{
    (void)state;
    const char *prog = "def f(xs, n, d):\n"
                       "    big = 10 ** 30\n"
                       "    flag = True\n"
                       "    a = max(xs, key=len)\n"
                       "    b = max(xs, default=0)\n"
                       "    c = sum(xs, 10)\n"
                       "    for i in range(n):\n"
                       "        e = max(i, n)\n"
                       "        g = max(big, 1)\n"
                       "        h = sorted([flag, False])\n"
                       "        k = max(1.5, 2.5)\n"
                       "        m = abs(n)\n"
                       "        p = sum([n, 1])\n"
                       "        q = max(i, 2)\n"
                       "    return a, b, c\n"
                       "def g(max, xs):\n"
                       "    return max(xs)\n";
    const char *listed[] = {"max(i, 2)"};
    const char *refused[] = {"max(xs, key",  "max(xs, default", "sum(xs, 10)", "max(i, n)", "max(big",
                             "sorted([flag", "max(1.5",         "abs(n)",      "sum([n",    "max(xs)\n"};
    expect_sites(GB_OP_S9, prog, listed, N_OF(listed), refused, N_OF(refused));
    assert_int_equal(count_sites(GB_OP_S9, "import builtins\ndef f(xs):\n    return max(xs)\n", NULL), 0);
    assert_int_equal(count_sites(GB_OP_S9, "from os import *\ndef f(xs):\n    return max(xs)\n", NULL), 0);
    assert_int_equal(count_sites(GB_OP_S9, "def f(xs):\n    return max(xs)\n", NULL), 1);
}

/* ---- S11 TransformLoopToRecursion ---- */

static void test_s11_halving_recursion_before_after(void **state)
{
    (void)state;
    expect_applied(GB_OP_S11,
                   "def f(n):\n"
                   "    total = 0\n"
                   "    for i in range(n):\n"
                   "        total += i * i\n"
                   "    return total\n",
                   "for i", 0,
                   "def f(n):\n"
                   "    total = 0\n"
                   "    i: int\n"
                   "    def form_budget(values, low, stop):\n"
                   "        nonlocal i, total\n"
                   "        if stop - low == 1:\n"
                   "            i = values[low]\n"
                   "            total += i * i\n"
                   "        elif stop - low > 1:\n"
                   "            half = (low + stop) // 2\n"
                   "            form_budget(values, low, half)\n"
                   "            form_budget(values, half, stop)\n"
                   "    span = range(n)\n"
                   "    form_budget(span, 0, len(span))\n"
                   "    return total\n");
}

static void test_s11_linear_recursion_for_small_literal_ranges(void **state)
{
    (void)state;
    expect_applied(GB_OP_S11,
                   "for k in range(10, 0, -3):\n"
                   "    print(k)\n",
                   "for k", 0,
                   "def form_budget(values, position):\n"
                   "    global k\n"
                   "    if position < len(values):\n"
                   "        k = values[position]\n"
                   "        print(k)\n"
                   "        form_budget(values, position + 1)\n"
                   "form_budget(range(10, 0, -3), 0)\n");
}

static const char *const s11_prog = "import sys\n"
                                    "COUNT = 0\n"
                                    "def squares(n, step):\n"
                                    "    acc = []\n"
                                    "    last = None\n"
                                    "    for i in range(0, n, step):\n"
                                    "        value = i * i\n"
                                    "        acc.append(value)\n"
                                    "        last = value\n"
                                    "        if value > 10:\n"
                                    "            acc.append(-1)\n"
                                    "    return acc, last, i\n"
                                    "def grid(rows, cols):\n"
                                    "    cells = []\n"
                                    "    for r in range(rows):\n"
                                    "        for c in range(cols):\n"
                                    "            cells.append((r, c))\n"
                                    "        width = c\n"
                                    "    return cells, r, width\n"
                                    "def closures(n):\n"
                                    "    fs = []\n"
                                    "    for i in range(n):\n"
                                    "        fs.append(lambda: i)\n"
                                    "    return [g() for g in fs]\n"
                                    "def bump(n):\n"
                                    "    global COUNT\n"
                                    "    for _ in range(n):\n"
                                    "        COUNT += 1\n"
                                    "    return COUNT\n"
                                    "def many():\n"
                                    "    total = 0\n"
                                    "    for i in range(20000):\n"
                                    "        total += i % 7\n"
                                    "    return total\n"
                                    "def fail(n):\n"
                                    "    for i in range(n):\n"
                                    "        if i == 2:\n"
                                    "            raise ValueError(i)\n"
                                    "for x in range(3):\n"
                                    "    y = x * 2\n";

static void test_s11_loop_semantics_are_kept(void **state)
{
    (void)state;
    const char *check = "print(squares(7, 2), squares(5, 2)[:2], grid(2, 3), closures(3), bump(3), bump(0))\n"
                        "print(many(), x, y)\n"
                        "for args in ((0, 1), (1, 0)):\n"
                        "    try:\n"
                        "        print(squares(*args))\n"
                        "    except (UnboundLocalError, ValueError) as e:\n"
                        "        print(type(e).__name__, e)\n"
                        "try:\n"
                        "    grid(0, 2)\n"
                        "except UnboundLocalError as e:\n"
                        "    print('unbound', e)\n"
                        "try:\n"
                        "    fail(5)\n"
                        "except ValueError as e:\n"
                        "    print('ValueError', e)\n";
    expect_same_behaviour(GB_OP_S11, s11_prog, check, 2);
}

static void test_s11_refusals(void **state)
{
    (void)state;
    const char *prog = "def rec(n):\n"
                       "    for i in range(n):\n"
                       "        rec(i)\n"
                       "def calls_rec(n):\n"
                       "    for i in range(n):\n"
                       "        rec(i)\n"
                       "def g(xs, n):\n"
                       "    for a in range(n):\n"
                       "        if a: break\n"
                       "    for b in range(n):\n"
                       "        if b: continue\n"
                       "    for c in range(n):\n"
                       "        return c\n"
                       "    for d in range(n):\n"
                       "        pass\n"
                       "    else:\n"
                       "        pass\n"
                       "    for e, f in enumerate(xs):\n"
                       "        pass\n"
                       "    for h in xs:\n"
                       "        pass\n"
                       "    for k in range(*xs):\n"
                       "        pass\n"
                       "    for m in range(n):\n"
                       "        late = late + 1\n"
                       "    late = 0\n"
                       "    for p in range(n):\n"
                       "        print(maybe)\n"
                       "        maybe = 1\n"
                       "    for ok in range(n):\n"
                       "        print(ok)\n"
                       "def dyn(n):\n"
                       "    for q in range(n):\n"
                       "        print(locals())\n"
                       "def gen(n):\n"
                       "    for y in range(n):\n"
                       "        yield y\n"
                       "def shadow(n, range):\n"
                       "    for z in range(n):\n"
                       "        pass\n"
                       "class C:\n"
                       "    for w in range(3):\n"
                       "        pass\n";
    const char *listed[] = {"for ok in"};
    const char *refused[] = {"for i in range(n):\n        rec(i)",
                             "for a in",
                             "for b in",
                             "for c in",
                             "for d in",
                             "for e,",
                             "for h in",
                             "for k in",
                             "for m in",
                             "for p in",
                             "for q in",
                             "for y in",
                             "for z in",
                             "for w in"};
    expect_sites(GB_OP_S11, prog, listed, N_OF(listed), refused, N_OF(refused));
    assert_int_equal(
        count_sites(GB_OP_S11, "import sys\nsys.setrecursionlimit(10000)\nfor i in range(3):\n    pass\n", NULL), 0);
    /* An annotated name in the body would be declared nonlocal/global: CPython rejects that. */
    assert_int_equal(count_sites(GB_OP_S11,
                                 "def f(n):\n    last = None\n    for i in range(n):\n        last: object\n"
                                 "        last = i\n    return last\n",
                                 NULL),
                     0);
    assert_int_equal(count_sites(GB_OP_S11, "t = 0\nfor i in range(3):\n    t: int = t + i\n", NULL), 0);
    /* ... but an annotation inside a def of the body is the def's own */
    assert_int_equal(count_sites(GB_OP_S11,
                                 "def f(n):\n    out = []\n    for i in range(n):\n        def g():\n"
                                 "            v: int = 1\n            return v\n        out.append(g() + i)\n"
                                 "    return out\n",
                                 NULL),
                     1);
}

/* ---- S6 CreateFunction ---- */

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_s4_runs_call_in_thread),
        cmocka_unit_test(test_s4_values_exceptions_and_exit_are_unchanged),
        cmocka_unit_test(test_s4_refusals),
        cmocka_unit_test(test_s4_class_forms),
        cmocka_unit_test(test_s4_runner_form),
        cmocka_unit_test(test_s4_runner_form_behaves),
        cmocka_unit_test(test_s4_class_forms_behave),
        cmocka_unit_test(test_s4_class_form_refusals),
        cmocka_unit_test(test_s9_proven_sites_before_after),
        cmocka_unit_test(test_s9_guarded_helper_before_after),
        cmocka_unit_test(test_s9_guarded_helpers_are_exact),
        cmocka_unit_test(test_s9_refusals),
        cmocka_unit_test(test_s11_halving_recursion_before_after),
        cmocka_unit_test(test_s11_linear_recursion_for_small_literal_ranges),
        cmocka_unit_test(test_s11_loop_semantics_are_kept),
        cmocka_unit_test(test_s11_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
