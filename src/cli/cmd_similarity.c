/* genebench similarity A.jsonl B.jsonl: per-task and summary CodeBLEU (with its four
 * components), token cosine and token Jaccard of two benchmarks matched by task id. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/cli/cli.h"
#include "src/measure/codebleu.h"
#include "src/cli/commands.h"
#include "src/doc/similarity.h"
#include "src/measure/similarity.h"
#include "src/bench/task_io.h"
#include "src/python/tokensim.h"

static void gb_sim__summaries(const GbSimReport *r, GbSummary *s)
{
    size_t n = r->tasks.len;
    double *v = gb_malloc((n ? n : 1) * sizeof *v);
    for (int m = 0; m < GB_SIM_MEASURE_COUNT; m++) {
        for (size_t i = 0; i < n; i++) v[i] = gb_sim_task_value(&r->tasks.items[i], (GbSimMeasure)m);
        gb_summary_compute(v, n, &s[m]);
    }
    free(v);
}

static const char *gb_sim__dataflow_rule(const GbCodeBleuOptions *o)
{
    return o->strict_dataflow ? "strict (the data-flow score is used as computed; 0 when undefined)"
                              : "package default (a data-flow score of 0 counts as 1: `dataflow or 1`)";
}

static void gb_sim__text(GbStr *s, const char *pa, const char *pb, const GbSimReport *r, const GbCodeBleuOptions *o,
                         bool summary_only)
{
    gb_str_appendf(s, "similarity of %s (prediction) against %s (reference): %zu tasks matched by id\n", pb, pa,
                   r->tasks.len);
    gb_str_appendf(s, "CodeBLEU: %s behaviour, weights %g,%g,%g,%g, data-flow rule: %s\n", GB_SIM_DOC_BEHAVIOUR,
                   o->alpha, o->beta, o->gamma, o->delta, gb_sim__dataflow_rule(o));
    gb_str_appendf(s,
                   "  n-gram parts tokenised on %s; syntax and data flow on %s after removing comments and "
                   "docstrings\n",
                   GB_SIM_DOC_NGRAM_TOKENIZER, GB_SIM_DOC_GRAMMAR);
    gb_str_appendf(s, "cosine/Jaccard tokens: %s\n", GB_TOKENIZER_NAME);
    if (!summary_only && r->tasks.len) {
        /* Column heads are the measures' keys cut to the column width ("weighted"). */
        gb_str_appendf(s, "\n%-28s", "task");
        for (int m = 0; m < GB_SIM_MEASURE_COUNT; m++)
            gb_str_appendf(s, " %8.8s", gb_sim_measure_info((GbSimMeasure)m)->key);
        gb_str_append(s, "\n");
        for (size_t i = 0; i < r->tasks.len; i++) {
            const GbSimTask *t = &r->tasks.items[i];
            gb_str_appendf(s, "%-28s", t->id);
            for (int m = 0; m < GB_SIM_MEASURE_COUNT; m++) {
                if (m == GB_SIM_DATAFLOW && !t->codebleu.dataflow_defined) {
                    gb_str_appendf(s, " %8s", "none");
                } else {
                    gb_str_appendf(s, " %8.4f", gb_sim_task_value(t, (GbSimMeasure)m));
                }
            }
            gb_str_appendf(s, "%s\n", t->df_truncated ? "  (data flow beyond the work budget: counted as empty)" : "");
        }
    }
    GbSummary sm[GB_SIM_MEASURE_COUNT];
    gb_sim__summaries(r, sm);
    gb_str_appendf(s, "\nsummary over %zu tasks (quartiles by linear interpolation)\n", r->tasks.len);
    gb_str_appendf(s, "%-22s %8s %8s %8s %8s %8s %8s\n", "metric", "mean", "median", "q1", "q3", "min", "max");
    for (int m = 0; m < GB_SIM_MEASURE_COUNT; m++)
        gb_str_appendf(s, "%-22s %8.4f %8.4f %8.4f %8.4f %8.4f %8.4f\n",
                       gb_sim_measure_info((GbSimMeasure)m)->command_key, sm[m].mean, sm[m].median, sm[m].q1, sm[m].q3,
                       sm[m].min, sm[m].max);
    size_t undefined = 0;
    for (size_t i = 0; i < r->tasks.len; i++) undefined += !r->tasks.items[i].codebleu.dataflow_defined;
    if (undefined)
        gb_str_appendf(s, "(%zu tasks have no reference data flow: their dataflow_match is 0 in the summary)\n",
                       undefined);
    /* The corpus CodeBLEU, then its parts named by their keys cut to 8 characters. */
    const GbSimTask corpus = {.codebleu = r->corpus};
    gb_str_appendf(s, "corpus CodeBLEU (calc_codebleu over all pairs at once): %.4f (",
                   gb_sim_task_value(&corpus, GB_SIM_CODEBLEU));
    const char *sep = "";
    for (int m = 0; m < GB_SIM_MEASURE_COUNT; m++) {
        const GbSimMeasureInfo *info = gb_sim_measure_info((GbSimMeasure)m);
        if (!info->corpus || m == GB_SIM_CODEBLEU) continue;
        gb_str_appendf(s, "%s%.8s %.4f", sep, info->key, gb_sim_task_value(&corpus, (GbSimMeasure)m));
        sep = ", ";
    }
    gb_str_append(s, ")\n");
    const char *files[2] = {pa, pb};
    for (int side = 0; side < 2; side++) {
        size_t n = side == 0 ? r->only_a.len : r->only_b.len;
        const char *const *ids = side == 0 ? r->only_a.items : r->only_b.items;
        if (!n) continue;
        gb_str_appendf(s, "only in %s: %zu task%s:", files[side], n, n == 1 ? "" : "s");
        for (size_t i = 0; i < n; i++) gb_str_appendf(s, " %s", ids[i]);
        gb_str_append(s, "\n");
    }
}

/* The JSON document (src/doc/similarity.h) of a comparison. */
static void gb_sim__json(GbStr *s, const char *pa, const char *pb, const GbSimReport *r, const GbCodeBleuOptions *o)
{
    GbSimDoc doc = {.reference = gb_strdup(pa),
                    .prediction = gb_strdup(pb),
                    .weights = {o->alpha, o->beta, o->gamma, o->delta},
                    .strict_dataflow = o->strict_dataflow};
    for (size_t i = 0; i < r->tasks.len; i++) {
        const GbSimTask *t = &r->tasks.items[i];
        GbSimDocTask x = {.id = gb_strdup(t->id),
                          .dataflow_defined = t->codebleu.dataflow_defined,
                          .dataflow_truncated = t->df_truncated};
        for (int m = 0; m < GB_SIM_MEASURE_COUNT; m++) x.v[m] = gb_sim_task_value(t, (GbSimMeasure)m);
        gb_array_push(&doc.tasks, x);
    }
    GbSummary sm[GB_SIM_MEASURE_COUNT];
    gb_sim__summaries(r, sm);
    const GbSimTask corpus = {.codebleu = r->corpus};
    for (int m = 0; m < GB_SIM_MEASURE_COUNT; m++) {
        doc.summary[m] = (GbDocStats){sm[m].mean, sm[m].median, sm[m].q1, sm[m].q3, sm[m].min, sm[m].max};
        if (gb_sim_measure_info((GbSimMeasure)m)->corpus) doc.corpus[m] = gb_sim_task_value(&corpus, (GbSimMeasure)m);
    }
    for (size_t i = 0; i < r->only_a.len; i++) gb_array_push(&doc.only_in_reference, gb_strdup(r->only_a.items[i]));
    for (size_t i = 0; i < r->only_b.len; i++) gb_array_push(&doc.only_in_prediction, gb_strdup(r->only_b.items[i]));
    gb_sim_doc_write(s, &doc);
    gb_sim_doc_destroy(&doc);
}

/* Read a benchmark, printing its problems; false when it could not be read at all. */

typedef struct {
    GbCodeBleuOptions cb;
    bool summary_only, json;
    long threads;
    const char *output;
} GbSimOptions;

static bool gb_sim__parse_weights(const char *value, void *dest, char *msg, size_t size)
{
    if (gb_codebleu_parse_weights(value, dest)) return true;
    snprintf(msg, size, "needs four non-negative numbers a,b,c,d");
    return false;
}

#define O GbSimOptions
static const GbCliOption gb_sim__options[] = {
    GB_CLI_PARSE("weights", 0, O, cb, "a,b,c,d", gb_sim__parse_weights, NULL,
                 "CodeBLEU weights of n-gram, weighted n-gram, syntax, data flow\n(default 0.25,0.25,0.25,0.25)"),
    GB_CLI_FLAG("strict-dataflow", 0, O, cb.strict_dataflow,
                "use the data-flow score as computed; by default a data-flow\nscore of 0 counts as 1, as in the "
                "package (`dataflow or 1`)"),
    GB_CLI_FLAG("summary", 0, O, summary_only, "text output: leave out the per-task table"),
    GB_CLI_LONG("threads", 0, O, threads, "N", 1, 4096, NULL, "worker threads (default: all cores)"),
    GB_CLI_FLAG("json", 0, O, json, "JSON output"),
    GB_CLI_STRING("output", 'o', O, output, "FILE", NULL,
                  "write the output to FILE (atomically) instead of stdout; FILE may not be A or B"),
    GB_CLI_END,
};
#undef O

static const GbCliExit gb_sim__exits[] = {
    {0, "compared, every line of both files was good"},
    {1, "a file could not be read or had bad lines, no task id is in both, or the output could not be\n"
        "       written"},
    {2, "usage error (bad option or value, the output is one of the inputs)"},
    {0, NULL},
};

static const GbCliCommand gb_sim__cmd = {
    .name = "similarity",
    .synopsis = "A.jsonl B.jsonl [options]",
    .about = "  Compare two benchmarks task by task (tasks matched by id; B's program is the prediction,\n"
             "  A's the reference). Per task and in summary (mean, median, quartiles, min, max):\n"
             "  CodeBLEU and its components (n-gram, weighted n-gram, syntax, data flow), with the\n"
             "  behaviour of the codebleu package 0.7.1; cosine of token-count vectors; Jaccard of\n"
             "  token sets. Programs with several modules are compared as their concatenated modules.\n",
    .options = gb_sim__options,
    .min_args = 2,
    .max_args = 2,
    .exits = gb_sim__exits,
};

int gb_cmd_similarity(int argc, char **argv)
{
    GbSimOptions opt = {0};
    gb_codebleu_options_default(&opt.cb);
    GbCliArgs args;
    int rc = gb_cli_parse(&gb_sim__cmd, argc, argv, &opt, &args);
    if (rc != GB_CLI_CONTINUE) return rc;
    const char *pa = args.items[0], *pb = args.items[1];
    const char *inputs[] = {pa, pb};
    if (gb_cli_refuse_output("similarity", opt.output, inputs, 2)) return GB_EXIT_USAGE;
    const GbCodeBleuOptions o = opt.cb;
    const bool json = opt.json, summary_only = opt.summary_only;
    const char *output = opt.output;
    const long threads = opt.threads;
    GbBench a, b;
    gb_bench_init(&a);
    gb_bench_init(&b);
    size_t bad = 0;
    rc = GB_EXIT_OK;
    if (!gb_cli_read_bench(pa, &a, "genebench similarity", &bad) ||
        !gb_cli_read_bench(pb, &b, "genebench similarity", &bad)) {
        rc = GB_EXIT_FAIL;
        goto out;
    }
    GbSimReport r;
    gb_similarity_compare(&a, &b, &o, (int)threads, &r);
    GbStr s;
    gb_str_init(&s);
    gb_str_append(&s, "");
    if (json) {
        gb_sim__json(&s, pa, pb, &r, &o);
    } else {
        gb_sim__text(&s, pa, pb, &r, &o, summary_only);
    }
    if (!gb_cli_write_output("similarity", output, &s)) rc = GB_EXIT_FAIL;
    if (r.tasks.len == 0) {
        fprintf(stderr, "genebench similarity: no task id is in both %s and %s\n", pa, pb);
        rc = GB_EXIT_FAIL;
    }
    if (bad) rc = GB_EXIT_FAIL;
    gb_str_destroy(&s);
    gb_sim_report_destroy(&r);
out:
    gb_bench_destroy(&a);
    gb_bench_destroy(&b);
    return rc;
}
