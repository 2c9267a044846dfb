#include "src/python/scope.h"
#include "src/python/pyparse.h"

#include <stdlib.h>
#include <string.h>

static const char *const gb_keywords[] = {
    "False", "None",   "True",     "_",      "and", "as",   "assert", "async",  "await",    "break",
    "case",  "class",  "continue", "def",    "del", "elif", "else",   "except", "finally",  "for",
    "from",  "global", "if",       "import", "in",  "is",   "lambda", "match",  "nonlocal", "not",
    "or",    "pass",   "raise",    "return", "try", "type", "while",  "with",   "yield",
};

static const char *const gb_builtins[] = {
    "ArithmeticError",
    "AssertionError",
    "AttributeError",
    "BaseException",
    "BaseExceptionGroup",
    "BlockingIOError",
    "BrokenPipeError",
    "BufferError",
    "BytesWarning",
    "ChildProcessError",
    "ConnectionAbortedError",
    "ConnectionError",
    "ConnectionRefusedError",
    "ConnectionResetError",
    "DeprecationWarning",
    "EOFError",
    "Ellipsis",
    "EncodingWarning",
    "EnvironmentError",
    "Exception",
    "ExceptionGroup",
    "False",
    "FileExistsError",
    "FileNotFoundError",
    "FloatingPointError",
    "FutureWarning",
    "GeneratorExit",
    "IOError",
    "ImportError",
    "ImportWarning",
    "IndentationError",
    "IndexError",
    "InterruptedError",
    "IsADirectoryError",
    "KeyError",
    "KeyboardInterrupt",
    "LookupError",
    "MemoryError",
    "ModuleNotFoundError",
    "NameError",
    "None",
    "NotADirectoryError",
    "NotImplemented",
    "NotImplementedError",
    "OSError",
    "OverflowError",
    "PendingDeprecationWarning",
    "PermissionError",
    "ProcessLookupError",
    "RecursionError",
    "ReferenceError",
    "ResourceWarning",
    "RuntimeError",
    "RuntimeWarning",
    "StopAsyncIteration",
    "StopIteration",
    "SyntaxError",
    "SyntaxWarning",
    "SystemError",
    "SystemExit",
    "TabError",
    "TimeoutError",
    "True",
    "TypeError",
    "UnboundLocalError",
    "UnicodeDecodeError",
    "UnicodeEncodeError",
    "UnicodeError",
    "UnicodeTranslateError",
    "UnicodeWarning",
    "UserWarning",
    "ValueError",
    "Warning",
    "ZeroDivisionError",
    "__annotations__",
    "__build_class__",
    "__builtins__",
    "__cached__",
    "__debug__",
    "__doc__",
    "__file__",
    "__import__",
    "__loader__",
    "__name__",
    "__package__",
    "__path__",
    "__spec__",
    "abs",
    "aiter",
    "all",
    "anext",
    "any",
    "ascii",
    "bin",
    "bool",
    "breakpoint",
    "bytearray",
    "bytes",
    "callable",
    "chr",
    "classmethod",
    "compile",
    "complex",
    "copyright",
    "credits",
    "delattr",
    "dict",
    "dir",
    "divmod",
    "enumerate",
    "eval",
    "exec",
    "exit",
    "filter",
    "float",
    "format",
    "frozenset",
    "getattr",
    "globals",
    "hasattr",
    "hash",
    "help",
    "hex",
    "id",
    "input",
    "int",
    "isinstance",
    "issubclass",
    "iter",
    "len",
    "license",
    "list",
    "locals",
    "map",
    "max",
    "memoryview",
    "min",
    "next",
    "object",
    "oct",
    "open",
    "ord",
    "pow",
    "print",
    "property",
    "quit",
    "range",
    "repr",
    "reversed",
    "round",
    "set",
    "setattr",
    "slice",
    "sorted",
    "staticmethod",
    "str",
    "sum",
    "super",
    "tuple",
    "type",
    "vars",
    "zip",
};

static bool gb_scope__in_sorted(const char *const *list, size_t n, const char *name)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(list[mid], name);
        if (c == 0) return true;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return false;
}

bool gb_python_is_keyword(const char *name)
{
    return gb_scope__in_sorted(gb_keywords, sizeof gb_keywords / sizeof *gb_keywords, name);
}

bool gb_python_is_builtin(const char *name)
{
    return gb_scope__in_sorted(gb_builtins, sizeof gb_builtins / sizeof *gb_builtins, name);
}

/* ---- Name lists ---- */

static size_t gb_names__lower_bound(const GbNames *n, const char *name, bool *found)
{
    size_t lo = 0, hi = n->len;
    *found = false;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(n->items[mid], name);
        if (c == 0) {
            *found = true;
            return mid;
        }
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

void gb_names_destroy(GbNames *n)
{
    if (!n) return;
    for (size_t i = 0; i < n->len; i++) free(n->items[i]);
    gb_array_free(n);
}

bool gb_names_has(const GbNames *n, const char *name)
{
    bool found;
    gb_names__lower_bound(n, name, &found);
    return found;
}

void gb_names_add(GbNames *n, const char *name)
{
    bool found;
    size_t at = gb_names__lower_bound(n, name, &found);
    if (found) return;
    gb_array_reserve(n, n->len + 1);
    memmove(n->items + at + 1, n->items + at, (n->len - at) * sizeof *n->items);
    n->items[at] = gb_strdup(name);
    n->len++;
}

void gb_effects_init(GbEffects *e)
{
    memset(e, 0, sizeof *e);
}

void gb_effects_destroy(GbEffects *e)
{
    if (!e) return;
    gb_names_destroy(&e->reads);
    gb_names_destroy(&e->writes);
}

bool gb_effects_reads(const GbEffects *e, const char *name)
{
    return gb_names_has(&e->reads, name);
}

bool gb_effects_writes(const GbEffects *e, const char *name)
{
    return gb_names_has(&e->writes, name);
}

void gb_scopes_delete(GbScopes *s)
{
    if (!s) return;
    for (size_t i = 0; i < s->scopes.len; i++) {
        GbScope *sc = &s->scopes.items[i];
        free(sc->name);
        for (size_t j = 0; j < sc->names.len; j++) free(sc->names.items[j].name);
        gb_array_free(&sc->names);
    }
    gb_array_free(&s->scopes);
    free(s);
}

/* Binary search of the sorted names: the index of name, or where it would be inserted. */
static size_t gb_scope__name_pos(const GbScope *scope, const char *name, bool *found)
{
    size_t lo = 0, hi = scope->names.len;
    *found = false;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(scope->names.items[mid].name, name);
        if (c == 0) {
            *found = true;
            return mid;
        }
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

const GbScopeName *gb_scope_name(const GbScope *scope, const char *name)
{
    bool found;
    size_t i = gb_scope__name_pos(scope, name, &found);
    return found ? &scope->names.items[i] : NULL;
}

static GbScopeName *gb_scope__name_add(GbScope *scope, const char *name)
{
    bool found;
    size_t lo = gb_scope__name_pos(scope, name, &found);
    if (found) return &scope->names.items[lo];
    gb_array_reserve(&scope->names, scope->names.len + 1);
    memmove(scope->names.items + lo + 1, scope->names.items + lo, (scope->names.len - lo) * sizeof *scope->names.items);
    scope->names.items[lo].name = gb_strdup(name);
    scope->names.items[lo].flags = 0;
    scope->names.len++;
    return &scope->names.items[lo];
}

/* ---- The walker ----
 * One recursive walk over the tree reports reads, bindings and effect flags, each with the
 * scope it happens in. In build mode it creates the scopes; in lookup mode (effects,
 * liveness) it finds the scopes an earlier build created. */

typedef struct GbScWalk GbScWalk;
struct GbScWalk {
    GbScopes *s;
    const char *src;
    bool build;
    int loop_depth;    /* loops entered since the walk started (reset in nested defs) */
    int handler_depth; /* except handlers entered since the walk started */
    int def_depth;     /* nested def/lambda/class bodies entered since the walk started */
    void (*read)(GbScWalk *w, int scope, TSNode id);
    void (*bind)(GbScWalk *w, int scope, TSNode id, unsigned flag);
    void (*fx)(GbScWalk *w, int scope, unsigned flag);
    void *user;
};

static char *gb_sc__text(TSNode n, const char *src)
{
    uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
    return gb_strndup(src + a, b - a);
}

static int gb_sc__enter(GbScWalk *w, int parent, GbScopeKind kind, TSNode node, uint32_t start, uint32_t end,
                        TSNode name)
{
    uint32_t ns = ts_node_start_byte(node), ne = ts_node_end_byte(node);
    if (!w->build) {
        for (size_t i = 0; i < w->s->scopes.len; i++) {
            const GbScope *sc = &w->s->scopes.items[i];
            if (sc->node_start == ns && sc->node_end == ne && sc->kind == kind) return (int)i;
        }
        return parent; /* not found: tree and analysis disagree; stay conservative */
    }
    GbScope sc;
    memset(&sc, 0, sizeof sc);
    sc.kind = kind;
    sc.parent = parent;
    sc.node_start = ns;
    sc.node_end = ne;
    sc.start = start;
    sc.end = end;
    sc.name = ts_node_is_null(name) ? NULL : gb_sc__text(name, w->src);
    gb_array_push(&w->s->scopes, sc);
    return (int)w->s->scopes.len - 1;
}

static void gb_sc__visit(GbScWalk *w, TSNode n, int scope);

static void gb_sc__visit_children(GbScWalk *w, TSNode n, int scope)
{
    uint32_t c = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < c; i++) gb_sc__visit(w, ts_node_named_child(n, i), scope);
}

/* Assignment targets: names bind, attribute/subscript targets read their object. */
static void gb_sc__targets(GbScWalk *w, TSNode n, int scope, unsigned flag)
{
    GbNodeKind t = gb_node_kind(n);
    if (t == GB_NK_IDENTIFIER) {
        w->bind(w, scope, n, flag);
    } else if (t == GB_NK_ATTRIBUTE) {
        gb_sc__visit(w, gb_node_field(n, "object"), scope);
        w->fx(w, scope, GB_FX_ATTR_WRITE);
    } else if (t == GB_NK_SUBSCRIPT) {
        gb_sc__visit_children(w, n, scope);
        w->fx(w, scope, GB_FX_ITEM_WRITE);
    } else if (t == GB_NK_PATTERN_LIST || t == GB_NK_TUPLE_PATTERN || t == GB_NK_LIST_PATTERN || t == GB_NK_TUPLE ||
               t == GB_NK_LIST || t == GB_NK_EXPRESSION_LIST || t == GB_NK_PARENTHESIZED_EXPRESSION ||
               t == GB_NK_LIST_SPLAT_PATTERN || t == GB_NK_LIST_SPLAT || t == GB_NK_AS_PATTERN_TARGET) {
        uint32_t c = ts_node_named_child_count(n);
        for (uint32_t i = 0; i < c; i++) {
            TSNode k = ts_node_named_child(n, i);
            if (!gb_node_is_kind(k, GB_NK_COMMENT)) gb_sc__targets(w, k, scope, flag);
        }
    } else if (t != GB_NK_COMMENT) {
        gb_sc__visit(w, n, scope);
    }
}

/* An `expr as target` (with items, except clauses): visit the expression, bind the target. */
static void gb_sc__as_pattern(GbScWalk *w, TSNode n, int scope)
{
    uint32_t c = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < c; i++) {
        TSNode k = ts_node_named_child(n, i);
        if (gb_node_is_kind(k, GB_NK_AS_PATTERN_TARGET))
            gb_sc__targets(w, k, scope, GB_NAME_ASSIGN);
        else
            gb_sc__visit(w, k, scope);
    }
}

/* match-statement patterns: captures bind, dotted names are values. */
static void gb_sc__pattern(GbScWalk *w, TSNode n, int scope)
{
    GbNodeKind t = gb_node_kind(n);
    if (t == GB_NK_IDENTIFIER) {
        if (!gb_node_is_kind(n, GB_NK_IDENTIFIER) || ts_node_end_byte(n) - ts_node_start_byte(n) != 1 ||
            w->src[ts_node_start_byte(n)] != '_')
            w->bind(w, scope, n, GB_NAME_ASSIGN);
    } else if (t == GB_NK_DOTTED_NAME) {
        if (ts_node_named_child_count(n) == 1)
            gb_sc__pattern(w, ts_node_named_child(n, 0), scope);
        else
            w->read(w, scope, ts_node_named_child(n, 0));
    } else if (t == GB_NK_CLASS_PATTERN) {
        uint32_t c = ts_node_named_child_count(n);
        for (uint32_t i = 0; i < c; i++) {
            TSNode k = ts_node_named_child(n, i);
            if (i == 0 && gb_node_is_kind(k, GB_NK_DOTTED_NAME))
                w->read(w, scope, ts_node_named_child(k, 0));
            else
                gb_sc__pattern(w, k, scope);
        }
    } else if (t == GB_NK_KEYWORD_PATTERN) {
        uint32_t c = ts_node_named_child_count(n);
        for (uint32_t i = 1; i < c; i++) gb_sc__pattern(w, ts_node_named_child(n, i), scope);
    } else if (t == GB_NK_STRING || t == GB_NK_CONCATENATED_STRING) {
        gb_sc__visit(w, n, scope);
    } else {
        uint32_t c = ts_node_named_child_count(n);
        for (uint32_t i = 0; i < c; i++) gb_sc__pattern(w, ts_node_named_child(n, i), scope);
    }
}

/* Parameters: defaults and annotations run in the outer scope, names bind in the inner one. */
static void gb_sc__params_outer(GbScWalk *w, TSNode params, int outer)
{
    if (ts_node_is_null(params)) return;
    uint32_t c = ts_node_named_child_count(params);
    for (uint32_t i = 0; i < c; i++) {
        TSNode p = ts_node_named_child(params, i);
        TSNode v = gb_node_field(p, "value"), ty = gb_node_field(p, "type");
        if (!ts_node_is_null(v)) gb_sc__visit(w, v, outer);
        if (!ts_node_is_null(ty)) gb_sc__visit(w, ty, outer);
        if (gb_node_is_kind(p, GB_NK_TYPED_PARAMETER)) {
            uint32_t k = ts_node_named_child_count(p);
            for (uint32_t j = 0; j < k; j++)
                if (gb_node_is_kind(ts_node_named_child(p, j), GB_NK_TYPE))
                    gb_sc__visit(w, ts_node_named_child(p, j), outer);
        }
    }
}

static void gb_sc__param_names(GbScWalk *w, TSNode n, int inner)
{
    GbNodeKind t = gb_node_kind(n);
    if (t == GB_NK_IDENTIFIER) {
        w->bind(w, inner, n, GB_NAME_PARAM);
        return;
    }
    if (t == GB_NK_DEFAULT_PARAMETER || t == GB_NK_TYPED_DEFAULT_PARAMETER) {
        gb_sc__param_names(w, gb_node_field(n, "name"), inner);
        return;
    }
    if (t == GB_NK_TYPED_PARAMETER || t == GB_NK_LIST_SPLAT_PATTERN || t == GB_NK_DICTIONARY_SPLAT_PATTERN ||
        t == GB_NK_TUPLE_PATTERN || t == GB_NK_PARAMETERS || t == GB_NK_LAMBDA_PARAMETERS) {
        uint32_t c = ts_node_named_child_count(n);
        for (uint32_t i = 0; i < c; i++) {
            TSNode k = ts_node_named_child(n, i);
            if (!gb_node_is_kind(k, GB_NK_TYPE)) gb_sc__param_names(w, k, inner);
        }
    }
}

static bool gb_sc__first_token_is(TSNode n, GbNodeKind tok)
{
    return ts_node_child_count(n) > 0 && gb_node_kind(ts_node_child(n, 0)) == tok;
}

static void gb_sc__nested_body(GbScWalk *w, TSNode body, int inner)
{
    int ld = w->loop_depth, hd = w->handler_depth;
    w->loop_depth = 0;
    w->handler_depth = 0;
    w->def_depth++;
    gb_sc__visit(w, body, inner);
    w->def_depth--;
    w->loop_depth = ld;
    w->handler_depth = hd;
}

static void gb_sc__function(GbScWalk *w, TSNode n, int scope)
{
    TSNode name = gb_node_field(n, "name"), params = gb_node_field(n, "parameters"), body = gb_node_field(n, "body");
    TSNode ret = gb_node_field(n, "return_type");
    if (!ts_node_is_null(name)) w->bind(w, scope, name, GB_NAME_DEF);
    w->fx(w, scope, GB_FX_DEFINES);
    gb_sc__params_outer(w, params, scope);
    if (!ts_node_is_null(ret)) gb_sc__visit(w, ret, scope);
    if (ts_node_is_null(body)) return;
    int inner = gb_sc__enter(w, scope, GB_SCOPE_FUNCTION, n, ts_node_start_byte(body), ts_node_end_byte(body), name);
    if (w->build && gb_sc__first_token_is(n, GB_NK_ASYNC)) w->s->scopes.items[inner].is_async = true;
    if (!ts_node_is_null(params)) gb_sc__param_names(w, params, inner);
    gb_sc__nested_body(w, body, inner);
}

static void gb_sc__class(GbScWalk *w, TSNode n, int scope)
{
    TSNode name = gb_node_field(n, "name"), sup = gb_node_field(n, "superclasses"), body = gb_node_field(n, "body");
    if (!ts_node_is_null(name)) w->bind(w, scope, name, GB_NAME_DEF);
    w->fx(w, scope, GB_FX_DEFINES);
    if (!ts_node_is_null(sup)) gb_sc__visit(w, sup, scope);
    if (ts_node_is_null(body)) return;
    int inner = gb_sc__enter(w, scope, GB_SCOPE_CLASS, n, ts_node_start_byte(body), ts_node_end_byte(body), name);
    gb_sc__nested_body(w, body, inner);
}

static void gb_sc__lambda(GbScWalk *w, TSNode n, int scope)
{
    TSNode params = gb_node_field(n, "parameters"), body = gb_node_field(n, "body");
    TSNode null = {0};
    w->fx(w, scope, GB_FX_DEFINES);
    gb_sc__params_outer(w, params, scope);
    if (ts_node_is_null(body)) return;
    int inner = gb_sc__enter(w, scope, GB_SCOPE_LAMBDA, n, ts_node_start_byte(body), ts_node_end_byte(body), null);
    if (!ts_node_is_null(params)) gb_sc__param_names(w, params, inner);
    gb_sc__nested_body(w, body, inner);
}

static void gb_sc__comprehension(GbScWalk *w, TSNode n, int scope)
{
    TSNode null = {0};
    TSNode first_for = null;
    uint32_t c = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < c && ts_node_is_null(first_for); i++)
        if (gb_node_is_kind(ts_node_named_child(n, i), GB_NK_FOR_IN_CLAUSE)) first_for = ts_node_named_child(n, i);
    w->fx(w, scope, GB_FX_DEFINES);
    /* The first iterable runs in the enclosing scope. */
    uint32_t skip_s = 0, skip_e = 0;
    if (!ts_node_is_null(first_for)) {
        TSNode left = gb_node_field(first_for, "left");
        uint32_t k = ts_node_named_child_count(first_for);
        for (uint32_t j = 0; j < k; j++) {
            TSNode r = ts_node_named_child(first_for, j);
            if (ts_node_eq(r, left) || gb_node_is_kind(r, GB_NK_COMMENT)) continue;
            if (skip_e == 0) skip_s = ts_node_start_byte(r);
            skip_e = ts_node_end_byte(r);
            gb_sc__visit(w, r, scope);
        }
    }
    int inner = gb_sc__enter(w, scope, GB_SCOPE_COMPREHENSION, n, ts_node_start_byte(n), ts_node_end_byte(n), null);
    if (w->build) {
        w->s->scopes.items[inner].skip_start = skip_s;
        w->s->scopes.items[inner].skip_end = skip_e;
    }
    for (uint32_t i = 0; i < c; i++) {
        TSNode k = ts_node_named_child(n, i);
        if (gb_node_is_kind(k, GB_NK_FOR_IN_CLAUSE)) {
            if (gb_sc__first_token_is(k, GB_NK_ASYNC)) w->fx(w, inner, GB_FX_AWAIT);
            TSNode left = gb_node_field(k, "left");
            gb_sc__targets(w, left, inner, GB_NAME_ASSIGN);
            if (!ts_node_eq(k, first_for)) {
                uint32_t m = ts_node_named_child_count(k);
                for (uint32_t j = 0; j < m; j++) {
                    TSNode r = ts_node_named_child(k, j);
                    if (!ts_node_eq(r, left)) gb_sc__visit(w, r, inner);
                }
            }
        } else {
            gb_sc__visit(w, k, inner);
        }
    }
}

/* Nearest scope that is not a comprehension (where a walrus binds). */
static int gb_sc__walrus_scope(const GbScopes *s, int scope)
{
    while (scope > 0 && s->scopes.items[scope].kind == GB_SCOPE_COMPREHENSION) scope = s->scopes.items[scope].parent;
    return scope;
}

static void gb_sc__imports(GbScWalk *w, TSNode n, int scope)
{
    w->fx(w, scope, GB_FX_IMPORT);
    TSNode mod = gb_node_field(n, "module_name");
    bool from = gb_node_is_kind(n, GB_NK_IMPORT_FROM_STATEMENT) || gb_node_is_kind(n, GB_NK_FUTURE_IMPORT_STATEMENT);
    uint32_t c = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < c; i++) {
        TSNode k = ts_node_named_child(n, i);
        if (!ts_node_is_null(mod) && ts_node_eq(k, mod)) continue;
        if (gb_node_is_kind(k, GB_NK_WILDCARD_IMPORT)) {
            w->fx(w, scope, GB_FX_STAR_IMPORT);
            if (w->build) w->s->scopes.items[scope].star_import = true;
        } else if (gb_node_is_kind(k, GB_NK_ALIASED_IMPORT)) {
            w->bind(w, scope, gb_node_field(k, "alias"), GB_NAME_IMPORT);
        } else if (gb_node_is_kind(k, GB_NK_DOTTED_NAME) && ts_node_named_child_count(k) > 0) {
            /* `import a.b` binds a; `from m import b` binds b. */
            TSNode id = from ? ts_node_named_child(k, ts_node_named_child_count(k) - 1) : ts_node_named_child(k, 0);
            w->bind(w, scope, id, GB_NAME_IMPORT);
        }
    }
}

static const char *const gb_sc__dynamic_calls[] = {"eval", "exec", "globals", "locals", "super", "vars"};

/* `a = b`, `a: T = b`, `a: T`: the value and the annotation are read before the targets bind. */
static void gb_sc__assignment(GbScWalk *w, TSNode n, int scope)
{
    TSNode left = gb_node_field(n, "left"), right = gb_node_field(n, "right"), ty = gb_node_field(n, "type");
    if (!ts_node_is_null(right)) gb_sc__visit(w, right, scope);
    if (!ts_node_is_null(ty)) gb_sc__visit(w, ty, scope);
    unsigned flag = ts_node_is_null(right) ? GB_NAME_ANNOTATED : GB_NAME_ASSIGN;
    if (!ts_node_is_null(left)) {
        if (flag == GB_NAME_ANNOTATED && !gb_node_is_kind(left, GB_NK_IDENTIFIER))
            gb_sc__visit(w, left, scope);
        else
            gb_sc__targets(w, left, scope, flag);
    }
}

/* `a += b`: a plain name is read and bound; an attribute or subscript target only reads. */
static void gb_sc__augmented(GbScWalk *w, TSNode n, int scope)
{
    TSNode left = gb_node_field(n, "left"), right = gb_node_field(n, "right");
    if (gb_node_is_kind(left, GB_NK_IDENTIFIER)) {
        w->read(w, scope, left);
        w->bind(w, scope, left, GB_NAME_AUG);
    } else if (!ts_node_is_null(left)) {
        gb_sc__targets(w, left, scope, GB_NAME_ASSIGN);
    }
    gb_sc__visit(w, right, scope);
}

/* A call; calling eval/exec/globals/locals/super/vars by name makes the scope dynamic. */
static void gb_sc__call(GbScWalk *w, TSNode n, int scope)
{
    w->fx(w, scope, GB_FX_CALL);
    TSNode f = gb_node_field(n, "function");
    if (gb_node_is_kind(f, GB_NK_IDENTIFIER)) {
        for (size_t i = 0; i < sizeof gb_sc__dynamic_calls / sizeof *gb_sc__dynamic_calls; i++) {
            uint32_t a = ts_node_start_byte(f), b = ts_node_end_byte(f);
            const char *d = gb_sc__dynamic_calls[i];
            if (strlen(d) == b - a && memcmp(w->src + a, d, b - a) == 0) {
                w->fx(w, scope, GB_FX_DYNAMIC);
                if (w->build) w->s->scopes.items[scope].dynamic = true;
            }
        }
    }
}

/* A match case: its patterns bind, its guard and body are visited. */
static void gb_sc__case_clause(GbScWalk *w, TSNode n, int scope)
{
    uint32_t c = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < c; i++) {
        TSNode k = ts_node_named_child(n, i);
        if (gb_node_is_kind(k, GB_NK_CASE_PATTERN))
            gb_sc__pattern(w, k, scope);
        else
            gb_sc__visit(w, k, scope);
    }
}

/* `del a, (b, c)`: every target is unbound. */
static void gb_sc__delete(GbScWalk *w, TSNode n, int scope)
{
    uint32_t c = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < c; i++) {
        TSNode k = ts_node_named_child(n, i);
        if (gb_node_is_kind(k, GB_NK_EXPRESSION_LIST) || gb_node_is_kind(k, GB_NK_TUPLE) ||
            gb_node_is_kind(k, GB_NK_LIST) || gb_node_is_kind(k, GB_NK_PARENTHESIZED_EXPRESSION)) {
            uint32_t m = ts_node_named_child_count(k);
            for (uint32_t j = 0; j < m; j++) gb_sc__targets(w, ts_node_named_child(k, j), scope, GB_NAME_DEL);
        } else {
            gb_sc__targets(w, k, scope, GB_NAME_DEL);
        }
    }
}

/* An except clause: `as NAME` binds, and the handler body counts as inside a handler (a bare
 * `raise` there re-raises). */
static void gb_sc__except(GbScWalk *w, TSNode n, int scope)
{
    uint32_t c = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < c; i++) {
        TSNode k = ts_node_named_child(n, i);
        if (gb_node_is_kind(k, GB_NK_BLOCK)) {
            w->handler_depth++;
            gb_sc__visit(w, k, scope);
            w->handler_depth--;
        } else if (gb_node_is_kind(k, GB_NK_AS_PATTERN)) {
            gb_sc__as_pattern(w, k, scope);
        } else {
            gb_sc__visit(w, k, scope);
        }
    }
}

/* A for loop: the iterable is read before the target binds; the body is inside a loop. */
static void gb_sc__for(GbScWalk *w, TSNode n, int scope)
{
    if (gb_sc__first_token_is(n, GB_NK_ASYNC)) w->fx(w, scope, GB_FX_AWAIT);
    gb_sc__visit(w, gb_node_field(n, "right"), scope);
    gb_sc__targets(w, gb_node_field(n, "left"), scope, GB_NAME_ASSIGN);
    w->loop_depth++;
    gb_sc__visit(w, gb_node_field(n, "body"), scope);
    w->loop_depth--;
    gb_sc__visit(w, gb_node_field(n, "alternative"), scope);
}

/* `global` and `nonlocal` declarations. */
static void gb_sc__declaration(GbScWalk *w, TSNode n, int scope)
{
    bool global = gb_node_is_kind(n, GB_NK_GLOBAL_STATEMENT);
    w->fx(w, scope, global ? GB_FX_GLOBAL : GB_FX_NONLOCAL);
    uint32_t c = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < c; i++)
        if (gb_node_is_kind(ts_node_named_child(n, i), GB_NK_IDENTIFIER))
            w->bind(w, scope, ts_node_named_child(n, i), global ? GB_NAME_GLOBAL : GB_NAME_NONLOCAL);
}

/* `(name := value)` binds in the nearest enclosing function or module scope. */
static void gb_sc__named_expression(GbScWalk *w, TSNode n, int scope)
{
    gb_sc__visit(w, gb_node_field(n, "value"), scope);
    TSNode name = gb_node_field(n, "name");
    if (!ts_node_is_null(name)) {
        int target = gb_sc__walrus_scope(w->s, scope);
        /* The comprehensions in between refer to the target's variable (CPython makes
         * it a cell of the function, or a global at module level). */
        for (int c = scope; c != target; c = w->s->scopes.items[c].parent)
            w->bind(w, c, name, target == 0 ? GB_NAME_GLOBAL : GB_NAME_NONLOCAL);
        w->bind(w, target, name, GB_NAME_ASSIGN);
    }
}

/* A while loop: the condition, then the body inside a loop, then its else. */
static void gb_sc__while(GbScWalk *w, TSNode n, int scope)
{
    gb_sc__visit(w, gb_node_field(n, "condition"), scope);
    w->loop_depth++;
    gb_sc__visit(w, gb_node_field(n, "body"), scope);
    w->loop_depth--;
    gb_sc__visit(w, gb_node_field(n, "alternative"), scope);
}

static void gb_sc__visit(GbScWalk *w, TSNode n, int scope)
{
    if (ts_node_is_null(n)) return;
    GbNodeKind t = gb_node_kind(n);
    switch (t) {
    case GB_NK_ATTRIBUTE: {
        gb_sc__visit(w, gb_node_field(n, "object"), scope);
        return;
    }
    case GB_NK_ASSIGNMENT: {
        gb_sc__assignment(w, n, scope);
        return;
    }
    case GB_NK_AUGMENTED_ASSIGNMENT: {
        gb_sc__augmented(w, n, scope);
        return;
    }
    case GB_NK_AWAIT: {
        w->fx(w, scope, GB_FX_AWAIT);
        break;
    }
    case GB_NK_ASSERT_STATEMENT: {
        w->fx(w, scope, GB_FX_RAISE);
        break;
    }
    case GB_NK_BREAK_STATEMENT: {
        if (w->loop_depth == 0) w->fx(w, scope, GB_FX_BREAK);
        return;
    }
    case GB_NK_CALL: {
        gb_sc__call(w, n, scope);
        break;
    }
    case GB_NK_CLASS_DEFINITION: {
        gb_sc__class(w, n, scope);
        return;
    }
    case GB_NK_CONTINUE_STATEMENT: {
        if (w->loop_depth == 0) w->fx(w, scope, GB_FX_CONTINUE);
        return;
    }
    case GB_NK_COMMENT:
        return;
    case GB_NK_CASE_CLAUSE: {
        gb_sc__case_clause(w, n, scope);
        return;
    }
    case GB_NK_DELETE_STATEMENT: {
        gb_sc__delete(w, n, scope);
        return;
    }
    case GB_NK_DECORATED_DEFINITION: {
        gb_sc__visit_children(w, n, scope);
        return;
    }
    case GB_NK_DICTIONARY_COMPREHENSION:
    case GB_NK_GENERATOR_EXPRESSION:
    case GB_NK_LIST_COMPREHENSION:
    case GB_NK_SET_COMPREHENSION: {
        gb_sc__comprehension(w, n, scope);
        return;
    }
    case GB_NK_DOTTED_NAME: {
        if (ts_node_named_child_count(n) > 0) w->read(w, scope, ts_node_named_child(n, 0));
        return;
    }
    case GB_NK_EXCEPT_CLAUSE:
    case GB_NK_EXCEPT_GROUP_CLAUSE: {
        gb_sc__except(w, n, scope);
        return;
    }
    case GB_NK_ERROR:
        return;
    case GB_NK_FUNCTION_DEFINITION: {
        gb_sc__function(w, n, scope);
        return;
    }
    case GB_NK_FOR_STATEMENT: {
        gb_sc__for(w, n, scope);
        return;
    }
    case GB_NK_GLOBAL_STATEMENT:
    case GB_NK_NONLOCAL_STATEMENT: {
        gb_sc__declaration(w, n, scope);
        return;
    }
    case GB_NK_IDENTIFIER: {
        w->read(w, scope, n);
        return;
    }
    case GB_NK_FUTURE_IMPORT_STATEMENT:
    case GB_NK_IMPORT_STATEMENT:
    case GB_NK_IMPORT_FROM_STATEMENT: {
        gb_sc__imports(w, n, scope);
        return;
    }
    case GB_NK_KEYWORD_ARGUMENT: {
        gb_sc__visit(w, gb_node_field(n, "value"), scope);
        return;
    }
    case GB_NK_LAMBDA: {
        gb_sc__lambda(w, n, scope);
        return;
    }
    case GB_NK_NAMED_EXPRESSION: {
        gb_sc__named_expression(w, n, scope);
        return;
    }
    case GB_NK_RETURN_STATEMENT: {
        w->fx(w, scope, GB_FX_RETURN);
        break;
    }
    case GB_NK_RAISE_STATEMENT: {
        w->fx(w, scope, GB_FX_RAISE);
        if (ts_node_named_child_count(n) == 0 && w->handler_depth == 0) w->fx(w, scope, GB_FX_BARE_RAISE);
        break;
    }
    case GB_NK_WHILE_STATEMENT: {
        gb_sc__while(w, n, scope);
        return;
    }
    case GB_NK_WITH_STATEMENT: {
        if (gb_sc__first_token_is(n, GB_NK_ASYNC)) w->fx(w, scope, GB_FX_AWAIT);
        break;
    }
    case GB_NK_WITH_ITEM: {
        TSNode v = gb_node_field(n, "value");
        if (gb_node_is_kind(v, GB_NK_AS_PATTERN))
            gb_sc__as_pattern(w, v, scope);
        else
            gb_sc__visit(w, v, scope);
        return;
    }
    case GB_NK_YIELD: {
        w->fx(w, scope, GB_FX_YIELD);
        break;
    }
    default:
        break;
    }
    gb_sc__visit_children(w, n, scope);
}

/* ---- Build ---- */

static void gb_sc__build_read(GbScWalk *w, int scope, TSNode id)
{
    char *name = gb_sc__text(id, w->src);
    gb_scope__name_add(&w->s->scopes.items[scope], name)->flags |= GB_NAME_READ;
    free(name);
}

static void gb_sc__build_bind(GbScWalk *w, int scope, TSNode id, unsigned flag)
{
    char *name = gb_sc__text(id, w->src);
    unsigned f = flag;
    if (flag == GB_NAME_AUG) f |= GB_NAME_READ | GB_NAME_ASSIGN;
    gb_scope__name_add(&w->s->scopes.items[scope], name)->flags |= f;
    free(name);
}

static void gb_sc__build_fx(GbScWalk *w, int scope, unsigned flag)
{
    GbScope *sc = &w->s->scopes.items[scope];
    if (flag == GB_FX_YIELD && (sc->kind == GB_SCOPE_FUNCTION || sc->kind == GB_SCOPE_LAMBDA)) sc->is_generator = true;
}

GbScopes *gb_scopes_new(TSTree *tree, const char *src)
{
    GbScopes *s = gb_calloc(1, sizeof *s);
    TSNode root = ts_tree_root_node(tree);
    GbScope mod;
    memset(&mod, 0, sizeof mod);
    mod.kind = GB_SCOPE_MODULE;
    mod.parent = -1;
    mod.node_start = mod.start = ts_node_start_byte(root);
    mod.node_end = mod.end = ts_node_end_byte(root);
    /* The module covers the whole text, including leading and trailing trivia. */
    mod.node_start = mod.start = 0;
    {
        uint32_t len = (uint32_t)strlen(src);
        if (mod.end < len) mod.node_end = mod.end = len;
    }
    gb_array_push(&s->scopes, mod);
    GbScWalk w;
    memset(&w, 0, sizeof w);
    w.s = s;
    w.src = src;
    w.build = true;
    w.read = gb_sc__build_read;
    w.bind = gb_sc__build_bind;
    w.fx = gb_sc__build_fx;
    gb_sc__visit_children(&w, root, 0);

    /* Cells: a name a nested scope reads, writes or declares nonlocal that resolves to an
     * enclosing function's local. */
    for (size_t i = 1; i < s->scopes.len; i++) {
        GbScope *sc = &s->scopes.items[i];
        for (size_t j = 0; j < sc->names.len; j++) {
            int d;
            GbResolution r = gb_scopes_resolve(s, (int)i, sc->names.items[j].name, &d);
            if (r == GB_RESOLVE_FREE && d != (int)i) {
                GbScopeName *target = gb_scope__name_add(&s->scopes.items[d], s->scopes.items[i].names.items[j].name);
                target->flags |= GB_NAME_CAPTURED;
                sc = &s->scopes.items[i];
            }
        }
    }
    return s;
}

/* ---- Effects ---- */

typedef struct {
    GbEffects *out;
    int base;
    uint32_t node_start, node_end;
} GbScFx;

/* True when scope d was created by code inside the analysed node. */
static bool gb_sc__inner(const GbScWalk *w, const GbScFx *f, int d)
{
    const GbScope *sc = &w->s->scopes.items[d];
    return d != f->base && sc->node_start >= f->node_start && sc->node_end <= f->node_end;
}

/* True when scope runs as part of the base scope's code (itself or comprehensions inside it). */
static bool gb_sc__same_frame(const GbScWalk *w, const GbScFx *f, int scope)
{
    while (scope != f->base && scope > 0 && w->s->scopes.items[scope].kind == GB_SCOPE_COMPREHENSION)
        scope = w->s->scopes.items[scope].parent;
    return scope == f->base;
}

static void gb_sc__fx_read(GbScWalk *w, int scope, TSNode id)
{
    GbScFx *f = w->user;
    char *name = gb_sc__text(id, w->src);
    int d;
    if (scope == f->base)
        gb_names_add(&f->out->reads, name);
    else {
        gb_scopes_resolve(w->s, scope, name, &d);
        if (!gb_sc__inner(w, f, d)) gb_names_add(&f->out->reads, name);
    }
    free(name);
}

static void gb_sc__fx_bind(GbScWalk *w, int scope, TSNode id, unsigned flag)
{
    GbScFx *f = w->user;
    char *name = gb_sc__text(id, w->src);
    if (flag == GB_NAME_GLOBAL || flag == GB_NAME_NONLOCAL) {
        if (scope == f->base) f->out->flags |= flag == GB_NAME_GLOBAL ? GB_FX_GLOBAL : GB_FX_NONLOCAL;
    } else if (scope == f->base) {
        gb_names_add(&f->out->writes, name);
        if (flag == GB_NAME_DEL) f->out->flags |= GB_FX_DEL;
    } else {
        int d;
        gb_scopes_resolve(w->s, scope, name, &d);
        if (!gb_sc__inner(w, f, d)) gb_names_add(&f->out->writes, name);
    }
    free(name);
}

static void gb_sc__fx_fx(GbScWalk *w, int scope, unsigned flag)
{
    GbScFx *f = w->user;
    unsigned frame_only = GB_FX_YIELD | GB_FX_AWAIT | GB_FX_RETURN | GB_FX_BREAK | GB_FX_CONTINUE | GB_FX_BARE_RAISE |
                          GB_FX_GLOBAL | GB_FX_NONLOCAL;
    if ((flag & frame_only) && !gb_sc__same_frame(w, f, scope)) return;
    if ((flag & (GB_FX_BREAK | GB_FX_CONTINUE | GB_FX_BARE_RAISE)) && w->def_depth > 0) return;
    f->out->flags |= flag;
}

static void gb_sc__lookup_walk(const GbScopes *s, const char *src, GbScWalk *w)
{
    memset(w, 0, sizeof *w);
    w->s = (GbScopes *)s; /* lookup mode never modifies it */
    w->src = src;
    w->build = false;
}

void gb_scopes_effects(const GbScopes *s, const char *src, TSNode node, GbEffects *out)
{
    GbScWalk w;
    gb_sc__lookup_walk(s, src, &w);
    GbScFx f = {out, gb_scopes_at(s, ts_node_start_byte(node)), ts_node_start_byte(node), ts_node_end_byte(node)};
    w.user = &f;
    w.read = gb_sc__fx_read;
    w.bind = gb_sc__fx_bind;
    w.fx = gb_sc__fx_fx;
    gb_sc__visit(&w, node, f.base);
}

/* ---- Liveness ---- */

typedef struct {
    int scope;                /* the function scope */
    const char *const *names; /* candidates */
    size_t n;
    uint32_t from;           /* reads at or after this position count */
    uint32_t skip_s, skip_e; /* except reads in this range (the statements themselves) */
    bool *live;
} GbScLive;

static void gb_sc__live_read(GbScWalk *w, int scope, TSNode id)
{
    GbScLive *l = w->user;
    uint32_t pos = ts_node_start_byte(id);
    if (pos < l->from || (pos >= l->skip_s && pos < l->skip_e)) return;
    char *name = gb_sc__text(id, w->src);
    for (size_t i = 0; i < l->n; i++) {
        if (l->live[i] || strcmp(l->names[i], name) != 0) continue;
        int d;
        GbResolution r = gb_scopes_resolve(w->s, scope, name, &d);
        if ((r == GB_RESOLVE_LOCAL || r == GB_RESOLVE_FREE) && d == l->scope) l->live[i] = true;
    }
    free(name);
}

static void gb_sc__live_bind(GbScWalk *w, int scope, TSNode id, unsigned flag)
{
    /* An augmented assignment reads too; the read callback sees it. del also needs the value
     * to exist, so treat it as a read. */
    if (flag == GB_NAME_DEL) gb_sc__live_read(w, scope, id);
}

static void gb_sc__live_fx(GbScWalk *w, int scope, unsigned flag)
{
    (void)w;
    (void)scope;
    (void)flag;
}

void gb_scopes_live_after(const GbScopes *s, const char *src, TSNode first, TSNode last, const char *const *candidates,
                          size_t n_candidates, GbNames *out)
{
    int scope = gb_scopes_at(s, ts_node_start_byte(first));
    const GbScope *sc = &s->scopes.items[scope];
    bool *live = gb_calloc(n_candidates ? n_candidates : 1, sizeof *live);
    bool all = sc->kind == GB_SCOPE_MODULE || sc->kind == GB_SCOPE_CLASS || sc->dynamic;
    for (size_t i = 0; i < n_candidates && !all; i++) {
        const GbScopeName *n = gb_scope_name(sc, candidates[i]);
        int d;
        GbResolution r = gb_scopes_resolve(s, scope, candidates[i], &d);
        if (r != GB_RESOLVE_LOCAL || (n && (n->flags & GB_NAME_CAPTURED))) live[i] = true;
    }
    if (!all) {
        /* The function node: walk up from first to the node whose range is the scope's. */
        TSNode fn = first;
        TSNode loop = {0};
        while (!ts_node_is_null(fn) &&
               !(ts_node_start_byte(fn) == sc->node_start && ts_node_end_byte(fn) == sc->node_end)) {
            GbNodeKind t = gb_node_kind(fn);
            if (t == GB_NK_FOR_STATEMENT || t == GB_NK_WHILE_STATEMENT) loop = fn;
            if ((t == GB_NK_LIST_COMPREHENSION || t == GB_NK_GENERATOR_EXPRESSION || t == GB_NK_SET_COMPREHENSION ||
                 t == GB_NK_DICTIONARY_COMPREHENSION) &&
                !ts_node_eq(fn, first))
                loop = fn;
            fn = ts_node_parent(fn);
        }
        if (ts_node_is_null(fn)) {
            all = true;
        } else {
            GbScLive l = {scope, candidates, n_candidates, ts_node_end_byte(last), 0, 0, live};
            if (!ts_node_is_null(loop)) l.from = ts_node_start_byte(loop);
            GbScWalk w;
            gb_sc__lookup_walk(s, src, &w);
            w.user = &l;
            w.read = gb_sc__live_read;
            w.bind = gb_sc__live_bind;
            w.fx = gb_sc__live_fx;
            gb_sc__visit(&w, fn, sc->parent >= 0 ? sc->parent : 0);
        }
    }
    for (size_t i = 0; i < n_candidates; i++)
        if (all || live[i]) gb_names_add(out, candidates[i]);
    free(live);
}

/* ---- Occurrences ---- */

static void gb_sc__occ_add(GbScWalk *w, int scope, TSNode id, unsigned flag)
{
    GbOccurrences *out = w->user;
    GbOccurrence o = {scope, ts_node_start_byte(id), ts_node_end_byte(id), flag};
    gb_array_push(out, o);
}

static void gb_sc__occ_read(GbScWalk *w, int scope, TSNode id)
{
    gb_sc__occ_add(w, scope, id, GB_NAME_READ);
}

static void gb_sc__occ_fx(GbScWalk *w, int scope, unsigned flag)
{
    (void)w;
    (void)scope;
    (void)flag;
}

void gb_scopes_occurrences(const GbScopes *s, const char *src, TSNode root, GbOccurrences *out)
{
    GbScWalk w;
    gb_sc__lookup_walk(s, src, &w);
    w.user = out;
    w.read = gb_sc__occ_read;
    w.bind = gb_sc__occ_add;
    w.fx = gb_sc__occ_fx;
    gb_sc__visit_children(&w, root, 0);
}
