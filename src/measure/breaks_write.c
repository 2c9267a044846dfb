/* breaks.json and items.csv from an analysis. */
#include <math.h>
#include <string.h>

#include "src/base/json_write.h"
#include "src/measure/breaks.h"

static void gb_breaks__ci_json(GbStr *o, double lo, double hi)
{
    gb_str_append(o, "[");
    gb_json_number(o, lo);
    gb_str_append(o, ", ");
    gb_json_number(o, hi);
    gb_str_append(o, "]");
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
    gb_breaks__ci_json(o, L->lo, L->hi);
    const char *keys[] = {"mean_rc", "mean_rr", "mean_tokens", "mean_lines", "mean_rung"};
    double vals[] = {L->rc, L->rr, L->tokens, L->lines, L->rung};
    for (int k = 0; k < 5; k++) {
        gb_json_key(o, keys[k], &f);
        gb_json_number(o, vals[k]);
    }
    gb_str_append(o, "}");
}

static void gb_breaks__levels_json(const GbBreaksAnalysis *a, GbStr *js)
{
    const GbBreaks *b = a->b;
    gb_str_append(js, "{\"levels\": [");
    for (size_t v = 0; v < b->nver; v++) {
        gb_str_append(js, v ? ",\n  " : "\n  ");
        gb_breaks__level_json(js, &a->levels[v], v, b->files.items[v]);
    }
    gb_str_append(js, "\n],\n\"by_format\": {");
    for (size_t k = 0; k < a->formats.len; k++) {
        gb_str_append(js, k ? ",\n  " : "\n  ");
        gb_json_string(js, a->formats.items[k]);
        gb_str_append(js, ": [");
        for (size_t v = 0; v < b->nver; v++) {
            GbBreaksLevel F = gb_breaks_level(b, v, a->formats.items[k]);
            if (v) gb_str_append(js, ", ");
            gb_breaks__level_json(js, &F, v, NULL);
        }
        gb_str_append(js, "]");
    }
}

static void gb_breaks__item_json(const GbBreaks *b, const GbBreaksItem *it, GbStr *js)
{
    size_t bv = gb_breaks_breaking(it, b->nver);
    bool f = true;
    gb_json_key(js, "task", &f);
    gb_json_string(js, it->task);
    gb_json_key(js, "item", &f);
    gb_json_string(js, it->item);
    gb_json_key(js, "verdicts", &f);
    GbStr vs;
    gb_str_init(&vs);
    for (size_t v = 0; v < b->nver; v++) {
        int p = gb_breaks_pass(it, v);
        gb_str_append(&vs, p < 0 ? "." : p ? "P" : "F");
    }
    gb_json_string(js, vs.data);
    gb_str_destroy(&vs);
    gb_json_key(js, "breaking_version", &f);
    if (!bv) {
        gb_str_append(js, "null");
        return;
    }
    const GbBreaksProg *pa = gb_breaks_prog(b, bv - 1, it->task), *pb = gb_breaks_prog(b, bv, it->task);
    gb_json_integer(js, (long long)bv);
    gb_json_key(js, "rungs", &f);
    gb_str_appendf(js, "[%ld, %ld]", pa ? pa->rung : -1, pb ? pb->rung : -1);
    gb_json_key(js, "operators", &f);
    GbStr s;
    gb_str_init(&s);
    bool first = true;
    if (pa && pb) gb_breaks_step_ops(pa, pb, &s, &first);
    gb_json_string(js, s.len ? s.data : "");
    gb_str_destroy(&s);
}

static void gb_breaks__ops_json(const GbBreaksAnalysis *a, GbStr *js)
{
    gb_str_append(js, "\n],\n\"operators\": [");
    for (size_t i = 0; i < a->ops.len; i++) {
        const GbBreaksOp *op = &a->ops.items[i];
        double lo, hi, rate = op->applied ? (double)op->broke / (double)op->applied : NAN;
        gb_wilson(op->broke, op->applied, 1.96, &lo, &hi);
        bool f = true;
        gb_str_append(js, i ? ",\n  {" : "\n  {");
        gb_json_key(js, "op", &f);
        gb_json_string(js, op->op);
        gb_json_key(js, "applied", &f);
        gb_json_integer(js, op->applied);
        gb_json_key(js, "breaking", &f);
        gb_json_integer(js, op->broke);
        gb_json_key(js, "rate", &f);
        gb_json_number(js, rate);
        gb_json_key(js, "ci95", &f);
        gb_breaks__ci_json(js, lo, hi);
        gb_str_append(js, "}");
    }
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
    gb_breaks__ci_json(js, m->lo, m->hi);
    gb_json_key(js, "p", &f);
    gb_json_number(js, m->p);
    gb_json_key(js, "mean_gap", &f);
    gb_json_number(js, m->mean_gap);
    gb_str_append(js, "}");
}

static void gb_breaks__rank_json(const GbBreaksAnalysis *a, GbStr *js)
{
    const GbBreaksFlips *fl = &a->flips;
    gb_str_append(js, "\n],\n\"rank_test\": {");
    bool f = true;
    gb_json_key(js, "success_to_failure", &f);
    gb_json_integer(js, (long long)fl->rc_fail.len);
    gb_json_key(js, "success_to_success", &f);
    gb_json_integer(js, (long long)fl->rc_pass.len);
    gb_json_key(js, "median_rc_failure", &f);
    gb_json_number(js, gb_breaks_median(fl->rc_fail.items, fl->rc_fail.len));
    gb_json_key(js, "median_rc_success", &f);
    gb_json_number(js, gb_breaks_median(fl->rc_pass.items, fl->rc_pass.len));
    gb_json_key(js, "u", &f);
    gb_json_number(js, a->u);
    gb_json_key(js, "p", &f);
    gb_json_number(js, a->p);
}

static void gb_breaks__size_json(const GbBreaksAnalysis *a, GbStr *js)
{
    gb_str_append(js, "},\n\"complexity_vs_size\": {");
    bool f = true;
    gb_json_key(js, "n", &f);
    gb_json_integer(js, (long long)a->flips.y.len);
    gb_json_key(js, "ridge", &f);
    gb_json_number(js, a->params.ridge);
    gb_json_key(js, "logistic_tokens", &f);
    gb_breaks__fit_json(js, &a->fit_tokens, "log_tokens");
    gb_json_key(js, "logistic_lines", &f);
    gb_breaks__fit_json(js, &a->fit_lines, "log_lines");
    gb_json_key(js, "auc_rc", &f);
    gb_json_number(js, a->auc_rc);
    gb_json_key(js, "auc_log_tokens", &f);
    gb_json_number(js, a->auc_tokens);
    gb_json_key(js, "auc_lines", &f);
    gb_json_number(js, a->auc_lines);
    gb_json_key(js, "size_tolerance", &f);
    gb_json_number(js, a->params.size_tolerance);
    gb_json_key(js, "rc_tolerance", &f);
    gb_json_number(js, a->params.rc_tolerance);
    gb_json_key(js, "rc_at_equal_size", &f);
    gb_breaks__pairs_json(js, &a->at_size);
    gb_json_key(js, "lines_at_equal_rc", &f);
    gb_breaks__pairs_json(js, &a->at_rc);
    gb_json_key(js, "points_at", &f);
    gb_json_string(js, a->points);
    gb_str_append(js, "}}\n");
}

void gb_breaks_json(const GbBreaksAnalysis *a, GbStr *out)
{
    gb_breaks__levels_json(a, out);
    gb_str_append(out, "\n},\n\"items\": [");
    for (size_t i = 0; i < a->b->items.len; i++) {
        gb_str_append(out, i ? ",\n  {" : "\n  {");
        gb_breaks__item_json(a->b, &a->b->items.items[i], out);
        gb_str_append(out, "}");
    }
    gb_breaks__ops_json(a, out);
    gb_breaks__rank_json(a, out);
    gb_breaks__size_json(a, out);
}

void gb_breaks_csv(const GbBreaksAnalysis *a, GbStr *csv)
{
    const GbBreaks *b = a->b;
    gb_str_append(csv, "task,item,format,version,rung,pass,samples,passed,rc,rr,tokens,lines,operators\n");
    for (size_t i = 0; i < b->items.len; i++) {
        const GbBreaksItem *it = &b->items.items[i];
        for (size_t v = 0; v < b->nver; v++) {
            int p = gb_breaks_pass(it, v);
            const GbBreaksProg *pr = gb_breaks_prog(b, v, it->task);
            if (!pr) continue;
            gb_str_appendf(csv, "%s,%s,%s,%zu,%ld,%s,%ld,%ld,", it->task, it->item, pr->format, v, pr->rung,
                           p < 0 ? ""
                           : p   ? "1"
                                 : "0",
                           it->n[v], it->c[v]);
            gb_json_number(csv, pr->rc);
            gb_str_append(csv, ",");
            gb_json_number(csv, pr->rr);
            gb_str_append(csv, ",");
            gb_json_number(csv, pr->tokens);
            gb_str_appendf(csv, ",%.0f,", pr->lines);
            for (size_t k = 0; k < pr->ops.len; k++) gb_str_appendf(csv, "%s%s", k ? "+" : "", pr->ops.items[k]);
            gb_str_append(csv, "\n");
        }
    }
}
