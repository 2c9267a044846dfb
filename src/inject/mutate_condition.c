/* M3 condition: negate a condition, or swap a boolean operator. */
#include "src/inject/mutate_private.h"

#include <stdint.h>

#include "src/python/pyparse.h"

bool gb_mutate__is_primary(TSNode e)
{
    static const char *const primary[] = {"identifier",
                                          "call",
                                          "attribute",
                                          "subscript",
                                          "parenthesized_expression",
                                          "string",
                                          "list",
                                          "dictionary",
                                          "set",
                                          "tuple",
                                          "list_comprehension",
                                          "dictionary_comprehension",
                                          "set_comprehension",
                                          "generator_expression",
                                          NULL};
    return gb_mutate__is_any(e, primary);
}

/* `c` -> `not (c)`; a primary `x`, `f(x)`, `(c)` -> `not x`, ...; `not c` -> `c`. */
void gb_mutate__add_negation(const GbMutCtx *c, GbMutSite *site, TSNode e, const char *label_not,
                             const char *label_unnot)
{
    size_t a = ts_node_start_byte(e), b = ts_node_end_byte(e);
    if (gb_node_is_kind(e, GB_NK_NOT_OPERATOR)) {
        TSNode arg = gb_mutate__field(e, "argument");
        gb_mutate__add_replace(c, site, label_unnot, a, ts_node_start_byte(arg), "");
    } else if (gb_mutate__is_primary(e)) {
        gb_mutate__add_replace(c, site, label_not, a, a, "not ");
    } else {
        gb_mutate__add_wrap(c, site, label_not, a, b, "not (", ")");
    }
}

void gb_mutate__variants_condition(const GbMutCtx *c, const GbMutCand *cd, GbMutSite *site)
{
    if (cd->kind == GB_MUT__NEGATE) {
        if (gb_mutate__is_constant(c, cd->node)) return;
        gb_mutate__add_negation(c, site, cd->node, "negate", "unnegate");
        return;
    }
    if (gb_mutate__same_text(c, cd->left, cd->right)) return;
    bool is_and = gb_node_is_kind(cd->node, GB_NK_AND);
    gb_mutate__add_replace(c, site, is_and ? "op:or" : "op:and", cd->start, cd->end, is_and ? "or" : "and");
}

/* M3 candidates at n: the condition of if/elif/while, a comprehension filter, the test of a
 * conditional expression (negated), or a boolean operator (swapped). */
void gb_mutate__cands_condition(TSNode n, GbMutCands *out)
{
    TSNode null = {0};
    const char *owner = gb_node_is_kind(n, GB_NK_IF_STATEMENT)      ? "if"
                        : gb_node_is_kind(n, GB_NK_ELIF_CLAUSE)     ? "elif"
                        : gb_node_is_kind(n, GB_NK_WHILE_STATEMENT) ? "while"
                                                                    : NULL;
    if (owner) {
        TSNode cond = gb_mutate__field(n, "condition");
        if (!ts_node_is_null(cond)) gb_mutate__push_cand(out, cond, null, null, GB_MUT__NEGATE, owner);
    }
    /* The filter of a comprehension (`... for x in xs if c`) and the test of a conditional
     * expression (`a if c else b`, named child 1) are conditions too. */
    if (gb_node_is_kind(n, GB_NK_IF_CLAUSE)) {
        for (uint32_t i = 0; i < ts_node_named_child_count(n); i++) {
            TSNode ch = ts_node_named_child(n, i);
            if (gb_node_is_kind(ch, GB_NK_COMMENT)) continue;
            gb_mutate__push_cand(out, ch, null, null, GB_MUT__NEGATE, "comprehension if");
            break;
        }
    }
    if (gb_node_is_kind(n, GB_NK_CONDITIONAL_EXPRESSION) && ts_node_named_child_count(n) == 3)
        gb_mutate__push_cand(out, ts_node_named_child(n, 1), null, null, GB_MUT__NEGATE, "if-else expression");
    if (gb_node_is_kind(n, GB_NK_BOOLEAN_OPERATOR))
        gb_mutate__push_cand(out, gb_mutate__field(n, "operator"), gb_mutate__field(n, "left"),
                             gb_mutate__field(n, "right"), GB_MUT__SWAP, NULL);
}
