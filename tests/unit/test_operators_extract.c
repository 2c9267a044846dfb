/* Operators that add structure: S6 CreateFunction, S7 CreateModuleDependencies and S8
 * IntroduceDecorator, in their module and class forms, and the ClassEval head the wrappers leave
 * alone. Before/after cases, refusal cases (sites that must not be listed), and behaviour checks
 * under /usr/bin/python3 over several seeds and sites. */
#include "tests/unit/op_behaviour.h"

static void test_s6_extracts_statements_and_expressions(void **state)
{
    (void)state;
    const char *prog = "def area(w, h, pad):\n"
                       "    inner = w - 2 * pad\n"
                       "    size = inner * (h - 2 * pad)\n"
                       "    if size > 0 and w > h:\n"
                       "        size += 1\n"
                       "    return size\n";
    expect_applied_tag(GB_OP_S6, prog, "inner = w", "2", 2,
                       "def sample_segment(h, pad, w):\n"
                       "    inner = w - 2 * pad\n"
                       "    size = inner * (h - 2 * pad)\n"
                       "    return size\n"
                       "\n"
                       "\n"
                       "def area(w, h, pad):\n"
                       "    size = sample_segment(h, pad, w)\n"
                       "    if size > 0 and w > h:\n"
                       "        size += 1\n"
                       "    return size\n");
    expect_applied(GB_OP_S6, "n = int('5')\nif(n > 2)and n < 9:\n    print(n)\n", "(n > 2)and", 0,
                   "n = int('5')\n"
                   "def form_budget():\n"
                   "    return ((n > 2)and n < 9)\n"
                   "if form_budget():\n"
                   "    print(n)\n");
}

/* In a method of a top-level class the helper becomes a method taking `self` first. */
static void test_s6_method_form(void **state)
{
    (void)state;
    expect_applied_tag(GB_OP_S6,
                       "class Shop:\n"
                       "    def __init__(self):\n"
                       "        self.rate = 2\n"
                       "\n"
                       "    def price(self, n):\n"
                       "        cost = n * self.rate\n"
                       "        return cost\n",
                       "cost = n", "1", 2,
                       "class Shop:\n"
                       "    def __init__(self):\n"
                       "        self.rate = 2\n"
                       "\n"
                       "    def sample_segment(self, n):\n"
                       "        cost = n * self.rate\n"
                       "        return cost\n"
                       "\n"
                       "    def price(self, n):\n"
                       "        cost = self.sample_segment(n)\n"
                       "        return cost\n");
}

/* The sibling-class form: the helper is a method of a new class just before the method's class,
 * called through that class with the instance first (an inter-class call, C6). */
static void test_s6_sibling_class_form(void **state)
{
    (void)state;
    const char *prog = "import math\n"
                       "\n"
                       "\n"
                       "class Shop:\n"
                       "    def __init__(self):\n"
                       "        self.rate = 2\n"
                       "\n"
                       "    def price(self, n):\n"
                       "        cost = n * self.rate\n"
                       "        return cost\n"
                       "\n"
                       "    def empty(self):\n"
                       "        return not self.rate\n";
    expect_applied_tag(GB_OP_S6, prog, "cost = n", "1-sibling", 2,
                       "import math\n"
                       "\n"
                       "\n"
                       "class Shop:\n"
                       "    def __init__(self):\n"
                       "        self.rate = 2\n"
                       "\n"
                       "    def price(self, n):\n"
                       "        cost = MoveHandler.sample_segment(self, n)\n"
                       "        return cost\n"
                       "\n"
                       "    def empty(self):\n"
                       "        return not self.rate\n"
                       "\n"
                       "\n"
                       "class MoveHandler(Shop):\n"
                       "    def sample_segment(self, n):\n"
                       "        cost = n * self.rate\n"
                       "        return cost\n");
    /* every method site has both forms; the behaviour is kept at each of them */
    op_env_harness = GB_HARNESS_CLASSEVAL;
    assert_int_equal(count_sites(GB_OP_S6, "class A:\n    def f(self, o):\n        return o + 1\n", NULL), 2);
    /* no sibling class for a class with bases, or whose body runs calls while it is created */
    assert_int_equal(count_sites(GB_OP_S6, "class A(dict):\n    def f(self, o):\n        return o + 1\n", NULL), 1);
    assert_int_equal(
        count_sites(GB_OP_S6, "class A:\n    N = len('ab')\n    def f(self, o):\n        return o + 1\n", NULL), 1);
    op_env_harness = GB_HARNESS_NONE;
    expect_same_behaviour(GB_OP_S6, prog,
                          "s = Shop()\nprint(s.price(3), s.empty())\ns.rate = 0\nprint(s.price(4), s.empty())\n", 4);
}

/* Under ClassEval's rules (only the class is kept) only the method forms are offered. */
static void test_s6_classeval_refusals(void **state)
{
    (void)state;
    op_env_harness = GB_HARNESS_CLASSEVAL;
    /* module-level code, a rebound self, a decorated method, a nested function, a metaclass */
    assert_int_equal(count_sites(GB_OP_S6, "x = 1\ny = x + 2\n", NULL), 0);
    assert_int_equal(
        count_sites(GB_OP_S6, "class A:\n    def f(self, o):\n        self = o\n        return o + 1\n", NULL), 0);
    assert_int_equal(
        count_sites(GB_OP_S6, "class A:\n    @staticmethod\n    def f(self, o):\n        return o + 1\n", NULL), 0);
    assert_int_equal(count_sites(GB_OP_S6,
                                 "class A:\n    def f(self, o):\n        def g(v):\n            return v + 1\n"
                                 "        return g(o)\n",
                                 NULL),
                     0);
    assert_int_equal(
        count_sites(GB_OP_S6, "class A(metaclass=type):\n    def f(self, o):\n        return o + 1\n", NULL), 0);
    assert_int_equal(count_sites(GB_OP_S6, "class A:\n    def f(this, o):\n        return o + 1\n", NULL), 0);
    /* a method also called through its class may get any object as `self` */
    assert_int_equal(
        count_sites(GB_OP_S6, "class A:\n    def f(self, o):\n        return o + 1\nprint(A.f(None, 2))\n", NULL), 0);
    assert_int_equal(count_sites(GB_OP_S6, "class A:\n    def f(self, o):\n        return o + 1\n", NULL), 2);
    op_env_harness = GB_HARNESS_NONE;
    /* without those rules the other forms stay */
    assert_int_equal(count_sites(GB_OP_S6, "class A:\n    def f(this, o):\n        return o + 1\n", NULL), 1);
}

static const char *const s6_prog = "import math\n"
                                   "LIMIT = 10\n"
                                   "class Box:\n"
                                   "    def __init__(self, items):\n"
                                   "        self.items = list(items)\n"
                                   "        self.total = 0\n"
                                   "    def add(self, x):\n"
                                   "        doubled = x * 2\n"
                                   "        self.items.append(doubled)\n"
                                   "        self.total = sum(v for v in self.items if v < LIMIT)\n"
                                   "        return self.total\n"
                                   "def stats(xs, scale=1.5):\n"
                                   "    n = len(xs)\n"
                                   "    mean = sum(xs) / n if n else 0.0\n"
                                   "    spread = [abs(x - mean) * scale for x in xs]\n"
                                   "    best = None\n"
                                   "    for x in xs:\n"
                                   "        if best is None or x > best:\n"
                                   "            best = x\n"
                                   "    safe = n > 0 and xs[0] > 0\n"
                                   "    label = 'empty' if not xs else 'ok'\n"
                                   "    root = math.sqrt(abs(mean)) + (best or 0)\n"
                                   "    return n, mean, spread, best, safe, label, round(root, 6)\n"
                                   "def fail(x):\n"
                                   "    y = 10 // x\n"
                                   "    return y\n"
                                   "counts = {}\n"
                                   "for word in 'a b a c'.split():\n"
                                   "    counts[word] = counts.get(word, 0) + 1\n"
                                   "top = max(counts, key=counts.get)\n"
                                   "total = sum(counts.values())\n";

/* In a stdio script, at module level the helper's parameters and locals that keep the names of
 * module variables would shadow them (pylint's redefined-outer-name): they are renamed inside
 * the helper, and nothing else changes; a module variable the helper only reads keeps its
 * name. */
static void test_s6_module_helper_does_not_shadow_module_names(void **state)
{
    (void)state;
    const char *prog = "n = int('5')\n"
                       "total = n * 2\n"
                       "step = total + 1\n"
                       "print(total, step)\n";
    OpEnv e;
    op_env_kind = GB_TESTS_STDIO;
    op_env_open(&e, prog, NULL, NULL);
    op_env_kind = GB_TESTS_ASSERT;
    op_env_find(&e, GB_OP_S6);
    long at = -1;
    for (size_t i = 0; i < e.sites.len && at < 0; i++)
        if (strncmp(e.sites.items[i].key + strlen(e.sites.items[i].key) - 2, ":2", 2) == 0 &&
            strncmp(op_env_src(&e) + e.sites.items[i].start, "total = n * 2", 13) == 0)
            at = (long)i;
    assert_true(at >= 0);
    GbRng rng;
    gb_rng_seed(&rng, 1, 7);
    GbError err;
    assert_int_equal(gb_op_apply(&e.ctx, gb_operator(GB_OP_S6), &e.sites.items[at], &rng, &err), GB_APPLY_OK);
    const char *src = op_env_src(&e);
    /* the helper reads n from the module (kept) and binds total and step (renamed) */
    if (!strstr(src, "    total_1 = n * 2\n")) fail_msg("%s", src);
    assert_non_null(strstr(src, "    step_1 = total_1 + 1\n"));
    assert_non_null(strstr(src, "    return step_1, total_1\n"));
    assert_non_null(strstr(src, "\nstep, total = "));
    assert_non_null(strstr(src, "()\nprint(total, step)\n"));
    char *script = gb_asprintf("%s", src);
    int status;
    char *out = op_run_python(script, &status);
    assert_int_equal(status, 0);
    assert_string_equal(out, "10 11\n");
    free(out);
    free(script);
    op_env_close(&e);
}

static void test_s6_behaviour_is_kept(void **state)
{
    (void)state;
    const char *check = "b = Box([1, 2])\n"
                        "print(b.add(3), b.add(9), b.items)\n"
                        "print(stats([3, 1, 4]), stats([]), stats([-2.5, 2]))\n"
                        "try:\n"
                        "    fail(0)\n"
                        "except ZeroDivisionError as e:\n"
                        "    print('error', e)\n"
                        "print(fail(3), counts, top, total, word)\n";
    expect_same_behaviour(GB_OP_S6, s6_prog, check, 2);
}

static void test_s6_refusals(void **state)
{
    (void)state;
    const char *prog = "G = 0\n"
                       "def rec(n):\n"
                       "    m = n - 1\n"
                       "    return rec(m) if m > 0 else 0\n"
                       "def reader():\n"
                       "    return G\n"
                       "def f(xs, flag):\n"
                       "    total = 0\n"
                       "    for x in xs:\n"
                       "        if x < 0:\n"
                       "            break\n"
                       "        total += x\n"
                       "    try:\n"
                       "        risky = 1 // flag\n"
                       "    except ZeroDivisionError:\n"
                       "        risky = 0\n"
                       "    cb = lambda: total\n"
                       "    total = total + 1\n"
                       "    later = flag and unbound_yet\n"
                       "    unbound_yet = 3\n"
                       "    del risky\n"
                       "    if (n := len(xs)) > 2:\n"
                       "        pass\n"
                       "    return total, cb, later, unbound_yet\n"
                       "def g(xs):\n"
                       "    yield xs\n"
                       "class C:\n"
                       "    size = 3 + 4\n"
                       "    def m(self):\n"
                       "        self.__secret = 1 + 2\n"
                       "G = G + 1\n"
                       "reader()\n";
    const char *listed[] = {"G = G + 1", "x < 0"};
    const char *refused[] = {
        "m = n - 1", "m > 0",     "if x < 0", "break", "risky = 1",    "total = total + 1", "flag and unbound_yet",
        "del risky", "(n := len", "yield xs", "3 + 4", "self.__secret"};
    expect_sites(GB_OP_S6, prog, listed, N_OF(listed), refused, N_OF(refused));
    /* A module-level write to a global that a function reads, while the code calls something. */
    const char *prog2 = "G = 0\n"
                        "def reader():\n"
                        "    return G\n"
                        "G = 5\n"
                        "print(reader())\n";
    const char *refused2[] = {"G = 5\nprint"};
    expect_sites(GB_OP_S6, prog2, NULL, 0, refused2, 1);
    assert_true(count_sites(GB_OP_S6, "x = 1 + 2\n", NULL) > 0);
    /* A program that sets its recursion limit: only code that never shares the stack with a
     * recursion (not inside a function a recursive one reaches, not reaching one itself). */
    const char *deep = "import sys\n"
                       "sys.setrecursionlimit(50)\n"
                       "def step(n):\n"
                       "    k = n - 1\n"
                       "    return k * 1\n"
                       "def down(n):\n"
                       "    return 0 if n == 0 else 1 + down(step(n))\n"
                       "def plain(a):\n"
                       "    b = a * 2\n"
                       "    return b + 1\n"
                       "x = down(3) + 2\n"
                       "y = 1 + 2\n";
    const char *deep_listed[] = {"1 + 2", "a * 2", "b + 1"};
    const char *deep_refused[] = {"n - 1", "k * 1", "down(3) + 2", "n == 0"};
    expect_sites(GB_OP_S6, deep, deep_listed, N_OF(deep_listed), deep_refused, N_OF(deep_refused));
    assert_true(count_sites(GB_OP_S6, "import sys\nsys.setrecursionlimit(50)\nx = 1 + 2\n", NULL) > 0);
    assert_int_equal(count_sites(GB_OP_S6, "x = 1 + 2\nprint(RecursionError)\n", NULL), 0);
}

/* ---- S6 script forms: a stdio task's module-level tail into a function or a class ---- */

/* The number of script-form sites of S6 in a task with these tests and source. */
static size_t tail_sites_of(GbTestKind kind, const char *src, const char *tests)
{
    op_env_kind = kind;
    OpEnv e;
    op_env_open(&e, src, NULL, tests);
    op_env_find(&e, GB_OP_S6);
    size_t n = 0;
    for (size_t i = 0; i < e.sites.len; i++)
        if (strstr(e.sites.items[i].key, ":tail-")) n++;
    op_env_close(&e);
    op_env_kind = GB_TESTS_ASSERT;
    return n;
}

static size_t tail_sites(const char *src, const char *tests)
{
    return tail_sites_of(GB_TESTS_STDIO, src, tests);
}

static void test_s6_script_function_form(void **state)
{
    (void)state;
    op_env_kind = GB_TESTS_STDIO;
    expect_applied_tag(GB_OP_S6,
                       "import sys\n"
                       "n = int('4')\n"
                       "\n"
                       "total = sum(range(n))\n"
                       "# the answer\n"
                       "if __name__ == '__main__':\n"
                       "    print(total)\n",
                       "n = int", "tail-function", 2,
                       "import sys\n"
                       "\n"
                       "\n"
                       "def sample_segment():\n"
                       "    n = int('4')\n"
                       "\n"
                       "    total = sum(range(n))\n"
                       "    # the answer\n"
                       "    if __name__ == '__main__':\n"
                       "        print(total)\n"
                       "\n"
                       "\n"
                       "sample_segment()\n");
    /* a name bound before the tail and read before the tail binds it becomes a parameter */
    expect_applied_tag(GB_OP_S6,
                       "total = 0\n"
                       "def show(v):\n"
                       "    print(v)\n"
                       "\n"
                       "\n"
                       "total = total + 5\n"
                       "show(total)\n",
                       "total = total", "tail-function", 2,
                       "total = 0\n"
                       "def show(v):\n"
                       "    print(v)\n"
                       "\n"
                       "\n"
                       "def sample_segment(total):\n"
                       "    total = total + 5\n"
                       "    show(total)\n"
                       "\n"
                       "\n"
                       "sample_segment(total)\n");
    /* the longest valid tail: `n = 3` stays, since reset() rebinds the global */
    expect_applied_tag(GB_OP_S6,
                       "def reset():\n"
                       "    global n\n"
                       "    n = 0\n"
                       "n = 3\n"
                       "reset()\n"
                       "print(n)\n",
                       "reset()", "tail-function", 2,
                       "def reset():\n"
                       "    global n\n"
                       "    n = 0\n"
                       "n = 3\n"
                       "\n"
                       "\n"
                       "def sample_segment():\n"
                       "    reset()\n"
                       "    print(n)\n"
                       "\n"
                       "\n"
                       "sample_segment()\n");
    op_env_kind = GB_TESTS_ASSERT;
}

/* The class form: a static method of a new class, called through the class (C6). */
static void test_s6_script_class_form(void **state)
{
    (void)state;
    const char *prog = "n = 3\n"
                       "f = lambda v: v + n\n"
                       "print(f(1), sorted(x * n for x in range(n)))\n";
    const char *want = "class EntryUtils:\n"
                       "    @staticmethod\n"
                       "    def filter_count():\n"
                       "        n = 3\n"
                       "        f = lambda v: v + n\n"
                       "        print(f(1), sorted(x * n for x in range(n)))\n"
                       "\n"
                       "\n"
                       "EntryUtils.filter_count()\n";
    op_env_kind = GB_TESTS_STDIO;
    expect_applied_tag(GB_OP_S6, prog, "n = 3", "tail-class", 2, want);
    /* the call through the class is an inter-class call (C6) */
    TSParser *parser = gb_parser_new();
    GbMetrics before, after;
    GbError err;
    assert_true(gb_metrics_compute_source("main.py", prog, strlen(prog), parser, NULL, &before, NULL, &err));
    assert_true(gb_metrics_compute_source("main.py", want, strlen(want), parser, NULL, &after, NULL, &err));
    assert_true(before.v[GB_METRIC_C6] == 0 && after.v[GB_METRIC_C6] == 1);
    ts_parser_delete(parser);
    op_env_kind = GB_TESTS_ASSERT;
}

static const char *const s6_script_prog = "import sys\n"
                                          "from collections import Counter\n"
                                          "def score(word):\n"
                                          "    return sum(ord(c) for c in word) % 7\n"
                                          "\n"
                                          "\n"
                                          "LIMIT = 4\n"
                                          "words = 'b a c a b a'.split()\n"
                                          "counts = Counter(words)\n"
                                          "best = max(counts, key=lambda w: (counts[w], w))\n"
                                          "later = [lambda k=k: k * LIMIT for k in range(3)]\n"
                                          "for w in sorted(counts):\n"
                                          "    if score(w) > LIMIT:\n"
                                          "        continue\n"
                                          "    print(w, counts[w], score(w))\n"
                                          "try:\n"
                                          "    print(best, [g() for g in later], 1 // (LIMIT - 4))\n"
                                          "except ZeroDivisionError:\n"
                                          "    print('error')\n"
                                          "print(*sorted(counts.items()), sep=';')\n";

static void test_s6_script_behaviour_is_kept(void **state)
{
    (void)state;
    assert_int_equal(tail_sites(s6_script_prog, NULL), 2);
    op_env_kind = GB_TESTS_STDIO;
    expect_same_behaviour(GB_OP_S6, s6_script_prog, "", 3);
    op_env_kind = GB_TESTS_ASSERT;
}

/* One program per refusal rule of the script forms. */
static void test_s6_script_refusals(void **state)
{
    (void)state;
    static const char *const refused[] = {
        /* a function reads a global the tail writes */
        "def show():\n    print(n)\nn = 3\nshow()\n",
        /* a function rebinds it with `global` */
        "def reset():\n    global n\n    n = 0\nn = 3\nreset()\nn += 1\nprint(n)\n",
        /* a lambda outside the tail reads it */
        "get = lambda: n\ndef show(v):\n    print(v)\nn = 3\nshow(get())\n",
        /* global, del, walrus, annotated assignment in the tail */
        "global n\nprint(1)\n",
        "n = 1\ndel n\nprint(2)\n",
        "print(n := 3)\nprint(n)\n",
        "n: int = 3\nprint(n)\n",
        /* builtins that see the namespace */
        "n = 1\nprint(sorted(dir()))\n",
        "n = 1\nprint(eval('n'))\n",
        "n = 1\nprint(vars()['n'])\n",
        /* a star import */
        "from math import *\nn = 1\nprint(n)\n",
        /* read before the tail certainly binds it, not bound before the tail */
        "print(sum([1]))\nsum = 3\n",
        "import sys\nif len(sys.argv) > 5:\n    x = 1\nprint(x if len(sys.argv) > 5 else 0)\n",
        /* a definition inside the tail; a private name; recursion limits */
        "n = 1\nif n:\n    def f():\n        return 2\nprint(f())\n",
        "__n = 1\nprint(__n)\n",
        "import sys\nsys.setrecursionlimit(100)\ndef f(n):\n    return f(n - 1) if n else 0\nprint(f(3))\nprint(1)\n",
        "n = 1\nprint(n, RecursionError)\n",
        /* the namespace reached otherwise; a finalizer */
        "import sys\nn = 1\nprint(getattr(sys.modules[__name__], 'n'))\n",
        "class R:\n    def __del__(self):\n        print('bye')\nr = R()\nprint(1)\n",
        /* fewer than two statements after the last definition; only imports */
        "def main():\n    print(1)\nmain()\n",
        "import sys\nimport os\n",
    };
    /* (each program's only tail, or every one of its tails, breaks the rule) */
    for (size_t i = 0; i < N_OF(refused); i++)
        if (tail_sites(refused[i], NULL) != 0) fail_msg("script form offered in:\n%s", refused[i]);
    const char *ok = "n = 1\nprint(n)\n";
    assert_int_equal(tail_sites(ok, NULL), 2);
    assert_int_equal(tail_sites("import sys\nsys.setrecursionlimit(100)\nn = 1\nprint(n)\n", NULL), 2);
    /* a name the tests mention */
    assert_int_equal(tail_sites(ok, "n\n"), 0);
    /* not for assert tests (they run in the program's namespace), nor under ClassEval's rules */
    assert_int_equal(tail_sites_of(GB_TESTS_ASSERT, ok, NULL), 0);
    assert_int_equal(tail_sites_of(GB_TESTS_UNITTEST, ok, NULL), 0);
    op_env_harness = GB_HARNESS_CLASSEVAL;
    assert_int_equal(tail_sites(ok, NULL), 0);
    op_env_harness = GB_HARNESS_NONE;
}

/* ---- S7 CreateModuleDependencies ---- */

static const char *const s7_prog = "\"\"\"Doc.\"\"\"\n"
                                   "from __future__ import annotations\n"
                                   "import math\n"
                                   "from typing import List\n"
                                   "SCALE = 2\n"
                                   "NAMES = ('a', 'b')\n"
                                   "data = []\n"
                                   "def norm(v: List[float]) -> float:\n"
                                   "    \"\"\"Norm.\"\"\"\n"
                                   "    return math.hypot(*v) * SCALE\n"
                                   "def fact(n):\n"
                                   "    return 1 if n < 2 else n * fact(n - 1)\n"
                                   "def uses_data():\n"
                                   "    return len(data)\n"
                                   "def uses_name():\n"
                                   "    return __name__\n"
                                   "def calls_other(v):\n"
                                   "    return norm(v) + fact(3)\n"
                                   "@staticmethod\n"
                                   "def decorated():\n"
                                   "    return 1\n"
                                   "def pinned_entry(x):\n"
                                   "    return calls_other(x)\n";

static void test_s7_moves_function_to_helper_module(void **state)
{
    (void)state;
    OpEnv e;
    op_env_open(&e, s7_prog, NULL, NULL);
    op_env_apply(&e, GB_OP_S7, "def norm", 0);
    assert_int_equal(e.prog.modules.len, 2);
    assert_string_equal(e.prog.modules.items[1].path, "grade_rules.py");
    assert_string_equal(e.prog.modules.items[1].source, "from __future__ import annotations\n"
                                                        "import math\n"
                                                        "from typing import List\n"
                                                        "SCALE = 2\n"
                                                        "\n"
                                                        "\n"
                                                        "def norm(v: List[float]) -> float:\n"
                                                        "    \"\"\"Norm.\"\"\"\n"
                                                        "    return math.hypot(*v) * SCALE\n");
    assert_non_null(strstr(op_env_src(&e), "data = []\nfrom grade_rules import norm\ndef fact(n):\n"));
    /* A function that calls the moved one can now move too (it reads an import). */
    op_env_find(&e, GB_OP_S7);
    assert_true(op_env_site(&e, "def calls_other") < 0); /* still reads fact, a function */
    op_env_apply(&e, GB_OP_S7, "def fact", 1);
    op_env_find(&e, GB_OP_S7);
    assert_true(op_env_site(&e, "def calls_other") >= 0);
    op_env_close(&e);
}

static void test_s7_behaviour_and_refusals(void **state)
{
    (void)state;
    const char *check = "print(norm([3, 4]), fact(6), calls_other([6, 8]), pinned_entry([1, 0]), uses_name(),\n"
                        "      norm.__doc__, norm.__name__, NAMES)\n";
    expect_same_behaviour(GB_OP_S7, s7_prog, check, 2);
    OpEnv e;
    op_env_open(&e, s7_prog, "pinned_entry", "assert pinned_entry([3, 4]) == 16\n");
    op_env_find(&e, GB_OP_S7);
    const char *listed[] = {"def norm", "def fact"};
    const char *refused[] = {"def uses_data", "def uses_name", "def calls_other", "def decorated", "def pinned_entry"};
    for (size_t i = 0; i < N_OF(listed); i++) assert_true(op_env_site(&e, listed[i]) >= 0);
    /* (each program's only tail, or every one of its tails, breaks the rule) */
    for (size_t i = 0; i < N_OF(refused); i++)
        if (op_env_site(&e, refused[i]) >= 0) fail_msg("'%s' must not be a site", refused[i]);
    op_env_close(&e);
    /* Globals rebound, global declarations, pickling, functions defined later than an import. */
    assert_int_equal(count_sites(GB_OP_S7, "K = 1\nK = 2\ndef f():\n    return K\n", NULL), 0);
    assert_int_equal(count_sites(GB_OP_S7, "K = 1\ndef f():\n    global K\n    K = 3\n", NULL), 0);
    assert_int_equal(count_sites(GB_OP_S7, "import pickle\ndef f():\n    return 1\n", NULL), 0);
    assert_int_equal(count_sites(GB_OP_S7, "def f():\n    return math.pi\nimport math\n", NULL), 0);
    assert_int_equal(count_sites(GB_OP_S7, "from . import x\ndef f():\n    return x\n", NULL), 0);
    assert_int_equal(count_sites(GB_OP_S7, "K = [1]\ndef f():\n    return K\n", NULL), 0);
    assert_int_equal(count_sites(GB_OP_S7, "K = (1, -2.5, 'a', b'b', None)\ndef f():\n    return K\n", NULL), 1);
}

/* Under a single-file harness (human-eval, CRUXEval, ClassEval) S7 moves the function into a
 * helper class of the same module and calls it through the class. */
static const char *const s7c_prog =
    "import math\n"
    "SCALE = 2\n"
    "def norm(v, scale=SCALE):\n"
    "    \"\"\"Norm.\"\"\"\n"
    "    return math.hypot(*v) * scale\n"
    "def fact(n):\n"
    "    return 1 if n < 2 else n * fact(n - 1)\n"
    "def gen(n):\n"
    "    for i in range(n):\n"
    "        yield i * 2\n"
    "def make_adder(k):\n"
    "    def add(x):\n"
    "        return x + k\n"
    "    return add\n"
    "def uses_all(v):\n"
    "    return norm(v) + fact(4) + sum(gen(3)) + make_adder(1)(2)\n"
    "table = [norm([3, 4]), fact(3)]\n"
    "def entry(v):\n"
    "    f = fact\n"
    "    return uses_all(v), f(3), norm.__name__, norm is table_fn(), [norm(x) for x in [v]]\n"
    "def table_fn():\n"
    "    return norm\n";

/* The name of the first class the program defines (owned). */
static char *first_class_name(const char *src)
{
    const char *c = strstr(src, "class ");
    assert_non_null(c);
    c += 6;
    size_t n = strcspn(c, ":(");
    return gb_strndup(c, n);
}

static void test_s7_helper_class_under_single_file_harness(void **state)
{
    (void)state;
    op_env_harness = GB_HARNESS_GUARD;
    OpEnv e;
    op_env_open(&e, s7c_prog, "entry", "assert entry([3, 4])\n");
    op_env_apply(&e, GB_OP_S7, "def norm", 0);
    assert_int_equal(e.prog.modules.len, 1); /* no helper module */
    char *k = first_class_name(op_env_src(&e));
    char *want = gb_asprintf("SCALE = 2\n"
                             "class %s:\n"
                             "    @staticmethod\n"
                             "    def norm(v, scale=SCALE):\n"
                             "        \"\"\"Norm.\"\"\"\n"
                             "        return math.hypot(*v) * scale\n"
                             "norm = %s.norm\n"
                             "def fact(n):\n",
                             k, k);
    if (!strstr(op_env_src(&e), want)) fail_msg("got:\n%s\nwant inside:\n%s", op_env_src(&e), want);
    free(want);
    /* every call after the def goes through the class; the reference `norm.__name__` and the
     * returned `norm` stay */
    want = gb_asprintf("return %s.norm(v) + fact(4)", k);
    assert_non_null(strstr(op_env_src(&e), want));
    free(want);
    want = gb_asprintf("table = [%s.norm([3, 4]), fact(3)]", k);
    assert_non_null(strstr(op_env_src(&e), want));
    free(want);
    want = gb_asprintf("norm.__name__, norm is table_fn(), [%s.norm(x) for x in [v]]", k);
    assert_non_null(strstr(op_env_src(&e), want));
    free(want);
    assert_non_null(strstr(op_env_src(&e), "def table_fn():\n    return norm\n"));
    /* the moved function is no site any more; recursion inside fact stays a global call */
    op_env_find(&e, GB_OP_S7);
    assert_true(op_env_site(&e, "def norm") < 0);
    op_env_apply(&e, GB_OP_S7, "def fact", 1);
    assert_non_null(strstr(op_env_src(&e), "        return 1 if n < 2 else n * fact(n - 1)\n"));
    /* C6 counts the calls through the helper classes: norm (3 calls), fact (2 calls) */
    GbMetrics m;
    GbError err;
    assert_true(gb_metrics_compute_ex(&e.prog, e.parser, NULL, &m, NULL, &err));
    assert_near(m.v[GB_METRIC_C6], 5, 0);
    free(k);
    op_env_close(&e);
    op_env_harness = GB_HARNESS_NONE;
}

static void test_s7_helper_class_behaviour_and_refusals(void **state)
{
    (void)state;
    op_env_harness = GB_HARNESS_GUARD;
    const char *check = "print(entry([3, 4]), table, norm([1, 1], 3), fact.__name__, norm.__doc__,\n"
                        "      list(gen(2)), make_adder(2)(5))\n";
    expect_same_behaviour(GB_OP_S7, s7c_prog, check, 2);
    const char *listed[] = {"def norm", "def fact", "def gen", "def make_adder", "def uses_all"};
    /* entry: no call; table_fn: only called before its def */
    const char *refused[] = {"def entry", "def table_fn"};
    expect_sites(GB_OP_S7, s7c_prog, listed, N_OF(listed), refused, N_OF(refused));
    assert_int_equal(count_sites(GB_OP_S7, "def f():\n    return 1\nx = f()\n", NULL), 1);
    assert_int_equal(count_sites(GB_OP_S7, "def f():\n    return 1\nx = f()\n", "assert f() == 1\n"), 0); /* pinned */
    assert_int_equal(count_sites(GB_OP_S7, "def f():\n    return 1\nx = f()\n", "assert g.__qualname__\n"), 0);
    assert_int_equal(count_sites(GB_OP_S7, "def f():\n    return 1\nx = f()\nprint(f.__qualname__)\n", NULL), 0);
    assert_int_equal(count_sites(GB_OP_S7, "def f():\n    return 1\n", NULL), 0); /* no call */
    assert_int_equal(count_sites(GB_OP_S7, "def f():\n    return 1\nx = f()\nf = 3\n", NULL), 0);
    assert_int_equal(count_sites(GB_OP_S7, "def f():\n    return 1\ndef g(f):\n    return f()\n", NULL), 0);
    assert_int_equal(count_sites(GB_OP_S7, "def f(o):\n    return o.__secret\nx = f(1)\n", NULL), 0);
    assert_int_equal(count_sites(GB_OP_S7, "def __f():\n    return 1\nx = __f()\n", NULL), 0);
    assert_int_equal(count_sites(GB_OP_S7, "def f():\n    return super\nx = f()\n", NULL), 0);
    assert_int_equal(count_sites(GB_OP_S7, "def f():\n    return __class__\nx = f()\n", NULL), 0);
    assert_int_equal(count_sites(GB_OP_S7, "def f(m=__name__):\n    return m\nx = f()\n", NULL), 0);
    assert_int_equal(count_sites(GB_OP_S7, "def f(m=(y := 1)):\n    return m\nx = f()\n", NULL), 0);
    assert_int_equal(count_sites(GB_OP_S7, "K = 1\ndef f():\n    global K\n    K = 2\nf()\n", NULL), 0);
    assert_int_equal(count_sites(GB_OP_S7, "def f():\n    return eval('1')\nx = f()\n", NULL), 0);
    assert_int_equal(count_sites(GB_OP_S7, "async def f():\n    return 1\nx = f()\n", NULL), 0);
    assert_int_equal(
        count_sites(GB_OP_S7, "import functools\n@functools.cache\ndef f():\n    return 1\nx = f()\n", NULL), 0);
    /* Names the program may rebind at run time: the calls through the class would not follow. */
    assert_int_equal(count_sites(GB_OP_S7,
                                 "def helper():\n    return 1\ndef entry():\n    return helper()\n"
                                 "def swap():\n    globals()['helper'] = lambda: 2\n",
                                 NULL),
                     0);
    const char *helper_listed[] = {"def entry"}, *helper_refused[] = {"def helper"};
    expect_sites(GB_OP_S7,
                 "def helper():\n    return 1\ndef entry():\n    return helper()\n"
                 "def swap():\n    global helper\n    if entry() > 5:\n        helper = None\n",
                 helper_listed, N_OF(helper_listed), helper_refused, N_OF(helper_refused));
    assert_int_equal(count_sites(GB_OP_S7,
                                 "import sys\ndef helper():\n    return 1\ndef entry():\n    return helper()\n"
                                 "setattr(sys.modules[__name__], 'helper', lambda: 2)\n",
                                 NULL),
                     0);
    assert_int_equal(count_sites(GB_OP_S7,
                                 "def helper():\n    return 1\ndef entry():\n    return helper()\n"
                                 "exec('helper = lambda: 2')\n",
                                 NULL),
                     0);
    assert_int_equal(count_sites(GB_OP_S7,
                                 "def helper():\n    return 1\ndef entry():\n    return helper()\n"
                                 "def swap():\n    global other\n    other = 2\n",
                                 NULL),
                     1); /* a global declaration of another name */
    /* ClassEval rules: the same helper class */
    op_env_harness = GB_HARNESS_CLASSEVAL;
    assert_int_equal(count_sites(GB_OP_S7, "def f():\n    return 1\nx = f()\n", NULL), 1);
    op_env_harness = GB_HARNESS_NONE;
    /* without harness rules the function moves to a helper module even without a caller */
    assert_int_equal(count_sites(GB_OP_S7, "def f():\n    return 1\n", NULL), 1);
}

/* A method called only as `self.h(...)` by its class's methods moves into a sibling class. */
static void test_s7_method_moves_to_sibling_class(void **state)
{
    (void)state;
    OpEnv e;
    op_env_harness = GB_HARNESS_CLASSEVAL;
    op_env_open(&e,
                "class Shop:\n"
                "    def __init__(self):\n"
                "        self.rate = 2\n"
                "\n"
                "    def price(self, n):\n"
                "        return self.scaled(n) + self.base()\n"
                "\n"
                "    def scaled(self, n):\n"
                "        return n * self.rate\n"
                "\n"
                "    def base(self):\n"
                "        return 1\n",
                NULL, "assert Shop().price(3) == 7\n");
    op_env_apply(&e, GB_OP_S7, "def scaled", 0);
    char *k = strstr(op_env_src(&e), "\nclass ") ? first_class_name(strstr(op_env_src(&e), "\nclass ") + 1) : NULL;
    assert_non_null(k);
    char *want = gb_asprintf("class Shop:\n"
                             "    def __init__(self):\n"
                             "        self.rate = 2\n"
                             "\n"
                             "    def price(self, n):\n"
                             "        return %s.scaled(self, n) + self.base()\n"
                             "\n"
                             "\n"
                             "    def base(self):\n"
                             "        return 1\n"
                             "\n"
                             "\n"
                             "class %s(Shop):\n"
                             "    def scaled(self, n):\n"
                             "        return n * self.rate\n",
                             k, k);
    assert_string_equal(op_env_src(&e), want);
    free(want);
    free(k);
    op_env_close(&e);
    op_env_harness = GB_HARNESS_NONE;
}

static void test_s7_method_refusals(void **state)
{
    (void)state;
    const char *ok = "class A:\n    def f(self):\n        return self.g(1)\n    def g(self, v):\n        return v\n";
    assert_int_equal(count_sites(GB_OP_S7, ok, NULL), 1);
    /* the tests name it; called through something other than self; called from outside the
     * class; recursive; self rebound in the caller; private; getattr; a decorated class; the
     * only statement of its class */
    assert_int_equal(count_sites(GB_OP_S7, ok, "assert A().g(2) == 2\n"), 0);
    assert_int_equal(count_sites(GB_OP_S7,
                                 "class A:\n    def f(self, o):\n        return o.g(1)\n"
                                 "    def g(self, v):\n        return v\n",
                                 NULL),
                     0);
    assert_int_equal(count_sites(GB_OP_S7,
                                 "class A:\n    def f(self):\n        return self.g(1)\n"
                                 "    def g(self, v):\n        return v\nx = A()\ny = x.g(2)\n",
                                 NULL),
                     0);
    assert_int_equal(count_sites(GB_OP_S7,
                                 "class A:\n    def f(self):\n        return self.g(1)\n"
                                 "    def g(self, v):\n        return v if v > 3 else self.g(v + 1)\n",
                                 NULL),
                     0);
    assert_int_equal(count_sites(GB_OP_S7,
                                 "class A:\n    def f(self, o):\n        self = o\n        return self.g(1)\n"
                                 "    def g(self, v):\n        return v\n",
                                 NULL),
                     0);
    assert_int_equal(count_sites(GB_OP_S7,
                                 "class A:\n    def f(self):\n        return self.__g(1)\n"
                                 "    def __g(self, v):\n        return v\n",
                                 NULL),
                     0);
    assert_int_equal(
        count_sites(GB_OP_S7,
                    "class A:\n    def f(self):\n        return getattr(self, 'g')(1)\n"
                    "    def g(self, v):\n        return self.f\n    def h(self):\n        return self.g(1)\n",
                    NULL),
        0);
    assert_int_equal(count_sites(GB_OP_S7,
                                 "import functools\n@functools.total_ordering\nclass A:\n    def f(self):\n"
                                 "        return self.g(1)\n    def g(self, v):\n        return v\n",
                                 NULL),
                     0);
    assert_int_equal(count_sites(GB_OP_S7,
                                 "class A(dict):\n    def f(self):\n        return self.g(1)\n"
                                 "    def g(self, v):\n        return v\n",
                                 NULL),
                     0);
    assert_int_equal(count_sites(GB_OP_S7,
                                 "class A:\n    def g(self, v):\n        return v\nclass B(A):\n"
                                 "    def f(self):\n        return self.g(1)\n",
                                 NULL),
                     0);
}

/* ---- Harness rules: ClassEval's extraction keeps only the imports before the first class ---- */

static void test_wrappers_leave_the_classeval_head_alone(void **state)
{
    (void)state;
    const char *prog = "import math\nfrom os import sep\n\n\nclass Area:\n    def circle(self, r):\n"
                       "        k = math.pi\n        return k * r * r\n";
    const char *listed[] = {"k = math.pi", "return k"};
    const char *refused[] = {"import math", "from os import sep"};
    const GbOperatorId wrappers[] = {GB_OP_S1, GB_OP_S2, GB_OP_S3, GB_OP_S5};
    op_env_harness = GB_HARNESS_CLASSEVAL;
    for (size_t i = 0; i < N_OF(wrappers); i++)
        expect_sites(wrappers[i], prog, listed, N_OF(listed), refused, N_OF(refused));
    assert_int_equal(gb_harness_rewritten_head(GB_HARNESS_CLASSEVAL, prog), (uint32_t)(strstr(prog, "class") - prog));
    assert_int_equal(gb_harness_rewritten_head(GB_HARNESS_CLASSEVAL, "  classy = 1\n"), 0);
    assert_int_equal(gb_harness_rewritten_head(GB_HARNESS_CLASSEVAL, "import os\n"), strlen("import os\n"));
    op_env_harness = GB_HARNESS_GUARD;
    assert_int_equal(gb_harness_rewritten_head(GB_HARNESS_GUARD, prog), 0);
    for (size_t i = 0; i < N_OF(wrappers); i++) expect_sites(wrappers[i], prog, refused, N_OF(refused), NULL, 0);
    op_env_harness = GB_HARNESS_NONE;
}

/* ---- S8 IntroduceDecorator ---- */

/* Under ClassEval's rules the decorator is defined inside the class, before its methods. */
static void test_s8_decorator_inside_class(void **state)
{
    (void)state;
    op_env_harness = GB_HARNESS_CLASSEVAL;
    expect_applied(GB_OP_S8,
                   "import math\n"
                   "class Circle:\n"
                   "    \"\"\"A circle.\"\"\"\n"
                   "    def __init__(self, r):\n"
                   "        self.r = r\n"
                   "\n"
                   "    def area(self):\n"
                   "        return math.pi * self.r ** 2\n",
                   "def area", 0,
                   "import math\n"
                   "import functools\n"
                   "class Circle:\n"
                   "    \"\"\"A circle.\"\"\"\n"
                   "    @staticmethod\n"
                   "    def budget_hook(callee):\n"
                   "        @functools.wraps(callee)\n"
                   "        def execute(*entries, **props):\n"
                   "            return callee(*entries, **props)\n"
                   "        return execute\n"
                   "\n"
                   "    def __init__(self, r):\n"
                   "        self.r = r\n"
                   "\n"
                   "    @budget_hook\n"
                   "    def area(self):\n"
                   "        return math.pi * self.r ** 2\n");
    /* top-level functions, defs nested in methods, methods of nested or decorated classes */
    assert_int_equal(count_sites(GB_OP_S8, "def f(x):\n    return x\n", NULL), 0);
    assert_int_equal(count_sites(GB_OP_S8,
                                 "class A:\n    def f(self):\n        def g():\n            return 1\n"
                                 "        return g()\n",
                                 NULL),
                     1);
    assert_int_equal(
        count_sites(GB_OP_S8, "class A:\n    class B:\n        def g(self):\n            return 1\n", NULL), 0);
    assert_int_equal(
        count_sites(GB_OP_S8,
                    "import dataclasses\n@dataclasses.dataclass\nclass A:\n    def f(self):\n        return 1\n", NULL),
        0);
    op_env_harness = GB_HARNESS_NONE;
}

static void test_s8_decorates_function(void **state)
{
    (void)state;
    expect_applied(GB_OP_S8,
                   "\"\"\"Doc.\"\"\"\n"
                   "import math\n"
                   "\n"
                   "def area(r):\n"
                   "    return math.pi * r * r\n",
                   "def area", 0,
                   "\"\"\"Doc.\"\"\"\n"
                   "import math\n"
                   "import functools\n"
                   "\n"
                   "def budget_hook(callee):\n"
                   "    @functools.wraps(callee)\n"
                   "    def execute(*entries, **props):\n"
                   "        return callee(*entries, **props)\n"
                   "    return execute\n"
                   "\n"
                   "\n"
                   "@budget_hook\n"
                   "def area(r):\n"
                   "    return math.pi * r * r\n");
}

static const char *const s8_class_prog = "class Shape:\n"
                                         "    \"\"\"A shape.\"\"\"\n"
                                         "    count = 0\n"
                                         "    def __init__(self, side):\n"
                                         "        self.side = side\n"
                                         "    @staticmethod\n"
                                         "    def unit(x, scale=2):\n"
                                         "        \"\"\"Unit doc.\"\"\"\n"
                                         "        return x * scale\n"
                                         "    @classmethod\n"
                                         "    def square(cls, side):\n"
                                         "        return cls(side)\n"
                                         "    @property\n"
                                         "    def area(self):\n"
                                         "        return self.side ** 2\n"
                                         "    @area.setter\n"
                                         "    def area(self, value):\n"
                                         "        self.side = value ** 0.5\n"
                                         "    def corners(self, n):\n"
                                         "        yield from range(n)\n"
                                         "    def fail(self):\n"
                                         "        raise KeyError(self.side)\n"
                                         "class Cube(Shape):\n"
                                         "    def volume(self):\n"
                                         "        return super().area * self.side\n"
                                         "def total(*shapes, key=None, **extra):\n"
                                         "    return sum(s.area for s in shapes), key, sorted(extra)\n";

static void test_s8_methods_and_builtin_decorators_behave(void **state)
{
    (void)state;
    const char *check = "import inspect\n"
                        "s = Shape.square(3)\n"
                        "print(s.area, Shape.unit(4), Shape.unit(4, scale=3), Shape.unit.__doc__, Shape.__doc__)\n"
                        "s.area = 16\n"
                        "print(s.side, list(s.corners(3)), Cube(2).volume())\n"
                        "try:\n"
                        "    s.fail()\n"
                        "except KeyError as e:\n"
                        "    print('KeyError', e.args)\n"
                        "print(total(s, Cube(1), key='k', b=1, a=2))\n"
                        "print(Shape.unit.__name__, Shape.square.__qualname__, inspect.signature(total))\n"
                        "print(Shape.__dict__['unit'].__class__.__name__, type(Shape.__dict__['area']).__name__)\n";
    expect_same_behaviour(GB_OP_S8, s8_class_prog, check, 3);
}

static void test_s8_reuses_one_decorator_per_module(void **state)
{
    (void)state;
    OpEnv e;
    op_env_open(&e, s8_class_prog, NULL, NULL);
    op_env_apply(&e, GB_OP_S8, "def total", 1);
    op_env_apply(&e, GB_OP_S8, "def __init__", 2);
    op_env_apply(&e, GB_OP_S8, "def volume", 3);
    const char *src = op_env_src(&e);
    size_t defs = 0;
    for (const char *p = strstr(src, "@functools.wraps"); p; p = strstr(p + 1, "@functools.wraps")) defs++;
    for (const char *p = strstr(src, "@wraps"); p; p = strstr(p + 1, "@wraps")) defs++;
    assert_int_equal(defs, 1);
    /* Neither the decorator nor its wrapper is offered as a site. */
    op_env_find(&e, GB_OP_S8);
    assert_true(op_env_site(&e, "def total") < 0);
    assert_true(op_env_site(&e, "def unit") >= 0);
    for (size_t i = 0; i < e.sites.len; i++)
        assert_true(e.sites.items[i].start > (uint32_t)(strstr(src, "class Shape") - src));
    op_env_close(&e);
}

static void test_s8_refusals(void **state)
{
    (void)state;
    const char *prog = "import asyncio\n"
                       "def fact(n):\n"
                       "    return 1 if n < 2 else n * fact(n - 1)\n"
                       "def even(n):\n"
                       "    return n == 0 or odd(n - 1)\n"
                       "def odd(n):\n"
                       "    return n != 0 and even(n - 1)\n"
                       "async def fetch():\n"
                       "    return 1\n"
                       "class Node:\n"
                       "    def depth(self):\n"
                       "        return 1 + (self.child.depth() if self.child else 0)\n"
                       "    def plain(self): return 2\n"
                       "class One: \n"
                       "    x = 1; \n"
                       "def ok(a):\n"
                       "    return a\n";
    const char *listed[] = {"def ok", "def plain"};
    const char *refused[] = {"def fact", "def even", "def odd", "def fetch", "def depth"};
    expect_sites(GB_OP_S8, prog, listed, N_OF(listed), refused, N_OF(refused));
    /* Introspection that a wrapper cannot preserve, in the program or in the tests. */
    assert_int_equal(count_sites(GB_OP_S8, "def f(a=1):\n    return a\nprint(f.__defaults__)\n", NULL), 0);
    assert_int_equal(count_sites(GB_OP_S8, "def f(a=1):\n    return a\n", "assert f.__code__.co_argcount == 1\n"), 0);
    /* A program that sets its recursion limit: only functions that never share the stack with
     * a recursion. */
    const char *deep = "import sys\n"
                       "sys.setrecursionlimit(5000)\n"
                       "def step(n):\n"
                       "    return n - 1\n"
                       "def down(n):\n"
                       "    return 0 if n == 0 else 1 + down(step(n))\n"
                       "def walk(n):\n"
                       "    return down(n)\n"
                       "def plain(a):\n"
                       "    return a + 1\n"
                       "print(walk(3), plain(2))\n";
    const char *deep_listed[] = {"def plain"};
    const char *deep_refused[] = {"def step", "def down", "def walk"};
    expect_sites(GB_OP_S8, deep, deep_listed, N_OF(deep_listed), deep_refused, N_OF(deep_refused));
    assert_int_equal(
        count_sites(GB_OP_S8, "import sys\nprint(sys.getrecursionlimit())\ndef f():\n    return 1\n", NULL), 0);
    assert_int_equal(count_sites(GB_OP_S8, "def f(a=1):\n    return a\n", "assert f(2) == 2\n"), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_s6_extracts_statements_and_expressions),
        cmocka_unit_test(test_s6_module_helper_does_not_shadow_module_names),
        cmocka_unit_test(test_s6_behaviour_is_kept),
        cmocka_unit_test(test_s6_refusals),
        cmocka_unit_test(test_s6_method_form),
        cmocka_unit_test(test_s6_sibling_class_form),
        cmocka_unit_test(test_s6_classeval_refusals),
        cmocka_unit_test(test_s6_script_function_form),
        cmocka_unit_test(test_s6_script_class_form),
        cmocka_unit_test(test_s6_script_behaviour_is_kept),
        cmocka_unit_test(test_s6_script_refusals),
        cmocka_unit_test(test_s7_moves_function_to_helper_module),
        cmocka_unit_test(test_s7_behaviour_and_refusals),
        cmocka_unit_test(test_s7_helper_class_under_single_file_harness),
        cmocka_unit_test(test_s7_helper_class_behaviour_and_refusals),
        cmocka_unit_test(test_s7_method_moves_to_sibling_class),
        cmocka_unit_test(test_s7_method_refusals),
        cmocka_unit_test(test_wrappers_leave_the_classeval_head_alone),
        cmocka_unit_test(test_s8_decorates_function),
        cmocka_unit_test(test_s8_decorator_inside_class),
        cmocka_unit_test(test_s8_methods_and_builtin_decorators_behave),
        cmocka_unit_test(test_s8_reuses_one_decorator_per_module),
        cmocka_unit_test(test_s8_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
