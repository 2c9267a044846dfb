/* S10 TransformAugAssignment: `x op= y` -> `x = x op (y)`.
 *
 * The two forms differ when x's value has an in-place method (`list += tuple` works where
 * `list + tuple` raises, and `+=` mutates an object other names may alias) and in the error
 * message when the operation raises TypeError. So a site is listed only when
 *   - the target is a plain name (not an attribute or subscript, whose evaluation could have
 *     side effects and would now happen twice), outside class bodies and dynamic scopes;
 *   - the type inference (operators/infer.h) proves every value the variable can hold, and
 *     every value of y, to be an immutable scalar (int, float, bool, str, bytes), and every
 *     pair of them supports the operator (so neither form raises TypeError);
 *   - the operator is not `@=`.
 * y is parenthesised unless it is an atom, so precedence is kept. */
#include "operators/operator.h"

#include <stdlib.h>
#include <string.h>

#include "operators/edit.h"
#include "operators/infer.h"
#include "src/python/pyparse.h"

static bool gb_s10_pairs_ok(const char *op, unsigned a, unsigned b)
{
    if (!a || !b || (a & ~GB_TY_SCALAR) || (b & ~GB_TY_SCALAR)) return false;
    for (unsigned x = 1; x < GB_TY_UNKNOWN; x <<= 1) {
        if (!(a & x)) continue;
        for (unsigned y = 1; y < GB_TY_UNKNOWN; y <<= 1)
            if ((b & y) && !gb_types_binop(op, x, y)) return false;
    }
    return true;
}

/* The operator without "=", or NULL when the node is not a transformable aug-assignment. */
static bool gb_s10_site_ok(GbOpContext *ctx, size_t module, const GbTypes *types, TSNode n, char *op_out)
{
    if (gb_node_kind(n) != GB_NK_AUGMENTED_ASSIGNMENT) return false;
    TSNode left = ts_node_child_by_field_name(n, "left", 4), right = ts_node_child_by_field_name(n, "right", 5);
    TSNode opn = ts_node_child_by_field_name(n, "operator", 8);
    if (ts_node_is_null(left) || ts_node_is_null(right) || ts_node_is_null(opn)) return false;
    if (gb_node_kind(left) != GB_NK_IDENTIFIER) return false;
    const char *optext = ts_node_type(opn);
    size_t ol = strlen(optext);
    if (ol < 2 || ol > 4 || gb_node_kind(opn) == GB_NK_AT_EQ) return false;
    char op[4] = {0};
    memcpy(op, optext, ol - 1);
    const GbScopes *sc = gb_op_ctx_scopes(ctx, module);
    int scope = gb_scopes_at(sc, ts_node_start_byte(n));
    const GbScope *s = &sc->scopes.items[scope];
    if (s->kind == GB_SCOPE_CLASS || s->dynamic) return false;
    const char *src = gb_op_ctx_source(ctx, module);
    char *name = gb_node_text(left, src);
    unsigned tx = gb_types_var(types, scope, name);
    free(name);
    unsigned ty = gb_types_expr(types, right);
    if (!gb_s10_pairs_ok(op, tx, ty)) return false;
    memcpy(op_out, op, 4);
    return true;
}

static void gb_s10_walk(GbOpContext *ctx, size_t module, const GbTypes *types, TSNode n, GbSiteList *out)
{
    char op[4];
    if (gb_s10_site_ok(ctx, module, types, n, op)) gb_site_add(ctx, out, module, n, NULL, 0, NULL);
    uint32_t c = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < c; i++) gb_s10_walk(ctx, module, types, ts_node_named_child(n, i), out);
}

void gb_op_transform_aug_assignment_find(GbOpContext *ctx, GbSiteList *out)
{
    for (size_t m = 0; m < ctx->prog->modules.len; m++) {
        if (!gb_op_ctx_module_ok(ctx, m)) continue;
        GbTypes types;
        gb_types_init(&types, ctx, m);
        gb_s10_walk(ctx, m, &types, ts_tree_root_node(gb_op_ctx_tree(ctx, m)), out);
        gb_types_destroy(&types);
    }
}

/* Expressions that bind tighter than any binary operator: no parentheses needed. */
static bool gb_s10_is_atom(TSNode e)
{
    switch (gb_node_kind(e)) {
    case GB_NK_IDENTIFIER:
    case GB_NK_INTEGER:
    case GB_NK_FLOAT:
    case GB_NK_STRING:
    case GB_NK_CONCATENATED_STRING:
    case GB_NK_TRUE:
    case GB_NK_FALSE:
    case GB_NK_NONE:
    case GB_NK_CALL:
    case GB_NK_ATTRIBUTE:
    case GB_NK_SUBSCRIPT:
    case GB_NK_PARENTHESIZED_EXPRESSION:
    case GB_NK_LIST:
    case GB_NK_DICTIONARY:
    case GB_NK_SET:
    case GB_NK_TUPLE:
    case GB_NK_LIST_COMPREHENSION:
    case GB_NK_DICTIONARY_COMPREHENSION:
    case GB_NK_SET_COMPREHENSION:
    case GB_NK_GENERATOR_EXPRESSION:
        return true;
    default:
        return false;
    }
}

bool gb_op_transform_aug_assignment_apply(GbOpContext *ctx, const GbSite *site, GbRng *rng, GbError *err)
{
    (void)rng;
    TSNode n = gb_op_ctx_node_at(ctx, site->module, site->start, site->end, GB_NK_AUGMENTED_ASSIGNMENT);
    char op[4];
    GbTypes types;
    gb_types_init(&types, ctx, site->module);
    bool ok = !ts_node_is_null(n) && gb_s10_site_ok(ctx, site->module, &types, n, op);
    gb_types_destroy(&types);
    if (!ok) {
        gb_error_set(err, "TransformAugAssignment: site %s is not a safe augmented assignment", site->key);
        return false;
    }
    const char *src = gb_op_ctx_source(ctx, site->module);
    TSNode left = ts_node_child_by_field_name(n, "left", 4), right = ts_node_child_by_field_name(n, "right", 5);
    char *l = gb_node_text(left, src), *r = gb_node_text(right, src);
    char *text =
        gb_s10_is_atom(right) ? gb_asprintf("%s = %s %s %s", l, l, op, r) : gb_asprintf("%s = %s %s (%s)", l, l, op, r);
    GbEditSet set;
    gb_edits_init(&set);
    gb_edits_replace_node(&set, site->module, n, text);
    ok = gb_edits_commit(ctx, &set, err);
    gb_edits_destroy(&set);
    free(text);
    free(l);
    free(r);
    return ok;
}
