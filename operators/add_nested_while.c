/* S3 AddNestedWhile: wrap a statement in a `while` loop that runs exactly once.
 *
 *     total += x            pending = True
 *                    ->     while pending:
 *                               pending = False
 *                               total += x
 *
 * The loop's guard variable is a fresh name, set just before the loop and changed as the
 * first statement of its body, so the condition is true once and false at the next test
 * whatever the body does (it cannot see the fresh name); at module level it is named in upper
 * case, as pylint expects of a module-level name (`PENDING = True`). Shapes: a flag, an up-counter, a
 * down-counter, an equality test and a one-element list that is popped. Refused: statements
 * with a break/continue that would now target the new loop, statements in class bodies (the
 * guard would become a class attribute), docstrings, __future__ imports, global/nonlocal
 * declarations, definitions and statements sharing a line. */
#include "operators/operator.h"

#include <stdlib.h>
#include <string.h>

#include "operators/edit.h"
#include "operators/words.h"


void gb_op_add_nested_while_find(GbOpContext *ctx, GbSiteList *out)
{
    gb_wrappable_sites(ctx, out, GB_FX_BREAK | GB_FX_CONTINUE);
}

bool gb_op_add_nested_while_apply(GbOpContext *ctx, const GbSite *site, GbRng *rng, GbError *err)
{
    TSNode stmt = gb_wrappable_site_stmt(ctx, site, GB_FX_BREAK | GB_FX_CONTINUE, "AddNestedWhile", err);
    if (ts_node_is_null(stmt)) return false;
    char *word = gb_words_pick(rng, GB_WORDS_FLAG);
    char *v = gb_op_ctx_fresh_name_at(ctx, site->module, ts_node_start_byte(stmt), word);
    free(word);
    unsigned k = 1 + gb_rng_bounded(rng, 50);
    char *header;
    switch (gb_rng_bounded(rng, 5)) {
    case 0:
        header = gb_asprintf("%s = True\nwhile %s:\n    %s = False", v, v, v);
        break;
    case 1:
        header = gb_asprintf("%s = 0\nwhile %s < 1:\n    %s += 1", v, v, v);
        break;
    case 2:
        header = gb_asprintf("%s = %u\nwhile %s > %u:\n    %s -= 1", v, k, v, k - 1, v);
        break;
    case 3:
        header = gb_asprintf("%s = %u\nwhile %s == %u:\n    %s = %u", v, k, v, k, v, k + 1);
        break;
    default:
        header = gb_asprintf("%s = [%u]\nwhile %s:\n    %s.pop()", v, k, v, v);
        break;
    }
    bool ok = gb_edits_wrap_commit(ctx, site->module, stmt, stmt, header, NULL, err);
    free(header);
    free(v);
    return ok;
}
