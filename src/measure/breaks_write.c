/* breaks.json (through its owner, src/doc/breaks.h) and items.csv from an analysis. */
#include <math.h>
#include <string.h>

#include "src/base/json_write.h"
#include "src/doc/breaks.h"
#include "src/measure/breaks.h"

static GbBreaksDocLevel gb_breaks__doc_level(const GbBreaksLevel *L, size_t v, const char *file)
{
    return (GbBreaksDocLevel){
        (long)v, file ? gb_strdup(file) : NULL, L->items, L->pass, L->lo, L->hi, L->rc, L->rr, L->tokens, L->lines,
        L->rung};
}

static GbBreaksDocItem gb_breaks__doc_item(const GbBreaks *b, const GbBreaksItem *it)
{
    GbBreaksDocItem d = {
        gb_strdup(it->task), gb_strdup(it->item), NULL, (long)gb_breaks_breaking(it, b->nver), -1, -1, NULL};
    GbStr vs;
    gb_str_init(&vs);
    for (size_t v = 0; v < b->nver; v++) {
        int p = gb_breaks_pass(it, v);
        gb_str_append(&vs, p < 0 ? "." : p ? "P" : "F");
    }
    d.verdicts = gb_strdup(vs.data ? vs.data : "");
    gb_str_destroy(&vs);
    if (!d.breaking_version) return d;
    size_t bv = (size_t)d.breaking_version;
    const GbBreaksProg *pa = gb_breaks_prog(b, bv - 1, it->task), *pb = gb_breaks_prog(b, bv, it->task);
    d.rung_from = pa ? pa->rung : -1;
    d.rung_to = pb ? pb->rung : -1;
    GbStr s;
    gb_str_init(&s);
    bool first = true;
    if (pa && pb) gb_breaks_step_ops(pa, pb, &s, &first);
    d.operators = gb_strdup(s.len ? s.data : "");
    gb_str_destroy(&s);
    return d;
}

static GbBreaksDocFit gb_breaks__doc_fit(const GbBreaksFit *f)
{
    GbBreaksDocFit d;
    memcpy(d.beta, f->beta, sizeof d.beta);
    memcpy(d.se, f->se, sizeof d.se);
    memcpy(d.z, f->z, sizeof d.z);
    d.points_at = gb_strdup(f->points);
    return d;
}

static GbBreaksDocPairs gb_breaks__doc_pairs(const GbMatchedPairs *m)
{
    return (GbBreaksDocPairs){m->cases, m->pairs, m->higher_failed, m->rate, m->lo, m->hi, m->p, m->mean_gap};
}

static void gb_breaks__doc_tables(const GbBreaksAnalysis *a, GbBreaksDoc *doc)
{
    const GbBreaks *b = a->b;
    for (size_t v = 0; v < b->nver; v++)
        gb_array_push(&doc->levels, gb_breaks__doc_level(&a->levels[v], v, b->files.items[v]));
    for (size_t k = 0; k < a->formats.len; k++) {
        GbBreaksDocFormat F = {gb_strdup(a->formats.items[k]), {0}};
        for (size_t v = 0; v < b->nver; v++) {
            GbBreaksLevel L = gb_breaks_level(b, v, a->formats.items[k]);
            gb_array_push(&F.levels, gb_breaks__doc_level(&L, v, NULL));
        }
        gb_array_push(&doc->by_format, F);
    }
    for (size_t i = 0; i < b->items.len; i++) gb_array_push(&doc->items, gb_breaks__doc_item(b, &b->items.items[i]));
    for (size_t i = 0; i < a->ops.len; i++) {
        const GbBreaksOp *op = &a->ops.items[i];
        GbBreaksDocOp d = {gb_strdup(op->op),
                           op->applied,
                           op->broke,
                           op->applied ? (double)op->broke / (double)op->applied : NAN,
                           0,
                           0};
        gb_wilson(op->broke, op->applied, 1.96, &d.lo, &d.hi);
        gb_array_push(&doc->operators, d);
    }
}

void gb_breaks_doc_fill(const GbBreaksAnalysis *a, GbBreaksDoc *doc)
{
    const GbBreaksFlips *fl = &a->flips;
    memset(doc, 0, sizeof *doc);
    gb_breaks__doc_tables(a, doc);
    doc->success_to_failure = (long)fl->rc_fail.len;
    doc->success_to_success = (long)fl->rc_pass.len;
    doc->median_rc_failure = gb_breaks_median(fl->rc_fail.items, fl->rc_fail.len);
    doc->median_rc_success = gb_breaks_median(fl->rc_pass.items, fl->rc_pass.len);
    doc->u = a->u;
    doc->p = a->p;
    doc->n = (long)fl->y.len;
    doc->ridge = a->params.ridge;
    doc->logistic_tokens = gb_breaks__doc_fit(&a->fit_tokens);
    doc->logistic_lines = gb_breaks__doc_fit(&a->fit_lines);
    doc->auc_rc = a->auc_rc;
    doc->auc_log_tokens = a->auc_tokens;
    doc->auc_lines = a->auc_lines;
    doc->size_tolerance = a->params.size_tolerance;
    doc->rc_tolerance = a->params.rc_tolerance;
    doc->rc_at_equal_size = gb_breaks__doc_pairs(&a->at_size);
    doc->lines_at_equal_rc = gb_breaks__doc_pairs(&a->at_rc);
    doc->points_at = gb_strdup(a->points);
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
