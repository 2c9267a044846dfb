/* Complexity metrics C2..C7 (C1 is in fitness/cfg.c), following the reference definitions
 * (genebench-reference-behaviour.md §1, tool/metrics/my_metric.py) translated from Python's
 * ast to tree-sitter nodes:
 *   ast If          = if_statement and each elif_clause (an elif is an If in orelse)
 *   ast For/While   = for_statement / while_statement
 *   ast BoolOp      = a maximal chain of boolean_operator nodes with the same operator that are
 *                     direct children of each other (parentheses start a new BoolOp)
 *   ast UnaryOp     = unary_operator and not_operator
 *   ast BinOp       = binary_operator, and union_type (`a | b` in some annotations)
 *   ast List        = list, and list_pattern outside match-case patterns (list targets)
 *   ast comprehension generators / ifs = for_in_clause / if_clause children of a comprehension
 *   parentheses     = invisible (parenthesized_expression is looked through)
 * Deviation, everywhere: `async def`, `async for` and `async with` count like their plain
 * forms (Python's ast gives them separate classes, which the reference never visits).
 * Deviation, C6 (inter-module / inter-class dependencies): besides calls through a
 * name imported from one of the program's own modules, a call `K.m(...)` (or `K.a.b(...)`:
 * any attribute chain) whose root name K is not imported and is the name of a class defined
 * anywhere in the program counts as C6 when the call is not inside the body of a class named
 * K. The reference counts such a call nowhere (K is not a function name), and calls inside
 * K's own body stay as the reference counts them; `self.m()` stays C7. Only the direct form
 * counts: a call through another name bound to the class (`k = K; k.m()`) does not. */
#include "fitness/metrics_internal.h"

#include <stdlib.h>
#include <string.h>

#include "src/python/stdlib_modules.h"
#include "fitness/strmap.h"

typedef const GbPyView View;

static inline uint8_t kind(View *v, uint32_t n)
{
    return v->nodes[n].kind;
}

static bool gb_cx__is_operator(uint8_t k)
{
    return k == GB_NK_BOOLEAN_OPERATOR || k == GB_NK_COMPARISON_OPERATOR || k == GB_NK_BINARY_OPERATOR ||
           k == GB_NK_UNARY_OPERATOR || k == GB_NK_NOT_OPERATOR || k == GB_NK_UNION_TYPE;
}

/* ast.walk(predicate) finds a BoolOp/Compare/BinOp/UnaryOp. */
static bool gb_cx__has_operator(View *v, uint32_t n)
{
    for (uint32_t i = n; i < v->nodes[n].subtree_end; i++)
        if (gb_cx__is_operator(kind(v, i))) return true;
    return false;
}

static bool gb_cx__is_comprehension(uint8_t k)
{
    return k == GB_NK_LIST_COMPREHENSION || k == GB_NK_SET_COMPREHENSION || k == GB_NK_DICTIONARY_COMPREHENSION ||
           k == GB_NK_GENERATOR_EXPRESSION;
}

/* C2: predicates (If/elif tests, While tests, each comprehension `if`, a lambda body that is a
 * Compare or BoolOp, each positional argument of calls to the names any/all/range) that contain
 * at least one operator node. */
static unsigned gb_cx__c2(View *v)
{
    unsigned count = 0;
    for (uint32_t n = 0; n < v->count; n++) {
        uint8_t k = kind(v, n);
        if (k == GB_NK_IF_STATEMENT || k == GB_NK_ELIF_CLAUSE || k == GB_NK_WHILE_STATEMENT) {
            uint32_t c = gb_pyview_field(v, n, GB_PF_CONDITION);
            if (c != GB_PY_NIL && gb_cx__has_operator(v, c)) count++;
        } else if (gb_cx__is_comprehension(k)) {
            for (uint32_t c = v->nodes[n].first_child; c != GB_PY_NIL; c = v->nodes[c].next_sibling) {
                if (kind(v, c) != GB_NK_IF_CLAUSE) continue;
                uint32_t e = gb_pyview_first_named(v, c);
                if (e != GB_PY_NIL && gb_cx__has_operator(v, e)) count++;
            }
        } else if (k == GB_NK_LAMBDA) {
            uint32_t b = gb_pyview_unparen(v, gb_pyview_field(v, n, GB_PF_BODY));
            if (b != GB_PY_NIL && (kind(v, b) == GB_NK_COMPARISON_OPERATOR || kind(v, b) == GB_NK_BOOLEAN_OPERATOR) &&
                gb_cx__has_operator(v, b))
                count++;
        } else if (k == GB_NK_CALL) {
            uint32_t f = gb_pyview_callee(v, n);
            if (f == GB_PY_NIL || kind(v, f) != GB_NK_IDENTIFIER) continue;
            if (!gb_pyview_text_eq(v, f, "any") && !gb_pyview_text_eq(v, f, "all") && !gb_pyview_text_eq(v, f, "range"))
                continue;
            uint32_t args = gb_pyview_field(v, n, GB_PF_ARGUMENTS);
            if (args == GB_PY_NIL) continue;
            if (kind(v, args) == GB_NK_GENERATOR_EXPRESSION) {
                if (gb_cx__has_operator(v, args)) count++;
                continue;
            }
            for (uint32_t a = v->nodes[args].first_child; a != GB_PY_NIL; a = v->nodes[a].next_sibling) {
                if (!v->nodes[a].named) continue;
                uint8_t ak = kind(v, a);
                if (ak == GB_NK_KEYWORD_ARGUMENT || ak == GB_NK_DICTIONARY_SPLAT) continue;
                if (gb_cx__has_operator(v, a)) count++;
            }
        }
    }
    return count;
}

/* C3: Σ (depth − 1) over If (not elif) / For / While nodes; depth counts the enclosing such
 * nodes including the node itself and is not reset at def/class. "elif" is an elif_clause or
 * an `if` that is the first statement of an `else:` of an if (ast: orelse[0] of an If). */
static unsigned gb_cx__c3(View *v)
{
    uint32_t *depth = gb_malloc((v->count ? v->count : 1) * sizeof *depth);
    unsigned sum = 0;
    for (uint32_t n = 0; n < v->count; n++) {
        uint32_t p = v->nodes[n].parent;
        uint32_t d = p == GB_PY_NIL ? 0 : depth[p];
        uint8_t k = kind(v, n);
        bool counted = k == GB_NK_FOR_STATEMENT || k == GB_NK_WHILE_STATEMENT ||
                       (k == GB_NK_IF_STATEMENT && !gb_pyview_is_else_if(v, n));
        if (counted) {
            d++;
            sum += d - 1;
        }
        depth[n] = d;
    }
    free(depth);
    return sum;
}

/* ---------------------------------------------------------------- C4 */

typedef struct {
    View *v;
    const char *cur; /* name of the "current function" (NULL: none) */
    uint32_t cur_len;
    GbStrMap *recursive;
    unsigned threads;
} GbC4;

static void gb_c4__range(GbC4 *s, uint32_t a, uint32_t b);

/* The decorated_definition wrapping a definition, or GB_PY_NIL. */
static uint32_t gb_cx__decorated(View *v, uint32_t def)
{
    uint32_t p = v->nodes[def].parent;
    return p != GB_PY_NIL && kind(v, p) == GB_NK_DECORATED_DEFINITION ? p : GB_PY_NIL;
}

static void gb_c4__subtree(GbC4 *s, uint32_t n)
{
    if (n != GB_PY_NIL) gb_c4__range(s, n, s->v->nodes[n].subtree_end);
}

static void gb_c4__decorators(GbC4 *s, uint32_t def)
{
    uint32_t dd = gb_cx__decorated(s->v, def);
    if (dd == GB_PY_NIL) return;
    for (uint32_t c = s->v->nodes[dd].first_child; c != GB_PY_NIL; c = s->v->nodes[c].next_sibling)
        if (kind(s->v, c) == GB_NK_DECORATOR) gb_c4__subtree(s, c);
}

/* Visit a range of nodes in the order Python's ast.NodeVisitor would: a FunctionDef sets the
 * current function, visits its arguments, body, decorators and return annotation, then resets
 * the current function to none (even when it was nested); a ClassDef visits bases, body,
 * decorators. */
static void gb_c4__range(GbC4 *s, uint32_t a, uint32_t b)
{
    View *v = s->v;
    for (uint32_t n = a; n < b;) {
        uint8_t k = kind(v, n);
        if (k == GB_NK_DECORATOR && v->nodes[n].parent != GB_PY_NIL &&
            kind(v, v->nodes[n].parent) == GB_NK_DECORATED_DEFINITION) {
            n = v->nodes[n].subtree_end; /* visited with its definition */
            continue;
        }
        if (k == GB_NK_FUNCTION_DEFINITION) {
            uint32_t name = gb_pyview_field(v, n, GB_PF_NAME);
            s->cur = name != GB_PY_NIL ? v->src + v->nodes[name].start : NULL;
            s->cur_len = name != GB_PY_NIL ? gb_pyview_len(v, name) : 0;
            gb_c4__subtree(s, gb_pyview_field(v, n, GB_PF_PARAMETERS));
            gb_c4__subtree(s, gb_pyview_field(v, n, GB_PF_BODY));
            gb_c4__decorators(s, n);
            gb_c4__subtree(s, gb_pyview_field(v, n, GB_PF_RETURN_TYPE));
            s->cur = NULL;
            s->cur_len = 0;
            n = v->nodes[n].subtree_end;
            continue;
        }
        if (k == GB_NK_CLASS_DEFINITION) {
            gb_c4__subtree(s, gb_pyview_field(v, n, GB_PF_SUPERCLASSES));
            gb_c4__subtree(s, gb_pyview_field(v, n, GB_PF_BODY));
            gb_c4__decorators(s, n);
            n = v->nodes[n].subtree_end;
            continue;
        }
        if (k == GB_NK_CALL) {
            uint32_t f = gb_pyview_callee(v, n);
            if (f != GB_PY_NIL && kind(v, f) == GB_NK_ATTRIBUTE) {
                uint32_t attr = gb_pyview_field(v, f, GB_PF_ATTRIBUTE);
                if (attr != GB_PY_NIL && gb_pyview_text_eq(v, attr, "Thread")) s->threads++;
            } else if (f != GB_PY_NIL && kind(v, f) == GB_NK_IDENTIFIER && s->cur &&
                       gb_pyview_len(v, f) == s->cur_len &&
                       memcmp(v->src + v->nodes[f].start, s->cur, s->cur_len) == 0) {
                gb_strmap_put(s->recursive, s->cur, s->cur_len, 1, NULL);
            }
        }
        n++;
    }
}

/* C4 = 2 × (lambdas + calls of an attribute named Thread + recursive functions + decorators of
 * defs/classes) + 1 × (list/set/dict comprehensions + generator expressions + List nodes). */
static unsigned gb_cx__c4(View *v, GbStrMap *recursive)
{
    unsigned heavy = 0, light = 0;
    for (uint32_t n = 0; n < v->count; n++) {
        uint8_t k = kind(v, n);
        if (k == GB_NK_LAMBDA) {
            heavy++;
        } else if (k == GB_NK_DECORATOR) {
            uint32_t dd = v->nodes[n].parent;
            uint32_t def = dd != GB_PY_NIL ? gb_pyview_field(v, dd, GB_PF_DEFINITION) : GB_PY_NIL;
            if (def != GB_PY_NIL &&
                (kind(v, def) == GB_NK_FUNCTION_DEFINITION || kind(v, def) == GB_NK_CLASS_DEFINITION))
                heavy++;
        } else if (gb_cx__is_comprehension(k) || k == GB_NK_LIST) {
            light++;
        } else if (k == GB_NK_LIST_PATTERN && !gb_pyview_in_case_pattern(v, n)) {
            light++;
        }
    }
    GbC4 s = {.v = v, .recursive = recursive};
    gb_c4__range(&s, 0, v->count);
    /* recursive functions are counted once per name over the whole program by the caller */
    return 2 * (heavy + s.threads) + light;
}

/* ---------------------------------------------------------------- C5..C7 */

typedef struct {
    const char *mod; /* mapped module (dotted) or NULL */
    uint32_t mod_len;
    bool relative;
} GbImportEntry;

typedef GbArray(GbImportEntry) GbImportEntries;

typedef struct {
    GbStrMap names; /* imported name -> index into entries */
    GbImportEntries entries;
} GbImports;

static void gb_imp__add(GbImports *t, const char *name, size_t len, const char *mod, size_t mod_len, bool relative)
{
    bool inserted;
    uint64_t *slot = gb_strmap_put(&t->names, name, len, t->entries.len, &inserted);
    if (!inserted) return; /* the first import of a name wins */
    (void)slot;
    GbImportEntry e = {.mod = mod, .mod_len = (uint32_t)mod_len, .relative = relative};
    gb_array_push(&t->entries, e);
}

/* Import table as the reference builds it: `import a.b as c` adds "a.b" and "c" (c -> a.b);
 * `from m.x import n as k` adds n and k, both mapped to "m" (the top-level package). Relative
 * imports are marked (they always name the program's own modules). */
static void gb_imp__build(View *v, GbImports *t)
{
    gb_strmap_init(&t->names, false);
    t->entries = (GbImportEntries){0};
    for (uint32_t n = 0; n < v->count; n++) {
        uint8_t k = kind(v, n);
        if (k == GB_NK_IMPORT_STATEMENT) {
            for (uint32_t c = v->nodes[n].first_child; c != GB_PY_NIL; c = v->nodes[c].next_sibling) {
                if (v->nodes[c].field != GB_PF_NAME) continue;
                if (kind(v, c) == GB_NK_DOTTED_NAME) {
                    gb_imp__add(t, v->src + v->nodes[c].start, gb_pyview_len(v, c), NULL, 0, false);
                } else if (kind(v, c) == GB_NK_ALIASED_IMPORT) {
                    uint32_t nm = gb_pyview_field(v, c, GB_PF_NAME), al = gb_pyview_field(v, c, GB_PF_ALIAS);
                    if (nm == GB_PY_NIL) continue;
                    const char *full = v->src + v->nodes[nm].start;
                    gb_imp__add(t, full, gb_pyview_len(v, nm), NULL, 0, false);
                    if (al != GB_PY_NIL)
                        gb_imp__add(t, v->src + v->nodes[al].start, gb_pyview_len(v, al), full, gb_pyview_len(v, nm),
                                    false);
                }
            }
        } else if (k == GB_NK_IMPORT_FROM_STATEMENT || k == GB_NK_FUTURE_IMPORT_STATEMENT) {
            const char *mod = "__future__";
            size_t mod_len = 10;
            bool relative = false;
            if (k == GB_NK_IMPORT_FROM_STATEMENT) {
                uint32_t m = gb_pyview_field(v, n, GB_PF_MODULE_NAME);
                mod = "";
                mod_len = 0;
                if (m != GB_PY_NIL && kind(v, m) == GB_NK_RELATIVE_IMPORT) {
                    relative = true;
                    for (uint32_t c = v->nodes[m].first_child; c != GB_PY_NIL; c = v->nodes[c].next_sibling)
                        if (kind(v, c) == GB_NK_DOTTED_NAME) m = c;
                }
                if (m != GB_PY_NIL && kind(v, m) == GB_NK_DOTTED_NAME) {
                    mod = v->src + v->nodes[m].start;
                    mod_len = gb_pyview_len(v, m);
                }
                const char *dot = memchr(mod, '.', mod_len);
                if (dot) mod_len = (size_t)(dot - mod);
            }
            for (uint32_t c = v->nodes[n].first_child; c != GB_PY_NIL; c = v->nodes[c].next_sibling) {
                if (v->nodes[c].field != GB_PF_NAME) continue;
                if (kind(v, c) == GB_NK_DOTTED_NAME) {
                    gb_imp__add(t, v->src + v->nodes[c].start, gb_pyview_len(v, c), mod, mod_len, relative);
                } else if (kind(v, c) == GB_NK_ALIASED_IMPORT) {
                    uint32_t nm = gb_pyview_field(v, c, GB_PF_NAME), al = gb_pyview_field(v, c, GB_PF_ALIAS);
                    if (nm != GB_PY_NIL)
                        gb_imp__add(t, v->src + v->nodes[nm].start, gb_pyview_len(v, nm), mod, mod_len, relative);
                    if (al != GB_PY_NIL)
                        gb_imp__add(t, v->src + v->nodes[al].start, gb_pyview_len(v, al), mod, mod_len, relative);
                }
            }
        }
    }
}

static void gb_imp__destroy(GbImports *t)
{
    gb_strmap_destroy(&t->names);
    gb_array_free(&t->entries);
}

/* Is the dotted module name one of the program's own modules (or a package of them)? */
static bool gb_cx__own(const GbMeasured *m, const char *mod, size_t len)
{
    for (size_t i = 0; i < m->n_own; i++) {
        const char *o = m->own[i];
        size_t lo = strlen(o);
        size_t k = lo < len ? lo : len;
        if (memcmp(o, mod, k) != 0) continue;
        if (lo == len || (lo < len && mod[lo] == '.') || (len < lo && o[len] == '.')) return true;
    }
    return false;
}

typedef struct {
    unsigned c5_std, c5_third, c6, c7;
} GbCallCounts;

/* Classify a call through an imported name (reference: "stdlib or installed -> C5, else C6").
 * Ours never looks at what is installed: a name imported from one of the program's own modules
 * (a relative import or a module of the program) is C6; every other import is a library:
 * standard library (the fixed list) or third-party, both C5. */
static void gb_cx__classify(const GbMeasured *m, const GbImportEntry *e, const char *name, size_t len, GbCallCounts *cc)
{
    const char *mod = e->mod ? e->mod : name;
    size_t mod_len = e->mod ? e->mod_len : len;
    if (e->relative || gb_cx__own(m, mod, mod_len))
        cc->c6++;
    else if (gb_stdlib_module(mod, mod_len))
        cc->c5_std++;
    else
        cc->c5_third++;
}

/* Is node n inside the body of a class named like the len bytes at name? */
static bool gb_cx__in_class(View *v, uint32_t n, const char *name, size_t len)
{
    for (uint32_t p = v->nodes[n].parent; p != GB_PY_NIL; p = v->nodes[p].parent) {
        if (kind(v, p) != GB_NK_CLASS_DEFINITION) continue;
        uint32_t cn = gb_pyview_field(v, p, GB_PF_NAME);
        if (cn != GB_PY_NIL && gb_pyview_len(v, cn) == len && memcmp(v->src + v->nodes[cn].start, name, len) == 0)
            return true;
    }
    return false;
}

static void gb_cx__calls(const GbMeasured *m, View *v, const GbStrMap *custom, const GbStrMap *classes,
                         GbCallCounts *cc)
{
    GbImports imp;
    gb_imp__build(v, &imp);
    for (uint32_t n = 0; n < v->count; n++) {
        if (kind(v, n) != GB_NK_CALL) continue;
        uint32_t f = gb_pyview_callee(v, n);
        if (f == GB_PY_NIL) continue;
        const char *name = NULL;
        size_t len = 0;
        bool class_root = false; /* name is the root of an attribute chain (not self) */
        if (kind(v, f) == GB_NK_ATTRIBUTE) {
            /* root = leftmost Name of the attribute chain; `self.m()` uses m */
            uint32_t r = f;
            while (r != GB_PY_NIL && kind(v, r) == GB_NK_ATTRIBUTE) r = gb_pyview_attr_object(v, r);
            if (r == GB_PY_NIL || kind(v, r) != GB_NK_IDENTIFIER) continue;
            if (gb_pyview_text_eq(v, r, "self"))
                r = gb_pyview_field(v, f, GB_PF_ATTRIBUTE);
            else
                class_root = true;
            if (r == GB_PY_NIL) continue;
            name = v->src + v->nodes[r].start;
            len = gb_pyview_len(v, r);
        } else if (kind(v, f) == GB_NK_IDENTIFIER) {
            if (gb_pyview_text_eq(v, f, "enumerate")) continue;
            name = v->src + v->nodes[f].start;
            len = gb_pyview_len(v, f);
        } else {
            continue;
        }
        uint64_t *ix = gb_strmap_get(&imp.names, name, len);
        if (ix)
            gb_cx__classify(m, &imp.entries.items[*ix], name, len, cc);
        else if (class_root && gb_strmap_get(classes, name, len) && !gb_cx__in_class(v, n, name, len))
            cc->c6++;
        else if (gb_strmap_get(custom, name, len))
            cc->c7++;
    }
    gb_imp__destroy(&imp);
}

void gb_complexity_measure(const GbMeasured *m, GbMetrics *out, GbMetricsDetail *detail)
{
    GbStrMap custom, recursive, classes;
    gb_strmap_init(&custom, false);
    gb_strmap_init(&recursive, false);
    gb_strmap_init(&classes, false);
    /* Custom functions: every def name of the program (methods included; class names not).
     * Classes: every class name of the program (for C6's inter-class calls). */
    for (size_t i = 0; i < m->n; i++) {
        View *v = &m->views[i];
        for (uint32_t n = 0; n < v->count; n++) {
            uint8_t k = kind(v, n);
            if (k != GB_NK_FUNCTION_DEFINITION && k != GB_NK_CLASS_DEFINITION) continue;
            uint32_t name = gb_pyview_field(v, n, GB_PF_NAME);
            if (name != GB_PY_NIL)
                gb_strmap_put(k == GB_NK_CLASS_DEFINITION ? &classes : &custom, v->src + v->nodes[name].start,
                              gb_pyview_len(v, name), 1, NULL);
        }
    }
    unsigned c2 = 0, c3 = 0, c4 = 0;
    GbCallCounts cc = {0};
    for (size_t i = 0; i < m->n; i++) {
        View *v = &m->views[i];
        c2 += gb_cx__c2(v);
        c3 += gb_cx__c3(v);
        c4 += gb_cx__c4(v, &recursive);
        gb_cx__calls(m, v, &custom, &classes, &cc);
    }
    c4 += 2 * (unsigned)recursive.count;
    out->v[GB_METRIC_C2] = c2;
    out->v[GB_METRIC_C3] = c3;
    out->v[GB_METRIC_C4] = c4;
    out->v[GB_METRIC_C5] = cc.c5_std + cc.c5_third;
    out->v[GB_METRIC_C6] = cc.c6;
    out->v[GB_METRIC_C7] = cc.c7;
    if (detail) {
        detail->calls_stdlib = cc.c5_std;
        detail->calls_third_party = cc.c5_third;
    }
    gb_strmap_destroy(&custom);
    gb_strmap_destroy(&recursive);
    gb_strmap_destroy(&classes);
}
