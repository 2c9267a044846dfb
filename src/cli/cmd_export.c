/* genebench export: a canonical benchmark (e.g. a hardened one) back to an upstream format. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/cli/cli.h"
#include "src/cli/commands.h"
#include "src/bench/task_io.h"
#include "src/bench/upstream.h"

typedef struct {
    int to; /* GbUpstream; -1: not given */
    const char *output;
} GbExportOptions;

static const GbCliOption gb_export__options[] = {
    GB_CLI_ENUM("to", 't', GbExportOptions, to, NULL, gb_cli_format_choices, NULL, "upstream format"),
    GB_CLI_STRING("output", 'o', GbExportOptions, output, "OUT", NULL,
                  "file (or directory for avatar) to write; files are written atomically"),
    GB_CLI_END,
};

static const GbCliExit gb_export__exits[] = {
    {0, "every task written"},
    {1, "some task was not written, the input had bad lines or no task, or a write failed"},
    {2, "usage error (bad option, unknown format, the output is the input)"},
    {0, NULL},
};

/* What a hardened record of each format is for, from src/bench/format_list.h. */
#define GB_UPSTREAM_FORMAT(ID, snake, layout, rules, purpose, command)                                                 \
    "  " #snake ": " purpose ".\n    Run: " command ".\n"
#define GB_EXPORT__ABOUT GB_UPSTREAM_FORMAT_LIST

static const GbCliCommand gb_export__cmd = {
    .name = "export",
    .synopsis = "--to FORMAT IN.jsonl -o OUT",
    .about = "  Write a canonical benchmark (as made by `genebench import`, possibly hardened since) in its\n"
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
             "  are also written beside Code/<id>.py.\n",
    .options = gb_export__options,
    .min_args = 0,
    .max_args = -1,
    .footer = "A task that cannot be written (not imported from FORMAT, tests the format cannot hold) is\n"
              "reported as one line and left out; when no task can be written, nothing is written.\n"
              "\nWhat a hardened record is for (also in its \"genebench\" key):\n" GB_EXPORT__ABOUT,
    .exits = gb_export__exits,
};

#undef GB_EXPORT__ABOUT
#undef GB_UPSTREAM_FORMAT

int gb_cmd_export(int argc, char **argv)
{
    GbExportOptions o = {.to = -1};
    GbCliArgs args;
    int prc = gb_cli_parse(&gb_export__cmd, argc, argv, &o, &args);
    if (prc != GB_CLI_CONTINUE) return prc;
    const char *output = o.output;
    GbUpstream format = (GbUpstream)o.to;
    if (o.to < 0) {
        fprintf(stderr, "genebench export: --to FORMAT is required\n");
        gb_cli_usage(&gb_export__cmd, stderr);
        return GB_EXIT_USAGE;
    }
    if (args.count != 1 || !output) {
        fprintf(stderr, "genebench export: need exactly one IN.jsonl and -o OUT\n");
        gb_cli_usage(&gb_export__cmd, stderr);
        return GB_EXIT_USAGE;
    }
    const char *input = args.items[0];
    if (gb_cli_refuse_output("export", output, &input, 1)) return GB_EXIT_USAGE;
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
            fprintf(stderr, "genebench export: %zu of %zu tasks -> %s (%s)\n", written, bench.tasks.len, output,
                    gb_upstream_name(format));
        if (!ok) rc = GB_EXIT_FAIL;
    }
    for (size_t i = 0; i < diag.messages.len; i++) fprintf(stderr, "%s\n", diag.messages.items[i]);
    if (diag.messages.len) rc = GB_EXIT_FAIL;
    gb_diag_destroy(&diag);
    gb_bench_destroy(&bench);
    return rc;
}
