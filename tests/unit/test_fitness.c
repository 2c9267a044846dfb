/* Tests of fitness/: every metric on hand-counted programs (including the reference's quirks),
 * the NLTK tokenizer rules, RC/RR (and the reference's logged example), thresholds loading and
 * syntax errors. The expected numbers in the comments are counted by hand from the definitions
 * in genebench-reference-behaviour.md §1 and the CFG rules in fitness/cfg.c. */
#include "fitness/fitness.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fitness/tokenize.h"
#include "src/python/pyparse.h"
#include "tests/unit/helpers.h"

static GbMetrics measure_ex(const char *src, GbMetricsDetail *detail)
{
    TSParser *p = gb_parser_new();
    GbMetrics m;
    GbError err;
    bool ok = gb_metrics_compute_source("t.py", src, strlen(src), p, NULL, &m, detail, &err);
    if (!ok) print_error("unexpected error: %s\n", err.msg);
    assert_true(ok);
    ts_parser_delete(p);
    return m;
}

static GbMetrics measure(const char *src)
{
    return measure_ex(src, NULL);
}

typedef struct {
    const char *name;
    const char *src;
    double want;
} Case;

static void run_cases(const Case *cases, size_t n, GbMetricId id)
{
    for (size_t i = 0; i < n; i++) {
        GbMetrics m = measure(cases[i].src);
        if (m.v[id] != cases[i].want) {
            print_error("%s: case '%s': got %g, want %g\n", gb_metric_key(id), cases[i].name, m.v[id], cases[i].want);
            fail();
        }
    }
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void test_metric_list_order_and_keys(void **state)
{
    (void)state;
    assert_int_equal(GB_METRIC_COUNT, 21);
    assert_string_equal(gb_metric_key(GB_METRIC_C1), "C1");
    assert_string_equal(gb_metric_key(GB_METRIC_C7), "C7");
    assert_string_equal(gb_metric_key(GB_METRIC_R1), "num_tokens");
    assert_string_equal(gb_metric_key(GB_METRIC_R14), "entropy");
    assert_int_equal(GB_METRIC_R1, GB_N_COMPLEXITY);
    assert_non_null(strstr(gb_metric_label(GB_METRIC_R14), "entropy"));
}

/* ---------------------------------------------------------------- C1 */

static void test_c1_control_flow(void **state)
{
    (void)state;
    static const Case cases[] = {
        /* enter -> return -> exit: E 2, N 3, P 1 */
        {"straight", "def f(x):\n    return x\n", 1},
        /* enter, test, y=1, y=2, return, exit: 6 nodes, 6 edges */
        {"if-else", "def f(x):\n    if x:\n        y = 1\n    else:\n        y = 2\n    return y\n", 2},
        /* 9 nodes; edges enter-T T-I1 I1-B I1-I2 I2-C C-T I2-A A-T B-R T-R R-exit = 11 */
        {"while-break-continue",
         "def f(n):\n    while n:\n        if n == 3:\n            break\n        if n == 5:\n            continue\n"
         "        n -= 1\n    return n\n",
         4},
        /* for-else: 8 nodes (enter T X I B R0 R1 exit), 9 edges */
        {"for-else",
         "def f(xs):\n    for x in xs:\n        if x:\n            break\n    else:\n        return 0\n    return 1\n",
         3},
        /* try/except/finally: 9 nodes; finally node F has parents E, a=1, a=2: 10 edges */
        {"try-finally",
         "def f():\n    try:\n        a = 1\n    except ValueError:\n        a = 2\n    finally:\n        b = 3\n"
         "    return a\n",
         3},
        /* module code only: start -> x=1 -> print -> stop */
        {"module", "x = 1\nprint(x)\n", 1},
        /* the {start, stop} component (imports only at top level) is removed */
        {"start-stop-removed", "import os\n\ndef f():\n    pass\n", 1},
        /* with-blocks are walked (the reference skipped them): enter W I c() exit, 5 edges */
        {"with", "def f():\n    with a:\n        if b:\n            c()\n", 2},
        /* raise ends the flow at the function exit: a branch */
        {"raise", "def f(x):\n    if x:\n        raise ValueError()\n    return x\n", 2},
        /* uncalled method: its own island; class island enter->exit: E 3, N 5, P 2 */
        {"class-islands", "class A:\n    def m(self):\n        return 1\n", 2},
        /* bare return: extra `return None` node */
        {"bare-return", "def f():\n    return\n", 1},
        /* no code at all */
        {"empty", "import os\n", 0},
        /* match: subject node with two case bodies, the last is `case _` (no fall-through) */
        {"match",
         "def f(x):\n    match x:\n        case 1:\n            y = 1\n        case _:\n            y = 2\n    return "
         "y\n",
         2},
    };
    run_cases(cases, N(cases), GB_METRIC_C1);
}

static void test_c1_interprocedural_links(void **state)
{
    (void)state;
    /* g called three times from f: 9 nodes; edges enter_f-A R-exit_f enter_g-Rg Rg-exit_g,
     * A/B/C -> enter_g, exit_g -> B, C, R (the call -> successor edges are dropped): 10 */
    GbMetricsDetail d;
    GbMetrics m = measure_ex("def g():\n    return 1\n\ndef f():\n    a = g()\n    b = g()\n    c = g()\n"
                             "    return a + b + c\n",
                             &d);
    assert_int_equal(d.cfg_nodes, 9);
    assert_int_equal(d.cfg_edges, 10);
    assert_int_equal(d.cfg_components, 1);
    assert_near(m.v[GB_METRIC_C1], 3, 0);
    /* recursion: the return node links to f's enter and f's exit to itself (a self-loop) */
    m = measure_ex("def f(n):\n    if n:\n        return f(n - 1)\n    return 0\n", &d);
    assert_int_equal(d.cfg_nodes, 5);
    assert_int_equal(d.cfg_edges, 6);
    assert_near(m.v[GB_METRIC_C1], 3, 0);
    /* `self.m()` and `obj.m()` both name m */
    m = measure_ex("class A:\n    def m(self):\n        return 1\n    def n(self):\n        return self.m()\n", &d);
    assert_int_equal(d.cfg_components, 2); /* class island + (n linked to m) */
}

static void test_c1_multi_module_program(void **state)
{
    (void)state;
    GbProgram prog;
    gb_program_init(&prog);
    GbFile main = {gb_strdup(GB_MAIN_MODULE), gb_strdup("from helpers import util\n\nx = util(1)\n")};
    gb_array_push(&prog.modules, main);
    gb_program_add_module(&prog, "helpers.py", "def util(v):\n    if v:\n        return 1\n    return 0\n");
    TSParser *p = gb_parser_new();
    GbMetrics m;
    GbMetricsDetail d;
    GbError err;
    assert_true(gb_metrics_compute_ex(&prog, p, NULL, &m, &d, &err));
    /* start x stop | enter I R1 R2 exit; helpers' start/stop removed; x -> enter, exit -> stop */
    assert_int_equal(d.cfg_nodes, 8);
    assert_int_equal(d.cfg_edges, 8);
    assert_int_equal(d.cfg_components, 1);
    assert_near(m.v[GB_METRIC_C1], 2, 0);
    assert_near(m.v[GB_METRIC_C6], 1, 0); /* util comes from the program's own module */
    assert_near(m.v[GB_METRIC_C5], 0, 0);
    assert_near(m.v[GB_METRIC_C7], 0, 0);
    ts_parser_delete(p);
    gb_program_destroy(&prog);
}

/* ---------------------------------------------------------------- C2..C7 */

static void test_c2_predicates_with_operators(void **state)
{
    (void)state;
    static const Case cases[] = {
        {"and", "if a and b:\n    pass\n", 1},
        {"bare-name", "if flag:\n    pass\n", 0},
        {"while", "while n > 0:\n    n -= 1\n", 1},
        {"range-binop", "for i in range(n - 1):\n    pass\n", 1},
        /* -1 is a UnaryOp: two positional arguments with an operator */
        {"range-negative", "for i in range(x, -1, -1):\n    pass\n", 2},
        /* each comprehension `if` is a predicate */
        {"comprehension-ifs", "ys = [y for y in xs if y > 0 if y]\n", 1},
        {"lambda-compare", "f = lambda v: v > 1\n", 1},
        {"lambda-not", "g = lambda v: not v\n", 0},
        {"any-genexp", "ok = any(v < 0 for v in xs)\n", 1},
        {"ifexp-and-assert-not-counted", "z = a if b > 1 else c\nassert x > 1\n", 0},
        {"elif", "if a:\n    pass\nelif not b:\n    pass\n", 1},
        {"all-keyword-not-counted", "all(xs, key=a + b)\n", 0},
    };
    run_cases(cases, N(cases), GB_METRIC_C2);
}

static void test_c3_nesting_and_elif(void **state)
{
    (void)state;
    static const Case cases[] = {
        /* for(0) + for(1) + if(2); elif and `else: if` are not counted and add no depth */
        {"elif",
         "for a in x:\n    for b in y:\n        if c:\n            pass\n        elif d:\n            pass\n"
         "        else:\n            if e:\n                pass\n",
         3},
        /* depth is not reset at def: if(0) + while(1) */
        {"def-not-reset", "def f():\n    if a:\n        def g():\n            while b:\n                pass\n", 1},
        /* comprehensions ignored */
        {"comprehension", "for a in x:\n    ys = [b for b in a if b]\n", 0},
        /* for(0) while(1) for(2) if p(0) if q(1) elif r(-) if s(2) */
        {"mixed",
         "def f():\n    for a in x:\n        while b:\n            for c in y:\n                pass\nif p:\n"
         "    if q:\n        pass\n    elif r:\n        if s:\n            pass\n",
         6},
    };
    run_cases(cases, N(cases), GB_METRIC_C3);
}

static void test_c4_complex_structures(void **state)
{
    (void)state;
    /* heavy (x2): lambda 1, Thread 1, recursive fact 1 (outer's call comes after a nested def
     * ended, so the reference misses it), decorators 2 + 1 = 3 -> 6 -> 12;
     * light (x1): lists [1, 2], [a, b] target, [] = 3; list/set/dict comprehension + genexp = 4 */
    GbMetrics m = measure("import threading\n\n@dec\n@other(1)\ndef fact(n):\n"
                          "    return 1 if n < 2 else n * fact(n - 1)\n\n@dataclass\nclass P:\n    x: int = 0\n\n"
                          "def outer(n):\n    def inner():\n        return 0\n    return outer(n - 1)\n\n"
                          "t = threading.Thread(target=lambda: None)\nxs = [1, 2]\n[a, b] = xs\nys = [v for v in xs]\n"
                          "zs = {v for v in xs}\nd = {v: v for v in xs}\ng = (v for v in xs)\nempty = []\n");
    assert_near(m.v[GB_METRIC_C4], 19, 0);
    static const Case cases[] = {
        {"recursion-once-per-name", "def f(n):\n    f(1)\n    f(2)\n", 2},
        {"method-self-call-not-recursion", "class A:\n    def m(self):\n        return self.m()\n", 0},
        {"async-def-decorator", "@d\nasync def f():\n    pass\n", 2},
        {"match-list-pattern-not-a-list", "match x:\n    case [1, 2]:\n        pass\n", 0},
    };
    run_cases(cases, N(cases), GB_METRIC_C4);
}

static void test_c5_c6_c7_calls(void **state)
{
    (void)state;
    GbProgram prog;
    gb_program_init(&prog);
    GbFile main = {gb_strdup(GB_MAIN_MODULE),
                   gb_strdup("import os\nimport numpy as np\nfrom collections import OrderedDict\n"
                             "from helpers import util as u\nimport helpers\nfrom . import sibling\n\n"
                             "def run(x):\n    return x\n\nclass K:\n    def m(self):\n        return self.n()\n"
                             "    def n(self):\n        return 1\n\n"
                             "os.path.join('a', 'b')\nnp.array([1])\nOrderedDict()\nu(1)\nhelpers.util(2)\nrun(3)\n"
                             "K().m()\nenumerate([])\nlen([])\nsibling.f()\n")};
    gb_array_push(&prog.modules, main);
    gb_program_add_module(&prog, "helpers.py", "def util(v):\n    return v\n");
    TSParser *p = gb_parser_new();
    GbMetrics m;
    GbMetricsDetail d;
    GbError err;
    assert_true(gb_metrics_compute_ex(&prog, p, NULL, &m, &d, &err));
    /* C5: os.path.join (stdlib), np.array (numpy: third-party), OrderedDict (collections) */
    assert_near(m.v[GB_METRIC_C5], 3, 0);
    assert_int_equal(d.calls_stdlib, 2);
    assert_int_equal(d.calls_third_party, 1);
    /* C6: u(1) and helpers.util(2) (the program's module), sibling.f() (relative import) */
    assert_near(m.v[GB_METRIC_C6], 3, 0);
    /* C7: run(3), self.n(); K().m() has no Name root; enumerate is skipped; len is a builtin */
    assert_near(m.v[GB_METRIC_C7], 2, 0);
    ts_parser_delete(p);
    gb_program_destroy(&prog);

    /* calibration: the file's own package is its own code */
    p = gb_parser_new();
    const char *own[] = {"mypkg"};
    GbMetricsOptions opts = {.own_packages = own, .n_own_packages = 1};
    const char *src = "from mypkg.util import helper\nimport mypkg.core\nimport json\nhelper()\nmypkg.core.run()\n"
                      "json.dumps(1)\n";
    assert_true(gb_metrics_compute_source("mypkg/x.py", src, strlen(src), p, &opts, &m, NULL, &err));
    /* `import mypkg.core` adds "mypkg.core", not "mypkg": mypkg.core.run() is not counted */
    assert_near(m.v[GB_METRIC_C6], 1, 0);
    assert_near(m.v[GB_METRIC_C5], 1, 0);
    ts_parser_delete(p);
}

/* Deviation: a call K.m() whose root K is a class of the program counts as C6
 * (an inter-class dependency) unless it is inside K's own body. */
static void test_c6_inter_class_calls(void **state)
{
    (void)state;
    GbProgram prog;
    gb_program_init(&prog);
    GbFile main = {gb_strdup(GB_MAIN_MODULE), gb_strdup("from helpers import H\n\n"
                                                        "class K:\n    def m(self):\n        return K.s() + self.n()\n"
                                                        "    @staticmethod\n    def s():\n        return 1\n"
                                                        "    def n(self):\n        return 2\n\n"
                                                        "class L:\n    def n(self):\n        return K.s() + K.a.b()\n\n"
                                                        "def run():\n    return K.s()\n\n"
                                                        "K.s()\nk = K\nk.s()\nK()\nH.make()\nrun()\n")};
    gb_array_push(&prog.modules, main);
    gb_program_add_module(&prog, "helpers.py",
                          "class H:\n    @staticmethod\n    def make():\n        return H.make2()\n"
                          "    @staticmethod\n    def make2():\n        return 0\n");
    TSParser *p = gb_parser_new();
    GbMetrics m;
    GbError err;
    assert_true(gb_metrics_compute_ex(&prog, p, NULL, &m, NULL, &err));
    /* C6: K.s() and K.a.b() in L, K.s() in run, K.s() at module level, H.make() (imported from
     * the program's module, as before); not K.s() inside K, H.make2() inside H, k.s(), K() */
    assert_near(m.v[GB_METRIC_C6], 5, 0);
    /* C7: self.n() and run() */
    assert_near(m.v[GB_METRIC_C7], 2, 0);
    ts_parser_delete(p);
    gb_program_destroy(&prog);

    /* A ClassEval-style program (one class, calls through self and its own name) has no C6. */
    p = gb_parser_new();
    const char *src =
        "class Shop:\n    def __init__(self):\n        self.items = []\n"
        "    def add(self, x):\n        self.items.append(Shop.norm(x))\n        return self.count()\n"
        "    @staticmethod\n    def norm(x):\n        return x\n    def count(self):\n        return len(self.items)\n";
    assert_true(gb_metrics_compute_source("main.py", src, strlen(src), p, NULL, &m, NULL, &err));
    assert_near(m.v[GB_METRIC_C6], 0, 0);
    assert_near(m.v[GB_METRIC_C7], 1, 0); /* self.count() */
    ts_parser_delete(p);
}

/* ---------------------------------------------------------------- readability */

static double entropy_of(const unsigned *counts, size_t n)
{
    unsigned total = 0;
    for (size_t i = 0; i < n; i++) total += counts[i];
    double h = 0;
    for (size_t i = 0; i < n; i++) h -= (double)counts[i] / total * log2((double)counts[i] / total);
    return h;
}

static void test_readability_small_program(void **state)
{
    (void)state;
    GbMetrics m = measure("x = [1, 2]\nif x and not y:\n    z = int(input())\n");
    /* tokens: x = [ 1 , 2 ] | if x and not y : | z = int ( input ( ) ) -> 7 + 6 + 8 */
    assert_near(m.v[GB_METRIC_R1], 21, 0);
    assert_near(m.v[GB_METRIC_R2], 3, 0);
    assert_near(m.v[GB_METRIC_R3], 1, 0);
    assert_near(m.v[GB_METRIC_R4], 0, 0);
    assert_near(m.v[GB_METRIC_R5], 2, 0);
    assert_near(m.v[GB_METRIC_R6], 0, 0);
    assert_near(m.v[GB_METRIC_R7], 1, 0);
    assert_near(m.v[GB_METRIC_R8], 2, 0); /* x (Name) + not y (-> y) */
    assert_near(m.v[GB_METRIC_R9], 8, 0);
    assert_near(m.v[GB_METRIC_R10], 2, 0); /* x, z */
    assert_near(m.v[GB_METRIC_R11], 1, 0);
    assert_near(m.v[GB_METRIC_R12], 2, 0); /* and, not */
    assert_near(m.v[GB_METRIC_R13], 1, 0); /* int(input()) */
    /* x, =, (, ) twice; 13 tokens once */
    const unsigned counts[] = {2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    assert_near(m.v[GB_METRIC_R14], entropy_of(counts, N(counts)), 1e-9);
}

static void test_readability_assignments_variables_operators(void **state)
{
    (void)state;
    GbMetrics m = measure("a = b = 1\na += 2\nc: int = 3\nd: str\nx, (y, [z, *w]) = t\n[p, q] = t\nobj.attr = 5\n"
                          "arr[0] = 6\nfor i, j in pairs:\n    pass\nwith open(f) as fh, g as (h1, h2):\n    pass\n"
                          "try:\n    pass\nexcept E as err:\n    pass\nif (n := 10) > 5:\n    pass\n"
                          "vals = [k for k in range(3) for m in range(k) if k if m]\nflag = a < b <= c\n"
                          "other = a is not b\nboth = a and b and c or d\nneg = -a\nr = 1 if a else 2 if b else 3\n");
    /* one per statement: chained a = b = 1 is one Assign; d: str is an AnnAssign */
    assert_near(m.v[GB_METRIC_R5], 14, 0);
    /* a b c d x y z w p q i j fh h1 h2 n vals k m flag other both neg r; not err/obj/arr */
    assert_near(m.v[GB_METRIC_R10], 24, 0);
    /* [z, *w] and [p, q] targets, the list comprehension */
    assert_near(m.v[GB_METRIC_R11], 3, 0);
    /* for + two generators */
    assert_near(m.v[GB_METRIC_R4], 3, 0);
    /* if + two comprehension ifs + two IfExp */
    assert_near(m.v[GB_METRIC_R3], 5, 0);
    /* += 1, > 1, < <= 2, is not 1, and-chain + or 2, -a 1 */
    assert_near(m.v[GB_METRIC_R12], 8, 0);
}

static void test_readability_nesting_elif_counts_a_level(void **state)
{
    (void)state;
    GbMetrics m = measure("def f():\n    for a in x:\n        while b:\n            for c in y:\n                pass\n"
                          "if p:\n    if q:\n        pass\n    elif r:\n        if s:\n            pass\n");
    assert_near(m.v[GB_METRIC_R6], 3, 0);
    /* p 1, q 2, elif r 3 (an If in q's orelse), s 4 -- while C3 does not count the elif */
    assert_near(m.v[GB_METRIC_R7], 4, 0);
    assert_near(m.v[GB_METRIC_C3], 6, 0);
    static const Case cases[] = {
        {"elif-chain", "if a:\n    pass\nelif b:\n    pass\nelif c:\n    if d:\n        pass\n", 4},
        {"else-body", "if a:\n    pass\nelif b:\n    pass\nelse:\n    if c:\n        pass\n", 3},
        {"comprehension-if-ignored", "ys = [y for y in x if y]\n", 0},
    };
    run_cases(cases, N(cases), GB_METRIC_R7);
}

static void test_readability_conditions_in_if(void **state)
{
    (void)state;
    static const Case cases[] = {
        {"boolop-nested", "if a and (b or c) and not d:\n    pass\n", 4},
        {"attribute", "if obj.ready:\n    pass\n", 0},
        {"subscript", "if x[0]:\n    pass\n", 0},
        {"fstring", "if f\"s{x}\":\n    pass\n", 0},
        {"string-constant", "if \"s\":\n    pass\n", 1},
        {"none", "if None:\n    pass\n", 1},
        {"not-compare", "if not (a > b):\n    pass\n", 1},
        {"binop", "if a + b:\n    pass\n", 0},
        {"negative", "if -1:\n    pass\n", 0},
        {"max-over-elif", "if a:\n    pass\nelif b and c and d:\n    pass\n", 3},
    };
    run_cases(cases, N(cases), GB_METRIC_R8);
}

static void test_readability_casting_lines_arrays(void **state)
{
    (void)state;
    static const Case cast[] = {
        {"int-input", "int(input())\n", 1},
        {"list-map", "list(map(int, xs))\n", 1},
        {"plain", "str(x)\n", 0},
        {"parenthesized", "float((g()))\n", 1},
        {"starred", "int(*args)\n", 0},
        {"method", "str(obj.method())\n", 1},
        {"attribute-callee", "builtins.int(f())\n", 0},
        {"generator", "tuple(x for x in y)\n", 0},
        {"keyword-only", "dict(a=f())\n", 0},
    };
    run_cases(cast, N(cast), GB_METRIC_R13);
    /* lines with an ast node start: 1, 2, 5, 8, 10, 11, 13 (not the `.b` / `.c()` continuation
     * lines, the string's second line, the comment, the blank line or `else:`) */
    static const Case lines[] = {
        {"mixed",
         "x = foo(1,\n        2)\n\n# comment\ny = (a\n     .b\n     .c())\ns = \"\"\"doc\nmore\"\"\"\nif x:\n"
         "    pass\nelse:\n    pass\n",
         7},
        {"decorator-and-def", "@dec\ndef f(\n    a,\n    b):\n    pass\n", 5},
    };
    run_cases(lines, N(lines), GB_METRIC_R2);
    static const Case arrays[] = {
        {"list-and-listcomp-not-set", "a = [1]\nb = [x for x in a]\nc = {x for x in a}\nd = []\n", 3},
    };
    run_cases(arrays, N(arrays), GB_METRIC_R11);
}

/* ---------------------------------------------------------------- tokenizer */

typedef struct {
    const char *text;
    const char *tokens; /* joined with | */
} TokCase;

static void collect(void *ctx, const char *tok, size_t len)
{
    GbStr *s = ctx;
    if (s->len) gb_str_append(s, "|");
    gb_str_append_n(s, tok, len);
}

static void test_tokenizer_nltk_rules(void **state)
{
    (void)state;
    /* Expected outputs follow NLTK 3.8 word_tokenize's rules (genebench-reference-behaviour.md §1). */
    static const TokCase cases[] = {
        {"x+=1", "x+=1"},                                             /* + = digits are not split */
        {"a.b(c)", "a.b|(|c|)"},                                      /* brackets are */
        {"He said \"hi\".", "He|said|``|hi|''|."},                    /* quotes; final period */
        {"I don't know, it's 5:30.", "I|do|n't|know|,|it|'s|5:30|."}, /* clitics; ':' before a digit */
        {"cannot gonna", "can|not|gon|na"},                           /* contractions */
        {"'x'", "'|x|'"},                                             /* lone quote before a one-letter word */
        {"Done. Next one", "Done|.|Next|one"},                        /* Punkt sentence break */
        {"see e.g. foo", "see|e.g.|foo"},                             /* abbreviation: no break */
        {"wait... what?!", "wait|...|what|?|!"},
        {"a--b", "a|--|b"},
        {"x = {'a': 1}", "x|=|{|'|a|'|:|1|}"},
        {"f(*args, **kw) # 100% @dec $x", "f|(|*|args|,|*|*|kw|)|#|100|%|@|dec|$|x"},
        {"'''doc'''", "''|'doc|''|'"},
        {"x='a'", "x=|'|a|'"},
        {"", ""},
    };
    GbTokenizer tk;
    gb_tokenizer_init(&tk);
    GbStr s;
    gb_str_init(&s);
    for (size_t i = 0; i < N(cases); i++) {
        gb_str_clear(&s);
        size_t n = gb_word_tokenize(&tk, cases[i].text, strlen(cases[i].text), collect, &s);
        const char *got = s.data ? s.data : "";
        if (strcmp(got, cases[i].tokens) != 0) {
            print_error("tokenize(%s): got %s, want %s\n", cases[i].text, got, cases[i].tokens);
            fail();
        }
        size_t want_n = cases[i].tokens[0] ? 1 : 0;
        for (const char *p = cases[i].tokens; *p; p++) want_n += *p == '|';
        assert_int_equal(n, want_n);
    }
    gb_str_destroy(&s);
    gb_tokenizer_destroy(&tk);
}

/* ---------------------------------------------------------------- fitness */

static GbThresholds load(const char *name)
{
    GbThresholds t;
    GbError err;
    bool ok = gb_thresholds_load(name, &t, &err);
    if (!ok) print_error("%s\n", err.msg);
    assert_true(ok);
    return t;
}

static void test_rc_rr_reproduce_reference_log(void **state)
{
    (void)state;
    GbThresholds t = load("builtin:paper");
    GbMetrics m = {{5, 4, 6, 4, 5, 0, 0, 129, 20, 5, 0, 7, 0, 4, 1, 20, 7, 4, 5, 1, 5.3025}};
    assert_near(gb_fitness_rr_ref(&m, &t), 0.7123, 1e-12);
    assert_near(gb_fitness_rc_ref(&m, &t), 0.1327, 1e-12);
    /* paper Eq. 1-2: nothing is capped here; num_max_nested_if = 4 = RT gives 0, not negative */
    assert_near(gb_fitness_rc(&m, &t), (5 / 66.29 + 4 / 25.59 + 6 / 20.73 + 4 / 30.44 + 5 / 18.11) / 7, 1e-12);
    assert_int_equal(gb_fitness_exceeds(&m, &t), -1);
    gb_thresholds_destroy(&t);
}

/* The balanced score: mean sqrt(min(1, C_i/CT_i)); spreading beats piling on one dimension. */
static void test_rc_balanced(void **state)
{
    (void)state;
    GbThresholds t = load("paper");
    GbMetrics m = {{0}};
    assert_near(gb_fitness_rc_balanced(&m, &t), 0.0, 1e-12);
    m.v[GB_METRIC_C1] = 200; /* capped at 1 */
    assert_near(gb_fitness_rc_balanced(&m, &t), 1.0 / 7, 1e-12);
    GbMetrics one = {{0}}, two = {{0}};
    one.v[GB_METRIC_C4] = 2 * t.ct[GB_METRIC_C4] / 8; /* a quarter of one threshold, in one dimension */
    two.v[GB_METRIC_C4] = t.ct[GB_METRIC_C4] / 8;     /* the same RC, spread over two dimensions */
    two.v[GB_METRIC_C6] = t.ct[GB_METRIC_C6] / 8;
    assert_near(gb_fitness_rc(&one, &t), gb_fitness_rc(&two, &t), 1e-12);
    assert_near(gb_fitness_rc_balanced(&one, &t), sqrt(0.25) / 7, 1e-12);
    assert_near(gb_fitness_rc_balanced(&two, &t), 2 * sqrt(0.125) / 7, 1e-12);
    assert_true(gb_fitness_rc_balanced(&two, &t) > gb_fitness_rc_balanced(&one, &t));
    for (int i = 0; i < GB_N_COMPLEXITY; i++) m.v[i] = t.ct[i];
    assert_near(gb_fitness_rc_balanced(&m, &t), 1.0, 1e-12);
    gb_thresholds_destroy(&t);
}

static void test_rc_rr_caps_and_exceeds(void **state)
{
    (void)state;
    GbThresholds t = load("paper");
    GbMetrics m = {{0}};
    m.v[GB_METRIC_C1] = 200; /* 200 / 66.29 > 1 -> capped at 1 */
    assert_near(gb_fitness_rc(&m, &t), 1.0 / 7, 1e-12);
    assert_true(gb_fitness_rc_ref(&m, &t) > 0.43);
    assert_near(gb_fitness_rr(&m, &t), 1.0, 1e-12);
    m.v[GB_METRIC_R3] = 90; /* 2 x RT: 1 - 2 = -1 -> floored at 0 */
    assert_near(gb_fitness_rr(&m, &t), 13.0 / 14, 1e-12);
    assert_near(gb_fitness_rr_ref(&m, &t), round((13.0 - 1.0) / 14 * 10000) / 10000, 1e-12);
    assert_int_equal(gb_fitness_exceeds(&m, &t), 2);
    m.v[GB_METRIC_R1] = 5039; /* the first exceeding metric in key order */
    assert_int_equal(gb_fitness_exceeds(&m, &t), 0);
    gb_thresholds_destroy(&t);
}

static void test_thresholds_load_and_reject(void **state)
{
    (void)state;
    GbThresholds t = load("builtin:paper");
    assert_near(t.ct[0], 66.29, 1e-12);
    assert_near(t.ct[6], 15.22, 1e-12);
    assert_near(t.rt[0], 5038, 0);
    assert_near(t.rt[13], 7, 0);
    assert_string_equal(t.name, "builtin:paper");
    gb_thresholds_destroy(&t);
    t = load(gb_thresholds_default_path());
    for (int i = 0; i < GB_N_COMPLEXITY; i++) assert_true(t.ct[i] > 0);
    gb_thresholds_destroy(&t);

    static const struct {
        const char *json, *msg;
    } bad[] = {
        {"{", "invalid JSON"},
        {"[]", "JSON object"},
        {"{\"complexity\": {}}", "schema"},
        {"{\"schema\": \"genebench-thresholds/1\", \"complexity\": {}, \"readability\": {}}", "manifest"},
        {"{\"schema\": \"genebench-thresholds/1\", \"manifest\": {}, \"complexity\": {}}", "source"},
        {"{\"schema\": \"genebench-thresholds/1\", \"manifest\": {\"source\": \"t\"}, \"complexity\": {\"C1\": 1}}",
         "\"C2\""},
        {"{\"schema\": \"genebench-thresholds/1\", \"manifest\": {\"source\": \"t\"}, \"complexity\": {\"C1\": -1}}",
         "\"C1\""},
    };
    for (size_t i = 0; i < N(bad); i++) {
        GbError err;
        assert_false(gb_thresholds_parse("x.json", bad[i].json, strlen(bad[i].json), &t, &err));
        if (!strstr(err.msg, bad[i].msg) || !strstr(err.msg, "x.json")) {
            print_error("case %zu: message '%s' lacks '%s'\n", i, err.msg, bad[i].msg);
            fail();
        }
    }
    GbError err;
    assert_false(gb_thresholds_load(GB_TEST_DATA "/no-such-thresholds.json", &t, &err));
    assert_false(gb_thresholds_load("builtin:nope", &t, &err));
    assert_non_null(strstr(err.msg, "builtin:nope"));
}

static void test_syntax_error_is_reported_with_position(void **state)
{
    (void)state;
    TSParser *p = gb_parser_new();
    GbMetrics m;
    GbError err;
    const char *src = "x = 1\ndef f(:\n    pass\n";
    assert_false(gb_metrics_compute_source("t.py", src, strlen(src), p, NULL, &m, NULL, &err));
    assert_non_null(strstr(err.msg, "t.py:2:"));
    assert_non_null(strstr(err.msg, "syntax error"));
    GbProgram prog;
    gb_program_init(&prog);
    GbFile main = {gb_strdup(GB_MAIN_MODULE), gb_strdup("x = 1\n")};
    gb_array_push(&prog.modules, main);
    gb_program_add_module(&prog, "helper.py", "def g(\n");
    assert_false(gb_metrics_compute(&prog, p, &m, &err));
    assert_non_null(strstr(err.msg, "helper.py:"));
    gb_program_destroy(&prog);
    const char bad_utf8[] = "x = '\xff'\n";
    assert_false(gb_metrics_compute_source("u.py", bad_utf8, strlen(bad_utf8), p, NULL, &m, NULL, &err));
    assert_non_null(strstr(err.msg, "UTF-8"));
    ts_parser_delete(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_metric_list_order_and_keys),
        cmocka_unit_test(test_rc_balanced),
        cmocka_unit_test(test_c1_control_flow),
        cmocka_unit_test(test_c1_interprocedural_links),
        cmocka_unit_test(test_c1_multi_module_program),
        cmocka_unit_test(test_c2_predicates_with_operators),
        cmocka_unit_test(test_c3_nesting_and_elif),
        cmocka_unit_test(test_c4_complex_structures),
        cmocka_unit_test(test_c5_c6_c7_calls),
        cmocka_unit_test(test_c6_inter_class_calls),
        cmocka_unit_test(test_readability_small_program),
        cmocka_unit_test(test_readability_assignments_variables_operators),
        cmocka_unit_test(test_readability_nesting_elif_counts_a_level),
        cmocka_unit_test(test_readability_conditions_in_if),
        cmocka_unit_test(test_readability_casting_lines_arrays),
        cmocka_unit_test(test_tokenizer_nltk_rules),
        cmocka_unit_test(test_rc_rr_reproduce_reference_log),
        cmocka_unit_test(test_rc_rr_caps_and_exceeds),
        cmocka_unit_test(test_thresholds_load_and_reject),
        cmocka_unit_test(test_syntax_error_is_reported_with_position),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
