/* A7 AddSklearn: insert a call of scikit-learn: shuffles with a fixed seed, scalers and metrics
 *
 *     total = sum(xs)           ->    shuffle([4, 11, 2, 7], random_state=3)
 *                                     total = sum(xs)
 *
 * Randomness never leaks: shuffle/resample get a fixed random_state and a fresh list (the
 * global numpy generator is not used). Shapes: shuffle, resample, MinMaxScaler and
 * StandardScaler on a fresh column, normalize, accuracy_score, mean_squared_error.
 *
 * Sites, imports and the rules every inserted call follows: operators/api_call.h. */
#include "operators/operator.h"

#include "operators/api_call.h"

static const GbApiTemplate gb_add_sklearn_templates[] = {
    {"{0}({ints}, random_state={k})", {{"sklearn.utils", "shuffle", {"shuffle", "sk_shuffle"}}}, {NULL}},
    {"{0}({ints}, random_state={k})", {{"sklearn.utils", "resample", {"resample", "sk_resample"}}}, {NULL}},
    {"{0}().fit_transform([[{f1}], [{f2}], [{f3}]])",
     {{"sklearn.preprocessing", "MinMaxScaler", {"MinMaxScaler"}}},
     {NULL}},
    {"{0}({bits}, {bits2})", {{"sklearn.metrics", "accuracy_score", {"accuracy_score"}}}, {NULL}},
    {"{0}([[{f1}, {f2}]])", {{"sklearn.preprocessing", "normalize", {"normalize", "sk_normalize"}}}, {NULL}},
    {"{0}({xs}, {ys})", {{"sklearn.metrics", "mean_squared_error", {"mean_squared_error"}}}, {NULL}},
    {"{v} = {0}()\n{v}.fit([[{f1}], [{f2}], [{f3}]])",
     {{"sklearn.preprocessing", "StandardScaler", {"StandardScaler"}}},
     {"scaler"}},
};

const GbApiTable gb_add_sklearn_table = {gb_add_sklearn_templates,
                                         sizeof gb_add_sklearn_templates / sizeof *gb_add_sklearn_templates};

void gb_op_add_sklearn_find(GbOpContext *ctx, GbSiteList *out)
{
    gb_api_find(ctx, out, gb_add_sklearn_templates, sizeof gb_add_sklearn_templates / sizeof *gb_add_sklearn_templates);
}

bool gb_op_add_sklearn_apply(GbOpContext *ctx, const GbSite *site, GbRng *rng, GbError *err)
{
    return gb_api_apply(ctx, site, rng, gb_add_sklearn_templates,
                        sizeof gb_add_sklearn_templates / sizeof *gb_add_sklearn_templates, "AddSklearn", err);
}
