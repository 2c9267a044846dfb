/* genebench breaks: where a model breaks along the complexity levels of `genebench levels`, from
 * the per-sample results of `genebench eval` over the level files. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fitness/fitness.h"
#include "src/base/json_write.h"
#include "src/base/linediff.h"
#include "src/bench/record.h"
#include "src/bench/task_io.h"
#include "src/cli/cli.h"
#include "src/cli/commands.h"
#include "src/doc/eval_results.h"
#include "src/measure/drop_stats.h"
#include "src/report/report.h"

/* The chart export of the page's self-contained part (between the markers of
 * src/report/report.h): the figure's SVG as a file, or drawn on a canvas at twice its size as a
 * PNG. */
#define GB_BREAKS_SCRIPT                                                                                               \
    "function gbBreaksGet(u,n){var a=document.createElement('a');a.href=u;a.download=n;"                               \
    "document.body.appendChild(a);a.click();a.remove();}"                                                              \
    "function gbBreaksSave(b,kind){var f=b.closest('figure'),n=f.dataset.name,"                                        \
    "x=new XMLSerializer().serializeToString(f.querySelector('svg')),"                                                 \
    "u=URL.createObjectURL(new Blob([x],{type:'image/svg+xml'}));"                                                     \
    "if(kind==='svg'){gbBreaksGet(u,n+'.svg');return;}"                                                                \
    "var i=new Image();i.onload=function(){var c=document.createElement('canvas');"                                    \
    "c.width=2*i.width;c.height=2*i.height;var g=c.getContext('2d');g.fillStyle='#fff';"                               \
    "g.fillRect(0,0,c.width,c.height);g.drawImage(i,0,0,c.width,c.height);"                                            \
    "c.toBlob(function(p){gbBreaksGet(URL.createObjectURL(p),n+'.png');});};i.src=u;}"

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

/* One program of one version: what the level file says about a task. */
typedef struct {
    char *task, *format; /* owned */
    char *source;        /* owned: concatenated program */
    double rc, rr, tokens, lines;
    long rung;
    GbArray(char *) ops; /* owned codes, lineage order */
} GbBreaksProg;

/* One item: its samples per version. */
typedef struct {
    char *task, *item; /* owned */
    long *n, *c;       /* per version: scored samples, passed */
} GbBreaksItem;

typedef struct {
    size_t nver;
    GbArray(char *) files; /* owned, per version */
    GbArray(GbBreaksProg) progs;
    size_t *prog_start; /* per version: first index in progs (progs of version v are contiguous) */
    size_t *prog_count;
    GbArray(GbBreaksItem) items;
} GbBreaks;

static char *gb_breaks__format(const char *meta)
{
    const char *p = meta ? strstr(meta, "\"format\"") : NULL;
    if (!p) return gb_strdup("-");
    p = strchr(p + 8, '"');
    const char *e = p ? strchr(p + 1, '"') : NULL;
    if (!e) return gb_strdup("-");
    char *s = gb_malloc((size_t)(e - p));
    memcpy(s, p + 1, (size_t)(e - p - 1));
    s[e - p - 1] = '\0';
    return s;
}

static bool gb_breaks__load_level(GbBreaks *b, const char *file)
{
    GbBench bench;
    gb_bench_init(&bench);
    size_t bad = 0;
    if (!gb_cli_read_bench(file, &bench, "genebench breaks", &bad) || bad) {
        gb_bench_destroy(&bench);
        return false;
    }
    for (size_t t = 0; t < bench.tasks.len; t++) {
        const GbTask *task = &bench.tasks.items[t];
        GbProgram prog;
        gb_program_from_task(&prog, task);
        GbBreaksProg p = {gb_strdup(task->id),
                          gb_breaks__format(task->meta_json),
                          gb_program_concat(&prog),
                          NAN,
                          NAN,
                          NAN,
                          0,
                          0,
                          {0}};
        for (size_t m = 0; m < prog.modules.len; m++)
            p.lines += (double)gb_diff_line_count(prog.modules.items[m].source);
        gb_program_destroy(&prog);
        GbRecord r;
        GbError err;
        if (gb_record_read(task, &r, &err)) {
            p.rc = r.after.rc;
            p.rr = r.after.rr;
            p.tokens = r.after.metrics[GB_METRIC_R1];
            if (isnan(p.rc)) {
                p.rc = r.before.rc;
                p.rr = r.before.rr;
                p.tokens = r.before.metrics[GB_METRIC_R1];
            }
            p.rung = (long)r.lineage.len;
            for (size_t k = 0; k < r.lineage.len; k++) gb_array_push(&p.ops, gb_strdup(r.lineage.items[k].op));
        }
        gb_record_destroy(&r);
        gb_array_push(&b->progs, p);
    }
    gb_bench_destroy(&bench);
    return true;
}

static const GbBreaksProg *gb_breaks__prog(const GbBreaks *b, size_t v, const char *task)
{
    for (size_t i = 0; i < b->prog_count[v]; i++) {
        const GbBreaksProg *p = &b->progs.items[b->prog_start[v] + i];
        if (strcmp(p->task, task) == 0) return p;
    }
    return NULL;
}

static bool gb_breaks__read(GbBreaks *b, const char *path)
{
    GbError err;
    size_t len;
    char *text = gb_read_file(path, &len, &err);
    if (!text) {
        fprintf(stderr, "genebench breaks: %s\n", err.msg);
        return false;
    }
    bool ok = true;
    long line_no = 0;
    for (char *line = text; ok && *line;) {
        char *nl = strchr(line, '\n');
        size_t n = nl ? (size_t)(nl - line) : strlen(line);
        line_no++;
        if (n > 0) {
            GbEvalResult r;
            if (!gb_eval_result_parse(line, n, &r, &err)) {
                fprintf(stderr, "genebench breaks: %s:%ld: %s\n", path, line_no, err.msg);
                ok = false;
                break;
            }
            size_t v = (size_t)r.version;
            while (b->files.len <= v) gb_array_push(&b->files, NULL);
            if (!b->files.items[v]) b->files.items[v] = gb_strdup(r.file);
            GbBreaksItem *it = NULL;
            for (size_t i = 0; i < b->items.len && !it; i++)
                if (strcmp(b->items.items[i].task, r.task) == 0 && strcmp(b->items.items[i].item, r.item) == 0)
                    it = &b->items.items[i];
            if (!it) {
                GbBreaksItem ni = {gb_strdup(r.task), gb_strdup(r.item), gb_malloc(64 * sizeof(long)),
                                   gb_malloc(64 * sizeof(long))};
                memset(ni.n, 0, 64 * sizeof(long));
                memset(ni.c, 0, 64 * sizeof(long));
                gb_array_push(&b->items, ni);
                it = &b->items.items[b->items.len - 1];
            }
            if (v >= 64) {
                fprintf(stderr, "genebench breaks: %s:%ld: more than 64 versions\n", path, line_no);
                ok = false;
            } else if (gb_verdict_scored(r.verdict)) {
                it->n[v]++;
                it->c[v] += r.verdict == GB_V_PASS;
            }
            gb_eval_result_destroy(&r);
        }
        line = nl ? nl + 1 : line + n;
    }
    free(text);
    b->nver = b->files.len;
    b->prog_start = gb_malloc((b->nver + 1) * sizeof *b->prog_start);
    b->prog_count = gb_malloc((b->nver + 1) * sizeof *b->prog_count);
    for (size_t v = 0; ok && v < b->nver; v++) {
        b->prog_start[v] = b->progs.len;
        if (!b->files.items[v]) {
            fprintf(stderr, "genebench breaks: %s: no result of version %zu\n", path, v);
            ok = false;
            break;
        }
        ok = gb_breaks__load_level(b, b->files.items[v]);
        b->prog_count[v] = b->progs.len - b->prog_start[v];
    }
    return ok;
}

static void gb_breaks__destroy(GbBreaks *b)
{
    for (size_t i = 0; i < b->files.len; i++) free(b->files.items[i]);
    gb_array_free(&b->files);
    for (size_t i = 0; i < b->progs.len; i++) {
        GbBreaksProg *p = &b->progs.items[i];
        free(p->task);
        free(p->format);
        free(p->source);
        for (size_t k = 0; k < p->ops.len; k++) free(p->ops.items[k]);
        gb_array_free(&p->ops);
    }
    gb_array_free(&b->progs);
    for (size_t i = 0; i < b->items.len; i++) {
        free(b->items.items[i].task);
        free(b->items.items[i].item);
        free(b->items.items[i].n);
        free(b->items.items[i].c);
    }
    gb_array_free(&b->items);
    free(b->prog_start);
    free(b->prog_count);
}

/* Pass of item i at version v: 1, 0, or -1 when it has no scored sample. */
static int gb_breaks__pass(const GbBreaksItem *it, size_t v)
{
    if (!it->n[v]) return -1;
    return 2 * it->c[v] >= it->n[v];
}

/* Per version (and format, NULL: all): pass@1 and its interval, means of the programs. */
typedef struct {
    long items, passed;
    double pass, lo, hi, rc, rr, tokens, lines, rung;
} GbBreaksLevel;

static GbBreaksLevel gb_breaks__level(const GbBreaks *b, size_t v, const char *format)
{
    GbBreaksLevel L = {0};
    double sum_p = 0;
    for (size_t i = 0; i < b->items.len; i++) {
        const GbBreaksItem *it = &b->items.items[i];
        const GbBreaksProg *p = gb_breaks__prog(b, v, it->task);
        if (!it->n[v] || !p || (format && strcmp(p->format, format) != 0)) continue;
        L.items++;
        sum_p += (double)it->c[v] / (double)it->n[v];
        L.passed += gb_breaks__pass(it, v) == 1;
        L.rc += p->rc;
        L.rr += p->rr;
        L.tokens += p->tokens;
        L.lines += p->lines;
        L.rung += (double)p->rung;
    }
    double n = L.items ? (double)L.items : NAN;
    L.pass = sum_p / n;
    gb_wilson((long)llround(sum_p), L.items, 1.96, &L.lo, &L.hi);
    L.rc /= n;
    L.rr /= n;
    L.tokens /= n;
    L.lines /= n;
    L.rung /= n;
    return L;
}

static void gb_breaks__level_json(GbStr *o, const GbBreaksLevel *L, size_t v, const char *file)
{
    bool f = true;
    gb_str_append(o, "{");
    gb_json_key(o, "version", &f);
    gb_json_integer(o, (long long)v);
    if (file) {
        gb_json_key(o, "file", &f);
        gb_json_string(o, file);
    }
    gb_json_key(o, "items", &f);
    gb_json_integer(o, L->items);
    gb_json_key(o, "pass_at_1", &f);
    gb_json_number(o, L->pass);
    gb_json_key(o, "ci95", &f);
    gb_str_append(o, "[");
    gb_json_number(o, L->lo);
    gb_str_append(o, ", ");
    gb_json_number(o, L->hi);
    gb_str_append(o, "]");
    const char *keys[] = {"mean_rc", "mean_rr", "mean_tokens", "mean_lines", "mean_rung"};
    double vals[] = {L->rc, L->rr, L->tokens, L->lines, L->rung};
    for (int k = 0; k < 5; k++) {
        gb_json_key(o, keys[k], &f);
        gb_json_number(o, vals[k]);
    }
    gb_str_append(o, "}");
}

/* Operators applied between the rungs of two versions' programs (the later's lineage past the
 * earlier's rung). */
static void gb_breaks__step_ops(const GbBreaksProg *a, const GbBreaksProg *b, GbStr *out, bool *first)
{
    for (long k = a->rung; k < (long)b->ops.len; k++) {
        gb_str_append(out, *first ? "" : "+");
        *first = false;
        gb_str_append(out, b->ops.items[k]);
    }
}

/* Per operator: applied on steps from a passed version, and on breaking steps. */
typedef struct {
    char *op; /* borrowed */
    long applied, broke;
} GbBreaksOp;

typedef GbArray(GbBreaksOp) GbBreaksOps;

static GbBreaksOp *gb_breaks__op(GbBreaksOps *ops, char *code)
{
    for (size_t i = 0; i < ops->len; i++)
        if (strcmp(ops->items[i].op, code) == 0) return &ops->items[i];
    GbBreaksOp n = {code, 0, 0};
    gb_array_push(ops, n);
    return &ops->items[ops->len - 1];
}

static int gb_breaks__op_cmp(const void *x, const void *y)
{
    const GbBreaksOp *a = x, *b = y;
    double ra = a->applied ? (double)a->broke / (double)a->applied : 0;
    double rb = b->applied ? (double)b->broke / (double)b->applied : 0;
    if (ra != rb) return ra < rb ? 1 : -1;
    if (a->broke != b->broke) return a->broke < b->broke ? 1 : -1;
    return strcmp(a->op, b->op);
}

/* A chart of pass@1 (with its interval) against x per version, as standalone SVG. */
static void gb_breaks__svg(GbStr *o, const char *xlabel, const double *x, const GbBreaksLevel *L, size_t n)
{
    double w = 420, h = 260, ml = 50, mb = 40, mt = 20, mr = 20;
    double xmin = INFINITY, xmax = -INFINITY;
    for (size_t i = 0; i < n; i++)
        if (isfinite(x[i])) {
            xmin = fmin(xmin, x[i]);
            xmax = fmax(xmax, x[i]);
        }
    if (!(xmax > xmin)) {
        xmin = isfinite(xmin) ? xmin - 1 : 0;
        xmax = xmin + 2;
    }
    gb_str_appendf(o,
                   "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
                   "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"11\">"
                   "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>",
                   w, h, w, h);
    double pw = w - ml - mr, ph = h - mt - mb;
    gb_str_appendf(o, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"black\"/>", ml, mt + ph, ml + pw,
                   mt + ph);
    gb_str_appendf(o, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"black\"/>", ml, mt, ml, mt + ph);
    for (int t = 0; t <= 4; t++) {
        double y = mt + ph - ph * t / 4.0;
        gb_str_appendf(o, "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%.2f</text>", ml - 4, y + 4, t / 4.0);
        double xv = xmin + (xmax - xmin) * t / 4.0;
        gb_str_appendf(o, "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%.3g</text>", ml + pw * t / 4.0,
                       mt + ph + 14, xv);
    }
    gb_str_appendf(o, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">", ml + pw / 2, h - 6);
    gb_html_escape(o, xlabel, strlen(xlabel));
    gb_str_appendf(o,
                   "</text><text x=\"12\" y=\"%.0f\" transform=\"rotate(-90 12 %.0f)\" "
                   "text-anchor=\"middle\">pass@1</text>",
                   mt + ph / 2, mt + ph / 2);
    GbStr path;
    gb_str_init(&path);
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(x[i]) || !L[i].items) continue;
        double px = ml + pw * (x[i] - xmin) / (xmax - xmin);
        double py = mt + ph * (1 - L[i].pass), plo = mt + ph * (1 - L[i].lo), phi = mt + ph * (1 - L[i].hi);
        gb_str_appendf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#888\"/>", px, plo, px, phi);
        gb_str_appendf(o,
                       "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"#1f77b4\"><title>version %zu: %.3f [%.3f, "
                       "%.3f]</title></circle>",
                       px, py, i, L[i].pass, L[i].lo, L[i].hi);
        gb_str_appendf(&path, "%s%.1f,%.1f", path.len ? " L" : "M", px, py);
    }
    if (path.len) gb_str_appendf(o, "<path d=\"%s\" fill=\"none\" stroke=\"#1f77b4\"/>", path.data);
    gb_str_destroy(&path);
    gb_str_append(o, "</svg>\n");
}

static bool gb_breaks__write(const char *dir, const char *name, const GbStr *text)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return gb_cli_write_output("breaks", path, text);
}

/* The breaking version of an item (0: none). */
static size_t gb_breaks__breaking(const GbBreaksItem *it, size_t nver)
{
    for (size_t v = 1; v < nver; v++)
        if (gb_breaks__pass(it, v) == 0 && gb_breaks__pass(it, v - 1) == 1) return v;
    return 0;
}

/* What failure after the original's success follows: the transitions of every item that passed
 * version 0, one per distinct rung. */
typedef struct {
    GbArray(double) d_rc, d_tok, lines, log_lines, rc_fail, rc_pass;
    GbArray(int) y;
} GbBreaksFlips;

static void gb_breaks__flips(const GbBreaks *b, GbBreaksFlips *fl)
{
    memset(fl, 0, sizeof *fl);
    for (size_t i = 0; i < b->items.len; i++) {
        const GbBreaksItem *it = &b->items.items[i];
        const GbBreaksProg *p0 = gb_breaks__prog(b, 0, it->task);
        if (gb_breaks__pass(it, 0) != 1 || !p0) continue;
        long last_rung = p0->rung;
        for (size_t v = 1; v < b->nver; v++) {
            const GbBreaksProg *p = gb_breaks__prog(b, v, it->task);
            int pass = gb_breaks__pass(it, v);
            if (!p || pass < 0 || p->rung == last_rung) continue;
            last_rung = p->rung;
            gb_array_push(&fl->y, !pass);
            /* Levels, not gains over the original: a model's limits are on the program it reads. */
            gb_array_push(&fl->d_rc, p->rc);
            gb_array_push(&fl->d_tok, log(p->tokens));
            gb_array_push(&fl->lines, p->lines);
            gb_array_push(&fl->log_lines, log(p->lines));
            if (pass)
                gb_array_push(&fl->rc_pass, p->rc);
            else
                gb_array_push(&fl->rc_fail, p->rc);
        }
    }
}

static double gb_breaks__median(const double *x, size_t n)
{
    if (!n) return NAN;
    double *s = gb_malloc(n * sizeof *s);
    memcpy(s, x, n * sizeof *s);
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && s[j - 1] > s[j]; j--) {
            double t = s[j];
            s[j] = s[j - 1];
            s[j - 1] = t;
        }
    double m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    free(s);
    return m;
}

/* AUC of x for telling failures (y = 1) from successes: U / (n1 n0). */
static double gb_breaks__auc(const double *x, const int *y, size_t n)
{
    GbArray(double) a = {0}, c = {0};
    for (size_t i = 0; i < n; i++) {
        if (y[i])
            gb_array_push(&a, x[i]);
        else
            gb_array_push(&c, x[i]);
    }
    double u, p, auc = NAN;
    gb_mann_whitney(a.items, a.len, c.items, c.len, &u, &p);
    if (a.len && c.len) auc = u / ((double)a.len * (double)c.len);
    gb_array_free(&a);
    gb_array_free(&c);
    return auc;
}

/* One logistic fit of failure on RC and a size measure. */
typedef struct {
    double beta[3], se[3], z[3];
    const char *points; /* static: the larger positive z's measure, "neither" or "undetermined" */
} GbBreaksFit;

static GbBreaksFit gb_breaks__fit(const GbBreaksFlips *fl, const double *size, double ridge, bool both)
{
    GbBreaksFit r;
    bool fitted = gb_logistic2(fl->d_rc.items, size, fl->y.items, fl->y.len, ridge, r.beta, r.se);
    for (int k = 0; k < 3; k++) r.z[k] = r.beta[k] / r.se[k];
    r.points = !fitted || !both || !(isfinite(r.z[1]) && isfinite(r.z[2])) ? "undetermined"
               : fmax(r.z[1], r.z[2]) <= 0                                 ? "neither"
               : r.z[2] > r.z[1]                                           ? "size"
                                                                           : "complexity";
    return r;
}

static void gb_breaks__fit_json(GbStr *js, const GbBreaksFit *r, const char *size_name)
{
    const char *names[3] = {"intercept", "rc", size_name};
    bool f = true;
    gb_str_append(js, "{");
    for (int k = 0; k < 3; k++) {
        gb_json_key(js, names[k], &f);
        bool g = true;
        gb_str_append(js, "{");
        gb_json_key(js, "beta", &g);
        gb_json_number(js, r->beta[k]);
        gb_json_key(js, "se", &g);
        gb_json_number(js, r->se[k]);
        gb_json_key(js, "z", &g);
        gb_json_number(js, r->z[k]);
        gb_str_append(js, "}");
    }
    gb_json_key(js, "points_at", &f);
    gb_json_string(js, r->points);
    gb_str_append(js, "}");
}

static void gb_breaks__pairs_json(GbStr *js, const GbMatchedPairs *m)
{
    bool f = true;
    gb_str_append(js, "{");
    gb_json_key(js, "failures", &f);
    gb_json_integer(js, m->cases);
    gb_json_key(js, "pairs", &f);
    gb_json_integer(js, m->pairs);
    gb_json_key(js, "higher_failed", &f);
    gb_json_integer(js, m->higher_failed);
    gb_json_key(js, "rate", &f);
    gb_json_number(js, m->rate);
    gb_json_key(js, "ci95", &f);
    gb_str_append(js, "[");
    gb_json_number(js, m->lo);
    gb_str_append(js, ", ");
    gb_json_number(js, m->hi);
    gb_str_append(js, "]");
    gb_json_key(js, "p", &f);
    gb_json_number(js, m->p);
    gb_json_key(js, "mean_gap", &f);
    gb_json_number(js, m->mean_gap);
    gb_str_append(js, "}");
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
    memset(&b, 0, sizeof b);
    if (!gb_breaks__read(&b, args.items[0])) {
        gb_breaks__destroy(&b);
        return GB_EXIT_FAIL;
    }
    size_t nv = b.nver;
    GbBreaksLevel *L = gb_malloc((nv + 1) * sizeof *L);
    double *xs[3];
    for (int k = 0; k < 3; k++) xs[k] = gb_malloc((nv + 1) * sizeof *xs[k]);
    for (size_t v = 0; v < nv; v++) {
        L[v] = gb_breaks__level(&b, v, NULL);
        xs[0][v] = (double)v;
        xs[1][v] = L[v].rc;
        xs[2][v] = L[v].tokens;
    }
    GbStr js, csv, html, svg[3];
    gb_str_init(&js);
    gb_str_init(&csv);
    gb_str_init(&html);
    const char *svg_names[3] = {"curve_level.svg", "curve_rc.svg", "curve_tokens.svg"};
    const char *svg_x[3] = {"level (version)", "mean RC", "mean tokens"};
    for (int k = 0; k < 3; k++) {
        gb_str_init(&svg[k]);
        gb_breaks__svg(&svg[k], svg_x[k], xs[k], L, nv);
    }
    printf("%-7s %6s %8s %17s %8s %8s %9s %7s\n", "version", "items", "pass@1", "95% interval", "RC", "RR", "tokens",
           "lines");
    gb_str_append(&js, "{\"levels\": [");
    for (size_t v = 0; v < nv; v++) {
        gb_str_append(&js, v ? ",\n  " : "\n  ");
        gb_breaks__level_json(&js, &L[v], v, b.files.items[v]);
        printf("%-7zu %6ld %8.4f   [%.4f, %.4f] %8.4f %8.4f %9.1f %7.1f\n", v, L[v].items, L[v].pass, L[v].lo, L[v].hi,
               L[v].rc, L[v].rr, L[v].tokens, L[v].lines);
    }
    /* Per source benchmark. */
    GbArray(char *) formats = {0};
    for (size_t i = 0; i < b.prog_count[0]; i++) {
        char *f = b.progs.items[b.prog_start[0] + i].format;
        bool seen = false;
        for (size_t k = 0; k < formats.len && !seen; k++) seen = strcmp(formats.items[k], f) == 0;
        if (!seen) gb_array_push(&formats, f);
    }
    gb_str_append(&js, "\n],\n\"by_format\": {");
    for (size_t k = 0; k < formats.len; k++) {
        gb_str_append(&js, k ? ",\n  " : "\n  ");
        gb_json_string(&js, formats.items[k]);
        gb_str_append(&js, ": [");
        for (size_t v = 0; v < nv; v++) {
            GbBreaksLevel F = gb_breaks__level(&b, v, formats.items[k]);
            if (v) gb_str_append(&js, ", ");
            gb_breaks__level_json(&js, &F, v, NULL);
        }
        gb_str_append(&js, "]");
    }
    /* Items, operators, the tidy table. */
    GbBreaksOps ops = {0};
    gb_str_append(&csv, "task,item,format,version,rung,pass,samples,passed,rc,rr,tokens,lines,operators\n");
    gb_str_append(&js, "\n},\n\"items\": [");
    for (size_t i = 0; i < b.items.len; i++) {
        const GbBreaksItem *it = &b.items.items[i];
        size_t bv = gb_breaks__breaking(it, nv);
        bool f = true;
        gb_str_append(&js, i ? ",\n  {" : "\n  {");
        gb_json_key(&js, "task", &f);
        gb_json_string(&js, it->task);
        gb_json_key(&js, "item", &f);
        gb_json_string(&js, it->item);
        gb_json_key(&js, "verdicts", &f);
        GbStr vs;
        gb_str_init(&vs);
        for (size_t v = 0; v < nv; v++) {
            int p = gb_breaks__pass(it, v);
            gb_str_append(&vs, p < 0 ? "." : p ? "P" : "F");
            const GbBreaksProg *pr = gb_breaks__prog(&b, v, it->task);
            if (!pr) continue;
            GbStr opl;
            gb_str_init(&opl);
            for (size_t k = 0; k < pr->ops.len; k++) gb_str_appendf(&opl, "%s%s", k ? "+" : "", pr->ops.items[k]);
            gb_str_appendf(&csv, "%s,%s,%s,%zu,%ld,%s,%ld,%ld,", it->task, it->item, pr->format, v, pr->rung,
                           p < 0 ? ""
                           : p   ? "1"
                                 : "0",
                           it->n[v], it->c[v]);
            gb_json_number(&csv, pr->rc);
            gb_str_append(&csv, ",");
            gb_json_number(&csv, pr->rr);
            gb_str_append(&csv, ",");
            gb_json_number(&csv, pr->tokens);
            gb_str_appendf(&csv, ",%.0f,%s\n", pr->lines, opl.len ? opl.data : "");
            gb_str_destroy(&opl);
            if (v == 0 || gb_breaks__pass(it, v - 1) != 1 || p < 0) continue;
            const GbBreaksProg *pp = gb_breaks__prog(&b, v - 1, it->task);
            if (!pp) continue;
            /* Each operator once per step. */
            for (long k = pp->rung; k < (long)pr->ops.len; k++) {
                bool dup = false;
                for (long j = pp->rung; j < k && !dup; j++) dup = strcmp(pr->ops.items[j], pr->ops.items[k]) == 0;
                if (dup) continue;
                GbBreaksOp *op = gb_breaks__op(&ops, pr->ops.items[k]);
                op->applied++;
                op->broke += p == 0;
            }
        }
        gb_json_string(&js, vs.data);
        gb_str_destroy(&vs);
        gb_json_key(&js, "breaking_version", &f);
        if (bv) {
            const GbBreaksProg *pa = gb_breaks__prog(&b, bv - 1, it->task), *pb = gb_breaks__prog(&b, bv, it->task);
            gb_json_integer(&js, (long long)bv);
            gb_json_key(&js, "rungs", &f);
            gb_str_appendf(&js, "[%ld, %ld]", pa ? pa->rung : -1, pb ? pb->rung : -1);
            gb_json_key(&js, "operators", &f);
            GbStr s;
            gb_str_init(&s);
            bool first = true;
            if (pa && pb) gb_breaks__step_ops(pa, pb, &s, &first);
            gb_json_string(&js, s.len ? s.data : "");
            gb_str_destroy(&s);
        } else {
            gb_str_append(&js, "null");
        }
        gb_str_append(&js, "}");
    }
    qsort(ops.items, ops.len, sizeof *ops.items, gb_breaks__op_cmp);
    gb_str_append(&js, "\n],\n\"operators\": [");
    printf("\n%-6s %8s %8s %8s %17s\n", "op", "applied", "broke", "rate", "95% interval");
    for (size_t i = 0; i < ops.len; i++) {
        double lo, hi, rate = ops.items[i].applied ? (double)ops.items[i].broke / (double)ops.items[i].applied : NAN;
        gb_wilson(ops.items[i].broke, ops.items[i].applied, 1.96, &lo, &hi);
        bool f = true;
        gb_str_append(&js, i ? ",\n  {" : "\n  {");
        gb_json_key(&js, "op", &f);
        gb_json_string(&js, ops.items[i].op);
        gb_json_key(&js, "applied", &f);
        gb_json_integer(&js, ops.items[i].applied);
        gb_json_key(&js, "breaking", &f);
        gb_json_integer(&js, ops.items[i].broke);
        gb_json_key(&js, "rate", &f);
        gb_json_number(&js, rate);
        gb_json_key(&js, "ci95", &f);
        gb_str_append(&js, "[");
        gb_json_number(&js, lo);
        gb_str_append(&js, ", ");
        gb_json_number(&js, hi);
        gb_str_append(&js, "]}");
        printf("%-6s %8ld %8ld %8.4f   [%.4f, %.4f]\n", ops.items[i].op, ops.items[i].applied, ops.items[i].broke, rate,
               lo, hi);
    }
    /* Success -> failure against success -> success; complexity against size. */
    GbBreaksFlips fl;
    gb_breaks__flips(&b, &fl);
    double u, p;
    gb_mann_whitney(fl.rc_fail.items, fl.rc_fail.len, fl.rc_pass.items, fl.rc_pass.len, &u, &p);
    bool both = fl.rc_fail.len && fl.rc_pass.len;
    GbBreaksFit fit_tok = gb_breaks__fit(&fl, fl.d_tok.items, o.ridge, both);
    GbBreaksFit fit_lines = gb_breaks__fit(&fl, fl.log_lines.items, o.ridge, both);
    double auc_rc = gb_breaks__auc(fl.d_rc.items, fl.y.items, fl.y.len);
    double auc_tok = gb_breaks__auc(fl.d_tok.items, fl.y.items, fl.y.len);
    double auc_lines = gb_breaks__auc(fl.lines.items, fl.y.items, fl.y.len);
    /* Size held: the same lines and tokens within the tolerance (in logs); RC held: RC within its. */
    GbMatchedPairs at_size, at_rc;
    const double *size_keys[] = {fl.lines.items, fl.d_tok.items};
    double size_tol[] = {0, log1p(o.size_tolerance)};
    gb_matched_pairs(fl.d_rc.items, size_keys, size_tol, 2, fl.y.items, fl.y.len, &at_size);
    const double *rc_keys[] = {fl.d_rc.items};
    double rc_tol[] = {o.rc_tolerance};
    gb_matched_pairs(fl.lines.items, rc_keys, rc_tol, 1, fl.y.items, fl.y.len, &at_rc);
    bool rc_shows = at_size.pairs && at_size.lo > 0.5, size_shows = at_rc.pairs && at_rc.lo > 0.5;
    const char *points = !both                             ? "undetermined"
                         : rc_shows && size_shows          ? "both"
                         : size_shows                      ? "size"
                         : rc_shows                        ? "complexity"
                         : at_size.pairs + at_rc.pairs > 0 ? "neither"
                                                           : "undetermined";
    gb_str_append(&js, "\n],\n\"rank_test\": {");
    bool f = true;
    gb_json_key(&js, "success_to_failure", &f);
    gb_json_integer(&js, (long long)fl.rc_fail.len);
    gb_json_key(&js, "success_to_success", &f);
    gb_json_integer(&js, (long long)fl.rc_pass.len);
    gb_json_key(&js, "median_rc_failure", &f);
    gb_json_number(&js, gb_breaks__median(fl.rc_fail.items, fl.rc_fail.len));
    gb_json_key(&js, "median_rc_success", &f);
    gb_json_number(&js, gb_breaks__median(fl.rc_pass.items, fl.rc_pass.len));
    gb_json_key(&js, "u", &f);
    gb_json_number(&js, u);
    gb_json_key(&js, "p", &f);
    gb_json_number(&js, p);
    gb_str_append(&js, "},\n\"complexity_vs_size\": {");
    f = true;
    gb_json_key(&js, "n", &f);
    gb_json_integer(&js, (long long)fl.y.len);
    gb_json_key(&js, "ridge", &f);
    gb_json_number(&js, o.ridge);
    gb_json_key(&js, "logistic_tokens", &f);
    gb_breaks__fit_json(&js, &fit_tok, "log_tokens");
    gb_json_key(&js, "logistic_lines", &f);
    gb_breaks__fit_json(&js, &fit_lines, "log_lines");
    gb_json_key(&js, "auc_rc", &f);
    gb_json_number(&js, auc_rc);
    gb_json_key(&js, "auc_log_tokens", &f);
    gb_json_number(&js, auc_tok);
    gb_json_key(&js, "auc_lines", &f);
    gb_json_number(&js, auc_lines);
    gb_json_key(&js, "size_tolerance", &f);
    gb_json_number(&js, o.size_tolerance);
    gb_json_key(&js, "rc_tolerance", &f);
    gb_json_number(&js, o.rc_tolerance);
    gb_json_key(&js, "rc_at_equal_size", &f);
    gb_breaks__pairs_json(&js, &at_size);
    gb_json_key(&js, "lines_at_equal_rc", &f);
    gb_breaks__pairs_json(&js, &at_rc);
    gb_json_key(&js, "points_at", &f);
    gb_json_string(&js, points);
    gb_str_append(&js, "}}\n");
    printf("\nsuccess->failure %zu (median RC %.4f) vs success->success %zu (median RC %.4f): U = %.1f, p = %.3g\n",
           fl.rc_fail.len, gb_breaks__median(fl.rc_fail.items, fl.rc_fail.len), fl.rc_pass.len,
           gb_breaks__median(fl.rc_pass.items, fl.rc_pass.len), u, p);
    printf("logistic on %zu steps: RC z = %.2f, log tokens z = %.2f (%s); RC z = %.2f, log lines z = %.2f (%s)\n",
           fl.y.len, fit_tok.z[1], fit_tok.z[2], fit_tok.points, fit_lines.z[1], fit_lines.z[2], fit_lines.points);
    printf("RC at equal size: %ld of %ld failures matched with a success, the failure had the higher RC in %ld "
           "(rate %.3f [%.3f, %.3f], p = %.3g)\n",
           at_size.pairs, at_size.cases, at_size.higher_failed, at_size.rate, at_size.lo, at_size.hi, at_size.p);
    printf("lines at equal RC: %ld of %ld failures matched with a success, the failure had more lines in %ld "
           "(rate %.3f [%.3f, %.3f], p = %.3g)\n",
           at_rc.pairs, at_rc.cases, at_rc.higher_failed, at_rc.rate, at_rc.lo, at_rc.hi, at_rc.p);
    printf("the failures follow: %s\n", points);

    /* The page. */
    /* The page. Its part between the gb-breaks markers stands alone (scoped style, charts with their
     * export buttons, the script), so that `genebench report --breaks` can show it as a panel. */
    gb_str_append(&html,
                  "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Where it breaks</title></head>"
                  "<body><h1>Where the model breaks</h1>\n" GB_REPORT_BREAKS_BEGIN "\n<div class=\"gb-breaks\"><style>"
                  ".gb-breaks{font-family:sans-serif}.gb-breaks table{border-collapse:collapse}.gb-breaks td,"
                  ".gb-breaks th{border:1px solid #ccc;padding:2px 6px;font-size:12px}.gb-breaks .diff td{"
                  "font-family:monospace;white-space:pre}.gb-breaks .del{background:#fdd}.gb-breaks .ins{"
                  "background:#dfd}.gb-breaks .chg{background:#ffd}.gb-breaks .P{color:green}.gb-breaks .F{"
                  "color:red}.gb-breaks figure{display:inline-block;margin:0 1em 1em 0}</style><h2>pass@1 "
                  "against level, RC and tokens (95% Wilson intervals)</h2><div class=\"curves\">");
    for (int k = 0; k < 3; k++) {
        gb_str_appendf(&html, "<figure data-name=\"%.*s\">", (int)(strlen(svg_names[k]) - 4), svg_names[k]);
        gb_str_append(&html, svg[k].data);
        gb_str_append(&html, "<figcaption><button type=\"button\" onclick=\"gbBreaksSave(this,'svg')\">SVG</button> "
                             "<button type=\"button\" onclick=\"gbBreaksSave(this,'png')\">PNG</button>"
                             "</figcaption></figure>");
    }
    gb_str_append(&html, "</div><h2>Per level</h2><table><tr><th>version</th><th>file</th><th>items</th><th>pass@1</"
                         "th><th>95%</th><th>RC</th><th>RR</th><th>tokens</th><th>lines</th><th>rung</th></tr>");
    for (size_t v = 0; v < nv; v++) {
        gb_str_appendf(&html, "<tr><td>%zu</td><td>", v);
        gb_html_escape(&html, b.files.items[v], strlen(b.files.items[v]));
        gb_str_appendf(&html,
                       "</td><td>%ld</td><td>%.4f</td><td>[%.4f, %.4f]</td><td>%.4f</td><td>%.4f</td><td>%.1f</"
                       "td><td>%.1f</td><td>%.2f</td></tr>",
                       L[v].items, L[v].pass, L[v].lo, L[v].hi, L[v].rc, L[v].rr, L[v].tokens, L[v].lines, L[v].rung);
    }
    gb_str_append(&html, "</table><h2>Per source benchmark (meta.format)</h2><table><tr><th>format</th>");
    for (size_t v = 0; v < nv; v++) gb_str_appendf(&html, "<th>v%zu pass@1</th>", v);
    gb_str_append(&html, "</tr>");
    for (size_t k = 0; k < formats.len; k++) {
        gb_str_append(&html, "<tr><td>");
        gb_html_escape(&html, formats.items[k], strlen(formats.items[k]));
        gb_str_append(&html, "</td>");
        for (size_t v = 0; v < nv; v++) {
            GbBreaksLevel F = gb_breaks__level(&b, v, formats.items[k]);
            gb_str_appendf(&html, "<td>%.3f (%ld)</td>", F.pass, F.items);
        }
        gb_str_append(&html, "</tr>");
    }
    gb_str_append(&html, "</table><h2>Breaking operators</h2><p>applied: steps from a passed level on which the "
                         "operator was applied; broke: of those, steps after which the item failed.</p><table><tr>"
                         "<th>op</th><th>applied</th><th>broke</th><th>rate</th><th>95%</th></tr>");
    for (size_t i = 0; i < ops.len; i++) {
        double lo, hi;
        gb_wilson(ops.items[i].broke, ops.items[i].applied, 1.96, &lo, &hi);
        gb_str_appendf(&html, "<tr><td>%s</td><td>%ld</td><td>%ld</td><td>%.3f</td><td>[%.3f, %.3f]</td></tr>",
                       ops.items[i].op, ops.items[i].applied, ops.items[i].broke,
                       ops.items[i].applied ? (double)ops.items[i].broke / (double)ops.items[i].applied : NAN, lo, hi);
    }
    gb_str_appendf(&html,
                   "</table><h2>Complexity or size</h2><p>success&rarr;failure: %zu programs, median RC %.4f; "
                   "success&rarr;success: %zu, median RC %.4f; Mann-Whitney U = %.1f, p = %.3g.</p>"
                   "<p>Size-matched comparisons (each failure matched with one success): with the same lines and "
                   "tokens within %.0f%%, %ld of %ld failures found a success of different RC, and the failure "
                   "had the higher RC in %ld (rate %.3f [%.3f, %.3f], sign test p = %.3g); with RC within %.3g, "
                   "%ld of %ld found a success of different lines, and the failure was the longer one in %ld "
                   "(rate %.3f "
                   "[%.3f, %.3f], p = %.3g). The failures follow <b>%s</b>.</p><p>Logistic models of failure "
                   "on %zu steps (beside the pairs; RC and size rise together along a ladder, so their z "
                   "values share the evidence): RC z = %.2f, log tokens z = %.2f (%s); RC z = %.2f, log lines "
                   "z = %.2f (%s).</p>",
                   fl.rc_fail.len, gb_breaks__median(fl.rc_fail.items, fl.rc_fail.len), fl.rc_pass.len,
                   gb_breaks__median(fl.rc_pass.items, fl.rc_pass.len), u, p, 100 * o.size_tolerance, at_size.pairs,
                   at_size.cases, at_size.higher_failed, at_size.rate, at_size.lo, at_size.hi, at_size.p,
                   o.rc_tolerance, at_rc.pairs, at_rc.cases, at_rc.higher_failed, at_rc.rate, at_rc.lo, at_rc.hi,
                   at_rc.p, points, fl.y.len, fit_tok.z[1], fit_tok.z[2], fit_tok.points, fit_lines.z[1],
                   fit_lines.z[2], fit_lines.points);
    gb_str_append(&html, "<h2>Ladders</h2>");
    for (size_t i = 0; i < b.items.len; i++) {
        const GbBreaksItem *it = &b.items.items[i];
        if (i && strcmp(b.items.items[i - 1].task, it->task) == 0) continue;
        gb_str_append(&html, "<h3>");
        gb_html_escape(&html, it->task, strlen(it->task));
        gb_str_append(&html, "</h3><table><tr><th>version</th><th>rung</th><th>added</th><th>RC</th><th>tokens</"
                             "th><th>lines</th><th>verdicts (items)</th></tr>");
        size_t first_break = 0, break_item = 0;
        for (size_t j = i; j < b.items.len && strcmp(b.items.items[j].task, it->task) == 0; j++) {
            size_t bv = gb_breaks__breaking(&b.items.items[j], nv);
            if (bv && (!first_break || bv < first_break)) {
                first_break = bv;
                break_item = j;
            }
        }
        for (size_t v = 0; v < nv; v++) {
            const GbBreaksProg *pr = gb_breaks__prog(&b, v, it->task),
                               *pp = v ? gb_breaks__prog(&b, v - 1, it->task) : NULL;
            if (!pr) continue;
            GbStr added;
            gb_str_init(&added);
            bool first = true;
            if (pp) gb_breaks__step_ops(pp, pr, &added, &first);
            gb_str_appendf(&html, "<tr><td>%zu</td><td>%ld</td><td>%s</td><td>%.4f</td><td>%.0f</td><td>%.0f</td><td>",
                           v, pr->rung, added.len ? added.data : "", pr->rc, pr->tokens, pr->lines);
            gb_str_destroy(&added);
            for (size_t j = i; j < b.items.len && strcmp(b.items.items[j].task, it->task) == 0; j++) {
                int ps = gb_breaks__pass(&b.items.items[j], v);
                gb_str_appendf(&html, "<span class=\"%s\">%s</span>",
                               ps < 0 ? ""
                               : ps   ? "P"
                                      : "F",
                               ps < 0 ? "."
                               : ps   ? "P"
                                      : "F");
            }
            gb_str_append(&html, "</td></tr>");
        }
        gb_str_append(&html, "</table>");
        if (first_break) {
            const GbBreaksProg *pa = gb_breaks__prog(&b, first_break - 1, it->task),
                               *pb = gb_breaks__prog(&b, first_break, it->task);
            gb_str_appendf(&html, "<p>breaking step: version %zu &rarr; %zu (item ", first_break - 1, first_break);
            gb_html_escape(&html, b.items.items[break_item].item, strlen(b.items.items[break_item].item));
            gb_str_append(&html, ")</p>");
            if (pa && pb) gb_diff_render_html(&html, pa->source, pb->source);
        }
    }
    gb_str_append(&html, "<script>" GB_BREAKS_SCRIPT "</script></div>\n" GB_REPORT_BREAKS_END "\n</body></html>\n");
    bool ok = gb_breaks__write(o.output, "breaks.json", &js) && gb_breaks__write(o.output, "items.csv", &csv) &&
              gb_breaks__write(o.output, "breaks.html", &html);
    for (int k = 0; k < 3; k++) {
        ok = ok && gb_breaks__write(o.output, svg_names[k], &svg[k]);
        gb_str_destroy(&svg[k]);
        free(xs[k]);
    }
    gb_array_free(&fl.d_rc);
    gb_array_free(&fl.d_tok);
    gb_array_free(&fl.lines);
    gb_array_free(&fl.log_lines);
    gb_array_free(&fl.rc_fail);
    gb_array_free(&fl.rc_pass);
    gb_array_free(&fl.y);
    gb_array_free(&formats);
    gb_array_free(&ops);
    gb_str_destroy(&js);
    gb_str_destroy(&csv);
    gb_str_destroy(&html);
    free(L);
    gb_breaks__destroy(&b);
    return ok ? GB_EXIT_OK : GB_EXIT_FAIL;
}
