#pragma once
/* Program embeddings for NNMR, from two sources:
 *
 * - built in (no server): TF-IDF-weighted hashed token n-grams. Tokens are the lexical
 *   tokens of src/measure/tokensim.h; every 1-, 2- and 3-gram is hashed into one of `dim` buckets;
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

/* The default cache directory: $XDG_CACHE_HOME/genebench/embeddings, else
 * $HOME/.cache/genebench/embeddings, else NULL (no cache). Owned. */
char *gb_embed_default_cache_dir(void);

typedef struct {
    size_t cached;   /* texts read from the cache */
    size_t fetched;  /* texts sent to the server */
    size_t requests; /* POST /v1/embeddings requests that succeeded */
} GbEmbedStats;

/* Embeddings of n texts from the server in batches of `batch` texts (>= 1), using and
 * filling the cache in cache_dir (NULL: no cache; the directory is created when missing).
 * *vectors (owned, n * *dim) and *dim on success. A failed cache write is not an error
 * (the vectors are still returned); a cached file of the wrong size is ignored. All
 * vectors, cached or fetched, must have one dimension. */
bool gb_embed_remote(GbHttpClient *client, const char *model, const char *const *texts, size_t n, size_t batch,
                     const char *cache_dir, double **vectors, size_t *dim, GbEmbedStats *stats, GbError *err);
