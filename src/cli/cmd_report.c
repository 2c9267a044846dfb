/* genebench report: one self-contained HTML page about hardening runs (src/report/report.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/cli/cli.h"
#include "src/cli/commands.h"
#include "src/report/report.h"
#include "src/base/util.h"

static void usage(FILE *out)
{
    fprintf(out, "usage: genebench report RUN_DIR_OR_JSONL... -o report.html [options]\n"
                 "  Write one self-contained HTML page (opens offline) about hardening runs: metric\n"
                 "  distributions before/after with thresholds, RC vs RR with Pareto fronts, operators,\n"
                 "  gate rejections, similarity of versions, a sortable task table with diffs, run facts.\n"
                 "  Each JSONL is the output of `genebench evolve` (its OUT.summary.json is read when\n"
                 "  present); a directory is the output of `genebench versions` (seed-*.jsonl + similarity.json).\n"
                 "options:\n"
                 "  -o, --output FILE      the HTML file to write (required)\n"
                 "      --assets DIR       where vega, vega-lite and vega-embed are (default: third_party/ of the\n"
                 "                         source tree, filled by src/setup.sh)\n"
                 "      --thresholds FILE  draw these thresholds instead of the file each run names\n"
                 "      --title TEXT       page title (default: genebench report)\n"
                 "  -h, --help             show this help\n");
}

int gb_cmd_report(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'},
        {"assets", required_argument, NULL, 'a'},
        {"thresholds", required_argument, NULL, 't'},
        {"title", required_argument, NULL, 'T'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    GbReportOptions opt = {0};
    const char *output = NULL;
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'o':
            output = optarg;
            break;
        case 'a':
            opt.assets_dir = optarg;
            break;
        case 't':
            opt.thresholds = optarg;
            break;
        case 'T':
            opt.title = optarg;
            break;
        case 'h':
            usage(stdout);
            return GB_EXIT_OK;
        default:
            fprintf(stderr, "genebench report: unknown or incomplete option '%s'\n", argv[optind - 1]);
            usage(stderr);
            return GB_EXIT_USAGE;
        }
    }
    if (!output || optind >= argc) {
        fprintf(stderr, "genebench report: %s\n", !output ? "-o FILE is required" : "no input given");
        usage(stderr);
        return GB_EXIT_USAGE;
    }
    for (int i = optind; i < argc; i++) {
        if (gb_cli_same_file(argv[i], output)) {
            fprintf(stderr, "genebench report: refusing to overwrite the input %s with the output\n", argv[i]);
            return GB_EXIT_USAGE;
        }
    }
    GbReport *r = gb_report_new(&opt);
    GbError err;
    int status = GB_EXIT_OK;
    size_t inputs = 0;
    for (int i = optind; i < argc; i++) {
        if (gb_report_add_input(r, argv[i], &err))
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
