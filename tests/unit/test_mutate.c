/* Bug-injection mutation operators (src/inject/mutate.h): before/after cases per operator,
 * refusal cases (sites or variants that must not be offered), higher-order application,
 * normalisation, and locating a site again in another version of a program. Every
 * program here was written for these tests. */
#include "src/inject/mutate.h"

#include <stdlib.h>
#include <string.h>

#include "src/python/pyparse.h"
#include "src/base/util.h"
#include "tests/unit/helpers.h"

typedef struct {
    char *src;
    TSParser *parser;
    TSTree *tree;
    GbMutSites sites;
} Found;

static void found_init(Found *f, const char *src, GbMutOp op)
{
    f->src = gb_strdup(src);
    f->parser = gb_parser_new();
    f->tree = gb_parse(f->parser, f->src, strlen(f->src));
    f->sites.items = NULL;
    f->sites.len = f->sites.cap = 0;
    gb_mutate_find_sites(f->src, f->tree, op, &f->sites);
}

static void found_destroy(Found *f)
{
    gb_mutate_sites_destroy(&f->sites);
    ts_tree_delete(f->tree);
    ts_parser_delete(f->parser);
    free(f->src);
}

static const GbMutSite *site_at(const Found *f, unsigned line, unsigned column)
{
    for (size_t i = 0; i < f->sites.len; i++)
        if (f->sites.items[i].line == line && f->sites.items[i].column == column) return &f->sites.items[i];
    return NULL;
}

static long variant_index(const GbMutSite *s, const char *label)
{
    for (size_t i = 0; i < s->variants.len; i++)
        if (strcmp(s->variants.items[i].label, label) == 0) return (long)i;
    return -1;
}

/* "L:C label,label" per site, one per line: the whole listing of an operator. */
static char *dump_sites(const Found *f)
{
    GbStr s;
    gb_str_init(&s);
    for (size_t i = 0; i < f->sites.len; i++) {
        const GbMutSite *st = &f->sites.items[i];
        gb_str_appendf(&s, "%u:%u", st->line, st->column);
        for (size_t v = 0; v < st->variants.len; v++)
            gb_str_appendf(&s, "%s%s", v ? "," : " ", st->variants.items[v].label);
        gb_str_append(&s, "\n");
    }
    return gb_str_take(&s);
}

/* ---- before / after ---- */

typedef struct {
    GbMutOp op;
    const char *src;
    unsigned line, column;
    const char *label;
    const char *want;
} ApplyCase;

static const ApplyCase apply_cases[] = {
    /* M1 arithmetic */
    {GB_MUT_ARITH, "def f(a, b):\n    return a + b\n", 2, 13, "op:-", "def f(a, b):\n    return a - b\n"},
    {GB_MUT_ARITH, "x = a // b\n", 1, 6, "op:/", "x = a / b\n"},
    {GB_MUT_ARITH, "x = a%b\n", 1, 5, "op://", "x = a//b\n"},
    {GB_MUT_ARITH, "y = a * b + c\n", 1, 6, "op:+", "y = a + b + c\n"},
    {GB_MUT_ARITH, "y = a * b + c\n", 1, 10, "op:%", "y = a * b % c\n"},
    {GB_MUT_ARITH, "s = 'a' + t\n", 1, 8, "op:-", "s = 'a' - t\n"}, /* string concatenation may break */
    {GB_MUT_ARITH, "y = x + 0\n", 1, 6, "op:*", "y = x * 0\n"},
    {GB_MUT_ARITH, "y = 6 // 3\n", 1, 6, "op:-", "y = 6 - 3\n"},
    {GB_MUT_ARITH, "s = f'{x + 1}'\n", 1, 9, "op:-", "s = f'{x - 1}'\n"},
    {GB_MUT_ARITH, "y = x * 1.0\n", 1, 6, "op://", "y = x // 1.0\n"}, /* floors: not equivalent */
    /* M2 comparison */
    {GB_MUT_COMPARE, "if a < b:\n    pass\n", 1, 5, "op:<=", "if a <= b:\n    pass\n"},
    {GB_MUT_COMPARE, "ok = 0 <= i < n\n", 1, 12, "op:<=", "ok = 0 <= i <= n\n"},
    {GB_MUT_COMPARE, "ok = 0 <= i < n\n", 1, 7, "op:<", "ok = 0 < i < n\n"},
    {GB_MUT_COMPARE, "if x != None:\n    pass\n", 1, 5, "op:==", "if x == None:\n    pass\n"},
    {GB_MUT_COMPARE, "t = x == x\n", 1, 6, "op:<", "t = x < x\n"},
    {GB_MUT_COMPARE, "t = 1 < 2\n", 1, 6, "op:>=", "t = 1 >= 2\n"},
    {GB_MUT_COMPARE, "assert n >= 0, 'negative'\n", 1, 9, "op:>", "assert n > 0, 'negative'\n"},
    /* M3 condition */
    {GB_MUT_CONDITION, "if a < b:\n    pass\n", 1, 3, "negate", "if not (a < b):\n    pass\n"},
    {GB_MUT_CONDITION, "while ok:\n    ok = step()\n", 1, 6, "negate", "while not ok:\n    ok = step()\n"},
    {GB_MUT_CONDITION, "if not done:\n    go()\n", 1, 3, "unnegate", "if done:\n    go()\n"},
    {GB_MUT_CONDITION, "if(x):\n    go()\n", 1, 2, "negate", "if not (x):\n    go()\n"},
    {GB_MUT_CONDITION, "if a:\n    pass\nelif b > 1:\n    pass\n", 3, 5, "negate",
     "if a:\n    pass\nelif not (b > 1):\n    pass\n"},
    {GB_MUT_CONDITION, "x = a and b\n", 1, 6, "op:or", "x = a or b\n"},
    {GB_MUT_CONDITION, "if a or b:\n    pass\n", 1, 5, "op:and", "if a and b:\n    pass\n"},
    {GB_MUT_CONDITION, "if a or b:\n    pass\n", 1, 3, "negate", "if not (a or b):\n    pass\n"},
    {GB_MUT_CONDITION, "while n in seen:\n    n += 1\n", 1, 6, "negate", "while not (n in seen):\n    n += 1\n"},
    {GB_MUT_CONDITION, "ys = [x for x in xs if x > 0]\n", 1, 23, "negate", "ys = [x for x in xs if not (x > 0)]\n"},
    {GB_MUT_CONDITION, "ys = {k: v for k, v in d.items() if ok(v)}\n", 1, 36, "negate",
     "ys = {k: v for k, v in d.items() if not ok(v)}\n"},
    {GB_MUT_CONDITION, "y = a if a < b else b\n", 1, 9, "negate", "y = a if not (a < b) else b\n"},
    /* M4 return: literals */
    {GB_MUT_RETURN, "def f():\n    return 0\n", 2, 11, "plus1", "def f():\n    return 1\n"},
    {GB_MUT_RETURN, "def f():\n    return 0\n", 2, 11, "minus1", "def f():\n    return -1\n"},
    {GB_MUT_RETURN, "def f():\n    return -2\n", 2, 11, "plus1", "def f():\n    return -1\n"},
    {GB_MUT_RETURN, "def f():\n    return -2\n", 2, 11, "minus1", "def f():\n    return -3\n"},
    {GB_MUT_RETURN, "def f():\n    return 1.5\n", 2, 11, "minus1", "def f():\n    return 0.5\n"},
    {GB_MUT_RETURN, "def f():\n    return True\n", 2, 11, "false", "def f():\n    return False\n"},
    {GB_MUT_RETURN, "def f():\n    return (False)\n", 2, 11, "true", "def f():\n    return (True)\n"},
    {GB_MUT_RETURN, "def f():\n    return 'ab'\n", 2, 11, "empty", "def f():\n    return ''\n"},
    {GB_MUT_RETURN, "def f():\n    return 'ab'\n", 2, 11, "append-X", "def f():\n    return 'abX'\n"},
    /* M4 return: inferred types */
    {GB_MUT_RETURN, "def f(xs):\n    n = len(xs)\n    return n\n", 3, 11, "plus1",
     "def f(xs):\n    n = len(xs)\n    return n + 1\n"},
    {GB_MUT_RETURN, "def f(xs):\n    n = len(xs)\n    return n\n", 3, 11, "minus1",
     "def f(xs):\n    n = len(xs)\n    return n - 1\n"},
    {GB_MUT_RETURN, "def f(a, b):\n    return a < b\n", 2, 11, "not", "def f(a, b):\n    return not (a < b)\n"},
    {GB_MUT_RETURN, "def f(a):\n    ok = a > 0\n    return not ok\n", 3, 11, "unnegate",
     "def f(a):\n    ok = a > 0\n    return ok\n"},
    {GB_MUT_RETURN, "def f(a):\n    return not a\n", 2, 11, "bool", "def f(a):\n    return bool(a)\n"},
    {GB_MUT_RETURN, "def f(s: str):\n    return s.upper()\n", 2, 11, "drop-first",
     "def f(s: str):\n    return s.upper()[1:]\n"},
    {GB_MUT_RETURN, "def f(a: int, b: int):\n    return a * b\n", 2, 11, "plus1",
     "def f(a: int, b: int):\n    return (a * b) + 1\n"},
    {GB_MUT_RETURN, "def f(x: bool):\n    return x\n", 2, 11, "not", "def f(x: bool):\n    return not x\n"},
    {GB_MUT_RETURN, "def f(n):\n    for i in range(n):\n        pass\n    return i\n", 4, 11, "minus1",
     "def f(n):\n    for i in range(n):\n        pass\n    return i - 1\n"},
    {GB_MUT_RETURN, "def f(xs):\n    t = 0\n    t += 1\n    return t\n", 4, 11, "plus1",
     "def f(xs):\n    t = 0\n    t += 1\n    return t + 1\n"},
    {GB_MUT_RETURN, "def f(n):\n    k = 1\n    while k < n:\n        k = k * 2\n    return k\n", 5, 11, "plus1",
     "def f(n):\n    k = 1\n    while k < n:\n        k = k * 2\n    return k + 1\n"},
    {GB_MUT_RETURN, "LIMIT = 10\n\ndef f():\n    return LIMIT\n", 4, 11, "minus1",
     "LIMIT = 10\n\ndef f():\n    return LIMIT - 1\n"},
    {GB_MUT_RETURN, "def f(w):\n    s = ''\n    for c in w:\n        s += c.upper()\n    return s\n", 5, 11,
     "drop-first", "def f(w):\n    s = ''\n    for c in w:\n        s += c.upper()\n    return s[1:]\n"},
    {GB_MUT_RETURN, "def f(a):\n    return(a > 1)\n", 2, 10, "not", "def f(a):\n    return not (a > 1)\n"},
    {GB_MUT_RETURN, "def f():\n    return [1, 2]\n", 2, 11, "drop-first", "def f():\n    return [1, 2][1:]\n"},
    {GB_MUT_RETURN, "def f(xs):\n    return sorted(xs)\n", 2, 11, "drop-first",
     "def f(xs):\n    return sorted(xs)[1:]\n"},
    {GB_MUT_RETURN, "def f(xs):\n    return [x for x in xs if x]\n", 2, 11, "drop-first",
     "def f(xs):\n    return [x for x in xs if x][1:]\n"},
    {GB_MUT_RETURN, "def f(xs):\n    out = []\n    out += [1]\n    return out\n", 4, 11, "drop-first",
     "def f(xs):\n    out = []\n    out += [1]\n    return out[1:]\n"},
    {GB_MUT_RETURN, "def f(s: str) -> list:\n    return s.split()\n", 2, 11, "drop-first",
     "def f(s: str) -> list:\n    return s.split()[1:]\n"},
    {GB_MUT_RETURN, "def f(xs: List[int]):\n    return xs\n", 2, 11, "drop-first",
     "def f(xs: List[int]):\n    return xs[1:]\n"},
    /* M5 constant */
    {GB_MUT_CONSTANT, "n = 10\n", 1, 4, "plus1", "n = 11\n"},
    {GB_MUT_CONSTANT, "n = 10\n", 1, 4, "minus1", "n = 9\n"},
    {GB_MUT_CONSTANT, "n = 0\n", 1, 4, "plus1", "n = 1\n"},
    {GB_MUT_CONSTANT, "n = 0x1f\n", 1, 4, "plus1", "n = 0x20\n"},
    {GB_MUT_CONSTANT, "n = 0XFF\n", 1, 4, "plus1", "n = 0X100\n"},
    {GB_MUT_CONSTANT, "n = 0b101\n", 1, 4, "minus1", "n = 0b100\n"},
    {GB_MUT_CONSTANT, "n = 0o17\n", 1, 4, "plus1", "n = 0o20\n"},
    {GB_MUT_CONSTANT, "n = 1_000\n", 1, 4, "minus1", "n = 999\n"},
    {GB_MUT_CONSTANT, "x = 2.5\n", 1, 4, "plus1", "x = 3.5\n"},
    {GB_MUT_CONSTANT, "x = 2.5\n", 1, 4, "minus1", "x = 1.5\n"},
    {GB_MUT_CONSTANT, "x = 1e-3\n", 1, 4, "plus1", "x = 1.001\n"},
    {GB_MUT_CONSTANT, "x = 3.\n", 1, 4, "plus1", "x = 4.0\n"},
    {GB_MUT_CONSTANT, "ok = True\n", 1, 5, "false", "ok = False\n"},
    {GB_MUT_CONSTANT, "ok = False\n", 1, 5, "true", "ok = True\n"},
    {GB_MUT_CONSTANT, "s = 'abc'\n", 1, 4, "empty", "s = ''\n"},
    {GB_MUT_CONSTANT, "s = 'abc'\n", 1, 4, "append-X", "s = 'abcX'\n"},
    {GB_MUT_CONSTANT, "s = ''\n", 1, 4, "append-X", "s = 'X'\n"},
    {GB_MUT_CONSTANT, "s = '''a\nb'''\n", 1, 4, "append-X", "s = '''a\nbX'''\n"},
    {GB_MUT_CONSTANT, "s = f'{x}!'\n", 1, 4, "append-X", "s = f'{x}!X'\n"},
    {GB_MUT_CONSTANT, "s = f'{x}!'\n", 1, 4, "empty", "s = f''\n"},
    {GB_MUT_CONSTANT, "s = b'ab'\n", 1, 4, "empty", "s = b''\n"},
    {GB_MUT_CONSTANT, "s = 'a' 'b'\n", 1, 8, "append-X", "s = 'a' 'bX'\n"},
    {GB_MUT_CONSTANT, "x = d['k']\n", 1, 6, "append-X", "x = d['kX']\n"},
    {GB_MUT_CONSTANT, "x = -1\n", 1, 5, "plus1", "x = -2\n"},
    {GB_MUT_CONSTANT, "x: int = 5\n", 1, 9, "minus1", "x: int = 4\n"},
    {GB_MUT_CONSTANT, "def f():\n    \"\"\"Doc 1.\"\"\"\n    return 1\n", 3, 11, "plus1",
     "def f():\n    \"\"\"Doc 1.\"\"\"\n    return 2\n"},
    {GB_MUT_CONSTANT, "print(*a, sep='')\n", 1, 14, "append-X", "print(*a, sep='X')\n"},
};

static void test_mutate_apply_table(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof apply_cases / sizeof apply_cases[0]; i++) {
        const ApplyCase *c = &apply_cases[i];
        Found f;
        found_init(&f, c->src, c->op);
        const GbMutSite *s = site_at(&f, c->line, c->column);
        if (!s) {
            char *d = dump_sites(&f);
            fail_msg("case %zu (%s): no site at %u:%u in\n%s\nsites:\n%s", i, gb_mutate_op_name(c->op), c->line,
                     c->column, c->src, d);
        }
        long v = variant_index(s, c->label);
        if (v < 0) {
            char *d = dump_sites(&f);
            fail_msg("case %zu: site %u:%u has no variant %s; sites:\n%s", i, c->line, c->column, c->label, d);
        }
        char *out = NULL;
        GbError err = {{0}};
        if (!gb_mutate_apply(f.src, s, (size_t)v, &out, &err)) fail_msg("case %zu: apply failed: %s", i, err.msg);
        if (strcmp(out, c->want) != 0) fail_msg("case %zu: got\n%s\nwant\n%s", i, out, c->want);
        free(out);
        found_destroy(&f);
    }
}

/* ---- refusals: a site that must not be listed (label NULL) or a variant it must not offer ---- */

typedef struct {
    GbMutOp op;
    const char *src;
    unsigned line, column;
    const char *label; /* NULL: no site at all at line:column */
    const char *why;
} RefuseCase;

static const RefuseCase refuse_cases[] = {
    /* M1 */
    {GB_MUT_ARITH, "y = x + 0\n", 1, 6, "op:-", "x + 0 == x - 0"},
    {GB_MUT_ARITH, "y = x * 1\n", 1, 6, "op:/", "x * 1 == x / 1"},
    {GB_MUT_ARITH, "y = x * 1\n", 1, 6, "op://", "x * 1 == x // 1"},
    {GB_MUT_ARITH, "y = x // 1\n", 1, 6, "op:*", "x // 1 == x * 1"},
    {GB_MUT_ARITH, "y = x * 1.0\n", 1, 6, "op:/", "x * 1.0 == x / 1.0"},
    {GB_MUT_ARITH, "y = 0 % x\n", 1, 6, "op:*", "0 % x == 0 * x"},
    {GB_MUT_ARITH, "y = 0 % x\n", 1, 6, "op://", "0 % x == 0 // x"},
    {GB_MUT_ARITH, "y = x - x\n", 1, 6, "op:%", "x - x == x % x"},
    {GB_MUT_ARITH, "y = x / x\n", 1, 6, "op://", "x / x == x // x"},
    {GB_MUT_ARITH, "y = 2 + 2\n", 1, 6, "op:*", "2 + 2 == 2 * 2"},
    {GB_MUT_ARITH, "y = 6 // 3\n", 1, 6, "op:/", "6 // 3 == 6 / 3"},
    {GB_MUT_ARITH, "s = '%d' % n\n", 1, 9, NULL, "string formatting is not arithmetic"},
    {GB_MUT_ARITH, "s = 'a' + t\n", 1, 8, "op:%", "would turn concatenation into formatting"},
    {GB_MUT_ARITH, "s = t + 'a'\n", 1, 6, "op:%", "would turn concatenation into formatting"},
    {GB_MUT_ARITH, "y = x ** 2\n", 1, 6, NULL, "** is not in the operator set"},
    {GB_MUT_ARITH, "y = x & 1\n", 1, 6, NULL, "bit operators are not arithmetic"},
    {GB_MUT_ARITH, "x += 1\n", 1, 2, NULL, "augmented assignment is not a binary operator"},
    {GB_MUT_ARITH, "@cache(1 + 2)\ndef f():\n    pass\n", 1, 9, NULL, "decorator"},
    {GB_MUT_ARITH, "x: Annotated[int, 1 + 2] = 3\n", 1, 20, NULL, "type annotation"},
    {GB_MUT_ARITH, "def f(a=1 + 2):\n    return a\n", 1, 10, NULL, "parameter default"},
    {GB_MUT_ARITH, "f = lambda a=1 + 2: a\n", 1, 15, NULL, "lambda parameter default"},
    {GB_MUT_ARITH, "s = f'{x:{w + 1}}'\n", 1, 13, NULL, "f-string format specifier"},
    {GB_MUT_ARITH, "raise ValueError(n + 1)\n", 1, 19, NULL, "raise statement"},
    {GB_MUT_ARITH, "x + 1\n", 1, 2, NULL, "expression statement without effect"},
    {GB_MUT_ARITH, "assert x, 'got %d' + str(n + 1)\n", 1, 19, NULL, "assert message"},
    /* M2 */
    {GB_MUT_COMPARE, "t = x == x\n", 1, 6, "op:<=", "x == x and x <= x are both True"},
    {GB_MUT_COMPARE, "t = x == x\n", 1, 6, "op:>=", "x == x and x >= x are both True"},
    {GB_MUT_COMPARE, "t = x < x\n", 1, 6, "op:!=", "x < x and x != x are both False"},
    {GB_MUT_COMPARE, "t = 1 < 2\n", 1, 6, "op:<=", "1 < 2 == 1 <= 2"},
    {GB_MUT_COMPARE, "t = 1 < 2\n", 1, 6, "op:!=", "1 < 2 == 1 != 2"},
    {GB_MUT_COMPARE, "t = x == None\n", 1, 6, "op:<", "ordering against None"},
    {GB_MUT_COMPARE, "t = None != x\n", 1, 9, "op:>=", "ordering against None"},
    {GB_MUT_COMPARE, "t = x is None\n", 1, 6, NULL, "is is never touched"},
    {GB_MUT_COMPARE, "t = x is not y\n", 1, 6, NULL, "is not is never touched"},
    {GB_MUT_COMPARE, "t = x in y\n", 1, 6, NULL, "in is never touched"},
    {GB_MUT_COMPARE, "t = x not in y\n", 1, 6, NULL, "not in is never touched"},
    {GB_MUT_COMPARE, "if __name__ == \"__main__\":\n    main()\n", 1, 12, NULL, "main guard"},
    {GB_MUT_COMPARE, "if '__main__' == __name__:\n    main()\n", 1, 14, NULL, "main guard, reversed"},
    {GB_MUT_COMPARE, "def f(a=x < 1):\n    pass\n", 1, 10, NULL, "parameter default"},
    /* M3 */
    {GB_MUT_CONDITION, "while True:\n    break\n", 1, 6, NULL, "constant condition"},
    {GB_MUT_CONDITION, "if 0:\n    pass\n", 1, 3, NULL, "constant condition"},
    {GB_MUT_CONDITION, "if not None:\n    pass\n", 1, 3, NULL, "constant condition"},
    {GB_MUT_CONDITION, "if 'x':\n    pass\n", 1, 3, NULL, "constant condition"},
    {GB_MUT_CONDITION, "if (1):\n    pass\n", 1, 3, NULL, "constant condition"},
    {GB_MUT_CONDITION, "y = a and a\n", 1, 6, NULL, "a and a == a or a"},
    {GB_MUT_CONDITION, "if __name__ == '__main__':\n    main()\n", 1, 3, NULL, "main guard"},
    {GB_MUT_CONDITION, "@when(a or b)\ndef f():\n    pass\n", 1, 8, NULL, "decorator"},
    {GB_MUT_CONDITION, "ys = [x for x in xs if True]\n", 1, 23, NULL, "constant comprehension filter"},
    {GB_MUT_CONDITION, "y = 1 if 1 else 2\n", 1, 9, NULL, "constant if-else test"},
    {GB_MUT_CONDITION, "def f(a=1 if c else 2):\n    pass\n", 1, 13, NULL, "if-else in a parameter default"},
    /* M4 */
    {GB_MUT_RETURN, "def f(x):\n    return x\n", 2, 11, NULL, "unannotated parameter: unknown type"},
    {GB_MUT_RETURN, "def f():\n    return None\n", 2, 11, NULL, "None"},
    {GB_MUT_RETURN, "def f(a, b):\n    return a, b\n", 2, 11, NULL, "tuple"},
    {GB_MUT_RETURN, "def f():\n    x = None\n    x = 1\n    return x\n", 4, 11, NULL, "bindings disagree"},
    {GB_MUT_RETURN, "def f(a):\n    return a or []\n", 2, 11, NULL, "`or` returns an operand"},
    {GB_MUT_RETURN, "def f():\n    return (1, 2)\n", 2, 11, NULL, "tuple literal: unknown type"},
    {GB_MUT_RETURN, "def f(xs):\n    return list(xs) or [0]\n", 2, 11, NULL, "`or` of lists returns an operand"},
    {GB_MUT_RETURN, "def f(xs):\n    ys = []\n    ys = None\n    return ys\n", 4, 11, NULL, "list and None disagree"},
    {GB_MUT_RETURN, "def f(d):\n    x = d.get(1)\n    return x\n", 3, 11, NULL, "unknown call"},
    {GB_MUT_RETURN, "def f(x, y):\n    x, y = y, x\n    return x\n", 3, 11, NULL, "tuple assignment"},
    {GB_MUT_RETURN, "def f():\n    return b'ab'\n", 2, 11, NULL, "bytes"},
    {GB_MUT_RETURN, "def f(xs):\n    c = 0\n    for x in xs:\n        c = c + x\n    return c\n", 5, 11, NULL,
     "c + x with x of unknown type"},
    {GB_MUT_RETURN, "def f(xs):\n    for i, x in enumerate(xs):\n        pass\n    return i\n", 4, 11, NULL,
     "tuple loop target"},
    {GB_MUT_RETURN, "def f(p):\n    with open(p) as n:\n        pass\n    n = 1\n    return n\n", 5, 11, NULL,
     "`as` binding"},
    {GB_MUT_RETURN, "def f():\n    n = 1\n    def n():\n        pass\n    return n\n", 5, 11, NULL, "rebound by def"},
    {GB_MUT_RETURN, "def f():\n    global n\n    n = 1\n    return n\n", 4, 11, NULL, "global"},
    {GB_MUT_RETURN, "def f():\n    return max(1, 2)\n", 2, 11, NULL, "max can return anything"},
    /* M5 */
    {GB_MUT_CONSTANT, "def f():\n    \"\"\"Doc 1.\"\"\"\n    return 1\n", 2, 4, NULL, "docstring"},
    {GB_MUT_CONSTANT, "\"\"\"Module.\"\"\"\nx = 1\n", 1, 0, NULL, "module docstring"},
    {GB_MUT_CONSTANT, "x = 1j\n", 1, 4, NULL, "imaginary"},
    {GB_MUT_CONSTANT, "x = 99999999999999999999\n", 1, 4, NULL, "too large"},
    {GB_MUT_CONSTANT, "x = 0\n", 1, 4, "minus1", "no negative literal from 0"},
    {GB_MUT_CONSTANT, "x = 0.5\n", 1, 4, "minus1", "no negative literal from 0.5"},
    {GB_MUT_CONSTANT, "s = ''\n", 1, 4, "empty", "already empty"},
    {GB_MUT_CONSTANT, "x = None\n", 1, 4, NULL, "None is not a constant value here"},
    {GB_MUT_CONSTANT, "def f(a=1):\n    pass\n", 1, 8, NULL, "parameter default"},
    {GB_MUT_CONSTANT, "def f(a: int = 1):\n    pass\n", 1, 15, NULL, "typed parameter default"},
    {GB_MUT_CONSTANT, "f = lambda a=1: a\n", 1, 13, NULL, "lambda parameter default"},
    {GB_MUT_CONSTANT, "x: 'MyType' = 1\n", 1, 3, NULL, "string annotation"},
    {GB_MUT_CONSTANT, "def f() -> 'T':\n    pass\n", 1, 11, NULL, "return annotation"},
    {GB_MUT_CONSTANT, "raise ValueError('bad')\n", 1, 17, NULL, "exception message"},
    {GB_MUT_CONSTANT, "assert x, 'msg'\n", 1, 10, NULL, "assert message"},
    {GB_MUT_CONSTANT, "s = f'{x:{1}}'\n", 1, 10, NULL, "inside a format specifier"},
    {GB_MUT_CONSTANT, "@decorator('x')\ndef f():\n    pass\n", 1, 11, NULL, "decorator"},
    {GB_MUT_CONSTANT, "if __name__ == '__main__':\n    main()\n", 1, 15, NULL, "main guard"},
    {GB_MUT_CONSTANT, "'unused'\n", 1, 0, NULL, "bare string statement"},
    {GB_MUT_CONSTANT, "42\n", 1, 0, NULL, "bare number statement"},
};

static void test_mutate_refusal_table(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof refuse_cases / sizeof refuse_cases[0]; i++) {
        const RefuseCase *c = &refuse_cases[i];
        Found f;
        found_init(&f, c->src, c->op);
        /* The program must parse, so the refusal is the operator's doing. */
        assert_false(gb_tree_has_error(f.tree, NULL, NULL));
        const GbMutSite *s = site_at(&f, c->line, c->column);
        if (c->label == NULL && s != NULL)
            fail_msg("case %zu (%s): site %u:%u must be refused: %s", i, gb_mutate_op_name(c->op), c->line, c->column,
                     c->why);
        if (c->label != NULL) {
            /* The site itself exists (other variants stay); only this variant is refused. */
            if (!s) fail_msg("case %zu: expected a site at %u:%u", i, c->line, c->column);
            if (variant_index(s, c->label) >= 0)
                fail_msg("case %zu (%s): variant %s at %u:%u must be refused: %s", i, gb_mutate_op_name(c->op),
                         c->label, c->line, c->column, c->why);
        }
        found_destroy(&f);
    }
}

/* ---- complete listings (nothing missing, nothing extra) ---- */

typedef struct {
    GbMutOp op;
    const char *src;
    const char *want;
} ListCase;

static const char LIST_SRC[] = "def f(a, b, s):\n"               /* 1 */
                               "    \"\"\"Sum 2 things.\"\"\"\n" /* 2 */
                               "    if a > 0 and not b:\n"       /* 3 */
                               "        a = a * 2 - 1\n"         /* 4 */
                               "    while a <= b:\n"             /* 5 */
                               "        a += 1\n"                /* 6 */
                               "    t = s + 'x'\n"               /* 7 */
                               "    return a == b\n";            /* 8 */

static const ListCase list_cases[] = {
    {GB_MUT_ARITH, LIST_SRC,
     "4:14 op:+,op:-,op:/,op://,op:%\n"
     "4:18 op:+,op:*,op:/,op://,op:%\n"
     "7:10 op:-,op:*,op:/,op://\n"},
    {GB_MUT_COMPARE, LIST_SRC,
     "3:9 op:<,op:<=,op:>=,op:==,op:!=\n"
     "5:12 op:<,op:>,op:>=,op:==,op:!=\n"
     "8:13 op:<,op:<=,op:>,op:>=,op:!=\n"},
    {GB_MUT_CONDITION, LIST_SRC,
     "3:7 negate\n"
     "3:13 op:or\n"
     "5:10 negate\n"},
    {GB_MUT_RETURN, LIST_SRC, "8:11 not\n"},
    {GB_MUT_CONSTANT, LIST_SRC,
     "3:11 plus1\n"
     "4:16 plus1,minus1\n"
     "4:20 plus1,minus1\n"
     "6:13 plus1,minus1\n"
     "7:12 empty,append-X\n"},
};

static void test_mutate_listing_table(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof list_cases / sizeof list_cases[0]; i++) {
        Found f;
        found_init(&f, list_cases[i].src, list_cases[i].op);
        char *d = dump_sites(&f);
        if (strcmp(d, list_cases[i].want) != 0)
            fail_msg("%s listing:\n%s\nwant:\n%s", gb_mutate_op_name(list_cases[i].op), d, list_cases[i].want);
        free(d);
        found_destroy(&f);
    }
}

static void test_mutate_site_fields(void **state)
{
    (void)state;
    Found f;
    found_init(&f, "def f(a):\n    if a  <  3:  # small\n        return a\n", GB_MUT_COMPARE);
    assert_int_equal(f.sites.len, 1);
    const GbMutSite *s = &f.sites.items[0];
    assert_int_equal(s->op, GB_MUT_COMPARE);
    assert_int_equal(s->line, 2);
    assert_int_equal(s->column, 10);
    assert_string_equal(s->original, "<");
    assert_int_equal(s->start, 20);
    assert_int_equal(s->end, 21);
    assert_string_equal(s->statement, "if a<3:");
    assert_int_equal(s->stmt_start, 14);
    assert_int_equal(s->stmt_ordinal, 0);
    assert_int_equal(s->occurrence, 0);
    assert_string_equal(s->description, "line 2, column 10: comparison operator `<`");
    char *sig = gb_mutate_site_signature(s);
    assert_string_equal(sig, "compare:0:0:if a<3:");
    free(sig);
    GbMutSite copy;
    gb_mutate_site_copy(&copy, s);
    assert_string_equal(copy.variants.items[0].label, s->variants.items[0].label);
    assert_true(copy.variants.items[0].label != s->variants.items[0].label);
    gb_mutate_site_destroy(&copy);
    gb_mutate_site_destroy(NULL);
    found_destroy(&f);
}

static void test_mutate_op_names(void **state)
{
    (void)state;
    const char *names[] = {"arith", "compare", "condition", "return", "constant"};
    assert_int_equal(GB_MUT_COUNT, 5);
    for (int i = 0; i < GB_MUT_COUNT; i++) {
        GbMutOp op;
        assert_string_equal(gb_mutate_op_name((GbMutOp)i), names[i]);
        assert_true(gb_mutate_op_from_name(names[i], &op));
        assert_int_equal(op, i);
        assert_true(strlen(gb_mutate_op_help((GbMutOp)i)) > 0);
    }
    GbMutOp op;
    assert_false(gb_mutate_op_from_name("swap", &op));
}

/* ---- higher-order mutants ---- */

static const GbMutSite *only_site(const Found *f)
{
    assert_int_equal(f->sites.len, 1);
    return &f->sites.items[0];
}

static void test_mutate_apply_many_nested(void **state)
{
    (void)state;
    const char *src = "if a < b:\n    x = 1\n";
    Found neg, cmp, cst;
    found_init(&neg, src, GB_MUT_CONDITION);
    found_init(&cmp, src, GB_MUT_COMPARE);
    found_init(&cst, src, GB_MUT_CONSTANT);
    const GbMutSite *const sites[3] = {only_site(&neg), only_site(&cmp), only_site(&cst)};
    const size_t variants[3] = {(size_t)variant_index(sites[0], "negate"), (size_t)variant_index(sites[1], "op:>="),
                                (size_t)variant_index(sites[2], "plus1")};
    char *out = NULL;
    GbError err = {{0}};
    assert_true(gb_mutate_apply_many(src, sites, variants, 3, &out, &err));
    assert_string_equal(out, "if not (a >= b):\n    x = 2\n");
    free(out);
    /* Order of the sites does not matter. */
    const GbMutSite *const rev[3] = {sites[2], sites[1], sites[0]};
    const size_t rvar[3] = {variants[2], variants[1], variants[0]};
    assert_true(gb_mutate_apply_many(src, rev, rvar, 3, &out, &err));
    assert_string_equal(out, "if not (a >= b):\n    x = 2\n");
    free(out);
    found_destroy(&neg);
    found_destroy(&cmp);
    found_destroy(&cst);
}

static void test_mutate_apply_many_rejects_overlap(void **state)
{
    (void)state;
    const char *src = "def f():\n    return 5\n";
    Found ret, cst;
    found_init(&ret, src, GB_MUT_RETURN);
    found_init(&cst, src, GB_MUT_CONSTANT);
    const GbMutSite *const sites[2] = {only_site(&ret), only_site(&cst)};
    const size_t variants[2] = {0, 0};
    char *out = (char *)1;
    GbError err = {{0}};
    assert_false(gb_mutate_apply_many(src, sites, variants, 2, &out, &err));
    assert_null(out);
    assert_non_null(strstr(err.msg, "overlap"));
    /* The same site twice overlaps too. */
    const GbMutSite *const twice[2] = {sites[0], sites[0]};
    assert_false(gb_mutate_apply_many(src, twice, variants, 2, &out, &err));
    found_destroy(&ret);
    found_destroy(&cst);
}

static void test_mutate_apply_errors(void **state)
{
    (void)state;
    Found f;
    found_init(&f, "y = a + b\n", GB_MUT_ARITH);
    const GbMutSite *s = only_site(&f);
    char *out = NULL;
    GbError err = {{0}};
    assert_false(gb_mutate_apply("y = a - b\n", s, 0, &out, &err));
    assert_non_null(strstr(err.msg, "does not match"));
    assert_false(gb_mutate_apply(f.src, s, s->variants.len, &out, &err));
    assert_non_null(strstr(err.msg, "no variant"));
    /* A forged variant whose mutant cannot parse is rejected on application. */
    GbMutSite bad;
    gb_mutate_site_copy(&bad, s);
    free(bad.variants.items[0].edits[0].text);
    bad.variants.items[0].edits[0].text = gb_strdup(") (");
    assert_false(gb_mutate_apply(f.src, &bad, 0, &out, &err));
    assert_non_null(strstr(err.msg, "does not parse"));
    gb_mutate_site_destroy(&bad);
    found_destroy(&f);
}

/* Every listed variant of every operator on a larger program applies, parses and
 * changes the source; every site is found again from its own signature. */
static void test_mutate_all_variants_parse_and_rematch(void **state)
{
    (void)state;
    size_t len = 0;
    GbError err = {{0}};
    char *src = gb_read_file(GB_TEST_DATA "/mutate_sample.py", &len, &err);
    if (!src) fail_msg("%s", err.msg);
    TSParser *parser = gb_parser_new();
    TSTree *tree = gb_parse(parser, src, len);
    assert_false(gb_tree_has_error(tree, NULL, NULL));
    size_t per_op[GB_MUT_COUNT] = {0};
    for (int op = 0; op < GB_MUT_COUNT; op++) {
        GbMutSites sites = {0};
        per_op[op] = gb_mutate_find_sites(src, tree, (GbMutOp)op, &sites);
        for (size_t i = 0; i < sites.len; i++) {
            const GbMutSite *s = &sites.items[i];
            if (i > 0) assert_true(sites.items[i - 1].start <= s->start);
            assert_true(s->variants.len > 0);
            for (size_t v = 0; v < s->variants.len; v++) {
                char *out = NULL;
                if (!gb_mutate_apply(src, s, v, &out, &err))
                    fail_msg("%s %s: %s", s->description, s->variants.items[v].label, err.msg);
                assert_true(strcmp(out, src) != 0);
                assert_true(gb_source_parses(parser, out, strlen(out), NULL, NULL));
                free(out);
            }
            char *sig = gb_mutate_site_signature(s);
            GbMutSite again;
            size_t nst = 0;
            assert_int_equal(gb_mutate_match_signature(src, tree, sig, &again, &nst), GB_MUT_MATCH_FOUND);
            assert_true(nst >= 1);
            assert_int_equal(again.start, s->start);
            assert_int_equal(again.end, s->end);
            assert_int_equal(again.variants.len, s->variants.len);
            gb_mutate_site_destroy(&again);
            free(sig);
        }
        gb_mutate_sites_destroy(&sites);
    }
    /* The sample exercises every operator several times. */
    for (int op = 0; op < GB_MUT_COUNT; op++)
        if (per_op[op] < 3) fail_msg("%s: only %zu sites in the sample", gb_mutate_op_name((GbMutOp)op), per_op[op]);
    ts_tree_delete(tree);
    ts_parser_delete(parser);
    free(src);
}

/* ---- normalisation ---- */

typedef struct {
    const char *in, *want;
} NormCase;

static void test_mutate_normalise_table(void **state)
{
    (void)state;
    static const NormCase cases[] = {
        {"a = b + 1", "a=b+1"},
        {"if not  x :  # comment", "if not x:"},
        {"return(x)", "return(x)"},
        {"s = 'a  b' + \"c # d\"", "s='a  b'+\"c # d\""},
        {"x = (1 +\n     2)", "x=(1+2)"},
        {"y = a \\\n    + b", "y=a+b"},
        {"f(rb'x y', u\"z\")", "f(rb'x y',u\"z\")"},
        {"t = '''a\n b # c'''", "t='''a\n b # c'''"},
        {"x is  not\ty", "x is not y"},
        {"1 if x else 2", "1 if x else 2"},
        {"s = 'it\\'s  here'", "s='it\\'s  here'"},
        {"x = bar  'a  b'", "x=bar'a  b'"},
        {"  ", ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *n = gb_mutate_normalise(cases[i].in, strlen(cases[i].in));
        if (strcmp(n, cases[i].want) != 0) fail_msg("normalise(%s) = [%s], want [%s]", cases[i].in, n, cases[i].want);
        char *n2 = gb_mutate_normalise(n, strlen(n));
        assert_string_equal(n2, n); /* idempotent */
        free(n2);
        free(n);
    }
}

/* ---- locating a site in another version of the program ---- */

static const char ORIGINAL[] = "def f(a, b):\n"
                               "    if a < b:\n"
                               "        return a + 1\n"
                               "    return b * 2 + b\n";

/* The same function after hardening-like edits: a new import and helper, a loop guard,
 * a comment, different spacing. */
static const char HARDENED[] = "import time\n"
                               "\n"
                               "def helper():\n"
                               "    return 1 + 1\n"
                               "\n"
                               "def f(a, b):\n"
                               "    time.sleep(0)\n"
                               "    for _ in range(1):\n"
                               "        if a<b:  # guard\n"
                               "            return a  +  1\n"
                               "    return (b * 2\n"
                               "            + b)\n";

static GbMutSite find_in(const char *src, GbMutOp op, unsigned line, unsigned column)
{
    Found f;
    found_init(&f, src, op);
    const GbMutSite *s = site_at(&f, line, column);
    if (!s) fail_msg("no %s site at %u:%u", gb_mutate_op_name(op), line, column);
    GbMutSite copy;
    gb_mutate_site_copy(&copy, s);
    found_destroy(&f);
    return copy;
}

typedef struct {
    GbMutOp op;
    unsigned line, column; /* in ORIGINAL */
    const char *label;
    GbMutMatch want;
    unsigned hard_line, hard_column; /* in HARDENED when found */
    const char *hard_mutated_line;   /* that line after applying the same variant */
} MatchCase;

static void test_mutate_match_other_version(void **state)
{
    (void)state;
    static const MatchCase cases[] = {
        {GB_MUT_ARITH, 3, 17, "op:-", GB_MUT_MATCH_FOUND, 10, 22, "            return a  -  1"},
        {GB_MUT_COMPARE, 2, 9, "op:>=", GB_MUT_MATCH_FOUND, 9, 12, "        if a>=b:  # guard"},
        {GB_MUT_CONDITION, 2, 7, "negate", GB_MUT_MATCH_FOUND, 9, 11, "        if not (a<b):  # guard"},
        /* `return b * 2 + b` is `return(b*2+b)` in the hardened version: a different
         * statement text, so the site is not found by text. */
        {GB_MUT_ARITH, 4, 17, "op:-", GB_MUT_MATCH_NO_STATEMENT, 0, 0, NULL},
        {GB_MUT_CONSTANT, 3, 19, "plus1", GB_MUT_MATCH_FOUND, 10, 25, "            return a  +  2"},
    };
    TSParser *parser = gb_parser_new();
    TSTree *hard_tree = gb_parse(parser, HARDENED, strlen(HARDENED));
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const MatchCase *c = &cases[i];
        GbMutSite orig = find_in(ORIGINAL, c->op, c->line, c->column);
        char *sig = gb_mutate_site_signature(&orig);
        GbMutSite there;
        size_t nst = 99;
        GbMutMatch m = gb_mutate_match_signature(HARDENED, hard_tree, sig, &there, &nst);
        if (m != c->want) fail_msg("case %zu (%s): match %d, want %d", i, sig, m, c->want);
        if (m == GB_MUT_MATCH_FOUND) {
            assert_int_equal(nst, 1);
            assert_int_equal(there.line, c->hard_line);
            assert_int_equal(there.column, c->hard_column);
            char *n1 = gb_mutate_normalise(there.original, strlen(there.original));
            char *n2 = gb_mutate_normalise(orig.original, strlen(orig.original));
            assert_string_equal(n1, n2);
            free(n1);
            free(n2);
            long v = variant_index(&there, c->label);
            assert_true(v >= 0);
            char *out = NULL;
            GbError err = {{0}};
            assert_true(gb_mutate_apply(HARDENED, &there, (size_t)v, &out, &err));
            /* Find the mutated line. */
            const char *p = out;
            for (unsigned l = 1; l < c->hard_line; l++) p = strchr(p, '\n') + 1;
            size_t n = (size_t)(strchr(p, '\n') - p);
            if (strlen(c->hard_mutated_line) != n || strncmp(p, c->hard_mutated_line, n) != 0)
                fail_msg("case %zu: mutated line [%.*s], want [%s]", i, (int)n, p, c->hard_mutated_line);
            free(out);
            gb_mutate_site_destroy(&there);
        } else {
            assert_int_equal(nst, 0);
        }
        free(sig);
        gb_mutate_site_destroy(&orig);
    }
    ts_tree_delete(hard_tree);
    ts_parser_delete(parser);
}

static void test_mutate_match_ordinals_and_failures(void **state)
{
    (void)state;
    const char *src = "def f(x):\n    return x + 1\n\ndef g(x):\n    return x + 1\n";
    TSParser *parser = gb_parser_new();
    TSTree *tree = gb_parse(parser, src, strlen(src));
    GbMutSite s;
    size_t nst = 0;
    /* Raw (unnormalised) statement text is accepted. */
    assert_int_equal(gb_mutate_match(src, tree, GB_MUT_ARITH, "return  x+1", 0, 1, &s, &nst), GB_MUT_MATCH_FOUND);
    assert_int_equal(nst, 2);
    assert_int_equal(s.line, 5);
    assert_int_equal(s.stmt_ordinal, 1);
    gb_mutate_site_destroy(&s);
    assert_int_equal(gb_mutate_match(src, tree, GB_MUT_ARITH, "return x+1", 0, 0, &s, &nst), GB_MUT_MATCH_FOUND);
    assert_int_equal(s.line, 2);
    gb_mutate_site_destroy(&s);
    assert_int_equal(gb_mutate_match(src, tree, GB_MUT_ARITH, "return x+1", 0, 2, &s, &nst), GB_MUT_MATCH_NO_STATEMENT);
    assert_int_equal(gb_mutate_match(src, tree, GB_MUT_ARITH, "return x-1", 0, 0, &s, &nst), GB_MUT_MATCH_NO_STATEMENT);
    assert_int_equal(nst, 0);
    assert_int_equal(gb_mutate_match(src, tree, GB_MUT_ARITH, "return x+1", 1, 0, &s, &nst),
                     GB_MUT_MATCH_NO_OCCURRENCE);
    assert_int_equal(gb_mutate_match(src, tree, GB_MUT_COMPARE, "return x+1", 0, 0, &s, &nst),
                     GB_MUT_MATCH_NO_OCCURRENCE);
    assert_int_equal(gb_mutate_match_signature(src, tree, "nonsense", &s, &nst), GB_MUT_MATCH_NO_STATEMENT);
    assert_int_equal(gb_mutate_match_signature(src, tree, "arith:x:0:return x+1", &s, &nst), GB_MUT_MATCH_NO_STATEMENT);
    ts_tree_delete(tree);

    /* The same statement whose candidate is refused in the other version: `return n`
     * is numeric in one program and of unknown type in the other. */
    const char *a = "def f(xs):\n    n = len(xs)\n    return n\n";
    const char *b = "def f(xs):\n    n = xs[0]\n    return n\n";
    GbMutSite sa = find_in(a, GB_MUT_RETURN, 3, 11);
    char *sig = gb_mutate_site_signature(&sa);
    assert_string_equal(sig, "return:0:0:return n");
    TSTree *tb = gb_parse(parser, b, strlen(b));
    assert_int_equal(gb_mutate_match_signature(b, tb, sig, &s, &nst), GB_MUT_MATCH_REFUSED);
    assert_int_equal(nst, 1);
    free(sig);
    gb_mutate_site_destroy(&sa);
    ts_tree_delete(tb);

    /* Occurrence indexes count refused candidates too, so they agree across versions. */
    const char *c1 = "y = (x + 0) + (x * 3)\n";
    TSTree *tc = gb_parse(parser, c1, strlen(c1));
    Found fc;
    found_init(&fc, c1, GB_MUT_ARITH);
    const GbMutSite *mul = site_at(&fc, 1, 17);
    assert_non_null(mul);
    assert_int_equal(mul->occurrence, 2);
    found_destroy(&fc);
    ts_tree_delete(tc);

    GbMutSignature parsed;
    assert_true(gb_mutate_signature_parse("condition:3:1:if a:b", &parsed));
    assert_int_equal(parsed.op, GB_MUT_CONDITION);
    assert_int_equal(parsed.occurrence, 3);
    assert_int_equal(parsed.stmt_ordinal, 1);
    assert_string_equal(parsed.statement, "if a:b");
    gb_mutate_signature_destroy(&parsed);
    assert_false(gb_mutate_signature_parse("arith:1:", &parsed));
    assert_false(gb_mutate_signature_parse("bogus:1:0:x", &parsed));
    ts_parser_delete(parser);
}

static void test_mutate_program_with_syntax_error(void **state)
{
    (void)state;
    Found f;
    found_init(&f, "x = a + b\ny = (c + \n", GB_MUT_ARITH);
    /* No mutant of a broken program can parse, so nothing is offered. */
    assert_int_equal(f.sites.len, 0);
    found_destroy(&f);
    found_init(&f, "x = a + b\ny = (c + d)\n", GB_MUT_ARITH);
    assert_int_equal(f.sites.len, 2);
    found_destroy(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mutate_apply_table),
        cmocka_unit_test(test_mutate_refusal_table),
        cmocka_unit_test(test_mutate_listing_table),
        cmocka_unit_test(test_mutate_site_fields),
        cmocka_unit_test(test_mutate_op_names),
        cmocka_unit_test(test_mutate_apply_many_nested),
        cmocka_unit_test(test_mutate_apply_many_rejects_overlap),
        cmocka_unit_test(test_mutate_apply_errors),
        cmocka_unit_test(test_mutate_all_variants_parse_and_rematch),
        cmocka_unit_test(test_mutate_normalise_table),
        cmocka_unit_test(test_mutate_match_other_version),
        cmocka_unit_test(test_mutate_match_ordinals_and_failures),
        cmocka_unit_test(test_mutate_program_with_syntax_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
