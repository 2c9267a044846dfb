/* Structural operators S1 AddNestedFor, S2 AddNestedIf, S3 AddNestedWhile, S5 AddTryExcept,
 * S10 TransformAugAssignment, S12 TransformPrimToCompound: before/after cases, refusal cases
 * (sites that must not be listed), behaviour checks under /usr/bin/python3 over many seeds, and
 * the stability of site keys. */
#include <ctype.h>

#include "tests/unit/op_helpers.h"

/* ---- helpers ---- */

/* Append src as a Python string literal. */
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

/* Transform src with op at the site starting with `at`, for seeds 0..n-1, and build one Python
 * script that executes every variant followed by `check` (Python code run in the variant's
 * namespace, which prints something). */
static char *variants_script(GbOperatorId op, const char *src, const char *at, int n, const char *check)
{
    GbStr script;
    gb_str_init(&script);
    gb_str_append(&script, "CHECK = ");
    py_literal(&script, check);
    gb_str_append(&script, "\n");
    for (int seed = 0; seed < n; seed++) {
        OpEnv e;
        op_env_open(&e, src, NULL, NULL);
        op_env_apply(&e, op, at, (uint64_t)seed);
        gb_str_append(&script, "ns = {}\nexec(");
        py_literal(&script, op_env_src(&e));
        gb_str_append(&script, ", ns)\nexec(CHECK, ns)\n");
        op_env_close(&e);
    }
    return gb_str_take(&script);
}

/* Run the script and compare its output with `expected` repeated n times. */
static void expect_output_repeated(const char *script, const char *expected, int n)
{
    int status;
    char *out = op_run_python(script, &status);
    GbStr want;
    gb_str_init(&want);
    gb_str_append(&want, "");
    for (int i = 0; i < n; i++) gb_str_append(&want, expected);
    if (status != 0 || strcmp(out, want.data) != 0) fail_msg("python exit %d, output:\n%s", status, out);
    gb_str_destroy(&want);
    free(out);
}

static void expect_applied(GbOperatorId op, const char *src, const char *at, uint64_t seed, const char *want)
{
    OpEnv e;
    op_env_open(&e, src, NULL, NULL);
    op_env_apply(&e, op, at, seed);
    if (strcmp(op_env_src(&e), want) != 0) fail_msg("got:\n%s\nwant:\n%s", op_env_src(&e), want);
    op_env_close(&e);
}

/* Every text in `refused` must not start a site; every text in `listed` must. */
static void expect_sites(GbOperatorId op, const char *src, const char *const *listed, size_t n_listed,
                         const char *const *refused, size_t n_refused)
{
    OpEnv e;
    op_env_open(&e, src, NULL, NULL);
    op_env_find(&e, op);
    for (size_t i = 0; i < n_listed; i++)
        if (op_env_site(&e, listed[i]) < 0) fail_msg("%s: '%s' should be a site", gb_operator(op)->name, listed[i]);
    for (size_t i = 0; i < n_refused; i++)
        if (op_env_site(&e, refused[i]) >= 0)
            fail_msg("%s: '%s' must not be a site", gb_operator(op)->name, refused[i]);
    op_env_close(&e);
}

#define N_OF(a) (sizeof(a) / sizeof *(a))

static const char *const loop_prog = "def f(xs):\n"
                                     "    total = 0\n"
                                     "    for x in xs:\n"
                                     "        total += x\n"
                                     "    return total\n";

/* Statements that no wrapping operator may touch, and their program. */
static const char *const refusal_prog = "\"\"\"Module doc.\"\"\"\n"
                                        "from __future__ import annotations\n"
                                        "import os\n"
                                        "counter = 0\n"
                                        "\n"
                                        "\n"
                                        "class K:\n"
                                        "    size = 3\n"
                                        "    def m(self):\n"
                                        "        \"\"\"Method doc.\"\"\"\n"
                                        "        return self.size\n"
                                        "\n"
                                        "\n"
                                        "def g(xs):\n"
                                        "    global counter\n"
                                        "    a = 1; b = 2\n"
                                        "    for x in xs:\n"
                                        "        if x < 0: break\n"
                                        "        if x == 0:\n"
                                        "            continue\n"
                                        "        for y in xs:\n"
                                        "            pass\n"
                                        "        else:\n"
                                        "            break\n"
                                        "        counter += x\n"
                                        "    return a + b\n";

/* ---- S1 AddNestedFor ---- */

static void test_s1_wraps_statement_in_one_iteration_loop(void **state)
{
    (void)state;
    expect_applied(GB_OP_S1, loop_prog, "for x in xs", 3,
                   "def f(xs):\n"
                   "    total = 0\n"
                   "    for _visit in range(1):\n"
                   "        for x in xs:\n"
                   "            total += x\n"
                   "    return total\n");
}

static void test_s1_refuses_unsafe_statements(void **state)
{
    (void)state;
    const char *listed[] = {"import os", "counter = 0", "counter += x", "return a + b", "return self.size"};
    const char *refused[] = {
        "\"\"\"Module doc", "from __future__", "size = 3",  "\"\"\"Method doc", "global counter", "a = 1", "b = 2",
        "if x < 0",         "break",           "if x == 0", "continue",         "def ",           "class "};
    /* The inner for loop is refused because its else-clause break targets the outer loop. */
    const char *refused_inner[] = {"for y in xs"};
    expect_sites(GB_OP_S1, refusal_prog, listed, N_OF(listed), refused, N_OF(refused));
    expect_sites(GB_OP_S1, refusal_prog, NULL, 0, refused_inner, 1);
    expect_sites(GB_OP_S3, refusal_prog, listed, N_OF(listed), refused, N_OF(refused));
    expect_sites(GB_OP_S3, refusal_prog, NULL, 0, refused_inner, 1);
}

static void test_s1_s3_loops_run_exactly_once(void **state)
{
    (void)state;
    const char *prog = "def f():\n"
                       "    count = 0\n"
                       "    for i in range(3):\n"
                       "        count += 1\n"
                       "    return count\n";
    char *s = variants_script(GB_OP_S1, prog, "count += 1", 40, "print(f())\n");
    expect_output_repeated(s, "3\n", 40);
    free(s);
    s = variants_script(GB_OP_S3, prog, "count += 1", 40, "print(f())\n");
    expect_output_repeated(s, "3\n", 40);
    free(s);
    /* Wrapping a statement that returns from inside the new loop. */
    s = variants_script(GB_OP_S3, loop_prog, "return total", 20, "print(f([1, 2]))\n");
    expect_output_repeated(s, "3\n", 20);
    free(s);
}

static void test_wrapping_refused_where_new_names_would_show(void **state)
{
    (void)state;
    /* locals() would list the new loop variable / guard variables. */
    const char *prog = "def f():\n"
                       "    x = 1\n"
                       "    return locals()\n"
                       "def g():\n"
                       "    return sorted(globals())\n"
                       "y = 2\n";
    const char *refused[] = {"x = 1", "return locals()", "y = 2"};
    expect_sites(GB_OP_S1, prog, NULL, 0, refused, N_OF(refused));
    expect_sites(GB_OP_S2, prog, NULL, 0, refused, N_OF(refused));
    expect_sites(GB_OP_S3, prog, NULL, 0, refused, N_OF(refused));
}

/* ---- S2 AddNestedIf ---- */

static void test_s2_wraps_statement_in_true_if(void **state)
{
    (void)state;
    expect_applied(GB_OP_S2, loop_prog, "total = 0", 1,
                   "def f(xs):\n"
                   "    share = 292\n"
                   "    window = 759\n"
                   "    if share <= window:\n"
                   "        total = 0\n"
                   "    for x in xs:\n"
                   "        total += x\n"
                   "    return total\n");
}

static void test_s2_sites_allow_break_refuse_class_bodies(void **state)
{
    (void)state;
    /* An if does not change what break/continue target: they may be wrapped. */
    const char *listed[] = {"if x < 0: break", "if x == 0", "for y in xs", "counter += x",
                            "import os",       "break",     "continue"};
    const char *refused[] = {"\"\"\"Module doc",
                             "from __future__",
                             "size = 3",
                             "\"\"\"Method doc",
                             "global counter",
                             "a = 1",
                             "b = 2",
                             "def ",
                             "class "};
    expect_sites(GB_OP_S2, refusal_prog, listed, N_OF(listed), refused, N_OF(refused));
}

static void test_s2_guard_is_always_true(void **state)
{
    (void)state;
    const char *prog = "def f():\n"
                       "    hits = []\n"
                       "    for i in range(4):\n"
                       "        if i == 2: break\n"
                       "        hits.append(i)\n"
                       "    return hits\n";
    char *s = variants_script(GB_OP_S2, prog, "hits.append(i)", 60, "print(f())\n");
    expect_output_repeated(s, "[0, 1]\n", 60);
    free(s);
    s = variants_script(GB_OP_S2, prog, "if i == 2: break", 30, "print(f())\n");
    expect_output_repeated(s, "[0, 1]\n", 30);
    free(s);
}

/* ---- S3 AddNestedWhile ---- */

static void test_s3_wraps_statement_in_one_iteration_while(void **state)
{
    (void)state;
    expect_applied(GB_OP_S3, loop_prog, "total += x", 2,
                   "def f(xs):\n"
                   "    total = 0\n"
                   "    for x in xs:\n"
                   "        waiting = 23\n"
                   "        while waiting > 22:\n"
                   "            waiting -= 1\n"
                   "            total += x\n"
                   "    return total\n");
}

/* At module level the guard variables of S2 and S3 are module constants, named in upper case
 * (pylint's invalid-name otherwise marks each); inside a function they stay lower case. */
static void test_s2_s3_module_level_guards_are_upper_case(void **state)
{
    (void)state;
    const char *prog = "n = int('3')\n"
                       "total = n * 2\n"
                       "def f(x):\n"
                       "    y = x + 1\n"
                       "    return y\n"
                       "print(total, f(n))\n";
    const GbOperatorId ops[] = {GB_OP_S2, GB_OP_S3};
    for (size_t o = 0; o < N_OF(ops); o++)
        for (uint64_t seed = 1; seed <= 12; seed++)
            for (int in_function = 0; in_function < 2; in_function++) {
                OpEnv e;
                op_env_open(&e, prog, NULL, NULL);
                const char *at = in_function ? "y = x + 1" : "total = n * 2";
                op_env_apply(&e, ops[o], at, seed);
                const char *src = op_env_src(&e);
                /* the lines added before the wrapped statement bind the new names */
                const char *stmt = strstr(src, at);
                assert_non_null(stmt);
                const char *from = in_function ? strstr(src, "def f(x):\n") + 10 : strstr(src, "\n") + 1;
                int names = 0;
                for (const char *line = from; line < stmt; line = strchr(line, '\n') + 1) {
                    while (*line == ' ') line++;
                    if (line >= stmt) break;
                    if (strncmp(line, "if ", 3) == 0 || strncmp(line, "while ", 6) == 0) continue;
                    const char *eq = strstr(line, " = ");
                    if (!eq || eq > strchr(line, '\n')) continue;
                    for (const char *c = line; c < eq; c++)
                        if (in_function) assert_false(isupper((unsigned char)*c));
                        else if (islower((unsigned char)*c)) fail_msg("lower at module level:\n%s", src);
                    names++;
                }
                assert_true(names >= 1);
                op_env_close(&e);
            }
}

/* ---- S5 AddTryExcept ---- */

static void test_s5_wraps_body_after_docstring(void **state)
{
    (void)state;
    const char *prog = "def f(x):\n"
                       "    \"\"\"Divide.\"\"\"\n"
                       "    y = 10 // x\n"
                       "    return y\n";
    OpEnv e;
    op_env_open(&e, prog, NULL, NULL);
    op_env_find(&e, GB_OP_S5);
    long body = -1;
    for (size_t i = 0; i < e.sites.len; i++)
        if (e.sites.items[i].kind == 1) body = (long)i;
    assert_true(body >= 0);
    GbRng rng;
    gb_rng_seed(&rng, 0, 7);
    GbError err;
    assert_int_equal(gb_op_apply(&e.ctx, gb_operator(GB_OP_S5), &e.sites.items[body], &rng, &err), GB_APPLY_OK);
    assert_string_equal(op_env_src(&e), "def f(x):\n"
                                        "    \"\"\"Divide.\"\"\"\n"
                                        "    try:\n"
                                        "        y = 10 // x\n"
                                        "        return y\n"
                                        "    except BaseException:\n"
                                        "        raise\n");
    op_env_close(&e);
}

static void test_s5_never_swallows_exceptions(void **state)
{
    (void)state;
    const char *prog = "def f(x):\n"
                       "    \"\"\"Divide.\"\"\"\n"
                       "    y = 10 // x\n"
                       "    return y\n"
                       "def g(n):\n"
                       "    for i in range(n):\n"
                       "        if i == 1:\n"
                       "            continue\n"
                       "        yield i\n"
                       "    raise SystemExit(3)\n";
    const char *check = "try:\n"
                        "    f(0)\n"
                        "    print('swallowed')\n"
                        "except ZeroDivisionError as e:\n"
                        "    print(f(5), f.__doc__, list(g(0)) if False else '', end=' ')\n"
                        "it = g(4)\n"
                        "print(next(it), next(it), next(it), end=' ')\n"
                        "try:\n"
                        "    next(it)\n"
                        "except SystemExit as e:\n"
                        "    print(e.code)\n";
    const char *sites[] = {"y = 10", "return y", "if i == 1", "yield i", "raise SystemExit", "for i in"};
    for (size_t k = 0; k < N_OF(sites); k++) {
        char *s = variants_script(GB_OP_S5, prog, sites[k], 12, check);
        expect_output_repeated(s, "2 Divide.  0 2 3 3\n", 12);
        free(s);
    }
}

static void test_s5_refuses_class_bodies_and_docstrings(void **state)
{
    (void)state;
    const char *listed[] = {"if x < 0: break", "continue", "import os", "return self.size", "for y in xs"};
    const char *refused[] = {"\"\"\"Module doc", "from __future__", "size = 3", "\"\"\"Method doc",
                             "global counter",   "a = 1",           "b = 2"};
    expect_sites(GB_OP_S5, refusal_prog, listed, N_OF(listed), refused, N_OF(refused));
    /* A one-line function body cannot be wrapped. */
    const char *refused2[] = {"def h(): return 1"};
    expect_sites(GB_OP_S5, "def h(): return 1\n", NULL, 0, refused2, 1);
}

/* ---- S10 TransformAugAssignment ---- */

static const char *const aug_prog = "LIMIT = 0\n"
                                    "def f(xs, n, obj):\n"
                                    "    total = 0\n"
                                    "    count = len(xs)\n"
                                    "    name = 'a'\n"
                                    "    acc = []\n"
                                    "    ratio = 1.0\n"
                                    "    for i in range(n):\n"
                                    "        total += i * 2\n"
                                    "        count -= 1\n"
                                    "        name += str(i)\n"
                                    "        acc += [i]\n"
                                    "        n += 1\n"
                                    "        obj.size += 1\n"
                                    "        xs[0] += 1\n"
                                    "    ratio /= count or 1\n"
                                    "    mixed = 0\n"
                                    "    mixed += 'x'\n"
                                    "    unknown = xs[0]\n"
                                    "    unknown += 1\n"
                                    "    flag = True\n"
                                    "    flag |= count > 2\n"
                                    "    total <<= 1.5\n"
                                    "    power = 2.0\n"
                                    "    power **= 0.5\n"
                                    "    return total\n"
                                    "def g():\n"
                                    "    global LIMIT\n"
                                    "    LIMIT += 1\n"
                                    "def h():\n"
                                    "    global LIMIT\n"
                                    "    LIMIT = []\n";

static void test_s10_rewrites_scalar_aug_assignments(void **state)
{
    (void)state;
    OpEnv e;
    op_env_open(&e, aug_prog, NULL, NULL);
    op_env_find(&e, GB_OP_S10);
    const char *listed[] = {"count -= 1", "name += str(i)", "ratio /= count or 1", "flag |= count > 2",
                            "total += i * 2"};
    for (size_t i = 0; i < N_OF(listed); i++)
        if (op_env_site(&e, listed[i]) < 0) fail_msg("'%s' should be a site", listed[i]);
    /* list (mutable), parameter (unknown), attribute, subscript, str + int (raises), unknown
     * value, int << float (raises), a global rebound to a list elsewhere. */
    const char *refused[] = {
        "acc +=", "n += 1", "obj.size", "xs[0]", "mixed +=", "unknown +=", "total <<=", "power **=", "LIMIT +="};
    for (size_t i = 0; i < N_OF(refused); i++)
        if (op_env_site(&e, refused[i]) >= 0) fail_msg("'%s' must not be a site", refused[i]);
    op_env_close(&e);
}

static void test_s10_before_after(void **state)
{
    (void)state;
    const char *prog = "def f(n):\n"
                       "    total = 0\n"
                       "    text = 'x'\n"
                       "    for i in range(n):\n"
                       "        total += i * 2 if i else 1\n"
                       "        total **= 1\n"
                       "        text *= 2\n"
                       "    return total, text\n";
    expect_applied(GB_OP_S10, prog, "total += i", 0,
                   "def f(n):\n"
                   "    total = 0\n"
                   "    text = 'x'\n"
                   "    for i in range(n):\n"
                   "        total = total + (i * 2 if i else 1)\n"
                   "        total **= 1\n"
                   "        text *= 2\n"
                   "    return total, text\n");
    expect_applied(GB_OP_S10, prog, "text *= 2", 0,
                   "def f(n):\n"
                   "    total = 0\n"
                   "    text = 'x'\n"
                   "    for i in range(n):\n"
                   "        total += i * 2 if i else 1\n"
                   "        total **= 1\n"
                   "        text = text * 2\n"
                   "    return total, text\n");
}

/* ---- S12 TransformPrimToCompound ---- */

static void test_s12_wraps_literals(void **state)
{
    (void)state;
    const char *prog = "a = b = 5\n"
                       "pair = 1, 2\n"
                       "x: int = -3\n"
                       "n = f(1)\n"
                       "m = [g()]\n"
                       "neg = -a\n"
                       "star = [*pair]\n"
                       "n += 2\n";
    const char *listed[] = {"b = 5", "pair = 1, 2", "x: int = -3", "n += 2"};
    const char *refused[] = {"a = b", "n = f(1)", "m = [g()]", "neg = -a", "star = "};
    expect_sites(GB_OP_S12, prog, listed, N_OF(listed), refused, N_OF(refused));
    expect_applied(GB_OP_S12, prog, "pair = 1, 2", 1,
                   "a = b = 5\n"
                   "pair = ((1, 2),)[0]\n"
                   "x: int = -3\n"
                   "n = f(1)\n"
                   "m = [g()]\n"
                   "neg = -a\n"
                   "star = [*pair]\n"
                   "n += 2\n");
}

static void test_s12_values_are_unchanged(void **state)
{
    (void)state;
    const char *prog = "v = {'k': [1, 2.5], 3: None}\n";
    char *s = variants_script(GB_OP_S12, prog, "v = ", 30, "print(v == {'k': [1, 2.5], 3: None})\n");
    expect_output_repeated(s, "True\n", 30);
    free(s);
}

/* ---- Site keys ---- */

static bool has_key(const GbSiteList *l, const char *key)
{
    for (size_t i = 0; i < l->len; i++)
        if (strcmp(l->items[i].key, key) == 0) return true;
    return false;
}

static void test_site_keys_survive_edits_and_are_never_reused(void **state)
{
    (void)state;
    OpEnv e;
    op_env_open(&e, loop_prog, NULL, NULL);
    op_env_find(&e, GB_OP_S5);
    GbNames before = {0};
    for (size_t i = 0; i < e.sites.len; i++) gb_names_add(&before, e.sites.items[i].key);
    long at = op_env_site(&e, "total += x");
    assert_true(at >= 0);
    char *wrapped = gb_strdup(e.sites.items[at].key);
    /* Other operators edit around and inside the statement. */
    op_env_apply(&e, GB_OP_S1, "for x in xs", 1);
    op_env_apply(&e, GB_OP_S12, "total = 0", 1);
    op_env_apply(&e, GB_OP_S5, "total += x", 1);
    op_env_apply(&e, GB_OP_S2, "total += x", 1);
    op_env_find(&e, GB_OP_S5);
    /* The wrapped statement is never offered to S5 again; every other original site keeps its key. */
    assert_false(has_key(&e.sites, wrapped));
    assert_true(op_env_site(&e, "total += x") < 0);
    for (size_t i = 0; i < before.len; i++)
        if (strcmp(before.items[i], wrapped) != 0 && !has_key(&e.sites, before.items[i]))
            fail_msg("key %s was lost after edits:\n%s", before.items[i], op_env_src(&e));
    /* Code inserted by an edit gets keys of its own. */
    assert_true(op_env_site(&e, "try:") >= 0);
    free(wrapped);
    gb_names_destroy(&before);
    op_env_close(&e);
}

static void test_site_keys_survive_replacing_a_statement_start(void **state)
{
    (void)state;
    OpEnv e;
    op_env_open(&e, loop_prog, NULL, NULL);
    op_env_apply(&e, GB_OP_S1, "total = 0", 4);
    /* A rename of `total` (as N1 would do it: every occurrence replaced). */
    GbEditSet set;
    gb_edits_init(&set);
    const char *src = op_env_src(&e);
    for (const char *p = strstr(src, "total"); p; p = strstr(p + 1, "total"))
        gb_edits_replace(&set, 0, (uint32_t)(p - src), (uint32_t)(p - src + 5), "amount");
    GbError err;
    assert_true(gb_edits_commit(&e.ctx, &set, &err));
    gb_edits_destroy(&set);
    assert_non_null(strstr(op_env_src(&e), "        amount = 0\n"));
    op_env_find(&e, GB_OP_S1);
    assert_true(op_env_site(&e, "amount = 0") < 0);
    assert_true(op_env_site(&e, "amount += x") >= 0);
    op_env_close(&e);
}

static void test_registry_has_22_operators_in_order(void **state)
{
    (void)state;
    assert_int_equal(GB_OP_COUNT, 22);
    const char *codes[] = {"S1",  "S2", "S3", "S4", "S5", "S6", "S7", "S8", "S9", "S10", "S11",
                           "S12", "A1", "A2", "A3", "A4", "A5", "A6", "A7", "A8", "N1",  "N2"};
    for (size_t i = 0; i < 22; i++) assert_string_equal(gb_operator((GbOperatorId)i)->code, codes[i]);
    assert_string_equal(gb_operator(GB_OP_S10)->name, "TransformAugAssignment");
    assert_ptr_equal(gb_operator_find("addnestedfor"), gb_operator(GB_OP_S1));
    assert_ptr_equal(gb_operator_find("add_try_except"), gb_operator(GB_OP_S5));
    assert_ptr_equal(gb_operator_find("n2"), gb_operator(GB_OP_N2));
    assert_null(gb_operator_find("NoSuchOperator"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_s1_wraps_statement_in_one_iteration_loop),
        cmocka_unit_test(test_s1_refuses_unsafe_statements),
        cmocka_unit_test(test_s1_s3_loops_run_exactly_once),
        cmocka_unit_test(test_wrapping_refused_where_new_names_would_show),
        cmocka_unit_test(test_s2_wraps_statement_in_true_if),
        cmocka_unit_test(test_s2_sites_allow_break_refuse_class_bodies),
        cmocka_unit_test(test_s2_guard_is_always_true),
        cmocka_unit_test(test_s3_wraps_statement_in_one_iteration_while),
        cmocka_unit_test(test_s2_s3_module_level_guards_are_upper_case),
        cmocka_unit_test(test_s5_wraps_body_after_docstring),
        cmocka_unit_test(test_s5_never_swallows_exceptions),
        cmocka_unit_test(test_s5_refuses_class_bodies_and_docstrings),
        cmocka_unit_test(test_s10_rewrites_scalar_aug_assignments),
        cmocka_unit_test(test_s10_before_after),
        cmocka_unit_test(test_s12_wraps_literals),
        cmocka_unit_test(test_s12_values_are_unchanged),
        cmocka_unit_test(test_site_keys_survive_edits_and_are_never_reused),
        cmocka_unit_test(test_site_keys_survive_replacing_a_statement_start),
        cmocka_unit_test(test_registry_has_22_operators_in_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
