/* M2 compare: swap a comparison operator inside a comparison_operator. */
#include "src/inject/mutate_private.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "src/python/pyparse.h"

static const char *const gb_mutate__compare_ops[] = {"<", "<=", ">", ">=", "==", "!=", NULL};

static bool gb_mutate__compare(double a, double b, const char *op)
{
    if (strcmp(op, "<") == 0) return a < b;
    if (strcmp(op, "<=") == 0) return a <= b;
    if (strcmp(op, ">") == 0) return a > b;
    if (strcmp(op, ">=") == 0) return a >= b;
    if (strcmp(op, "==") == 0) return a == b;
    return a != b;
}

static bool gb_mutate__compare_equivalent(const GbMutCtx *c, const GbMutCand *cd, const char *op, const char *target)
{
    double l, r;
    if (gb_mutate__numeric_value(c, cd->left, &l) && gb_mutate__numeric_value(c, cd->right, &r))
        return gb_mutate__compare(l, r, op) == gb_mutate__compare(l, r, target);
    static const char *const truth[] = {"==", "<=", ">=", "|", "!=", "<", ">", "|", NULL};
    if (gb_mutate__same_text(c, cd->left, cd->right) && gb_mutate__same_group(truth, op, target)) return true;
    return false;
}

void gb_mutate__variants_compare(const GbMutCtx *c, const GbMutCand *cd, GbMutSite *site)
{
    const char *op = ts_node_type(cd->node);
    bool none = gb_node_is_kind(gb_mutate__unparen(cd->left), GB_NK_NONE) ||
                gb_node_is_kind(gb_mutate__unparen(cd->right), GB_NK_NONE);
    for (size_t i = 0; gb_mutate__compare_ops[i]; i++) {
        const char *target = gb_mutate__compare_ops[i];
        if (strcmp(target, op) == 0) continue;
        /* Ordering against None is a TypeError, not a plausible slip. */
        if (none && (strcmp(target, "==") != 0 && strcmp(target, "!=") != 0)) continue;
        if (gb_mutate__compare_equivalent(c, cd, op, target)) continue;
        char *label = gb_asprintf("op:%s", target);
        gb_mutate__add_replace(c, site, label, cd->start, cd->end, target);
        free(label);
    }
}

/* M2 candidates at n: each comparison operator token of a comparison_operator, with the
 * operands beside it. */
void gb_mutate__cands_compare(TSNode n, GbMutCands *out)
{
    if (!gb_node_is_kind(n, GB_NK_COMPARISON_OPERATOR)) return;
    TSNode null = {0}, prev = null;
    uint32_t count = ts_node_child_count(n);
    for (uint32_t i = 0; i < count; i++) {
        TSNode ch = ts_node_child(n, i);
        if (ts_node_is_named(ch)) {
            if (!gb_node_is_kind(ch, GB_NK_COMMENT)) prev = ch;
            continue;
        }
        if (!gb_mutate__is_any(ch, gb_mutate__compare_ops)) continue;
        TSNode next = null;
        for (uint32_t j = i + 1; j < count; j++) {
            TSNode cj = ts_node_child(n, j);
            if (ts_node_is_named(cj) && !gb_node_is_kind(cj, GB_NK_COMMENT)) {
                next = cj;
                break;
            }
        }
        if (!ts_node_is_null(prev) && !ts_node_is_null(next)) gb_mutate__push_cand(out, ch, prev, next, 0, NULL);
    }
}
