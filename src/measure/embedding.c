#include "src/measure/embedding.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "src/base/sha256.h"
#include "src/python/nodekind.h"
#include "src/python/pyparse.h"
#include "src/python/tokensim.h"

static uint64_t gb_embed__mix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

void gb_embed_builtin(TSParser *parser, const char *const *texts, size_t n, size_t dim, double *out)
{
    memset(out, 0, n * dim * sizeof *out);
    double *df = gb_calloc(dim, sizeof *df);
    unsigned char *seen = gb_calloc(dim, 1);
    GbArray(size_t) touched = {0};
    for (size_t i = 0; i < n; i++) {
        uint64_t *h;
        size_t nt = gb_lex_tokens(parser, texts[i], strlen(texts[i]), &h);
        double *row = out + i * dim;
        for (size_t k = 0; k < nt; k++) {
            uint64_t g = 0x6e6772616d ^ 1;
            for (size_t len = 1; len <= 3 && k + len <= nt; len++) {
                g = gb_embed__mix(g * 31 + h[k + len - 1] + len);
                row[g % dim] += 1.0;
            }
        }
        free(h);
        touched.len = 0;
        for (size_t b = 0; b < dim; b++) {
            if (row[b] != 0 && !seen[b]) {
                seen[b] = 1;
                gb_array_push(&touched, b);
            }
        }
        for (size_t t = 0; t < touched.len; t++) {
            df[touched.items[t]] += 1;
            seen[touched.items[t]] = 0;
        }
    }
    for (size_t i = 0; i < n; i++) {
        double *row = out + i * dim, norm = 0;
        for (size_t b = 0; b < dim; b++) {
            if (row[b] == 0) continue;
            row[b] *= log((1.0 + (double)n) / (1.0 + df[b])) + 1.0;
            norm += row[b] * row[b];
        }
        if (norm > 0) {
            norm = sqrt(norm);
            for (size_t b = 0; b < dim; b++) row[b] /= norm;
        }
    }
    gb_array_free(&touched);
    free(seen);
    free(df);
}

char *gb_embed_default_cache_dir(void)
{
    const char *x = getenv("XDG_CACHE_HOME");
    if (x && *x == '/') return gb_asprintf("%s/genebench/embeddings", x);
    const char *home = getenv("HOME");
    if (home && *home) return gb_asprintf("%s/.cache/genebench/embeddings", home);
    return NULL;
}

/* mkdir -p */
static bool gb_embed__mkdirs(const char *path)
{
    char *p = gb_strdup(path);
    bool ok = true;
    for (char *s = p + 1;; s++) {
        if (*s == '/' || *s == '\0') {
            char c = *s;
            *s = '\0';
            if (mkdir(p, 0777) != 0 && errno != EEXIST) ok = false;
            *s = c;
            if (!c || !ok) break;
        }
    }
    free(p);
    return ok;
}

#define GB_EMBED_MAGIC "GBEMB001"

static char *gb_embed__cache_path(const char *dir, const char *model, const char *text)
{
    GbSha256 s;
    unsigned char d[32];
    gb_sha256_init(&s);
    gb_sha256_update(&s, model, strlen(model));
    gb_sha256_update(&s, "\n", 1);
    gb_sha256_update(&s, text, strlen(text));
    gb_sha256_final(&s, d);
    char hex[65];
    for (int i = 0; i < 32; i++) snprintf(hex + 2 * i, 3, "%02x", d[i]);
    return gb_asprintf("%s/%.2s/%s.emb", dir, hex, hex);
}

/* A cached vector (owned) or NULL. File: magic, uint64 dim, dim doubles (host order). */
static double *gb_embed__cache_read(const char *path, size_t *dim)
{
    GbError err;
    size_t len;
    char *data = gb_read_file(path, &len, &err);
    if (!data) return NULL;
    double *v = NULL;
    uint64_t d;
    if (len >= 16 && memcmp(data, GB_EMBED_MAGIC, 8) == 0) {
        memcpy(&d, data + 8, 8);
        if (d > 0 && d < (1u << 24) && len == 16 + d * sizeof(double)) {
            v = gb_malloc(d * sizeof *v);
            memcpy(v, data + 16, d * sizeof *v);
            *dim = d;
        }
    }
    free(data);
    return v;
}

static void gb_embed__cache_write(const char *path, const double *v, size_t dim)
{
    char *slash = strrchr(path, '/');
    char *dir = gb_strndup(path, (size_t)(slash - path));
    bool ok = gb_embed__mkdirs(dir);
    free(dir);
    if (!ok) return;
    size_t len = 16 + dim * sizeof(double);
    char *buf = gb_malloc(len);
    memcpy(buf, GB_EMBED_MAGIC, 8);
    uint64_t d = dim;
    memcpy(buf + 8, &d, 8);
    memcpy(buf + 16, v, dim * sizeof(double));
    GbError err;
    gb_write_file_atomic(path, buf, len, &err);
    free(buf);
}

const char *const gb_embed_api_names[] = {"openai", "llamacpp", NULL};

bool gb_embed_remote(GbHttpClient *client, const char *model, const char *const *texts, size_t n, size_t batch,
                     const char *cache_dir, double **vectors, size_t *dim, GbEmbedStats *stats, GbError *err)
{
    return gb_embed_remote_api(client, GB_EMBED_API_OPENAI, GB_POOLING_MEAN, model, texts, n, batch, cache_dir, vectors,
                               dim, stats, err);
}

bool gb_embed_remote_api(GbHttpClient *client, GbEmbedApi api, GbPooling pooling, const char *model,
                         const char *const *texts, size_t n, size_t batch, const char *cache_dir, double **vectors,
                         size_t *dim, GbEmbedStats *stats, GbError *err)
{
    memset(stats, 0, sizeof *stats);
    /* The cache key: the model alone for /v1/embeddings (as before); llama.cpp's vectors also
     * depend on the pooling done here. */
    char *key = api == GB_EMBED_API_OPENAI
                    ? gb_strdup(model)
                    : gb_asprintf("llamacpp/embedding pooling=%s\n%s", gb_pooling_names[pooling], model);
    *vectors = NULL;
    *dim = 0;
    if (batch == 0) batch = 1;
    double **rows = gb_calloc(n ? n : 1, sizeof *rows);
    size_t d = 0;
    bool ok = true;
    GbArray(size_t) todo = {0};
    for (size_t i = 0; i < n; i++) {
        size_t cd = 0;
        char *path = cache_dir ? gb_embed__cache_path(cache_dir, key, texts[i]) : NULL;
        rows[i] = path ? gb_embed__cache_read(path, &cd) : NULL;
        free(path);
        if (rows[i] && d && cd != d) {
            gb_error_set(err,
                         "cached embeddings of model '%s' have different dimensions (%zu and %zu): "
                         "clear the cache directory %s",
                         model, d, cd, cache_dir);
            ok = false;
            break;
        }
        if (rows[i]) {
            d = cd;
            stats->cached++;
        } else {
            gb_array_push(&todo, i);
        }
    }
    const char **batch_texts = gb_malloc(batch * sizeof *batch_texts);
    for (size_t start = 0; ok && start < todo.len; start += batch) {
        size_t m = todo.len - start < batch ? todo.len - start : batch;
        for (size_t k = 0; k < m; k++) batch_texts[k] = texts[todo.items[start + k]];
        double *v;
        size_t bd;
        size_t *trows = gb_calloc(m, sizeof *trows);
        bool got = api == GB_EMBED_API_OPENAI
                       ? gb_embed_batch(client, model, batch_texts, m, &v, &bd, err)
                       : gb_embed_llamacpp_batch(client, model, batch_texts, m, pooling, &v, &bd, trows, err);
        for (size_t k = 0; got && k < m; k++) {
            stats->token_rows += trows[k];
            stats->server_pooled += api == GB_EMBED_API_OPENAI || trows[k] == 1;
        }
        free(trows);
        if (!got) {
            ok = false;
            break;
        }
        stats->requests++;
        stats->fetched += m;
        if (d && bd != d) {
            gb_error_set(err,
                         "the server returned %zu-dimensional embeddings after %zu-dimensional ones for "
                         "model '%s'",
                         bd, d, model);
            free(v);
            ok = false;
            break;
        }
        d = bd;
        for (size_t k = 0; k < m; k++) {
            size_t i = todo.items[start + k];
            rows[i] = gb_malloc(d * sizeof(double));
            memcpy(rows[i], v + k * d, d * sizeof(double));
            if (cache_dir) {
                char *path = gb_embed__cache_path(cache_dir, key, texts[i]);
                gb_embed__cache_write(path, rows[i], d);
                free(path);
            }
        }
        free(v);
    }
    free(batch_texts);
    gb_array_free(&todo);
    if (ok && n > 0) {
        double *out = gb_malloc(n * d * sizeof *out);
        for (size_t i = 0; i < n; i++) memcpy(out + i * d, rows[i], d * sizeof(double));
        *vectors = out;
        *dim = d;
    }
    for (size_t i = 0; i < n; i++) free(rows[i]);
    free(rows);
    free(key);
    return ok;
}

/* ---- the structural built-in embedding ------------------------------------------------------ */

typedef struct {
    double *row;
    size_t dim;
} GbEmbed__Walk;

static void gb_embed__feature(GbEmbed__Walk *w, uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
    uint64_t h = gb_embed__mix(a * 0x100000001B3ULL + 0x7374727563ULL);
    h = gb_embed__mix(h ^ b);
    h = gb_embed__mix(h ^ (c << 1));
    h = gb_embed__mix(h ^ (d << 2));
    w->row[h % w->dim] += 1.0;
}

/* Depth-first over the tree; p and g are the symbols of the parent and grandparent (0: none). */
static void gb_embed__walk(GbEmbed__Walk *w, TSNode n, uint64_t p, uint64_t g, unsigned depth, unsigned nest)
{
    GbNodeKind kind = gb_node_kind(n);
    if (kind == GB_NK_COMMENT || kind == GB_NK_LINE_CONTINUATION) return;
    uint64_t s = ts_node_symbol(n) + 1;
    uint32_t nc = ts_node_child_count(n);
    if (nc == 0 && ts_node_end_byte(n) == ts_node_start_byte(n)) return; /* empty: an empty module, a missing node */
    if (!ts_node_is_named(n) || nc == 0 || kind == GB_NK_STRING) {
        /* a leaf: keywords and operators by their own symbol, names and literals by their kind only */
        gb_embed__feature(w, 4, s, p, nest);
        return;
    }
    gb_embed__feature(w, 1, s, p, g * 64 + nest);
    unsigned cnest = nest + (kind == GB_NK_BLOCK);
    uint64_t prod = s, prev = 0;
    uint32_t named = 0;
    for (uint32_t i = 0; i < nc; i++) {
        TSNode c = ts_node_child(n, i);
        GbNodeKind ck = gb_node_kind(c);
        if (ck == GB_NK_COMMENT || ck == GB_NK_LINE_CONTINUATION) continue;
        if (ts_node_is_named(c)) {
            uint64_t cs = ts_node_symbol(c) + 1;
            if (named < 6) prod = gb_embed__mix(prod * 31 + cs);
            if (prev) gb_embed__feature(w, 3, s, prev, cs);
            prev = cs;
            named++;
        }
        if (depth < 2000) gb_embed__walk(w, c, s, p, depth + 1, cnest);
    }
    gb_embed__feature(w, 2, prod, named < 8 ? named : 8, 0);
}

void gb_embed_structural(TSParser *parser, const char *const *texts, size_t n, size_t dim, double *out)
{
    memset(out, 0, n * dim * sizeof *out);
    double *df = gb_calloc(dim, sizeof *df);
    for (size_t i = 0; i < n; i++) {
        double *row = out + i * dim;
        TSTree *tree = gb_parse(parser, texts[i], strlen(texts[i]));
        GbEmbed__Walk w = {row, dim};
        gb_embed__walk(&w, ts_tree_root_node(tree), 0, 0, 0, 0);
        ts_tree_delete(tree);
        for (size_t b = 0; b < dim; b++)
            if (row[b] != 0) {
                df[b] += 1;
                row[b] = 1.0 + log(row[b]);
            }
    }
    for (size_t i = 0; i < n; i++) {
        double *row = out + i * dim, norm = 0;
        for (size_t b = 0; b < dim; b++) {
            if (row[b] == 0) continue;
            row[b] *= log((1.0 + (double)n) / (1.0 + df[b])) + 1.0;
            norm += row[b] * row[b];
        }
        if (norm > 0) {
            norm = sqrt(norm);
            for (size_t b = 0; b < dim; b++) row[b] /= norm;
        }
    }
    free(df);
}
