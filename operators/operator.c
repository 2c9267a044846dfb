#include "operators/operator.h"

#include <assert.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "src/python/pyparse.h"
#include "src/python/flow.h"
#include "operators/edit.h"

/* ---- Sites ---- */

void gb_site_list_init(GbSiteList *l)
{
    memset(l, 0, sizeof *l);
}

void gb_site_list_clear(GbSiteList *l)
{
    for (size_t i = 0; i < l->len; i++) {
        free(l->items[i].key);
        free(l->items[i].name);
    }
    l->len = 0;
}

void gb_site_list_destroy(GbSiteList *l)
{
    if (!l) return;
    gb_site_list_clear(l);
    gb_array_free(l);
}

/* ---- Context ---- */

void gb_op_ctx_init(GbOpContext *ctx, GbProgram *prog, const GbTask *task, TSParser *parser)
{
    memset(ctx, 0, sizeof *ctx);
    ctx->prog = prog;
    ctx->task = task;
    ctx->parser = parser;
}

static void gb_op_ctx__clear_entry(GbOpModuleCache *c)
{
    if (c->tree) ts_tree_delete(c->tree);
    gb_scopes_delete(c->scopes);
    gb_names_destroy(&c->idents);
    gb_array_free(&c->occ);
    memset(c, 0, sizeof *c);
}

void gb_op_ctx_destroy(GbOpContext *ctx)
{
    if (!ctx) return;
    for (size_t i = 0; i < ctx->cache_.len; i++) gb_op_ctx__clear_entry(&ctx->cache_.items[i]);
    gb_array_free(&ctx->cache_);
    gb_names_destroy(&ctx->test_names_);
    gb_names_destroy(&ctx->reserved_);
}

static GbOpModuleCache *gb_op_ctx__entry(GbOpContext *ctx, size_t module)
{
    assert(module < ctx->prog->modules.len);
    if (ctx->cache_.len < ctx->prog->modules.len) {
        gb_array_reserve(&ctx->cache_, ctx->prog->modules.len);
        while (ctx->cache_.len < ctx->prog->modules.len) {
            GbOpModuleCache empty;
            memset(&empty, 0, sizeof empty);
            gb_array_push(&ctx->cache_, empty);
        }
    }
    return &ctx->cache_.items[module];
}

const char *gb_op_ctx_source(const GbOpContext *ctx, size_t module)
{
    assert(module < ctx->prog->modules.len);
    return ctx->prog->modules.items[module].source;
}

TSTree *gb_op_ctx_tree(GbOpContext *ctx, size_t module)
{
    GbOpModuleCache *c = gb_op_ctx__entry(ctx, module);
    if (!c->tree) {
        const char *src = gb_op_ctx_source(ctx, module);
        c->tree = gb_parse(ctx->parser, src, strlen(src));
    }
    return c->tree;
}

bool gb_op_ctx_module_ok(GbOpContext *ctx, size_t module)
{
    TSTree *t = gb_op_ctx_tree(ctx, module);
    GbOpModuleCache *c = gb_op_ctx__entry(ctx, module);
    if (!c->checked) {
        c->has_error = gb_tree_has_error(t, NULL, NULL);
        c->checked = true;
    }
    return !c->has_error;
}

const GbScopes *gb_op_ctx_scopes(GbOpContext *ctx, size_t module)
{
    TSTree *t = gb_op_ctx_tree(ctx, module);
    GbOpModuleCache *c = gb_op_ctx__entry(ctx, module);
    if (!c->scopes) c->scopes = gb_scopes_new(t, gb_op_ctx_source(ctx, module));
    return c->scopes;
}

const GbOccurrences *gb_op_ctx_occurrences(GbOpContext *ctx, size_t module)
{
    const GbScopes *sc = gb_op_ctx_scopes(ctx, module);
    GbOpModuleCache *c = gb_op_ctx__entry(ctx, module);
    if (!c->occ_done) {
        gb_scopes_occurrences(sc, gb_op_ctx_source(ctx, module), ts_tree_root_node(c->tree), &c->occ);
        c->occ_done = true;
    }
    return &c->occ;
}

void gb_op_ctx_invalidate(GbOpContext *ctx, size_t module)
{
    if (module < ctx->cache_.len) gb_op_ctx__clear_entry(&ctx->cache_.items[module]);
}

void gb_op_ctx_invalidate_all(GbOpContext *ctx)
{
    for (size_t i = 0; i < ctx->cache_.len; i++) gb_op_ctx__clear_entry(&ctx->cache_.items[i]);
    ctx->cache_.len = 0;
}

static void gb_op_ctx__test_names(GbOpContext *ctx)
{
    if (ctx->test_names_done_) return;
    ctx->test_names_done_ = true;
    const GbTask *t = ctx->task;
    if (!t) return;
    for (size_t i = 0; i < t->pinned.len; i++) gb_names_add(&ctx->test_names_, t->pinned.items[i]);
    if (t->entry_point && *t->entry_point) gb_names_add(&ctx->test_names_, t->entry_point);
    for (size_t i = 0; i < t->test_classes.len; i++) gb_names_add(&ctx->test_names_, t->test_classes.items[i]);
    if (t->test_code && *t->test_code) {
        TSTree *tree = gb_parse(ctx->parser, t->test_code, strlen(t->test_code));
        gb_flow_identifiers(ts_tree_root_node(tree), t->test_code, &ctx->test_names_);
        ts_tree_delete(tree);
    }
}

bool gb_op_ctx_is_pinned(GbOpContext *ctx, const char *name)
{
    gb_op_ctx__test_names(ctx);
    return gb_names_has(&ctx->test_names_, name);
}

/* Every identifier text of a module, taken once per version of its source. */
static const GbNames *gb_op_ctx__idents(GbOpContext *ctx, size_t module)
{
    GbOpModuleCache *c = gb_op_ctx__entry(ctx, module);
    if (!c->idents_done) {
        TSTree *t = gb_op_ctx_tree(ctx, module);
        c = gb_op_ctx__entry(ctx, module);
        gb_flow_identifiers(ts_tree_root_node(t), gb_op_ctx_source(ctx, module), &c->idents);
        c->idents_done = true;
    }
    return &c->idents;
}

bool gb_op_ctx_name_taken(GbOpContext *ctx, const char *name)
{
    if (gb_python_is_keyword(name) || gb_python_is_builtin(name)) return true;
    if (gb_names_has(&ctx->reserved_, name)) return true;
    if (gb_op_ctx_is_pinned(ctx, name)) return true;
    for (size_t m = 0; m < ctx->prog->modules.len; m++) {
        if (gb_names_has(gb_op_ctx__idents(ctx, m), name)) return true;
        /* A module name is taken too: `import helper` must keep meaning the helper module. */
        const char *path = ctx->prog->modules.items[m].path;
        size_t n = strlen(name);
        if (strncmp(path, name, n) == 0 && strcmp(path + n, ".py") == 0) return true;
    }
    return false;
}

char *gb_op_ctx_fresh_name(GbOpContext *ctx, const char *base)
{
    char *name = gb_strdup(base);
    for (unsigned i = 1; gb_op_ctx_name_taken(ctx, name); i++) {
        free(name);
        name = gb_asprintf("%s_%u", base, i);
    }
    gb_names_add(&ctx->reserved_, name);
    gb_program_add_synthetic(ctx->prog, name);
    return name;
}

char *gb_op_ctx_fresh_name_at(GbOpContext *ctx, size_t module, uint32_t at, const char *base)
{
    const GbScopes *sc = gb_op_ctx_scopes(ctx, module);
    if (sc->scopes.items[gb_scopes_at(sc, at)].kind != GB_SCOPE_MODULE) return gb_op_ctx_fresh_name(ctx, base);
    char *up = gb_strdup(base);
    for (char *c = up; *c; c++) *c = (char)toupper((unsigned char)*c);
    char *name = gb_op_ctx_fresh_name(ctx, up);
    free(up);
    return name;
}

TSNode gb_op_ctx_node_at(GbOpContext *ctx, size_t module, uint32_t start, uint32_t end, GbNodeKind kind)
{
    TSNode root = ts_tree_root_node(gb_op_ctx_tree(ctx, module));
    TSNode n = ts_node_descendant_for_byte_range(root, start, end);
    TSNode found = {0};
    while (!ts_node_is_null(n) && ts_node_start_byte(n) == start && ts_node_end_byte(n) == end) {
        if (ts_node_is_named(n) && (kind == GB_NK_OTHER || gb_node_kind(n) == kind)) found = n;
        n = ts_node_parent(n);
    }
    return found;
}

/* ---- Stable keys ---- */

char *gb_site_key(GbOpContext *ctx, size_t module, TSNode node, const char *tag)
{
    const GbProgram *p = ctx->prog;
    const char *path = p->modules.items[module].path;
    size_t pos = ts_node_start_byte(node);
    long inserted_by = -1;
    /* Map the position back through the history, newest edit first. */
    for (size_t i = p->history.len; i-- > 0;) {
        const GbApplied *h = &p->history.items[i];
        if (strcmp(h->module, path) != 0) continue;
        if (pos == h->start && h->old_end > h->start && h->new_end > h->start) {
            /* The node starts where replaced text started (a renamed first token, a rewritten
             * statement): it keeps the replaced text's anchor. */
            continue;
        } else if (pos >= h->new_end) {
            pos = pos - h->new_end + h->old_end;
        } else if (pos >= h->start) {
            inserted_by = (long)i;
            pos -= h->start;
            break;
        }
    }
    const char *type = ts_node_type(node);
    unsigned depth = 0;
    uint32_t start = ts_node_start_byte(node);
    for (TSNode a = ts_node_parent(node); !ts_node_is_null(a) && ts_node_start_byte(a) == start; a = ts_node_parent(a))
        if (strcmp(ts_node_type(a), type) == 0) depth++;
    GbStr s;
    gb_str_init(&s);
    if (inserted_by >= 0)
        gb_str_appendf(&s, "%s@e%ld+%zu:%s", path, inserted_by, pos, type);
    else
        gb_str_appendf(&s, "%s@o%zu:%s", path, pos, type);
    if (depth) gb_str_appendf(&s, ".%u", depth);
    if (tag) gb_str_appendf(&s, ":%s", tag);
    return gb_str_take(&s);
}

void gb_site_add(GbOpContext *ctx, GbSiteList *out, size_t module, TSNode node, const char *tag, int kind,
                 const char *name)
{
    GbSite s;
    s.key = gb_site_key(ctx, module, node, tag);
    s.module = module;
    s.start = ts_node_start_byte(node);
    s.end = ts_node_end_byte(node);
    s.kind = kind;
    s.name = name ? gb_strdup(name) : NULL;
    gb_array_push(out, s);
}

/* ---- Driver ---- */

static int gb_op__site_cmp(const void *a, const void *b)
{
    const GbSite *x = a, *y = b;
    if (x->module != y->module) return x->module < y->module ? -1 : 1;
    if (x->start != y->start) return x->start < y->start ? -1 : 1;
    if (x->end != y->end) return x->end > y->end ? -1 : 1;
    return strcmp(x->key, y->key);
}

void gb_op_find_sites(GbOpContext *ctx, const GbOperator *op, GbSiteList *out)
{
    gb_site_list_clear(out);
    op->find(ctx, out);
    if (out->len > 1) qsort(out->items, out->len, sizeof *out->items, gb_op__site_cmp);
    size_t w = 0;
    for (size_t i = 0; i < out->len; i++) {
        GbSite *s = &out->items[i];
        bool drop = gb_program_was_applied(ctx->prog, op->name, s->key);
        /* Equal keys name the same node, so duplicates sit next to each other. */
        for (size_t j = w; !drop && j-- > 0 && out->items[j].module == s->module && out->items[j].start == s->start;)
            drop = strcmp(out->items[j].key, s->key) == 0;
        if (drop) {
            free(s->key);
            free(s->name);
        } else {
            out->items[w++] = *s;
        }
    }
    out->len = w;
}

GbApplyStatus gb_op_apply(GbOpContext *ctx, const GbOperator *op, const GbSite *site, GbRng *rng, GbError *err)
{
    ctx->active_op_ = op->name;
    ctx->active_key_ = site->key;
    ctx->commits_ = 0;
    size_t history_before = ctx->prog->history.len;
    bool ok = op->apply(ctx, site, rng, err);
    if (ok && ctx->commits_ == 0) {
        gb_error_set(err, "%s at %s changed nothing", op->name, site->key);
        ok = false;
    }
    if (!ok && ctx->prog->history.len != history_before) {
        /* An operator that committed and then failed must not leave half an edit behind:
         * that would be a bug in the operator. */
        assert(!"operator failed after committing an edit");
    }
    ctx->active_op_ = NULL;
    ctx->active_key_ = NULL;
    return ok ? GB_APPLY_OK : GB_APPLY_REJECTED;
}

GbApplyStatus gb_op_apply_random(GbOpContext *ctx, const GbOperator *op, GbRng *rng, char **key_out, GbError *err)
{
    if (key_out) *key_out = NULL;
    GbSiteList sites;
    gb_site_list_init(&sites);
    gb_op_find_sites(ctx, op, &sites);
    if (sites.len == 0) {
        gb_site_list_destroy(&sites);
        return GB_APPLY_NO_SITE;
    }
    const GbSite *site = &sites.items[gb_rng_bounded(rng, (uint32_t)sites.len)];
    if (key_out) *key_out = gb_strdup(site->key);
    GbApplyStatus st = gb_op_apply(ctx, op, site, rng, err);
    gb_site_list_destroy(&sites);
    return st;
}

bool gb_op_ctx_mentions_any(GbOpContext *ctx, const char *const *names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (gb_op_ctx_is_pinned(ctx, names[i])) return true;
    for (size_t m = 0; m < ctx->prog->modules.len; m++) {
        const GbNames *ids = gb_op_ctx__idents(ctx, m);
        for (size_t i = 0; i < n; i++)
            if (gb_names_has(ids, names[i])) return true;
    }
    return false;
}

/* ---- methods whose `self` is an instance of their class ---- */

static const char *const gb_op__method_refuse_names[] = {"__getattribute__", "__init_subclass__", "metaclass"};

/* Does the tree under n hold an attribute `cls.method` (the method reached through its class,
 * with any object as `self`)? */
static bool gb_op__through_class(TSNode n, const char *src, const char *cls, const char *method)
{
    if (gb_node_is_kind(n, GB_NK_ATTRIBUTE)) {
        TSNode o = gb_node_field(n, "object"), a = gb_node_field(n, "attribute");
        if (gb_node_is_kind(o, GB_NK_IDENTIFIER) && gb_node_text_eq(o, src, cls) && gb_node_text_eq(a, src, method))
            return true;
    }
    uint32_t c = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < c; i++)
        if (gb_op__through_class(ts_node_named_child(n, i), src, cls, method)) return true;
    return false;
}

TSNode gb_op_ctx_self_method(GbOpContext *ctx, size_t m, TSNode node)
{
    TSNode none = {0};
    const GbScopes *sc = gb_op_ctx_scopes(ctx, m);
    const char *src = gb_op_ctx_source(ctx, m);
    int s = gb_scopes_at(sc, ts_node_start_byte(node));
    while (s > 0 && sc->scopes.items[s].kind == GB_SCOPE_COMPREHENSION) s = sc->scopes.items[s].parent;
    if (s <= 0 || sc->scopes.items[s].kind != GB_SCOPE_FUNCTION) return none;
    int c = sc->scopes.items[s].parent;
    if (c <= 0 || sc->scopes.items[c].kind != GB_SCOPE_CLASS || sc->scopes.items[c].parent != 0) return none;
    TSNode cls = gb_flow_toplevel_of(node);
    if (ts_node_is_null(cls) || !gb_node_is_kind(cls, GB_NK_CLASS_DEFINITION)) return none;
    TSNode sup = gb_node_field(cls, "superclasses");
    if (!ts_node_is_null(sup))
        for (uint32_t i = 0; i < ts_node_named_child_count(sup); i++)
            if (gb_node_is_kind(ts_node_named_child(sup, i), GB_NK_KEYWORD_ARGUMENT)) return none;
    TSNode body = gb_node_field(cls, "body");
    TSNode fn = none;
    for (uint32_t i = 0; !ts_node_is_null(body) && i < ts_node_named_child_count(body); i++) {
        TSNode k = ts_node_named_child(body, i);
        if (ts_node_start_byte(k) <= ts_node_start_byte(node) && ts_node_end_byte(node) <= ts_node_end_byte(k)) fn = k;
    }
    if (ts_node_is_null(fn) || !gb_node_is_kind(fn, GB_NK_FUNCTION_DEFINITION) ||
        ts_node_start_byte(fn) != sc->scopes.items[s].node_start || !gb_stmt_owns_lines(src, fn))
        return none;
    TSNode params = gb_node_field(fn, "parameters");
    TSNode first =
        ts_node_is_null(params) || ts_node_named_child_count(params) == 0 ? none : ts_node_named_child(params, 0);
    if (ts_node_is_null(first) || !gb_node_is_kind(first, GB_NK_IDENTIFIER) || !gb_node_text_eq(first, src, "self"))
        return none;
    const GbScopeName *self = gb_scope_name(&sc->scopes.items[s], "self");
    if (!self || (self->flags & (GB_NAME_BINDS | GB_NAME_GLOBAL | GB_NAME_NONLOCAL)) != GB_NAME_PARAM) return none;
    if (gb_op_ctx_mentions_any(ctx, gb_op__method_refuse_names,
                               sizeof gb_op__method_refuse_names / sizeof *gb_op__method_refuse_names))
        return none;
    /* `self` must be an instance of the class: a method also called as `K.m(obj, ...)` (as the
     * sibling-class forms of S6 and S7 call theirs) may get any object, which lacks the helper. */
    char *cname = gb_node_text(gb_node_field(cls, "name"), src), *mname = gb_node_text(gb_node_field(fn, "name"), src);
    bool through = false;
    for (size_t k = 0; k < ctx->prog->modules.len && !through; k++)
        through =
            gb_op__through_class(ts_tree_root_node(gb_op_ctx_tree(ctx, k)), gb_op_ctx_source(ctx, k), cname, mname);
    free(cname);
    free(mname);
    return through ? none : fn;
}

static bool gb_op__has_call(TSNode n)
{
    if (gb_node_is_kind(n, GB_NK_CALL)) return true;
    uint32_t c = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < c; i++)
        if (gb_op__has_call(ts_node_named_child(n, i))) return true;
    return false;
}

/* A class statement that runs no code of the program while the class is created. */
static bool gb_op__inert_class_stmt(TSNode k)
{
    GbNodeKind t = gb_node_kind(k);
    if (t == GB_NK_FUNCTION_DEFINITION || t == GB_NK_DECORATED_DEFINITION || t == GB_NK_PASS_STATEMENT ||
        t == GB_NK_COMMENT)
        return true;
    if (t != GB_NK_EXPRESSION_STATEMENT) return false;
    /* a docstring, or an assignment of a value without calls */
    TSNode e = ts_node_named_child(k, 0);
    if (gb_node_is_kind(e, GB_NK_STRING)) return true;
    if (!gb_node_is_kind(e, GB_NK_ASSIGNMENT)) return false;
    return !gb_op__has_call(e);
}

TSNode gb_op_ctx_sibling_of(GbOpContext *ctx, size_t m, TSNode node)
{
    (void)ctx;
    (void)m;
    TSNode none = {0};
    TSNode cls = gb_flow_toplevel_of(node);
    if (ts_node_is_null(cls) || !gb_node_is_kind(cls, GB_NK_CLASS_DEFINITION)) return none;
    TSNode sup = gb_node_field(cls, "superclasses"), body = gb_node_field(cls, "body");
    if ((!ts_node_is_null(sup) && ts_node_named_child_count(sup) > 0) || ts_node_is_null(body)) return none;
    for (uint32_t i = 0; i < ts_node_named_child_count(body); i++)
        if (!gb_op__inert_class_stmt(ts_node_named_child(body, i))) return none;
    return cls;
}
