/* genebench import: an upstream benchmark (HumanEval, CRUXEval, ClassEval, Avatar) to the
 * canonical JSONL task format. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/cli/cli.h"
#include "src/cli/commands.h"
#include "src/bench/task_io.h"
#include "src/bench/upstream.h"

typedef struct {
    int from; /* GbUpstream; -1: not given */
    const char *output;
} GbImportOptions;

static const GbCliOption gb_import__options[] = {
    GB_CLI_ENUM("from", 'f', GbImportOptions, from, NULL, gb_cli_format_choices, NULL, "upstream format"),
    GB_CLI_STRING("output", 'o', GbImportOptions, output, "FILE", NULL,
                  "canonical JSONL to write (atomically; INPUT is never modified)"),
    GB_CLI_END,
};

static const GbCliExit gb_import__exits[] = {
    {0, "all imported"},
    {1, "some record was bad or nothing could be imported"},
    {2, "usage error (bad option, unknown format, the output is the input)"},
    {0, NULL},
};

static const GbCliCommand gb_import__cmd = {
    .name = "import",
    .synopsis = "--from FORMAT INPUT -o OUT.jsonl",
    .about = "  Convert an upstream benchmark into genebench's canonical JSONL task format.\n"
             "  INPUT is HumanEval's or CRUXEval's .jsonl, ClassEval's .json array, or Avatar's .jsonl\n"
             "  (either the avatar.dev.jsonl form with `code` and `tests` [{k, in_file, out_file}], or AVATAR's\n"
             "  tokenised form {\"id\", \"python\": [...]} with NEW_LINE/INDENT/DEDENT markers, which is\n"
             "  detokenised into runnable Python; its cases are TestCases/<id>_<k>.in/.out beside INPUT).\n"
             "  Each task keeps its upstream record in meta.upstream, so `genebench export` can write it back.\n"
             "  Names the tests use and the program defines are recorded in `pinned`.\n",
    .options = gb_import__options,
    .min_args = 0,
    .max_args = -1,
    .footer = "Every bad record is reported as one line FILE:LINE: task ID: PROBLEM and skipped; the others\n"
              "are still imported.\n",
    .exits = gb_import__exits,
};

int gb_cmd_import(int argc, char **argv)
{
    GbImportOptions o = {.from = -1};
    GbCliArgs args;
    int prc = gb_cli_parse(&gb_import__cmd, argc, argv, &o, &args);
    if (prc != GB_CLI_CONTINUE) return prc;
    const char *output = o.output;
    GbUpstream format = (GbUpstream)o.from;
    if (o.from < 0) {
        fprintf(stderr, "genebench import: --from FORMAT is required\n");
        gb_cli_usage(&gb_import__cmd, stderr);
        return GB_EXIT_USAGE;
    }
    if (args.count != 1 || !output) {
        fprintf(stderr, "genebench import: need exactly one INPUT and -o OUT.jsonl\n");
        gb_cli_usage(&gb_import__cmd, stderr);
        return GB_EXIT_USAGE;
    }
    const char *input = args.items[0];
    if (gb_cli_refuse_output("import", output, &input, 1)) return GB_EXIT_USAGE;
    GbBench bench;
    gb_bench_init(&bench);
    GbDiag diag;
    gb_diag_init(&diag);
    bool readable = gb_upstream_import(format, input, &bench, &diag);
    for (size_t i = 0; i < diag.messages.len; i++) fprintf(stderr, "%s\n", diag.messages.items[i]);
    int rc = diag.messages.len ? GB_EXIT_FAIL : GB_EXIT_OK;
    if (readable && bench.tasks.len > 0) {
        GbError err;
        if (!gb_bench_write(output, &bench, &err)) {
            fprintf(stderr, "genebench import: %s\n", err.msg);
            rc = GB_EXIT_FAIL;
        } else {
            fprintf(stderr, "genebench import: %zu tasks from %s %s -> %s (%zu problems)\n", bench.tasks.len,
                    gb_upstream_name(format), input, output, diag.messages.len);
        }
    } else {
        fprintf(stderr, "genebench import: no task imported from %s; %s not written\n", input, output);
        rc = GB_EXIT_FAIL;
    }
    gb_diag_destroy(&diag);
    gb_bench_destroy(&bench);
    return rc;
}
