/* S1 AddNestedFor: wrap a statement in a `for` loop that runs exactly once.
 *
 *     total += x            for attempt in range(1):
 *                    ->         total += x
 *
 * Every shape iterates over a literal one-element sequence (range(1), range(k, k + 1),
 * [k], (k,), a one-character string), so the body runs exactly once. The loop variable is a
 * fresh name starting with an underscore (unused by convention). Refused: statements with a break/continue that would
 * now target the new loop, statements in class bodies (the loop variable would become a class attribute), docstrings,
 * __future__ imports, global/nonlocal declarations, definitions and statements sharing a
 * line. Shapes that call range() are only used where `range` is the builtin. */
#include "operators/operator.h"

#include <stdlib.h>
#include <string.h>

#include "operators/edit.h"
#include "operators/words.h"


void gb_op_add_nested_for_find(GbOpContext *ctx, GbSiteList *out)
{
    gb_wrappable_sites(ctx, out, GB_FX_BREAK | GB_FX_CONTINUE);
}

bool gb_op_add_nested_for_apply(GbOpContext *ctx, const GbSite *site, GbRng *rng, GbError *err)
{
    TSNode stmt = gb_wrappable_site_stmt(ctx, site, GB_FX_BREAK | GB_FX_CONTINUE, "AddNestedFor", err);
    if (ts_node_is_null(stmt)) return false;
    const GbScopes *sc = gb_op_ctx_scopes(ctx, site->module);
    int scope = gb_scopes_at(sc, site->start);
    bool range_ok = gb_scopes_resolve(sc, scope, "range", NULL) == GB_RESOLVE_BUILTIN;
    /* Leading underscore: the conventional name of a loop variable that is not used (linters
     * such as pylint do not report it). */
    char *word = gb_words_pick(rng, GB_WORDS_LOOP_VAR);
    char *var = gb_op_ctx_fresh_name(ctx, word);
    free(word);
    unsigned k = gb_rng_bounded(rng, 10);
    unsigned shape = gb_rng_bounded(rng, range_ok ? 6 : 3);
    char *header;
    switch (shape) {
    case 0:
        header = gb_asprintf("for %s in [%u]:", var, k);
        break;
    case 1:
        header = gb_asprintf("for %s in (%u,):", var, k);
        break;
    case 2:
        header = gb_asprintf("for %s in \"%c\":", var, "abcdefghijklmnopqrstuvwxyz"[gb_rng_bounded(rng, 26)]);
        break;
    case 3:
        header = gb_asprintf("for %s in range(1):", var);
        break;
    case 4:
        header = gb_asprintf("for %s in range(%u, %u):", var, k, k + 1);
        break;
    default:
        header = gb_asprintf("for %s in range(%u, %u, -1):", var, k + 1, k);
        break;
    }
    bool ok = gb_edits_wrap_commit(ctx, site->module, stmt, stmt, header, NULL, err);
    free(header);
    free(var);
    return ok;
}
