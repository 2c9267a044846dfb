#include "operators/rename.h"

#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "src/python/pyparse.h"
#include "src/python/scope.h"

/* ---- Per-module facts ---- */

typedef struct {
    uint32_t s, e;
} GbRnRange;

typedef enum { GB_RN_CALLEE_IDENT, GB_RN_CALLEE_ATTR, GB_RN_CALLEE_OTHER } GbRnCalleeKind;

typedef struct {
    GbRnCalleeKind kind;
    GbRnRange callee;      /* IDENT: the identifier; ATTR: the attribute name */
    GbRnRange object;      /* ATTR with an identifier object: that identifier (else 0,0) */
    bool splat;            /* has a **mapping argument */
    GbArray(GbRnRange) kw; /* keyword-argument names */
} GbRnCall;

typedef struct {
    bool ok;
    const char *src;
    TSNode root;
    const GbScopes *sc;
    GbOccurrences occ; /* sorted by start */
    GbArray(GbRnCall) calls;
    GbArray(uint32_t) callees;  /* starts of identifier callees, sorted */
    GbArray(GbRnRange) fstr_eq; /* f-string fields with `=` */
    GbArray(TSNode) imports;    /* import and import-from statements (any depth) */
    GbNames strings;            /* contents of plain string literals */
    bool dynamic;               /* eval/exec/globals()/... or getattr with a computed name */
    bool introspect;            /* inspect, __code__, __annotations__, ... */
    bool names_shown;           /* .__name__ / .__qualname__ */
    bool star_import;
    char *modname; /* owned: importable name ("main", "pkg.helpers") */
} GbRnModule;

struct GbRenamer {
    GbOpContext *ctx;
    GbArray(GbRnModule) mods;
    GbNames test_strings; /* string contents of the test code */
    bool test_names_shown;
};

void gb_rename_plan_init(GbRenamePlan *plan)
{
    memset(plan, 0, sizeof *plan);
}

static void gb_rn__plan_clear(GbRenamePlan *plan)
{
    free(plan->name);
    plan->name = NULL;
    plan->spots.len = 0;
    plan->is_param = false;
}

void gb_rename_plan_destroy(GbRenamePlan *plan)
{
    if (!plan) return;
    free(plan->name);
    gb_array_free(&plan->spots);
}

static bool gb_rn__text_is(const char *src, uint32_t s, uint32_t e, const char *text)
{
    size_t n = strlen(text);
    return (size_t)(e - s) == n && memcmp(src + s, text, n) == 0;
}

static bool gb_rn__ident_like(const char *s, size_t n)
{
    if (n == 0 || !(isalpha((unsigned char)s[0]) || s[0] == '_')) return false;
    for (size_t i = 1; i < n; i++)
        if (!(isalnum((unsigned char)s[i]) || s[i] == '_')) return false;
    return true;
}

/* The content of a plain string literal (no interpolation) when it looks like an identifier. */
static void gb_rn__string(TSNode n, const char *src, GbNames *out)
{
    uint32_t c = ts_node_named_child_count(n);
    GbStr s;
    gb_str_init(&s);
    gb_str_append(&s, "");
    for (uint32_t i = 0; i < c; i++) {
        TSNode k = ts_node_named_child(n, i);
        if (gb_node_is_kind(k, GB_NK_INTERPOLATION)) {
            gb_str_destroy(&s);
            return;
        }
        if (gb_node_is_kind(k, GB_NK_STRING_CONTENT))
            gb_str_append_n(&s, src + ts_node_start_byte(k), ts_node_end_byte(k) - ts_node_start_byte(k));
    }
    if (gb_rn__ident_like(s.data, s.len)) gb_names_add(out, s.data);
    gb_str_destroy(&s);
}

static const char *const gb_rn_dynamic_calls[] = {"__import__", "dir", "eval", "exec", "globals", "locals", "vars"};
static const char *const gb_rn_attr_calls[] = {"delattr", "getattr", "hasattr", "setattr"};
static const char *const gb_rn_introspect[] = {"__annotations__", "__code__",    "__kwdefaults__",
                                               "__signature__",   "co_varnames", "getargspec",
                                               "getfullargspec",  "inspect",     "signature"};

static bool gb_rn__in(const char *src, TSNode n, const char *const *list, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (gb_node_text_eq(n, src, list[i])) return true;
    return false;
}

#define GB_RN_COUNT(a) (sizeof(a) / sizeof *(a))

/* The occurrence entries of module mod that start at pos (first index, or -1). */
static long gb_rn__occ_at(const GbRnModule *mod, uint32_t pos)
{
    size_t lo = 0, hi = mod->occ.len;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (mod->occ.items[mid].start < pos)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < mod->occ.len && mod->occ.items[lo].start == pos ? (long)lo : -1;
}

static void gb_rn__walk(GbRnModule *mod, TSNode n)
{
    GbNodeKind t = gb_node_kind(n);
    const char *src = mod->src;
    if (t == GB_NK_CALL) {
        GbRnCall call;
        memset(&call, 0, sizeof call);
        TSNode f = gb_node_field(n, "function"), args = gb_node_field(n, "arguments");
        if (gb_node_is_kind(f, GB_NK_IDENTIFIER)) {
            call.kind = GB_RN_CALLEE_IDENT;
            call.callee = (GbRnRange){ts_node_start_byte(f), ts_node_end_byte(f)};
            gb_array_push(&mod->callees, call.callee.s);
            if (gb_rn__in(src, f, gb_rn_dynamic_calls, GB_RN_COUNT(gb_rn_dynamic_calls))) mod->dynamic = true;
            if (gb_rn__in(src, f, gb_rn_attr_calls, GB_RN_COUNT(gb_rn_attr_calls))) {
                /* A computed attribute name may be a function looked up on a module. */
                TSNode second = {0};
                uint32_t c = gb_node_is_kind(args, GB_NK_ARGUMENT_LIST) ? ts_node_named_child_count(args) : 0;
                for (uint32_t i = 0, k = 0; i < c; i++) {
                    TSNode a = ts_node_named_child(args, i);
                    if (gb_node_is_kind(a, GB_NK_COMMENT)) continue;
                    if (k++ == 1) second = a;
                }
                bool literal = gb_node_is_kind(second, GB_NK_STRING);
                if (literal)
                    for (uint32_t i = 0; i < ts_node_named_child_count(second); i++)
                        if (gb_node_is_kind(ts_node_named_child(second, i), GB_NK_INTERPOLATION)) literal = false;
                if (!literal) mod->dynamic = true;
            }
        } else if (gb_node_is_kind(f, GB_NK_ATTRIBUTE)) {
            call.kind = GB_RN_CALLEE_ATTR;
            TSNode attr = gb_node_field(f, "attribute"), obj = gb_node_field(f, "object");
            if (!ts_node_is_null(attr)) call.callee = (GbRnRange){ts_node_start_byte(attr), ts_node_end_byte(attr)};
            if (gb_node_is_kind(obj, GB_NK_IDENTIFIER))
                call.object = (GbRnRange){ts_node_start_byte(obj), ts_node_end_byte(obj)};
        } else {
            call.kind = GB_RN_CALLEE_OTHER;
        }
        if (gb_node_is_kind(args, GB_NK_ARGUMENT_LIST)) {
            uint32_t c = ts_node_named_child_count(args);
            for (uint32_t i = 0; i < c; i++) {
                TSNode a = ts_node_named_child(args, i);
                if (gb_node_is_kind(a, GB_NK_DICTIONARY_SPLAT)) call.splat = true;
                if (gb_node_is_kind(a, GB_NK_KEYWORD_ARGUMENT)) {
                    TSNode name = gb_node_field(a, "name");
                    if (!ts_node_is_null(name)) {
                        GbRnRange r = {ts_node_start_byte(name), ts_node_end_byte(name)};
                        gb_array_push(&call.kw, r);
                    }
                }
            }
        }
        gb_array_push(&mod->calls, call);
    } else if (t == GB_NK_ATTRIBUTE) {
        TSNode attr = gb_node_field(n, "attribute"), obj = gb_node_field(n, "object");
        if (!ts_node_is_null(attr)) {
            if (gb_node_text_eq(attr, src, "__name__") || gb_node_text_eq(attr, src, "__qualname__"))
                mod->names_shown = true;
            if (gb_rn__in(src, attr, gb_rn_introspect, GB_RN_COUNT(gb_rn_introspect))) mod->introspect = true;
            /* sys.modules[...] reaches module globals by string. */
            if (gb_node_text_eq(attr, src, "modules") && gb_node_is_kind(obj, GB_NK_IDENTIFIER) &&
                gb_node_text_eq(obj, src, "sys"))
                mod->dynamic = true;
        }
    } else if (t == GB_NK_IDENTIFIER) {
        if (gb_rn__in(src, n, gb_rn_introspect, GB_RN_COUNT(gb_rn_introspect))) mod->introspect = true;
        if (gb_node_text_eq(n, src, "importlib")) mod->dynamic = true;
        return;
    } else if (t == GB_NK_STRING) {
        gb_rn__string(n, src, &mod->strings);
    } else if (t == GB_NK_INTERPOLATION) {
        uint32_t c = ts_node_child_count(n);
        for (uint32_t i = 0; i < c; i++) {
            TSNode k = ts_node_child(n, i);
            if (!ts_node_is_named(k) && gb_node_kind(k) == GB_NK_EQ) {
                GbRnRange r = {ts_node_start_byte(n), ts_node_end_byte(n)};
                gb_array_push(&mod->fstr_eq, r);
            }
        }
    } else if (t == GB_NK_IMPORT_STATEMENT || t == GB_NK_IMPORT_FROM_STATEMENT) {
        gb_array_push(&mod->imports, n);
        uint32_t c = ts_node_named_child_count(n);
        for (uint32_t i = 0; i < c; i++)
            if (gb_node_is_kind(ts_node_named_child(n, i), GB_NK_WILDCARD_IMPORT)) mod->star_import = true;
    }
    uint32_t c = ts_node_child_count(n);
    for (uint32_t i = 0; i < c; i++) gb_rn__walk(mod, ts_node_child(n, i));
}

static int gb_rn__occ_cmp(const void *a, const void *b)
{
    const GbOccurrence *x = a, *y = b;
    if (x->start != y->start) return x->start < y->start ? -1 : 1;
    return 0;
}

static int gb_rn__u32_cmp(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static char *gb_rn__modname(const char *path)
{
    char *m = gb_strdup(path);
    size_t n = strlen(m);
    if (n > 3 && strcmp(m + n - 3, ".py") == 0) m[n - 3] = '\0';
    n = strlen(m);
    if (n > 9 && strcmp(m + n - 9, "/__init__") == 0) m[n - 9] = '\0';
    for (char *c = m; *c; c++)
        if (*c == '/') *c = '.';
    return m;
}

static void gb_rn__test_strings(TSNode n, const char *src, GbRenamer *r)
{
    if (gb_node_is_kind(n, GB_NK_STRING)) gb_rn__string(n, src, &r->test_strings);
    if (gb_node_is_kind(n, GB_NK_ATTRIBUTE)) {
        TSNode attr = gb_node_field(n, "attribute");
        if (!ts_node_is_null(attr) &&
            (gb_node_text_eq(attr, src, "__name__") || gb_node_text_eq(attr, src, "__qualname__")))
            r->test_names_shown = true;
    }
    uint32_t c = ts_node_child_count(n);
    for (uint32_t i = 0; i < c; i++) gb_rn__test_strings(ts_node_child(n, i), src, r);
}

GbRenamer *gb_renamer_new(GbOpContext *ctx)
{
    GbRenamer *r = gb_calloc(1, sizeof *r);
    r->ctx = ctx;
    size_t n = ctx->prog->modules.len;
    gb_array_reserve(&r->mods, n);
    for (size_t m = 0; m < n; m++) {
        GbRnModule mod;
        memset(&mod, 0, sizeof mod);
        mod.modname = gb_rn__modname(ctx->prog->modules.items[m].path);
        mod.ok = gb_op_ctx_module_ok(ctx, m);
        if (mod.ok) {
            mod.src = gb_op_ctx_source(ctx, m);
            mod.root = ts_tree_root_node(gb_op_ctx_tree(ctx, m));
            mod.sc = gb_op_ctx_scopes(ctx, m);
            gb_scopes_occurrences(mod.sc, mod.src, mod.root, &mod.occ);
            /* Stable, so that entries at one position keep their walk order. */
            for (size_t i = 1; i < mod.occ.len; i++)
                for (size_t j = i; j > 0 && gb_rn__occ_cmp(&mod.occ.items[j - 1], &mod.occ.items[j]) > 0; j--) {
                    GbOccurrence tmp = mod.occ.items[j - 1];
                    mod.occ.items[j - 1] = mod.occ.items[j];
                    mod.occ.items[j] = tmp;
                }
            gb_rn__walk(&mod, mod.root);
            /* no qsort(NULL, 0, ...): undefined behaviour (an empty array has no storage) */
            if (mod.callees.len > 1)
                qsort(mod.callees.items, mod.callees.len, sizeof *mod.callees.items, gb_rn__u32_cmp);
        }
        gb_array_push(&r->mods, mod);
    }
    const GbTask *t = ctx->task;
    if (t && t->test_code && *t->test_code) {
        TSTree *tree = gb_parse(ctx->parser, t->test_code, strlen(t->test_code));
        gb_rn__test_strings(ts_tree_root_node(tree), t->test_code, r);
        ts_tree_delete(tree);
    }
    return r;
}

void gb_renamer_delete(GbRenamer *r)
{
    if (!r) return;
    for (size_t m = 0; m < r->mods.len; m++) {
        GbRnModule *mod = &r->mods.items[m];
        gb_array_free(&mod->occ);
        for (size_t i = 0; i < mod->calls.len; i++) gb_array_free(&mod->calls.items[i].kw);
        gb_array_free(&mod->calls);
        gb_array_free(&mod->callees);
        gb_array_free(&mod->fstr_eq);
        gb_array_free(&mod->imports);
        gb_names_destroy(&mod->strings);
        free(mod->modname);
    }
    gb_array_free(&r->mods);
    gb_names_destroy(&r->test_strings);
    free(r);
}

/* ---- Variables ---- */

/* True when an occurrence of name in scope `scope` of mod denotes the variable held by def. */
static bool gb_rn__denotes(const GbRnModule *mod, int scope, const char *name, int def)
{
    int d;
    GbResolution res = gb_scopes_resolve(mod->sc, scope, name, &d);
    if (def == 0) return res == GB_RESOLVE_GLOBAL;
    return (res == GB_RESOLVE_LOCAL || res == GB_RESOLVE_FREE) && d == def;
}

static bool gb_rn__is_callee(const GbRnModule *mod, uint32_t pos)
{
    size_t lo = 0, hi = mod->callees.len;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (mod->callees.items[mid] < pos)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < mod->callees.len && mod->callees.items[lo] == pos;
}

static TSNode gb_rn__ident_node(const GbRnModule *mod, uint32_t s, uint32_t e)
{
    TSNode n = ts_node_descendant_for_byte_range(mod->root, s, e);
    while (!ts_node_is_null(n) && !gb_node_is_kind(n, GB_NK_IDENTIFIER) && ts_node_start_byte(n) == s)
        n = ts_node_parent(n);
    return n;
}

static void gb_rn__spot(GbRenamePlan *plan, size_t module, uint32_t s, uint32_t e, GbSpotKind kind, unsigned flag)
{
    for (size_t i = 0; i < plan->spots.len; i++)
        if (plan->spots.items[i].module == module && plan->spots.items[i].start == s) return;
    GbRenameSpot spot = {module, s, e, kind, flag};
    gb_array_push(&plan->spots, spot);
}

/* Occurrences of the variable (m, def, name) in module m, as spots. override: the start of an
 * import identifier to rewrite in place (`from main import x` -> `from main import NEW`),
 * UINT32_MAX for none. Counts bindings in *bindings and DEF bindings in *defs. */
static bool gb_rn__collect(GbRenamer *r, size_t m, int def, const char *name, uint32_t override, GbRenamePlan *plan,
                           int *bindings, int *defs, GbError *why)
{
    GbRnModule *mod = &r->mods.items[m];
    *bindings = *defs = 0;
    for (size_t i = 0; i < mod->occ.len; i++) {
        const GbOccurrence *o = &mod->occ.items[i];
        if (!gb_rn__text_is(mod->src, o->start, o->end, name)) continue;
        if (!gb_rn__denotes(mod, o->scope, name, def)) continue;
        for (size_t k = 0; k < mod->fstr_eq.len; k++)
            if (o->start >= mod->fstr_eq.items[k].s && o->end <= mod->fstr_eq.items[k].e) {
                gb_error_set(why, "%s is shown by a self-documenting f-string field", name);
                return false;
            }
        GbSpotKind kind = GB_SPOT_IDENT;
        uint32_t s = o->start, e = o->end;
        if (o->flag != GB_NAME_READ && o->flag != GB_NAME_GLOBAL && o->flag != GB_NAME_NONLOCAL) ++*bindings;
        if (o->flag == GB_NAME_DEF) {
            ++*defs;
            TSNode id = gb_rn__ident_node(mod, o->start, o->end);
            if (gb_node_is_kind(ts_node_parent(id), GB_NK_CLASS_DEFINITION)) {
                gb_error_set(why, "%s is a class (its name can show in output)", name);
                return false;
            }
        }
        if (o->flag == GB_NAME_IMPORT && o->start != override) {
            TSNode id = gb_rn__ident_node(mod, o->start, o->end);
            TSNode parent = ts_node_parent(id);
            TSNode grand = ts_node_is_null(parent) ? parent : ts_node_parent(parent);
            if (gb_node_is_kind(parent, GB_NK_ALIASED_IMPORT) && ts_node_eq(gb_node_field(parent, "alias"), id)) {
                kind = GB_SPOT_IDENT;
            } else if (gb_node_is_kind(parent, GB_NK_DOTTED_NAME) && ts_node_named_child_count(parent) == 1 &&
                       (gb_node_is_kind(grand, GB_NK_IMPORT_STATEMENT) ||
                        gb_node_is_kind(grand, GB_NK_IMPORT_FROM_STATEMENT))) {
                kind = GB_SPOT_IMPORT_AS;
                s = ts_node_start_byte(parent);
                e = ts_node_end_byte(parent);
            } else {
                gb_error_set(why, "%s is bound by an import that cannot take an alias", name);
                return false;
            }
        }
        gb_rn__spot(plan, m, s, e, kind, o->flag);
    }
    /* A class body that binds the name and also reads it may read the outer variable (class
     * bodies look names up in the class namespace first, then globals). */
    for (size_t c = 0; c < mod->sc->scopes.len; c++) {
        const GbScope *cs = &mod->sc->scopes.items[c];
        if (cs->kind != GB_SCOPE_CLASS) continue;
        const GbScopeName *cn = gb_scope_name(cs, name);
        if (cn && (cn->flags & GB_NAME_BINDS) && (cn->flags & GB_NAME_READ) &&
            gb_rn__denotes(mod, cs->parent, name, def)) {
            gb_error_set(why, "a class body rebinds and reads %s", name);
            return false;
        }
    }
    return true;
}

/* ---- Functions and their call sites ---- */

typedef struct {
    bool tracked; /* a plain def whose every binding and use we know */
    bool escapes; /* referred to other than by a direct call */
    size_t module;
    int scope; /* scope holding its name */
    const char *name;
    /* other modules: the name the function is imported under there (module-level binding), and
     * the local names of `import <module>` */
    GbArray(struct GbRnAlias {
        size_t module;
        int scope;
        char *name;
        bool is_module;
    }) aliases;
} GbRnFunc;

static void gb_rn__func_destroy(GbRnFunc *f)
{
    for (size_t i = 0; i < f->aliases.len; i++) free(f->aliases.items[i].name);
    gb_array_free(&f->aliases);
}

/* The scope an identifier occurrence at [s, e) belongs to (-1 if it is not an occurrence). */
static int gb_rn__occ_scope(const GbRnModule *mod, uint32_t s)
{
    long i = gb_rn__occ_at(mod, s);
    return i < 0 ? -1 : mod->occ.items[i].scope;
}

/* True when the attribute-name node is the callee of a call (`x.attr(...)`). */
static bool gb_rn__is_callee_attr(const GbRnModule *mod, TSNode attr)
{
    uint32_t s = ts_node_start_byte(attr);
    for (size_t i = 0; i < mod->calls.len; i++)
        if (mod->calls.items[i].kind == GB_RN_CALLEE_ATTR && mod->calls.items[i].callee.s == s) return true;
    return false;
}

/* Imports of module `target` in the other modules: plain from-imports of `name` become part of
 * the variable (callback 'from'), aliased ones get their imported name renamed, module imports
 * are followed to `<alias>.name`. Fills plan (when not NULL) and f (when not NULL). */
static bool gb_rn__cross_module(GbRenamer *r, size_t target, const char *name, GbRenamePlan *plan, GbRnFunc *f,
                                GbError *why)
{
    const char *mn = r->mods.items[target].modname;
    const char *last = strrchr(mn, '.');
    last = last ? last + 1 : mn;
    for (size_t o = 0; o < r->mods.len; o++) {
        if (o == target) continue;
        GbRnModule *mod = &r->mods.items[o];
        if (!mod->ok) {
            gb_error_set(why, "module %s does not parse", r->ctx->prog->modules.items[o].path);
            return false;
        }
        for (size_t i = 0; i < mod->imports.len; i++) {
            TSNode st = mod->imports.items[i];
            const char *src = mod->src;
            if (gb_node_is_kind(st, GB_NK_IMPORT_FROM_STATEMENT)) {
                TSNode mname = gb_node_field(st, "module_name");
                if (gb_node_is_kind(mname, GB_NK_RELATIVE_IMPORT)) {
                    uint32_t c = ts_node_named_child_count(mname);
                    TSNode dn = c > 1 ? ts_node_named_child(mname, c - 1) : (TSNode){0};
                    if (ts_node_is_null(dn) || !gb_node_is_kind(dn, GB_NK_DOTTED_NAME) ||
                        gb_node_text_eq(dn, src, last)) {
                        gb_error_set(why, "a relative import in %s may import %s", r->ctx->prog->modules.items[o].path,
                                     name);
                        return false;
                    }
                    continue;
                }
                if (ts_node_is_null(mname) || !gb_node_text_eq(mname, src, mn)) continue;
                uint32_t c = ts_node_named_child_count(st);
                for (uint32_t k = 0; k < c; k++) {
                    TSNode it = ts_node_named_child(st, k);
                    if (ts_node_eq(it, mname)) continue;
                    if (gb_node_is_kind(it, GB_NK_WILDCARD_IMPORT)) {
                        gb_error_set(why, "%s star-imports %s", r->ctx->prog->modules.items[o].path, mn);
                        return false;
                    }
                    TSNode imported = gb_node_is_kind(it, GB_NK_ALIASED_IMPORT) ? gb_node_field(it, "name") : it;
                    if (!gb_node_is_kind(imported, GB_NK_DOTTED_NAME) || !gb_node_text_eq(imported, src, name))
                        continue;
                    TSNode id = ts_node_named_child(imported, 0);
                    uint32_t is = ts_node_start_byte(id), ie = ts_node_end_byte(id);
                    if (gb_node_is_kind(it, GB_NK_ALIASED_IMPORT)) {
                        if (plan) gb_rn__spot(plan, o, is, ie, GB_SPOT_IDENT, GB_NAME_IMPORT);
                        TSNode alias = gb_node_field(it, "alias");
                        if (f && !ts_node_is_null(alias)) {
                            struct GbRnAlias a = {o, gb_rn__occ_scope(mod, ts_node_start_byte(alias)),
                                                  gb_node_text(alias, src), false};
                            gb_array_push(&f->aliases, a);
                        }
                        continue;
                    }
                    int scope = gb_rn__occ_scope(mod, is);
                    if (scope < 0) {
                        gb_error_set(why, "cannot follow the import of %s in %s", name,
                                     r->ctx->prog->modules.items[o].path);
                        return false;
                    }
                    if (plan) {
                        int bindings, defs;
                        if (!gb_rn__collect(r, o, scope, name, is, plan, &bindings, &defs, why)) return false;
                        if (bindings != 1) {
                            gb_error_set(why, "%s rebinds the imported %s", r->ctx->prog->modules.items[o].path, name);
                            return false;
                        }
                    }
                    if (f) {
                        struct GbRnAlias a = {o, scope, gb_strdup(name), false};
                        gb_array_push(&f->aliases, a);
                    }
                }
            } else {
                uint32_t c = ts_node_named_child_count(st);
                for (uint32_t k = 0; k < c; k++) {
                    TSNode it = ts_node_named_child(st, k);
                    TSNode imported = gb_node_is_kind(it, GB_NK_ALIASED_IMPORT) ? gb_node_field(it, "name") : it;
                    if (!gb_node_is_kind(imported, GB_NK_DOTTED_NAME) || !gb_node_text_eq(imported, src, mn)) continue;
                    if (strchr(mn, '.')) {
                        gb_error_set(why, "%s imports the package module %s", r->ctx->prog->modules.items[o].path, mn);
                        return false;
                    }
                    TSNode bound = gb_node_is_kind(it, GB_NK_ALIASED_IMPORT) ? gb_node_field(it, "alias")
                                                                             : ts_node_named_child(imported, 0);
                    int scope = gb_rn__occ_scope(mod, ts_node_start_byte(bound));
                    char *local = gb_node_text(bound, src);
                    if (scope < 0) {
                        free(local);
                        gb_error_set(why, "cannot follow `import %s`", mn);
                        return false;
                    }
                    /* Every use of the module object must be `<local>.attr`. */
                    for (size_t q = 0; q < mod->occ.len; q++) {
                        const GbOccurrence *oc = &mod->occ.items[q];
                        if (oc->flag != GB_NAME_READ || !gb_rn__text_is(src, oc->start, oc->end, local)) continue;
                        if (!gb_rn__denotes(mod, oc->scope, local, scope)) continue;
                        TSNode id = gb_rn__ident_node(mod, oc->start, oc->end);
                        TSNode parent = ts_node_parent(id);
                        if (!gb_node_is_kind(parent, GB_NK_ATTRIBUTE) ||
                            !ts_node_eq(gb_node_field(parent, "object"), id)) {
                            free(local);
                            gb_error_set(why, "the module %s is used as a value in %s", mn,
                                         r->ctx->prog->modules.items[o].path);
                            return false;
                        }
                        TSNode attr = gb_node_field(parent, "attribute");
                        if (gb_node_text_eq(attr, src, name)) {
                            if (plan)
                                gb_rn__spot(plan, o, ts_node_start_byte(attr), ts_node_end_byte(attr), GB_SPOT_IDENT,
                                            GB_NAME_READ);
                            if (f && !gb_rn__is_callee_attr(mod, attr)) f->escapes = true;
                        }
                    }
                    if (f) {
                        struct GbRnAlias a = {o, scope, local, true};
                        gb_array_push(&f->aliases, a);
                    } else {
                        free(local);
                    }
                }
            }
        }
    }
    return true;
}

/* What we know about the function whose scope is d (a def or a lambda). */
static bool gb_rn__func(GbRenamer *r, size_t m, int d, GbRnFunc *f, GbError *why)
{
    GbRnModule *mod = &r->mods.items[m];
    const GbScope *sc = &mod->sc->scopes.items[d];
    memset(f, 0, sizeof *f);
    f->module = m;
    f->escapes = true;
    if (sc->kind != GB_SCOPE_FUNCTION || !sc->name) return true;
    f->name = sc->name;
    f->scope = sc->parent;
    if (gb_op_ctx_is_pinned(r->ctx, sc->name)) {
        gb_error_set(why, "its function %s is pinned", sc->name);
        return false;
    }
    if (mod->sc->scopes.items[sc->parent].kind == GB_SCOPE_CLASS) return true; /* a method */
    TSNode fn = gb_op_ctx_node_at(r->ctx, m, sc->node_start, sc->node_end, GB_NK_FUNCTION_DEFINITION);
    if (ts_node_is_null(fn) || gb_node_is_kind(ts_node_parent(fn), GB_NK_DECORATED_DEFINITION)) return true;
    GbRenamePlan uses;
    gb_rename_plan_init(&uses);
    GbError ignore;
    int bindings, defs;
    bool ok = gb_rn__collect(r, m, f->scope, f->name, UINT32_MAX, &uses, &bindings, &defs, &ignore) && bindings == 1 &&
              defs == 1;
    if (ok && f->scope == 0) ok = gb_rn__cross_module(r, m, f->name, NULL, f, &ignore);
    if (ok) {
        f->tracked = true;
        f->escapes = false;
        for (size_t i = 0; i < uses.spots.len; i++)
            if (uses.spots.items[i].flag == GB_NAME_READ && !gb_rn__is_callee(mod, uses.spots.items[i].start))
                f->escapes = true;
        /* Names it is imported under elsewhere: every use must be a call as well. */
        for (size_t a = 0; a < f->aliases.len && !f->escapes; a++) {
            const struct GbRnAlias *al = &f->aliases.items[a];
            if (al->is_module) continue;
            GbRenamePlan au;
            gb_rename_plan_init(&au);
            if (!gb_rn__collect(r, al->module, al->scope, al->name, UINT32_MAX, &au, &bindings, &defs, &ignore) ||
                bindings != 1)
                f->escapes = true;
            for (size_t i = 0; i < au.spots.len; i++)
                if (au.spots.items[i].flag == GB_NAME_READ &&
                    !gb_rn__is_callee(&r->mods.items[al->module], au.spots.items[i].start))
                    f->escapes = true;
            gb_rename_plan_destroy(&au);
        }
    } else {
        f->tracked = false;
        f->escapes = true;
    }
    gb_rename_plan_destroy(&uses);
    return true;
}

/* True when the call (in module o) certainly calls f. */
static bool gb_rn__calls_func(const GbRenamer *r, size_t o, const GbRnCall *call, const GbRnFunc *f)
{
    if (!f->tracked) return false;
    const GbRnModule *mod = &r->mods.items[o];
    const char *src = mod->src;
    if (call->kind == GB_RN_CALLEE_IDENT) {
        int scope = gb_rn__occ_scope(mod, call->callee.s);
        if (scope < 0) return false;
        if (o == f->module && gb_rn__text_is(src, call->callee.s, call->callee.e, f->name) &&
            gb_rn__denotes(mod, scope, f->name, f->scope))
            return true;
        for (size_t a = 0; a < f->aliases.len; a++) {
            const struct GbRnAlias *al = &f->aliases.items[a];
            if (al->is_module || al->module != o) continue;
            if (gb_rn__text_is(src, call->callee.s, call->callee.e, al->name) &&
                gb_rn__denotes(mod, scope, al->name, al->scope))
                return true;
        }
    } else if (call->kind == GB_RN_CALLEE_ATTR && call->object.e > call->object.s) {
        int scope = gb_rn__occ_scope(mod, call->object.s);
        if (scope < 0 || !gb_rn__text_is(src, call->callee.s, call->callee.e, f->name)) return false;
        for (size_t a = 0; a < f->aliases.len; a++) {
            const struct GbRnAlias *al = &f->aliases.items[a];
            if (!al->is_module || al->module != o) continue;
            if (gb_rn__text_is(src, call->object.s, call->object.e, al->name) &&
                gb_rn__denotes(mod, scope, al->name, al->scope))
                return true;
        }
    }
    return false;
}

typedef enum { GB_RN_PARAM_KEYWORD, GB_RN_PARAM_POSITIONAL_ONLY, GB_RN_PARAM_STAR } GbRnParamKind;

/* True when the call certainly cannot hand a keyword name on to a function passed around as a
 * value: its callee is a builtin other than dict (dict(b=1) builds the mapping of
 * `Thread(target=f, kwargs=dict(b=1))`). Imported callees (functools.partial, threading.Thread,
 * an executor's submit) and the program's own functions may forward keywords to what they are
 * given. */
static bool gb_rn__keeps_keywords(const GbRenamer *r, size_t o, const GbRnCall *call)
{
    if (call->kind != GB_RN_CALLEE_IDENT) return false;
    const GbRnModule *mod = &r->mods.items[o];
    int scope = gb_rn__occ_scope(mod, call->callee.s);
    if (scope < 0 || gb_rn__text_is(mod->src, call->callee.s, call->callee.e, "dict")) return false;
    char *name = gb_strndup(mod->src + call->callee.s, call->callee.e - call->callee.s);
    bool builtin = gb_scopes_resolve(mod->sc, scope, name, NULL) == GB_RESOLVE_BUILTIN;
    free(name);
    return builtin;
}

/* True when a keyword parameter `name` of a function that escapes (is passed around as a value)
 * may be passed by a name the program or the tests spell as a string: `kwargs={'b': 5}`,
 * `run(fn, args, {'b': 7})`, `f(**{'b': 1})`, `d['b'] = 1`. The string can reach the call as a
 * dictionary key wherever the function goes, so the rename is refused. */
static bool gb_rn__spelled_as_string(const GbRenamer *r, const char *name, GbError *why)
{
    for (size_t o = 0; o < r->mods.len; o++)
        if (r->mods.items[o].ok && gb_names_has(&r->mods.items[o].strings, name)) {
            gb_error_set(why, "a string in %s spells the keyword %s", r->ctx->prog->modules.items[o].path, name);
            return true;
        }
    if (gb_names_has(&r->test_strings, name)) {
        gb_error_set(why, "a string in the tests spells the keyword %s", name);
        return true;
    }
    return false;
}

/* How the parameter `name` of scope d can be passed. */
static bool gb_rn__param_kind(GbRenamer *r, size_t m, int d, const char *name, GbRnParamKind *kind, GbError *why)
{
    GbRnModule *mod = &r->mods.items[m];
    for (size_t i = 0; i < mod->occ.len; i++) {
        const GbOccurrence *o = &mod->occ.items[i];
        if (o->scope != d || o->flag != GB_NAME_PARAM || !gb_rn__text_is(mod->src, o->start, o->end, name)) continue;
        TSNode id = gb_rn__ident_node(mod, o->start, o->end);
        TSNode top = id;
        while (!ts_node_is_null(ts_node_parent(top)) && !gb_node_is_kind(ts_node_parent(top), GB_NK_PARAMETERS) &&
               !gb_node_is_kind(ts_node_parent(top), GB_NK_LAMBDA_PARAMETERS))
            top = ts_node_parent(top);
        TSNode params = ts_node_parent(top);
        if (ts_node_is_null(params)) break;
        for (TSNode p = ts_node_parent(id); !ts_node_eq(p, params); p = ts_node_parent(p)) {
            if (gb_node_is_kind(p, GB_NK_LIST_SPLAT_PATTERN) || gb_node_is_kind(p, GB_NK_DICTIONARY_SPLAT_PATTERN)) {
                *kind = GB_RN_PARAM_STAR;
                return true;
            }
            if (gb_node_is_kind(p, GB_NK_TUPLE_PATTERN)) break;
        }
        /* Positional-only when a `/` follows it. */
        *kind = GB_RN_PARAM_KEYWORD;
        for (TSNode s = ts_node_next_named_sibling(top); !ts_node_is_null(s); s = ts_node_next_named_sibling(s))
            if (gb_node_is_kind(s, GB_NK_POSITIONAL_SEPARATOR)) *kind = GB_RN_PARAM_POSITIONAL_ONLY;
        return true;
    }
    gb_error_set(why, "cannot find the parameter %s", name);
    return false;
}

static int gb_rn__spot_cmp(const void *a, const void *b)
{
    const GbRenameSpot *x = a, *y = b;
    if (x->module != y->module) return x->module < y->module ? -1 : 1;
    if (x->start != y->start) return x->start < y->start ? -1 : 1;
    return 0;
}

static bool gb_rn__plan(GbRenamer *r, size_t m, int d, const char *name, GbRenamePlan *plan, GbError *why)
{
    GbOpContext *ctx = r->ctx;
    if (m >= r->mods.len || !r->mods.items[m].ok) {
        gb_error_set(why, "the module does not parse");
        return false;
    }
    GbRnModule *mod = &r->mods.items[m];
    if (d < 0 || (size_t)d >= mod->sc->scopes.len) {
        gb_error_set(why, "no such scope");
        return false;
    }
    const GbScope *sc = &mod->sc->scopes.items[d];
    if (gb_op_ctx_is_pinned(ctx, name)) {
        gb_error_set(why, "%s is pinned by the tests", name);
        return false;
    }
    if (strncmp(name, "__", 2) == 0) {
        gb_error_set(why, "%s is a dunder or private-mangled name", name);
        return false;
    }
    if (sc->kind == GB_SCOPE_CLASS) {
        gb_error_set(why, "%s is a class attribute", name);
        return false;
    }
    if (d == 0) {
        if (gb_scopes_resolve(mod->sc, 0, name, NULL) != GB_RESOLVE_GLOBAL) {
            gb_error_set(why, "%s is not a module-level variable", name);
            return false;
        }
    } else {
        const GbScopeName *e = gb_scope_name(sc, name);
        if (!e || !(e->flags & GB_NAME_BINDS) || (e->flags & (GB_NAME_GLOBAL | GB_NAME_NONLOCAL))) {
            gb_error_set(why, "%s is not bound in that scope", name);
            return false;
        }
    }
    for (size_t o = 0; o < r->mods.len; o++) {
        if (o != m && d != 0) continue;
        if (r->mods.items[o].dynamic) {
            gb_error_set(why, "%s uses eval/exec/globals()/locals()/vars() or computed attribute names",
                         ctx->prog->modules.items[o].path);
            return false;
        }
        if (r->mods.items[o].star_import) {
            gb_error_set(why, "%s has a star import", ctx->prog->modules.items[o].path);
            return false;
        }
        if (d == 0 && gb_names_has(&r->mods.items[o].strings, name)) {
            gb_error_set(why, "a string in %s spells %s", ctx->prog->modules.items[o].path, name);
            return false;
        }
    }
    if (d == 0 && gb_names_has(&r->test_strings, name)) {
        gb_error_set(why, "a string in the tests spells %s", name);
        return false;
    }
    plan->module = m;
    plan->scope = d;
    plan->name = gb_strdup(name);
    int bindings, defs;
    if (!gb_rn__collect(r, m, d, name, UINT32_MAX, plan, &bindings, &defs, why)) return false;
    if (bindings == 0) {
        gb_error_set(why, "%s has no binding in that scope", name);
        return false;
    }
    if (defs > 0) {
        bool shown = r->test_names_shown;
        for (size_t o = 0; o < r->mods.len; o++) shown = shown || r->mods.items[o].names_shown;
        if (shown) {
            gb_error_set(why, "the program reads __name__/__qualname__ of objects, so function names can show");
            return false;
        }
    }
    if (d == 0 && !gb_rn__cross_module(r, m, name, plan, NULL, why)) return false;

    const GbScopeName *e = gb_scope_name(sc, name);
    if (d != 0 && (e->flags & GB_NAME_PARAM) && (sc->kind == GB_SCOPE_FUNCTION || sc->kind == GB_SCOPE_LAMBDA)) {
        plan->is_param = true;
        GbRnParamKind kind;
        if (!gb_rn__param_kind(r, m, d, name, &kind, why)) return false;
        if (kind == GB_RN_PARAM_KEYWORD) {
            for (size_t o = 0; o < r->mods.len; o++)
                if (r->mods.items[o].introspect) {
                    gb_error_set(why, "%s introspects signatures", ctx->prog->modules.items[o].path);
                    return false;
                }
            GbRnFunc f;
            if (!gb_rn__func(r, m, d, &f, why)) return false;
            bool ok = !(f.escapes && gb_rn__spelled_as_string(r, name, why));
            for (size_t o = 0; o < r->mods.len && ok; o++) {
                const GbRnModule *om = &r->mods.items[o];
                for (size_t c = 0; c < om->calls.len && ok; c++) {
                    const GbRnCall *call = &om->calls.items[c];
                    long kw = -1;
                    for (size_t k = 0; k < call->kw.len; k++)
                        if (gb_rn__text_is(om->src, call->kw.items[k].s, call->kw.items[k].e, name)) kw = (long)k;
                    if (kw < 0 && !call->splat) continue;
                    if (gb_rn__calls_func(r, o, call, &f)) {
                        if (call->splat) {
                            gb_error_set(why, "a call passes **arguments to the function of %s", name);
                            ok = false;
                        } else {
                            gb_rn__spot(plan, o, call->kw.items[kw].s, call->kw.items[kw].e, GB_SPOT_IDENT,
                                        GB_NAME_READ);
                        }
                    } else if (f.escapes && !gb_rn__keeps_keywords(r, o, call)) {
                        gb_error_set(why, "a call with %s%s cannot be resolved", kw >= 0 ? "keyword " : "**",
                                     kw >= 0 ? name : "arguments");
                        ok = false;
                    }
                }
            }
            gb_rn__func_destroy(&f);
            if (!ok) return false;
        }
    }
    /* no qsort(NULL, 0, ...): undefined behaviour (an empty array has no storage) */
    if (plan->spots.len > 1) qsort(plan->spots.items, plan->spots.len, sizeof *plan->spots.items, gb_rn__spot_cmp);
    return true;
}

bool gb_renamer_plan(GbRenamer *r, size_t module, int scope, const char *name, GbRenamePlan *plan, GbError *why)
{
    gb_rn__plan_clear(plan);
    bool ok = gb_rn__plan(r, module, scope, name, plan, why);
    if (!ok) gb_rn__plan_clear(plan);
    return ok;
}

bool gb_rename_name_ok(GbOpContext *ctx, const char *name)
{
    if (!gb_rn__ident_like(name, strlen(name)) || strncmp(name, "__", 2) == 0) return false;
    return !gb_op_ctx_name_taken(ctx, name);
}

void gb_rename_plan_edits(GbOpContext *ctx, const GbRenamePlan *plan, const char *new_name, GbEditSet *set)
{
    for (size_t i = 0; i < plan->spots.len; i++) {
        const GbRenameSpot *s = &plan->spots.items[i];
        if (s->kind == GB_SPOT_IDENT) {
            gb_edits_replace(set, s->module, s->start, s->end, new_name);
        } else {
            const char *src = gb_op_ctx_source(ctx, s->module);
            char *text = gb_asprintf("%.*s as %s", (int)(s->end - s->start), src + s->start, new_name);
            gb_edits_replace(set, s->module, s->start, s->end, text);
            free(text);
        }
    }
}

bool gb_rename_variable(GbOpContext *ctx, size_t module, int scope, const char *name, const char *new_name,
                        GbError *err)
{
    if (!gb_rename_name_ok(ctx, new_name)) {
        gb_error_set(err, "cannot rename %s: %s is not a free identifier", name, new_name);
        return false;
    }
    GbRenamer *r = gb_renamer_new(ctx);
    GbRenamePlan plan;
    gb_rename_plan_init(&plan);
    GbError why;
    bool ok = gb_renamer_plan(r, module, scope, name, &plan, &why);
    if (!ok) gb_error_set(err, "cannot rename %s: %s", name, why.msg);
    GbEditSet set;
    gb_edits_init(&set);
    if (ok) gb_rename_plan_edits(ctx, &plan, new_name, &set);
    gb_renamer_delete(r);
    if (ok) ok = gb_edits_commit(ctx, &set, err);
    gb_edits_destroy(&set);
    gb_rename_plan_destroy(&plan);
    return ok;
}
