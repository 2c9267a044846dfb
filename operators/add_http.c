/* A5 AddHttp: insert a call of http.client: create a connection object and never connect
 *
 *     total = sum(xs)           ->    connection = HTTPConnection("example.com", 8080, timeout=3)
 *                                     connection.close()
 *                                     total = sum(xs)
 *
 * HTTPConnection's constructor only stores the host and port: no DNS lookup, no socket;
 * close() and set_debuglevel() on an unconnected object do nothing. Never request().
 *
 * Sites, imports and the rules every inserted call follows: operators/api_call.h. */
#include "operators/operator.h"

#include "operators/api_call.h"

static const GbApiTemplate gb_add_http_templates[] = {
    {"{0}(\"{host}\", {p})", {{"http.client", "HTTPConnection", {"HTTPConnection"}}}, {NULL}},
    {"{0}(\"{host}\", port={p}, timeout={k})", {{"http.client", "HTTPConnection", {"HTTPConnection"}}}, {NULL}},
    {"{v} = {0}(\"{host}\", {p}, timeout={k})\n{v}.close()",
     {{"http.client", "HTTPConnection", {"HTTPConnection"}}},
     {"connection"}},
    {"{0}.HTTPConnection(\"{host}\")", {{"http.client", NULL, {"http_client", "httplib"}}}, {NULL}},
    {"{v} = {0}(\"{host}\")\n{v}.set_debuglevel(0)", {{"http.client", "HTTPConnection", {"HTTPConnection"}}}, {"conn"}},
};

const GbApiTable gb_add_http_table = {gb_add_http_templates,
                                      sizeof gb_add_http_templates / sizeof *gb_add_http_templates};

void gb_op_add_http_find(GbOpContext *ctx, GbSiteList *out)
{
    gb_api_find(ctx, out, gb_add_http_templates, sizeof gb_add_http_templates / sizeof *gb_add_http_templates);
}

bool gb_op_add_http_apply(GbOpContext *ctx, const GbSite *site, GbRng *rng, GbError *err)
{
    return gb_api_apply(ctx, site, rng, gb_add_http_templates,
                        sizeof gb_add_http_templates / sizeof *gb_add_http_templates, "AddHttp", err);
}
