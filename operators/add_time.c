/* A8 AddTime: insert a call of time (standard library): read clocks and format times; never sleeps
 *
 *     total = sum(xs)           ->    time.perf_counter()
 *                                     total = sum(xs)
 *
 * Shapes: time, perf_counter, monotonic, process_time, time_ns, strftime, localtime with
 * strftime, gmtime with asctime.
 *
 * Sites, imports and the rules every inserted call follows: operators/api_call.h. */
#include "operators/operator.h"

#include "operators/api_call.h"

static const GbApiTemplate gb_add_time_templates[] = {
    {"{0}.time()", {{"time", NULL, {"time", "clock"}}}, {NULL}},
    {"{0}.perf_counter()", {{"time", NULL, {"time", "clock"}}}, {NULL}},
    {"{v} = {0}.localtime()\n{0}.strftime(\"%H:%M:%S\", {v})", {{"time", NULL, {"time", "clock"}}}, {"moment"}},
    {"{0}.monotonic()", {{"time", NULL, {"time", "clock"}}}, {NULL}},
    {"{0}.process_time()", {{"time", NULL, {"time", "clock"}}}, {NULL}},
    {"{0}.strftime(\"%Y-%m-%d\")", {{"time", NULL, {"time", "clock"}}}, {NULL}},
    {"{v} = {0}.gmtime({d})\n{0}.asctime({v})", {{"time", NULL, {"time", "clock"}}}, {"stamp"}},
    {"{0}.time_ns()", {{"time", NULL, {"time", "clock"}}}, {NULL}},
};

const GbApiTable gb_add_time_table = {gb_add_time_templates,
                                      sizeof gb_add_time_templates / sizeof *gb_add_time_templates};

void gb_op_add_time_find(GbOpContext *ctx, GbSiteList *out)
{
    gb_api_find(ctx, out, gb_add_time_templates, sizeof gb_add_time_templates / sizeof *gb_add_time_templates);
}

bool gb_op_add_time_apply(GbOpContext *ctx, const GbSite *site, GbRng *rng, GbError *err)
{
    return gb_api_apply(ctx, site, rng, gb_add_time_templates,
                        sizeof gb_add_time_templates / sizeof *gb_add_time_templates, "AddTime", err);
}
