#include "operators/infer.h"

#include <stdlib.h>
#include <string.h>

#include "src/python/pyparse.h"

static int gb_ty__var_cmp(const GbTypedVar *a, const char *name, int scope)
{
    int c = strcmp(a->name, name);
    if (c) return c;
    return a->scope < scope ? -1 : a->scope > scope;
}

static GbTypedVar *gb_ty__find(const GbTypes *t, const char *name, int scope)
{
    size_t lo = 0, hi = t->vars.len;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = gb_ty__var_cmp(&t->vars.items[mid], name, scope);
        if (c == 0) return &t->vars.items[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

static void gb_ty__ensure(GbTypes *t, const char *name, int scope)
{
    size_t lo = 0, hi = t->vars.len;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = gb_ty__var_cmp(&t->vars.items[mid], name, scope);
        if (c == 0) return;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    gb_array_reserve(&t->vars, t->vars.len + 1);
    memmove(t->vars.items + lo + 1, t->vars.items + lo, (t->vars.len - lo) * sizeof *t->vars.items);
    t->vars.items[lo].name = gb_strdup(name);
    t->vars.items[lo].scope = scope;
    t->vars.items[lo].type = 0;
    t->vars.len++;
}

/* ---- Operators on single classes ---- */

unsigned gb_types_binop(const char *op, unsigned a, unsigned b)
{
    bool an = (a & GB_TY_NUMBER) != 0, bn = (b & GB_TY_NUMBER) != 0;
    bool aint = (a & (GB_TY_INT | GB_TY_BOOL)) != 0, bint = (b & (GB_TY_INT | GB_TY_BOOL)) != 0;
    if (strcmp(op, "+") == 0 || strcmp(op, "-") == 0 || strcmp(op, "*") == 0 || strcmp(op, "//") == 0 ||
        strcmp(op, "%") == 0) {
        if (an && bn) return (aint && bint) ? GB_TY_INT : GB_TY_FLOAT;
        if (strcmp(op, "+") == 0) {
            if (a == GB_TY_STR && b == GB_TY_STR) return GB_TY_STR;
            if (a == GB_TY_BYTES && b == GB_TY_BYTES) return GB_TY_BYTES;
            if (a == GB_TY_TUPLE && b == GB_TY_TUPLE) return GB_TY_TUPLE;
            return 0;
        }
        if (strcmp(op, "*") == 0) {
            if ((a & (GB_TY_STR | GB_TY_BYTES | GB_TY_TUPLE)) && bint) return a;
            if ((b & (GB_TY_STR | GB_TY_BYTES | GB_TY_TUPLE)) && aint) return b;
            return 0;
        }
        if (strcmp(op, "%") == 0 && (a & (GB_TY_STR | GB_TY_BYTES))) return a; /* formatting */
        return 0;
    }
    if (strcmp(op, "/") == 0) return (an && bn) ? GB_TY_FLOAT : 0;
    if (strcmp(op, "**") == 0) {
        if (!(an && bn)) return 0;
        if (aint && bint) return GB_TY_INT | GB_TY_FLOAT; /* 2 ** -1 == 0.5 */
        if (bint) return GB_TY_FLOAT;                     /* float ** int is real */
        return GB_TY_UNKNOWN;                             /* (-8) ** 0.5 is complex */
    }
    if (strcmp(op, "<<") == 0 || strcmp(op, ">>") == 0) return (aint && bint) ? GB_TY_INT : 0;
    if (strcmp(op, "&") == 0 || strcmp(op, "|") == 0 || strcmp(op, "^") == 0) {
        if (a == GB_TY_BOOL && b == GB_TY_BOOL) return GB_TY_BOOL;
        return (aint && bint) ? GB_TY_INT : 0;
    }
    return 0;
}

/* Union of op over every pair of classes; UNKNOWN if either side is unknown. Pairs that
 * raise contribute nothing. */
static unsigned gb_ty__binop_sets(const char *op, unsigned a, unsigned b)
{
    if (!a || !b) return 0;
    if ((a | b) & GB_TY_UNKNOWN) return GB_TY_UNKNOWN;
    unsigned r = 0;
    for (unsigned x = 1; x < GB_TY_UNKNOWN; x <<= 1) {
        if (!(a & x)) continue;
        for (unsigned y = 1; y < GB_TY_UNKNOWN; y <<= 1)
            if (b & y) r |= gb_types_binop(op, x, y);
    }
    return r;
}

/* ---- Expressions ---- */

static unsigned gb_ty__expr(const GbTypes *t, TSNode e);

static bool gb_ty__builtin_call(const GbTypes *t, TSNode call, const char *const *names, size_t n)
{
    TSNode f = gb_node_field(call, "function");
    if (!gb_node_is_kind(f, GB_NK_IDENTIFIER)) return false;
    const char *src = gb_op_ctx_source(t->ctx, t->module);
    bool match = false;
    for (size_t i = 0; i < n && !match; i++) match = gb_node_text_eq(f, src, names[i]);
    if (!match) return false;
    const GbScopes *sc = gb_op_ctx_scopes(t->ctx, t->module);
    char *name = gb_node_text(f, src);
    GbResolution r = gb_scopes_resolve(sc, gb_scopes_at(sc, ts_node_start_byte(f)), name, NULL);
    free(name);
    return r == GB_RESOLVE_BUILTIN;
}

static uint32_t gb_ty__argc(TSNode call)
{
    TSNode args = gb_node_field(call, "arguments");
    if (ts_node_is_null(args) || !gb_node_is_kind(args, GB_NK_ARGUMENT_LIST)) return 99;
    uint32_t n = 0, c = ts_node_named_child_count(args);
    for (uint32_t i = 0; i < c; i++) n += !gb_node_is_kind(ts_node_named_child(args, i), GB_NK_COMMENT);
    return n;
}

static unsigned gb_ty__call(const GbTypes *t, TSNode call)
{
    static const char *const ints[] = {"len", "int", "ord", "hash", "id"};
    static const char *const floats[] = {"float"};
    static const char *const strs[] = {"str", "repr", "chr", "hex", "oct", "bin", "ascii", "format", "input"};
    static const char *const bools[] = {"bool", "isinstance", "issubclass", "callable", "hasattr", "all", "any"};
    static const char *const rounds[] = {"round"};
    static const char *const abss[] = {"abs"};
    if (gb_ty__builtin_call(t, call, ints, 5)) return GB_TY_INT;
    if (gb_ty__builtin_call(t, call, floats, 1)) return GB_TY_FLOAT;
    if (gb_ty__builtin_call(t, call, strs, 9)) return GB_TY_STR;
    if (gb_ty__builtin_call(t, call, bools, 7)) return GB_TY_BOOL;
    TSNode args = gb_node_field(call, "arguments");
    if (gb_ty__builtin_call(t, call, rounds, 1) && gb_ty__argc(call) == 1) {
        unsigned a = gb_ty__expr(t, ts_node_named_child(args, 0));
        if (a && !(a & ~GB_TY_NUMBER)) return GB_TY_INT;
        return a ? GB_TY_UNKNOWN : 0;
    }
    if (gb_ty__builtin_call(t, call, abss, 1) && gb_ty__argc(call) == 1) {
        unsigned a = gb_ty__expr(t, ts_node_named_child(args, 0));
        if (a && !(a & ~GB_TY_NUMBER)) return (a & GB_TY_FLOAT) | ((a & (GB_TY_INT | GB_TY_BOOL)) ? GB_TY_INT : 0);
        return a ? GB_TY_UNKNOWN : 0;
    }
    /* Methods of str receivers. */
    TSNode f = gb_node_field(call, "function");
    if (gb_node_is_kind(f, GB_NK_ATTRIBUTE)) {
        unsigned recv = gb_ty__expr(t, gb_node_field(f, "object"));
        if (recv == GB_TY_STR) {
            static const char *const to_str[] = {
                "strip",  "lstrip", "rstrip", "lower", "upper", "replace",  "title",    "capitalize",   "join",
                "format", "zfill",  "center", "ljust", "rjust", "swapcase", "casefold", "removeprefix", "removesuffix"};
            static const char *const to_int[] = {"count", "find", "rfind", "index", "rindex"};
            static const char *const to_bool[] = {"startswith", "endswith",  "isdigit", "isalpha",
                                                  "isalnum",    "isspace",   "islower", "isupper",
                                                  "isnumeric",  "isdecimal", "istitle", "isidentifier"};
            const char *src = gb_op_ctx_source(t->ctx, t->module);
            TSNode attr = gb_node_field(f, "attribute");
            for (size_t i = 0; i < sizeof to_str / sizeof *to_str; i++)
                if (gb_node_text_eq(attr, src, to_str[i])) return GB_TY_STR;
            for (size_t i = 0; i < sizeof to_int / sizeof *to_int; i++)
                if (gb_node_text_eq(attr, src, to_int[i])) return GB_TY_INT;
            for (size_t i = 0; i < sizeof to_bool / sizeof *to_bool; i++)
                if (gb_node_text_eq(attr, src, to_bool[i])) return GB_TY_BOOL;
        }
    }
    return GB_TY_UNKNOWN;
}

static unsigned gb_ty__string(const GbTypes *t, TSNode s)
{
    const char *src = gb_op_ctx_source(t->ctx, t->module);
    for (uint32_t i = ts_node_start_byte(s); i < ts_node_end_byte(s); i++) {
        char c = src[i];
        if (c == '\'' || c == '"') break;
        if (c == 'b' || c == 'B') return GB_TY_BYTES;
    }
    return GB_TY_STR;
}

/* Integer literal value of a (possibly negated) integer node; false if not one. */
static bool gb_ty__int_literal(const GbTypes *t, TSNode n, long *out)
{
    const char *src = gb_op_ctx_source(t->ctx, t->module);
    bool neg;
    n = gb_node_unminus(n, &neg);
    if (!gb_node_is_kind(n, GB_NK_INTEGER)) return false;
    char *txt = gb_node_text(n, src);
    char *end;
    long v = strtol(txt, &end, 10);
    bool ok = *end == '\0' && (end - txt) < 15;
    free(txt);
    *out = neg ? -v : v;
    return ok;
}

static unsigned gb_ty__subscript(const GbTypes *t, TSNode e)
{
    TSNode value = gb_node_field(e, "value"), index = gb_node_field(e, "subscript");
    if (ts_node_is_null(index) || ts_node_named_child_count(e) != 2) return GB_TY_UNKNOWN;
    while (gb_node_is_kind(value, GB_NK_PARENTHESIZED_EXPRESSION) && ts_node_named_child_count(value) == 1)
        value = ts_node_named_child(value, 0);
    long k;
    if ((gb_node_is_kind(value, GB_NK_LIST) || gb_node_is_kind(value, GB_NK_TUPLE)) &&
        gb_ty__int_literal(t, index, &k)) {
        uint32_t n = 0, c = ts_node_named_child_count(value);
        TSNode items[64];
        for (uint32_t i = 0; i < c && n < 64; i++) {
            TSNode x = ts_node_named_child(value, i);
            if (gb_node_is_kind(x, GB_NK_COMMENT)) continue;
            if (gb_node_is_kind(x, GB_NK_LIST_SPLAT) || gb_node_is_kind(x, GB_NK_PARENTHESIZED_LIST_SPLAT))
                return GB_TY_UNKNOWN;
            items[n++] = x;
        }
        if (n == 0 || n >= 64) return GB_TY_UNKNOWN;
        if (k < 0) k += n;
        if (k < 0 || k >= (long)n) return 0; /* IndexError: no value */
        return gb_ty__expr(t, items[k]);
    }
    if (gb_node_is_kind(value, GB_NK_DICTIONARY)) {
        /* {K: v}[K] with literal keys: the value of the matching pair. */
        const char *src = gb_op_ctx_source(t->ctx, t->module);
        unsigned r = 0;
        uint32_t c = ts_node_named_child_count(value);
        for (uint32_t i = 0; i < c; i++) {
            TSNode p = ts_node_named_child(value, i);
            if (gb_node_is_kind(p, GB_NK_COMMENT)) continue;
            if (!gb_node_is_kind(p, GB_NK_PAIR)) return GB_TY_UNKNOWN;
            TSNode key = gb_node_field(p, "key");
            if (!gb_node_is_kind(key, GB_NK_INTEGER) && !gb_node_is_kind(key, GB_NK_STRING)) return GB_TY_UNKNOWN;
            if (gb_node_is_kind(key, GB_NK_STRING) && ts_node_named_child_count(key) != 3) return GB_TY_UNKNOWN;
            uint32_t kl = ts_node_end_byte(key) - ts_node_start_byte(key);
            uint32_t il = ts_node_end_byte(index) - ts_node_start_byte(index);
            if (kl == il && memcmp(src + ts_node_start_byte(key), src + ts_node_start_byte(index), kl) == 0)
                r = gb_ty__expr(t, gb_node_field(p, "value")); /* the last equal key wins */
        }
        return r ? r : GB_TY_UNKNOWN;
    }
    unsigned v = gb_ty__expr(t, value);
    if (v == GB_TY_STR) return GB_TY_STR;
    return v ? GB_TY_UNKNOWN : 0;
}

static unsigned gb_ty__expr(const GbTypes *t, TSNode e)
{
    if (ts_node_is_null(e)) return GB_TY_UNKNOWN;
    GbNodeKind ty = gb_node_kind(e);
    const char *src = gb_op_ctx_source(t->ctx, t->module);
    if (ty == GB_NK_INTEGER || ty == GB_NK_FLOAT) {
        char last = src[ts_node_end_byte(e) - 1];
        if (last == 'j' || last == 'J') return GB_TY_UNKNOWN; /* complex */
        return ty == GB_NK_INTEGER ? GB_TY_INT : GB_TY_FLOAT;
    }
    if (ty == GB_NK_STRING) return gb_ty__string(t, e);
    if (ty == GB_NK_CONCATENATED_STRING) return gb_ty__string(t, ts_node_named_child(e, 0));
    if (ty == GB_NK_TRUE || ty == GB_NK_FALSE) return GB_TY_BOOL;
    if (ty == GB_NK_NONE) return GB_TY_NONE;
    if (ty == GB_NK_LIST || ty == GB_NK_LIST_COMPREHENSION) return GB_TY_LIST;
    if (ty == GB_NK_DICTIONARY || ty == GB_NK_DICTIONARY_COMPREHENSION) return GB_TY_DICT;
    if (ty == GB_NK_SET || ty == GB_NK_SET_COMPREHENSION) return GB_TY_SET;
    if (ty == GB_NK_TUPLE) return GB_TY_TUPLE;
    if (ty == GB_NK_PARENTHESIZED_EXPRESSION) {
        if (ts_node_named_child_count(e) != 1) return GB_TY_UNKNOWN;
        return gb_ty__expr(t, ts_node_named_child(e, 0));
    }
    if (ty == GB_NK_NOT_OPERATOR) return GB_TY_BOOL;
    if (ty == GB_NK_UNARY_OPERATOR) {
        unsigned a = gb_ty__expr(t, gb_node_field(e, "argument"));
        if (!a) return 0;
        if (a & ~GB_TY_NUMBER) return GB_TY_UNKNOWN;
        GbNodeKind op = gb_node_kind(ts_node_child(e, 0));
        if (op == GB_NK_TILDE) return (a & GB_TY_FLOAT) ? GB_TY_UNKNOWN : GB_TY_INT;
        return (a & GB_TY_FLOAT) | ((a & (GB_TY_INT | GB_TY_BOOL)) ? GB_TY_INT : 0);
    }
    if (ty == GB_NK_BINARY_OPERATOR) {
        TSNode op = gb_node_field(e, "operator");
        unsigned a = gb_ty__expr(t, gb_node_field(e, "left")), b = gb_ty__expr(t, gb_node_field(e, "right"));
        unsigned r = gb_ty__binop_sets(ts_node_type(op), a, b);
        /* A known combination that always raises yields no value; keep it unknown instead so
         * that nothing downstream relies on it. */
        return (a && b && !r) ? GB_TY_UNKNOWN : r;
    }
    if (ty == GB_NK_COMPARISON_OPERATOR) {
        bool identity = false;
        uint32_t c = ts_node_child_count(e);
        for (uint32_t i = 0; i < c; i++) {
            GbNodeKind k = gb_node_kind(ts_node_child(e, i));
            if (k == GB_NK_IN || k == GB_NK_IS || k == GB_NK_NOT_IN || k == GB_NK_IS_NOT) identity = true;
        }
        if (identity) return GB_TY_BOOL;
        uint32_t n = ts_node_named_child_count(e);
        for (uint32_t i = 0; i < n; i++) {
            unsigned a = gb_ty__expr(t, ts_node_named_child(e, i));
            if (a & ~(GB_TY_SCALAR | GB_TY_NONE)) return GB_TY_UNKNOWN;
        }
        return GB_TY_BOOL;
    }
    if (ty == GB_NK_BOOLEAN_OPERATOR) {
        unsigned a = gb_ty__expr(t, gb_node_field(e, "left")), b = gb_ty__expr(t, gb_node_field(e, "right"));
        return a | b;
    }
    if (ty == GB_NK_CONDITIONAL_EXPRESSION) {
        if (ts_node_named_child_count(e) < 3) return GB_TY_UNKNOWN;
        return gb_ty__expr(t, ts_node_named_child(e, 0)) | gb_ty__expr(t, ts_node_named_child(e, 2));
    }
    if (ty == GB_NK_CALL) return gb_ty__call(t, e);
    if (ty == GB_NK_SUBSCRIPT) return gb_ty__subscript(t, e);
    if (ty == GB_NK_IDENTIFIER) {
        const GbScopes *sc = gb_op_ctx_scopes(t->ctx, t->module);
        char *name = gb_node_text(e, src);
        unsigned r = gb_types_var(t, gb_scopes_at(sc, ts_node_start_byte(e)), name);
        free(name);
        return r;
    }
    return GB_TY_UNKNOWN;
}

unsigned gb_types_expr(const GbTypes *t, TSNode expr)
{
    return gb_ty__expr(t, expr);
}

unsigned gb_types_var(const GbTypes *t, int scope, const char *name)
{
    const GbScopes *sc = gb_op_ctx_scopes(t->ctx, t->module);
    int d;
    GbResolution r = gb_scopes_resolve(sc, scope, name, &d);
    if (r == GB_RESOLVE_BUILTIN || r == GB_RESOLVE_UNKNOWN) return GB_TY_UNKNOWN;
    if (r == GB_RESOLVE_GLOBAL) d = 0;
    const GbTypedVar *v = gb_ty__find(t, name, d);
    return v ? v->type : GB_TY_UNKNOWN;
}

/* ---- Fixpoint over bindings ---- */

/* Type contributed by one binding occurrence of `id` (flag from the scope walker). */
static unsigned gb_ty__binding(const GbTypes *t, TSNode id, unsigned flag, unsigned current)
{
    TSNode p = ts_node_parent(id);
    if (flag == GB_NAME_ASSIGN) {
        if (gb_node_is_kind(p, GB_NK_ASSIGNMENT) && ts_node_eq(gb_node_field(p, "left"), id)) {
            TSNode r = gb_node_field(p, "right");
            while (gb_node_is_kind(r, GB_NK_ASSIGNMENT)) r = gb_node_field(r, "right");
            if (ts_node_is_null(r)) return GB_TY_UNKNOWN;
            return gb_ty__expr(t, r);
        }
        if (gb_node_is_kind(p, GB_NK_NAMED_EXPRESSION)) return gb_ty__expr(t, gb_node_field(p, "value"));
        if ((gb_node_is_kind(p, GB_NK_FOR_STATEMENT) || gb_node_is_kind(p, GB_NK_FOR_IN_CLAUSE)) &&
            ts_node_eq(gb_node_field(p, "left"), id)) {
            TSNode r = gb_node_field(p, "right");
            static const char *const range[] = {"range"};
            if (gb_node_is_kind(r, GB_NK_CALL) && gb_ty__builtin_call(t, r, range, 1)) return GB_TY_INT;
            if (gb_node_is_kind(r, GB_NK_STRING) && gb_ty__string(t, r) == GB_TY_STR) return GB_TY_STR;
            return GB_TY_UNKNOWN;
        }
        return GB_TY_UNKNOWN;
    }
    if (flag == GB_NAME_AUG) {
        if (!gb_node_is_kind(p, GB_NK_AUGMENTED_ASSIGNMENT)) return GB_TY_UNKNOWN;
        const char *op = ts_node_type(gb_node_field(p, "operator"));
        char base[4] = {0};
        size_t n = strlen(op);
        if (n < 2 || n > 4) return GB_TY_UNKNOWN;
        memcpy(base, op, n - 1); /* "+=" -> "+" */
        unsigned r = gb_ty__binop_sets(base, current, gb_ty__expr(t, gb_node_field(p, "right")));
        return r;
    }
    if (flag == GB_NAME_DEL || flag == GB_NAME_ANNOTATED || flag == GB_NAME_GLOBAL || flag == GB_NAME_NONLOCAL ||
        flag == GB_NAME_READ)
        return 0;
    return GB_TY_UNKNOWN; /* parameters, imports, def/class */
}

void gb_types_init(GbTypes *t, GbOpContext *ctx, size_t module)
{
    memset(t, 0, sizeof *t);
    t->ctx = ctx;
    t->module = module;
    const GbScopes *sc = gb_op_ctx_scopes(ctx, module);
    const char *src = gb_op_ctx_source(ctx, module);
    TSNode root = ts_tree_root_node(gb_op_ctx_tree(ctx, module));
    GbOccurrences occ = {0};
    gb_scopes_occurrences(sc, src, root, &occ);

    typedef struct {
        char *name;
        int def;
        TSNode id;
        unsigned flag;
    } Bind;
    GbArray(Bind) binds = {0};
    for (size_t i = 0; i < occ.len; i++) {
        const GbOccurrence *o = &occ.items[i];
        if (o->flag == GB_NAME_READ || o->flag == GB_NAME_GLOBAL || o->flag == GB_NAME_NONLOCAL) continue;
        Bind b;
        b.name = gb_strndup(src + o->start, o->end - o->start);
        GbResolution r = gb_scopes_resolve(sc, o->scope, b.name, &b.def);
        if (r == GB_RESOLVE_GLOBAL || r == GB_RESOLVE_BUILTIN || r == GB_RESOLVE_UNKNOWN) b.def = 0;
        b.id = ts_node_descendant_for_byte_range(root, o->start, o->end);
        b.flag = o->flag;
        gb_ty__ensure(t, b.name, b.def);
        gb_array_push(&binds, b);
    }
    /* Variables nothing here can vouch for. */
    for (size_t i = 0; i < t->vars.len; i++) {
        GbTypedVar *v = &t->vars.items[i];
        const GbScope *s = &sc->scopes.items[v->scope];
        if (s->dynamic || (v->scope == 0 && (s->star_import || gb_op_ctx_is_pinned(ctx, v->name))))
            v->type = GB_TY_UNKNOWN;
    }
    for (int round = 0; round < 64; round++) {
        bool changed = false;
        for (size_t i = 0; i < binds.len; i++) {
            GbTypedVar *v = gb_ty__find(t, binds.items[i].name, binds.items[i].def);
            unsigned add = gb_ty__binding(t, binds.items[i].id, binds.items[i].flag, v->type);
            v = gb_ty__find(t, binds.items[i].name, binds.items[i].def);
            if ((v->type | add) != v->type) {
                v->type |= add;
                changed = true;
            }
        }
        if (!changed) break;
        if (round == 63)
            for (size_t i = 0; i < t->vars.len; i++) t->vars.items[i].type = GB_TY_UNKNOWN;
    }
    for (size_t i = 0; i < binds.len; i++) free(binds.items[i].name);
    gb_array_free(&binds);
    gb_array_free(&occ);
}

void gb_types_destroy(GbTypes *t)
{
    if (!t) return;
    for (size_t i = 0; i < t->vars.len; i++) free(t->vars.items[i].name);
    gb_array_free(&t->vars);
}
