/* genebench nnmr ORIG.jsonl HARD.jsonl: the nearest-neighbour miss rate of program
 * embeddings between an original benchmark and a hardened one, in both directions. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/cli/cli.h"
#include "src/cli/commands.h"
#include "src/cli/embed_opts.h"
#include "src/doc/nnmr.h"
#include "src/measure/nnmr.h"
#include "src/model/program.h"
#include "src/python/pyparse.h"
#include "src/measure/similarity.h"
#include "src/bench/task_io.h"

typedef struct {
    GbCliEmbedOptions embed;
    const char *output;
    bool json;
} GbNnmrOptions;

#define O GbNnmrOptions
static const GbCliOption gb_nnmr__options[] = {
    GB_CLI_EMBED_OPTIONS(O, embed),
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
             "  Besides the miss rate: the mean rank of the counterpart (1 = nearest) per direction, and\n"
             "  the displacement: how far each hardened program moved from its original, as a fraction\n"
             "  of the distance from that original to the nearest other original (>= 1: as far as a\n"
             "  different task).\n"
             "  With --embed-url the programs are embedded by a model (the evaluated model's own\n"
             "  representations, the paper's NNMR). Without one, a built-in embedding: by default the\n"
             "  shape of the syntax tree (--builtin structure: node kinds with their ancestors,\n"
             "  children and siblings; no names or values), or hashed token 1-3-grams (--builtin tokens).\n",
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

/* One comparison: the pairs, their embeddings and the result. */
typedef struct {
    const char *po, *ph;
    GbBench o, h;
    GbArray(size_t) io, ih; /* paired: o.tasks[io[k]] and h.tasks[ih[k]] */
    GbArray(const char *) only_o, only_h;
    size_t n;
    char **texts; /* texts[0..n) the originals, texts[n..2n) the hardened programs, in ORIG's order */
    double *vec;
    size_t d;
    GbCliEmbedInfo info;
    GbNnmr r;
    bool have_r;
    GbSummary self;
} GbNnmrRun;

/* Pair the tasks by id; false (with a message) when no id is in both. */
static bool gb_nnmr__pair(GbNnmrRun *R)
{
    for (size_t i = 0; i < R->o.tasks.len; i++) {
        long j = gb_bench_find(&R->h, R->o.tasks.items[i].id);
        if (j < 0) {
            gb_array_push(&R->only_o, R->o.tasks.items[i].id);
        } else {
            gb_array_push(&R->io, i);
            gb_array_push(&R->ih, (size_t)j);
        }
    }
    for (size_t j = 0; j < R->h.tasks.len; j++)
        if (gb_bench_find(&R->o, R->h.tasks.items[j].id) < 0) gb_array_push(&R->only_h, R->h.tasks.items[j].id);
    R->n = R->io.len;
    if (R->n == 0) {
        fprintf(stderr, "genebench nnmr: no task id is in both %s and %s\n", R->po, R->ph);
        return false;
    }
    R->texts = gb_malloc(2 * R->n * sizeof *R->texts);
    for (size_t k = 0; k < R->n; k++) {
        R->texts[k] = gb_nnmr__program_text(&R->o.tasks.items[R->io.items[k]]);
        R->texts[R->n + k] = gb_nnmr__program_text(&R->h.tasks.items[R->ih.items[k]]);
    }
    return true;
}

/* Embed every text (endpoint or built-in) and compute the NNMR. Returns GB_CLI_CONTINUE or the
 * exit code. */
static int gb_nnmr__embed(GbNnmrRun *R, const GbNnmrOptions *opt)
{
    size_t n = R->n;
    int rc = gb_cli_embed("nnmr", &opt->embed, (const char *const *)R->texts, 2 * n, &R->vec, &R->info);
    if (rc != GB_CLI_CONTINUE) return rc;
    R->d = R->info.dim;
    gb_nnmr_compute(R->vec, R->vec + n * R->d, n, R->d, &R->r);
    R->have_r = true;
    if (R->r.zero_rows)
        fprintf(stderr,
                "genebench nnmr: warning: %zu of the %zu embeddings are all zero (an empty program or a broken "
                "embedding server?): they match nothing, so the NNMR says little\n",
                R->r.zero_rows, 2 * n);
    gb_summary_compute(R->r.self_cos, n, &R->self);
    return GB_CLI_CONTINUE;
}

/* The JSON document (src/doc/nnmr.h) of a run. */
static void gb_nnmr__json(GbStr *s, const GbNnmrRun *R)
{
    GbNnmrDoc doc = {.original = gb_strdup(R->po),
                     .hardened = gb_strdup(R->ph),
                     .n = R->n,
                     .embedding = gb_strdup(R->info.text),
                     .embedding_source = gb_strdup(R->info.json.data),
                     .nnmr_orig_to_hard = R->r.nnmr_o2h,
                     .nnmr_hard_to_orig = R->r.nnmr_h2o,
                     .misses_orig_to_hard = R->r.miss_o2h,
                     .misses_hard_to_orig = R->r.miss_h2o,
                     .mean_rank_orig_to_hard = R->r.mean_rank_o2h,
                     .mean_rank_hard_to_orig = R->r.mean_rank_h2o,
                     .displacement_median = R->r.displacement_median,
                     .displacement_mean = R->r.displacement_mean,
                     .displaced = R->r.displaced,
                     .counterpart_cosine_mean = R->self.mean,
                     .counterpart_cosine_median = R->self.median};
    const GbTask *orig = R->o.tasks.items;
    for (size_t k = 0; k < R->n; k++) {
        GbNnmrDocTask t = {.id = gb_strdup(orig[R->io.items[k]].id),
                           .counterpart_cosine = R->r.self_cos[k],
                           .nearest_hard_of_orig = gb_strdup(orig[R->io.items[R->r.nn_o2h[k]]].id),
                           .nearest_orig_of_hard = gb_strdup(orig[R->io.items[R->r.nn_h2o[k]]].id),
                           .rank_orig_to_hard = R->r.rank_o2h[k],
                           .rank_hard_to_orig = R->r.rank_h2o[k],
                           .displacement = R->r.displacement[k]};
        gb_array_push(&doc.tasks, t);
    }
    for (size_t i = 0; i < R->only_o.len; i++) gb_array_push(&doc.only_in_original, gb_strdup(R->only_o.items[i]));
    for (size_t i = 0; i < R->only_h.len; i++) gb_array_push(&doc.only_in_hardened, gb_strdup(R->only_h.items[i]));
    gb_nnmr_doc_write(s, &doc);
    gb_nnmr_doc_destroy(&doc);
}

static void gb_nnmr__text(GbStr *s, const GbNnmrRun *R)
{
    gb_str_appendf(s, "NNMR of %s (hardened) against %s (original): %zu programs paired by task id\n", R->ph, R->po,
                   R->n);
    gb_str_appendf(s, "embedding: %s\n", R->info.text);
    gb_str_appendf(s, "metric: %s; gallery: %s; ties: %s\n", GB_NNMR_DOC_METRIC, GB_NNMR_DOC_GALLERY, GB_NNMR_DOC_TIES);
    gb_str_appendf(s,
                   "NNMR orig->hard: %6.2f%% (%zu of %zu originals whose nearest hardened program is not "
                   "their own)\n",
                   R->r.nnmr_o2h, R->r.miss_o2h, R->n);
    gb_str_appendf(s,
                   "NNMR hard->orig: %6.2f%% (%zu of %zu hardened programs whose nearest original is not "
                   "their own)\n",
                   R->r.nnmr_h2o, R->r.miss_h2o, R->n);
    gb_str_appendf(s, "mean rank of the counterpart (1 = nearest): orig->hard %.2f, hard->orig %.2f (of %zu)\n",
                   R->r.mean_rank_o2h, R->r.mean_rank_h2o, R->n);
    gb_str_appendf(s,
                   "displacement (distance to the own original / distance from it to the nearest other original): "
                   "median %.3f, mean %.3f, %zu of %zu at least 1\n",
                   R->r.displacement_median, R->r.displacement_mean, R->r.displaced, R->n);
    gb_str_appendf(s, "cosine to the own counterpart: mean %.4f, median %.4f, min %.4f, max %.4f\n", R->self.mean,
                   R->self.median, R->self.min, R->self.max);
    if (R->only_o.len) gb_str_appendf(s, "only in %s: %zu tasks (not counted)\n", R->po, R->only_o.len);
    if (R->only_h.len) gb_str_appendf(s, "only in %s: %zu tasks (not counted)\n", R->ph, R->only_h.len);
}

static void gb_nnmr__destroy(GbNnmrRun *R)
{
    if (R->texts)
        for (size_t k = 0; k < 2 * R->n; k++) free(R->texts[k]);
    free(R->texts);
    free(R->vec);
    gb_cli_embed_info_destroy(&R->info);
    if (R->have_r) gb_nnmr_destroy(&R->r);
    gb_array_free(&R->io);
    gb_array_free(&R->ih);
    gb_array_free(&R->only_o);
    gb_array_free(&R->only_h);
    gb_bench_destroy(&R->o);
    gb_bench_destroy(&R->h);
}

int gb_cmd_nnmr(int argc, char **argv)
{
    /* parse */
    GbNnmrOptions opt = {0};
    gb_cli_embed_defaults(&opt.embed);
    GbCliArgs args;
    int rc = gb_cli_parse(&gb_nnmr__cmd, argc, argv, &opt, &args);
    if (rc != GB_CLI_CONTINUE) return rc;
    if (!gb_cli_embed_check("nnmr", &opt.embed)) return GB_EXIT_USAGE;
    GbNnmrRun R = {.po = args.items[0], .ph = args.items[1]};
    const char *inputs[] = {R.po, R.ph};
    if (gb_cli_refuse_output("nnmr", opt.output, inputs, 2)) return GB_EXIT_USAGE;
    gb_bench_init(&R.o);
    gb_bench_init(&R.h);

    /* load */
    size_t bad = 0;
    if (!gb_cli_read_bench(R.po, &R.o, "genebench nnmr", &bad) ||
        !gb_cli_read_bench(R.ph, &R.h, "genebench nnmr", &bad) || !gb_nnmr__pair(&R)) {
        rc = GB_EXIT_FAIL;
        goto out;
    }
    /* run */
    rc = gb_nnmr__embed(&R, &opt);
    if (rc != GB_CLI_CONTINUE) goto out;
    /* write */
    GbStr s;
    gb_str_init(&s);
    if (opt.json)
        gb_nnmr__json(&s, &R);
    else
        gb_nnmr__text(&s, &R);
    rc = gb_cli_write_output("nnmr", opt.output, &s) && !bad ? GB_EXIT_OK : GB_EXIT_FAIL;
    gb_str_destroy(&s);
out:
    gb_nnmr__destroy(&R);
    return rc;
}
