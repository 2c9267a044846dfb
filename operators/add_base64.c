/* A1 AddBase64: insert a call of base64 (standard library): encode or decode a constant byte string
 *
 *     total = sum(xs)           ->    base64.b64encode(b"4817263591")
 *                                     total = sum(xs)
 *
 * Shapes: b64encode, urlsafe_b64encode, b16encode, encodebytes, standard_b64encode then
 * standard_b64decode of the result, b64encode then b64decode. Encoding constants cannot
 * fail, print or touch global state.
 *
 * Sites, imports and the rules every inserted call follows: operators/api_call.h. */
#include "operators/operator.h"

#include "operators/api_call.h"

static const GbApiTemplate gb_add_base64_templates[] = {
    {"{0}.b64encode(b\"{d}\")", {{"base64", NULL, {"base64", "b64"}}}, {NULL}},
    {"{0}.urlsafe_b64encode(b\"{a}-{d}\")", {{"base64", NULL, {"base64", "b64"}}}, {NULL}},
    {"{v} = {0}.b64encode(b\"{a}:{d}\")\n{0}.b64decode({v})", {{"base64", NULL, {"base64", "b64"}}}, {"encoded"}},
    {"{0}.b16encode(b\"{a}\")", {{"base64", NULL, {"base64", "b64"}}}, {NULL}},
    {"{v} = {0}.standard_b64encode(\"{a}\".encode())\n{0}.standard_b64decode({v})",
     {{"base64", NULL, {"base64", "b64"}}},
     {"payload"}},
    {"{0}.b64decode({0}.b64encode(b\"{d}\"))", {{"base64", NULL, {"base64", "b64"}}}, {NULL}},
    {"{0}.encodebytes(b\"{a} {d}\")", {{"base64", NULL, {"base64", "b64"}}}, {NULL}},
    {"{v} = \"{a}:{d}\".encode(\"ascii\")\n{0}.b64encode({v})", {{"base64", NULL, {"base64", "b64"}}}, {"raw"}},
};

const GbApiTable gb_add_base64_table = {gb_add_base64_templates,
                                        sizeof gb_add_base64_templates / sizeof *gb_add_base64_templates};

void gb_op_add_base64_find(GbOpContext *ctx, GbSiteList *out)
{
    gb_api_find(ctx, out, gb_add_base64_templates, sizeof gb_add_base64_templates / sizeof *gb_add_base64_templates);
}

bool gb_op_add_base64_apply(GbOpContext *ctx, const GbSite *site, GbRng *rng, GbError *err)
{
    return gb_api_apply(ctx, site, rng, gb_add_base64_templates,
                        sizeof gb_add_base64_templates / sizeof *gb_add_base64_templates, "AddBase64", err);
}
