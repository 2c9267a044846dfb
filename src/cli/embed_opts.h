#pragma once
/* The embedding options that `nnmr` and `versions` share, and the step that embeds programs
 * with them: the built-in structural or token embedding, an OpenAI-compatible /v1/embeddings
 * endpoint, or llama.cpp's native /embedding (per-token vectors pooled here). */
#include <stdbool.h>
#include <stddef.h>

#include "src/base/http.h"
#include "src/base/util.h"
#include "src/cli/cli.h"
#include "src/measure/embedding.h"

typedef struct {
    const char *url, *model, *cache;
    bool no_cache;
    long batch, timeout, retries, dim;
    int api;     /* GbEmbedApi */
    int pooling; /* GbPooling */
    int builtin; /* GbCliBuiltin */
} GbCliEmbedOptions;

/* The built-in embeddings (--builtin): "structure" (gb_embed_structural, the default) and
 * "tokens" (gb_embed_builtin, hashed token 1-3-grams). */
typedef enum { GB_CLI_BUILTIN_STRUCTURE, GB_CLI_BUILTIN_TOKENS } GbCliBuiltin;
extern const char *const gb_cli_builtin_names[];

/* Option rows for a GbCliEmbedOptions at field F of the command's option struct T. */
#define GB_CLI_EMBED_OPTIONS(T, F)                                                                                     \
    GB_CLI_STRING("embed-url", 0, T, F.url, "URL", NULL,                                                               \
                  "embedding server (also $GENEBENCH_EMBED_URL): the evaluated model's own\n"                          \
                  "representations; the key comes from $GENEBENCH_API_KEY"),                                           \
        GB_CLI_STRING("embed-model", 0, T, F.model, "M", NULL, "embedding model name (also $GENEBENCH_EMBED_MODEL)"),  \
        GB_CLI_ENUM("embed-api", 0, T, F.api, "API", gb_embed_api_names, "openai",                                     \
                    "openai: POST URL/v1/embeddings (the server pools); llamacpp: POST\n"                              \
                    "URL/embedding of llama-server (per-token vectors with its --pooling none,\n"                      \
                    "pooled here by --pooling)"),                                                                      \
        GB_CLI_ENUM("pooling", 0, T, F.pooling, "P", gb_pooling_names, "mean",                                         \
                    "llamacpp: how per-token vectors become one: mean, last or first token"),                          \
        GB_CLI_LONG("embed-batch", 0, T, F.batch, "N", 1, 2048, "32", "texts per request"),                            \
        GB_CLI_STRING("cache", 0, T, F.cache, "DIR", NULL,                                                             \
                      "embedding cache (default $XDG_CACHE_HOME/genebench/embeddings)"),                               \
        GB_CLI_FLAG("no-cache", 0, T, F.no_cache, "neither read nor write the cache"),                                 \
        GB_CLI_LONG("timeout", 0, T, F.timeout, "MS", 1, 86400000, "120000", "per-request timeout in milliseconds"),   \
        GB_CLI_LONG("retries", 0, T, F.retries, "N", 0, 100, "4", "retries on 429/5xx/timeouts"),                      \
        GB_CLI_ENUM("builtin", 0, T, F.builtin, "KIND", gb_cli_builtin_names, "structure",                             \
                    "without an endpoint: structure (syntax-tree shape, no names or values)\n"                         \
                    "or tokens (hashed token 1-3-grams)"),                                                             \
        GB_CLI_LONG("dim", 0, T, F.dim, "N", 16, 1 << 20, "4096", "dimension of the built-in embedding")

/* Fill url and model from $GENEBENCH_EMBED_URL / $GENEBENCH_EMBED_MODEL (before parsing). */
void gb_cli_embed_defaults(GbCliEmbedOptions *o);
/* After parsing: an endpoint needs a model. False (message on stderr) when not. */
bool gb_cli_embed_check(const char *cmd, const GbCliEmbedOptions *o);

/* The embedding that was used: a one-line description and a JSON object
 * {"kind": "builtin"|"endpoint", ...: name, api, url, endpoint, model, pooling, pooled_by,
 * dimension, cached, fetched, requests}. */
typedef struct {
    char *text; /* owned */
    GbStr json;
    size_t dim;
} GbCliEmbedInfo;
void gb_cli_embed_info_destroy(GbCliEmbedInfo *info);

/* Embed n texts as the options say: *vec (owned, n * info->dim). Returns GB_CLI_CONTINUE, or
 * the exit code after a message on stderr (GB_EXIT_USAGE: bad URL; GB_EXIT_FAIL: the server
 * failed). info is filled on success. */
int gb_cli_embed(const char *cmd, const GbCliEmbedOptions *o, const char *const *texts, size_t n, double **vec,
                 GbCliEmbedInfo *info);
