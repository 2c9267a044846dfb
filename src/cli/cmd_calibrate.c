/* genebench calibrate: thresholds from a real-world corpus, with our metric definitions. */
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fitness/calibrate.h"
#include "src/cli/cli.h"
#include "src/cli/commands.h"

static void gb_calibrate__json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

static bool gb_calibrate__per_file(const char *path, const GbCalibration *c, GbError *err)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        gb_error_set(err, "%s: cannot write", path);
        return false;
    }
    for (size_t i = 0; i < c->files.len; i++) {
        const GbCalibFile *x = &c->files.items[i];
        fputs("{\"path\": ", f);
        gb_calibrate__json_string(f, x->rel);
        fputs(", \"file\": ", f);
        gb_calibrate__json_string(f, x->path);
        fputs(", \"own\": ", f);
        gb_calibrate__json_string(f, x->own_package ? x->own_package : "");
        fprintf(f, ", \"ok\": %s", x->ok ? "true" : "false");
        if (x->ok) {
            fputs(", \"metrics\": {", f);
            for (int k = 0; k < GB_METRIC_COUNT; k++)
                fprintf(f, "%s\"%s\": %.10g", k ? ", " : "", gb_metric_key((GbMetricId)k),
                        round(x->metrics.v[k] * 10000.0) / 10000.0);
            fprintf(f, "}, \"cfg\": {\"nodes\": %u, \"edges\": %u, \"components\": %u}", x->detail.cfg_nodes,
                    x->detail.cfg_edges, x->detail.cfg_components);
            fprintf(f, ", \"calls\": {\"stdlib\": %u, \"third_party\": %u}", x->detail.calls_stdlib,
                    x->detail.calls_third_party);
        }
        fputs("}\n", f);
    }
    if (fclose(f) != 0) {
        gb_error_set(err, "%s: write failed", path);
        return false;
    }
    return true;
}

typedef struct {
    const char *output, *per_file;
    long threads;
    bool list_files;
    GbCliList excludes;
} GbCalibrateOptions;

#define O GbCalibrateOptions
static const GbCliOption gb_calibrate__options[] = {
    GB_CLI_STRING("output", 'o', O, output, "FILE", NULL, "the thresholds file to write (atomically)"),
    GB_CLI_LIST("exclude", 'x', O, excludes, "PATTERN",
                "leave out files whose DIRNAME/PATH matches the shell pattern (`*` also\n"
                "matches `/`; recorded in the manifest), e.g. generated code"),
    GB_CLI_LONG("threads", 'j', O, threads, "N", 1, 1024, NULL, "measure with N threads (default: OpenMP's default)"),
    GB_CLI_FLAG("list-files", 0, O, list_files, "also list every measured file in the manifest"),
    GB_CLI_STRING("per-file", 0, O, per_file, "FILE", NULL,
                  "write every file's metrics as JSON lines (for inspection)"),
    GB_CLI_END,
};
#undef O

static const GbCliExit gb_calibrate__exits[] = {
    {0, "written"},
    {1, "nothing measured or an I/O error"},
    {2, "usage error"},
    {0, NULL},
};

static const GbCliCommand gb_calibrate__cmd = {
    .name = "calibrate",
    .synopsis = "DIR... -o corpora/NAME.json [--exclude PATTERN]... [--threads N]\n"
                "                           [--list-files] [--per-file OUT.jsonl]",
    .about = "  Measure every non-test .py file under the directories with genebench's metric definitions and\n"
             "  write a thresholds file: CT = mean of each complexity metric, RT = ceil(mean) of each\n"
             "  readability metric, plus a manifest (directories, Debian packages and versions owning them,\n"
             "  file counts, a digest of the measured files, parse failures). Test code is skipped\n"
             "  (directories named tests, test_*.py, *_test.py, conftest.py). A file that is not UTF-8 or does\n"
             "  not parse is reported with its first error position and skipped. Nothing is written when no\n"
             "  file could be measured. The result does not depend on the number of threads.\n"
             "  The default corpus (corpora/calibrated.json) is made with the command in corpora/README.md.\n",
    .options = gb_calibrate__options,
    .min_args = 0,
    .max_args = -1,
    .exits = gb_calibrate__exits,
};

int gb_cmd_calibrate(int argc, char **argv)
{
    GbCalibrateOptions o = {0};
    GbCliArgs args;
    int prc = gb_cli_parse(&gb_calibrate__cmd, argc, argv, &o, &args);
    if (prc != GB_CLI_CONTINUE) {
        gb_cli_list_destroy(&o.excludes);
        return prc;
    }
    const char *output = o.output, *per_file = o.per_file;
    const bool list_files = o.list_files;
    if (!output || args.count < 1) {
        gb_cli_list_destroy(&o.excludes);
        fprintf(stderr, "genebench calibrate: need at least one DIR and -o FILE\n");
        gb_cli_usage(&gb_calibrate__cmd, stderr);
        return GB_EXIT_USAGE;
    }
    GbCalibration cal;
    gb_calibration_init(&cal);
    const char *base = strrchr(output, '/');
    base = base ? base + 1 : output;
    size_t bl = strlen(base);
    cal.name = gb_strndup(base, bl > 5 && strcmp(base + bl - 5, ".json") == 0 ? bl - 5 : bl);
    GbStr cmd;
    gb_str_init(&cmd);
    gb_str_append(&cmd, "genebench calibrate");
    for (int i = 0; i < args.count; i++) gb_str_appendf(&cmd, " %s", args.items[i]);
    for (size_t i = 0; i < o.excludes.len; i++) {
        gb_str_appendf(&cmd, " --exclude '%s'", o.excludes.items[i]);
        gb_array_push(&cal.excludes, gb_strdup(o.excludes.items[i]));
    }
    gb_cli_list_destroy(&o.excludes);
    gb_str_appendf(&cmd, " -o %s", output);
    if (list_files) gb_str_append(&cmd, " --list-files");
    cal.command = gb_str_take(&cmd);
    cal.list_files = list_files;

    GbError err;
    bool ok = gb_calibrate_run((const char *const *)args.items, (size_t)args.count, (int)o.threads, &cal, &err);
    for (size_t i = 0; i < cal.failures.len; i++) fprintf(stderr, "skipped: %s\n", cal.failures.items[i].message);
    if (ok && per_file && !gb_calibrate__per_file(per_file, &cal, &err)) ok = false;
    if (ok && !gb_calibration_write(output, &cal, &err)) ok = false;
    if (!ok) {
        fprintf(stderr, "genebench calibrate: %s\n", err.msg);
        gb_calibration_destroy(&cal);
        return GB_EXIT_FAIL;
    }
    for (size_t i = 0; i < cal.dirs.len; i++) {
        const GbCalibDir *d = &cal.dirs.items[i];
        printf("%s: %zu files, %zu test files skipped, %zu not parsed", d->path, d->files, d->tests_skipped, d->failed);
        for (size_t k = 0; k < d->packages.len; k++)
            printf("%s%s %s", k ? ", " : " (", d->packages.items[k].name, d->packages.items[k].version);
        printf("%s\n", d->packages.len ? ")" : "");
    }
    GbThresholds t;
    gb_calibration_thresholds(&cal, &t);
    printf("%zu files measured, %zu test files skipped, %zu not parsed", cal.measured, cal.tests_skipped,
           cal.failures.len);
    if (cal.excludes.len) printf(", %zu excluded by pattern", cal.excluded);
    printf("\n");
    for (int i = 0; i < GB_METRIC_COUNT; i++) {
        double thr = i < GB_N_COMPLEXITY ? t.ct[i] : t.rt[i - GB_N_COMPLEXITY];
        printf("  %-26s mean %10.4f  threshold %g\n", gb_metric_key((GbMetricId)i), cal.mean[i], thr);
    }
    printf("wrote %s\n", output);
    gb_thresholds_destroy(&t);
    gb_calibration_destroy(&cal);
    return GB_EXIT_OK;
}
