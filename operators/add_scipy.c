/* A6 AddScipy: NOT WRITTEN YET. This file is a placeholder that lists no sites so that the
 * registry links; the helper who writes AddScipy replaces this whole file (see
 * operators/README.md). */
#include "operators/operator.h"

void gb_op_add_scipy_find(GbOpContext *ctx, GbSiteList *out)
{
    (void)ctx;
    (void)out;
}

bool gb_op_add_scipy_apply(GbOpContext *ctx, const GbSite *site, GbRng *rng, GbError *err)
{
    (void)ctx;
    (void)rng;
    gb_error_set(err, "AddScipy is not implemented yet (site %s)", site->key);
    return false;
}
