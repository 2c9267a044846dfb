#include "src/cli/embed_opts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/http.h"
#include "src/base/json_write.h"
#include "src/measure/embedding.h"
#include "src/python/pyparse.h"

const char *const gb_cli_builtin_names[] = {"structure", "tokens", NULL};

void gb_cli_embed_defaults(GbCliEmbedOptions *o)
{
    o->url = getenv("GENEBENCH_EMBED_URL");
    o->model = getenv("GENEBENCH_EMBED_MODEL");
}

bool gb_cli_embed_check(const char *cmd, const GbCliEmbedOptions *o)
{
    if (o->url && *o->url && (!o->model || !*o->model)) {
        fprintf(stderr, "genebench %s: an embedding endpoint needs a model: --embed-model M\n", cmd);
        return false;
    }
    return true;
}

void gb_cli_embed_info_destroy(GbCliEmbedInfo *info)
{
    free(info->text);
    gb_str_destroy(&info->json);
    memset(info, 0, sizeof *info);
}

int gb_cli_embed(const char *cmd, const GbCliEmbedOptions *o, const char *const *texts, size_t n, double **vec,
                 GbCliEmbedInfo *info)
{
    memset(info, 0, sizeof *info);
    gb_str_init(&info->json);
    const char *url = o->url && *o->url ? o->url : NULL;
    bool first = true;
    gb_str_append(&info->json, "{");
    if (!url) {
        size_t d = (size_t)o->dim;
        *vec = gb_malloc((n ? n : 1) * d * sizeof **vec);
        TSParser *parser = gb_parser_new();
        const char *desc;
        if (o->builtin == GB_CLI_BUILTIN_TOKENS) {
            gb_embed_builtin(parser, texts, n, d, *vec);
            desc = GB_EMBED_BUILTIN_NAME;
        } else {
            gb_embed_structural(parser, texts, n, d, *vec);
            desc = GB_EMBED_STRUCTURAL_NAME;
        }
        ts_parser_delete(parser);
        info->dim = d;
        info->text = gb_asprintf("built-in %s: %s, dimension %zu", gb_cli_builtin_names[o->builtin], desc, d);
        gb_json_key(&info->json, "kind", &first);
        gb_json_string(&info->json, "builtin");
        gb_json_key(&info->json, "name", &first);
        gb_json_string(&info->json, gb_cli_builtin_names[o->builtin]);
        gb_json_key(&info->json, "description", &first);
        gb_json_string(&info->json, desc);
        gb_json_key(&info->json, "dimension", &first);
        gb_str_appendf(&info->json, "%zu}", d);
        return GB_CLI_CONTINUE;
    }
    GbHttpOptions ho;
    gb_http_options_default(&ho);
    ho.base_url = url;
    ho.api_key = getenv("GENEBENCH_API_KEY");
    ho.timeout_ms = o->timeout;
    ho.max_retries = (int)o->retries;
    GbError err;
    GbHttpClient *client = gb_http_client_new(&ho, &err);
    if (!client) {
        fprintf(stderr, "genebench %s: %s\n", cmd, err.msg);
        return GB_EXIT_USAGE;
    }
    char *cache_dir = o->no_cache ? NULL : o->cache ? gb_strdup(o->cache) : gb_embed_default_cache_dir();
    GbEmbedStats st;
    size_t d = 0;
    bool ok = gb_embed_remote_api(client, (GbEmbedApi)o->api, (GbPooling)o->pooling, o->model, texts, n,
                                  (size_t)o->batch, cache_dir, vec, &d, &st, &err);
    char *endpoint = gb_asprintf("%s%s", gb_http_client_base(client),
                                 o->api == GB_EMBED_API_OPENAI ? "/v1/embeddings" : "/embedding");
    gb_http_client_delete(client);
    if (!ok) {
        fprintf(stderr, "genebench %s: embedding failed: %s\n", cmd, err.msg);
        free(cache_dir);
        free(endpoint);
        return GB_EXIT_FAIL;
    }
    const char *pooling, *pooled_by;
    if (o->api == GB_EMBED_API_OPENAI) {
        pooling = "the server's";
        pooled_by = "server";
    } else {
        pooling = gb_pooling_names[o->pooling];
        pooled_by = st.fetched == 0                  ? "unknown (every vector came from the cache)"
                    : st.server_pooled == st.fetched ? "server (one vector per text: --pooling not applied)"
                    : st.server_pooled == 0          ? "client (over the token vectors)"
                                                     : "mixed (some texts came pooled)";
    }
    info->dim = d;
    info->text = gb_asprintf("endpoint %s (%s API), model %s, pooling %s, pooled by %s, dimension %zu (%zu from the "
                             "cache%s%s, %zu fetched in %zu requests)",
                             endpoint, gb_embed_api_names[o->api], o->model, pooling, pooled_by, d, st.cached,
                             cache_dir ? " " : "", cache_dir ? cache_dir : "", st.fetched, st.requests);
    gb_json_key(&info->json, "kind", &first);
    gb_json_string(&info->json, "endpoint");
    gb_json_key(&info->json, "api", &first);
    gb_json_string(&info->json, gb_embed_api_names[o->api]);
    gb_json_key(&info->json, "endpoint", &first);
    gb_json_string(&info->json, endpoint);
    gb_json_key(&info->json, "model", &first);
    gb_json_string(&info->json, o->model);
    gb_json_key(&info->json, "pooling", &first);
    gb_json_string(&info->json, pooling);
    gb_json_key(&info->json, "pooled_by", &first);
    gb_json_string(&info->json, pooled_by);
    gb_json_key(&info->json, "dimension", &first);
    gb_str_appendf(&info->json, "%zu", d);
    gb_json_key(&info->json, "token_vectors", &first);
    gb_str_appendf(&info->json, "%zu", st.token_rows);
    gb_json_key(&info->json, "cached", &first);
    gb_str_appendf(&info->json, "%zu", st.cached);
    gb_json_key(&info->json, "fetched", &first);
    gb_str_appendf(&info->json, "%zu", st.fetched);
    gb_json_key(&info->json, "requests", &first);
    gb_str_appendf(&info->json, "%zu}", st.requests);
    free(cache_dir);
    free(endpoint);
    return GB_CLI_CONTINUE;
}
