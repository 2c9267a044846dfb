/* A3 AddDatetime: insert a call of datetime (standard library): build and format dates
 *
 *     total = sum(xs)           ->    moment = datetime.datetime(2011, 4, 17)
 *                                     moment.isoformat()
 *                                     total = sum(xs)
 *
 * Shapes: datetime.now, date.today, timedelta, datetime(...).isoformat, now().strftime,
 * date(...).weekday, the difference of two now() calls. Dates are valid by construction
 * (day <= 28); nothing deprecated (no utcnow) so nothing warns.
 *
 * Sites, imports and the rules every inserted call follows: operators/api_call.h. */
#include "operators/operator.h"

#include "operators/api_call.h"

static const GbApiTemplate gb_add_datetime_templates[] = {
    {"{0}.datetime.now()", {{"datetime", NULL, {"datetime", "dt"}}}, {NULL}},
    {"{0}.date.today()", {{"datetime", NULL, {"datetime", "dt"}}}, {NULL}},
    {"{0}.timedelta(days={k}, hours={h})", {{"datetime", NULL, {"datetime", "dt"}}}, {NULL}},
    {"{v} = {0}.datetime({Y}, {M}, {D})\n{v}.isoformat()", {{"datetime", NULL, {"datetime", "dt"}}}, {"moment"}},
    {"{v} = {0}.datetime.now()\n{v}.strftime(\"%Y-%m-%d\")", {{"datetime", NULL, {"datetime", "dt"}}}, {"now"}},
    {"{0}.date({Y}, {M}, {D}).weekday()", {{"datetime", NULL, {"datetime", "dt"}}}, {NULL}},
    {"{v} = {0}.datetime.now()\n{w} = {0}.datetime.now() - {v}\n{w}.total_seconds()",
     {{"datetime", NULL, {"datetime", "dt"}}},
     {"started", "elapsed"}},
};

const GbApiTable gb_add_datetime_table = {gb_add_datetime_templates,
                                          sizeof gb_add_datetime_templates / sizeof *gb_add_datetime_templates};

void gb_op_add_datetime_find(GbOpContext *ctx, GbSiteList *out)
{
    gb_api_find(ctx, out, gb_add_datetime_templates,
                sizeof gb_add_datetime_templates / sizeof *gb_add_datetime_templates);
}

bool gb_op_add_datetime_apply(GbOpContext *ctx, const GbSite *site, GbRng *rng, GbError *err)
{
    return gb_api_apply(ctx, site, rng, gb_add_datetime_templates,
                        sizeof gb_add_datetime_templates / sizeof *gb_add_datetime_templates, "AddDatetime", err);
}
