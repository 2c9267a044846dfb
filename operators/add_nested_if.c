/* S2 AddNestedIf: wrap a statement in an `if` whose condition is always true.
 *
 *     total += x            limit = 417
 *                    ->     floor = 230
 *                           if limit > floor:
 *                               total += x
 *
 * The condition only reads fresh variables assigned literal values on the lines just before
 * it, so it is true by construction every time it runs (no random constant can make it
 * false: `a > b` uses a > b, `a & b` shares a set bit, `a % m == r` uses r = a % m, ...).
 * At module level the two variables are module constants, named in upper case as pylint
 * expects (`LIMIT = 417`). An `if` does not change what break/continue target, so those are allowed. Refused:
 * statements in class bodies (the guard variables would become class attributes),
 * docstrings, __future__ imports, global/nonlocal declarations, definitions and statements
 * sharing a line. */
#include "operators/operator.h"

#include <stdlib.h>
#include <string.h>

#include "operators/edit.h"
#include "operators/words.h"

static const char *const gb_s2_words[] = {"ready", "enabled", "valid", "checked", "active", "ok"};

void gb_op_add_nested_if_find(GbOpContext *ctx, GbSiteList *out)
{
    gb_wrappable_sites(ctx, out, 0);
}

bool gb_op_add_nested_if_apply(GbOpContext *ctx, const GbSite *site, GbRng *rng, GbError *err)
{
    TSNode stmt = gb_wrappable_site_stmt(ctx, site, 0, "AddNestedIf", err);
    if (ts_node_is_null(stmt)) return false;
    /* two different nouns of the shared vocabulary (operators/words.h) */
    char *wa = gb_words_pick(rng, GB_WORDS_NOUN), *wb = gb_words_pick(rng, GB_WORDS_NOUN);
    while (strcmp(wa, wb) == 0) {
        free(wb);
        wb = gb_words_pick(rng, GB_WORDS_NOUN);
    }
    uint32_t at = ts_node_start_byte(stmt);
    char *a = gb_op_ctx_fresh_name_at(ctx, site->module, at, wa);
    char *b = gb_op_ctx_fresh_name_at(ctx, site->module, at, wb);
    free(wa);
    free(wb);
    unsigned lo = gb_rng_bounded(rng, 500), hi = lo + 1 + gb_rng_bounded(rng, 500);
    char *header;
    switch (gb_rng_bounded(rng, 6)) {
    case 0:
        header = gb_asprintf("%s = %u\n%s = %u\nif %s > %s:", a, hi, b, lo, a, b);
        break;
    case 1: {
        unsigned x = 1 + gb_rng_bounded(rng, 1023);
        unsigned y = gb_rng_bounded(rng, 1024) | (x & (~x + 1)); /* shares x's lowest set bit */
        header = gb_asprintf("%s = %u\n%s = %u\nif %s & %s:", a, x, b, y, a, b);
        break;
    }
    case 2: {
        unsigned mod = 2 + gb_rng_bounded(rng, 8);
        header = gb_asprintf("%s = %u\nif %s %% %u == %u:", a, hi, a, mod, hi % mod);
        break;
    }
    case 3:
        header = gb_asprintf("%s = %u\n%s = %u\nif %s != %s and %s > 0:", a, hi, b, lo, a, b, a);
        break;
    case 4:
        header = gb_asprintf("%s = \"%s\"\nif %s.isalpha():", a, gb_s2_words[gb_rng_bounded(rng, 6)], a);
        break;
    default:
        header = gb_asprintf("%s = %u\n%s = %u\nif %s <= %s:", b, lo, a, hi, b, a);
        break;
    }
    bool ok = gb_edits_wrap_commit(ctx, site->module, stmt, stmt, header, NULL, err);
    free(header);
    free(a);
    free(b);
    return ok;
}
