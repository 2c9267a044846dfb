/* genebench report: one self-contained HTML page about hardening runs (src/report/report.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/cli/cli.h"
#include "src/cli/commands.h"
#include "src/report/report.h"
#include "src/base/util.h"

typedef struct {
    const char *output, *assets, *thresholds, *title;
} GbReportCmdOptions;

#define O GbReportCmdOptions
static const GbCliOption gb_report__options[] = {
    GB_CLI_STRING("output", 'o', O, output, "FILE", NULL, "the HTML file to write (required)"),
    GB_CLI_STRING("assets", 0, O, assets, "DIR", NULL,
                  "where vega, vega-lite and vega-embed are (default: third_party/ of the\n"
                  "source tree, filled by src/setup.sh)"),
    GB_CLI_STRING("thresholds", 0, O, thresholds, "FILE", NULL,
                  "draw these thresholds instead of the file each run names"),
    GB_CLI_STRING("title", 0, O, title, "TEXT", NULL, "page title (default: genebench report)"),
    GB_CLI_END,
};
#undef O

static const GbCliExit gb_report__exits[] = {
    {0, "written, every input was read"},
    {1, "some input could not be read (the page is still written from the others, unless there are none),\n"
        "       or the page could not be rendered or written"},
    {2, "usage error (bad option, no -o or no input, the output is one of the inputs)"},
    {0, NULL},
};

static const GbCliCommand gb_report__cmd = {
    .name = "report",
    .synopsis = "RUN_DIR_OR_JSONL... -o report.html [options]",
    .about = "  Write one self-contained HTML page (opens offline) about hardening runs: metric\n"
             "  distributions before/after with thresholds, RC vs RR with Pareto fronts, operators,\n"
             "  gate rejections, similarity of versions, a sortable task table with diffs, run facts.\n"
             "  Each JSONL is the output of `genebench evolve` (its OUT.summary.json is read when\n"
             "  present); a directory is the output of `genebench versions` (seed-*.jsonl + similarity.json).\n",
    .options = gb_report__options,
    .min_args = 0,
    .max_args = -1,
    .exits = gb_report__exits,
};

int gb_cmd_report(int argc, char **argv)
{
    GbReportCmdOptions o = {0};
    GbCliArgs args;
    int prc = gb_cli_parse(&gb_report__cmd, argc, argv, &o, &args);
    if (prc != GB_CLI_CONTINUE) return prc;
    GbReportOptions opt = {0};
    opt.assets_dir = o.assets;
    opt.thresholds = o.thresholds;
    opt.title = o.title;
    const char *output = o.output;
    if (!output || args.count < 1) {
        fprintf(stderr, "genebench report: %s\n", !output ? "-o FILE is required" : "no input given");
        gb_cli_usage(&gb_report__cmd, stderr);
        return GB_EXIT_USAGE;
    }
    if (gb_cli_refuse_output("report", output, (const char *const *)args.items, (size_t)args.count))
        return GB_EXIT_USAGE;
    GbReport *r = gb_report_new(&opt);
    GbError err;
    int status = GB_EXIT_OK;
    size_t inputs = 0;
    for (int i = 0; i < args.count; i++) {
        if (gb_report_add_input(r, args.items[i], &err))
            inputs++;
        else {
            fprintf(stderr, "genebench report: %s\n", err.msg);
            status = GB_EXIT_FAIL;
        }
    }
    for (size_t i = 0; i < gb_report_warning_count(r); i++)
        fprintf(stderr, "genebench report: warning: %s\n", gb_report_warning(r, i));
    if (inputs == 0) {
        gb_report_delete(r);
        return GB_EXIT_FAIL;
    }
    char *html = gb_report_render(r, &err);
    if (!html) {
        fprintf(stderr, "genebench report: %s\n", err.msg);
        gb_report_delete(r);
        return GB_EXIT_FAIL;
    }
    if (!gb_write_file_atomic(output, html, strlen(html), &err)) {
        fprintf(stderr, "genebench report: %s\n", err.msg);
        status = GB_EXIT_FAIL;
    } else {
        printf("wrote %s (%zu tasks from %d input(s), %zu warning(s))\n", output, gb_report_task_count(r), (int)inputs,
               gb_report_warning_count(r));
    }
    free(html);
    gb_report_delete(r);
    return status;
}
