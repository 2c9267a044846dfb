/* genebench merge: join the outputs of `evolve --shard K/N` runs into one benchmark. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/cli/cli.h"
#include "src/cli/commands.h"
#include "src/report/summary.h"
#include "src/bench/task_io.h"

typedef struct {
    const char *output;
} GbMergeOptions;

static const GbCliOption gb_merge__options[] = {
    GB_CLI_STRING("output", 'o', GbMergeOptions, output, "OUT.jsonl", NULL,
                  "the joined benchmark (written atomically) and OUT.summary.json"),
    GB_CLI_END,
};

static const GbCliExit gb_merge__exits[] = {
    {0, "joined and written"},
    {1, "a shard could not be read, had bad lines, a task is not an `evolve` result or is in two shards\n"
        "       with different results (nothing is written), or the output could not be written"},
    {2, "usage error (bad option, the output is one of the shards)"},
    {0, NULL},
};

static const GbCliCommand gb_merge__cmd = {
    .name = "merge",
    .synopsis = "-o OUT.jsonl SHARD.jsonl...",
    .about = "  Join the outputs of `genebench evolve --shard K/N` (any order) into one hardened\n"
             "  benchmark in the original task order, and write OUT.summary.json over all of them.\n"
             "  A task id that appears in two shards with different results is an error.\n",
    .options = gb_merge__options,
    .min_args = 1,
    .max_args = -1,
    .exits = gb_merge__exits,
};

typedef struct {
    long index;
    size_t pos;
} GbMergeKey;

static int gb_merge__cmp(const void *a, const void *b)
{
    const GbMergeKey *x = a, *y = b;
    if (x->index != y->index) return x->index < y->index ? -1 : 1;
    return x->pos < y->pos ? -1 : x->pos > y->pos;
}

int gb_cmd_merge(int argc, char **argv)
{
    GbMergeOptions o = {0};
    GbCliArgs args;
    int prc = gb_cli_parse(&gb_merge__cmd, argc, argv, &o, &args);
    if (prc != GB_CLI_CONTINUE) return prc;
    const char *out_path = o.output;
    if (!out_path) {
        fprintf(stderr, "genebench merge: -o OUT.jsonl is required\n");
        gb_cli_usage(&gb_merge__cmd, stderr);
        return GB_EXIT_USAGE;
    }
    if (gb_cli_refuse_output("merge", out_path, (const char *const *)args.items, (size_t)args.count))
        return GB_EXIT_USAGE;
    GbBench all;
    gb_bench_init(&all);
    int rc = GB_EXIT_OK;
    char **argv_in = args.items;
    for (int i = 0; i < args.count; i++) {
        GbBench part;
        gb_bench_init(&part);
        size_t bad = 0;
        if (!gb_cli_read_bench(argv_in[i], &part, NULL, &bad) || bad) rc = GB_EXIT_FAIL;
        for (size_t k = 0; k < part.tasks.len; k++) {
            GbTask *t = &part.tasks.items[k];
            long prev = gb_bench_find(&all, t->id);
            if (prev >= 0) {
                char *a = gb_task_to_json(&all.tasks.items[prev]), *b = gb_task_to_json(t);
                if (strcmp(a, b) != 0) {
                    fprintf(stderr, "genebench merge: %s:%zu: task %s: also in another shard with a different result\n",
                            argv_in[i], t->line, t->id);
                    rc = GB_EXIT_FAIL;
                }
                free(a);
                free(b);
                continue;
            }
            if (gb_summary_task_index(t) < 0) {
                fprintf(stderr, "genebench merge: %s:%zu: task %s: not an `evolve` result (no genebench.index)\n",
                        argv_in[i], t->line, t->id);
                rc = GB_EXIT_FAIL;
                continue;
            }
            GbTask copy;
            gb_task_copy(&copy, t);
            gb_array_push(&all.tasks, copy);
        }
        gb_bench_destroy(&part);
    }
    if (rc != GB_EXIT_OK) {
        gb_bench_destroy(&all);
        fprintf(stderr, "genebench merge: nothing written\n");
        return rc;
    }
    GbMergeKey *keys = gb_malloc(all.tasks.len * sizeof *keys);
    for (size_t i = 0; i < all.tasks.len; i++) keys[i] = (GbMergeKey){gb_summary_task_index(&all.tasks.items[i]), i};
    qsort(keys, all.tasks.len, sizeof *keys, gb_merge__cmp);
    GbBench ordered;
    gb_bench_init(&ordered);
    for (size_t i = 0; i < all.tasks.len; i++) {
        GbTask copy;
        gb_task_copy(&copy, &all.tasks.items[keys[i].pos]);
        gb_array_push(&ordered.tasks, copy);
    }
    free(keys);
    GbError err;
    if (!gb_bench_write(out_path, &ordered, &err)) {
        fprintf(stderr, "genebench merge: %s\n", err.msg);
        rc = GB_EXIT_FAIL;
    } else {
        GbRunFacts facts = {0};
        char *summary = gb_summary_build(&ordered, &facts);
        size_t l = strlen(out_path);
        char *spath = l > 6 && strcmp(out_path + l - 6, ".jsonl") == 0
                          ? gb_asprintf("%.*s.summary.json", (int)(l - 6), out_path)
                          : gb_asprintf("%s.summary.json", out_path);
        if (!gb_write_file_atomic(spath, summary, strlen(summary), &err)) {
            fprintf(stderr, "genebench merge: %s\n", err.msg);
            rc = GB_EXIT_FAIL;
        }
        char *line = gb_summary_line(&ordered), *mlines = gb_summary_metric_lines(&ordered);
        fprintf(stderr, "genebench merge: %s\n%s%s  output %s\n  summary %s\n", line,
                *mlines ? "  mean complexity of the evolved tasks, before -> after:\n" : "", mlines, out_path, spath);
        free(mlines);
        free(line);
        free(summary);
        free(spath);
    }
    gb_bench_destroy(&ordered);
    gb_bench_destroy(&all);
    return rc;
}
