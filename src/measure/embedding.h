#pragma once
/* Program embeddings for NNMR, from two sources:
 *
 * - built in (no server): TF-IDF-weighted hashed token n-grams. Tokens are the lexical
 *   tokens of src/python/tokensim.h; every 1-, 2- and 3-gram is hashed into one of `dim` buckets;
 *   a bucket's weight is its count times idf = ln((1 + N) / (1 + df)) + 1 (smoothed, as
 *   scikit-learn's TfidfTransformer), where N and df are taken over all the texts embedded
 *   together (for NNMR: the union of both sets); each vector is then L2-normalised.
 *   Deterministic: same texts, same vectors.
 * - an OpenAI-compatible /v1/embeddings endpoint (src/base/http.h), in batches, with a disk
 *   cache: one file per text at CACHE/<2 hex>/<sha256(model "\n" text)>.emb, so a re-run
 *   with the same model and texts sends no request.
 *
 * Vectors are rows of an n * dim array of doubles (owned by the caller). */
#include <stdbool.h>
#include <stddef.h>
#include <tree_sitter/api.h>

#include "src/base/http.h"
#include "src/base/util.h"

#define GB_EMBED_BUILTIN_DIM 4096
#define GB_EMBED_BUILTIN_NAME "genebench hashed token 1-3-gram TF-IDF (smoothed idf over both sets, L2-normalised)"

/* Built-in embedding of n texts into out (n * dim doubles, caller-allocated). One
 * TSParser per thread: parser is the caller's. */
void gb_embed_builtin(TSParser *parser, const char *const *texts, size_t n, size_t dim, double *out);

#define GB_EMBED_STRUCTURAL_NAME                                                                                       \
    "genebench syntax-structure features (node with parent and grandparent kinds and block depth, child-kind "         \
    "sequences, sibling-kind pairs, keyword/operator leaves with depth; no names or literal values), hashed, "         \
    "1+ln(tf) times smoothed idf over both sets, L2-normalised"

/* The structural built-in embedding of n texts into out (n * dim doubles, caller-allocated):
 * what a program's syntax tree looks like, not which names and values it uses. Features (each
 * hashed into one of dim buckets), over the tree-sitter tree without comments:
 *   - every inner node's kind with its parent's and grandparent's kinds and its block depth
 *     (wrapping code in a loop, an if, a try or a function changes these for everything inside);
 *   - every inner node's kind with the kinds of its first six named children and their count;
 *   - every pair of consecutive named children of a node (statement order in a block);
 *   - every leaf: keywords and operators by their symbol, names and literals by their kind
 *     only, each with its parent's kind and its block depth.
 * Weights: 1 + ln(count), times idf = ln((1 + N) / (1 + df)) + 1 over the texts embedded
 * together; rows L2-normalised. Deterministic. One TSParser per thread: parser is the caller's. */
void gb_embed_structural(TSParser *parser, const char *const *texts, size_t n, size_t dim, double *out);

/* The default cache directory: $XDG_CACHE_HOME/genebench/embeddings, else
 * $HOME/.cache/genebench/embeddings, else NULL (no cache). Owned. */
char *gb_embed_default_cache_dir(void);

typedef struct {
    size_t cached;        /* texts read from the cache */
    size_t fetched;       /* texts sent to the server */
    size_t requests;      /* POST /v1/embeddings requests that succeeded */
    size_t token_rows;    /* llama.cpp: rows received for the fetched texts (one per token when unpooled) */
    size_t server_pooled; /* fetched texts that came as one vector (always, for /v1/embeddings) */
} GbEmbedStats;

/* Embeddings of n texts from the server in batches of `batch` texts (>= 1), using and
 * filling the cache in cache_dir (NULL: no cache; the directory is created when missing).
 * *vectors (owned, n * *dim) and *dim on success. A failed cache write is not an error
 * (the vectors are still returned); a cached file of the wrong size is ignored. All
 * vectors, cached or fetched, must have one dimension. */
bool gb_embed_remote(GbHttpClient *client, const char *model, const char *const *texts, size_t n, size_t batch,
                     const char *cache_dir, double **vectors, size_t *dim, GbEmbedStats *stats, GbError *err);

/* The kind of endpoint: OpenAI-compatible POST /v1/embeddings (vLLM, llama.cpp, Ollama,
 * OpenAI; the server pools) or llama.cpp's native POST /embedding (per-token vectors with the
 * server's --pooling none, pooled here; src/base/http.h). */
typedef enum { GB_EMBED_API_OPENAI, GB_EMBED_API_LLAMACPP } GbEmbedApi;
extern const char *const gb_embed_api_names[]; /* "openai", "llamacpp", NULL */

/* gb_embed_remote for either kind of endpoint. With llama.cpp, `pooling` turns per-token rows
 * into one vector, and the cache key holds the pooling too (another pooling, another vector). */
bool gb_embed_remote_api(GbHttpClient *client, GbEmbedApi api, GbPooling pooling, const char *model,
                         const char *const *texts, size_t n, size_t batch, const char *cache_dir, double **vectors,
                         size_t *dim, GbEmbedStats *stats, GbError *err);
