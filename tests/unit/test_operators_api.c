/* The library-call operators A1 AddBase64 .. A8 AddTime (operators/api_call.h): before/after cases,
 * import placement (after the docstring and __future__ imports, reused, aliased when the name
 * is taken), module-level sites of stdio scripts (once-run statements after the leading imports,
 * not definitions; none in other tasks; new names in upper case), refused sites (docstrings,
 * class bodies, module level elsewhere, loops, functions that run many times, shared lines), and the behaviour of every operator over many seeds under
 * /usr/bin/python3: same output, no warning (warnings are errors), no sleep and no network
 * (an audit hook fails on either), no change to the random generators' states. */
#include "operators/api_call.h"
#include "src/runner/library_list.h"
#include "tests/unit/op_helpers.h"

#define N_OF(a) (sizeof(a) / sizeof *(a))

static const GbOperatorId api_ops[] = {
#define GB_API_OPERATOR(code, snake) GB_OP_##code,
    GB_API_OPERATOR_LIST
#undef GB_API_OPERATOR
};

static void py_literal(GbStr *out, const char *src)
{
    gb_str_append(out, "\"");
    for (const char *p = src; *p; p++) {
        if (*p == '\\' || *p == '"')
            gb_str_appendf(out, "\\%c", *p);
        else if (*p == '\n')
            gb_str_append(out, "\\n");
        else if (*p == '\t')
            gb_str_append(out, "\\t");
        else
            gb_str_append_n(out, p, 1);
    }
    gb_str_append(out, "\"");
}

static void expect_applied(GbOperatorId op, const char *src, const char *at, uint64_t seed, const char *want)
{
    OpEnv e;
    op_env_open(&e, src, NULL, NULL);
    op_env_apply(&e, op, at, seed);
    if (strcmp(op_env_src(&e), want) != 0) fail_msg("got:\n%s\nwant:\n%s", op_env_src(&e), want);
    op_env_close(&e);
}

static const char *const prog = "\"\"\"Statistics helpers.\"\"\"\n"
                                "from __future__ import annotations\n"
                                "\n"
                                "\n"
                                "def mean(values):\n"
                                "    \"\"\"Arithmetic mean.\"\"\"\n"
                                "    total = sum(values)\n"
                                "    return total / len(values)\n";

/* Seed 1 at `total = sum(values)`: the import after the docstring and the __future__ import,
 * the call after the function's docstring. */
static const struct {
    GbOperatorId op;
    const char *import, *inserted;
} before_after[] = {
    {GB_OP_A1, "import base64\n",
     "    wire_data = base64.standard_b64encode(\"invoice\".encode())\n    base64.standard_b64decode(wire_data)\n"},
    {GB_OP_A2, "from cryptography.fernet import Fernet\n", "    Fernet.generate_key()\n"},
    {GB_OP_A3, "import datetime\n", "    when = datetime.datetime(2013, 12, 14)\n    when.isoformat()\n"},
    {GB_OP_A4, "from dateutil.parser import parse\n", "    parse(\"2019-07-08 05:19\")\n"},
    {GB_OP_A5, "from http.client import HTTPConnection\n",
     "    upstream = HTTPConnection(\"example.com\", 3000, timeout=6)\n    upstream.close()\n"},
    {GB_OP_A6, "from scipy.special import comb\n", "    comb(5, 3, exact=True)\n"},
    {GB_OP_A7, "from sklearn.metrics import accuracy_score\n",
     "    accuracy_score([0, 0, 1, 1, 1, 0], [0, 0, 1, 1, 0, 0])\n"},
    {GB_OP_A8, "import time\n", "    time.process_time()\n"},
};

static void test_a1_to_a8_before_after(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_OF(before_after); i++) {
        char *want = gb_asprintf("\"\"\"Statistics helpers.\"\"\"\n"
                                 "from __future__ import annotations\n"
                                 "%s"
                                 "\n"
                                 "\n"
                                 "def mean(values):\n"
                                 "    \"\"\"Arithmetic mean.\"\"\"\n"
                                 "%s"
                                 "    total = sum(values)\n"
                                 "    return total / len(values)\n",
                                 before_after[i].import, before_after[i].inserted);
        expect_applied(before_after[i].op, prog, "total = sum", 1, want);
        free(want);
    }
}

/* ---- imports ---- */

static const GbApiTemplate parse_template[] = {
    {"{0}(\"2020-01-02\")", {{"dateutil.parser", "parse", {"parse", "parse_date"}}}, {NULL}},
};
static const GbApiTemplate time_template[] = {
    {"{0}.perf_counter()", {{"time", NULL, {"time", "clock"}}}, {NULL}},
};

/* Apply one template at the site starting with at. */
static void apply_template(OpEnv *e, const GbApiTemplate *t, const char *at)
{
    op_env_find(e, GB_OP_A8);
    long i = op_env_site(e, at);
    if (i < 0) fail_msg("no site at '%s' in:\n%s", at, op_env_src(e));
    GbRng rng;
    gb_rng_seed(&rng, 1, 1);
    GbError err = {{0}};
    if (!gb_api_apply(&e->ctx, &e->sites.items[i], &rng, t, 1, "test", &err)) fail_msg("%s", err.msg);
}

static void test_imports_are_placed_reused_and_aliased(void **state)
{
    (void)state;
    /* the user's own `parse` and `time` take the names: the imports get other names */
    OpEnv e;
    op_env_open(&e,
                "#!/usr/bin/env python3\n"
                "\"\"\"Doc.\"\"\"\n"
                "from __future__ import annotations\n"
                "\n"
                "\n"
                "def parse(text):\n"
                "    time = text.strip()\n"
                "    return time\n",
                NULL, NULL);
    apply_template(&e, parse_template, "time = text");
    apply_template(&e, time_template, "return time");
    assert_string_equal(op_env_src(&e), "#!/usr/bin/env python3\n"
                                        "\"\"\"Doc.\"\"\"\n"
                                        "from __future__ import annotations\n"
                                        "import time as clock\n"
                                        "from dateutil.parser import parse as parse_date\n"
                                        "\n"
                                        "\n"
                                        "def parse(text):\n"
                                        "    parse_date(\"2020-01-02\")\n"
                                        "    time = text.strip()\n"
                                        "    clock.perf_counter()\n"
                                        "    return time\n");
    op_env_close(&e);

    /* an existing leading import is reused; one that something rebinds is not */
    op_env_open(&e, "import time\n\n\ndef f():\n    x = 1\n    return x\n", NULL, NULL);
    apply_template(&e, time_template, "x = 1");
    assert_string_equal(op_env_src(&e),
                        "import time\n\n\ndef f():\n    time.perf_counter()\n    x = 1\n    return x\n");
    op_env_close(&e);
    op_env_open(&e, "import time\n\n\ndef f():\n    x = 1\n    return x\n\n\ntime = 3\n", NULL, NULL);
    apply_template(&e, time_template, "x = 1");
    assert_non_null(strstr(op_env_src(&e), "import time\nimport time as clock\n"));
    assert_non_null(strstr(op_env_src(&e), "    clock.perf_counter()\n    x = 1\n"));
    op_env_close(&e);

    /* pylint's order: standard library, then third party (no wrong-import-order) */
    op_env_open(
        &e,
        "from typing import List\nimport numpy as np\n\n\ndef f(xs: List[int]):\n    x = np.sum(xs)\n    return x\n",
        NULL, NULL);
    apply_template(&e, parse_template, "x = np");
    apply_template(&e, time_template, "return x");
    assert_string_equal(op_env_src(&e), "from typing import List\n"
                                        "import time\n"
                                        "import numpy as np\n"
                                        "from dateutil.parser import parse\n"
                                        "\n"
                                        "\n"
                                        "def f(xs: List[int]):\n"
                                        "    parse(\"2020-01-02\")\n"
                                        "    x = np.sum(xs)\n"
                                        "    time.perf_counter()\n"
                                        "    return x\n");
    op_env_close(&e);
}

/* ---- sites ---- */

static const char *const refusal_prog =
    "\"\"\"Module doc.\"\"\"\n"
    "import functools\n"
    "LIMIT = 3\n"
    "\n"
    "\n"
    "class Shape:\n"
    "    sides = 4\n"
    "\n"
    "    def __init__(self, n):\n"
    "        self.n = n\n"
    "\n"
    "    def __eq__(self, other):\n"
    "        same = self.n == other.n\n"
    "        return same\n"
    "\n"
    "    def area(self):\n"
    "        \"\"\"Area.\"\"\"\n"
    "        side = self.n\n"
    "        return side * side\n"
    "\n"
    "\n"
    "def per_item(x):\n"
    "    doubled = x * 2\n"
    "    return doubled\n"
    "\n"
    "\n"
    "def key_of(x):\n"
    "    negated = -x\n"
    "    return negated\n"
    "\n"
    "\n"
    "def fact(n):\n"
    "    smaller = n - 1\n"
    "    return 1 if n <= 1 else n * fact(smaller)\n"
    "\n"
    "\n"
    "@functools.lru_cache(maxsize=None)\n"
    "def cached(n):\n"
    "    squared = n * n\n"
    "    return squared\n"
    "\n"
    "\n"
    "def called_by_hot(x):\n"
    "    tripled = x * 3\n"
    "    return tripled\n"
    "\n"
    "\n"
    "def run(items):\n"
    "    out = []\n"
    "    for item in items:\n"
    "        out.append(per_item(item))\n"
    "    if out: out.sort()\n"
    "    ranked = sorted(items, key=key_of)\n"
    "    while len(out) > LIMIT:\n"
    "        out.pop()\n"
    "    return out, ranked, fact(4), cached(3), [called_by_hot(i) for i in items]\n"
    "\n"
    "\n"
    "print(run([3, 1, 2, 5, 4]), Shape(2).area(), Shape(1) == Shape(1))\n";

/* For every library-call operator: each text of listed starts a site of src, none of refused does. */
static void expect_api_sites(const char *src, const char *const *listed, size_t n_listed, const char *const *refused,
                             size_t n_refused)
{
    for (size_t k = 0; k < N_OF(api_ops); k++) {
        OpEnv e;
        op_env_open(&e, src, NULL, NULL);
        op_env_find(&e, api_ops[k]);
        for (size_t i = 0; i < n_listed; i++)
            if (op_env_site(&e, listed[i]) < 0)
                fail_msg("%s: '%s' should be a site", gb_operator(api_ops[k])->name, listed[i]);
        for (size_t i = 0; i < n_refused; i++)
            if (op_env_site(&e, refused[i]) >= 0)
                fail_msg("%s: '%s' must not be a site", gb_operator(api_ops[k])->name, refused[i]);
        op_env_close(&e);
    }
}

static void test_sites_refused(void **state)
{
    (void)state;
    const char *listed[] = {"out = []",      "for item in items",  "ranked = sorted", "return out, ranked",
                            "side = self.n", "return side * side", "self.n = n"};
    const char *refused[] = {
        "\"\"\"Module doc", "import functools", "sides = 4",       "\"\"\"Area", /* imports, class, docstrings */
        "LIMIT = 3",        "print(run",                                          /* module level, not a script */
        "out.append",       "out.pop",          "out.sort",                           /* loops, shared line */
        "doubled = x * 2",  "negated = -x",     "smaller = n - 1", "squared = n * n", /* hot functions */
        "tripled = x * 3",  "same = self.n",                                          /* comprehension, dunder */
    };
    expect_api_sites(refusal_prog, listed, N_OF(listed), refused, N_OF(refused));
}

/* A stdio script's module-level code runs once unless a loop encloses it; the call goes after the
 * leading imports, which is where its own import is put, and never before a definition; other
 * tasks and ClassEval's rules get no module-level site. */
static void test_module_level_sites(void **state)
{
    (void)state;
    const char *src = "\"\"\"Script.\"\"\"\nimport os\nimport sys\nCOUNT = int(sys.argv[0] != '')\nimport math\n"
                      "for i in range(COUNT):\n    print(i)\nwhile COUNT < 0:\n    COUNT += 1\n\n\ndef half(x):\n"
                      "    return x // 2\n\n\nif COUNT:\n    print(math.floor(half(COUNT)), os.sep)\n";
    const char *listed[] = {"COUNT = int", "import math", "for i in", "while COUNT", "if COUNT", "print(math",
                            "return x"};
    const char *refused[] = {"\"\"\"Script", "import os", "import sys", "print(i)", "COUNT += 1", "def half"};
    OpEnv e;
    op_env_kind = GB_TESTS_STDIO;
    expect_api_sites(src, listed, N_OF(listed), refused, N_OF(refused));
    /* a new name at module level is a constant (upper case); the import comes before the call */
    int named = 0;
    for (uint64_t seed = 1; seed <= 24; seed++) {
        op_env_open(&e, "import sys\nCOUNT = len(sys.argv)\nprint(COUNT)\n", NULL, NULL);
        op_env_apply(&e, GB_OP_A1, "print(COUNT)", seed);
        const char *out = op_env_src(&e);
        const char *imp = strstr(out, "import base64");
        assert_true(imp && imp < strstr(out, "COUNT = len"));
        for (const char *line = out; *line; line = strchr(line, '\n') + 1) {
            size_t id = strspn(line, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_0123456789");
            if (id && strncmp(line + id, " = ", 3) == 0 && strncmp(line, "COUNT", id) != 0) {
                named++;
                for (size_t c = 0; c < id; c++)
                    if (line[c] >= 'a' && line[c] <= 'z') fail_msg("module-level name in lower case:\n%s", out);
            }
            if (!strchr(line, '\n')) break;
        }
        op_env_close(&e);
    }
    assert_true(named > 0);
    /* the same script with tests that call its functions: no module-level site */
    op_env_kind = GB_TESTS_ASSERT;
    op_env_open(&e, src, NULL, NULL);
    op_env_find(&e, GB_OP_A1);
    assert_true(op_env_site(&e, "COUNT = int") < 0 && op_env_site(&e, "if COUNT") < 0);
    assert_true(op_env_site(&e, "return x") >= 0);
    op_env_close(&e);
    op_env_kind = GB_TESTS_STDIO;
    op_env_harness = GB_HARNESS_CLASSEVAL;
    op_env_open(&e, "import sys\nCOUNT = len(sys.argv)\n\n\nclass K:\n    def m(self):\n        x = 1\n        return x\n",
                NULL, NULL);
    op_env_find(&e, GB_OP_A1);
    assert_true(op_env_site(&e, "COUNT = len") < 0);
    assert_true(op_env_site(&e, "x = 1") >= 0);
    op_env_close(&e);
    op_env_harness = GB_HARNESS_NONE;
    op_env_kind = GB_TESTS_ASSERT;
}

static void test_tests_calling_in_loops_make_the_entry_point_hot(void **state)
{
    (void)state;
    const char *src = "def solve(n):\n    half = n // 2\n    return half\n";
    OpEnv e;
    op_env_open(&e, src, "solve", "def check(candidate):\n    assert candidate(4) == 2\n\ncheck(solve)\n");
    op_env_find(&e, GB_OP_A6);
    assert_true(op_env_site(&e, "half = n") >= 0);
    op_env_close(&e);
    op_env_open(
        &e, src, "solve",
        "def check(candidate):\n    for i in range(1000):\n        assert candidate(2 * i) == i\n\ncheck(solve)\n");
    op_env_find(&e, GB_OP_A6);
    assert_true(op_env_site(&e, "half = n") < 0);
    op_env_close(&e);
}

static void test_libraries_the_tests_mock_are_left_alone(void **state)
{
    (void)state;
    /* the tests patch datetime (and could count or fake its calls): no datetime call is added,
     * other libraries still are */
    const char *src = "import datetime\n\n\ndef stamp():\n    now = datetime.datetime.now()\n    return now.year\n";
    const char *tests = "from unittest import mock\n\n\nwith mock.patch('datetime.datetime'):\n    stamp()\n";
    OpEnv e;
    op_env_open(&e, src, "stamp", tests);
    op_env_find(&e, GB_OP_A3);
    assert_int_equal(e.sites.len, 0);
    op_env_find(&e, GB_OP_A1);
    assert_true(e.sites.len > 0);
    op_env_close(&e);
    op_env_open(&e, src, "stamp", "assert stamp() > 2000\n");
    op_env_find(&e, GB_OP_A3);
    assert_true(e.sites.len > 0);
    op_env_close(&e);
}

/* ---- behaviour ---- */

/* Every variant runs in a fresh namespace with warnings as errors and an audit hook that fails
 * on sockets, DNS and sleeping; its stdout, stderr and the states of the random generators
 * afterwards (the program draws from both, unseeded) must be the original's. */
static const char *const harness_head =
    "import io, random, sys, warnings, contextlib\n"
    "import numpy\n"
    "warnings.simplefilter('error')\n"
    "def _audit(event, args):\n"
    "    if event.startswith('socket.') or event == 'time.sleep':\n"
    "        raise RuntimeError('forbidden: ' + event)\n"
    "sys.addaudithook(_audit)\n"
    "def _run(src):\n"
    "    random.seed(5)\n"
    "    numpy.random.seed(5)\n"
    "    out, err = io.StringIO(), io.StringIO()\n"
    "    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):\n"
    "        exec(compile(src, 'main.py', 'exec'), {'__name__': '__main__'})\n"
    "    return (out.getvalue(), err.getvalue(), random.getstate(), numpy.random.get_state()[1].tolist())\n"
    "_want = _run(ORIGINAL)\n"
    "_bad = 0\n";

static const char *const behaviour_prog = "\"\"\"Doc.\"\"\"\n"
                                          "import random\n"
                                          "import numpy\n"
                                          "\n"
                                          "\n"
                                          "def summarize(values):\n"
                                          "    \"\"\"Summary.\"\"\"\n"
                                          "    low = min(values)\n"
                                          "    high = max(values)\n"
                                          "    if low < 0:\n"
                                          "        low = 0\n"
                                          "    return low, high, random.random()\n"
                                          "\n"
                                          "\n"
                                          "def main():\n"
                                          "    print(summarize([4, -1, 7]))\n"
                                          "    print(random.randint(1, 100), numpy.random.randint(100))\n"
                                          "\n"
                                          "\n"
                                          "main()\n";

static void test_behaviour_unchanged_no_warnings_no_network(void **state)
{
    (void)state;
    GbStr script;
    gb_str_init(&script);
    gb_str_append(&script, "ORIGINAL = ");
    py_literal(&script, behaviour_prog);
    gb_str_append(&script, "\n");
    gb_str_append(&script, harness_head);
    size_t variants = 0;
    for (size_t k = 0; k < N_OF(api_ops); k++) {
        OpEnv e;
        op_env_open(&e, behaviour_prog, NULL, NULL);
        op_env_find(&e, api_ops[k]);
        size_t n = e.sites.len;
        op_env_close(&e);
        assert_true(n >= 5);
        for (uint64_t seed = 0; seed < 24; seed++) {
            op_env_open(&e, behaviour_prog, NULL, NULL);
            op_env_find(&e, api_ops[k]);
            GbRng rng;
            gb_rng_seed(&rng, seed, 3);
            GbError err = {{0}};
            const GbSite *site = &e.sites.items[seed % n];
            if (gb_op_apply(&e.ctx, gb_operator(api_ops[k]), site, &rng, &err) != GB_APPLY_OK)
                fail_msg("%s seed %u: %s", gb_operator(api_ops[k])->name, (unsigned)seed, err.msg);
            gb_str_append(&script, "try:\n    _got = _run(");
            py_literal(&script, op_env_src(&e));
            gb_str_append(&script, ")\nexcept BaseException as _e:\n    _got = repr(_e)\n");
            gb_str_appendf(&script, "if _got != _want:\n    _bad += 1\n    print('%s seed %u:', repr(_got)[:300])\n",
                           gb_operator(api_ops[k])->name, (unsigned)seed);
            variants++;
            op_env_close(&e);
        }
    }
    gb_str_append(&script, "print('bad', _bad)\n");
    int status;
    char *out = op_run_python(script.data, &status);
    if (status != 0 || strcmp(out, "bad 0\n") != 0) fail_msg("python exit %d:\n%s", status, out);
    assert_int_equal(variants, 8 * 24);
    free(out);
    gb_str_destroy(&script);
}

static void test_shapes_vary(void **state)
{
    (void)state;
    /* several call shapes per library: the inserted text differs across seeds */
    for (size_t k = 0; k < N_OF(api_ops); k++) {
        GbNames seen = {0};
        for (uint64_t seed = 0; seed < 16; seed++) {
            OpEnv e;
            op_env_open(&e, prog, NULL, NULL);
            op_env_apply(&e, api_ops[k], "total = sum", seed);
            const char *src = op_env_src(&e);
            const char *a = strstr(src, "\"\"\"Arithmetic mean.\"\"\"\n") + 24;
            const char *b = strstr(src, "    total = sum");
            char *inserted = gb_strndup(a, (size_t)(b - a));
            /* the shape: the text up to the first '(' */
            char *paren = strchr(inserted, '(');
            if (paren) *paren = '\0';
            gb_names_add(&seen, inserted);
            free(inserted);
            op_env_close(&e);
        }
        if (seen.len < 3) fail_msg("%s: only %zu shapes over 16 seeds", gb_operator(api_ops[k])->name, seen.len);
        gb_names_destroy(&seen);
    }
}

/* The lint warm-up program imports every template's library and runs cleanly. */
static void test_warm_program_covers_every_template(void **state)
{
    (void)state;
    char *warm = gb_api_warm_program();
    const GbApiTable *tables[] = {
#define GB_API_OPERATOR(code, snake) &gb_##snake##_table,
        GB_API_OPERATOR_LIST
#undef GB_API_OPERATOR
    };
    size_t calls = 0;
    for (size_t t = 0; t < N_OF(tables); t++) {
        assert_true(tables[t]->n >= 5);
        for (size_t i = 0; i < tables[t]->n; i++, calls++) {
            for (int j = 0; j < 2; j++) {
                const GbApiImport *imp = &tables[t]->templates[i].imports[j];
                if (!imp->module) continue;
                char *line = imp->attr ? gb_asprintf("from %s import %s as w%zu_%d\n", imp->module, imp->attr, calls, j)
                                       : gb_asprintf("import %s as w%zu_%d\n", imp->module, calls, j);
                if (!strstr(warm, line)) fail_msg("warm program lacks: %s", line);
                free(line);
            }
        }
    }
    char *script = gb_asprintf("%s\nfor _k in range(%zu):\n    globals()['call_%%d' %% _k]()\n"
                               "wrapped([1, 2])\nprint('ok')\n",
                               warm, calls);
    int status;
    char *out = op_run_python(script, &status);
    if (status != 0 || strcmp(out, "ok\n") != 0) fail_msg("python exit %d:\n%s", status, out);
    free(out);
    free(script);
    free(warm);
}

/* The library-call list (GB_API_OPERATOR_LIST) is exactly the operator list's A rows, and the
 * workers preload every library its templates import: a third-party one of
 * src/runner/library_list.h, or a standard-library module of src/runner/harness.py's
 * STDLIB_PRELOAD (the Python list is checked against the C one). */
static void test_api_list_matches_operators_and_harness(void **state)
{
    (void)state;
    for (int o = 0; o < GB_OP_COUNT; o++) {
        const GbOperator *op = gb_operator((GbOperatorId)o);
        bool is_api = op->code[0] == 'A';
        if ((gb_api_table((GbOperatorId)o) != NULL) != is_api)
            fail_msg("%s: %s in GB_API_OPERATOR_LIST", op->code, is_api ? "missing" : "must not be");
    }
    const char *root = getenv("GB_SOURCE_ROOT");
    assert_non_null(root);
    char *path = gb_asprintf("%s/src/runner/harness.py", root);
    GbError err;
    size_t len;
    char *py = gb_read_file(path, &len, &err);
    if (!py) fail_msg("%s", err.msg);
    const char *start = strstr(py, "\nSTDLIB_PRELOAD = [");
    assert_non_null(start);
    const char *end = strchr(start, ']');
    assert_non_null(end);
    GbArray(char *) preload = {0};
    static const char *const libraries[] = {
#define GB_LIBRARY(name, imports, package, worker) imports,
        GB_LIBRARY_LIST
#undef GB_LIBRARY
    };
    for (size_t l = 0; l < sizeof libraries / sizeof *libraries; l++)
        for (const char *p = libraries[l]; *p;) {
            size_t n = strcspn(p, ",");
            gb_array_push(&preload, gb_strndup(p, n));
            p += n + (p[n] == ',');
        }
    for (const char *p = start; p < end; p++) {
        if (*p != '"') continue;
        const char *q = strchr(p + 1, '"');
        gb_array_push(&preload, gb_strndup(p + 1, (size_t)(q - p - 1)));
        p = q;
    }
    assert_true(preload.len > 0);
    for (int o = 0; o < GB_OP_COUNT; o++) {
        const GbApiTable *t = gb_api_table((GbOperatorId)o);
        for (size_t i = 0; t && i < t->n; i++)
            for (int j = 0; j < 2; j++) {
                const char *module = t->templates[i].imports[j].module;
                if (!module) continue;
                /* The module itself, or (for a submodule) its top-level package. */
                size_t top = strcspn(module, ".");
                bool found = false;
                for (size_t k = 0; k < preload.len && !found; k++)
                    found = strcmp(preload.items[k], module) == 0 ||
                            (strlen(preload.items[k]) == top && strncmp(preload.items[k], module, top) == 0);
                if (!found)
                    fail_msg("%s imports %s, which the workers do not preload (library_list.h, %s: STDLIB_PRELOAD)",
                             gb_operator((GbOperatorId)o)->code, module, path);
            }
    }
    for (size_t k = 0; k < preload.len; k++) free(preload.items[k]);
    gb_array_free(&preload);
    free(py);
    free(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a1_to_a8_before_after),
        cmocka_unit_test(test_imports_are_placed_reused_and_aliased),
        cmocka_unit_test(test_sites_refused),
        cmocka_unit_test(test_module_level_sites),
        cmocka_unit_test(test_tests_calling_in_loops_make_the_entry_point_hot),
        cmocka_unit_test(test_libraries_the_tests_mock_are_left_alone),
        cmocka_unit_test(test_shapes_vary),
        cmocka_unit_test(test_behaviour_unchanged_no_warnings_no_network),
        cmocka_unit_test(test_warm_program_covers_every_template),
        cmocka_unit_test(test_api_list_matches_operators_and_harness),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
