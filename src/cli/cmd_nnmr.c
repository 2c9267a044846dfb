/* genebench nnmr ORIG.jsonl HARD.jsonl: the nearest-neighbour miss rate of program
 * embeddings between an original benchmark and a hardened one, in both directions. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/cli/cli.h"
#include "src/cli/commands.h"
#include "src/measure/embedding.h"
#include "src/base/http.h"
#include "src/base/json_write.h"
#include "src/measure/nnmr.h"
#include "src/model/program.h"
#include "src/python/pyparse.h"
#include "src/measure/similarity.h"
#include "src/bench/task_io.h"

typedef struct {
    const char *url, *model, *cache, *output;
    bool no_cache, json;
    long batch, timeout, retries, dim;
} GbNnmrOptions;

#define O GbNnmrOptions
static const GbCliOption gb_nnmr__options[] = {
    GB_CLI_STRING("embed-url", 0, O, url, "URL", NULL,
                  "OpenAI-compatible server (POST URL/v1/embeddings); also\n"
                  "$GENEBENCH_EMBED_URL. The key comes from $GENEBENCH_API_KEY."),
    GB_CLI_STRING("embed-model", 0, O, model, "M", NULL, "embedding model name (also $GENEBENCH_EMBED_MODEL)"),
    GB_CLI_LONG("embed-batch", 0, O, batch, "N", 1, 2048, "32", "texts per request"),
    GB_CLI_STRING("cache", 0, O, cache, "DIR", NULL,
                  "embedding cache (default $XDG_CACHE_HOME/genebench/embeddings)"),
    GB_CLI_FLAG("no-cache", 0, O, no_cache, "neither read nor write the cache"),
    GB_CLI_LONG("timeout", 0, O, timeout, "MS", 1, 86400000, "120000", "per-request timeout in milliseconds"),
    GB_CLI_LONG("retries", 0, O, retries, "N", 0, 100, "4", "retries on 429/5xx/timeouts"),
    GB_CLI_LONG("dim", 0, O, dim, "N", 16, 1 << 20, "4096", "dimension of the built-in embedding"),
    GB_CLI_FLAG("json", 0, O, json, "JSON output (with every program's nearest neighbour)"),
    GB_CLI_STRING("output", 'o', O, output, "FILE", NULL,
                  "write the output to FILE (atomically) instead of stdout; FILE may not be an input"),
    GB_CLI_END,
};
#undef O

static const GbCliExit gb_nnmr__exits[] = {
    {0, "measured, every line of both files was good"},
    {1, "a file could not be read or had bad lines, no task id is in both, the embedding failed, or the\n"
        "       output could not be written"},
    {2, "usage error (bad option or value, an endpoint without a model or a bad endpoint URL, the output\n"
        "       is one of the inputs)"},
    {0, NULL},
};

static const GbCliCommand gb_nnmr__cmd = {
    .name = "nnmr",
    .synopsis = "ORIG.jsonl HARD.jsonl [options]",
    .about = "  Embed every program of both benchmarks (tasks paired by id) and report the percentage\n"
             "  of programs whose nearest neighbour (cosine similarity) among the other set is not\n"
             "  their own counterpart, in both directions (orig->hard and hard->orig). The gallery of a\n"
             "  query is the whole other set; ties go to the lowest index (the order of ORIG.jsonl), so\n"
             "  a tie counts as a miss unless the counterpart is the first tied program.\n"
             "  Without an endpoint the built-in embedding is used: TF-IDF-weighted hashed token\n"
             "  1-3-grams, IDF over both sets, L2-normalised.\n",
    .options = gb_nnmr__options,
    .min_args = 2,
    .max_args = 2,
    .exits = gb_nnmr__exits,
};

static char *gb_nnmr__program_text(const GbTask *t)
{
    GbProgram p;
    gb_program_from_task(&p, t);
    char *s = gb_program_concat(&p);
    gb_program_destroy(&p);
    return s;
}

int gb_cmd_nnmr(int argc, char **argv)
{
    GbNnmrOptions opt = {.url = getenv("GENEBENCH_EMBED_URL"), .model = getenv("GENEBENCH_EMBED_MODEL")};
    GbCliArgs args;
    int rc = gb_cli_parse(&gb_nnmr__cmd, argc, argv, &opt, &args);
    if (rc != GB_CLI_CONTINUE) return rc;
    const char *url = opt.url, *model = opt.model, *cache_opt = opt.cache, *output = opt.output;
    const bool no_cache = opt.no_cache, json = opt.json;
    const long batch = opt.batch, timeout = opt.timeout, retries = opt.retries, dim = opt.dim;
    if (url && !*url) url = NULL;
    if (url && (!model || !*model)) {
        fprintf(stderr, "genebench nnmr: an embedding endpoint needs a model: --embed-model M\n");
        return GB_EXIT_USAGE;
    }
    const char *po = args.items[0], *ph = args.items[1];
    const char *inputs[] = {po, ph};
    if (gb_cli_refuse_output("nnmr", output, inputs, 2)) return GB_EXIT_USAGE;
    GbBench o, h;
    gb_bench_init(&o);
    gb_bench_init(&h);
    size_t bad = 0;
    rc = GB_EXIT_OK;
    GbArray(size_t) io = {0}, ih = {0};
    GbArray(const char *) only_o = {0}, only_h = {0};
    char **texts = NULL;
    double *vec = NULL;
    size_t d = 0, n = 0;
    GbEmbedStats st = {0};
    char *cache_dir = NULL;
    GbStr s;
    gb_str_init(&s);
    gb_str_append(&s, "");
    if (!gb_cli_read_bench(po, &o, "genebench nnmr", &bad) || !gb_cli_read_bench(ph, &h, "genebench nnmr", &bad)) {
        rc = GB_EXIT_FAIL;
        goto out;
    }
    for (size_t i = 0; i < o.tasks.len; i++) {
        long j = gb_bench_find(&h, o.tasks.items[i].id);
        if (j < 0) {
            gb_array_push(&only_o, o.tasks.items[i].id);
        } else {
            gb_array_push(&io, i);
            gb_array_push(&ih, (size_t)j);
        }
    }
    for (size_t j = 0; j < h.tasks.len; j++)
        if (gb_bench_find(&o, h.tasks.items[j].id) < 0) gb_array_push(&only_h, h.tasks.items[j].id);
    n = io.len;
    if (n == 0) {
        fprintf(stderr, "genebench nnmr: no task id is in both %s and %s\n", po, ph);
        rc = GB_EXIT_FAIL;
        goto out;
    }
    /* texts[0..n) the originals, texts[n..2n) the hardened programs, in ORIG's order */
    texts = gb_malloc(2 * n * sizeof *texts);
    for (size_t k = 0; k < n; k++) {
        texts[k] = gb_nnmr__program_text(&o.tasks.items[io.items[k]]);
        texts[n + k] = gb_nnmr__program_text(&h.tasks.items[ih.items[k]]);
    }
    if (url) {
        GbHttpOptions ho;
        gb_http_options_default(&ho);
        ho.base_url = url;
        ho.api_key = getenv("GENEBENCH_API_KEY");
        ho.timeout_ms = timeout;
        ho.max_retries = (int)retries;
        GbError err;
        GbHttpClient *client = gb_http_client_new(&ho, &err);
        if (!client) {
            fprintf(stderr, "genebench nnmr: %s\n", err.msg);
            rc = GB_EXIT_USAGE;
            goto out;
        }
        cache_dir = no_cache ? NULL : cache_opt ? gb_strdup(cache_opt) : gb_embed_default_cache_dir();
        bool ok = gb_embed_remote(client, model, (const char *const *)texts, 2 * n, (size_t)batch, cache_dir, &vec, &d,
                                  &st, &err);
        gb_http_client_delete(client);
        if (!ok) {
            fprintf(stderr, "genebench nnmr: embedding failed: %s\n", err.msg);
            rc = GB_EXIT_FAIL;
            goto out;
        }
    } else {
        d = (size_t)dim;
        vec = gb_malloc(2 * n * d * sizeof *vec);
        TSParser *parser = gb_parser_new();
        gb_embed_builtin(parser, (const char *const *)texts, 2 * n, d, vec);
        ts_parser_delete(parser);
    }
    GbNnmr r;
    gb_nnmr_compute(vec, vec + n * d, n, d, &r);
    GbSummary self;
    gb_summary_compute(r.self_cos, n, &self);
    char *embedding = url ? gb_asprintf("endpoint %s/v1/embeddings, model %s, dimension %zu (%zu from the cache%s%s, "
                                        "%zu fetched in %zu requests)",
                                        url, model, d, st.cached, cache_dir ? " " : "", cache_dir ? cache_dir : "",
                                        st.fetched, st.requests)
                          : gb_asprintf("built-in: %s, dimension %zu", GB_EMBED_BUILTIN_NAME, d);
    const char *gallery = "the whole other set (its own counterpart included, nothing from the query's own set)";
    const char *ties = "lowest index wins (ORIG.jsonl order): a tie counts as a miss unless the counterpart is the "
                       "lowest-index tied program";
    if (json) {
        gb_str_append(&s, "{\"original\":");
        gb_json_string(&s, po);
        gb_str_append(&s, ",\"hardened\":");
        gb_json_string(&s, ph);
        gb_str_appendf(&s, ",\"n\":%zu,\"metric\":\"cosine similarity\",\"gallery\":", n);
        gb_json_string(&s, gallery);
        gb_str_append(&s, ",\"ties\":");
        gb_json_string(&s, ties);
        gb_str_append(&s, ",\"embedding\":");
        gb_json_string(&s, embedding);
        gb_str_appendf(&s, ",\"nnmr_orig_to_hard\":");
        gb_json_number(&s, r.nnmr_o2h);
        gb_str_appendf(&s, ",\"misses_orig_to_hard\":%zu,\"nnmr_hard_to_orig\":", r.miss_o2h);
        gb_json_number(&s, r.nnmr_h2o);
        gb_str_appendf(&s, ",\"misses_hard_to_orig\":%zu,\"counterpart_cosine\":{\"mean\":", r.miss_h2o);
        gb_json_number(&s, self.mean);
        gb_str_append(&s, ",\"median\":");
        gb_json_number(&s, self.median);
        gb_str_append(&s, "},\"tasks\":[");
        for (size_t k = 0; k < n; k++) {
            gb_str_append(&s, k ? ",{\"id\":" : "{\"id\":");
            gb_json_string(&s, o.tasks.items[io.items[k]].id);
            gb_str_append(&s, ",\"counterpart_cosine\":");
            gb_json_number(&s, r.self_cos[k]);
            gb_str_append(&s, ",\"nearest_hard_of_orig\":");
            gb_json_string(&s, o.tasks.items[io.items[r.nn_o2h[k]]].id);
            gb_str_append(&s, ",\"nearest_orig_of_hard\":");
            gb_json_string(&s, o.tasks.items[io.items[r.nn_h2o[k]]].id);
            gb_str_append(&s, "}");
        }
        gb_str_append(&s, "],\"only_in_original\":[");
        for (size_t i = 0; i < only_o.len; i++) {
            if (i) gb_str_append(&s, ",");
            gb_json_string(&s, only_o.items[i]);
        }
        gb_str_append(&s, "],\"only_in_hardened\":[");
        for (size_t i = 0; i < only_h.len; i++) {
            if (i) gb_str_append(&s, ",");
            gb_json_string(&s, only_h.items[i]);
        }
        gb_str_append(&s, "]}\n");
    } else {
        gb_str_appendf(&s, "NNMR of %s (hardened) against %s (original): %zu programs paired by task id\n", ph, po, n);
        gb_str_appendf(&s, "embedding: %s\n", embedding);
        gb_str_appendf(&s, "metric: cosine similarity; gallery: %s; ties: %s\n", gallery, ties);
        gb_str_appendf(&s,
                       "NNMR orig->hard: %6.2f%% (%zu of %zu originals whose nearest hardened program is not "
                       "their own)\n",
                       r.nnmr_o2h, r.miss_o2h, n);
        gb_str_appendf(&s,
                       "NNMR hard->orig: %6.2f%% (%zu of %zu hardened programs whose nearest original is not "
                       "their own)\n",
                       r.nnmr_h2o, r.miss_h2o, n);
        gb_str_appendf(&s, "cosine to the own counterpart: mean %.4f, median %.4f, min %.4f, max %.4f\n", self.mean,
                       self.median, self.min, self.max);
        if (only_o.len) gb_str_appendf(&s, "only in %s: %zu tasks (not counted)\n", po, only_o.len);
        if (only_h.len) gb_str_appendf(&s, "only in %s: %zu tasks (not counted)\n", ph, only_h.len);
    }
    free(embedding);
    gb_nnmr_destroy(&r);
    if (output) {
        GbError err;
        if (!gb_write_file_atomic(output, s.data, s.len, &err)) {
            fprintf(stderr, "genebench nnmr: %s\n", err.msg);
            rc = GB_EXIT_FAIL;
        }
    } else {
        fwrite(s.data, 1, s.len, stdout);
    }
    if (bad) rc = GB_EXIT_FAIL;
out:
    if (texts)
        for (size_t k = 0; k < 2 * n; k++) free(texts[k]);
    free(texts);
    free(vec);
    free(cache_dir);
    gb_str_destroy(&s);
    gb_array_free(&io);
    gb_array_free(&ih);
    gb_array_free(&only_o);
    gb_array_free(&only_h);
    gb_bench_destroy(&o);
    gb_bench_destroy(&h);
    return rc;
}
