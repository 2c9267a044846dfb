/* M1 arith: swap an arithmetic operator of a binary_operator. */
#include "src/inject/mutate_private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/python/pyparse.h"

const char *const gb_mutate__arith_ops[] = {"+", "-", "*", "/", "//", "%", NULL};

typedef struct {
    bool error; /* ZeroDivisionError */
    double value;
} GbMutNum;

static GbMutNum gb_mutate__arith(double a, double b, const char *op)
{
    GbMutNum r = {false, 0};
    if (strcmp(op, "+") == 0) {
        r.value = a + b;
    } else if (strcmp(op, "-") == 0) {
        r.value = a - b;
    } else if (strcmp(op, "*") == 0) {
        r.value = a * b;
    } else if (b == 0) {
        r.error = true;
    } else if (strcmp(op, "/") == 0) {
        r.value = a / b;
    } else if (strcmp(op, "//") == 0) {
        r.value = floor(a / b);
    } else {
        /* Python's % takes the sign of the divisor. */
        double m = fmod(a, b);
        if (m != 0 && ((m < 0) != (b < 0))) m += b;
        r.value = m;
    }
    return r;
}

static bool gb_mutate__arith_equivalent(const GbMutCtx *c, const GbMutCand *cd, const char *op, const char *target)
{
    double l, r;
    bool lnum = gb_mutate__numeric_value(c, cd->left, &l), rnum = gb_mutate__numeric_value(c, cd->right, &r);
    if (lnum && rnum) {
        GbMutNum x = gb_mutate__arith(l, r, op), y = gb_mutate__arith(l, r, target);
        return x.error == y.error && (x.error || x.value == y.value);
    }
    static const char *const right0[] = {"+", "-", "|", NULL};
    static const char *const right1[] = {"*", "/", "//", "|", NULL};
    static const char *const left0[] = {"*", "/", "//", "%", "|", NULL};
    static const char *const same[] = {"-", "%", "|", "/", "//", "|", NULL};
    if (rnum && r == 0 && gb_mutate__same_group(right0, op, target)) return true;
    /* x // 1.0 floors, so only an integer 1 makes // join * and /. */
    static const char *const right1f[] = {"*", "/", "|", NULL};
    bool int1 = gb_node_is_kind(gb_mutate__unparen(cd->right), GB_NK_INTEGER);
    if (rnum && r == 1 && gb_mutate__same_group(int1 ? right1 : right1f, op, target)) return true;
    if (lnum && l == 0 && gb_mutate__same_group(left0, op, target)) return true;
    if (gb_mutate__same_text(c, cd->left, cd->right) && gb_mutate__same_group(same, op, target)) return true;
    return false;
}

void gb_mutate__variants_arith(const GbMutCtx *c, const GbMutCand *cd, GbMutSite *site)
{
    const char *op = ts_node_type(cd->node);
    /* `"..." % args` is string formatting, not arithmetic: with a string literal on either
     * side, % is neither replaced nor offered. */
    bool formatting = gb_mutate__is_string_literal(cd->left) || gb_mutate__is_string_literal(cd->right);
    if (formatting && strcmp(op, "%") == 0) return;
    for (size_t i = 0; gb_mutate__arith_ops[i]; i++) {
        const char *target = gb_mutate__arith_ops[i];
        if (strcmp(target, op) == 0) continue;
        if (formatting && strcmp(target, "%") == 0) continue;
        if (gb_mutate__arith_equivalent(c, cd, op, target)) continue;
        char *label = gb_asprintf("op:%s", target);
        gb_mutate__add_replace(c, site, label, cd->start, cd->end, target);
        free(label);
    }
}

/* M1 candidates at n: the operator token of an arithmetic binary_operator. */
void gb_mutate__cands_arith(TSNode n, GbMutCands *out)
{
    if (!gb_node_is_kind(n, GB_NK_BINARY_OPERATOR)) return;
    TSNode tok = gb_mutate__field(n, "operator");
    if (gb_mutate__is_any(tok, gb_mutate__arith_ops))
        gb_mutate__push_cand(out, tok, gb_mutate__field(n, "left"), gb_mutate__field(n, "right"), 0, NULL);
}
