#include "operators/api_call.h"

#include <stdlib.h>
#include <string.h>

#include "operators/edit.h"
#include "src/python/pyparse.h"
#include "src/python/scope.h"

/* ---- Which functions may run many times ---- */

typedef struct {
    char *name;
    uint32_t start, end; /* the function_definition node */
    bool decorated;
    char *class_name; /* methods: the class (else NULL) */
    GbNames calls;    /* names called in its own body (nested defs excluded) */
    bool spread;      /* its calls were marked hot */
} GbApiFunc;

typedef struct {
    size_t module;
    GbArray(GbApiFunc) funcs;
    GbNames hot;  /* names called where code runs repeatedly */
    GbNames refs; /* names referred to other than as a callee */
} GbApiHeat;

typedef struct {
    GbApiHeat *heat;
    const char *src;
    bool tests; /* walking the test code: only hot calls count */
    GbArray(uint32_t) callees;
} GbApiWalk;

static TSNode gb_api__field(TSNode n, const char *f)
{
    return ts_node_child_by_field_name(n, f, (uint32_t)strlen(f));
}

static void gb_api__add_text(GbNames *names, TSNode n, const char *src)
{
    char *t = gb_node_text(n, src);
    gb_names_add(names, t);
    free(t);
}

static void gb_api__walk(GbApiWalk *w, TSNode n, int loop, long func, const char *cls, bool in_class)
{
    GbNodeKind t = gb_node_kind(n);
    const char *src = w->src;
    if (t == GB_NK_FUNCTION_DEFINITION && !w->tests) {
        TSNode name = gb_api__field(n, "name"), body = gb_api__field(n, "body");
        GbApiFunc f;
        memset(&f, 0, sizeof f);
        f.name = ts_node_is_null(name) ? gb_strdup("") : gb_node_text(name, src);
        f.start = ts_node_start_byte(n);
        f.end = ts_node_end_byte(n);
        f.decorated = gb_node_is_kind(ts_node_parent(n), GB_NK_DECORATED_DEFINITION);
        f.class_name = in_class && cls ? gb_strdup(cls) : NULL;
        gb_array_push(&w->heat->funcs, f);
        long me = (long)w->heat->funcs.len - 1;
        uint32_t c = ts_node_named_child_count(n);
        for (uint32_t i = 0; i < c; i++) {
            TSNode k = ts_node_named_child(n, i);
            if (ts_node_eq(k, body))
                gb_api__walk(w, k, 0, me, cls, false);
            else if (!ts_node_eq(k, name))
                gb_api__walk(w, k, loop, func, cls, in_class);
        }
        return;
    }
    if (t == GB_NK_CLASS_DEFINITION) {
        TSNode name = gb_api__field(n, "name"), body = gb_api__field(n, "body");
        char *cname = ts_node_is_null(name) ? NULL : gb_node_text(name, src);
        uint32_t c = ts_node_named_child_count(n);
        for (uint32_t i = 0; i < c; i++) {
            TSNode k = ts_node_named_child(n, i);
            if (ts_node_eq(k, body))
                gb_api__walk(w, k, loop, func, cname, true);
            else if (!ts_node_eq(k, name))
                gb_api__walk(w, k, loop, func, cls, in_class);
        }
        free(cname);
        return;
    }
    if (t == GB_NK_FOR_STATEMENT) {
        TSNode right = gb_api__field(n, "right");
        uint32_t c = ts_node_named_child_count(n);
        for (uint32_t i = 0; i < c; i++) {
            TSNode k = ts_node_named_child(n, i);
            gb_api__walk(w, k, ts_node_eq(k, right) ? loop : loop + 1, func, cls, in_class);
        }
        return;
    }
    if (t == GB_NK_WHILE_STATEMENT || t == GB_NK_LIST_COMPREHENSION || t == GB_NK_SET_COMPREHENSION ||
        t == GB_NK_DICTIONARY_COMPREHENSION || t == GB_NK_GENERATOR_EXPRESSION || t == GB_NK_LAMBDA)
        loop++;
    if (t == GB_NK_CALL) {
        TSNode f = gb_api__field(n, "function");
        TSNode name = gb_node_is_kind(f, GB_NK_ATTRIBUTE) ? gb_api__field(f, "attribute") : f;
        if (gb_node_is_kind(name, GB_NK_IDENTIFIER)) {
            if (loop > 0) gb_api__add_text(&w->heat->hot, name, src);
            if (!w->tests && func >= 0) gb_api__add_text(&w->heat->funcs.items[func].calls, name, src);
            gb_array_push(&w->callees, ts_node_start_byte(name));
        }
    } else if (t == GB_NK_ATTRIBUTE && !w->tests) {
        TSNode parent = ts_node_parent(n);
        bool callee = gb_node_is_kind(parent, GB_NK_CALL) && ts_node_eq(gb_api__field(parent, "function"), n);
        TSNode a = gb_api__field(n, "attribute");
        if (!callee && !ts_node_is_null(a)) gb_api__add_text(&w->heat->refs, a, src);
    }
    uint32_t c = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < c; i++) gb_api__walk(w, ts_node_named_child(n, i), loop, func, cls, in_class);
}

static int gb_api__u32_cmp(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static bool gb_api__has_u32(const uint32_t *v, size_t n, uint32_t x)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (v[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && v[lo] == x;
}

static bool gb_api__func_hot(const GbApiHeat *h, const GbApiFunc *f)
{
    if (f->decorated || gb_names_has(&h->hot, f->name) || gb_names_has(&h->refs, f->name)) return true;
    if (gb_names_has(&f->calls, f->name)) return true; /* recursive (or calls a namesake) */
    size_t n = strlen(f->name);
    bool dunder = n > 4 && strncmp(f->name, "__", 2) == 0 && strcmp(f->name + n - 2, "__") == 0;
    if (dunder && strcmp(f->name, "__init__") != 0) return true; /* called implicitly */
    if (strcmp(f->name, "__init__") == 0 && f->class_name &&
        (gb_names_has(&h->hot, f->class_name) || gb_names_has(&h->refs, f->class_name)))
        return true;
    return false;
}

static void gb_api__heat_destroy(GbApiHeat *h)
{
    for (size_t i = 0; i < h->funcs.len; i++) {
        free(h->funcs.items[i].name);
        free(h->funcs.items[i].class_name);
        gb_names_destroy(&h->funcs.items[i].calls);
    }
    gb_array_free(&h->funcs);
    gb_names_destroy(&h->hot);
    gb_names_destroy(&h->refs);
}

/* The heat of the whole program (all modules and the tests). Function ranges are those of
 * module `module`. */
static void gb_api__heat(GbOpContext *ctx, size_t module, GbApiHeat *h)
{
    memset(h, 0, sizeof *h);
    h->module = module;
    GbApiHeat other;
    for (size_t m = 0; m < ctx->prog->modules.len; m++) {
        if (!gb_op_ctx_module_ok(ctx, m)) continue;
        GbApiHeat *target = m == module ? h : &other;
        if (m != module) memset(&other, 0, sizeof other);
        GbApiWalk w = {target, gb_op_ctx_source(ctx, m), false, {0}};
        TSNode root = ts_tree_root_node(gb_op_ctx_tree(ctx, m));
        gb_api__walk(&w, root, 0, -1, NULL, false);
        /* no qsort(NULL, 0, ...): undefined behaviour (an empty array has no storage) */
        if (w.callees.len > 1) qsort(w.callees.items, w.callees.len, sizeof *w.callees.items, gb_api__u32_cmp);
        /* Names read as values (not called): callbacks, key=, target=, decorators. */
        const GbOccurrences *occ = gb_op_ctx_occurrences(ctx, m);
        for (size_t i = 0; i < occ->len; i++) {
            const GbOccurrence *o = &occ->items[i];
            if (o->flag != GB_NAME_READ || gb_api__has_u32(w.callees.items, w.callees.len, o->start)) continue;
            char *name = gb_strndup(w.src + o->start, o->end - o->start);
            gb_names_add(&target->refs, name);
            free(name);
        }
        gb_array_free(&w.callees);
        if (m != module) {
            /* other modules' functions share the name space conservatively */
            for (size_t i = 0; i < other.hot.len; i++) gb_names_add(&h->hot, other.hot.items[i]);
            for (size_t i = 0; i < other.refs.len; i++) gb_names_add(&h->refs, other.refs.items[i]);
            for (size_t i = 0; i < other.funcs.len; i++) {
                GbApiFunc f = other.funcs.items[i];
                f.start = f.end = 0; /* not in this module */
                gb_array_push(&h->funcs, f);
            }
            other.funcs.len = 0;
            gb_api__heat_destroy(&other);
        }
    }
    const GbTask *t = ctx->task;
    if (t && t->test_code && *t->test_code) {
        TSTree *tree = gb_parse(ctx->parser, t->test_code, strlen(t->test_code));
        GbApiWalk w = {h, t->test_code, true, {0}};
        gb_api__walk(&w, ts_tree_root_node(tree), 0, -1, NULL, false);
        gb_array_free(&w.callees);
        ts_tree_delete(tree);
        if (gb_names_has(&h->hot, "candidate") && t->entry_point) gb_names_add(&h->hot, t->entry_point);
    }
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t i = 0; i < h->funcs.len; i++) {
            GbApiFunc *f = &h->funcs.items[i];
            if (f->spread || !gb_api__func_hot(h, f)) continue;
            f->spread = true;
            changed = true;
            for (size_t k = 0; k < f->calls.len; k++) gb_names_add(&h->hot, f->calls.items[k]);
        }
    }
}

/* ---- Sites ---- */

/* A module-level statement of a stdio script (where the program's logic is module-level code;
 * in a task whose tests call functions or classes, a call between definitions would be noise
 * beside the code under test) runs once unless a loop encloses it. It is an executable
 * statement, not a definition (a call squeezed between definitions reads as no real program
 * does), and comes after the leading block of imports (where gb_edits_add_import puts the
 * call's import), so that the import runs first. */
static bool gb_api__module_site_ok(GbOpContext *ctx, size_t m, TSNode s)
{
    if (!ctx->task || ctx->task->kind != GB_TESTS_STDIO || ctx->task->harness == GB_HARNESS_CLASSEVAL) return false;
    GbNodeKind sk = gb_node_kind(s);
    if (sk == GB_NK_FUNCTION_DEFINITION || sk == GB_NK_CLASS_DEFINITION || sk == GB_NK_DECORATED_DEFINITION)
        return false;
    for (TSNode p = ts_node_parent(s); !ts_node_is_null(p); p = ts_node_parent(p))
        if (gb_node_is_loop(p)) return false;
    TSNode root = ts_tree_root_node(gb_op_ctx_tree(ctx, m));
    uint32_t n = ts_node_named_child_count(root);
    for (uint32_t i = 0; i < n; i++) {
        TSNode c = ts_node_named_child(root, i);
        GbNodeKind k = gb_node_kind(c);
        if (!gb_node_is_statement(c) || gb_stmt_is_docstring(c) || k == GB_NK_FUTURE_IMPORT_STATEMENT ||
            k == GB_NK_IMPORT_STATEMENT || k == GB_NK_IMPORT_FROM_STATEMENT)
            continue;
        return ts_node_start_byte(s) >= ts_node_start_byte(c);
    }
    return false;
}

static bool gb_api__site_ok(GbOpContext *ctx, size_t m, TSNode s, const GbApiHeat *heat)
{
    if (!gb_node_is_statement(s)) return false;
    bool top = gb_node_is_kind(ts_node_parent(s), GB_NK_MODULE);
    if (!top && !gb_node_is_kind(ts_node_parent(s), GB_NK_BLOCK)) return false;
    const char *src = gb_op_ctx_source(ctx, m);
    if (gb_stmt_is_docstring(s) || !gb_stmt_owns_lines(src, s)) return false;
    const GbScopes *sc = gb_op_ctx_scopes(ctx, m);
    const GbScope *scope = &sc->scopes.items[gb_scopes_at(sc, ts_node_start_byte(s))];
    if (scope->kind == GB_SCOPE_MODULE) return !scope->dynamic && gb_api__module_site_ok(ctx, m, s);
    if (scope->kind != GB_SCOPE_FUNCTION) return false;
    for (TSNode p = ts_node_parent(s); !ts_node_is_null(p); p = ts_node_parent(p)) {
        if (ts_node_start_byte(p) == scope->node_start && ts_node_end_byte(p) == scope->node_end) break;
        if (gb_node_is_loop(p)) return false;
    }
    for (size_t i = 0; i < heat->funcs.len; i++) {
        const GbApiFunc *f = &heat->funcs.items[i];
        if (f->start == scope->node_start && f->end == scope->node_end) return !gb_api__func_hot(heat, f);
    }
    return false;
}

/* True when word occurs in the test code as a whole word (in code or in a string such as
 * mock.patch('datetime.datetime')). */
static bool gb_api__tests_mention(GbOpContext *ctx, const char *word)
{
    return ctx->task && gb_text_has_word(ctx->task->test_code, word);
}

/* True when the tests mock and mention one of the template's modules or names. */
static bool gb_api__mocked(GbOpContext *ctx, const GbApiTemplate *t)
{
    static const char *const mockers[] = {"mock", "patch", "Mock", "MagicMock", "monkeypatch", "mocker"};
    bool mocks = false;
    for (size_t i = 0; i < sizeof mockers / sizeof *mockers; i++) mocks = mocks || gb_op_ctx_is_pinned(ctx, mockers[i]);
    if (!mocks) return false;
    for (int k = 0; k < 2; k++) {
        const GbApiImport *imp = &t->imports[k];
        if (!imp->module) continue;
        if (imp->attr && gb_api__tests_mention(ctx, imp->attr)) return true;
        char *mod = gb_strdup(imp->module), *save = NULL;
        bool hit = false;
        for (char *part = strtok_r(mod, ".", &save); part && !hit; part = strtok_r(NULL, ".", &save))
            hit = gb_api__tests_mention(ctx, part);
        free(mod);
        if (hit) return true;
    }
    return false;
}

void gb_api_find(GbOpContext *ctx, GbSiteList *out, const GbApiTemplate *templates, size_t n)
{
    bool usable = false;
    for (size_t i = 0; i < n && !usable; i++) usable = !gb_api__mocked(ctx, &templates[i]);
    if (!usable) return;
    for (size_t m = 0; m < ctx->prog->modules.len; m++) {
        if (!gb_op_ctx_module_ok(ctx, m)) continue;
        GbApiHeat heat;
        gb_api__heat(ctx, m, &heat);
        GbNodes stmts = {0};
        gb_stmts_collect(ts_tree_root_node(gb_op_ctx_tree(ctx, m)), &stmts);
        for (size_t i = 0; i < stmts.len; i++)
            if (gb_api__site_ok(ctx, m, stmts.items[i], &heat)) gb_site_add(ctx, out, m, stmts.items[i], NULL, 0, NULL);
        gb_array_free(&stmts);
        gb_api__heat_destroy(&heat);
    }
}

/* ---- Imports ---- */

/* The name bound by a leading top-level import of exactly module[.attr] that nothing else
 * binds anywhere in the module, or NULL. Owned. */
static char *gb_api__existing_import(GbOpContext *ctx, size_t m, const GbApiImport *imp)
{
    const char *src = gb_op_ctx_source(ctx, m);
    TSNode root = ts_tree_root_node(gb_op_ctx_tree(ctx, m));
    uint32_t n = ts_node_named_child_count(root);
    char *found = NULL;
    for (uint32_t i = 0; i < n && !found; i++) {
        TSNode st = ts_node_named_child(root, i);
        if (gb_node_is_kind(st, GB_NK_COMMENT)) continue;
        if (gb_stmt_is_docstring(st) || gb_node_is_kind(st, GB_NK_FUTURE_IMPORT_STATEMENT)) continue;
        bool from = gb_node_is_kind(st, GB_NK_IMPORT_FROM_STATEMENT);
        if (!from && !gb_node_is_kind(st, GB_NK_IMPORT_STATEMENT))
            break; /* only the leading imports run before any def */
        if (from != (imp->attr != NULL)) continue;
        if (from && !gb_node_text_eq(gb_api__field(st, "module_name"), src, imp->module)) continue;
        uint32_t c = ts_node_named_child_count(st);
        for (uint32_t k = 0; k < c && !found; k++) {
            TSNode it = ts_node_named_child(st, k);
            if (from && ts_node_eq(it, gb_api__field(st, "module_name"))) continue;
            bool aliased = gb_node_is_kind(it, GB_NK_ALIASED_IMPORT);
            TSNode name = aliased ? gb_api__field(it, "name") : it;
            if (!gb_node_is_kind(name, GB_NK_DOTTED_NAME) ||
                !gb_node_text_eq(name, src, from ? imp->attr : imp->module))
                continue;
            if (!aliased && !from && strchr(imp->module, '.')) continue; /* `import a.b` binds a */
            found = gb_node_text(aliased ? gb_api__field(it, "alias") : name, src);
        }
    }
    if (!found) return NULL;
    /* bound exactly once, by that import, and never rebound or declared elsewhere */
    const GbScopes *sc = gb_op_ctx_scopes(ctx, m);
    bool ok = !sc->scopes.items[0].star_import;
    for (size_t i = 0; i < sc->scopes.len && ok; i++) {
        const GbScopeName *e = gb_scope_name(&sc->scopes.items[i], found);
        if (!e) continue;
        if (i == 0 && (e->flags & GB_NAME_BINDS) != GB_NAME_IMPORT) ok = false;
        if (i != 0 && (e->flags & (GB_NAME_BINDS | GB_NAME_GLOBAL | GB_NAME_NONLOCAL))) ok = false;
    }
    if (ok) {
        GbOccurrences occ = {0};
        gb_scopes_occurrences(sc, src, root, &occ);
        int binds = 0;
        for (size_t i = 0; i < occ.len; i++)
            if (occ.items[i].flag == GB_NAME_IMPORT && occ.items[i].end - occ.items[i].start == strlen(found) &&
                memcmp(src + occ.items[i].start, found, strlen(found)) == 0)
                binds++;
        gb_array_free(&occ);
        ok = binds == 1;
    }
    if (!ok) {
        free(found);
        return NULL;
    }
    return found;
}

static char *gb_api__import(GbOpContext *ctx, GbEditSet *set, size_t m, const GbApiImport *imp)
{
    char *existing = gb_api__existing_import(ctx, m, imp);
    if (existing) {
        char *name = gb_edits_add_import(ctx, set, m, imp->module, imp->attr, existing);
        free(existing);
        return name;
    }
    const char *pick = NULL;
    for (size_t i = 0; i < 3 && imp->names[i] && !pick; i++)
        if (!gb_op_ctx_name_taken(ctx, imp->names[i])) pick = imp->names[i];
    if (!pick) pick = imp->names[0];
    return gb_edits_add_import(ctx, set, m, imp->module, imp->attr, pick);
}

/* ---- Templates ---- */

static const char *const gb_api_words[] = {"alpha",  "report", "token",  "payload", "session", "record",
                                           "status", "sample", "config", "message", "invoice", "profile",
                                           "ledger", "ticket", "signal", "archive"};
static const char *const gb_api_hosts[] = {"example.com",        "api.example.org",  "localhost",
                                           "status.example.net", "data.example.com", "service.local"};
static const unsigned gb_api_ports[] = {80, 8080, 8000, 5000, 8443, 3000};

typedef struct {
    char *key;
    char *value;
} GbApiSlot;

static void gb_api__floats(GbRng *rng, size_t n, GbStr *out)
{
    /* distinct: strictly increasing steps, then a rotation so the order is not sorted */
    unsigned v[8];
    unsigned x = 1 + gb_rng_bounded(rng, 20);
    for (size_t i = 0; i < n; i++) {
        v[i] = x;
        x += 1 + gb_rng_bounded(rng, 15);
    }
    size_t rot = gb_rng_bounded(rng, (uint32_t)n);
    gb_str_append(out, "[");
    for (size_t i = 0; i < n; i++) {
        unsigned y = v[(i + rot) % n];
        gb_str_appendf(out, "%s%u.%u", i ? ", " : "", y / 2, (y % 2) * 5);
    }
    gb_str_append(out, "]");
}

static char *gb_api__value(const char *key, GbRng *rng, size_t len_xs)
{
    GbStr s;
    gb_str_init(&s);
    gb_str_append(&s, "");
    if (strcmp(key, "d") == 0) {
        unsigned n = 8 + gb_rng_bounded(rng, 5);
        for (unsigned i = 0; i < n; i++)
            gb_str_appendf(&s, "%u", i == 0 ? 1 + gb_rng_bounded(rng, 9) : gb_rng_bounded(rng, 10));
    } else if (strcmp(key, "a") == 0) {
        gb_str_append(&s, gb_api_words[gb_rng_bounded(rng, sizeof gb_api_words / sizeof *gb_api_words)]);
    } else if (strcmp(key, "k") == 0 || strcmp(key, "k2") == 0) {
        gb_str_appendf(&s, "%u", 1 + gb_rng_bounded(rng, 9));
    } else if (strcmp(key, "h") == 0) {
        gb_str_appendf(&s, "%u", gb_rng_bounded(rng, 24));
    } else if (strcmp(key, "Y") == 0) {
        gb_str_appendf(&s, "%u", 1995 + gb_rng_bounded(rng, 36));
    } else if (strcmp(key, "M") == 0 || strcmp(key, "M2") == 0) {
        gb_str_appendf(&s, key[1] ? "%02u" : "%u", 1 + gb_rng_bounded(rng, 12));
    } else if (strcmp(key, "D") == 0 || strcmp(key, "D2") == 0) {
        gb_str_appendf(&s, key[1] ? "%02u" : "%u", 1 + gb_rng_bounded(rng, 28));
    } else if (strcmp(key, "H2") == 0) {
        gb_str_appendf(&s, "%02u", gb_rng_bounded(rng, 24));
    } else if (strcmp(key, "I2") == 0) {
        gb_str_appendf(&s, "%02u", gb_rng_bounded(rng, 60));
    } else if (strcmp(key, "host") == 0) {
        gb_str_append(&s, gb_api_hosts[gb_rng_bounded(rng, sizeof gb_api_hosts / sizeof *gb_api_hosts)]);
    } else if (strcmp(key, "p") == 0) {
        gb_str_appendf(&s, "%u", gb_api_ports[gb_rng_bounded(rng, sizeof gb_api_ports / sizeof *gb_api_ports)]);
    } else if (strcmp(key, "xs") == 0 || strcmp(key, "ys") == 0) {
        gb_api__floats(rng, len_xs, &s);
    } else if (strcmp(key, "ints") == 0) {
        size_t n = 4 + gb_rng_bounded(rng, 3);
        unsigned x = gb_rng_bounded(rng, 10);
        unsigned v[8];
        for (size_t i = 0; i < n; i++) {
            v[i] = x;
            x += 1 + gb_rng_bounded(rng, 9);
        }
        for (size_t i = n; i > 1; i--) {
            size_t j = gb_rng_bounded(rng, (uint32_t)i);
            unsigned t = v[i - 1];
            v[i - 1] = v[j];
            v[j] = t;
        }
        gb_str_append(&s, "[");
        for (size_t i = 0; i < n; i++) gb_str_appendf(&s, "%s%u", i ? ", " : "", v[i]);
        gb_str_append(&s, "]");
    } else if (strcmp(key, "bits") == 0 || strcmp(key, "bits2") == 0) {
        gb_str_append(&s, "[");
        for (int i = 0; i < 6; i++) gb_str_appendf(&s, "%s%u", i ? ", " : "", gb_rng_bounded(rng, 2));
        gb_str_append(&s, "]");
    } else if (strcmp(key, "f1") == 0 || strcmp(key, "f2") == 0 || strcmp(key, "f3") == 0) {
        /* distinct by construction: f1 in [0, 10), f2 in [10, 20), f3 in [20, 30) */
        unsigned base = (unsigned)(key[1] - '1') * 10;
        gb_str_appendf(&s, "%u.%u", base + gb_rng_bounded(rng, 10), gb_rng_bounded(rng, 10));
    } else if (strcmp(key, "n") == 0) {
        gb_str_appendf(&s, "%u", 5 + gb_rng_bounded(rng, 8));
    } else if (strcmp(key, "r") == 0) {
        gb_str_appendf(&s, "%u", 1 + gb_rng_bounded(rng, 4));
    } else if (strcmp(key, "pt") == 0 || strcmp(key, "pt2") == 0) {
        gb_str_appendf(&s, "[%u.0, %u.0]", gb_rng_bounded(rng, 10), gb_rng_bounded(rng, 10));
    } else {
        gb_str_destroy(&s);
        return NULL;
    }
    return gb_str_take(&s);
}

char *gb_api_fill(const char *code, const char *const *imports, const char *const *vars, GbRng *rng)
{
    GbArray(GbApiSlot) slots = {0};
    size_t len_xs = 4 + gb_rng_bounded(rng, 3);
    GbStr out;
    gb_str_init(&out);
    gb_str_append(&out, "");
    for (const char *p = code; *p;) {
        const char *close = *p == '{' ? strchr(p, '}') : NULL;
        if (!close) {
            gb_str_append_n(&out, p, 1);
            p++;
            continue;
        }
        char *key = gb_strndup(p + 1, (size_t)(close - p - 1));
        const char *value = NULL;
        if (strcmp(key, "0") == 0)
            value = imports[0];
        else if (strcmp(key, "1") == 0)
            value = imports[1];
        else if (strcmp(key, "v") == 0)
            value = vars[0];
        else if (strcmp(key, "w") == 0)
            value = vars[1];
        for (size_t i = 0; i < slots.len && !value; i++)
            if (strcmp(slots.items[i].key, key) == 0) value = slots.items[i].value;
        if (!value) {
            char *v = gb_api__value(key, rng, len_xs);
            if (v) {
                GbApiSlot slot = {gb_strdup(key), v};
                gb_array_push(&slots, slot);
                value = v;
            }
        }
        if (value) {
            gb_str_append(&out, value);
            p = close + 1;
        } else {
            gb_str_append_n(&out, p, 1);
            p++;
        }
        free(key);
    }
    for (size_t i = 0; i < slots.len; i++) {
        free(slots.items[i].key);
        free(slots.items[i].value);
    }
    gb_array_free(&slots);
    return gb_str_take(&out);
}

/* True when the function's own code can see its locals by name (then no new local may
 * appear): locals(), vars(), dir(), eval(), exec(). */
static bool gb_api__introspective(GbOpContext *ctx, size_t m, const GbScope *scope)
{
    if (scope->dynamic) return true;
    const char *src = gb_op_ctx_source(ctx, m);
    for (uint32_t i = scope->start; i + 4 <= scope->end; i++)
        if (strncmp(src + i, "dir(", 4) == 0 &&
            (i == 0 || !(src[i - 1] == '_' || src[i - 1] == '.' || (src[i - 1] >= 'a' && src[i - 1] <= 'z') ||
                         (src[i - 1] >= 'A' && src[i - 1] <= 'Z') || (src[i - 1] >= '0' && src[i - 1] <= '9'))))
            return true;
    return false;
}

/* A template's variable is named by one of its role's words (the first is the template's own), so
 * that the same few names do not recur across a benchmark. */
static const char *const gb_api_var_words[][6] = {
    {"payload", "blob", "packed", "wire_data", "chunk", "body"},
    {"encoded", "token_bytes", "armored", "b64_text", "serialized", "text_form"},
    {"raw", "source_bytes", "plain", "octets", "data_bytes", "content"},
    {"hasher", "digest", "checksum_state", "hash_state", "fingerprint", "summary_hash"},
    {"digest_builder", "hash_ctx", "mac_builder", "signer", "hash_job", "checksum"},
    {"cipher", "box", "sealer", "crypter", "vault", "lockbox"},
    {"secret_key", "key_material", "session_key", "sym_key", "shared_key", "master_key"},
    {"moment", "instant", "timestamp", "when", "point_in_time", "tick"},
    {"now", "current", "present", "at_start", "right_now", "clock_value"},
    {"stamp", "time_mark", "mark", "checkpoint", "epoch_value", "recorded_at"},
    {"started", "began", "t_begin", "start_mark", "opened_at", "launch"},
    {"elapsed", "duration", "took", "spent", "delta_t", "runtime"},
    {"due_date", "deadline", "expiry", "target_day", "cutoff", "renewal"},
    {"parsed", "resolved", "decoded_date", "as_date", "read_back", "interpreted"},
    {"conn", "link", "channel", "client", "handle", "session_conn"},
    {"connection", "endpoint", "http_link", "upstream", "peer", "remote"},
    {"scaler", "normalizer", "standardizer", "rescaler", "transform", "fitter"},
    {"scores", "ranks", "ratings", "weights", "marks", "results"},
};

static const char *gb_api__var_word(const char *base, GbRng *rng)
{
    for (size_t i = 0; i < sizeof gb_api_var_words / sizeof *gb_api_var_words; i++)
        if (strcmp(gb_api_var_words[i][0], base) == 0)
            return gb_api_var_words[i][gb_rng_bounded(rng, sizeof gb_api_var_words[i] / sizeof *gb_api_var_words[i])];
    return base;
}

bool gb_api_apply(GbOpContext *ctx, const GbSite *site, GbRng *rng, const GbApiTemplate *templates, size_t n,
                  const char *op, GbError *err)
{
    TSNode s = gb_stmt_at(ctx, site->module, site->start, site->end);
    GbApiHeat heat;
    gb_api__heat(ctx, site->module, &heat);
    bool ok = !ts_node_is_null(s) && gb_api__site_ok(ctx, site->module, s, &heat);
    gb_api__heat_destroy(&heat);
    if (!ok) {
        gb_error_set(err, "%s: site %s is not a statement of a function body that runs a bounded number of times", op,
                     site->key);
        return false;
    }
    const GbScopes *sc = gb_op_ctx_scopes(ctx, site->module);
    const GbScope *scope = &sc->scopes.items[gb_scopes_at(sc, site->start)];
    bool no_locals = gb_api__introspective(ctx, site->module, scope);
    size_t eligible[32], ne = 0;
    for (size_t i = 0; i < n && ne < 32; i++)
        if (!(no_locals && templates[i].vars[0]) && !gb_api__mocked(ctx, &templates[i])) eligible[ne++] = i;
    if (ne == 0) {
        gb_error_set(err, "%s: no call shape fits site %s", op, site->key);
        return false;
    }
    const GbApiTemplate *t = &templates[eligible[gb_rng_bounded(rng, (uint32_t)ne)]];
    GbEditSet set;
    gb_edits_init(&set);
    char *imports[2] = {NULL, NULL}, *vars[2] = {NULL, NULL};
    for (int i = 0; i < 2; i++)
        if (t->imports[i].module) imports[i] = gb_api__import(ctx, &set, site->module, &t->imports[i]);
    /* at module level a new name is a module constant, in upper case */
    for (int i = 0; i < 2; i++)
        if (t->vars[i]) vars[i] = gb_op_ctx_fresh_name_at(ctx, site->module, site->start, gb_api__var_word(t->vars[i], rng));
    const char *im[2] = {imports[0], imports[1]}, *va[2] = {vars[0], vars[1]};
    char *code = gb_api_fill(t->code, im, va, rng);
    gb_edits_insert_before(ctx, &set, site->module, s, code);
    ok = gb_edits_commit(ctx, &set, err);
    gb_edits_destroy(&set);
    free(code);
    for (int i = 0; i < 2; i++) {
        free(imports[i]);
        free(vars[i]);
    }
    return ok;
}

const GbApiTable *gb_api_table(GbOperatorId id)
{
    switch (id) {
#define GB_API_OPERATOR(code, snake)                                                                                   \
    case GB_OP_##code:                                                                                                 \
        return &gb_##snake##_table;
        GB_API_OPERATOR_LIST
#undef GB_API_OPERATOR
    default:
        return NULL;
    }
}

char *gb_api_warm_program(void)
{
    static const GbApiTable *const tables[] = {
#define GB_API_OPERATOR(code, snake) &gb_##snake##_table,
        GB_API_OPERATOR_LIST
#undef GB_API_OPERATOR
    };
    GbStr imports, body;
    gb_str_init(&imports);
    gb_str_init(&body);
    gb_str_append(&imports, "import concurrent.futures\nimport functools\nimport threading\nimport numpy as np\n");
    gb_str_append(&body, "\n\ndef structural(values):\n"
                         "    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as executor:\n"
                         "        executor.submit(len, values).result()\n"
                         "    worker = threading.Thread(target=len, args=(values,))\n"
                         "    worker.start()\n"
                         "    worker.join()\n"
                         "    return float(np.sum(np.array(values)))\n"
                         "\n\n@functools.wraps(structural)\n"
                         "def wrapped(values):\n"
                         "    return structural(values)\n");
    GbRng rng;
    gb_rng_seed(&rng, 1, 1);
    int k = 0;
    for (size_t t = 0; t < sizeof tables / sizeof *tables; t++) {
        for (size_t i = 0; i < tables[t]->n; i++, k++) {
            const GbApiTemplate *tp = &tables[t]->templates[i];
            char *names[2] = {NULL, NULL}, *vars[2] = {NULL, NULL};
            for (int j = 0; j < 2; j++) {
                const GbApiImport *imp = &tp->imports[j];
                if (imp->module) {
                    names[j] = gb_asprintf("w%d_%d", k, j);
                    if (imp->attr)
                        gb_str_appendf(&imports, "from %s import %s as %s\n", imp->module, imp->attr, names[j]);
                    else
                        gb_str_appendf(&imports, "import %s as %s\n", imp->module, names[j]);
                }
                if (tp->vars[j]) vars[j] = gb_asprintf("%s_%d", tp->vars[j], k);
            }
            const char *im[2] = {names[0], names[1]}, *va[2] = {vars[0], vars[1]};
            char *code = gb_api_fill(tp->code, im, va, &rng);
            gb_str_appendf(&body, "\n\ndef call_%d():\n    ", k);
            for (const char *c = code; *c; c++) {
                gb_str_append_n(&body, c, 1);
                if (*c == '\n') gb_str_append(&body, "    ");
            }
            gb_str_append(&body, "\n");
            free(code);
            for (int j = 0; j < 2; j++) {
                free(names[j]);
                free(vars[j]);
            }
        }
    }
    gb_str_append(&imports, body.data);
    gb_str_destroy(&body);
    return gb_str_take(&imports);
}
