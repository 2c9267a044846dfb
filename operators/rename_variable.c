/* N1 RenameVariable: give a local variable or parameter another natural name, everywhere it
 * is bound or used (operators/rename.h):
 *
 *     def mean(xs):                    def mean(values):
 *         total = 0                        running_total = 0
 *         for x in xs:          ->         for x in values:
 *             total += x                       running_total += x
 *         return total / len(xs)           return running_total / len(values)
 *
 * Sites: names bound in a function, lambda or comprehension scope by assignment, loop, with,
 * except, match, del or as a parameter (not definitions, imports, globals or nonlocals; not
 * `self`/`cls`/`_`), that the renamer accepts: not pinned by the tests, no eval/exec/
 * locals()-style access, keyword call sites all resolvable to the function (else refused; a
 * function passed around as a value also refuses a parameter whose name a string of the
 * program or tests spells, since it may arrive as a dictionary key: `kwargs={'b': 5}`),
 * no self-documenting f-string, and not a variable some read of which may find it unbound
 * when the program catches NameError (the message of a NameError / UnboundLocalError names
 * the variable: `except NameError as e: return str(e)` would see the new name). The new
 * name comes from the variable's context (what is assigned to it, how it is used, expansions
 * of short names) chosen by the rng among the free candidates; it clashes with nothing in the
 * program or the tests and is recorded as synthetic, so the naming step may improve it before
 * output.
 *
 * Site: the scope's node (def, lambda or comprehension), tagged "v<k>" where k orders the
 * scope's bound names by their first binding, so a renamed variable keeps its key. */
#include "operators/operator.h"

#include <stdlib.h>
#include <string.h>

#include "operators/edit.h"
#include "operators/naming.h"
#include "operators/rename.h"
#include "src/python/flow.h"

#define GB_N1_BINDS (GB_NAME_PARAM | GB_NAME_ASSIGN | GB_NAME_AUG | GB_NAME_ANNOTATED | GB_NAME_DEL)

static bool gb_n1_candidate(const GbScope *scope, const GbScopeName *n)
{
    if (scope->kind != GB_SCOPE_FUNCTION && scope->kind != GB_SCOPE_LAMBDA && scope->kind != GB_SCOPE_COMPREHENSION)
        return false;
    if (!(n->flags & GB_N1_BINDS)) return false;
    if (n->flags & (GB_NAME_DEF | GB_NAME_IMPORT | GB_NAME_GLOBAL | GB_NAME_NONLOCAL)) return false;
    return strcmp(n->name, "self") != 0 && strcmp(n->name, "cls") != 0 && strcmp(n->name, "_") != 0;
}

/* True when an except clause below node could catch a NameError: bare, or naming NameError,
 * UnboundLocalError, Exception or BaseException. */
static bool gb_n1_catches_name_error(TSNode node, const char *src)
{
    static const char *const types[] = {"NameError", "UnboundLocalError", "Exception", "BaseException"};
    if (strcmp(ts_node_type(node), "except_clause") == 0) {
        TSNode what = ts_node_named_child(node, 0);
        if (ts_node_is_null(what) || strcmp(ts_node_type(what), "block") == 0) return true;
        if (gb_flow_mentions_any(what, src, types, sizeof types / sizeof types[0])) return true;
    }
    for (uint32_t i = 0; i < ts_node_named_child_count(node); i++)
        if (gb_n1_catches_name_error(ts_node_named_child(node, i), src)) return true;
    return false;
}

/* True when the program (any module) or its tests may catch a NameError. */
static bool gb_n1_program_catches(GbOpContext *ctx)
{
    for (size_t m = 0; m < ctx->prog->modules.len; m++)
        if (gb_n1_catches_name_error(ts_tree_root_node(gb_op_ctx_tree(ctx, m)), gb_op_ctx_source(ctx, m))) return true;
    const char *tests = ctx->task ? ctx->task->test_code : NULL;
    return tests && (strstr(tests, "NameError") || strstr(tests, "UnboundLocalError"));
}

/* True when some read of name (scope s of module m, or a nested scope reading the same
 * variable) is not proven to find it bound: the read may raise a NameError whose message
 * names the variable. */
static bool gb_n1_maybe_unbound(GbOpContext *ctx, size_t m, const GbOccurrences *occ, int s, const char *name)
{
    const GbScopes *sc = gb_op_ctx_scopes(ctx, m);
    const char *src = gb_op_ctx_source(ctx, m);
    TSNode root = ts_tree_root_node(gb_op_ctx_tree(ctx, m));
    size_t len = strlen(name);
    for (size_t i = 0; i < occ->len; i++) {
        const GbOccurrence *o = &occ->items[i];
        if (o->flag != GB_NAME_READ || o->end - o->start != len || memcmp(src + o->start, name, len) != 0) continue;
        if (o->scope != s) {
            if (gb_scopes_same_variable(sc, o->scope, s, name)) return true; /* a closure's read */
            continue;
        }
        TSNode stmt = ts_node_descendant_for_byte_range(root, o->start, o->end);
        for (TSNode p = ts_node_parent(stmt); !ts_node_is_null(p); p = ts_node_parent(p)) {
            const char *type = ts_node_type(p);
            if (strcmp(type, "block") == 0 || strcmp(type, "module") == 0) break;
            stmt = p;
        }
        if (!gb_flow_bound_before(src, stmt, name)) return true;
    }
    return false;
}

typedef struct {
    const char *name;
    uint32_t first;
} GbN1Name;

typedef GbArray(GbN1Name) GbN1Names;

static int gb_n1_cmp(const void *a, const void *b)
{
    const GbN1Name *x = a, *y = b;
    if (x->first != y->first) return x->first < y->first ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* The bound names of scope s (their first binding is filled in by the caller). */
static void gb_n1_names(const GbScope *scope, GbN1Names *out)
{
    for (size_t k = 0; k < scope->names.len; k++) {
        const GbScopeName *n = &scope->names.items[k];
        if (!(n->flags & GB_NAME_BINDS) || (n->flags & (GB_NAME_GLOBAL | GB_NAME_NONLOCAL))) continue;
        GbN1Name e = {n->name, UINT32_MAX};
        gb_array_push(out, e);
    }
}

void gb_op_rename_variable_find(GbOpContext *ctx, GbSiteList *out)
{
    GbRenamer *r = gb_renamer_new(ctx);
    GbRenamePlan plan;
    gb_rename_plan_init(&plan);
    bool catches = gb_n1_program_catches(ctx);
    for (size_t m = 0; m < ctx->prog->modules.len; m++) {
        if (!gb_op_ctx_module_ok(ctx, m)) continue;
        const GbScopes *sc = gb_op_ctx_scopes(ctx, m);
        const char *src = gb_op_ctx_source(ctx, m);
        TSNode root = ts_tree_root_node(gb_op_ctx_tree(ctx, m));
        GbOccurrences occ = {0};
        gb_scopes_occurrences(sc, src, root, &occ);
        for (size_t s = 1; s < sc->scopes.len; s++) {
            const GbScope *scope = &sc->scopes.items[s];
            bool any = false;
            for (size_t k = 0; k < scope->names.len && !any; k++) any = gb_n1_candidate(scope, &scope->names.items[k]);
            if (!any) continue;
            GbN1Names order = {0};
            gb_n1_names(scope, &order);
            for (size_t i = 0; i < occ.len; i++) {
                const GbOccurrence *o = &occ.items[i];
                if (o->scope != (int)s || o->flag == GB_NAME_READ || o->flag == GB_NAME_GLOBAL ||
                    o->flag == GB_NAME_NONLOCAL)
                    continue;
                for (size_t k = 0; k < order.len; k++) {
                    const char *nm = order.items[k].name;
                    if (strlen(nm) == o->end - o->start && memcmp(src + o->start, nm, o->end - o->start) == 0 &&
                        o->start < order.items[k].first)
                        order.items[k].first = o->start;
                }
            }
            qsort(order.items, order.len, sizeof *order.items, gb_n1_cmp);
            TSNode node = gb_op_ctx_node_at(ctx, m, scope->node_start, scope->node_end, GB_NK_OTHER);
            for (size_t k = 0; k < order.len && !ts_node_is_null(node); k++) {
                const GbScopeName *n = gb_scope_name(scope, order.items[k].name);
                if (!n || !gb_n1_candidate(scope, n)) continue;
                if (catches && gb_n1_maybe_unbound(ctx, m, &occ, (int)s, n->name)) continue;
                GbError why;
                if (!gb_renamer_plan(r, m, (int)s, n->name, &plan, &why)) continue;
                char tag[32];
                snprintf(tag, sizeof tag, "v%zu", k);
                gb_site_add(ctx, out, m, node, tag, (int)s, n->name);
            }
            gb_array_free(&order);
        }
        gb_array_free(&occ);
    }
    gb_rename_plan_destroy(&plan);
    gb_renamer_delete(r);
}

bool gb_op_rename_variable_apply(GbOpContext *ctx, const GbSite *site, GbRng *rng, GbError *err)
{
    const GbScopes *sc = gb_op_ctx_scopes(ctx, site->module);
    int s = -1;
    for (size_t i = 1; i < sc->scopes.len; i++)
        if (sc->scopes.items[i].node_start == site->start && sc->scopes.items[i].node_end == site->end &&
            sc->scopes.items[i].kind != GB_SCOPE_CLASS)
            s = (int)i;
    const GbScopeName *n = s > 0 && site->name ? gb_scope_name(&sc->scopes.items[s], site->name) : NULL;
    if (!n || !gb_n1_candidate(&sc->scopes.items[s], n)) {
        gb_error_set(err, "RenameVariable: site %s has no local variable %s", site->key, site->name ? site->name : "?");
        return false;
    }
    if (gb_n1_program_catches(ctx)) {
        const char *src = gb_op_ctx_source(ctx, site->module);
        GbOccurrences occ = {0};
        gb_scopes_occurrences(sc, src, ts_tree_root_node(gb_op_ctx_tree(ctx, site->module)), &occ);
        bool unbound = gb_n1_maybe_unbound(ctx, site->module, &occ, s, site->name);
        gb_array_free(&occ);
        if (unbound) {
            gb_error_set(err, "RenameVariable at %s: %s may be read unbound and the program catches NameError",
                         site->key, site->name);
            return false;
        }
    }
    GbRenamer *r = gb_renamer_new(ctx);
    GbRenamePlan plan;
    gb_rename_plan_init(&plan);
    GbError why;
    bool ok = gb_renamer_plan(r, site->module, s, site->name, &plan, &why);
    gb_renamer_delete(r);
    if (!ok) {
        gb_error_set(err, "RenameVariable at %s: %s", site->key, why.msg);
        gb_rename_plan_destroy(&plan);
        return false;
    }
    char *name = gb_naming_choose(ctx, &plan, rng);
    GbEditSet set;
    gb_edits_init(&set);
    gb_rename_plan_edits(ctx, &plan, name, &set);
    ok = gb_edits_commit(ctx, &set, err);
    gb_edits_destroy(&set);
    gb_rename_plan_destroy(&plan);
    free(name);
    return ok;
}
