/* A6 AddScipy: insert a call of scipy: statistics and distances of constant samples
 *
 *     total = sum(xs)           ->    ttest_ind([3.5, 5.0, 0.5, 2.0], [6.0, 8.5, 1.5, 4.0])
 *                                     total = sum(xs)
 *
 * The samples are distinct numbers (never constant: ttest_ind, pearsonr and spearmanr warn
 * on constant input), so no call warns. Shapes: ttest_ind, pearsonr, spearmanr, zscore,
 * special.comb, spatial.distance.euclidean, stats.sem. These calls cost 0.1-1 ms, so like
 * every library operator A6 only uses statements outside loops of functions that run a
 * bounded number of times (operators/api_call.h).
 *
 * Sites, imports and the rules every inserted call follows: operators/api_call.h. */
#include "operators/operator.h"

#include "operators/api_call.h"

static const GbApiTemplate gb_add_scipy_templates[] = {
    {"{0}({xs}, {ys})", {{"scipy.stats", "ttest_ind", {"ttest_ind"}}}, {NULL}},
    {"{0}({xs}, {ys})", {{"scipy.stats", "pearsonr", {"pearsonr"}}}, {NULL}},
    {"{0}({xs}, {ys})", {{"scipy.stats", "spearmanr", {"spearmanr"}}}, {NULL}},
    {"{0}({xs})", {{"scipy.stats", "zscore", {"zscore"}}}, {NULL}},
    {"{0}({n}, {r}, exact=True)", {{"scipy.special", "comb", {"comb", "binomial"}}}, {NULL}},
    {"{0}({pt}, {pt2})", {{"scipy.spatial.distance", "euclidean", {"euclidean", "euclidean_distance"}}}, {NULL}},
    {"{0}.sem({xs})", {{"scipy", "stats", {"stats", "scipy_stats"}}}, {NULL}},
    {"{v} = {0}({xs})\n{v}.tolist()", {{"scipy.stats", "zscore", {"zscore"}}}, {"scores"}},
};

const GbApiTable gb_add_scipy_table = {gb_add_scipy_templates,
                                       sizeof gb_add_scipy_templates / sizeof *gb_add_scipy_templates};

void gb_op_add_scipy_find(GbOpContext *ctx, GbSiteList *out)
{
    gb_api_find(ctx, out, gb_add_scipy_templates, sizeof gb_add_scipy_templates / sizeof *gb_add_scipy_templates);
}

bool gb_op_add_scipy_apply(GbOpContext *ctx, const GbSite *site, GbRng *rng, GbError *err)
{
    return gb_api_apply(ctx, site, rng, gb_add_scipy_templates,
                        sizeof gb_add_scipy_templates / sizeof *gb_add_scipy_templates, "AddScipy", err);
}
