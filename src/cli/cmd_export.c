/* genebench export: a canonical benchmark (e.g. a hardened one) back to an upstream format. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/cli/cli.h"
#include "src/cli/commands.h"
#include "src/bench/task_io.h"
#include "src/bench/upstream.h"

/* What a hardened record of each format is for (src/bench/format_list.h). */
static void gb_export__about(FILE *out)
{
    fprintf(out, "\nWhat a hardened record is for (also in its \"genebench\" key):\n");
    for (int f = 0; f < GB_UPSTREAM_COUNT; f++)
        fprintf(out, "  %s: %s.\n    Run: %s.\n", gb_upstream_name((GbUpstream)f), gb_upstream_purpose((GbUpstream)f),
                gb_upstream_command((GbUpstream)f));
}

static void gb_export__usage(FILE *out)
{
    fprintf(out, "usage: genebench export --to humaneval|cruxeval|classeval|avatar IN.jsonl -o OUT\n"
                 "  Write a canonical benchmark (as made by `genebench import`, possibly hardened since) in its\n"
                 "  upstream format, so it drops into the harness you already use. Each record is rebuilt from\n"
                 "  meta.upstream with the same keys in the same order; an unchanged task comes out byte for byte\n"
                 "  as upstream wrote it. From the task itself come:\n"
                 "    humaneval  task_id, entry_point, test (tests.code without the final \"check(ENTRY)\"), and\n"
                 "               prompt + canonical_solution: the original pair when the program is unchanged,\n"
                 "               otherwise prompt = the program up to the end of the line that ends the entry\n"
                 "               point's signature and docstring, canonical_solution = the rest\n"
                 "    cruxeval   id, code (= the program); input/output stay upstream's (tests must be unchanged)\n"
                 "    classeval  task_id, solution_code (= the program), class_name, test, test_classes\n"
                 "    avatar     id, code (= the program); tokenised-form records get the program re-tokenised\n"
                 "               into their `python` entry when it changed\n"
                 "  Every other field keeps its upstream value (e.g. ClassEval's skeleton and methods_info still\n"
                 "  describe the original solution).\n"
                 "  OUT is a file (humaneval, cruxeval: JSONL; classeval: a JSON array written as\n"
                 "  json.dumps(indent=4, ensure_ascii=False)) or, for avatar, a directory that receives the .jsonl\n"
                 "  (named as the imported one), Code/<id>.py and TestCases/<id>_<k>.in/.out.\n"
                 "\n"
                 "  Helper modules: a task with extra_files (e.g. from CreateModuleDependencies) gets one more key\n"
                 "  at the end of its record, \"extra_files\": {\"PATH.py\": \"SOURCE\", ...}. Write each file next\n"
                 "  to the program before running it (the program imports them by module name). For avatar they\n"
                 "  are also written beside Code/<id>.py.\n"
                 "\n"
                 "options:\n"
                 "  -t, --to FORMAT     upstream format: humaneval, cruxeval, classeval or avatar\n"
                 "  -o, --output OUT    file (or directory for avatar) to write; files are written atomically\n"
                 "  -h, --help          show this help\n"
                 "\n"
                 "A task that cannot be written (not imported from FORMAT, tests the format cannot hold) is\n"
                 "reported as one line and left out; when no task can be written, nothing is written.\n"
                 "Exit status: 0 all written, 1 some task was not (or none), 2 usage.\n");
    gb_export__about(out);
}

int gb_cmd_export(int argc, char **argv)
{
    static const struct option opts[] = {{"to", required_argument, NULL, 't'},
                                         {"output", required_argument, NULL, 'o'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    const char *to = NULL, *output = NULL;
    optind = 0;
    int c;
    while ((c = getopt_long(argc, argv, "t:o:h", opts, NULL)) != -1) {
        switch (c) {
        case 't':
            to = optarg;
            break;
        case 'o':
            output = optarg;
            break;
        case 'h':
            gb_export__usage(stdout);
            return GB_EXIT_OK;
        default:
            gb_export__usage(stderr);
            return GB_EXIT_USAGE;
        }
    }
    GbUpstream format;
    if (!to || !gb_upstream_from_name(to, &format)) {
        fprintf(stderr, "genebench export: --to must be humaneval, cruxeval, classeval or avatar\n");
        gb_export__usage(stderr);
        return GB_EXIT_USAGE;
    }
    if (optind != argc - 1 || !output) {
        fprintf(stderr, "genebench export: need exactly one IN.jsonl and -o OUT\n");
        gb_export__usage(stderr);
        return GB_EXIT_USAGE;
    }
    const char *input = argv[optind];
    if (output && gb_cli_same_file(input, output)) {
        fprintf(stderr, "genebench export: refusing to overwrite the input %s with the output\n", input);
        return GB_EXIT_USAGE;
    }
    GbBench bench;
    gb_bench_init(&bench);
    GbDiag diag;
    gb_diag_init(&diag);
    int rc = GB_EXIT_OK;
    if (!gb_bench_read(input, &bench, &diag)) {
        rc = GB_EXIT_FAIL;
    } else if (bench.tasks.len == 0) {
        rc = GB_EXIT_FAIL;
    } else {
        size_t written = 0;
        bool ok = gb_upstream_export(format, &bench, input, output, &diag, &written);
        if (ok)
            fprintf(stderr, "genebench export: %zu of %zu tasks -> %s (%s)\n", written, bench.tasks.len, output, to);
        if (!ok) rc = GB_EXIT_FAIL;
    }
    for (size_t i = 0; i < diag.messages.len; i++) fprintf(stderr, "%s\n", diag.messages.items[i]);
    if (diag.messages.len) rc = GB_EXIT_FAIL;
    gb_diag_destroy(&diag);
    gb_bench_destroy(&bench);
    return rc;
}
