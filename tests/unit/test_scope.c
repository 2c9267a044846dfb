#include "src/python/scope.h"

#include <stdlib.h>
#include <string.h>

#include "src/python/flow.h"
#include "src/python/pyparse.h"
#include "tests/unit/helpers.h"

typedef struct {
    TSParser *parser;
    TSTree *tree;
    GbScopes *scopes;
    const char *src;
} Fixture;

static void fx_open(Fixture *f, const char *src)
{
    f->parser = gb_parser_new();
    f->src = src;
    f->tree = gb_parse(f->parser, src, strlen(src));
    assert_false(gb_tree_has_error(f->tree, NULL, NULL));
    f->scopes = gb_scopes_new(f->tree, src);
}

static void fx_close(Fixture *f)
{
    gb_scopes_delete(f->scopes);
    ts_tree_delete(f->tree);
    ts_parser_delete(f->parser);
}

/* Scope index at the first occurrence of `marker` in the source. */
static int scope_at(const Fixture *f, const char *marker)
{
    const char *p = strstr(f->src, marker);
    assert_non_null(p);
    return gb_scopes_at(f->scopes, (uint32_t)(p - f->src));
}

/* The innermost statement containing the first occurrence of marker. */
static TSNode stmt_at(const Fixture *f, const char *marker)
{
    const char *p = strstr(f->src, marker);
    assert_non_null(p);
    uint32_t pos = (uint32_t)(p - f->src);
    TSNode n = ts_node_descendant_for_byte_range(ts_tree_root_node(f->tree), pos, pos);
    static const char *const stmt_suffix = "_statement";
    for (; !ts_node_is_null(n); n = ts_node_parent(n)) {
        const char *t = ts_node_type(n);
        size_t lt = strlen(t), ls = strlen(stmt_suffix);
        if ((lt > ls && strcmp(t + lt - ls, stmt_suffix) == 0) || strcmp(t, "function_definition") == 0 ||
            strcmp(t, "class_definition") == 0)
            return n;
    }
    fail_msg("no statement at %s", marker);
    return n;
}

static unsigned flags_of(const Fixture *f, int scope, const char *name)
{
    const GbScopeName *n = gb_scope_name(&f->scopes->scopes.items[scope], name);
    return n ? n->flags : 0;
}

static void test_scope_kinds_and_nesting(void **state)
{
    (void)state;
    Fixture f;
    fx_open(&f, "import os\n"
                "X = 1\n"
                "class C:\n"
                "    attr = 2\n"
                "    def m(self, a, b=X):\n"
                "        return [a * k for k in range(b)]\n"
                "f = lambda q: q + 1\n");
    assert_int_equal(f.scopes->scopes.len, 5); /* module, class, method, comprehension, lambda */
    assert_int_equal(f.scopes->scopes.items[0].kind, GB_SCOPE_MODULE);
    int cls = scope_at(&f, "attr = 2");
    assert_int_equal(f.scopes->scopes.items[cls].kind, GB_SCOPE_CLASS);
    assert_string_equal(f.scopes->scopes.items[cls].name, "C");
    int m = scope_at(&f, "return [a");
    assert_int_equal(f.scopes->scopes.items[m].kind, GB_SCOPE_FUNCTION);
    assert_int_equal(f.scopes->scopes.items[m].parent, cls);
    int comp = scope_at(&f, "a * k");
    assert_int_equal(f.scopes->scopes.items[comp].kind, GB_SCOPE_COMPREHENSION);
    /* The first iterable runs in the method, not in the comprehension. */
    assert_int_equal(scope_at(&f, "range(b)"), m);
    /* Default values run in the enclosing (class) scope. */
    assert_int_equal(scope_at(&f, "X):"), cls);
    int lam = scope_at(&f, "q + 1");
    assert_int_equal(f.scopes->scopes.items[lam].kind, GB_SCOPE_LAMBDA);
    assert_true(flags_of(&f, m, "a") & GB_NAME_PARAM);
    assert_true(flags_of(&f, m, "b") & GB_NAME_PARAM);
    assert_true(flags_of(&f, comp, "k") & GB_NAME_ASSIGN);
    assert_true(flags_of(&f, 0, "os") & GB_NAME_IMPORT);
    assert_true(flags_of(&f, 0, "C") & GB_NAME_DEF);
    assert_true(flags_of(&f, cls, "m") & GB_NAME_DEF);
    assert_true(flags_of(&f, lam, "q") & GB_NAME_PARAM);
    fx_close(&f);
}

static void test_scope_class_does_not_enclose_methods(void **state)
{
    (void)state;
    Fixture f;
    fx_open(&f, "y = 0\n"
                "class C:\n"
                "    y = 1\n"
                "    def m(self):\n"
                "        return y\n"
                "    z = [y for _ in range(3)]\n");
    int m = scope_at(&f, "return y");
    int d;
    assert_int_equal(gb_scopes_resolve(f.scopes, m, "y", &d), GB_RESOLVE_GLOBAL);
    assert_int_equal(d, 0);
    int cls = scope_at(&f, "y = 1");
    assert_int_equal(gb_scopes_resolve(f.scopes, cls, "y", &d), GB_RESOLVE_LOCAL);
    assert_int_equal(d, cls);
    /* The comprehension body does not see the class either. */
    int comp = scope_at(&f, "y for _");
    assert_int_equal(gb_scopes_resolve(f.scopes, comp, "y", &d), GB_RESOLVE_GLOBAL);
    assert_int_equal(gb_scopes_resolve(f.scopes, m, "len", &d), GB_RESOLVE_BUILTIN);
    fx_close(&f);
}

static void test_scope_global_nonlocal_and_cells(void **state)
{
    (void)state;
    Fixture f;
    fx_open(&f, "count = 0\n"
                "def outer():\n"
                "    total = 0\n"
                "    seen = 1\n"
                "    def inner():\n"
                "        nonlocal total\n"
                "        global count\n"
                "        total += seen\n"
                "        count = 5\n"
                "    inner()\n"
                "    return total\n");
    int outer = scope_at(&f, "total = 0");
    int inner = scope_at(&f, "total += seen");
    int d;
    assert_int_equal(gb_scopes_resolve(f.scopes, inner, "total", &d), GB_RESOLVE_FREE);
    assert_int_equal(d, outer);
    assert_int_equal(gb_scopes_resolve(f.scopes, inner, "seen", &d), GB_RESOLVE_FREE);
    assert_int_equal(gb_scopes_resolve(f.scopes, inner, "count", &d), GB_RESOLVE_GLOBAL);
    assert_true(flags_of(&f, outer, "total") & GB_NAME_CAPTURED);
    assert_true(flags_of(&f, outer, "seen") & GB_NAME_CAPTURED);
    assert_true(flags_of(&f, inner, "total") & GB_NAME_NONLOCAL);
    assert_true(flags_of(&f, inner, "total") & GB_NAME_AUG);
    assert_true(gb_scopes_same_variable(f.scopes, inner, 0, "count"));
    assert_false(gb_scopes_same_variable(f.scopes, inner, 0, "total"));
    fx_close(&f);
}

static void test_scope_walrus_binds_in_enclosing_function(void **state)
{
    (void)state;
    Fixture f;
    fx_open(&f, "def f(xs):\n"
                "    if any((hit := x) > 2 for x in xs):\n"
                "        return hit\n"
                "    del xs\n");
    int fn = scope_at(&f, "return hit");
    int comp = scope_at(&f, "(hit := x)");
    assert_int_equal(f.scopes->scopes.items[comp].kind, GB_SCOPE_COMPREHENSION);
    assert_true(flags_of(&f, fn, "hit") & GB_NAME_ASSIGN);
    assert_int_equal(flags_of(&f, comp, "hit"), GB_NAME_NONLOCAL);
    assert_true(flags_of(&f, fn, "xs") & GB_NAME_DEL);
    assert_true(flags_of(&f, fn, "xs") & GB_NAME_PARAM);
    assert_true(flags_of(&f, fn, "hit") & GB_NAME_CAPTURED);
    fx_close(&f);
}

static void test_scope_effects_of_statements(void **state)
{
    (void)state;
    Fixture f;
    fx_open(&f, "def f(a, items):\n"
                "    total = 0\n"
                "    for x in items:\n"
                "        if x < 0:\n"
                "            break\n"
                "        total += x * a\n"
                "    else:\n"
                "        continue_here = 1\n"
                "    obj.field = total\n"
                "    g = lambda: total + zz\n"
                "    return total\n");
    GbEffects e;
    gb_effects_init(&e);
    gb_scopes_effects(f.scopes, f.src, stmt_at(&f, "for x in"), &e);
    assert_true(gb_effects_reads(&e, "items"));
    assert_true(gb_effects_reads(&e, "total"));
    assert_true(gb_effects_reads(&e, "a"));
    assert_true(gb_effects_writes(&e, "x"));
    assert_true(gb_effects_writes(&e, "total"));
    assert_true(gb_effects_writes(&e, "continue_here"));
    /* The break targets the for loop, which is part of the statement. */
    assert_false(e.flags & GB_FX_BREAK);
    gb_effects_destroy(&e);

    gb_effects_init(&e);
    gb_scopes_effects(f.scopes, f.src, stmt_at(&f, "break"), &e);
    assert_true(e.flags & GB_FX_BREAK);
    gb_effects_destroy(&e);

    gb_effects_init(&e);
    gb_scopes_effects(f.scopes, f.src, stmt_at(&f, "obj.field"), &e);
    assert_true(e.flags & GB_FX_ATTR_WRITE);
    assert_true(gb_effects_reads(&e, "obj"));
    assert_false(gb_effects_writes(&e, "obj"));
    gb_effects_destroy(&e);

    gb_effects_init(&e);
    gb_scopes_effects(f.scopes, f.src, stmt_at(&f, "g = lambda"), &e);
    assert_true(gb_effects_reads(&e, "total")); /* free read of the lambda */
    assert_true(gb_effects_reads(&e, "zz"));
    assert_true(gb_effects_writes(&e, "g"));
    assert_true(e.flags & GB_FX_DEFINES);
    assert_false(e.flags & GB_FX_RETURN);
    gb_effects_destroy(&e);

    gb_effects_init(&e);
    gb_scopes_effects(f.scopes, f.src, stmt_at(&f, "return total"), &e);
    assert_true(e.flags & GB_FX_RETURN);
    gb_effects_destroy(&e);
    fx_close(&f);
}

static void test_scope_effects_yield_and_bare_raise(void **state)
{
    (void)state;
    Fixture f;
    fx_open(&f, "def gen(n):\n"
                "    try:\n"
                "        yield n\n"
                "    except ValueError:\n"
                "        raise\n"
                "    def inner():\n"
                "        yield 1\n"
                "    raise\n");
    assert_true(f.scopes->scopes.items[scope_at(&f, "yield n")].is_generator);
    GbEffects e;
    gb_effects_init(&e);
    gb_scopes_effects(f.scopes, f.src, stmt_at(&f, "try:"), &e);
    assert_true(e.flags & GB_FX_YIELD);
    assert_true(e.flags & GB_FX_RAISE);
    assert_false(e.flags & GB_FX_BARE_RAISE); /* the raise is inside the handler */
    gb_effects_destroy(&e);
    gb_effects_init(&e);
    gb_scopes_effects(f.scopes, f.src, stmt_at(&f, "def inner"), &e);
    assert_false(e.flags & GB_FX_YIELD);
    assert_true(gb_effects_writes(&e, "inner"));
    gb_effects_destroy(&e);
    const char *last = NULL;
    for (const char *q = strstr(f.src, "raise\n"); q; q = strstr(q + 1, "raise\n")) last = q;
    uint32_t pos = (uint32_t)(last - f.src);
    TSNode r = ts_node_parent(ts_node_descendant_for_byte_range(ts_tree_root_node(f.tree), pos, pos));
    assert_string_equal(ts_node_type(r), "raise_statement");
    gb_effects_init(&e);
    gb_scopes_effects(f.scopes, f.src, r, &e);
    assert_true(e.flags & GB_FX_BARE_RAISE);
    gb_effects_destroy(&e);
    fx_close(&f);
}

static void test_scope_live_after(void **state)
{
    (void)state;
    Fixture f;
    fx_open(&f, "def f(n):\n"
                "    a = n + 1\n"
                "    b = a * 2\n"
                "    c = 7\n"
                "    acc = 0\n"
                "    for i in range(n):\n"
                "        t = i * 2\n"
                "        acc += t\n"
                "    return b + acc\n");
    const char *cands[] = {"a", "b", "c", "t", "acc", "i"};
    GbNames live = {0};
    gb_scopes_live_after(f.scopes, f.src, stmt_at(&f, "a = n"), stmt_at(&f, "b = a"), cands, 6, &live);
    assert_false(gb_names_has(&live, "a"));
    assert_true(gb_names_has(&live, "b"));
    assert_false(gb_names_has(&live, "c"));
    gb_names_destroy(&live);
    /* Inside the loop: acc is read by the next iteration, t is not read after. */
    gb_scopes_live_after(f.scopes, f.src, stmt_at(&f, "acc += t"), stmt_at(&f, "acc += t"), cands, 6, &live);
    assert_true(gb_names_has(&live, "acc"));
    assert_true(gb_names_has(&live, "t")); /* read inside the loop (conservative) */
    assert_false(gb_names_has(&live, "c"));
    gb_names_destroy(&live);
    fx_close(&f);

    /* At module level everything is live. */
    fx_open(&f, "x = 1\ny = 2\n");
    const char *c2[] = {"x"};
    gb_scopes_live_after(f.scopes, f.src, stmt_at(&f, "x = 1"), stmt_at(&f, "x = 1"), c2, 1, &live);
    assert_true(gb_names_has(&live, "x"));
    gb_names_destroy(&live);
    fx_close(&f);
}

static void test_scope_imports_with_except_match(void **state)
{
    (void)state;
    Fixture f;
    fx_open(&f, "import a.b, c as d\n"
                "from m import e, f as g\n"
                "from n import *\n"
                "with open(p) as (h, i):\n"
                "    pass\n"
                "try:\n"
                "    pass\n"
                "except ValueError as err:\n"
                "    pass\n"
                "match v:\n"
                "    case [first, *rest] if first:\n"
                "        pass\n"
                "    case Point(x=0, y=yy) as pt:\n"
                "        pass\n"
                "    case Color.RED:\n"
                "        pass\n");
    const char *bound[] = {"a", "d", "e", "g", "h", "i", "err", "first", "rest", "yy", "pt"};
    for (size_t i = 0; i < sizeof bound / sizeof *bound; i++) {
        if (!(flags_of(&f, 0, bound[i]) & GB_NAME_BINDS)) fail_msg("%s not bound", bound[i]);
    }
    assert_false(flags_of(&f, 0, "c") & GB_NAME_BINDS);
    assert_false(flags_of(&f, 0, "Color") & GB_NAME_BINDS);
    assert_true(flags_of(&f, 0, "Color") & GB_NAME_READ);
    assert_true(flags_of(&f, 0, "Point") & GB_NAME_READ);
    assert_false(flags_of(&f, 0, "x") & GB_NAME_BINDS);
    assert_true(f.scopes->scopes.items[0].star_import);
    assert_int_equal(gb_scopes_resolve(f.scopes, 0, "undefined_name", NULL), GB_RESOLVE_UNKNOWN);
    fx_close(&f);
}

static void test_scope_keywords_and_builtins(void **state)
{
    (void)state;
    assert_true(gb_python_is_keyword("lambda"));
    assert_true(gb_python_is_keyword("match"));
    assert_false(gb_python_is_keyword("lambda_"));
    assert_true(gb_python_is_builtin("len"));
    assert_true(gb_python_is_builtin("ZeroDivisionError"));
    assert_false(gb_python_is_builtin("numpy"));
}

/* gb_flow_bound_before: a binding before the statement, in its block or an enclosing one, and
 * none when code of the scope may unbind the name (`del`, an `except ... as` target), however
 * the `as` is written; the text tests that skip the walk must never skip one of these. */
static void test_flow_bound_before_and_unbinding(void **state)
{
    (void)state;
    static const struct {
        const char *src;
        bool bound;
    } cases[] = {
        {"x = 1\nif c:\n    y = x\n", true},
        {"if c:\n    y = x\nx = 1\n", false},
        {"x = 1\ndel x\ny = x\n", false},
        {"x = 1\ndel w, (x)\ny = x\n", false},
        {"x = 1\ndelta = 2\ny = x\n", true},
        {"x = 1\ntry:\n    pass\nexcept E as x:\n    pass\ny = x\n", false},
        {"x = 1\ntry:\n    pass\nexcept E as \\\n        x:\n    pass\ny = x\n", false},
        {"x = 1\ntry:\n    pass\nexcept* (E, F) as x:\n    pass\ny = x\n", false},
        {"x = 1\ntry:\n    pass\nexcept E as xs:\n    pass\ny = x\n", true},
        {"x = 1\nwith f() as x:\n    pass\ny = x\n", true},
        {"x = 1\nclass_ = 2\ny = x\n", true},
        {"def f(x):\n    if x:\n        y = x\n", true},
        {"def f():\n    for x in r:\n        y = x\n", true},
        {"def f():\n    y = x\n", false},
        {"def f():\n    x = 1\n    def g():\n        del x\n    y = x\n", false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        Fixture f;
        fx_open(&f, cases[i].src);
        bool got = gb_flow_bound_before(f.src, stmt_at(&f, "y = x"), "x");
        if (got != cases[i].bound) fail_msg("case %zu: bound_before %d, want %d:\n%s", i, got, cases[i].bound, f.src);
        fx_close(&f);
    }

    /* A wide module: the binding 300 statements up is found, and the floor of a range hides it. */
    GbStr src;
    gb_str_init(&src);
    gb_str_append(&src, "x = 0\n");
    for (int i = 0; i < 300; i++) gb_str_appendf(&src, "v%d = %d\n", i, i);
    gb_str_append(&src, "y = x\n");
    Fixture f;
    fx_open(&f, src.data);
    TSNode use = stmt_at(&f, "y = x"), root = ts_tree_root_node(f.tree);
    assert_true(gb_flow_bound_before(f.src, use, "x"));
    assert_true(gb_flow_bound_before(f.src, use, "v299"));
    assert_false(gb_flow_bound_before(f.src, use, "v300"));
    uint32_t floor = (uint32_t)(strstr(f.src, "v0 =") - f.src);
    assert_false(gb_flow_bound_before_range(f.src, use, "x", root, floor));
    assert_true(gb_flow_bound_before_range(f.src, use, "v0", root, floor));
    fx_close(&f);
    gb_str_destroy(&src);
}

/* gb_parse hands out copies of the trees of recent sources: equal to a fresh parse, each owned
 * by its caller, and an edit of one leaves the others as they were. */
static void test_parse_cache_copies(void **state)
{
    (void)state;
    TSParser *p = gb_parser_new();
    const char *a = "def f(x):\n    return x + 1\n", *b = "y = [i for i in range(3)]\n";
    TSTree *t1 = gb_parse(p, a, strlen(a));
    TSTree *t2 = gb_parse(p, b, strlen(b));
    TSTree *t3 = gb_parse(p, a, strlen(a));
    char *s1 = ts_node_string(ts_tree_root_node(t1)), *s3 = ts_node_string(ts_tree_root_node(t3));
    assert_string_equal(s1, s3);
    ts_tree_delete(t1);
    /* the copy lives on after the first is gone, and an edit of it is its own */
    TSInputEdit ed = {4, 5, 9, {0, 4}, {0, 5}, {0, 9}};
    ts_tree_edit(t3, &ed);
    TSTree *t4 = gb_parse(p, a, strlen(a));
    char *s4 = ts_node_string(ts_tree_root_node(t4));
    assert_string_equal(s1, s4);
    assert_int_equal(ts_node_end_byte(ts_tree_root_node(t4)), strlen(a));
    /* a source that differs in one byte is parsed anew */
    const char *c = "def f(x):\n    return x + 2\n";
    TSTree *t5 = gb_parse(p, c, strlen(c));
    assert_false(gb_tree_has_error(t5, NULL, NULL));
    free(s1);
    free(s3);
    free(s4);
    ts_tree_delete(t2);
    ts_tree_delete(t3);
    ts_tree_delete(t4);
    ts_tree_delete(t5);
    ts_parser_delete(p);
}

/* The row and byte column of byte offset `byte` of src. */
static TSPoint point_at(const char *src, uint32_t byte)
{
    TSPoint p = {0, 0};
    for (uint32_t i = 0; i < byte; i++) {
        p.row += src[i] == '\n';
        p.column = src[i] == '\n' ? 0 : p.column + 1;
    }
    return p;
}

/* gb_parse_edited gives the tree a fresh parse of the edited text gives: replacements, deletions,
 * insertions with new lines and indentation, several at one position. */
static void test_parse_edited_equals_fresh(void **state)
{
    (void)state;
    TSParser *p = gb_parser_new();
    const char *old = "def f(x):\n    y = x + 1\n    return y\n\nprint(f(2))\n";
    static const struct {
        uint32_t start, end;
        const char *text;
    } edits[][3] = {
        {{22, 23, "2"}, {0, 0, NULL}, {0, 0, NULL}},
        {{14, 14, "if x:\n        pass\n    "}, {0, 0, NULL}, {0, 0, NULL}},
        {{0, 0, "import os\n"}, {0, 0, "import re\n"}, {50, 50, "print(os.sep, re.I)\n"}},
        {{10, 24, ""}, {24, 37, "    return x\n"}, {0, 0, NULL}},
        {{0, 0, "@dec\n"}, {38, 50, "g = f\n"}, {0, 0, NULL}},
    };
    TSTree *base = gb_parse(p, old, strlen(old));
    for (size_t k = 0; k < sizeof edits / sizeof *edits; k++) {
        TSInputEdit ed[3];
        size_t n = 0;
        GbStr out;
        gb_str_init(&out);
        uint32_t at = 0;
        for (size_t i = 0; i < 3 && edits[k][i].text; i++, n++) {
            uint32_t a = edits[k][i].start, b = edits[k][i].end;
            const char *t = edits[k][i].text;
            gb_str_append_n(&out, old + at, a - at);
            gb_str_append(&out, t);
            at = b;
            ed[n].start_byte = a;
            ed[n].old_end_byte = b;
            ed[n].new_end_byte = a + (uint32_t)strlen(t);
            ed[n].start_point = point_at(old, a);
            ed[n].old_end_point = point_at(old, b);
            TSPoint np = ed[n].start_point;
            for (const char *q = t; *q; q++) {
                if (*q == '\n') {
                    np.row++;
                    np.column = 0;
                } else {
                    np.column++;
                }
            }
            ed[n].new_end_point = np;
        }
        gb_str_append(&out, old + at);
        TSTree *edited = gb_parse_edited(p, base, ed, n, out.data, out.len);
        /* a parser of its own: gb_parse would hand back the cached tree of this text */
        TSParser *q = gb_parser_new();
        TSTree *fresh = ts_parser_parse_string(q, NULL, out.data, (uint32_t)out.len);
        char *a = ts_node_string(ts_tree_root_node(edited)), *b = ts_node_string(ts_tree_root_node(fresh));
        if (strcmp(a, b) != 0) fail_msg("edit set %zu:\n%s\nedited: %s\nfresh:  %s", k, out.data, a, b);
        assert_int_equal(ts_node_end_byte(ts_tree_root_node(edited)), ts_node_end_byte(ts_tree_root_node(fresh)));
        free(a);
        free(b);
        ts_tree_delete(edited);
        ts_tree_delete(fresh);
        ts_parser_delete(q);
        gb_str_destroy(&out);
    }
    /* the base tree is as it was */
    char *s0 = ts_node_string(ts_tree_root_node(base));
    TSParser *q = gb_parser_new();
    TSTree *again = ts_parser_parse_string(q, NULL, old, (uint32_t)strlen(old));
    char *s1 = ts_node_string(ts_tree_root_node(again));
    assert_string_equal(s0, s1);
    free(s0);
    free(s1);
    ts_tree_delete(again);
    ts_parser_delete(q);
    ts_tree_delete(base);
    ts_parser_delete(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scope_kinds_and_nesting),
        cmocka_unit_test(test_scope_class_does_not_enclose_methods),
        cmocka_unit_test(test_scope_global_nonlocal_and_cells),
        cmocka_unit_test(test_scope_walrus_binds_in_enclosing_function),
        cmocka_unit_test(test_scope_effects_of_statements),
        cmocka_unit_test(test_scope_effects_yield_and_bare_raise),
        cmocka_unit_test(test_scope_live_after),
        cmocka_unit_test(test_scope_imports_with_except_match),
        cmocka_unit_test(test_scope_keywords_and_builtins),
        cmocka_unit_test(test_flow_bound_before_and_unbinding),
        cmocka_unit_test(test_parse_cache_copies),
        cmocka_unit_test(test_parse_edited_equals_fresh),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
