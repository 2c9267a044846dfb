/* genebench versions: harden one benchmark once per seed, then measure how different the
 * versions are from each other and from the original (CodeBLEU, cosine, Jaccard, NNMR). */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "src/cli/cli.h"
#include "src/cli/commands.h"
#include "src/cli/evolve_run.h"
#include "src/cli/embed_opts.h"
#include "src/doc/versions_similarity.h"
#include "src/measure/nnmr.h"
#include "src/model/program.h"
#include "src/python/pyparse.h"
#include "src/measure/similarity.h"
#include "src/bench/task_io.h"

static char *gb_versions__text(const GbTask *t)
{
    GbProgram p;
    gb_program_from_task(&p, t);
    char *s = gb_program_concat(&p);
    gb_program_destroy(&p);
    return s;
}

/* One pair of versions as the document's entry: every task's measures and their distribution.
 * Task ids are borrowed from r. */
static void gb_versions__pair(GbVsimPair *p, const char *a, const char *b, const GbSimReport *r)
{
    memset(p, 0, sizeof *p);
    p->a = a;
    p->b = b;
    size_t n = r->tasks.len;
    for (size_t i = 0; i < n; i++) {
        const GbSimTask *t = &r->tasks.items[i];
        GbVsimTask x = {.id = t->id};
        for (int m = 0; m < GB_SIM_MEASURE_COUNT; m++) x.v[m] = gb_sim_task_value(t, (GbSimMeasure)m);
        gb_array_push(&p->per_task, x);
    }
    double *v = gb_malloc((n ? n : 1) * sizeof *v);
    for (size_t m = 0; m < GB_VSIM_MEASURES; m++) {
        for (size_t i = 0; i < n; i++) v[i] = p->per_task.items[i].v[m];
        GbSummary sum;
        gb_summary_compute(v, n, &sum);
        p->summary[m] = (GbVsimStats){sum.mean, sum.median, sum.q1, sum.q3, sum.min, sum.max};
    }
    free(v);
}

typedef GbArray(long) GbSeedList;

typedef struct {
    GbSeedList seeds;
    const char *output;
    bool independent;
    GbCliEmbedOptions embed;
    GbEvolveOptions run;
} GbVersionsOptions;

/* --seeds 1,2,3 (given again: replaces the list). */
static bool gb_versions__parse_seeds(const char *value, void *dest, char *msg, size_t size)
{
    GbSeedList *l = dest;
    l->len = 0;
    char *copy = gb_strdup(value), *save = NULL;
    bool ok = true;
    for (char *tok = strtok_r(copy, ",", &save); tok && ok; tok = strtok_r(NULL, ",", &save)) {
        char *end = NULL;
        errno = 0;
        long v = strtol(tok, &end, 10);
        ok = !errno && end != tok && !*end && v >= 0;
        if (ok) gb_array_push(l, v);
    }
    free(copy);
    if (!ok) snprintf(msg, size, "expects comma-separated integers >= 0");
    return ok;
}

#define O GbVersionsOptions
static const GbCliOption gb_versions__options[] = {
    GB_CLI_PARSE("seeds", 0, O, seeds, "LIST", gb_versions__parse_seeds, NULL, "comma-separated seeds (at least two)"),
    GB_CLI_STRING("output", 'o', O, output, "DIR", NULL,
                  "output directory (created; existing seed files are resumed, not overwritten)"),
    GB_CLI_FLAG("independent", 0, O, independent,
                "evolve every seed on its own (by default each seed after the first evolves away from\n"
                "the versions before it: `evolve --away-from`, down to --away-target)"),
    GB_CLI_EMBED_OPTIONS(O, embed),
    GB_CLI_END,
};
#undef O

static const GbCliExit gb_versions__exits[] = {
    {0, "every version was evolved and DIR/similarity.json is written"},
    {1, "some version's evolution failed (see `genebench evolve --help`), or a file could not be written"},
    {2, "usage error"},
    {130, "interrupted (Ctrl-C / SIGTERM) while evolving a version; run the same command to continue"},
    {0, NULL},
};

static const GbCliCommand gb_versions__cmd = {
    .name = "versions",
    .synopsis = "BENCH.jsonl --seeds 1,2,3 -o DIR [evolve options]",
    .about = "  Harden BENCH once per seed (DIR/seed-S.jsonl and DIR/seed-S.summary.json, exactly what\n"
             "  `genebench evolve --seed S` writes; every seed after the first is evolved away from the\n"
             "  versions before it, as `evolve --away-from` does, unless --independent), then write\n"
             "  DIR/similarity.json and print a table:\n"
             "  for every pair of versions and for the original against each version, per task and in\n"
             "  summary, CodeBLEU (weights 0.25 each, the codebleu package's `or 1` data-flow rule) and its\n"
             "  four parts, cosine of token counts and Jaccard of token sets (tree-sitter lexical tokens),\n"
             "  and NNMR original <-> each version (with the mean rank of the counterpart and the\n"
             "  displacement, as `genebench nnmr` reports them), embedded by the model at --embed-url or\n"
             "  by the built-in embedding (--builtin).\n"
             "  The options after --dim are those of `genebench evolve`.\n",
    .options = gb_versions__options,
    .more = gb_evolve_options,
    .more_offset = offsetof(GbVersionsOptions, run),
    .min_args = 1,
    .max_args = 1,
    .exits = gb_versions__exits,
};

/* Read the original and every version, compare every pair, write DIR/similarity.json and print
 * the table. Returns the exit code. */
static int gb_versions__measure(const char *bench_path, const char *outdir, const long *seeds, char *const *outs,
                                size_t nouts, const GbCliEmbedOptions *eo)
{
    int rc = GB_EXIT_OK;
    size_t nv = nouts + 1;
    GbBench *b = gb_calloc(nv, sizeof *b);
    char **labels = gb_calloc(nv, sizeof *labels);
    for (size_t i = 0; i < nv; i++) {
        gb_bench_init(&b[i]);
        gb_cli_read_bench(i == 0 ? bench_path : outs[i - 1], &b[i], NULL, NULL);
        labels[i] = i == 0 ? gb_strdup("original") : gb_asprintf("seed-%ld", seeds[i - 1]);
    }
    GbCodeBleuOptions opt;
    gb_codebleu_options_default(&opt);
    /* The document borrows the labels, the reports' task ids and the embeddings' descriptions,
     * all kept until it is written. */
    GbVsimDoc doc = {.tokenizer = "tree-sitter lexical tokens (comments dropped)"};
    size_t npairs = nv * (nv - 1) / 2, pi = 0;
    GbSimReport *reports = gb_calloc(npairs ? npairs : 1, sizeof *reports);
    GbArray(char *) texts_kept = {0};
    printf("%-22s %6s %9s %9s %9s\n", "pair", "tasks", "CodeBLEU", "cosine", "Jaccard");
    for (size_t i = 0; i < nv; i++) {
        for (size_t j = i + 1; j < nv; j++) {
            GbSimReport r;
            gb_similarity_compare(&b[i], &b[j], &opt, 0, &r);
            GbVsimPair pair;
            gb_versions__pair(&pair, labels[i], labels[j], &r);
            gb_array_push(&doc.pairs, pair);
            double s[3] = {0};
            for (size_t t = 0; t < r.tasks.len; t++) {
                s[0] += r.tasks.items[t].codebleu.codebleu;
                s[1] += r.tasks.items[t].cosine;
                s[2] += r.tasks.items[t].jaccard;
            }
            double n = r.tasks.len ? (double)r.tasks.len : 1;
            char *pl = gb_asprintf("%s vs %s", labels[i], labels[j]);
            printf("%-22s %6zu %9.4f %9.4f %9.4f\n", pl, r.tasks.len, s[0] / n, s[1] / n, s[2] / n);
            free(pl);
            reports[pi++] = r;
        }
    }
    /* NNMR original <-> each version, tasks matched by id. */
    bool printed = false;
    for (size_t v = 1; v < nv; v++) {
        GbArray(char *) texts = {0};
        size_t n = 0;
        for (size_t t = 0; t < b[0].tasks.len; t++)
            if (gb_bench_find(&b[v], b[0].tasks.items[t].id) >= 0) n++;
        for (size_t t = 0; t < b[0].tasks.len; t++)
            if (gb_bench_find(&b[v], b[0].tasks.items[t].id) >= 0)
                gb_array_push(&texts, gb_versions__text(&b[0].tasks.items[t]));
        for (size_t t = 0; t < b[0].tasks.len; t++) {
            long k = gb_bench_find(&b[v], b[0].tasks.items[t].id);
            if (k >= 0) gb_array_push(&texts, gb_versions__text(&b[v].tasks.items[k]));
        }
        double *vec = NULL;
        GbCliEmbedInfo info;
        int erc = gb_cli_embed("versions", eo, (const char *const *)texts.items, 2 * n, &vec, &info);
        for (size_t t = 0; t < texts.len; t++) free(texts.items[t]);
        gb_array_free(&texts);
        if (erc != GB_CLI_CONTINUE) {
            gb_cli_embed_info_destroy(&info);
            rc = GB_EXIT_FAIL;
            break;
        }
        if (!printed) {
            printf("\nNNMR (embedding: %s; cosine; gallery = the whole other set; ties -> lowest index)\n", info.text);
            doc.has_embedding = true;
            doc.embedding = gb_strdup(info.text);
            doc.embedding_source = gb_strdup(info.json.data);
            gb_array_push(&texts_kept, (char *)doc.embedding);
            gb_array_push(&texts_kept, (char *)doc.embedding_source);
            printed = true;
        }
        GbNnmr r;
        gb_nnmr_compute(vec, vec + n * info.dim, n, info.dim, &r);
        if (r.zero_rows)
            fprintf(stderr,
                    "genebench versions: warning: %s: %zu of the %zu embeddings are all zero: they match nothing, "
                    "so its NNMR says little\n",
                    labels[v], r.zero_rows, 2 * n);
        GbVsimNnmr x = {.label = labels[v],
                        .o2h = r.nnmr_o2h,
                        .h2o = r.nnmr_h2o,
                        .mean_rank_o2h = r.mean_rank_o2h,
                        .mean_rank_h2o = r.mean_rank_h2o,
                        .displacement_median = r.displacement_median,
                        .displacement_mean = r.displacement_mean,
                        .displaced = r.displaced};
        gb_array_push(&doc.nnmr, x);
        printf("  original -> %-10s %6.2f %%   %-10s -> original %6.2f %%   (%zu programs; mean rank %.2f / %.2f, "
               "displacement median %.3f)\n",
               labels[v], r.nnmr_o2h, labels[v], r.nnmr_h2o, n, r.mean_rank_o2h, r.mean_rank_h2o,
               r.displacement_median);
        gb_nnmr_destroy(&r);
        free(vec);
        gb_cli_embed_info_destroy(&info);
    }
    GbStr js;
    gb_str_init(&js);
    gb_vsim_doc_write(&js, &doc);
    gb_vsim_doc_release(&doc);
    for (size_t i = 0; i < pi; i++) gb_sim_report_destroy(&reports[i]);
    free(reports);
    for (size_t i = 0; i < texts_kept.len; i++) free(texts_kept.items[i]);
    gb_array_free(&texts_kept);
    char *simpath = gb_asprintf("%s/similarity.json", outdir);
    GbError err;
    if (!gb_write_file_atomic(simpath, js.data, js.len, &err)) {
        fprintf(stderr, "genebench versions: %s\n", err.msg);
        rc = GB_EXIT_FAIL;
    } else {
        printf("\nwritten: %s\n", simpath);
    }
    free(simpath);
    gb_str_destroy(&js);
    for (size_t i = 0; i < nv; i++) {
        gb_bench_destroy(&b[i]);
        free(labels[i]);
    }
    free(b);
    free(labels);
    return rc;
}

int gb_cmd_versions(int argc, char **argv)
{
    GbVersionsOptions o = {0};
    gb_cli_embed_defaults(&o.embed);
    GbCliArgs args;
    int rc = gb_cli_parse(&gb_versions__cmd, argc, argv, &o, &args);
    if (rc != GB_CLI_CONTINUE) {
        gb_array_free(&o.seeds);
        return rc;
    }
    if (!gb_cli_embed_check("versions", &o.embed)) {
        gb_array_free(&o.seeds);
        return GB_EXIT_USAGE;
    }
    const char *bench_path = args.items[0], *outdir = o.output;
    GbSeedList seed_list = o.seeds; /* owned from here */
    if (!outdir || seed_list.len < 2) {
        if (seed_list.len == 1) fprintf(stderr, "genebench versions: --seeds needs at least two seeds\n");
        gb_cli_usage(&gb_versions__cmd, stderr);
        gb_array_free(&seed_list);
        return GB_EXIT_USAGE;
    }
    if (mkdir(outdir, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "genebench versions: cannot create %s: %s\n", outdir, strerror(errno));
        gb_array_free(&seed_list);
        return GB_EXIT_FAIL;
    }

    rc = GB_EXIT_OK;
    GbArray(char *) outs = {0};
    for (size_t k = 0; k < seed_list.len; k++) {
        char *out = gb_asprintf("%s/seed-%ld.jsonl", outdir, seed_list.items[k]);
        fprintf(stderr, "genebench versions: seed %ld -> %s\n", seed_list.items[k], out);
        GbEvolveRun run = {"evolve",
                           bench_path,
                           out,
                           NULL,
                           (unsigned long long)seed_list.items[k],
                           &o.run,
                           o.independent ? NULL : outs.items,
                           o.independent ? 0 : outs.len,
                           NULL};
        int erc = gb_evolve_benchmark(&run);
        if (erc == 130 || erc == GB_EXIT_USAGE) {
            free(out);
            rc = erc;
            break;
        }
        if (erc != GB_EXIT_OK) rc = GB_EXIT_FAIL;
        gb_array_push(&outs, out);
    }
    if (outs.len != seed_list.len) {
        for (size_t i = 0; i < outs.len; i++) free(outs.items[i]);
        gb_array_free(&outs);
        gb_array_free(&seed_list);
        return rc;
    }

    int mrc = gb_versions__measure(bench_path, outdir, seed_list.items, outs.items, outs.len, &o.embed);
    if (mrc != GB_EXIT_OK) rc = mrc;
    for (size_t i = 0; i < outs.len; i++) free(outs.items[i]);
    gb_array_free(&outs);
    gb_array_free(&seed_list);
    return rc;
}
