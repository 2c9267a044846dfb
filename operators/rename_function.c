/* N2 RenameFunction: give a module-level or nested function another name, everywhere it is
 * bound or referred to (operators/rename.h): the def, every call, every reference that is not a
 * call (`map(f, xs)`, `Thread(target=f)`, `key=f`), `global f` declarations, and in the
 * program's other modules `from main import f` (and its uses) or `main.f`.
 *
 *     def _mean(values):                 def compute_mean(values):
 *         return sum(values) / len(values)     return sum(values) / len(values)
 *     avg = _mean(nums)          ->      avg = compute_mean(nums)
 *
 * Refused: methods (a def in a class body: callers reach it through attributes), dunder
 * names, pinned names (entry points, names the tests use), functions whose name is bound by
 * anything else too, decorated functions (unless the decorator is functools' lru_cache/cache/
 * wraps or a function of the program), programs that read __name__/__qualname__ (the name
 * would show), eval/exec/globals()-style access, star imports, strings that spell the name.
 * The new name comes from what the function does (its body) or a verb variant of its name,
 * chosen by the rng among the free candidates, and is recorded as synthetic.
 *
 * Site: the function_definition node. */
#include "operators/operator.h"

#include <stdlib.h>
#include <string.h>

#include "operators/edit.h"
#include "operators/naming.h"
#include "src/python/pyparse.h"
#include "operators/rename.h"

/* True when every decorator of the decorated definition is harmless to a rename. */
static bool gb_n2_decorators_ok(GbOpContext *ctx, size_t module, TSNode fn)
{
    TSNode dd = ts_node_parent(fn);
    if (ts_node_is_null(dd) || gb_node_kind(dd) != GB_NK_DECORATED_DEFINITION) return true;
    const char *src = gb_op_ctx_source(ctx, module);
    const GbScopes *sc = gb_op_ctx_scopes(ctx, module);
    uint32_t c = ts_node_named_child_count(dd);
    for (uint32_t i = 0; i < c; i++) {
        TSNode d = ts_node_named_child(dd, i);
        if (gb_node_kind(d) != GB_NK_DECORATOR) continue;
        TSNode e = ts_node_named_child(d, 0);
        if (!ts_node_is_null(e) && gb_node_kind(e) == GB_NK_CALL) e = ts_node_child_by_field_name(e, "function", 8);
        if (ts_node_is_null(e)) return false;
        TSNode last = e, root = e;
        if (gb_node_kind(e) == GB_NK_ATTRIBUTE) {
            last = ts_node_child_by_field_name(e, "attribute", 9);
            root = e;
            while (gb_node_kind(root) == GB_NK_ATTRIBUTE) root = ts_node_child_by_field_name(root, "object", 6);
        }
        if (gb_node_text_eq(last, src, "lru_cache") || gb_node_text_eq(last, src, "cache") ||
            gb_node_text_eq(last, src, "wraps"))
            continue;
        if (gb_node_kind(root) != GB_NK_IDENTIFIER) return false;
        char *name = gb_node_text(root, src);
        int def;
        GbResolution res = gb_scopes_resolve(sc, gb_scopes_at(sc, ts_node_start_byte(d)), name, &def);
        const GbScopeName *n = res == GB_RESOLVE_GLOBAL || res == GB_RESOLVE_LOCAL || res == GB_RESOLVE_FREE
                                   ? gb_scope_name(&sc->scopes.items[def], name)
                                   : NULL;
        free(name);
        /* a decorator the program defines itself (it cannot register the function by name
         * without reading __name__, which the renamer refuses) */
        if (!n || (n->flags & GB_NAME_BINDS) != GB_NAME_DEF || gb_node_kind(root) != GB_NK_IDENTIFIER ||
            !ts_node_eq(root, e))
            return false;
    }
    return true;
}

/* The scope holding a function's name, or -1 when the function is not N2's to rename. */
static int gb_n2_binding_scope(GbOpContext *ctx, size_t module, TSNode fn)
{
    const GbScopes *sc = gb_op_ctx_scopes(ctx, module);
    int holder = gb_scopes_at(sc, ts_node_start_byte(fn));
    GbScopeKind k = sc->scopes.items[holder].kind;
    if (k != GB_SCOPE_MODULE && k != GB_SCOPE_FUNCTION) return -1;
    if (!gb_n2_decorators_ok(ctx, module, fn)) return -1;
    return holder;
}

static void gb_n2_walk(GbOpContext *ctx, GbRenamer *r, GbRenamePlan *plan, size_t m, TSNode n, GbSiteList *out)
{
    if (gb_node_kind(n) == GB_NK_FUNCTION_DEFINITION) {
        TSNode name = ts_node_child_by_field_name(n, "name", 4);
        int holder = ts_node_is_null(name) ? -1 : gb_n2_binding_scope(ctx, m, n);
        if (holder >= 0) {
            char *fname = gb_node_text(name, gb_op_ctx_source(ctx, m));
            GbError why;
            if (gb_renamer_plan(r, m, holder, fname, plan, &why)) gb_site_add(ctx, out, m, n, NULL, holder, fname);
            free(fname);
        }
    }
    uint32_t c = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < c; i++) gb_n2_walk(ctx, r, plan, m, ts_node_named_child(n, i), out);
}

void gb_op_rename_function_find(GbOpContext *ctx, GbSiteList *out)
{
    GbRenamer *r = gb_renamer_new(ctx);
    GbRenamePlan plan;
    gb_rename_plan_init(&plan);
    for (size_t m = 0; m < ctx->prog->modules.len; m++) {
        if (!gb_op_ctx_module_ok(ctx, m)) continue;
        gb_n2_walk(ctx, r, &plan, m, ts_tree_root_node(gb_op_ctx_tree(ctx, m)), out);
    }
    gb_rename_plan_destroy(&plan);
    gb_renamer_delete(r);
}

bool gb_op_rename_function_apply(GbOpContext *ctx, const GbSite *site, GbRng *rng, GbError *err)
{
    TSNode fn = gb_op_ctx_node_at(ctx, site->module, site->start, site->end, GB_NK_FUNCTION_DEFINITION);
    int holder = ts_node_is_null(fn) ? -1 : gb_n2_binding_scope(ctx, site->module, fn);
    TSNode name = ts_node_is_null(fn) ? fn : ts_node_child_by_field_name(fn, "name", 4);
    if (holder < 0 || ts_node_is_null(name) || !site->name ||
        !gb_node_text_eq(name, gb_op_ctx_source(ctx, site->module), site->name)) {
        gb_error_set(err, "RenameFunction: site %s is not a renamable function", site->key);
        return false;
    }
    GbRenamer *r = gb_renamer_new(ctx);
    GbRenamePlan plan;
    gb_rename_plan_init(&plan);
    GbError why;
    bool ok = gb_renamer_plan(r, site->module, holder, site->name, &plan, &why);
    gb_renamer_delete(r);
    if (!ok) {
        gb_error_set(err, "RenameFunction at %s: %s", site->key, why.msg);
        gb_rename_plan_destroy(&plan);
        return false;
    }
    char *new_name = gb_naming_choose(ctx, &plan, rng);
    GbEditSet set;
    gb_edits_init(&set);
    gb_rename_plan_edits(ctx, &plan, new_name, &set);
    ok = gb_edits_commit(ctx, &set, err);
    gb_edits_destroy(&set);
    gb_rename_plan_destroy(&plan);
    free(new_name);
    return ok;
}
