/* S12 TransformPrimToCompound: put the literal value of an assignment into a compound
 * literal and take it out again.
 *
 *     n = 5        ->   n = [5][0]        (or (5,)[0], [5][-1], {3: 5}[3],
 *                                          {"key": 5}["key"], [7, 5][1], (5, 7)[0])
 *
 * Sites are assignments (plain, annotated, chained, augmented) whose value is a literal: a
 * number, string, True/False/None, a negated number, or a list/tuple/dict/set display or
 * list comprehension. The extra container elements and keys are literals, so nothing is
 * evaluated that was not before and the value is the same object kind; containers are built
 * fresh each time, as before. Values that are f-strings or comprehensions are evaluated once,
 * in the same scope (a display does not create a scope). */
#include "operators/operator.h"

#include <stdlib.h>
#include <string.h>

#include "operators/edit.h"
#include "src/python/pyparse.h"

static const char *const gb_s12_keys[] = {"key", "value", "item", "data", "result", "entry"};

/* A literal value: constants, negated numbers, displays of literals, list comprehensions. */
static bool gb_s12_literal(TSNode e, int depth)
{
    if (depth > 8) return false;
    if (gb_node_is_kind(e, GB_NK_INTEGER) || gb_node_is_kind(e, GB_NK_FLOAT) || gb_node_is_kind(e, GB_NK_STRING) ||
        gb_node_is_kind(e, GB_NK_CONCATENATED_STRING) || gb_node_is_kind(e, GB_NK_TRUE) ||
        gb_node_is_kind(e, GB_NK_FALSE) || gb_node_is_kind(e, GB_NK_NONE) ||
        gb_node_is_kind(e, GB_NK_LIST_COMPREHENSION))
        return true;
    if (gb_node_is_kind(e, GB_NK_UNARY_OPERATOR)) {
        TSNode a = ts_node_child_by_field_name(e, "argument", 8);
        return !ts_node_is_null(a) && (gb_node_is_kind(a, GB_NK_INTEGER) || gb_node_is_kind(a, GB_NK_FLOAT));
    }
    if (gb_node_is_kind(e, GB_NK_LIST) || gb_node_is_kind(e, GB_NK_TUPLE) || gb_node_is_kind(e, GB_NK_SET) ||
        gb_node_is_kind(e, GB_NK_DICTIONARY) || gb_node_is_kind(e, GB_NK_EXPRESSION_LIST) ||
        gb_node_is_kind(e, GB_NK_PAIR) || gb_node_is_kind(e, GB_NK_PARENTHESIZED_EXPRESSION)) {
        uint32_t c = ts_node_named_child_count(e);
        for (uint32_t i = 0; i < c; i++) {
            TSNode k = ts_node_named_child(e, i);
            if (gb_node_is_kind(k, GB_NK_COMMENT)) continue;
            if (!gb_s12_literal(k, depth + 1)) return false;
        }
        return true;
    }
    return false;
}

/* The value node of an assignment site, or a null node. */
static TSNode gb_s12_value(TSNode n)
{
    TSNode null = {0};
    if (!gb_node_is_kind(n, GB_NK_ASSIGNMENT) && !gb_node_is_kind(n, GB_NK_AUGMENTED_ASSIGNMENT)) return null;
    TSNode r = ts_node_child_by_field_name(n, "right", 5);
    if (ts_node_is_null(r) || !gb_s12_literal(r, 0)) return null;
    return r;
}

static void gb_s12_walk(GbOpContext *ctx, size_t module, TSNode n, GbSiteList *out)
{
    if (!ts_node_is_null(gb_s12_value(n))) gb_site_add(ctx, out, module, n, NULL, 0, NULL);
    uint32_t c = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < c; i++) gb_s12_walk(ctx, module, ts_node_named_child(n, i), out);
}

void gb_op_transform_prim_to_compound_find(GbOpContext *ctx, GbSiteList *out)
{
    for (size_t m = 0; m < ctx->prog->modules.len; m++) {
        if (!gb_op_ctx_module_ok(ctx, m)) continue;
        gb_s12_walk(ctx, m, ts_tree_root_node(gb_op_ctx_tree(ctx, m)), out);
    }
}

bool gb_op_transform_prim_to_compound_apply(GbOpContext *ctx, const GbSite *site, GbRng *rng, GbError *err)
{
    TSNode n = gb_op_ctx_node_at(ctx, site->module, site->start, site->end, GB_NK_ASSIGNMENT);
    if (ts_node_is_null(n))
        n = gb_op_ctx_node_at(ctx, site->module, site->start, site->end, GB_NK_AUGMENTED_ASSIGNMENT);
    TSNode v = ts_node_is_null(n) ? n : gb_s12_value(n);
    if (ts_node_is_null(v)) {
        gb_error_set(err, "TransformPrimToCompound: site %s has no literal value", site->key);
        return false;
    }
    const char *src = gb_op_ctx_source(ctx, site->module);
    char *raw = gb_node_text(v, src);
    /* A bare tuple (`x = 1, 2`) must be parenthesised to be one element. */
    char *val = gb_node_is_kind(v, GB_NK_EXPRESSION_LIST) ? gb_asprintf("(%s)", raw) : gb_strdup(raw);
    unsigned k = gb_rng_bounded(rng, 10);
    char *text;
    switch (gb_rng_bounded(rng, 7)) {
    case 0:
        text = gb_asprintf("[%s][0]", val);
        break;
    case 1:
        text = gb_asprintf("(%s,)[0]", val);
        break;
    case 2:
        text = gb_asprintf("[%s][-1]", val);
        break;
    case 3:
        text = gb_asprintf("{%u: %s}[%u]", k, val, k);
        break;
    case 4: {
        const char *key = gb_s12_keys[gb_rng_bounded(rng, 6)];
        text = gb_asprintf("{\"%s\": %s}[\"%s\"]", key, val, key);
        break;
    }
    case 5:
        text = gb_asprintf("[%u, %s][1]", k, val);
        break;
    default:
        text = gb_asprintf("(%s, %u)[0]", val, k);
        break;
    }
    GbEditSet set;
    gb_edits_init(&set);
    gb_edits_replace_node(&set, site->module, v, text);
    bool ok = gb_edits_commit(ctx, &set, err);
    gb_edits_destroy(&set);
    free(text);
    free(val);
    free(raw);
    return ok;
}
