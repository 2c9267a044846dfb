/* genebench validate: read a canonical benchmark, report every bad task, summarise. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/cli/cli.h"
#include "src/cli/commands.h"
#include "src/bench/task_io.h"

static void gb_validate__usage(FILE *out)
{
    fprintf(out, "usage: genebench validate BENCH.jsonl [-o OUT.jsonl]\n"
                 "  Check a benchmark in the canonical JSONL task format: JSON syntax, required fields and their\n"
                 "  types, UTF-8, Python syntax of the program, its extra files and its tests, duplicate ids.\n"
                 "  Every bad line is reported as FILE:LINE: task ID: PROBLEM; the other tasks are still checked.\n"
                 "  Prints a summary with the number of tasks of each test kind.\n"
                 "\n"
                 "options:\n"
                 "  -o, --output FILE   also write the good tasks in canonical form (pinned names filled in),\n"
                 "                      atomically, when there is at least one; BENCH.jsonl is never modified\n"
                 "  -h, --help          show this help\n"
                 "\n"
                 "Exit status: 0 every task is good, 1 some task was bad or the file is empty or unreadable,\n"
                 "2 usage error.\n");
}

int gb_cmd_validate(int argc, char **argv)
{
    static const struct option opts[] = {
        {"output", required_argument, NULL, 'o'}, {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    const char *output = NULL;
    optind = 0;
    int c;
    while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
        switch (c) {
        case 'o':
            output = optarg;
            break;
        case 'h':
            gb_validate__usage(stdout);
            return GB_EXIT_OK;
        default:
            gb_validate__usage(stderr);
            return GB_EXIT_USAGE;
        }
    }
    if (optind != argc - 1) {
        fprintf(stderr, "genebench validate: need exactly one BENCH.jsonl\n");
        gb_validate__usage(stderr);
        return GB_EXIT_USAGE;
    }
    const char *input = argv[optind];
    if (output && gb_cli_same_file(input, output)) {
        fprintf(stderr, "genebench validate: refusing to overwrite the input %s with the output\n", input);
        return GB_EXIT_USAGE;
    }
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
