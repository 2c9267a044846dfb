/* The equivalence check beyond the tests: calls taken from tests (src/model/calls.h),
 * perturbation (src/model/perturb.h), the inputs of a task and, in the sandbox, the recorded
 * original against planted changes (nsga2/equiv.h: what the `equiv` gate of evolve calls). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "nsga2/equiv.h"
#include "nsga2/equiv_private.h"
#include "nsga2/equiv_steps.h"
#include "src/model/calls.h"
#include "src/model/perturb.h"
#include "src/model/sequences.h"
#include "src/python/nodekind.h"
#include "src/python/pyparse.h"

static void make_assert_task(GbTask *t, const char *id, const char *entry, const char *source, const char *tests)
{
    gb_task_init(t);
    t->id = gb_strdup(id);
    t->kind = GB_TESTS_ASSERT;
    t->entry_point = gb_strdup(entry);
    t->source = gb_strdup(source);
    t->test_code = gb_strdup(tests);
}

static void test_calls_extract_forms(void **state)
{
    (void)state;
    TSParser *p = gb_parser_new();
    GbTask t;
    make_assert_task(&t, "t", "add", "",
                     "def check(candidate):\n    assert candidate(1, 2) == 3\n    assert candidate([1], 0)\n"
                     "    assert not candidate('a', b=2)\n    assert abs(candidate(0.1, 0.2) - 0.3) < 1e-9\n"
                     "    xs = [1]\n    assert candidate(xs, 0) == [1]\n    candidate({1: (2, 3)}, set())\n"
                     "    assert other(4) == 4\n    assert candidate(candidate(1, 1), 2) == 4\n\ncheck(add)\n"
                     "assert add(b=1, a=2) == 3\n");
    GbCallList calls = {0};
    gb_calls_extract(p, &t, &calls);
    const char *want[] = {"1, 2", "[1], 0", "'a', b=2", "0.1, 0.2", "{1: (2, 3)}, set()", "1, 1", "b=1, a=2"};
    assert_int_equal(calls.len, 7);
    for (size_t i = 0; i < 7; i++) assert_string_equal(calls.items[i].args, want[i]);
    assert_string_equal(calls.items[0].expected, "3");
    assert_null(calls.items[1].expected);
    assert_null(calls.items[3].expected);
    assert_null(calls.items[5].expected); /* the inner call of candidate(candidate(1, 1), 2) */
    assert_string_equal(calls.items[6].callee, "add");
    assert_string_equal(calls.items[6].expected, "3");
    assert_int_equal(calls.items[2].line, 4);
    gb_call_list_destroy(&calls);
    t.kind = GB_TESTS_UNITTEST;
    gb_calls_extract(p, &t, &calls);
    assert_int_equal(calls.len, 0);
    gb_task_destroy(&t);
    ts_parser_delete(p);
}

/* Call sequences of a unittest task: setUp's object, names bound to literal data resolved,
 * attribute assignments, steps with other arguments left out, one sequence per object. */
static void test_sequences_extract(void **state)
{
    (void)state;
    TSParser *p = gb_parser_new();
    GbTask t;
    make_assert_task(
        &t, "c", "Box", "class Box:\n    pass\n",
        "import unittest\n\nclass BoxTest(unittest.TestCase):\n"
        "    def setUp(self):\n        self.b = Box(3)\n\n"
        "    def test_put(self):\n        x = {'k': [1, 2]}\n        self.assertEqual(self.b.put(x), 1)\n"
        "        self.b.size = 4\n        self.b.put(len(x))\n        self.assertTrue(self.b.get(key='k'))\n\n"
        "    def test_two(self):\n        a = Box()\n        for v in [1, 'x']:\n            a.put(v)\n        c = "
        "Box(y=2)\n        a.add(c)\n        c.add(-1)\n"
        "        other = Other(1)\n        other.add(2)\n\n"
        "    def helper(self):\n        Box(9).add(1)\n");
    GbSeqList seqs = {0};
    gb_sequences_extract(p, &t, &seqs);
    assert_int_equal(seqs.len, 0); /* an assert task has none */
    t.kind = GB_TESTS_UNITTEST;
    gb_sequences_extract(p, &t, &seqs);
    const char *want[] = {"Box(3)|.put(({'k': [1, 2]}))|.size=4|.get(key='k')", "Box(3)", "Box()|.put((1))|.put(('x'))",
                          "Box(y=2)|.add(-1)"};
    assert_int_equal(seqs.len, 4);
    for (size_t i = 0; i < 4; i++) {
        for (char *c = seqs.items[i]; *c; c++)
            if (*c == GB_SEQ_SEP) *c = '|';
        assert_string_equal(seqs.items[i], want[i]);
    }
    for (size_t i = 0; i < seqs.len; i++) free(seqs.items[i]);
    gb_array_free(&seqs);
    /* steps: split, one replaced, shown */
    const char *text = "Box(3)\x1f.put([1])\x1f.size=4";
    GbSeqSteps steps = {0};
    assert_true(gb_sequence_steps(text, &steps));
    assert_int_equal(steps.len, 3);
    char *w = gb_sequence_with(steps.items, steps.len, 2, "5");
    char *d = gb_sequence_display(w);
    assert_string_equal(d, "Box(3); .put([1]); .size=5");
    free(w);
    free(d);
    gb_array_free(&steps);
    assert_false(gb_sequence_steps("Box(3)\x1f.broken", &steps));
    gb_array_free(&steps);
    gb_task_destroy(&t);
    ts_parser_delete(p);
}

/* The kind of a literal's node, numbers with their sign folded in, set() as a set. */
static const char *shape_kind(TSNode n, const char *src)
{
    while (gb_node_is_kind(n, GB_NK_PARENTHESIZED_EXPRESSION)) n = ts_node_named_child(n, 0);
    if (gb_node_is_kind(n, GB_NK_UNARY_OPERATOR)) n = ts_node_named_child(n, 0);
    if (gb_node_is_kind(n, GB_NK_CALL)) {
        TSNode fn = gb_node_field(n, "function");
        if (gb_node_text_eq(fn, src, "set")) return "set";
        if (gb_node_text_eq(fn, src, "frozenset")) return "frozenset";
    }
    if (gb_node_is_kind(n, GB_NK_TRUE) || gb_node_is_kind(n, GB_NK_FALSE)) return "bool";
    return ts_node_type(n);
}

/* Same types, recursively for tuples (same length) and for the elements of lists/sets/dicts
 * (each element's type is one of the original elements' types). */
static bool same_shape(TSNode a, const char *sa, TSNode b, const char *sb)
{
    while (gb_node_is_kind(a, GB_NK_PARENTHESIZED_EXPRESSION)) a = ts_node_named_child(a, 0);
    while (gb_node_is_kind(b, GB_NK_PARENTHESIZED_EXPRESSION)) b = ts_node_named_child(b, 0);
    if (strcmp(shape_kind(a, sa), shape_kind(b, sb)) != 0) return false;
    if (gb_node_is_kind(a, GB_NK_TUPLE)) {
        if (ts_node_named_child_count(a) != ts_node_named_child_count(b)) return false;
        for (uint32_t i = 0; i < ts_node_named_child_count(a); i++)
            if (!same_shape(ts_node_named_child(a, i), sa, ts_node_named_child(b, i), sb)) return false;
    }
    if (gb_node_is_kind(a, GB_NK_LIST) || gb_node_is_kind(a, GB_NK_SET) || gb_node_is_kind(a, GB_NK_DICTIONARY)) {
        for (uint32_t j = 0; j < ts_node_named_child_count(b); j++) {
            bool found = false;
            for (uint32_t i = 0; i < ts_node_named_child_count(a) && !found; i++)
                found = same_shape(ts_node_named_child(a, i), sa, ts_node_named_child(b, j), sb);
            if (!found) return false;
        }
    }
    if (gb_node_is_kind(a, GB_NK_PAIR))
        return same_shape(gb_node_field(a, "key"), sa, gb_node_field(b, "key"), sb) &&
               same_shape(gb_node_field(a, "value"), sa, gb_node_field(b, "value"), sb);
    return true;
}

static TSNode arg_list(TSParser *p, const char *call, TSTree **tree)
{
    *tree = gb_parse(p, call, strlen(call));
    return gb_node_field(ts_node_child(ts_node_child(ts_tree_root_node(*tree), 0), 0), "arguments");
}

static const char *const cases[] = {
    "[3, 1, 2], 5",
    "'hello world', 2",
    "(1, 'a', 2.5), {'x': [1, 2], 'y': []}",
    "{1, 2, 3}, -4, True, None",
    "[[1, 2], [3]], b'ab\\x00c', 'tab\\there'",
    "frozenset([1, 2]), 1e-3, -0.5, 0x1f",
    "key=[1.5, -2.0], flag=False",
    "r'a\\d+', \"\"\"multi\nline\"\"\"",
    NULL,
};

static void test_perturb_types_and_determinism(void **state)
{
    (void)state;
    TSParser *p = gb_parser_new();
    for (size_t c = 0; cases[c]; c++) {
        int changed = 0;
        for (uint64_t seed = 0; seed < 60; seed++) {
            GbRng r1, r2;
            gb_rng_init_keyed(&r1, seed, 7, c, 0);
            gb_rng_init_keyed(&r2, seed, 7, c, 0);
            char *a = gb_perturb_args(p, cases[c], &r1, 1), *b = gb_perturb_args(p, cases[c], &r2, 1);
            assert_non_null(a);
            assert_string_equal(a, b); /* deterministic by the rng's key */
            char why[160];
            if (!gb_literal_args_ok(p, a, why, sizeof why)) {
                print_error("%s -> %s: %s\n", cases[c], a, why);
                fail();
            }
            changed += strcmp(a, cases[c]) != 0;
            char *ca = gb_asprintf("f(%s)", cases[c]), *cb = gb_asprintf("f(%s)", a);
            TSTree *ta, *tb;
            TSNode la = arg_list(p, ca, &ta), lb = arg_list(p, cb, &tb);
            assert_int_equal(ts_node_named_child_count(la), ts_node_named_child_count(lb));
            for (uint32_t i = 0; i < ts_node_named_child_count(la); i++) {
                TSNode x = ts_node_named_child(la, i), y = ts_node_named_child(lb, i);
                if (gb_node_is_kind(x, GB_NK_KEYWORD_ARGUMENT)) {
                    assert_true(gb_node_is_kind(y, GB_NK_KEYWORD_ARGUMENT));
                    x = gb_node_field(x, "value");
                    y = gb_node_field(y, "value");
                }
                if (!same_shape(x, ca, y, cb)) {
                    print_error("type changed: %s -> %s\n", cases[c], a);
                    fail();
                }
            }
            ts_tree_delete(ta);
            ts_tree_delete(tb);
            free(ca);
            free(cb);
            free(a);
            free(b);
        }
        assert_true(changed >= 40); /* most derived inputs differ from the test's */
    }
    ts_parser_delete(p);
}

static void test_perturb_large_inputs(void **state)
{
    (void)state;
    TSParser *p = gb_parser_new();
    GbRng rng;
    gb_rng_init_keyed(&rng, 1, 2, 3, 4);
    char *a = gb_perturb_args(p, "[1, 2, 3], 'ab', 7, (1, [2])", &rng, 6);
    assert_non_null(a);
    /* 18 list elements, a 12-character string, the int kept, the tuple's list scaled */
    char *call = gb_asprintf("f(%s)", a);
    TSTree *t;
    TSNode l = arg_list(p, call, &t);
    assert_int_equal(ts_node_named_child_count(ts_node_named_child(l, 0)), 18);
    TSNode s = ts_node_named_child(l, 1);
    assert_int_equal(ts_node_end_byte(s) - ts_node_start_byte(s), 14);
    assert_true(gb_node_text_eq(ts_node_named_child(l, 2), call, "7"));
    TSNode tup = ts_node_named_child(l, 3);
    assert_int_equal(ts_node_named_child_count(tup), 2);
    assert_int_equal(ts_node_named_child_count(ts_node_named_child(tup, 1)), 6);
    ts_tree_delete(t);
    free(call);
    free(a);
    /* not literal data: refused */
    assert_null(gb_perturb_args(p, "x, [1]", &rng, 1));
    assert_null(gb_perturb_args(p, "__import__('os')", &rng, 1));
    ts_parser_delete(p);
}

/* Grown inputs: every collection and string about target long, a count raised to target, the
 * parameters a program loops on found. */
static void test_perturb_grow(void **state)
{
    (void)state;
    TSParser *p = gb_parser_new();
    GbRng rng;
    gb_rng_init_keyed(&rng, 1, 2, 3, 4);
    char *a = gb_perturb_grow(p, "[1, 2, 3], 'ab', 7, 5, {'a': 1}", &rng, 1000, 1u << 3);
    assert_non_null(a);
    char *call = gb_asprintf("f(%s)", a);
    TSTree *t;
    TSNode l = arg_list(p, call, &t);
    assert_int_equal(ts_node_named_child_count(ts_node_named_child(l, 0)), 1002); /* 3 x 334 */
    TSNode s = ts_node_named_child(l, 1);
    assert_int_equal(ts_node_end_byte(s) - ts_node_start_byte(s), 1002);
    assert_true(gb_node_text_eq(ts_node_named_child(l, 2), call, "7"));    /* not a count: kept */
    assert_true(gb_node_text_eq(ts_node_named_child(l, 3), call, "1000")); /* a count: raised */
    assert_int_equal(ts_node_named_child_count(ts_node_named_child(l, 4)), 1000);
    ts_tree_delete(t);
    free(call);
    free(a);
    assert_null(gb_perturb_grow(p, "x, [1]", &rng, 1000, 0));
    const char *src = "def g(n, xs, *rest):\n    return 0\n\n"
                      "def f(xs, n, m=2, *rest):\n    for i in range(1, n + 1):\n        pass\n"
                      "    return [x for x in range(m)]\n";
    assert_int_equal(gb_perturb_counts(p, src, "f"), 6u);
    assert_int_equal(gb_perturb_counts(p, src, "g"), 0u);
    assert_int_equal(gb_perturb_counts(p, src, "h"), 0u);
    ts_parser_delete(p);
}

/* Constructor arguments bound to attributes of the test in setUp, and methods called on the
 * class itself (static ones). */
static void test_sequences_attributes_and_static_calls(void **state)
{
    (void)state;
    TSParser *p = gb_parser_new();
    GbTask t;
    gb_task_init(&t);
    t.id = gb_strdup("seq/2");
    t.kind = GB_TESTS_UNITTEST;
    t.entry_point = gb_strdup("Db");
    t.test_code = gb_strdup("import unittest\n\nclass DbTest(unittest.TestCase):\n"
                            "    def setUp(self):\n        self.name = 'a.db'\n        self.db = Db(self.name)\n\n"
                            "    def test_put(self):\n        self.db.put('k', 1)\n\n"
                            "    def test_quote(self):\n        self.assertEqual(Db.quote('x'), \"'x'\")\n"
                            "        Db.quote('y')\n");
    GbSeqList seqs = {0};
    gb_sequences_extract(p, &t, &seqs);
    assert_int_equal(seqs.len, 3);
    char *a = gb_sequence_display(seqs.items[0]), *b = gb_sequence_display(seqs.items[1]);
    char *c = gb_sequence_display(seqs.items[2]);
    assert_string_equal(a, "Db(('a.db')); .put('k', 1)");
    assert_string_equal(b, "Db(('a.db'))");
    assert_string_equal(c, "Db=; .quote('x'); .quote('y')");
    free(a);
    free(b);
    free(c);
    for (size_t i = 0; i < seqs.len; i++) free(seqs.items[i]);
    gb_array_free(&seqs);
    gb_task_destroy(&t);
    ts_parser_delete(p);
}

/* Unstable steps: marked in the record, matching anything in the check. */
static void test_equiv_unstable_steps(void **state)
{
    (void)state;
    char *m = gb_equiv_steps_mask("new\x1eret=1\x1eret=7\x1eret=2", "new\x1eret=1\x1eret=9\x1eret=2");
    assert_string_equal(m, "new\x1eret=1\x1e?\x1eret=2");
    assert_true(gb_equiv_steps_match(m, "new\x1eret=1\x1eret=123\x1eret=2"));
    assert_false(gb_equiv_steps_match(m, "new\x1eret=1\x1eret=123\x1eret=3"));
    assert_false(gb_equiv_steps_match(m, "new\x1eret=1\x1eret=123"));
    assert_true(gb_equiv_step_unstable(strchr(strchr(m, '\x1e') + 1, '\x1e') + 1));
    free(m);
    assert_null(gb_equiv_steps_mask("new\x1eret=1", "new\x1eret=1\x1eret=2")); /* other lengths */
    assert_null(gb_equiv_steps_mask("new\x1eret=1", "new\x1eret=2"));          /* nothing stable */
}

static void test_perturb_stdin_keeps_lines(void **state)
{
    (void)state;
    const char *in = "3 abc\n10 -2 0.50\n\nword  7\n";
    int changed = 0;
    for (uint64_t seed = 0; seed < 40; seed++) {
        GbRng r1, r2;
        gb_rng_init_keyed(&r1, seed, 1, 1, 1);
        gb_rng_init_keyed(&r2, seed, 1, 1, 1);
        char *a = gb_perturb_stdin(in, &r1), *b = gb_perturb_stdin(in, &r2);
        assert_string_equal(a, b);
        changed += strcmp(a, in) != 0;
        /* same whitespace skeleton: every whitespace byte at the same token boundary */
        size_t na = 0, ni = 0;
        for (const char *q = a; *q; q++) na += *q == '\n';
        for (const char *q = in; *q; q++) ni += *q == '\n';
        assert_int_equal(na, ni);
        int ta = 0, ti = 0;
        for (const char *q = a; *q; q++) ta += *q != ' ' && *q != '\n' && (q == a || q[-1] == ' ' || q[-1] == '\n');
        for (const char *q = in; *q; q++) ti += *q != ' ' && *q != '\n' && (q == in || q[-1] == ' ' || q[-1] == '\n');
        assert_int_equal(ta, ti);
        /* a non-negative count stays non-negative, a positive one positive */
        long first = strtol(a, NULL, 10);
        assert_true(first > 0);
        free(a);
        free(b);
    }
    assert_true(changed >= 30);
}

static void test_equiv_inputs_of_a_task(void **state)
{
    (void)state;
    TSParser *p = gb_parser_new();
    GbTask t;
    make_assert_task(&t, "task/1", "f", "def f(xs):\n    return sorted(xs)\n",
                     "assert f([3, 1]) == [1, 3]\nassert f([3, 1]) == [1, 3]\nassert f([]) == []\n");
    GbEquivConfig cfg;
    gb_equiv_config_defaults(&cfg);
    GbEquivInputs a, b;
    gb_equiv_inputs(&cfg, &t, p, &a);
    gb_equiv_inputs(&cfg, &t, p, &b);
    assert_int_equal(a.from_tests, 2); /* the duplicate call counted once */
    assert_string_equal(a.inputs.items[0], "[3, 1]");
    assert_string_equal(a.entry, "f");
    assert_true(a.inputs.len > 10);
    assert_int_equal(a.inputs.len, b.inputs.len);
    size_t large = 0;
    for (size_t i = 0; i < a.inputs.len; i++) {
        assert_string_equal(a.inputs.items[i], b.inputs.items[i]);
        for (size_t j = 0; j < i; j++) assert_string_not_equal(a.inputs.items[i], a.inputs.items[j]);
        large += a.large.items[i];
    }
    assert_true(large >= 1);
    gb_equiv_inputs_destroy(&b);
    cfg.seed = 2; /* another seed, other inputs */
    gb_equiv_inputs(&cfg, &t, p, &b);
    bool differ = false;
    for (size_t i = a.from_tests; i < a.inputs.len && i < b.inputs.len; i++)
        differ |= strcmp(a.inputs.items[i], b.inputs.items[i]) != 0;
    assert_true(differ);
    gb_equiv_inputs_destroy(&a);
    gb_equiv_inputs_destroy(&b);
    gb_task_destroy(&t);
    ts_parser_delete(p);
}

/* ---- in the sandbox ---- */

static GbPool *pool_or_skip(void)
{
    GbPoolConfig cfg;
    gb_pool_config_defaults(&cfg);
    cfg.workers = 2;
    cfg.timeout_s = 20;
    cfg.cpu_s = 20;
    GbError err = {{0}};
    GbPool *pool = gb_pool_new(&cfg, &err);
    if (!pool) print_error("gb_pool_new: %s\n", err.msg);
    return pool;
}

typedef struct {
    const char *name;
    const char *source; /* the child's program */
    bool agree;         /* expected verdict */
    bool cost_ok;
} Child;

static const char *const orig_src = "def f(xs, k):\n"
                                    "    out = []\n"
                                    "    for x in xs:\n"
                                    "        if x > k:\n"
                                    "            out.append(x)\n"
                                    "    return sorted(out)\n";
static const char *const tests = "assert f([1, 5, 3], 2) == [3, 5]\nassert f([], 0) == []\n"
                                 "assert f([9, 8], 8) == [9]\n";

/* Programs that cannot read the clock record without the 1.1 s between the two probes; any
 * import outside the list, or a way around imports, counts as a clock; sys counts only when
 * used for more than its streams and limits. */
static void test_equiv_clockless(void **state)
{
    (void)state;
    static const struct {
        const char *src;
        bool clockless;
    } cases[] = {
        {"def f(x):\n    \"\"\"Each open brace.\"\"\"\n    return x + 1\n", true},
        {"from typing import List\nimport math, collections.abc as cabc\ndef f(xs: List[int]):\n"
         "    return math.fsum(xs)\n",
         true},
        {"import random\ndef f(n):\n    return random.randint(0, n)\n", true},
        {"import time\ndef f(x):\n    return x\n", false},
        {"def f(x):\n    from datetime import datetime\n    return datetime.now().second\n", false},
        {"import random\ndef f(x):\n    return random._time()\n", false},
        {"import typing\ndef f(x):\n    return typing.sys.modules\n", false},
        {"def f(x):\n    return __import__('time').time()\n", false},
        {"def f(x):\n    return ().__class__.__base__.__subclasses__()\n", false},
        {"def f(x):\n    return eval(x)\n", false},
        {"import numpy as np\ndef f(x):\n    return np.array(x)\n", false},
        {"from .helper import g\ndef f(x):\n    return g(x)\n", true},
        /* sys only for its streams and limits (a stdin script) */
        {"import sys, re\nsys.setrecursionlimit(10 ** 6)\ndef f(x):\n    return sys.stdin.readline() + "
         "str(sys.maxsize)\n",
         true},
        {"from sys import stdin as data, setrecursionlimit\ndef f(x):\n    return data.read()\n", true},
        {"import sys\ndef f(x):\n    return sys.modules['time'].time()\n", false},
        {"import sys\ndef f(x):\n    s = sys\n    return s.modules\n", false},
        {"import sys as s\ndef f(x):\n    return s.stdin.read()\n", false},
        {"from sys import modules\ndef f(x):\n    return modules\n", false},
        {"from sys import *\ndef f(x):\n    return x\n", false},
        {"from random import _time\ndef f(x):\n    return _time\n", false},
        /* standard input through open(0), but no other file */
        {"n, *a = map(int, open(0).read().split())\nprint(sum(a[:n]))\n", true},
        {"data = open(0, 'rb').read()\nprint(len(data))\n", true},
        {"print(open('/proc/uptime').read())\n", false},
        {"print(open(1 - 1, 'r').read())\n", false},
        {"reader = open\nprint(reader(0).read())\n", false},
        {"def open(x):\n    return x\nprint(open(0))\n", false},
    };
    TSParser *p = gb_parser_new();
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        GbTask t;
        make_assert_task(&t, "clock/1", "f", cases[i].src, "assert True\n");
        if (gb_equiv_clockless(p, &t, NULL) != cases[i].clockless) {
            print_error("case %zu: expected clockless %d\n", i, cases[i].clockless);
            fail();
        }
        gb_task_destroy(&t);
    }
    ts_parser_delete(p);
}

/* The task of orig_src and tests into t, the default config (with task budget B) into cfg, and the
 * original's record. */
static GbEquiv *record_orig(GbPool *pool, TSParser *p, GbTask *t, GbEquivConfig *cfg, double budget)
{
    make_assert_task(t, "equiv/1", "f", orig_src, tests);
    gb_equiv_config_defaults(cfg);
    cfg->task_budget_s = budget;
    GbError err = {{0}};
    GbEquiv *e = gb_equiv_record(pool, t, NULL, cfg, p, &err);
    if (!e) print_error("%s\n", err.msg);
    return e;
}

static void test_equiv_gate_in_the_sandbox(void **state)
{
    (void)state;
    GbPool *pool = pool_or_skip();
    assert_non_null(pool);
    TSParser *p = gb_parser_new();
    GbTask t;
    GbEquivConfig cfg;
    GbError err = {{0}};
    GbEquiv *e = record_orig(pool, p, &t, &cfg, 0);
    assert_non_null(e);
    assert_true(gb_equiv_kept(e) >= 10);
    assert_true(gb_equiv_large(e) >= 1);
    const Child children[] = {
        {"honest rewrite", "def f(xs, k):\n    return sorted(x for x in xs if x > k)\n", true, true},
        {"honest, with a helper and a loop turned around",
         "def _keep(x, k):\n    return x > k\n\ndef f(xs, k):\n    out = [x for x in reversed(xs) if _keep(x, k)]\n"
         "    out.sort()\n    return out\n",
         true, true},
        /* a branch the tests never reach: no test list is longer than 3 */
        {"planted change on long lists",
         "def f(xs, k):\n    if len(xs) > 4:\n        return sorted(x for x in xs if x >= k)\n"
         "    return sorted(x for x in xs if x > k)\n",
         false, true},
        {"mutates its argument", "def f(xs, k):\n    xs.sort()\n    return [x for x in xs if x > k]\n", false, true},
        {"prints", "def f(xs, k):\n    print(len(xs))\n    return sorted(x for x in xs if x > k)\n", false, true},
        {"raises where the original does not",
         "def f(xs, k):\n    if len(xs) > 4:\n        raise ValueError('long')\n    return sorted(x for x in xs if x > "
         "k)\n",
         false, true},
        /* hostile: tries to pass as the original by forging what the harness reads */
        {"forges its result record",
         "import os\ndef f(xs, k):\n    for fd in range(3, 64):\n        try:\n"
         "            os.write(fd, b'\\x03\\x00\\x00\\x00n\\x00\\x00\\x00')\n        except OSError:\n"
         "            pass\n    return []\n",
         false, true},
        {"replaces repr and sorted during the call",
         "import builtins\ndef f(xs, k):\n    builtins.repr = lambda o: '[]'\n    builtins.sorted = lambda *a, **kw: "
         "[]\n"
         "    return []\n",
         false, true},
        {"always-equal object",
         "class Any:\n    def __eq__(self, o):\n        return True\n\ndef f(xs, k):\n"
         "    return Any()\n",
         false, true},
        {"sleeps in a loop (same results)",
         "import time\ndef f(xs, k):\n    for _ in xs:\n        time.sleep(0.03)\n"
         "    return sorted(x for x in xs if x > k)\n",
         true, false},
        {"exits", "import sys\ndef f(xs, k):\n    sys.exit(0)\n", false, true},
        /* a change of cost class: the larger inputs are thousands of elements long */
        {"counts every element in the whole list (O(n^2))",
         "def f(xs, k):\n    out = []\n    for x in xs:\n        if x > k and xs.count(x) > 0:\n"
         "            out.append(x)\n    return sorted(out)\n",
         true, false},
        {"the same work twice (a constant factor)",
         "def f(xs, k):\n    out = [x for x in xs if x > k]\n    again = [x for x in xs if x > k]\n"
         "    return sorted(out) if out == again else []\n",
         true, true},
    };
    for (size_t i = 0; i < sizeof children / sizeof *children; i++) {
        const Child *c = &children[i];
        GbProgram prog;
        GbTask ct;
        make_assert_task(&ct, "equiv/1", "f", c->source, tests);
        gb_program_from_task(&prog, &ct);
        GbEquivVerdict v;
        assert_true(gb_equiv_check(e, &cfg, pool, &ct, &prog, &v, &err));
        bool agree = v.status == GB_RUN_PASS && v.agree;
        printf("    %-48s agree %d (%zu/%zu) cost %d (cpu %.4f vs %.4f, wall %.4f vs %.4f)%s%s%s%s\n", c->name, agree,
               v.agreed, v.checked, v.cost_ok, v.cost_child, v.cost_orig, v.wall_child, v.wall_orig,
               v.why ? " probe: " : "", v.why ? v.why : "", v.got ? " got: " : "", v.got ? v.got : "");
        if (agree != c->agree || (agree && v.cost_ok != c->cost_ok)) {
            print_error("%s: expected agree %d cost_ok %d\n", c->name, c->agree, c->cost_ok);
            fail();
        }
        /* the cost cut: the quadratic child's CPU time passes twice its bound on the first larger
         * input, and the larger inputs after it are skipped; a child within its bound loses none */
        if (strstr(c->name, "O(n^2)")) assert_true(v.cut > 0);
        if (c->cost_ok) assert_int_equal(v.cut, 0);
        gb_equiv_verdict_destroy(&v);
        gb_program_destroy(&prog);
        gb_task_destroy(&ct);
    }
    gb_equiv_delete(e);
    gb_task_destroy(&t);
    ts_parser_delete(p);
    gb_pool_delete(pool);
}

/* Whether the space-separated ids of reach hold id. */
static bool reach_has(const char *reach, const char *id, size_t n)
{
    for (const char *q = reach; q && *q;) {
        while (*q == ' ') q++;
        size_t k = strcspn(q, " ");
        if (k == n && memcmp(q, id, n) == 0) return true;
        q += k;
    }
    return false;
}

/* Every branch outcome a kept input reaches is reached by a screened one. */
static void assert_screen_reaches_all(const GbEquiv *e)
{
    size_t kept = gb_equiv_kept(e);
    for (size_t i = 0; i < kept; i++) {
        const char *reach = e->reach.items[e->kept_at.items[i]];
        for (const char *q = reach; *q;) {
            while (*q == ' ') q++;
            size_t k = strcspn(q, " ");
            if (k == 0) break;
            bool seen = false;
            for (size_t j = 0; j < kept && !seen; j++)
                seen = e->screen.items[j] && reach_has(e->reach.items[e->kept_at.items[j]], q, k);
            if (!seen) print_error("outcome %.*s reached by no screened input\n", (int)k, q);
            assert_true(seen);
            q += k;
        }
    }
}

/* The original's wall time on its slowest (or fastest) kept input. */
static double kept_wall(const GbEquiv *e, bool slowest)
{
    double w = e->wall.items[0];
    for (size_t i = 1; i < gb_equiv_kept(e); i++)
        if (slowest ? e->wall.items[i] > w : e->wall.items[i] < w) w = e->wall.items[i];
    return w;
}

/* A stdio task into t: program src, cases io[0..n) as {stdin, stdout}. */
static void make_stdio_task(GbTask *t, const char *id, const char *src, const char *const (*io)[2], size_t n)
{
    gb_task_init(t);
    t->id = gb_strdup(id);
    t->kind = GB_TESTS_STDIO;
    t->source = gb_strdup(src);
    for (size_t k = 0; k < n; k++) {
        GbStdioCase c = {gb_strdup(io[k][0]), gb_strdup(io[k][1])};
        gb_array_push(&t->cases, c);
    }
}

/* A stdio task's cases judged from the equivalence probe (gb_equiv_check_cases): the tests' own
 * inputs are kept, so the probe holds every case; the cases and the verdict come from the same run. */
static void test_equiv_check_cases(void **state)
{
    (void)state;
    GbPool *pool = pool_or_skip();
    assert_non_null(pool);
    TSParser *p = gb_parser_new();
    GbTask t;
    static const char *const io[][2] = {{"1 2 3 4\n", "7\n"}, {"5 0 5\n", "10\n"}};
    make_stdio_task(&t, "cases/1", "xs = list(map(int, input().split()))\nprint(sum(x for x in xs if x > 2))\n", io, 2);
    GbEquivConfig cfg;
    gb_equiv_config_defaults(&cfg);
    GbError err = {{0}};
    GbEquiv *e = gb_equiv_record(pool, &t, NULL, &cfg, p, &err);
    assert_non_null(e);
    assert_true(gb_equiv_kept(e) > 2);
    const struct {
        const char *source;
        GbRunStatus tests;
        const char *failed;
        bool agree;
    } children[] = {
        {"xs = list(map(int, input().split()))\ntotal = 0\nfor x in xs:\n    if x > 2:\n        total += x\n"
         "print(total)\n",
         GB_RUN_PASS, NULL, true},
        /* right on the cases only */
        {"xs = list(map(int, input().split()))\nprint(sum(x for x in xs if x > 2) if xs in ([1, 2, 3, 4], [5, 0, 5]) "
         "else -1)\n",
         GB_RUN_PASS, NULL, false},
        /* wrong on the second case */
        {"xs = list(map(int, input().split()))\nprint(sum(x for x in xs if x > 2) + (xs[0] == 5))\n", GB_RUN_FAIL,
         "case 1", false},
    };
    for (size_t i = 0; i < sizeof children / sizeof *children; i++) {
        GbProgram prog;
        gb_program_from_task(&prog, &t);
        gb_program_set_source_take(&prog, 0, gb_strdup(children[i].source));
        GbEquivVerdict v;
        GbRunResult tests;
        bool merged = false;
        assert_true(gb_equiv_check_cases(e, &cfg, pool, &t, &prog, &v, &tests, &merged, &err));
        assert_true(merged);
        assert_int_equal(tests.status, children[i].tests);
        assert_int_equal(tests.tests_run, 2);
        if (children[i].failed) assert_string_equal(tests.failed_test, children[i].failed);
        assert_int_equal(v.agree, children[i].agree);
        gb_run_result_destroy(&tests);
        gb_equiv_verdict_destroy(&v);
        gb_program_destroy(&prog);
    }
    /* the smallest screen still holds the cases */
    gb_equiv_screen_choose(e, kept_wall(e, true));
    size_t n = 0;
    assert_true(gb_equiv_screened(e, &n));
    assert_true(n < gb_equiv_kept(e));
    GbProgram prog;
    gb_program_from_task(&prog, &t);
    GbEquivVerdict v;
    GbRunResult tests;
    bool merged = false;
    assert_true(gb_equiv_check_cases(e, &cfg, pool, &t, &prog, &v, &tests, &merged, &err));
    assert_true(merged && tests.status == GB_RUN_PASS && v.agree);
    gb_run_result_destroy(&tests);
    gb_equiv_verdict_destroy(&v);
    gb_program_destroy(&prog);
    gb_equiv_delete(e);
    gb_task_destroy(&t);
    ts_parser_delete(p);
    gb_pool_delete(pool);
}

/* Under a task budget B, a stdio task whose test case takes the original more than the search's
 * share (B / GB_EQUIV_BUDGET_SHARE) over GB_EQUIV_TRACE_SLOWDOWN is recorded without the search: a
 * traced run could not finish there. Its cases and derived inputs are still kept and checked. */
static void test_equiv_untraced_when_a_case_outlasts_the_search(void **state)
{
    (void)state;
    GbPool *pool = pool_or_skip();
    assert_non_null(pool);
    TSParser *p = gb_parser_new();
    GbTask t;
    static const char *const io[][2] = {{"5\n", "10\n"}};
    make_stdio_task(&t, "untraced/1", "n = int(input())\nif n > 3:\n    print(n * 2)\nelse:\n    print(n)\n", io, 1);
    assert_false(gb_equiv_untraced(NULL)); /* no record (it failed): like the other counts */
    const double share = 15.0 / GB_EQUIV_BUDGET_SHARE;
    const struct {
        double case_wall_s;
        bool untraced;
    } runs[] = {
        {0, false}, {share / GB_EQUIV_TRACE_SLOWDOWN * 0.9, false}, {share / GB_EQUIV_TRACE_SLOWDOWN * 1.1, true}};
    for (size_t i = 0; i < sizeof runs / sizeof *runs; i++) {
        GbEquivConfig cfg;
        gb_equiv_config_defaults(&cfg);
        cfg.task_budget_s = 15.0;
        cfg.case_wall_s = runs[i].case_wall_s;
        GbError err = {{0}};
        GbEquiv *e = gb_equiv_record(pool, &t, NULL, &cfg, p, &err);
        assert_non_null(e);
        assert_int_equal(gb_equiv_untraced(e), runs[i].untraced);
        if (runs[i].untraced)
            assert_int_equal(gb_equiv_branches(e), 0);
        else
            assert_int_equal(gb_equiv_covered(e), gb_equiv_branches(e)); /* both sides of n > 3 */
        assert_true(gb_equiv_kept(e) > 1);
        GbProgram prog;
        gb_program_from_task(&prog, &t);
        gb_program_set_source_take(&prog, 0, gb_strdup("n = int(input())\nprint(n * 2 if n > 4 else n)\n"));
        GbEquivVerdict v;
        assert_true(gb_equiv_check(e, &cfg, pool, &t, &prog, &v, &err));
        assert_false(v.agree); /* n = 4 is derived from the case's 5 */
        gb_equiv_verdict_destroy(&v);
        gb_program_destroy(&prog);
        gb_equiv_delete(e);
    }
    gb_task_destroy(&t);
    ts_parser_delete(p);
    gb_pool_delete(pool);
}

/* Under a time budget a child is checked on a screen of the kept inputs, and the inputs outside
 * it once at the end (gb_equiv_check_rest): the two together are every kept input; the screen
 * holds every larger input and reaches every outcome the kept inputs reach; a change the screen
 * does not see is found by the rest. Without a budget, or within its share, there is no screen. */
static void test_equiv_screen(void **state)
{
    (void)state;
    GbPool *pool = pool_or_skip();
    assert_non_null(pool);
    TSParser *p = gb_parser_new();
    GbTask t;
    GbEquivConfig cfg;
    GbError err = {{0}};
    size_t n = 0;
    GbEquiv *whole = record_orig(pool, p, &t, &cfg, 0);
    assert_non_null(whole);
    assert_false(gb_equiv_screened(whole, &n));
    gb_equiv_delete(whole);
    gb_task_destroy(&t);
    GbEquiv *e = record_orig(pool, p, &t, &cfg, 15);
    assert_non_null(e);
    /* the original's time on every kept input is within its share of the budget: no screen */
    assert_false(gb_equiv_screened(e, &n));
    /* the smallest screen whose minimum every input fits in alone */
    gb_equiv_screen_choose(e, kept_wall(e, true));
    assert_true(gb_equiv_screened(e, &n));
    size_t kept = gb_equiv_kept(e), outside = kept;
    for (size_t i = 0; i < kept; i++) {
        if (e->kept_large.items[i]) assert_true(e->screen.items[i]);
        if (!e->screen.items[i] && outside == kept) outside = i;
    }
    printf("    kept %zu, screen %zu\n", kept, n);
    assert_true(n >= GB_EQUIV_SCREEN_MIN && outside < kept);
    assert_screen_reaches_all(e);
    /* a child that differs on one input outside the screen only */
    char *planted = gb_asprintf("def f(xs, k):\n    if (xs, k) == (%s):\n        return None\n"
                                "    return sorted(x for x in xs if x > k)\n",
                                e->kept.items[outside]);
    const struct {
        const char *source;
        bool screen_agrees, rest_agrees;
    } children[] = {
        {"def f(xs, k):\n    return sorted(x for x in xs if x > k)\n", true, true},
        {planted, true, false},
    };
    for (size_t i = 0; i < sizeof children / sizeof *children; i++) {
        GbTask ct;
        GbProgram prog;
        make_assert_task(&ct, "equiv/1", "f", children[i].source, tests);
        gb_program_from_task(&prog, &ct);
        GbEquivVerdict vs, vr;
        assert_true(gb_equiv_check(e, &cfg, pool, &ct, &prog, &vs, &err));
        assert_true(gb_equiv_check_rest(e, &cfg, pool, &ct, &prog, &vr, &err));
        printf("    child %zu: screen %zu/%zu, rest %zu/%zu\n", i, vs.agreed, vs.checked, vr.agreed, vr.checked);
        assert_int_equal(vs.agree && vs.status == GB_RUN_PASS, children[i].screen_agrees);
        assert_int_equal(vr.agree && vr.status == GB_RUN_PASS, children[i].rest_agrees);
        assert_int_equal(vs.checked, n);
        if (vr.agree) assert_int_equal(vs.checked + vr.checked, kept);
        gb_equiv_verdict_destroy(&vs);
        gb_equiv_verdict_destroy(&vr);
        gb_program_destroy(&prog);
        gb_task_destroy(&ct);
    }
    free(planted);
    /* a budget that no input fits in alone: the larger inputs and one input per outcome, and
     * none only to make up the minimum (each would cost more than the budget) */
    size_t larges = 0, m = 0;
    for (size_t i = 0; i < kept; i++) larges += e->kept_large.items[i];
    gb_equiv_screen_choose(e, kept_wall(e, false) / 2);
    assert_true(gb_equiv_screened(e, &m));
    printf("    a budget below every input: screen %zu (larger inputs %zu, minimum %d)\n", m, larges,
           GB_EQUIV_SCREEN_MIN);
    assert_true(m < n);
    assert_screen_reaches_all(e);
    for (size_t i = 0, taken = 0; i < kept; i++) {
        if (!e->screen.items[i] || e->kept_large.items[i]) continue;
        assert_true(e->reach.items[e->kept_at.items[i]][0] != '\0'); /* taken for an outcome */
        taken++;
        assert_true(taken + larges <= m);
    }
    gb_equiv_delete(e);
    gb_task_destroy(&t);
    ts_parser_delete(p);
    gb_pool_delete(pool);
}

int main(void)
{
    const struct CMUnitTest tests_[] = {
        cmocka_unit_test(test_calls_extract_forms),
        cmocka_unit_test(test_sequences_extract),
        cmocka_unit_test(test_perturb_types_and_determinism),
        cmocka_unit_test(test_perturb_large_inputs),
        cmocka_unit_test(test_perturb_grow),
        cmocka_unit_test(test_equiv_unstable_steps),
        cmocka_unit_test(test_sequences_attributes_and_static_calls),
        cmocka_unit_test(test_perturb_stdin_keeps_lines),
        cmocka_unit_test(test_equiv_inputs_of_a_task),
        cmocka_unit_test(test_equiv_clockless),
        cmocka_unit_test(test_equiv_gate_in_the_sandbox),
        cmocka_unit_test(test_equiv_untraced_when_a_case_outlasts_the_search),
        cmocka_unit_test(test_equiv_screen),
        cmocka_unit_test(test_equiv_check_cases),
    };
    return cmocka_run_group_tests(tests_, NULL, NULL);
}
