/* S5 AddTryExcept: wrap a statement, or the whole body of a function (its docstring stays
 * first), in a `try` that never swallows anything:
 *
 *     total += x            try:
 *                    ->         total += x
 *                           except (ValueError, KeyError):
 *                               raise
 *
 * Every handler re-raises the caught exception unchanged with a bare `raise` (same object,
 * same traceback), or the statement has only `finally: pass`, so exceptions,
 * return values, yields, break and continue behave exactly as before. Exception classes are
 * only named where they resolve to the builtins. Refused: statements in class bodies,
 * docstrings, __future__ imports, global/nonlocal declarations, definitions, statements
 * sharing a line, function bodies that start on the header's line, and anything in the head
 * of the main module that the task's harness rewrites (ClassEval's leading imports:
 * gb_harness_rewritten_head). */
#include "operators/operator.h"

#include <stdlib.h>
#include <string.h>

#include "operators/edit.h"
#include "operators/harness_policy.h"
#include "src/python/nodekind.h"

enum { GB_S5_STATEMENT = 0, GB_S5_BODY = 1 };

static const char *const gb_s5_errors[] = {"ValueError",   "TypeError",      "KeyError",
                                           "IndexError",   "AttributeError", "ZeroDivisionError",
                                           "RuntimeError", "LookupError",    "ArithmeticError"};

/* The statements of a function body after its docstring, if they can be wrapped. */
static bool gb_s5_body_range(GbOpContext *ctx, size_t module, TSNode fn, TSNode *first, TSNode *last)
{
    if (gb_node_kind(fn) != GB_NK_FUNCTION_DEFINITION) return false;
    TSNode body = ts_node_child_by_field_name(fn, "body", 4);
    if (ts_node_is_null(body) || !gb_block_statements(body, first, last)) return false;
    if (gb_stmt_is_docstring(*first)) {
        *first = gb_stmt_next(*first);
        if (ts_node_is_null(*first)) return false;
    }
    const char *src = gb_op_ctx_source(ctx, module);
    if (module == 0 && ctx->task && ts_node_start_byte(fn) < gb_harness_rewritten_head(ctx->task->harness, src))
        return false;
    /* A body on the header's line (`def f(): return 1`) cannot be indented further. */
    if (gb_line_start(src, ts_node_start_byte(*first)) == gb_line_start(src, ts_node_start_byte(fn))) return false;
    return gb_stmts_own_lines(src, *first, *last);
}

void gb_op_add_try_except_find(GbOpContext *ctx, GbSiteList *out)
{
    for (size_t m = 0; m < ctx->prog->modules.len; m++) {
        if (!gb_op_ctx_module_ok(ctx, m)) continue;
        GbNodes stmts = {0};
        gb_stmts_collect(ts_tree_root_node(gb_op_ctx_tree(ctx, m)), &stmts);
        for (size_t i = 0; i < stmts.len; i++) {
            TSNode s = stmts.items[i];
            if (gb_stmt_wrappable(ctx, m, s, 0)) gb_site_add(ctx, out, m, s, NULL, GB_S5_STATEMENT, NULL);
            TSNode fn = s;
            if (gb_node_kind(s) == GB_NK_DECORATED_DEFINITION) fn = ts_node_child_by_field_name(s, "definition", 10);
            TSNode first, last;
            if (!ts_node_is_null(fn) && gb_s5_body_range(ctx, m, fn, &first, &last))
                gb_site_add(ctx, out, m, fn, "body", GB_S5_BODY, NULL);
        }
        gb_array_free(&stmts);
    }
}

static bool gb_s5_is_builtin(const GbScopes *sc, int scope, const char *name)
{
    return gb_scopes_resolve(sc, scope, name, NULL) == GB_RESOLVE_BUILTIN;
}

bool gb_op_add_try_except_apply(GbOpContext *ctx, const GbSite *site, GbRng *rng, GbError *err)
{
    TSNode node, first, last;
    bool ok;
    if (site->kind == GB_S5_BODY) {
        node = gb_op_ctx_node_at(ctx, site->module, site->start, site->end, GB_NK_FUNCTION_DEFINITION);
        ok = !ts_node_is_null(node) && gb_s5_body_range(ctx, site->module, node, &first, &last);
    } else {
        node = first = last = gb_stmt_at(ctx, site->module, site->start, site->end);
        ok = !ts_node_is_null(node) && gb_stmt_wrappable(ctx, site->module, node, 0);
    }
    if (!ok) {
        gb_error_set(err, "AddTryExcept: site %s cannot be wrapped", site->key);
        return false;
    }
    const GbScopes *sc = gb_op_ctx_scopes(ctx, site->module);
    int scope = gb_scopes_at(sc, ts_node_start_byte(first));
    char *footer = NULL;
    unsigned shape = gb_rng_bounded(rng, 5);
    const char *e1 = gb_s5_errors[gb_rng_bounded(rng, 9)];
    const char *e2 = gb_s5_errors[gb_rng_bounded(rng, 9)];
    if (strcmp(e1, e2) == 0) e2 = strcmp(e1, "TypeError") == 0 ? "ValueError" : "TypeError";
    switch (shape) {
    case 0:
        if (gb_s5_is_builtin(sc, scope, "Exception")) footer = gb_strdup("except Exception:\n    raise");
        break;
    case 1:
        if (gb_s5_is_builtin(sc, scope, "BaseException")) footer = gb_strdup("except BaseException:\n    raise");
        break;
    case 2:
        if (gb_s5_is_builtin(sc, scope, e1) && gb_s5_is_builtin(sc, scope, e2))
            footer = gb_asprintf("except (%s, %s):\n    raise", e1, e2);
        break;
    default:
        break;
    }
    if (!footer) footer = gb_strdup("finally:\n    pass");
    ok = gb_edits_wrap_commit(ctx, site->module, first, last, "try:", footer, err);
    free(footer);
    return ok;
}
