/* genebench breaks: where a model breaks along the complexity levels of `genebench levels`, from
 * the per-sample results of `genebench eval` over the level files. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "src/cli/cli.h"
#include "src/cli/commands.h"
#include "src/measure/breaks.h"
#include "src/report/report.h"

typedef struct {
    const char *output;
    double ridge;
    double size_tolerance, rc_tolerance;
} GbBreaksOptions;

static const GbCliOption gb_breaks__options[] = {
    GB_CLI_STRING("output", 'o', GbBreaksOptions, output, "DIR", NULL,
                  "directory for breaks.json, items.csv, breaks.html and the charts (SVG)"),
    GB_CLI_DOUBLE("ridge", 0, GbBreaksOptions, ridge, "L", 0, 1e6, "1",
                  "L2 penalty of the logistic model on its standardised coefficients"),
    GB_CLI_DOUBLE("size-tolerance", 0, GbBreaksOptions, size_tolerance, "F", 0, 10, "0.1",
                  "programs of similar size: the same lines and tokens within this fraction"),
    GB_CLI_DOUBLE("rc-tolerance", 0, GbBreaksOptions, rc_tolerance, "D", 0, 1, "0.01",
                  "programs of similar RC: RC within this difference"),
    GB_CLI_END,
};

static const GbCliExit gb_breaks__exits[] = {
    {0, "analysed"},
    {1, "the results or a level file could not be read, or a write failed"},
    {2, "usage error"},
    {0, NULL},
};

static const GbCliCommand gb_breaks__cmd = {
    .name = "breaks",
    .synopsis = "RESULTS.jsonl -o DIR",
    .about = "  Explain a drop along complexity levels. RESULTS.jsonl is `genebench eval -o` over the files of\n"
             "  `genebench levels` in level order (level_0.jsonl first); each results line names its file,\n"
             "  which is read again for the programs' rungs, operators, RC, tokens and lines. An item passes\n"
             "  a version when at least half of its scored samples pass. Writes to DIR:\n"
             "    breaks.json  per version pass@1 with a Wilson 95% interval, mean RC, RR, tokens, lines and\n"
             "                 rung; the same per meta.format; per item its verdicts and its breaking level\n"
             "                 (the first failed version after a passed one) with the operators applied\n"
             "                 between the two rungs; per operator how often it lies on a breaking step\n"
             "                 against how often it is applied on a step from a passed version (Wilson\n"
             "                 interval); the RC of programs that flipped the model from the original's\n"
             "                 success to failure against those that did not (Mann-Whitney U); size-matched\n"
             "                 comparisons of those steps: each failure matched with one success of the same\n"
             "                 lines and similar tokens but different RC, and with one of similar RC but\n"
             "                 different lines, with how often the failure is the higher one (Wilson\n"
             "                 interval, sign test); \"points_at\" says which the failures follow (\"size\",\n"
             "                 \"complexity\", \"both\": the rate's interval lies above 1/2; \"neither\";\n"
             "                 \"undetermined\" without matched pairs or both outcomes); and beside them\n"
             "                 logistic models of failure on RC and log tokens, and on RC and log lines\n"
             "                 (standardised, penalised), each naming its larger positive z\n"
             "    items.csv    one row per item and version: pass, rung, RC, RR, tokens, lines, operators\n"
             "    breaks.html  the curves, the operator table and per task its ladder with the diff of the\n"
             "                 breaking rung; curve_level.svg, curve_rc.svg, curve_tokens.svg the charts\n",
    .options = gb_breaks__options,
    .min_args = 1,
    .max_args = 1,
    .exits = gb_breaks__exits,
};

static bool gb_breaks__write(const char *dir, const char *name, const GbStr *text)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return gb_cli_write_output("breaks", path, text);
}

static void gb_breaks__print_levels(const GbBreaksAnalysis *a)
{
    printf("%-7s %6s %8s %17s %8s %8s %9s %7s\n", "version", "items", "pass@1", "95% interval", "RC", "RR", "tokens",
           "lines");
    for (size_t v = 0; v < a->b->nver; v++) {
        const GbBreaksLevel *L = &a->levels[v];
        printf("%-7zu %6ld %8.4f   [%.4f, %.4f] %8.4f %8.4f %9.1f %7.1f\n", v, L->items, L->pass, L->lo, L->hi, L->rc,
               L->rr, L->tokens, L->lines);
    }
    printf("\n%-6s %8s %8s %8s %17s\n", "op", "applied", "broke", "rate", "95% interval");
    for (size_t i = 0; i < a->ops.len; i++) {
        const GbBreaksOp *op = &a->ops.items[i];
        double lo, hi, rate = op->applied ? (double)op->broke / (double)op->applied : NAN;
        gb_wilson(op->broke, op->applied, 1.96, &lo, &hi);
        printf("%-6s %8ld %8ld %8.4f   [%.4f, %.4f]\n", op->op, op->applied, op->broke, rate, lo, hi);
    }
}

static void gb_breaks__print_size(const GbBreaksAnalysis *a)
{
    const GbBreaksFlips *fl = &a->flips;
    const GbMatchedPairs *s = &a->at_size, *r = &a->at_rc;
    printf("\nsuccess->failure %zu (median RC %.4f) vs success->success %zu (median RC %.4f): U = %.1f, p = %.3g\n",
           fl->rc_fail.len, gb_breaks_median(fl->rc_fail.items, fl->rc_fail.len), fl->rc_pass.len,
           gb_breaks_median(fl->rc_pass.items, fl->rc_pass.len), a->u, a->p);
    printf("logistic on %zu steps: RC z = %.2f, log tokens z = %.2f (%s); RC z = %.2f, log lines z = %.2f (%s)\n",
           fl->y.len, a->fit_tokens.z[1], a->fit_tokens.z[2], a->fit_tokens.points, a->fit_lines.z[1],
           a->fit_lines.z[2], a->fit_lines.points);
    printf("RC at equal size: %ld of %ld failures matched with a success, the failure had the higher RC in %ld "
           "(rate %.3f [%.3f, %.3f], p = %.3g)\n",
           s->pairs, s->cases, s->higher_failed, s->rate, s->lo, s->hi, s->p);
    printf("lines at equal RC: %ld of %ld failures matched with a success, the failure had more lines in %ld "
           "(rate %.3f [%.3f, %.3f], p = %.3g)\n",
           r->pairs, r->cases, r->higher_failed, r->rate, r->lo, r->hi, r->p);
    printf("the failures follow: %s\n", a->points);
}

/* breaks.json, items.csv, the page (its part between the gb-breaks markers stands alone, so that
 * `genebench report --breaks` can show it as a panel) and the charts. */
static bool gb_breaks__write_all(const GbBreaksAnalysis *a, const char *dir)
{
    GbStr js, csv, html;
    gb_str_init(&js);
    gb_str_init(&csv);
    gb_str_init(&html);
    GbBreaksDoc doc;
    gb_breaks_doc_fill(a, &doc);
    gb_breaks_doc_write(&js, &doc);
    gb_breaks_doc_destroy(&doc);
    gb_breaks_csv(a, &csv);
    gb_str_append(&html, "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Where it breaks</title></head>"
                         "<body><h1>Where the model breaks</h1>\n" GB_REPORT_BREAKS_BEGIN "\n");
    gb_breaks_panel(a, &html);
    gb_str_append(&html, "\n" GB_REPORT_BREAKS_END "\n</body></html>\n");
    bool ok = gb_breaks__write(dir, "breaks.json", &js) && gb_breaks__write(dir, "items.csv", &csv) &&
              gb_breaks__write(dir, "breaks.html", &html);
    for (int k = 0; k < GB_BREAKS_CHARTS; k++) {
        GbStr svg;
        gb_str_init(&svg);
        gb_breaks_chart(a, k, &svg);
        ok = ok && gb_breaks__write(dir, gb_breaks_chart_names[k], &svg);
        gb_str_destroy(&svg);
    }
    gb_str_destroy(&js);
    gb_str_destroy(&csv);
    gb_str_destroy(&html);
    return ok;
}

int gb_cmd_breaks(int argc, char **argv)
{
    GbBreaksOptions o = {0};
    GbCliArgs args;
    int prc = gb_cli_parse(&gb_breaks__cmd, argc, argv, &o, &args);
    if (prc != GB_CLI_CONTINUE) return prc;
    if (!o.output) {
        fprintf(stderr, "genebench breaks: -o DIR is required\n");
        gb_cli_usage(&gb_breaks__cmd, stderr);
        return GB_EXIT_USAGE;
    }
    mkdir(o.output, 0777);
    GbBreaks b;
    GbDiag diag;
    gb_diag_init(&diag);
    bool read = gb_breaks_read(&b, args.items[0], &diag);
    for (size_t i = 0; i < diag.messages.len; i++) fprintf(stderr, "genebench breaks: %s\n", diag.messages.items[i]);
    gb_diag_destroy(&diag);
    if (!read) {
        gb_breaks_destroy(&b);
        return GB_EXIT_FAIL;
    }
    GbBreaksAnalysis a;
    GbBreaksParams params = {o.ridge, o.size_tolerance, o.rc_tolerance};
    gb_breaks_analyse(&a, &b, &params);
    gb_breaks__print_levels(&a);
    gb_breaks__print_size(&a);
    bool ok = gb_breaks__write_all(&a, o.output);
    gb_breaks_analysis_destroy(&a);
    gb_breaks_destroy(&b);
    return ok ? GB_EXIT_OK : GB_EXIT_FAIL;
}
