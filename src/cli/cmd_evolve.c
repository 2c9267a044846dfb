/* genebench evolve: harden a whole benchmark. */
#include <limits.h>
#include <stddef.h>

#include "src/cli/cli.h"
#include "src/cli/commands.h"
#include "src/cli/evolve_run.h"

typedef struct {
    const char *output, *summary;
    long seed;
    GbEvolveOptions run;
} GbEvolveCmdOptions;

#define O GbEvolveCmdOptions
static const GbCliOption gb_evolve__options[] = {
    GB_CLI_STRING("output", 'o', O, output, "FILE", NULL,
                  "hardened benchmark (canonical JSONL, ready for `genebench export`)"),
    GB_CLI_LONG("seed", 0, O, seed, "S", 0, LONG_MAX, "1", "random seed; same seed + --generations = same bytes"),
    GB_CLI_STRING("summary", 0, O, summary, "FILE", NULL, "where to write the run summary (default OUT.summary.json)"),
    GB_CLI_END,
};
#undef O

static const GbCliExit gb_evolve__exits[] = {
    {0, "every task was evolved and the output and summary are written"},
    {1, "some task failed (its original fails its tests, or it could not be measured), the input had bad\n"
        "       lines, another run holds the output, or a file could not be read or written"},
    {2, "usage error (bad option or value, the output is the input)"},
    {130, "interrupted (Ctrl-C / SIGTERM): the finished tasks are in OUT.jsonl; add --resume"},
    {0, NULL},
};

static const GbCliCommand gb_evolve__cmd = {
    .name = "evolve",
    .synopsis = "BENCH.jsonl -o OUT.jsonl [options]",
    .about = "  Harden every task of a canonical benchmark with NSGA-II over all its operators\n  (`genebench "
             "transform --help` lists them).\n"
             "  Each finished task is appended to OUT.jsonl at once (safe to interrupt with Ctrl-C);\n"
             "  at the end OUT.jsonl is rewritten in input order and OUT.summary.json is written.\n"
             "  While it runs, OUT.jsonl.lock keeps a second run off the same output.\n",
    .options = gb_evolve__options,
    .more = gb_evolve_options,
    .more_offset = offsetof(GbEvolveCmdOptions, run),
    .min_args = 1,
    .max_args = 1,
    .exits = gb_evolve__exits,
};

int gb_cmd_evolve(int argc, char **argv)
{
    GbEvolveCmdOptions o = {0};
    GbCliArgs args;
    char *command_line = gb_cli_command_line("genebench", argc, argv);
    int rc = gb_cli_parse(&gb_evolve__cmd, argc, argv, &o, &args);
    if (rc != GB_CLI_CONTINUE) {
        free(command_line);
        return rc;
    }
    if (!o.output) {
        fprintf(stderr, "genebench evolve: -o OUT.jsonl is required\n");
        gb_cli_usage(&gb_evolve__cmd, stderr);
        free(command_line);
        return GB_EXIT_USAGE;
    }
    GbEvolveRun run = {"evolve", args.items[0], o.output, o.summary,   (unsigned long long)o.seed,
                       &o.run,   NULL,          0,        command_line};
    rc = gb_evolve_benchmark(&run);
    free(command_line);
    return rc;
}
