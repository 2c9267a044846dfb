/* M4 return: change a returned value to another of the same plausible type, found by a
 * small type inference. */
#include "src/inject/mutate_private.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "src/python/pyparse.h"

typedef enum { GB_K_UNKNOWN, GB_K_BOOL, GB_K_NUM, GB_K_STR, GB_K_NONE, GB_K_SELF, GB_K_LIST } GbMutKind;

typedef struct {
    const char *names[8]; /* variables being resolved (borrowed) */
    uint32_t scopes[8];   /* start byte of the scope each is resolved in */
    size_t n;
} GbMutResolving;

static GbMutKind gb_mutate__expr_kind(const GbMutCtx *c, TSNode e, GbMutResolving *r);

static bool gb_mutate__name_in(const char *name, const char *const *list)
{
    for (size_t i = 0; list[i]; i++)
        if (strcmp(name, list[i]) == 0) return true;
    return false;
}

static GbMutKind gb_mutate__call_kind(const GbMutCtx *c, TSNode call)
{
    static const char *const bool_funcs[] = {"bool", "isinstance", "issubclass", "all",
                                             "any",  "hasattr",    "callable",   NULL};
    static const char *const num_funcs[] = {"len", "int", "float", "abs", "round", "ord", "sum", "hash", NULL};
    static const char *const str_funcs[] = {"str", "chr", "repr", "format", "hex", "bin", "oct", "ascii", NULL};
    static const char *const list_funcs[] = {"list", "sorted", NULL};
    static const char *const bool_methods[] = {"startswith", "endswith",     "isdigit",     "isalpha", "isalnum",
                                               "isnumeric",  "isdecimal",    "isupper",     "islower", "isspace",
                                               "istitle",    "isidentifier", "isprintable", "isascii", "issubset",
                                               "issuperset", "isdisjoint",   "is_integer",  NULL};
    static const char *const num_methods[] = {"count", "index", "find", "rfind", "bit_length", NULL};
    static const char *const str_methods[] = {"join",   "upper",  "lower",      "strip",    "lstrip",
                                              "rstrip", "title",  "capitalize", "casefold", "swapcase",
                                              "zfill",  "center", "ljust",      "rjust",    NULL};
    static const char *const list_methods[] = {"split", "rsplit", "splitlines", NULL};
    TSNode f = gb_mutate__field(call, "function");
    GbMutKind k = GB_K_UNKNOWN;
    if (gb_node_is_kind(f, GB_NK_IDENTIFIER)) {
        char *name = gb_node_text(f, c->src);
        k = gb_mutate__name_in(name, bool_funcs)   ? GB_K_BOOL
            : gb_mutate__name_in(name, num_funcs)  ? GB_K_NUM
            : gb_mutate__name_in(name, str_funcs)  ? GB_K_STR
            : gb_mutate__name_in(name, list_funcs) ? GB_K_LIST
                                                   : GB_K_UNKNOWN;
        free(name);
    } else if (gb_node_is_kind(f, GB_NK_ATTRIBUTE)) {
        char *name = gb_node_text(gb_mutate__field(f, "attribute"), c->src);
        k = gb_mutate__name_in(name, bool_methods)   ? GB_K_BOOL
            : gb_mutate__name_in(name, num_methods)  ? GB_K_NUM
            : gb_mutate__name_in(name, str_methods)  ? GB_K_STR
            : gb_mutate__name_in(name, list_methods) ? GB_K_LIST
                                                     : GB_K_UNKNOWN;
        free(name);
    }
    return k;
}

static GbMutKind gb_mutate__annotation_kind(const GbMutCtx *c, TSNode type)
{
    size_t a = ts_node_start_byte(type), b = ts_node_end_byte(type);
    char *t = gb_mutate_normalise(c->src + a, b - a);
    GbMutKind k = strcmp(t, "bool") == 0                               ? GB_K_BOOL
                  : (strcmp(t, "int") == 0 || strcmp(t, "float") == 0) ? GB_K_NUM
                  : strcmp(t, "str") == 0                              ? GB_K_STR
                  : (strcmp(t, "list") == 0 || strcmp(t, "List") == 0 || strncmp(t, "list[", 5) == 0 ||
                     strncmp(t, "List[", 5) == 0)
                      ? GB_K_LIST
                      : GB_K_UNKNOWN;
    free(t);
    return k;
}

/* Kinds of several bindings of one variable: all must agree. */
typedef struct {
    GbMutKind kind;
    bool any, conflict;
} GbMutAcc;

static void gb_mutate__acc(GbMutAcc *acc, GbMutKind k)
{
    if (k == GB_K_SELF) return; /* `x = x + 1` says nothing new about x */
    if (k == GB_K_UNKNOWN) {
        acc->conflict = true;
    } else if (!acc->any) {
        acc->kind = k;
        acc->any = true;
    } else if (acc->kind != k) {
        acc->conflict = true;
    }
}

static bool gb_mutate__ident_is(const GbMutCtx *c, TSNode n, const char *name)
{
    return gb_node_is_kind(n, GB_NK_IDENTIFIER) && gb_node_text_eq(n, c->src, name);
}

/* Does a binding target (pattern) bind name? Attributes and subscripts do not. */
static bool gb_mutate__pattern_binds(const GbMutCtx *c, TSNode p, const char *name)
{
    if (gb_node_is_kind(p, GB_NK_IDENTIFIER)) return gb_mutate__ident_is(c, p, name);
    if (gb_node_is_kind(p, GB_NK_ATTRIBUTE) || gb_node_is_kind(p, GB_NK_SUBSCRIPT)) return false;
    for (uint32_t i = 0; i < ts_node_named_child_count(p); i++)
        if (gb_mutate__pattern_binds(c, ts_node_named_child(p, i), name)) return true;
    return false;
}

static bool gb_mutate__mentions(const GbMutCtx *c, TSNode n, const char *name)
{
    if (gb_mutate__ident_is(c, n, name)) return true;
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
        if (gb_mutate__mentions(c, ts_node_named_child(n, i), name)) return true;
    return false;
}

static void gb_mutate__bindings(const GbMutCtx *c, TSNode n, const char *name, GbMutAcc *acc, GbMutResolving *r)
{
    static const char *const scopes[] = {
        "lambda", "list_comprehension", "set_comprehension", "dictionary_comprehension", "generator_expression", NULL};
    if (gb_mutate__is_any(n, scopes)) return;
    if (gb_node_is_kind(n, GB_NK_FUNCTION_DEFINITION) || gb_node_is_kind(n, GB_NK_CLASS_DEFINITION)) {
        if (gb_mutate__ident_is(c, gb_mutate__field(n, "name"), name)) gb_mutate__acc(acc, GB_K_UNKNOWN);
        return;
    }
    if (gb_node_is_kind(n, GB_NK_ASSIGNMENT)) {
        TSNode left = gb_mutate__field(n, "left");
        if (gb_mutate__ident_is(c, left, name)) {
            TSNode type = gb_mutate__field(n, "type"), right = gb_mutate__field(n, "right");
            while (gb_node_is_kind(right, GB_NK_ASSIGNMENT)) right = gb_mutate__field(right, "right");
            if (!ts_node_is_null(type))
                gb_mutate__acc(acc, gb_mutate__annotation_kind(c, type));
            else if (!ts_node_is_null(right))
                gb_mutate__acc(acc, gb_mutate__expr_kind(c, right, r));
        } else if (!ts_node_is_null(left) && gb_mutate__pattern_binds(c, left, name)) {
            gb_mutate__acc(acc, GB_K_UNKNOWN);
        }
    } else if (gb_node_is_kind(n, GB_NK_AUGMENTED_ASSIGNMENT)) {
        TSNode left = gb_mutate__field(n, "left");
        if (gb_mutate__ident_is(c, left, name)) {
            GbNodeKind op = gb_node_kind(gb_mutate__field(n, "operator"));
            GbMutKind rk = gb_mutate__expr_kind(c, gb_mutate__field(n, "right"), r);
            if (op == GB_NK_PLUS_EQ && (rk == GB_K_NUM || rk == GB_K_STR || rk == GB_K_LIST))
                gb_mutate__acc(acc, rk);
            else if (rk == GB_K_NUM && (op == GB_NK_MINUS_EQ || op == GB_NK_SLASH_EQ || op == GB_NK_SLASH_SLASH_EQ ||
                                        op == GB_NK_PERCENT_EQ || op == GB_NK_STAR_STAR_EQ || op == GB_NK_STAR_EQ))
                gb_mutate__acc(acc, GB_K_NUM);
            else
                gb_mutate__acc(acc, GB_K_UNKNOWN);
        }
    } else if (gb_node_is_kind(n, GB_NK_FOR_STATEMENT)) {
        TSNode left = gb_mutate__field(n, "left"), right = gb_mutate__field(n, "right");
        if (gb_mutate__pattern_binds(c, left, name)) {
            bool range = gb_node_is_kind(left, GB_NK_IDENTIFIER) && gb_node_is_kind(right, GB_NK_CALL) &&
                         gb_mutate__ident_is(c, gb_mutate__field(right, "function"), "range");
            gb_mutate__acc(acc, range ? GB_K_NUM : GB_K_UNKNOWN);
        }
    } else if (gb_node_is_kind(n, GB_NK_NAMED_EXPRESSION)) {
        if (gb_mutate__ident_is(c, gb_mutate__field(n, "name"), name))
            gb_mutate__acc(acc, gb_mutate__expr_kind(c, gb_mutate__field(n, "value"), r));
    } else if (gb_node_is_kind(n, GB_NK_AS_PATTERN)) {
        TSNode alias = gb_mutate__field(n, "alias");
        if (!ts_node_is_null(alias) && gb_mutate__mentions(c, alias, name)) gb_mutate__acc(acc, GB_K_UNKNOWN);
    } else if (gb_node_is_kind(n, GB_NK_IMPORT_STATEMENT) || gb_node_is_kind(n, GB_NK_IMPORT_FROM_STATEMENT) ||
               gb_node_is_kind(n, GB_NK_GLOBAL_STATEMENT) || gb_node_is_kind(n, GB_NK_NONLOCAL_STATEMENT) ||
               gb_node_is_kind(n, GB_NK_CASE_PATTERN)) {
        if (gb_mutate__mentions(c, n, name)) gb_mutate__acc(acc, GB_K_UNKNOWN);
        return;
    }
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
        gb_mutate__bindings(c, ts_node_named_child(n, i), name, acc, r);
}

/* The function that encloses n (its scope), or the module root. Class bodies are not
 * scopes their methods can see, so they are skipped. */
static TSNode gb_mutate__scope_of(const GbMutCtx *c, TSNode n)
{
    for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); p = ts_node_parent(p))
        if (gb_node_is_kind(p, GB_NK_FUNCTION_DEFINITION)) return p;
    return c->root;
}

static GbMutKind gb_mutate__var_kind(const GbMutCtx *c, const char *name, TSNode scope, GbMutResolving *r)
{
    uint32_t key = ts_node_start_byte(scope);
    for (size_t i = 0; i < r->n; i++)
        if (r->scopes[i] == key && strcmp(r->names[i], name) == 0) return GB_K_SELF;
    if (r->n == sizeof r->names / sizeof r->names[0]) return GB_K_UNKNOWN;
    r->names[r->n] = name;
    r->scopes[r->n] = key;
    r->n++;

    GbMutAcc acc = {GB_K_UNKNOWN, false, false};
    bool is_function = gb_node_is_kind(scope, GB_NK_FUNCTION_DEFINITION);
    if (is_function) {
        TSNode params = gb_mutate__field(scope, "parameters");
        for (uint32_t i = 0; i < ts_node_named_child_count(params); i++) {
            TSNode p = ts_node_named_child(params, i);
            if (gb_node_is_kind(p, GB_NK_TYPED_PARAMETER) || gb_node_is_kind(p, GB_NK_TYPED_DEFAULT_PARAMETER)) {
                TSNode id = gb_node_is_kind(p, GB_NK_TYPED_DEFAULT_PARAMETER) ? gb_mutate__field(p, "name")
                                                                              : ts_node_named_child(p, 0);
                if (gb_mutate__ident_is(c, id, name))
                    gb_mutate__acc(&acc, gb_mutate__annotation_kind(c, gb_mutate__field(p, "type")));
            } else if (gb_node_is_kind(p, GB_NK_DEFAULT_PARAMETER)) {
                if (gb_mutate__ident_is(c, gb_mutate__field(p, "name"), name)) gb_mutate__acc(&acc, GB_K_UNKNOWN);
            } else if (gb_mutate__mentions(c, p, name)) {
                gb_mutate__acc(&acc, GB_K_UNKNOWN);
            }
        }
        gb_mutate__bindings(c, gb_mutate__field(scope, "body"), name, &acc, r);
    } else {
        for (uint32_t i = 0; i < ts_node_named_child_count(scope); i++)
            gb_mutate__bindings(c, ts_node_named_child(scope, i), name, &acc, r);
    }

    GbMutKind k;
    if (acc.conflict)
        k = GB_K_UNKNOWN;
    else if (acc.any)
        k = acc.kind;
    else if (is_function)
        k = gb_mutate__var_kind(c, name, gb_mutate__scope_of(c, scope), r); /* a free variable */
    else
        k = GB_K_UNKNOWN; /* a builtin or undefined name */
    r->n--;
    return k;
}

static bool gb_mutate__is_bytes(const GbMutCtx *c, TSNode s)
{
    TSNode start = ts_node_child(s, 0);
    if (!gb_node_is_kind(start, GB_NK_STRING_START)) return false;
    for (uint32_t i = ts_node_start_byte(start); i < ts_node_end_byte(start); i++)
        if (c->src[i] == 'b' || c->src[i] == 'B') return true;
    return false;
}

static GbMutKind gb_mutate__expr_kind(const GbMutCtx *c, TSNode e, GbMutResolving *r)
{
    e = gb_mutate__unparen(e);
    if (ts_node_is_null(e)) return GB_K_UNKNOWN;
    if (gb_node_is_kind(e, GB_NK_TRUE) || gb_node_is_kind(e, GB_NK_FALSE)) return GB_K_BOOL;
    if (gb_node_is_kind(e, GB_NK_NONE)) return GB_K_NONE;
    if (gb_node_is_kind(e, GB_NK_COMPARISON_OPERATOR) || gb_node_is_kind(e, GB_NK_NOT_OPERATOR)) return GB_K_BOOL;
    double v;
    if (gb_mutate__numeric_value(c, e, &v)) return GB_K_NUM;
    if (gb_node_is_kind(e, GB_NK_STRING)) return gb_mutate__is_bytes(c, e) ? GB_K_UNKNOWN : GB_K_STR;
    if (gb_node_is_kind(e, GB_NK_CONCATENATED_STRING))
        return gb_mutate__is_bytes(c, ts_node_named_child(e, 0)) ? GB_K_UNKNOWN : GB_K_STR;
    if (gb_node_is_kind(e, GB_NK_LIST) || gb_node_is_kind(e, GB_NK_LIST_COMPREHENSION)) return GB_K_LIST;
    if (gb_node_is_kind(e, GB_NK_CALL)) return gb_mutate__call_kind(c, e);
    if (gb_node_is_kind(e, GB_NK_IDENTIFIER)) {
        char *name = gb_node_text(e, c->src);
        GbMutKind k = gb_mutate__var_kind(c, name, gb_mutate__scope_of(c, e), r);
        free(name);
        return k;
    }
    if (gb_node_is_kind(e, GB_NK_BOOLEAN_OPERATOR)) {
        /* `a or b` returns an operand: bool only when both operands are. */
        GbMutKind l = gb_mutate__expr_kind(c, gb_mutate__field(e, "left"), r);
        GbMutKind rr = gb_mutate__expr_kind(c, gb_mutate__field(e, "right"), r);
        if ((l == GB_K_BOOL || l == GB_K_SELF) && (rr == GB_K_BOOL || rr == GB_K_SELF) &&
            !(l == GB_K_SELF && rr == GB_K_SELF))
            return GB_K_BOOL;
        return GB_K_UNKNOWN;
    }
    if (gb_node_is_kind(e, GB_NK_UNARY_OPERATOR)) {
        GbMutKind a = gb_mutate__expr_kind(c, gb_mutate__field(e, "argument"), r);
        return a == GB_K_NUM ? GB_K_NUM : a == GB_K_SELF ? GB_K_SELF : GB_K_UNKNOWN;
    }
    if (gb_node_is_kind(e, GB_NK_BINARY_OPERATOR)) {
        GbNodeKind op = gb_node_kind(gb_mutate__field(e, "operator"));
        GbMutKind l = gb_mutate__expr_kind(c, gb_mutate__field(e, "left"), r);
        GbMutKind rr = gb_mutate__expr_kind(c, gb_mutate__field(e, "right"), r);
        bool arith = gb_mutate__is_any(gb_mutate__field(e, "operator"), gb_mutate__arith_ops) ||
                     op == GB_NK_STAR_STAR || op == GB_NK_LSHIFT || op == GB_NK_RSHIFT;
        if (l == GB_K_SELF && rr == GB_K_SELF) return GB_K_SELF;
        if (l == GB_K_SELF) l = rr;
        if (rr == GB_K_SELF) rr = l;
        if (arith && l == GB_K_NUM && rr == GB_K_NUM) return GB_K_NUM;
        if (op == GB_NK_PLUS && l == GB_K_STR && rr == GB_K_STR) return GB_K_STR;
        if (op == GB_NK_PLUS && l == GB_K_LIST && rr == GB_K_LIST) return GB_K_LIST;
        if (op == GB_NK_STAR && ((l == GB_K_STR && rr == GB_K_NUM) || (l == GB_K_NUM && rr == GB_K_STR)))
            return GB_K_STR;
        if (op == GB_NK_PERCENT && l == GB_K_STR) return GB_K_STR;
        return GB_K_UNKNOWN;
    }
    if (gb_node_is_kind(e, GB_NK_CONDITIONAL_EXPRESSION)) {
        /* body if condition else alternative: named children 0 and 2. */
        if (ts_node_named_child_count(e) < 3) return GB_K_UNKNOWN;
        GbMutKind a = gb_mutate__expr_kind(c, ts_node_named_child(e, 0), r);
        GbMutKind b = gb_mutate__expr_kind(c, ts_node_named_child(e, 2), r);
        if (a == GB_K_SELF) a = b;
        if (b == GB_K_SELF) b = a;
        return a == b ? a : GB_K_UNKNOWN;
    }
    return GB_K_UNKNOWN;
}

static void gb_mutate__add_suffix(const GbMutCtx *c, GbMutSite *site, const char *label, TSNode e, const char *suffix)
{
    size_t a = ts_node_start_byte(e), b = ts_node_end_byte(e);
    if (gb_mutate__is_primary(e)) {
        gb_mutate__add_replace(c, site, label, b, b, suffix);
    } else {
        char *after = gb_asprintf(")%s", suffix);
        gb_mutate__add_wrap(c, site, label, a, b, "(", after);
        free(after);
    }
}

void gb_mutate__variants_return(const GbMutCtx *c, const GbMutCand *cd, GbMutSite *site)
{
    TSNode v = cd->node;
    TSNode inner = gb_mutate__unparen(v);
    if (gb_node_is_kind(v, GB_NK_EXPRESSION_LIST) || gb_node_is_kind(inner, GB_NK_NONE)) return;
    if (gb_node_is_kind(inner, GB_NK_TRUE)) {
        gb_mutate__add_replace(c, site, "false", ts_node_start_byte(inner), ts_node_end_byte(inner), "False");
        return;
    }
    if (gb_node_is_kind(inner, GB_NK_FALSE)) {
        gb_mutate__add_replace(c, site, "true", ts_node_start_byte(inner), ts_node_end_byte(inner), "True");
        return;
    }
    double num;
    if (gb_mutate__numeric_value(c, inner, &num)) {
        gb_mutate__variants_number(c, inner, site, true);
        return;
    }
    if (gb_node_is_kind(inner, GB_NK_STRING) && !gb_mutate__is_bytes(c, inner)) {
        gb_mutate__variants_string(c, inner, site);
        return;
    }
    GbMutResolving r = {{0}, {0}, 0};
    switch (gb_mutate__expr_kind(c, v, &r)) {
    case GB_K_BOOL:
        if (gb_node_is_kind(inner, GB_NK_NOT_OPERATOR)) {
            TSNode arg = gb_mutate__field(inner, "argument");
            GbMutResolving r2 = {{0}, {0}, 0};
            size_t a = ts_node_start_byte(inner), b = ts_node_end_byte(inner);
            if (gb_mutate__expr_kind(c, arg, &r2) == GB_K_BOOL) {
                gb_mutate__add_replace(c, site, "unnegate", a, ts_node_start_byte(arg), "");
            } else {
                /* `not x` -> `bool(x)`: still a bool, whatever x is. */
                GbMutEdit close = gb_mutate__edit(c, b, b, ")");
                gb_mutate__add_variant(c, site, gb_strdup("bool"),
                                       gb_mutate__edit(c, a, ts_node_start_byte(arg), "bool("), &close);
            }
        } else {
            gb_mutate__add_negation(c, site, v, "not", "unnegate");
        }
        break;
    case GB_K_NUM:
        gb_mutate__add_suffix(c, site, "plus1", v, " + 1");
        gb_mutate__add_suffix(c, site, "minus1", v, " - 1");
        break;
    case GB_K_STR:
    case GB_K_LIST:
        gb_mutate__add_suffix(c, site, "drop-first", v, "[1:]");
        break;
    default:
        break;
    }
}

/* M4 candidates at n: the value of a return statement. */
void gb_mutate__cands_return(TSNode n, GbMutCands *out)
{
    if (!gb_node_is_kind(n, GB_NK_RETURN_STATEMENT)) return;
    TSNode null = {0};
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++) {
        TSNode ch = ts_node_named_child(n, i);
        if (gb_node_is_kind(ch, GB_NK_COMMENT)) continue;
        gb_mutate__push_cand(out, ch, null, null, 0, NULL);
        break;
    }
}
