/* genebench import: an upstream benchmark (HumanEval, CRUXEval, ClassEval, Avatar) to the
 * canonical JSONL task format. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/cli/cli.h"
#include "src/cli/commands.h"
#include "src/bench/task_io.h"
#include "src/bench/upstream.h"

static void gb_import__usage(FILE *out)
{
    fprintf(out, "usage: genebench import --from humaneval|cruxeval|classeval|avatar INPUT -o OUT.jsonl\n"
                 "  Convert an upstream benchmark into genebench's canonical JSONL task format.\n"
                 "  INPUT is HumanEval's or CRUXEval's .jsonl, ClassEval's .json array, or Avatar's .jsonl\n"
                 "  (either the avatar.dev.jsonl form with `code` and `tests` [{k, in_file, out_file}], or AVATAR's\n"
                 "  tokenised form {\"id\", \"python\": [...]} with NEW_LINE/INDENT/DEDENT markers, which is\n"
                 "  detokenised into runnable Python; its cases are TestCases/<id>_<k>.in/.out beside INPUT).\n"
                 "  Each task keeps its upstream record in meta.upstream, so `genebench export` can write it back.\n"
                 "  Names the tests use and the program defines are recorded in `pinned`.\n"
                 "\n"
                 "options:\n"
                 "  -f, --from FORMAT   upstream format: humaneval, cruxeval, classeval or avatar\n"
                 "  -o, --output FILE   canonical JSONL to write (atomically; INPUT is never modified)\n"
                 "  -h, --help          show this help\n"
                 "\n"
                 "Every bad record is reported as one line FILE:LINE: task ID: PROBLEM and skipped; the others\n"
                 "are still imported. Exit status: 0 all imported, 1 some record was bad or nothing could be\n"
                 "imported, 2 usage error.\n");
}

int gb_cmd_import(int argc, char **argv)
{
    static const struct option opts[] = {{"from", required_argument, NULL, 'f'},
                                         {"output", required_argument, NULL, 'o'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    const char *from = NULL, *output = NULL;
    optind = 0;
    int c;
    while ((c = getopt_long(argc, argv, "f:o:h", opts, NULL)) != -1) {
        switch (c) {
        case 'f':
            from = optarg;
            break;
        case 'o':
            output = optarg;
            break;
        case 'h':
            gb_import__usage(stdout);
            return GB_EXIT_OK;
        default:
            gb_import__usage(stderr);
            return GB_EXIT_USAGE;
        }
    }
    GbUpstream format;
    if (!from || !gb_upstream_from_name(from, &format)) {
        fprintf(stderr, "genebench import: --from must be humaneval, cruxeval, classeval or avatar\n");
        gb_import__usage(stderr);
        return GB_EXIT_USAGE;
    }
    if (optind != argc - 1 || !output) {
        fprintf(stderr, "genebench import: need exactly one INPUT and -o OUT.jsonl\n");
        gb_import__usage(stderr);
        return GB_EXIT_USAGE;
    }
    const char *input = argv[optind];
    if (output && gb_cli_same_file(input, output)) {
        fprintf(stderr, "genebench import: refusing to overwrite the input %s with the output\n", input);
        return GB_EXIT_USAGE;
    }
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
            fprintf(stderr, "genebench import: %zu tasks from %s %s -> %s (%zu problems)\n", bench.tasks.len, from,
                    input, output, diag.messages.len);
        }
    } else {
        fprintf(stderr, "genebench import: no task imported from %s; %s not written\n", input, output);
        rc = GB_EXIT_FAIL;
    }
    gb_diag_destroy(&diag);
    gb_bench_destroy(&bench);
    return rc;
}
