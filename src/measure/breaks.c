#include "src/measure/breaks.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fitness/fitness.h"
#include "src/base/linediff.h"
#include "src/bench/record.h"
#include "src/doc/eval_results.h"

/* The most versions an item keeps counts for. */
#define GB_BREAKS__MAX_VERSIONS 64

/* ---- Reading the results and the levels ---- */

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

static GbBreaksProg gb_breaks__prog_of(const GbTask *task)
{
    GbProgram prog;
    gb_program_from_task(&prog, task);
    GbBreaksProg p = {
        gb_strdup(task->id), gb_breaks__format(task->meta_json), gb_program_concat(&prog), NAN, NAN, NAN, 0, 0, {0}};
    for (size_t m = 0; m < prog.modules.len; m++) p.lines += (double)gb_diff_line_count(prog.modules.items[m].source);
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
    return p;
}

static bool gb_breaks__load_level(GbBreaks *b, const char *file, GbDiag *diag)
{
    GbBench bench;
    gb_bench_init(&bench);
    size_t before = diag->messages.len;
    bool ok = gb_bench_read(file, &bench, diag) && diag->messages.len == before;
    for (size_t t = 0; ok && t < bench.tasks.len; t++)
        gb_array_push(&b->progs, gb_breaks__prog_of(&bench.tasks.items[t]));
    gb_bench_destroy(&bench);
    return ok;
}

static GbBreaksItem *gb_breaks__item(GbBreaks *b, const char *task, const char *item)
{
    for (size_t i = 0; i < b->items.len; i++)
        if (strcmp(b->items.items[i].task, task) == 0 && strcmp(b->items.items[i].item, item) == 0)
            return &b->items.items[i];
    GbBreaksItem ni = {gb_strdup(task), gb_strdup(item), gb_malloc(GB_BREAKS__MAX_VERSIONS * sizeof(long)),
                       gb_malloc(GB_BREAKS__MAX_VERSIONS * sizeof(long))};
    memset(ni.n, 0, GB_BREAKS__MAX_VERSIONS * sizeof(long));
    memset(ni.c, 0, GB_BREAKS__MAX_VERSIONS * sizeof(long));
    gb_array_push(&b->items, ni);
    return &b->items.items[b->items.len - 1];
}

/* One results line: counts its sample and remembers the file of its version. */
static bool gb_breaks__result(GbBreaks *b, const char *line, size_t n, const char *path, long line_no, GbDiag *diag)
{
    GbEvalResult r;
    GbError err;
    if (!gb_eval_result_parse(line, n, &r, &err)) {
        gb_diag_add(diag, "%s:%ld: %s", path, line_no, err.msg);
        return false;
    }
    size_t v = (size_t)r.version;
    while (b->files.len <= v) gb_array_push(&b->files, NULL);
    if (!b->files.items[v]) b->files.items[v] = gb_strdup(r.file);
    GbBreaksItem *it = gb_breaks__item(b, r.task, r.item);
    bool ok = v < GB_BREAKS__MAX_VERSIONS;
    if (!ok) {
        gb_diag_add(diag, "%s:%ld: more than 64 versions", path, line_no);
    } else if (gb_verdict_scored(r.verdict)) {
        it->n[v]++;
        it->c[v] += r.verdict == GB_V_PASS;
    }
    gb_eval_result_destroy(&r);
    return ok;
}

static bool gb_breaks__read_results(GbBreaks *b, const char *path, GbDiag *diag)
{
    GbError err;
    size_t len;
    char *text = gb_read_file(path, &len, &err);
    if (!text) {
        gb_diag_add(diag, "%s", err.msg);
        return false;
    }
    bool ok = true;
    long line_no = 0;
    for (char *line = text; ok && *line;) {
        char *nl = strchr(line, '\n');
        size_t n = nl ? (size_t)(nl - line) : strlen(line);
        line_no++;
        if (n > 0) ok = gb_breaks__result(b, line, n, path, line_no, diag);
        line = nl ? nl + 1 : line + n;
    }
    free(text);
    return ok;
}

bool gb_breaks_read(GbBreaks *b, const char *path, GbDiag *diag)
{
    memset(b, 0, sizeof *b);
    bool ok = gb_breaks__read_results(b, path, diag);
    b->nver = b->files.len;
    b->prog_start = gb_malloc((b->nver + 1) * sizeof *b->prog_start);
    b->prog_count = gb_malloc((b->nver + 1) * sizeof *b->prog_count);
    for (size_t v = 0; ok && v < b->nver; v++) {
        b->prog_start[v] = b->progs.len;
        if (!b->files.items[v]) {
            gb_diag_add(diag, "%s: no result of version %zu", path, v);
            ok = false;
            break;
        }
        ok = gb_breaks__load_level(b, b->files.items[v], diag);
        b->prog_count[v] = b->progs.len - b->prog_start[v];
    }
    return ok;
}

void gb_breaks_destroy(GbBreaks *b)
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

/* ---- Per item and per level ---- */

const GbBreaksProg *gb_breaks_prog(const GbBreaks *b, size_t v, const char *task)
{
    for (size_t i = 0; i < b->prog_count[v]; i++) {
        const GbBreaksProg *p = &b->progs.items[b->prog_start[v] + i];
        if (strcmp(p->task, task) == 0) return p;
    }
    return NULL;
}

int gb_breaks_pass(const GbBreaksItem *it, size_t v)
{
    if (!it->n[v]) return -1;
    return 2 * it->c[v] >= it->n[v];
}

size_t gb_breaks_breaking(const GbBreaksItem *it, size_t nver)
{
    for (size_t v = 1; v < nver; v++)
        if (gb_breaks_pass(it, v) == 0 && gb_breaks_pass(it, v - 1) == 1) return v;
    return 0;
}

GbBreaksLevel gb_breaks_level(const GbBreaks *b, size_t v, const char *format)
{
    GbBreaksLevel L = {0};
    double sum_p = 0;
    for (size_t i = 0; i < b->items.len; i++) {
        const GbBreaksItem *it = &b->items.items[i];
        const GbBreaksProg *p = gb_breaks_prog(b, v, it->task);
        if (!it->n[v] || !p || (format && strcmp(p->format, format) != 0)) continue;
        L.items++;
        sum_p += (double)it->c[v] / (double)it->n[v];
        L.passed += gb_breaks_pass(it, v) == 1;
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

void gb_breaks_step_ops(const GbBreaksProg *a, const GbBreaksProg *b, GbStr *out, bool *first)
{
    for (long k = a->rung; k < (long)b->ops.len; k++) {
        gb_str_append(out, *first ? "" : "+");
        *first = false;
        gb_str_append(out, b->ops.items[k]);
    }
}

double gb_breaks_median(const double *x, size_t n)
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

/* ---- Operators on breaking steps ---- */

static GbBreaksOp *gb_breaks__op(GbBreaksAnalysis *a, const char *code, size_t len)
{
    for (size_t i = 0; i < a->ops.len; i++)
        if (strlen(a->ops.items[i].op) == len && strncmp(a->ops.items[i].op, code, len) == 0) return &a->ops.items[i];
    GbBreaksOp n = {gb_strndup(code, len), 0, 0};
    gb_array_push(&a->ops, n);
    return &a->ops.items[a->ops.len - 1];
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

/* Every step from a passed version: each operator applied on it once, and whether it broke. */
static void gb_breaks__count_ops(GbBreaksAnalysis *a)
{
    const GbBreaks *b = a->b;
    for (size_t i = 0; i < b->items.len; i++) {
        const GbBreaksItem *it = &b->items.items[i];
        for (size_t v = 1; v < b->nver; v++) {
            int p = gb_breaks_pass(it, v);
            const GbBreaksProg *pr = gb_breaks_prog(b, v, it->task), *pp = gb_breaks_prog(b, v - 1, it->task);
            if (!pr || gb_breaks_pass(it, v - 1) != 1 || p < 0 || !pp) continue;
            /* each operator of the step once; a stacked rung ("A2+A7") names several */
            GbStr seen = {0};
            gb_str_append(&seen, "+");
            for (long k = pp->rung; k < (long)pr->ops.len; k++)
                for (const char *c = pr->ops.items[k]; *c;) {
                    size_t len = strcspn(c, "+");
                    char *key = gb_asprintf("+%.*s+", (int)len, c);
                    if (!strstr(seen.data, key)) {
                        gb_str_appendf(&seen, "%.*s+", (int)len, c);
                        GbBreaksOp *op = gb_breaks__op(a, c, len);
                        op->applied++;
                        op->broke += p == 0;
                    }
                    free(key);
                    c += len + (c[len] == '+');
                }
            free(gb_str_take(&seen));
        }
    }
    qsort(a->ops.items, a->ops.len, sizeof *a->ops.items, gb_breaks__op_cmp);
}

/* ---- Flips from the original's success: complexity against size ---- */

static void gb_breaks__flips(const GbBreaks *b, GbBreaksFlips *fl)
{
    memset(fl, 0, sizeof *fl);
    for (size_t i = 0; i < b->items.len; i++) {
        const GbBreaksItem *it = &b->items.items[i];
        const GbBreaksProg *p0 = gb_breaks_prog(b, 0, it->task);
        if (gb_breaks_pass(it, 0) != 1 || !p0) continue;
        long last_rung = p0->rung;
        for (size_t v = 1; v < b->nver; v++) {
            const GbBreaksProg *p = gb_breaks_prog(b, v, it->task);
            int pass = gb_breaks_pass(it, v);
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

/* The rank test, the fits, the AUCs and the size-matched pairs of the flips. */
static void gb_breaks__explain(GbBreaksAnalysis *a)
{
    GbBreaksFlips *fl = &a->flips;
    gb_breaks__flips(a->b, fl);
    gb_mann_whitney(fl->rc_fail.items, fl->rc_fail.len, fl->rc_pass.items, fl->rc_pass.len, &a->u, &a->p);
    a->both = fl->rc_fail.len && fl->rc_pass.len;
    a->fit_tokens = gb_breaks__fit(fl, fl->d_tok.items, a->params.ridge, a->both);
    a->fit_lines = gb_breaks__fit(fl, fl->log_lines.items, a->params.ridge, a->both);
    a->auc_rc = gb_breaks__auc(fl->d_rc.items, fl->y.items, fl->y.len);
    a->auc_tokens = gb_breaks__auc(fl->d_tok.items, fl->y.items, fl->y.len);
    a->auc_lines = gb_breaks__auc(fl->lines.items, fl->y.items, fl->y.len);
    /* Size held: the same lines and tokens within the tolerance (in logs); RC held: RC within its. */
    const double *size_keys[] = {fl->lines.items, fl->d_tok.items};
    double size_tol[] = {0, log1p(a->params.size_tolerance)};
    gb_matched_pairs(fl->d_rc.items, size_keys, size_tol, 2, fl->y.items, fl->y.len, &a->at_size);
    const double *rc_keys[] = {fl->d_rc.items};
    double rc_tol[] = {a->params.rc_tolerance};
    gb_matched_pairs(fl->lines.items, rc_keys, rc_tol, 1, fl->y.items, fl->y.len, &a->at_rc);
    bool rc_shows = a->at_size.pairs && a->at_size.lo > 0.5, size_shows = a->at_rc.pairs && a->at_rc.lo > 0.5;
    a->points = !a->both                                ? "undetermined"
                : rc_shows && size_shows                ? "both"
                : size_shows                            ? "size"
                : rc_shows                              ? "complexity"
                : a->at_size.pairs + a->at_rc.pairs > 0 ? "neither"
                                                        : "undetermined";
}

void gb_breaks_analyse(GbBreaksAnalysis *a, const GbBreaks *b, const GbBreaksParams *params)
{
    memset(a, 0, sizeof *a);
    a->b = b;
    a->params = *params;
    a->levels = gb_malloc((b->nver + 1) * sizeof *a->levels);
    for (size_t v = 0; v < b->nver; v++) a->levels[v] = gb_breaks_level(b, v, NULL);
    for (size_t i = 0; b->nver && i < b->prog_count[0]; i++) {
        char *f = b->progs.items[b->prog_start[0] + i].format;
        bool seen = false;
        for (size_t k = 0; k < a->formats.len && !seen; k++) seen = strcmp(a->formats.items[k], f) == 0;
        if (!seen) gb_array_push(&a->formats, f);
    }
    gb_breaks__count_ops(a);
    gb_breaks__explain(a);
}

void gb_breaks_analysis_destroy(GbBreaksAnalysis *a)
{
    GbBreaksFlips *fl = &a->flips;
    gb_array_free(&fl->d_rc);
    gb_array_free(&fl->d_tok);
    gb_array_free(&fl->lines);
    gb_array_free(&fl->log_lines);
    gb_array_free(&fl->rc_fail);
    gb_array_free(&fl->rc_pass);
    gb_array_free(&fl->y);
    gb_array_free(&a->formats);
    for (size_t i = 0; i < a->ops.len; i++) free(a->ops.items[i].op);
    gb_array_free(&a->ops);
    free(a->levels);
}
