/* Renaming: the scope-aware engine (operators/rename.h) with exact before/after cases (keyword call
 * sites, globals, closures, comprehension/lambda shadowing, imports, other modules) and its
 * refusals (pinned names, methods called by keyword, **kwargs, functions passed around,
 * eval, f"{x=}", class attributes, strings spelling a name, bad new names), then the N1
 * RenameVariable and N2 RenameFunction operators: their sites, behaviour under
 * /usr/bin/python3 over many seeds, and stable site keys. */
#include <ctype.h>

#include "operators/naming.h"
#include "operators/rename.h"
#include "tests/unit/op_helpers.h"

#define N_OF(a) (sizeof(a) / sizeof *(a))

/* ---- helpers ---- */

/* True when word occurs in src as a whole identifier. */
static bool has_word(const char *src, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = strstr(src, word); p; p = strstr(p + 1, word)) {
        bool before = p > src && (isalnum((unsigned char)p[-1]) || p[-1] == '_');
        bool after = isalnum((unsigned char)p[n]) || p[n] == '_';
        if (!before && !after) return true;
    }
    return false;
}

/* Open a program: main source, optional helper module, pinned name (may be NULL). */
static void env_open(OpEnv *e, const char *src, const char *helper_path, const char *helper_src, const char *pinned,
                     const char *test_code)
{
    op_env_open(e, src, NULL, test_code);
    if (helper_path) {
        gb_op_ctx_destroy(&e->ctx);
        gb_program_destroy(&e->prog);
        gb_task_set_file(&e->task, helper_path, helper_src);
        gb_program_from_task(&e->prog, &e->task);
        gb_op_ctx_init(&e->ctx, &e->prog, &e->task, e->parser);
    }
    if (pinned) {
        char *p = gb_strdup(pinned);
        gb_array_push(&e->task.pinned, p);
    }
}

/* The scope (of the main module) at the first occurrence of marker. */
static int scope_at(OpEnv *e, const char *marker)
{
    const char *p = strstr(op_env_src(e), marker);
    if (!p) fail_msg("no '%s' in:\n%s", marker, op_env_src(e));
    return gb_scopes_at(gb_op_ctx_scopes(&e->ctx, 0), (uint32_t)(p - op_env_src(e)));
}

typedef struct {
    const char *what;
    const char *src;
    const char *scope_marker; /* the scope holding the variable: where this text is ("" = module) */
    const char *name, *new_name;
    const char *want; /* expected main module */
} RenameCase;

static const RenameCase rename_cases[] = {
    {"keyword call sites follow a parameter",
     "def area(width, height=1):\n"
     "    return width * height\n"
     "\n"
     "\n"
     "def total(rects):\n"
     "    acc = 0\n"
     "    for r in rects:\n"
     "        acc += area(r[0], height=r[1])\n"
     "    return acc + area(width=2) + area(2, 3)\n",
     "return width", "height", "tall",
     "def area(width, tall=1):\n"
     "    return width * tall\n"
     "\n"
     "\n"
     "def total(rects):\n"
     "    acc = 0\n"
     "    for r in rects:\n"
     "        acc += area(r[0], tall=r[1])\n"
     "    return acc + area(width=2) + area(2, 3)\n"},
    {"global declarations and module uses",
     "counter = 0\n"
     "\n"
     "\n"
     "def bump(step):\n"
     "    global counter\n"
     "    counter += step\n"
     "    return counter\n"
     "\n"
     "\n"
     "print(bump(2), counter)\n",
     "", "counter", "hits",
     "hits = 0\n"
     "\n"
     "\n"
     "def bump(step):\n"
     "    global hits\n"
     "    hits += step\n"
     "    return hits\n"
     "\n"
     "\n"
     "print(bump(2), hits)\n"},
    {"closures: free reads and nonlocal",
     "def make():\n"
     "    seen = []\n"
     "    def add(x):\n"
     "        seen.append(x)\n"
     "        return len(seen)\n"
     "    def reset():\n"
     "        nonlocal seen\n"
     "        seen = []\n"
     "    return add, reset, [s for s in seen]\n",
     "seen = []", "seen", "visited",
     "def make():\n"
     "    visited = []\n"
     "    def add(x):\n"
     "        visited.append(x)\n"
     "        return len(visited)\n"
     "    def reset():\n"
     "        nonlocal visited\n"
     "        visited = []\n"
     "    return add, reset, [s for s in visited]\n"},
    {"inner scopes that rebind the name are left alone",
     "def f(xs):\n"
     "    x = 10\n"
     "    ys = [x for x in xs]\n"
     "    g = lambda x: x + 1\n"
     "    def h(x):\n"
     "        return x\n"
     "    return x, ys, g(1), h(x), {x: 1}, obj.x\n",
     "x = 10", "x", "base",
     "def f(xs):\n"
     "    base = 10\n"
     "    ys = [x for x in xs]\n"
     "    g = lambda x: x + 1\n"
     "    def h(x):\n"
     "        return x\n"
     "    return base, ys, g(1), h(base), {base: 1}, obj.x\n"},
    {"imports get an alias, attributes stay",
     "def root(v):\n"
     "    import math\n"
     "    from os import path\n"
     "    return math.sqrt(v), path.sep, v.math\n",
     "import math", "math", "maths",
     "def root(v):\n"
     "    import math as maths\n"
     "    from os import path\n"
     "    return maths.sqrt(v), path.sep, v.math\n"},
    {"a function: calls, references and recursion",
     "import threading\n"
     "\n"
     "\n"
     "def step(n):\n"
     "    return 0 if n == 0 else step(n - 1) + 1\n"
     "\n"
     "\n"
     "t = threading.Thread(target=step, args=(3,))\n"
     "print(list(map(step, [1, 2])), sorted([2, 1], key=step))\n",
     "", "step", "walk_down",
     "import threading\n"
     "\n"
     "\n"
     "def walk_down(n):\n"
     "    return 0 if n == 0 else walk_down(n - 1) + 1\n"
     "\n"
     "\n"
     "t = threading.Thread(target=walk_down, args=(3,))\n"
     "print(list(map(walk_down, [1, 2])), sorted([2, 1], key=walk_down))\n"},
};

static void test_rename_before_after(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_OF(rename_cases); i++) {
        const RenameCase *c = &rename_cases[i];
        OpEnv e;
        env_open(&e, c->src, NULL, NULL, NULL, NULL);
        int scope = *c->scope_marker ? scope_at(&e, c->scope_marker) : 0;
        GbError err = {{0}};
        if (!gb_rename_variable(&e.ctx, 0, scope, c->name, c->new_name, &err)) fail_msg("%s: %s", c->what, err.msg);
        if (strcmp(op_env_src(&e), c->want) != 0) fail_msg("%s: got:\n%s\nwant:\n%s", c->what, op_env_src(&e), c->want);
        op_env_close(&e);
    }
}

static void test_rename_follows_other_modules(void **state)
{
    (void)state;
    OpEnv e;
    env_open(&e,
             "def helper(v):\n"
             "    return v * 2\n",
             "util.py",
             "from main import helper\n"
             "from main import helper as twice\n"
             "import main\n"
             "\n"
             "\n"
             "def run(x):\n"
             "    return helper(x) + main.helper(x) + twice(x)\n",
             NULL, NULL);
    GbError err = {{0}};
    if (!gb_rename_variable(&e.ctx, 0, 0, "helper", "double", &err)) fail_msg("%s", err.msg);
    assert_string_equal(op_env_src(&e), "def double(v):\n    return v * 2\n");
    assert_string_equal(e.prog.modules.items[1].source, "from main import double\n"
                                                        "from main import double as twice\n"
                                                        "import main\n"
                                                        "\n"
                                                        "\n"
                                                        "def run(x):\n"
                                                        "    return double(x) + main.double(x) + twice(x)\n");
    op_env_close(&e);
}

/* Programs where renaming `name` in the scope at marker must be refused. */
typedef struct {
    const char *what;
    const char *src;
    const char *scope_marker;
    const char *name;
    const char *pinned;
} RefusalCase;

static const RefusalCase refusal_cases[] = {
    {"a method parameter passed by keyword through an attribute",
     "class K:\n    def m(self, size):\n        return size\n\n\nK().m(size=3)\n", "return size", "size", NULL},
    {"a parameter of a function called with **kwargs", "def f(a):\n    return a\n\n\nopts = {'a': 1}\nf(**opts)\n",
     "return a", "a", NULL},
    {"a parameter of a function passed around and called by keyword", "def f(a):\n    return a\n\n\ng = f\ng(a=1)\n",
     "return a", "a", NULL},
    {"a parameter of a function given to functools.partial with that keyword",
     "import functools\n\n\ndef f(a, b):\n    return a - b\n\n\nh = functools.partial(f, b=1)\n", "return a", "b",
     NULL},
    {"a parameter of a pinned function", "def entry(text):\n    return text.upper()\n", "return text", "text", "entry"},
    {"a pinned variable", "def f():\n    result = 1\n    return result\n", "result = 1", "result", "result"},
    {"eval in the module", "def f():\n    x = 1\n    return eval('x + 1')\n", "x = 1", "x", NULL},
    {"locals() in the module", "def f():\n    x = 1\n    return locals()\n", "x = 1", "x", NULL},
    {"getattr with a computed name", "import sys\n\n\ndef f(n):\n    k = 2\n    return getattr(sys, n) + k\n", "k = 2",
     "k", NULL},
    {"a self-documenting f-string field", "def f():\n    x = 1\n    return f'{x=}'\n", "x = 1", "x", NULL},
    {"a class attribute", "class K:\n    size = 3\n    other = size + 1\n", "size = 3", "size", NULL},
    {"a string spells the module-level name", "__all__ = ['helper']\n\n\ndef helper():\n    return 1\n", "", "helper",
     NULL},
    {"a class body rebinds and reads the name", "x = 1\n\n\nclass K:\n    x = x + 1\n", "", "x", NULL},
    {"a star import", "from os.path import *\n\n\ndef f():\n    y = 1\n    return y\n", "y = 1", "y", NULL},
    {"a function name when the program reads __name__", "def f():\n    return 1\n\n\nprint(f.__name__)\n", "", "f",
     NULL},
    {"a dunder name", "def f():\n    __x = 1\n    return __x\n", "__x = 1", "__x", NULL},
    /* Keyword names spelled as strings reach a function passed around as a value. */
    {"a thread's kwargs dictionary names the parameter",
     "import threading\n\n\ndef helper(a, b):\n    return a - b\n\n\n"
     "t = threading.Thread(target=helper, args=(1,), kwargs={'b': 5})\nt.start()\nt.join()\n",
     "return a - b", "b", NULL},
    {"a dictionary forwarded as keyword arguments by a runner",
     "def run(fn, args, kwargs):\n    return fn(*args, **kwargs)\n\n\n"
     "def helper(a, b=0):\n    return a - b\n\n\nprint(run(helper, (1,), {'b': 7}))\n",
     "return a - b", "b", NULL},
    {"a dictionary display splatted into a forwarding call",
     "def call(fn, **kw):\n    return fn(**kw)\n\n\ndef helper(b):\n    return b\n\n\n"
     "print(call(helper, **{'b': 1}))\n",
     "return b", "b", NULL},
    {"a subscript key of the kwargs mapping",
     "import threading\n\n\ndef helper(b):\n    print(b)\n\n\nopts = {}\nopts['b'] = 2\n"
     "threading.Thread(target=helper, kwargs=opts).start()\n",
     "print(b)", "b", NULL},
    {"partial imported by name, with that keyword",
     "from functools import partial\n\n\ndef f(a, b):\n    return a - b\n\n\nh = partial(f, b=1)\nprint(h(3))\n",
     "return a - b", "b", NULL},
    {"an executor's submit with that keyword",
     "from concurrent.futures import ThreadPoolExecutor\n\n\ndef f(b):\n    return b\n\n\n"
     "with ThreadPoolExecutor(1) as ex:\n    print(ex.submit(f, b=3).result())\n",
     "return b", "b", NULL},
    {"dict(...) builds the kwargs mapping",
     "import threading\n\n\ndef helper(b):\n    print(b)\n\n\n"
     "threading.Thread(target=helper, kwargs=dict(b=4)).start()\n",
     "print(b)", "b", NULL},
    {"a function of the program that may forward the keyword",
     "def call(fn, **kw):\n    return fn(**kw)\n\n\ndef helper(b):\n    return b\n\n\nprint(call(helper, b=1))\n",
     "return b", "b", NULL},
    {"a lambda's parameter spelled as a key",
     "def call(fn, kw):\n    return fn(**kw)\n\n\nprint(call(lambda b: b + 1, {'b': 1}))\n", "b + 1", "b", NULL},
};

static void test_rename_refusals(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_OF(refusal_cases); i++) {
        const RefusalCase *c = &refusal_cases[i];
        OpEnv e;
        env_open(&e, c->src, NULL, NULL, c->pinned, NULL);
        int scope = *c->scope_marker ? scope_at(&e, c->scope_marker) : 0;
        GbRenamer *r = gb_renamer_new(&e.ctx);
        GbRenamePlan plan;
        gb_rename_plan_init(&plan);
        GbError why = {{0}};
        if (gb_renamer_plan(r, 0, scope, c->name, &plan, &why))
            fail_msg("%s: renaming %s was allowed", c->what, c->name);
        assert_true(why.msg[0] != '\0');
        assert_int_equal(plan.spots.len, 0);
        gb_rename_plan_destroy(&plan);
        gb_renamer_delete(r);
        op_env_close(&e);
    }
}

/* A key the tests spell reaches a function passed around as a value; a function only called
 * directly, or a name no string spells, is still renamed (its keyword call sites with it). */
static void test_rename_keyword_names_as_strings(void **state)
{
    (void)state;
    const char *prog = "import threading\n\n\ndef helper(a, b):\n    print(a - b)\n\n\n"
                       "def start(kwargs):\n    t = threading.Thread(target=helper, args=(1,), kwargs=kwargs)\n"
                       "    t.start()\n    t.join()\n";
    OpEnv e;
    env_open(&e, prog, NULL, NULL, "start", "start({'b': 5})\n");
    GbRenamer *r = gb_renamer_new(&e.ctx);
    GbRenamePlan plan;
    gb_rename_plan_init(&plan);
    GbError why = {{0}};
    assert_false(gb_renamer_plan(r, 0, scope_at(&e, "print(a - b)"), "b", &plan, &why));
    assert_non_null(strstr(why.msg, "tests"));
    /* positional-only through args=: `a` is spelled by no string */
    assert_true(gb_renamer_plan(r, 0, scope_at(&e, "print(a - b)"), "a", &plan, &why));
    gb_rename_plan_destroy(&plan);
    gb_renamer_delete(r);
    op_env_close(&e);

    env_open(&e, "def helper(a, b):\n    return a - b\n\n\nprint(helper(1, b={'b': 2}['b']))\n", NULL, NULL, NULL,
             NULL);
    GbError err = {{0}};
    if (!gb_rename_variable(&e.ctx, 0, scope_at(&e, "return a - b"), "b", "step", &err)) fail_msg("%s", err.msg);
    assert_string_equal(op_env_src(&e),
                        "def helper(a, step):\n    return a - step\n\n\nprint(helper(1, step={'b': 2}['b']))\n");
    op_env_close(&e);
}

static void test_rename_allows_keyword_free_methods_and_positional_only(void **state)
{
    (void)state;
    /* No call passes `size` by keyword: the method parameter may be renamed. A positional-only
     * parameter can never be passed by keyword, even when the function escapes. */
    OpEnv e;
    env_open(&e,
             "class K:\n    def m(self, size):\n        return size\n\n\nK().m(3)\n\n\n"
             "def f(a, /):\n    return a\n\n\ng = f\ng(1)\n",
             NULL, NULL, NULL, NULL);
    GbError err = {{0}};
    if (!gb_rename_variable(&e.ctx, 0, scope_at(&e, "return size"), "size", "length", &err)) fail_msg("%s", err.msg);
    if (!gb_rename_variable(&e.ctx, 0, scope_at(&e, "return a"), "a", "first", &err)) fail_msg("%s", err.msg);
    assert_string_equal(op_env_src(&e), "class K:\n    def m(self, length):\n        return length\n\n\nK().m(3)\n\n\n"
                                        "def f(first, /):\n    return first\n\n\ng = f\ng(1)\n");
    op_env_close(&e);
}

static void test_rename_new_names_never_shadow(void **state)
{
    (void)state;
    OpEnv e;
    env_open(&e, "import os\n\n\ndef f(total):\n    size = len(total)\n    return size + os.sep.count('/')\n", NULL,
             NULL, "entry", "assert entry() == 3\n");
    /* builtins, keywords, names of the program (variables, modules, attributes), names of the
     * tests, dunders and non-identifiers are refused */
    const char *bad[] = {"len", "print", "list",  "class",  "None",   "_",     "size", "os",
                         "sep", "count", "entry", "assert", "__size", "2fast", "x-y",  ""};
    for (size_t i = 0; i < N_OF(bad); i++)
        if (gb_rename_name_ok(&e.ctx, bad[i])) fail_msg("'%s' was accepted as a new name", bad[i]);
    assert_true(gb_rename_name_ok(&e.ctx, "length"));
    GbError err = {{0}};
    int scope = scope_at(&e, "size = len");
    assert_false(gb_rename_variable(&e.ctx, 0, scope, "size", "len", &err));
    assert_false(gb_rename_variable(&e.ctx, 0, scope, "size", "total", &err));
    assert_true(gb_rename_variable(&e.ctx, 0, scope, "size", "length", &err));
    op_env_close(&e);
}

/* ---- N1 / N2 operators ---- */

static const char *const n1_prog = "\"\"\"Module doc.\"\"\"\n"
                                   "import math\n"
                                   "LIMIT = 10\n"
                                   "\n"
                                   "\n"
                                   "class Box:\n"
                                   "    unit = 2\n"
                                   "\n"
                                   "    def scaled(self, factor):\n"
                                   "        product = self.unit * factor\n"
                                   "        return product\n"
                                   "\n"
                                   "\n"
                                   "def stats(values, digits=2):\n"
                                   "    global LIMIT\n"
                                   "    total = 0\n"
                                   "    for v in values:\n"
                                   "        total += v\n"
                                   "    squares = [w * w for w in values]\n"
                                   "    def spread():\n"
                                   "        return max(values) - min(values)\n"
                                   "    LIMIT = len(values)\n"
                                   "    return round(total / len(values), digits), sum(squares), spread(), "
                                   "math.pi\n"
                                   "\n"
                                   "\n"
                                   "print(stats([1, 2, 3], digits=1), Box().scaled(3), LIMIT)\n";

/* Index of the site of op whose name is `name` (and whose node text starts with at), or -1. */
static long site_named(OpEnv *e, const char *at, const char *name)
{
    size_t n = strlen(at);
    for (size_t i = 0; i < e->sites.len; i++) {
        const GbSite *s = &e->sites.items[i];
        const char *src = e->prog.modules.items[s->module].source;
        if (s->name && strcmp(s->name, name) == 0 && strncmp(src + s->start, at, n) == 0) return (long)i;
    }
    return -1;
}

static void apply_named(OpEnv *e, GbOperatorId op, const char *at, const char *name, uint64_t seed)
{
    op_env_find(e, op);
    long i = site_named(e, at, name);
    if (i < 0) fail_msg("%s: no site for %s at '%s' in:\n%s", gb_operator(op)->name, name, at, op_env_src(e));
    GbRng rng;
    gb_rng_seed(&rng, seed, 7);
    GbError err = {{0}};
    if (gb_op_apply(&e->ctx, gb_operator(op), &e->sites.items[i], &rng, &err) != GB_APPLY_OK)
        fail_msg("%s at %s: %s", gb_operator(op)->name, name, err.msg);
}

static void test_n1_sites(void **state)
{
    (void)state;
    OpEnv e;
    env_open(&e, n1_prog, NULL, NULL, NULL, NULL);
    op_env_find(&e, GB_OP_N1);
    const char *listed[][2] = {
        {"def scaled", "factor"}, {"def scaled", "product"}, {"def stats", "values"},  {"def stats", "digits"},
        {"def stats", "total"},   {"def stats", "v"},        {"def stats", "squares"}, {"[w * w", "w"}};
    for (size_t i = 0; i < N_OF(listed); i++)
        if (site_named(&e, listed[i][0], listed[i][1]) < 0) fail_msg("N1 should list %s", listed[i][1]);
    /* self, class attributes, globals (also when declared global in a function), imports,
     * functions and classes are not N1's */
    const char *refused[] = {"self", "unit", "LIMIT", "math", "spread", "stats", "Box"};
    for (size_t i = 0; i < e.sites.len; i++)
        for (size_t k = 0; k < N_OF(refused); k++)
            if (strcmp(e.sites.items[i].name, refused[k]) == 0) fail_msg("N1 must not list %s", refused[k]);
    op_env_close(&e);
}

static void test_n1_renames_parameter_and_its_keyword(void **state)
{
    (void)state;
    OpEnv e;
    env_open(&e, n1_prog, NULL, NULL, NULL, NULL);
    apply_named(&e, GB_OP_N1, "def stats", "digits", 1);
    const char *src = op_env_src(&e);
    assert_false(has_word(src, "digits"));
    /* the new name is at the definition, the use and the keyword call site */
    const char *def = strstr(src, "def stats(values, ");
    assert_non_null(def);
    char name[64];
    assert_int_equal(sscanf(def, "def stats(values, %63[A-Za-z_]=2):", name), 1);
    char want[160];
    snprintf(want, sizeof want, "round(total / len(values), %s)", name);
    assert_non_null(strstr(src, want));
    snprintf(want, sizeof want, "stats([1, 2, 3], %s=1)", name);
    assert_non_null(strstr(src, want));
    assert_true(gb_program_is_synthetic(&e.prog, name));
    assert_false(gb_program_is_synthetic(&e.prog, "values"));
    /* copies keep the record (the engine copies programs between individuals) */
    GbProgram copy;
    gb_program_copy(&copy, &e.prog);
    assert_true(gb_program_is_synthetic(&copy, name));
    gb_program_destroy(&copy);
    op_env_close(&e);
}

static void test_n1_n2_refuse_pinned_and_dynamic(void **state)
{
    (void)state;
    OpEnv e;
    env_open(&e,
             "def solve(data):\n"
             "    answer = sum(data)\n"
             "    return answer\n"
             "\n"
             "\n"
             "def helper():\n"
             "    kept = 1\n"
             "    return kept\n",
             NULL, NULL, "solve", "assert solve([1]) == 1\nanswer = 2\n");
    op_env_find(&e, GB_OP_N1);
    /* solve is pinned: its parameter is not renamed (callers may use the keyword); answer
     * appears in the tests */
    assert_true(site_named(&e, "def solve", "data") < 0);
    assert_true(site_named(&e, "def solve", "answer") < 0);
    assert_true(site_named(&e, "def helper", "kept") >= 0);
    op_env_find(&e, GB_OP_N2);
    assert_true(site_named(&e, "def solve", "solve") < 0);
    assert_true(site_named(&e, "def helper", "helper") >= 0);
    op_env_close(&e);

    env_open(&e, "def f(a):\n    b = a + 1\n    return exec('b')\n", NULL, NULL, NULL, NULL);
    op_env_find(&e, GB_OP_N1);
    assert_int_equal(e.sites.len, 0);
    op_env_find(&e, GB_OP_N2);
    assert_int_equal(e.sites.len, 0);
    op_env_close(&e);
}

/* N1 leaves a variable alone when a read may find it unbound and the program catches
 * NameError: the message names the variable, so a rename changes the program's answer. The
 * same variable is renamed when nothing catches NameError, and a variable bound on every
 * path is renamed either way. */
static void test_n1_refuses_names_a_caught_name_error_shows(void **state)
{
    (void)state;
    static const char *const catches = "def describe(d, key, flag):\n"
                                       "    if flag:\n"
                                       "        value = d[key]\n"
                                       "    count = len(d)\n"
                                       "    try:\n"
                                       "        return value, count\n"
                                       "    except NameError as e:\n"
                                       "        return str(e)\n"
                                       "\n"
                                       "\n"
                                       "def solve(flag):\n"
                                       "    return describe({'a': 1}, 'a', flag)\n";
    OpEnv e;
    env_open(&e, catches, NULL, NULL, "solve", "assert solve(True) == (1, 1)\n");
    op_env_find(&e, GB_OP_N1);
    assert_true(site_named(&e, "def describe", "value") < 0);
    assert_true(site_named(&e, "def describe", "count") >= 0);
    assert_true(site_named(&e, "def describe", "d") >= 0);
    op_env_close(&e);
    /* a bare except, or `except Exception`, catches it too */
    static const char *const handlers[] = {"except:", "except Exception:", "except (KeyError, UnboundLocalError):"};
    for (size_t i = 0; i < 3; i++) {
        char *src = gb_asprintf("def f(flag):\n    if flag:\n        value = 1\n    try:\n        return value\n"
                                "    %s\n        return 0\n",
                                handlers[i]);
        env_open(&e, src, NULL, NULL, NULL, NULL);
        op_env_find(&e, GB_OP_N1);
        if (site_named(&e, "def f", "value") >= 0) fail_msg("N1 must not list value with '%s'", handlers[i]);
        op_env_close(&e);
        free(src);
    }
    /* nothing catches NameError: renamed */
    env_open(&e, "def f(flag):\n    if flag:\n        value = 1\n    return value\n", NULL, NULL, NULL, NULL);
    op_env_find(&e, GB_OP_N1);
    assert_true(site_named(&e, "def f", "value") >= 0);
    op_env_close(&e);
    /* the tests catch it */
    env_open(&e, "def f(flag):\n    if flag:\n        value = 1\n    return value\n", NULL, NULL, "f",
             "try:\n    f(False)\nexcept UnboundLocalError as e:\n    assert 'value' in str(e)\n");
    op_env_find(&e, GB_OP_N1);
    assert_true(site_named(&e, "def f", "value") < 0);
    op_env_close(&e);
}

static void test_n2_sites(void **state)
{
    (void)state;
    OpEnv e;
    env_open(&e,
             "import functools\n"
             "\n"
             "\n"
             "def deco(fn):\n"
             "    return fn\n"
             "\n"
             "\n"
             "class K:\n"
             "    def method(self):\n"
             "        def local_helper():\n"
             "            return 1\n"
             "        return local_helper()\n"
             "\n"
             "    def __eq__(self, other):\n"
             "        return True\n"
             "\n"
             "\n"
             "@functools.lru_cache(maxsize=None)\n"
             "def cached(n):\n"
             "    return n\n"
             "\n"
             "\n"
             "@deco\n"
             "def plain():\n"
             "    return 2\n"
             "\n"
             "\n"
             "@property\n"
             "def odd():\n"
             "    return 3\n"
             "\n"
             "\n"
             "def __getattr__(name):\n"
             "    return name\n",
             NULL, NULL, NULL, NULL);
    op_env_find(&e, GB_OP_N2);
    const char *listed[] = {"deco", "local_helper", "cached", "plain"};
    const char *refused[] = {"method", "__eq__", "odd", "__getattr__", "K"};
    for (size_t i = 0; i < N_OF(listed); i++)
        if (site_named(&e, "def ", listed[i]) < 0) fail_msg("N2 should list %s", listed[i]);
    for (size_t i = 0; i < e.sites.len; i++)
        for (size_t k = 0; k < N_OF(refused); k++)
            if (strcmp(e.sites.items[i].name, refused[k]) == 0) fail_msg("N2 must not list %s", refused[k]);
    op_env_close(&e);
}

static void test_n2_renames_every_reference(void **state)
{
    (void)state;
    OpEnv e;
    env_open(&e,
             "import threading\n"
             "\n"
             "\n"
             "def square(x):\n"
             "    return x * x\n"
             "\n"
             "\n"
             "def run():\n"
             "    out = list(map(square, [1, 2]))\n"
             "    t = threading.Thread(target=square, args=(3,))\n"
             "    t.start()\n"
             "    t.join()\n"
             "    return out, square(x=4)\n",
             NULL, NULL, NULL, NULL);
    apply_named(&e, GB_OP_N2, "def square", "square", 3);
    const char *src = op_env_src(&e);
    assert_false(has_word(src, "square"));
    char name[64];
    assert_int_equal(sscanf(strstr(src, "def "), "def %63[A-Za-z_](x):", name), 1);
    char want[128];
    snprintf(want, sizeof want, "map(%s, [1, 2])", name);
    assert_non_null(strstr(src, want));
    snprintf(want, sizeof want, "target=%s,", name);
    assert_non_null(strstr(src, want));
    snprintf(want, sizeof want, "%s(x=4)", name);
    assert_non_null(strstr(src, want));
    op_env_close(&e);
}

/* Apply op at every site of prog for several seeds; each variant must print what the original
 * prints. */
static void expect_same_behaviour(GbOperatorId op, const char *prog, int seeds)
{
    int status;
    char *want = op_run_python(prog, &status);
    assert_int_equal(status, 0);
    OpEnv e;
    env_open(&e, prog, NULL, NULL, NULL, NULL);
    op_env_find(&e, op);
    size_t n = e.sites.len;
    op_env_close(&e);
    assert_true(n > 0);
    for (size_t i = 0; i < n; i++)
        for (int seed = 0; seed < seeds; seed++) {
            env_open(&e, prog, NULL, NULL, NULL, NULL);
            op_env_find(&e, op);
            GbRng rng;
            gb_rng_seed(&rng, (uint64_t)seed, 11);
            GbError err = {{0}};
            if (gb_op_apply(&e.ctx, gb_operator(op), &e.sites.items[i], &rng, &err) != GB_APPLY_OK)
                fail_msg("%s site %zu: %s", gb_operator(op)->name, i, err.msg);
            char *got = op_run_python(op_env_src(&e), &status);
            if (status != 0 || strcmp(got, want) != 0)
                fail_msg("%s site %zu seed %d changed the output:\n%s\nprogram:\n%s", gb_operator(op)->name, i, seed,
                         got, op_env_src(&e));
            free(got);
            op_env_close(&e);
        }
    free(want);
}

static void test_n1_n2_preserve_behaviour(void **state)
{
    (void)state;
    expect_same_behaviour(GB_OP_N1, n1_prog, 2);
    expect_same_behaviour(GB_OP_N2,
                          "def fib(n):\n"
                          "    return n if n < 2 else fib(n - 1) + fib(n - 2)\n"
                          "\n"
                          "\n"
                          "def outer(k):\n"
                          "    def inner(j):\n"
                          "        return j + k\n"
                          "    return [inner(i) for i in range(3)], sorted([3, 1], key=inner)\n"
                          "\n"
                          "\n"
                          "print(fib(7), outer(2), list(map(fib, range(5))))\n",
                          2);
}

static void test_n1_keys_are_stable_and_never_reused(void **state)
{
    (void)state;
    OpEnv e;
    env_open(&e, n1_prog, NULL, NULL, NULL, NULL);
    op_env_find(&e, GB_OP_N1);
    long i = site_named(&e, "def stats", "total");
    assert_true(i >= 0);
    char *key = gb_strdup(e.sites.items[i].key);
    GbNames before = {0};
    for (size_t k = 0; k < e.sites.len; k++) gb_names_add(&before, e.sites.items[k].key);
    apply_named(&e, GB_OP_N1, "def stats", "total", 5);
    op_env_find(&e, GB_OP_N1);
    for (size_t k = 0; k < e.sites.len; k++)
        if (strcmp(e.sites.items[k].key, key) == 0) fail_msg("renamed variable offered again:\n%s", op_env_src(&e));
    for (size_t k = 0; k < before.len; k++) {
        if (strcmp(before.items[k], key) == 0) continue;
        bool found = false;
        for (size_t j = 0; j < e.sites.len; j++) found = found || strcmp(e.sites.items[j].key, before.items[k]) == 0;
        if (!found) fail_msg("key %s lost", before.items[k]);
    }
    free(key);
    gb_names_destroy(&before);
    op_env_close(&e);
}

static void test_n1_is_deterministic(void **state)
{
    (void)state;
    char *first = NULL;
    for (int round = 0; round < 2; round++) {
        OpEnv e;
        env_open(&e, n1_prog, NULL, NULL, NULL, NULL);
        apply_named(&e, GB_OP_N1, "def stats", "total", 9);
        apply_named(&e, GB_OP_N1, "def scaled", "factor", 9);
        if (!first)
            first = gb_strdup(op_env_src(&e));
        else
            assert_string_equal(first, op_env_src(&e));
        op_env_close(&e);
    }
    free(first);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rename_before_after),
        cmocka_unit_test(test_rename_follows_other_modules),
        cmocka_unit_test(test_rename_refusals),
        cmocka_unit_test(test_rename_keyword_names_as_strings),
        cmocka_unit_test(test_rename_allows_keyword_free_methods_and_positional_only),
        cmocka_unit_test(test_rename_new_names_never_shadow),
        cmocka_unit_test(test_n1_sites),
        cmocka_unit_test(test_n1_renames_parameter_and_its_keyword),
        cmocka_unit_test(test_n1_n2_refuse_pinned_and_dynamic),
        cmocka_unit_test(test_n1_refuses_names_a_caught_name_error_shows),
        cmocka_unit_test(test_n2_sites),
        cmocka_unit_test(test_n2_renames_every_reference),
        cmocka_unit_test(test_n1_n2_preserve_behaviour),
        cmocka_unit_test(test_n1_keys_are_stable_and_never_reused),
        cmocka_unit_test(test_n1_is_deterministic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
