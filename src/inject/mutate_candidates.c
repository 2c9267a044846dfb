/* Candidates: every place an operator could act, and the contexts no operator touches. */
#include "src/inject/mutate_private.h"

#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "src/python/pyparse.h"

static bool gb_mutate__has_effect(TSNode n)
{
    static const char *const effects[] = {"call",  "assignment", "augmented_assignment", "named_expression", "yield",
                                          "await", NULL};
    if (gb_mutate__is_any(n, effects)) return true;
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
        if (gb_mutate__has_effect(ts_node_named_child(n, i))) return true;
    return false;
}

static bool gb_mutate__is_main_guard(const GbMutCtx *c, TSNode cond)
{
    size_t a = ts_node_start_byte(cond), b = ts_node_end_byte(cond);
    char *t = gb_mutate_normalise(c->src + a, b - a);
    static const char *const guards[] = {"__name__==\"__main__\"", "__name__=='__main__'", "\"__main__\"==__name__",
                                         "'__main__'==__name__", NULL};
    bool is = false;
    for (size_t i = 0; guards[i]; i++) is = is || strcmp(t, guards[i]) == 0;
    free(t);
    return is;
}

bool gb_mutate__refused_context(const GbMutCtx *c, TSNode n)
{
    static const char *const banned[] = {
        "decorator", "type", "default_parameter", "typed_default_parameter", "format_specifier", "raise_statement",
        "ERROR",     NULL};
    for (TSNode p = n; !ts_node_is_null(p); p = ts_node_parent(p)) {
        if (gb_mutate__is_any(p, banned)) return true;
        if (gb_node_is_kind(p, GB_NK_EXPRESSION_STATEMENT) && !gb_mutate__has_effect(p)) return true;
        if (gb_node_is_kind(p, GB_NK_ASSERT_STATEMENT)) {
            /* The first expression is the checked condition; anything after is the message. */
            uint32_t seen = 0;
            for (uint32_t i = 0; i < ts_node_named_child_count(p); i++) {
                TSNode ch = ts_node_named_child(p, i);
                if (gb_node_is_kind(ch, GB_NK_COMMENT)) continue;
                if (seen++ > 0 && gb_mutate__contains(ch, n)) return true;
            }
        }
        if (gb_node_is_kind(p, GB_NK_IF_STATEMENT)) {
            TSNode cond = gb_mutate__field(p, "condition");
            if (!ts_node_is_null(cond) && gb_mutate__contains(cond, n) && gb_mutate__is_main_guard(c, cond))
                return true;
        }
    }
    return false;
}

void gb_mutate__push_cand(GbMutCands *out, TSNode node, TSNode left, TSNode right, int kind, const char *owner)
{
    GbMutCand cd = {node, left, right, kind, owner, ts_node_start_byte(node), ts_node_end_byte(node), SIZE_MAX, 0};
    gb_array_push(out, cd);
}

/* The candidates of op in n's subtree, in tree order (ERROR subtrees skipped). */
static void gb_mutate__collect_cands(const GbMutCtx *c, TSNode n, GbMutOp op, GbMutCands *out)
{
    if (gb_node_is_kind(n, GB_NK_ERROR)) return;
    switch (op) {
    case GB_MUT_ARITH:
        gb_mutate__cands_arith(n, out);
        break;
    case GB_MUT_COMPARE:
        gb_mutate__cands_compare(n, out);
        break;
    case GB_MUT_CONDITION:
        gb_mutate__cands_condition(n, out);
        break;
    case GB_MUT_RETURN:
        gb_mutate__cands_return(n, out);
        break;
    case GB_MUT_CONSTANT:
        gb_mutate__cands_constant(n, out);
        break;
    default:
        assert(!"unknown mutation operator");
    }
    for (uint32_t i = 0; i < ts_node_child_count(n); i++) gb_mutate__collect_cands(c, ts_node_child(n, i), op, out);
}

static int gb_mutate__cmp_cand(const void *a, const void *b)
{
    const GbMutCand *x = a, *y = b;
    if (x->start != y->start) return x->start < y->start ? -1 : 1;
    return (x->end > y->end) - (x->end < y->end);
}

void gb_mutate__candidates(const GbMutCtx *c, GbMutOp op, GbMutCands *out)
{
    gb_mutate__collect_cands(c, c->root, op, out);
    /* no qsort(NULL, 0, ...): undefined behaviour (an empty array has no storage) */
    if (out->len > 1) qsort(out->items, out->len, sizeof *out->items, gb_mutate__cmp_cand);
    for (size_t i = 0; i < out->len; i++) {
        GbMutCand *cd = &out->items[i];
        cd->stmt = gb_mutate__stmt_of(c, cd->node);
        cd->occurrence = 0;
        for (size_t j = 0; j < i; j++)
            if (out->items[j].stmt == cd->stmt) cd->occurrence++;
    }
}
