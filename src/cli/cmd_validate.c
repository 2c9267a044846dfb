/* genebench validate: read a canonical benchmark, report every bad task, summarise. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/cli/cli.h"
#include "src/cli/commands.h"
#include "src/bench/task_io.h"

typedef struct {
    const char *output;
} GbValidateOptions;

static const GbCliOption gb_validate__options[] = {
    GB_CLI_STRING("output", 'o', GbValidateOptions, output, "FILE", NULL,
                  "also write the good tasks in canonical form (pinned names filled in),\n"
                  "atomically, when there is at least one; BENCH.jsonl is never modified"),
    GB_CLI_END,
};

static const GbCliExit gb_validate__exits[] = {
    {0, "every task is good"},
    {1, "some task was bad or the file is empty or unreadable"},
    {2, "usage error (bad option, the output is the input)"},
    {0, NULL},
};

static const GbCliCommand gb_validate__cmd = {
    .name = "validate",
    .synopsis = "BENCH.jsonl [-o OUT.jsonl]",
    .about = "  Check a benchmark in the canonical JSONL task format: JSON syntax, required fields and their\n"
             "  types, UTF-8, Python syntax of the program, its extra files and its tests, duplicate ids.\n"
             "  Every bad line is reported as FILE:LINE: task ID: PROBLEM; the other tasks are still checked.\n"
             "  Prints a summary with the number of tasks of each test kind.\n",
    .options = gb_validate__options,
    .min_args = 1,
    .max_args = 1,
    .args_error = "need exactly one BENCH.jsonl",
    .exits = gb_validate__exits,
};

int gb_cmd_validate(int argc, char **argv)
{
    GbValidateOptions o = {0};
    GbCliArgs args;
    int prc = gb_cli_parse(&gb_validate__cmd, argc, argv, &o, &args);
    if (prc != GB_CLI_CONTINUE) return prc;
    const char *output = o.output, *input = args.items[0];
    if (gb_cli_refuse_output("validate", output, &input, 1)) return GB_EXIT_USAGE;
    GbBench bench;
    gb_bench_init(&bench);
    GbDiag diag;
    gb_diag_init(&diag);
    bool readable = gb_bench_read(input, &bench, &diag);
    for (size_t i = 0; i < diag.messages.len; i++) fprintf(stderr, "%s\n", diag.messages.items[i]);
    int rc = diag.messages.len ? GB_EXIT_FAIL : GB_EXIT_OK;
    if (readable) {
        size_t count[3] = {0, 0, 0};
        for (size_t i = 0; i < bench.tasks.len; i++) count[bench.tasks.items[i].kind]++;
        printf("%s: %zu tasks ok (assert %zu, unittest %zu, stdio %zu), %zu problems\n", input, bench.tasks.len,
               count[GB_TESTS_ASSERT], count[GB_TESTS_UNITTEST], count[GB_TESTS_STDIO], diag.messages.len);
        if (output && bench.tasks.len > 0) {
            GbError err;
            if (!gb_bench_write(output, &bench, &err)) {
                fprintf(stderr, "genebench validate: %s\n", err.msg);
                rc = GB_EXIT_FAIL;
            }
        }
    }
    gb_diag_destroy(&diag);
    gb_bench_destroy(&bench);
    return rc;
}
