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
    GbCliList evals, breaks;
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
    GB_CLI_LIST("eval", 0, O, evals, "SUMMARY[,RESULTS]",
                "a run of `genebench eval`: its --summary JSON and, optionally, its -o\n"
                "results JSONL (for the items that changed); repeatable, one per task\n"
                "type (output, input, repair, translate) or model"),
    GB_CLI_LIST("breaks", 0, O, breaks, "DIR",
                "the output of `genebench breaks`: a \"Where the model breaks\" panel (the\n"
                "curves with SVG/PNG export, operators, formats, ladders); repeatable"),
    GB_CLI_END,
};
#undef O

static const GbCliExit gb_report__exits[] = {
    {0, "written, every input was read"},
    {1, "some input (or --eval file) could not be read (the page is still written from the others, unless there are "
        "none),\n"
        "       or the page could not be rendered or written"},
    {2, "usage error (bad option, no -o or no input, the output is one of the inputs)"},
    {0, NULL},
};

static const GbCliCommand gb_report__cmd = {
    .name = "report",
    .synopsis = "[RUN_DIR_OR_JSONL...] [--eval SUMMARY.json[,RESULTS.jsonl]]... [--breaks DIR]... -o report.html "
                "[options]",
    .about = "  Write one self-contained HTML page (opens offline) about hardening runs: metric\n"
             "  distributions before/after with thresholds, RC vs RR with Pareto fronts, operators,\n"
             "  gate rejections, similarity of versions, a sortable task table with diffs, run facts.\n"
             "  Each JSONL is the output of `genebench evolve` (its OUT.summary.json is read when\n"
             "  present); a directory is the output of `genebench versions` (seed-*.jsonl + similarity.json).\n"
             "  With --eval: a model evaluation panel (pass@k before/after per task type and version, the\n"
             "  relative drop with its 95% interval, per-item outcome changes); eval inputs alone are enough.\n"
             "  With --breaks: the analysis of `genebench breaks` over complexity levels, as a panel.\n",
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
    if (!output || (args.count < 1 && o.evals.len == 0 && o.breaks.len == 0)) {
        fprintf(stderr, "genebench report: %s\n", !output ? "-o FILE is required" : "no input given");
        gb_cli_usage(&gb_report__cmd, stderr);
        gb_cli_list_destroy(&o.evals);
        gb_cli_list_destroy(&o.breaks);
        return GB_EXIT_USAGE;
    }
    /* --eval SUMMARY[,RESULTS]: split once; every file is an input the output may not replace. */
    GbArray(char *) eval_files = {0};
    for (size_t i = 0; i < o.evals.len; i++) {
        const char *spec = o.evals.items[i], *comma = strchr(spec, ',');
        if (!*spec || comma == spec || (comma && (!comma[1] || strchr(comma + 1, ',')))) {
            fprintf(stderr, "genebench report: --eval %s: expected SUMMARY.json or SUMMARY.json,RESULTS.jsonl\n", spec);
            for (size_t k = 0; k < eval_files.len; k++) free(eval_files.items[k]);
            gb_array_free(&eval_files);
            gb_cli_list_destroy(&o.evals);
            gb_cli_list_destroy(&o.breaks);
            return GB_EXIT_USAGE;
        }
        char *summary = comma ? gb_strndup(spec, (size_t)(comma - spec)) : gb_strdup(spec);
        gb_array_push(&eval_files, summary);
        char *results = comma ? gb_strdup(comma + 1) : NULL;
        gb_array_push(&eval_files, results);
    }
    GbArray(const char *) inames = {0};
    for (int i = 0; i < args.count; i++) gb_array_push(&inames, (const char *)args.items[i]);
    for (size_t k = 0; k < eval_files.len; k++)
        if (eval_files.items[k]) gb_array_push(&inames, (const char *)eval_files.items[k]);
    bool refused = gb_cli_refuse_output("report", output, inames.items, inames.len);
    gb_array_free(&inames);
    gb_cli_list_destroy(&o.evals);
    if (refused) {
        gb_cli_list_destroy(&o.breaks);
        for (size_t k = 0; k < eval_files.len; k++) free(eval_files.items[k]);
        gb_array_free(&eval_files);
        return GB_EXIT_USAGE;
    }
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
    for (size_t k = 0; k + 1 < eval_files.len; k += 2) {
        if (gb_report_add_eval(r, eval_files.items[k], eval_files.items[k + 1], &err))
            inputs++;
        else {
            fprintf(stderr, "genebench report: %s\n", err.msg);
            status = GB_EXIT_FAIL;
        }
    }
    for (size_t k = 0; k < eval_files.len; k++) free(eval_files.items[k]);
    gb_array_free(&eval_files);
    size_t nbreaks = 0;
    for (size_t k = 0; k < o.breaks.len; k++) {
        if (gb_report_add_breaks(r, o.breaks.items[k], &err))
            nbreaks++;
        else {
            fprintf(stderr, "genebench report: %s\n", err.msg);
            status = GB_EXIT_FAIL;
        }
    }
    gb_cli_list_destroy(&o.breaks);
    inputs += nbreaks;
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
        printf("wrote %s (%zu tasks from %zu input(s), %zu eval run(s), %zu warning(s))\n", output,
               gb_report_task_count(r), inputs - nbreaks - gb_report_eval_count(r), gb_report_eval_count(r),
               gb_report_warning_count(r));
    }
    free(html);
    gb_report_delete(r);
    return status;
}
