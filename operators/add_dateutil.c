/* A4 AddDateutil: insert a call of python-dateutil: parse dates, relative deltas, Easter
 *
 *     total = sum(xs)           ->    parse("2014-06-09 17:42")
 *                                     total = sum(xs)
 *
 * Shapes: parser.parse and isoparse of full ISO dates (no time zone names, so no
 * UnknownTimezoneWarning; no missing fields, so today's date is never used), relativedelta,
 * easter, a date plus a relativedelta.
 *
 * Sites, imports and the rules every inserted call follows: operators/api_call.h. */
#include "operators/operator.h"

#include "operators/api_call.h"

static const GbApiTemplate gb_add_dateutil_templates[] = {
    {"{0}(\"{Y}-{M2}-{D2} {H2}:{I2}\")", {{"dateutil.parser", "parse", {"parse", "parse_date"}}}, {NULL}},
    {"{0}.isoparse(\"{Y}-{M2}-{D2}T{H2}:{I2}:00\")", {{"dateutil", "parser", {"parser", "date_parser"}}}, {NULL}},
    {"{0}(months=+{k}, days={k2})", {{"dateutil.relativedelta", "relativedelta", {"relativedelta"}}}, {NULL}},
    {"{0}({Y})", {{"dateutil.easter", "easter", {"easter", "easter_date"}}}, {NULL}},
    {"{v} = {0}(\"{Y}-{M2}-{D2}\")\n{v}.isoformat()",
     {{"dateutil.parser", "parse", {"parse", "parse_date"}}},
     {"parsed"}},
    {"{v} = {1}.date({Y}, {M}, {D}) + {0}(months=+{k})\n{v}.isoformat()",
     {{"dateutil.relativedelta", "relativedelta", {"relativedelta"}}, {"datetime", NULL, {"datetime", "dt"}}},
     {"due_date"}},
};

const GbApiTable gb_add_dateutil_table = {gb_add_dateutil_templates,
                                          sizeof gb_add_dateutil_templates / sizeof *gb_add_dateutil_templates};

void gb_op_add_dateutil_find(GbOpContext *ctx, GbSiteList *out)
{
    gb_api_find(ctx, out, gb_add_dateutil_templates,
                sizeof gb_add_dateutil_templates / sizeof *gb_add_dateutil_templates);
}

bool gb_op_add_dateutil_apply(GbOpContext *ctx, const GbSite *site, GbRng *rng, GbError *err)
{
    return gb_api_apply(ctx, site, rng, gb_add_dateutil_templates,
                        sizeof gb_add_dateutil_templates / sizeof *gb_add_dateutil_templates, "AddDateutil", err);
}
