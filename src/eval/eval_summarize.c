/* The summary of an evaluation run: pass@k per version, the drops with their intervals and
 * paired test, across versions, the robust metrics, plus, truncation; the typed document and
 * the text for the terminal (eval_private.h). */
#include "src/eval/eval_private.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/sha256.h"
#include "src/doc/eval_results.h"
#include "src/doc/eval_summary.h"
#include "src/eval/stats.h"

/* ---- summary ---------------------------------------------------------------------------- */

typedef struct {
    long n, c; /* scored samples, passes */
} GbEvalCount;

/* The scored samples of an item and version in verdicts (r->verdict, or r->plus). */
static GbEvalCount gb_eval__count_in(const GbEvalRun *r, const unsigned char *verdicts, size_t v, size_t item)
{
    GbEvalCount k = {0, 0};
    for (long s = 0; s < r->cfg->samples; s++) {
        unsigned char x = verdicts[gb_eval__slot(r, v, item, s)];
        if (x == GB_V_NONE || x == GB_V_ERROR) continue;
        k.n++;
        k.c += x == GB_V_PASS;
    }
    return k;
}

static GbEvalCount gb_eval__count(const GbEvalRun *r, size_t v, size_t item)
{
    return gb_eval__count_in(r, r->verdict, v, item);
}

static void gb_eval__pct(GbStr *s, double x)
{
    if (isfinite(x))
        gb_str_appendf(s, "%7.2f%%", 100 * x);
    else
        gb_str_appendf(s, "%8s", "-");
}

/* x as points (100 x), signed */
static void gb_eval__points(GbStr *s, double x)
{
    if (isfinite(x))
        gb_str_appendf(s, "%+.2f", 100 * x);
    else
        gb_str_append(s, "-");
}

/* The run's facts into the summary, and the text's head. */
static void gb_eval__summary_facts(GbEvalRun *r, size_t ntasks_without, size_t kept, GbEvalSummary *sum, GbStr *t)
{
    const GbEvalConfig *cfg = r->cfg;
    bool interrupted = cfg->stop && *cfg->stop;
    size_t planned = r->nv * r->nitems * (size_t)cfg->samples, scored_total = 0;
    for (size_t i = 0; i < planned; i++) scored_total += gb_verdict_scored((GbVerdict)r->verdict[i]);
    sum->model = gb_strdup(cfg->model);
    sum->task = gb_strdup(gb_eval_task_names[cfg->task]);
    sum->samples = cfg->samples;
    sum->temperature = cfg->params.temperature;
    sum->top_p = cfg->params.top_p;
    sum->max_tokens = cfg->params.max_tokens;
    sum->seed = cfg->params.seed;
    sum->nk = cfg->nk;
    sum->k = gb_malloc((cfg->nk ? cfg->nk : 1) * sizeof *sum->k);
    for (size_t i = 0; i < cfg->nk; i++) sum->k[i] = cfg->ks[i];
    sum->items = r->nitems;
    sum->items_before_dedup = r->before_dedup;
    if (cfg->samples > 1 && cfg->params.temperature == 0) {
        char *w = gb_asprintf("%ld samples per item at temperature 0: a deterministic server gives the same answer "
                              "to every sample, so pass@k for k > 1 is pass@1 and the samples add no information",
                              cfg->samples);
        gb_array_push(&sum->warnings, w);
    }
    sum->tasks_without_items = ntasks_without;
    sum->samples_planned = planned;
    sum->samples_scored = scored_total;
    sum->samples_resumed = kept;
    sum->samples_cached = r->cached;
    sum->requests = gb_eval__requests(r);
    sum->complete = scored_total == planned;
    sum->stopped_by = r->budget_hit    ? gb_strdup("time budget")
                      : r->stop_errors ? gb_strdup("repeated errors")
                      : interrupted    ? gb_strdup("interrupt")
                                       : NULL;
    if (cfg->provenance) {
        sum->has_provenance = true;
        gb_eval_provenance_copy(&sum->provenance, cfg->provenance);
    }
    gb_str_appendf(t, "eval: model %s, %s, %zu items, %ld sample%s per item and version\n", cfg->model, r->type->title,
                   r->nitems, cfg->samples, cfg->samples == 1 ? "" : "s");
    gb_str_appendf(t, "  %zu items before deduplication, %zu duplicates dropped (same prompt and expected answer)\n",
                   r->before_dedup, r->before_dedup - r->nitems);
    for (size_t i = 0; i < sum->warnings.len; i++) gb_str_appendf(t, "  warning: %s\n", sum->warnings.items[i]);
    if (ntasks_without)
        gb_str_appendf(t, "  %zu tasks of the original %s: left out\n", ntasks_without, r->input->without);
    gb_str_appendf(
        t, "  %zu samples scored (%zu kept from the results file, %zu replies from the cache, %ld requests)%s\n",
        scored_total, kept, r->cached, gb_eval__requests(r),
        r->budget_hit    ? "; stopped by the time budget"
        : r->stop_errors ? "; stopped by repeated errors"
        : interrupted    ? "; interrupted"
                         : "");
    gb_str_appendf(t, "\n%-40s %6s", "version", "items");
    for (size_t i = 0; i < cfg->nk; i++) gb_str_appendf(t, "   pass@%-3ld", cfg->ks[i]);
    gb_str_append(t, "\n");
}

/* One version's pass@k and verdict counts; p1[v] gets its pass@1 when 1 is among the k. */
static void gb_eval__summary_version(GbEvalRun *r, size_t v, GbEvalSummary *sum, double *p1, GbStr *t)
{
    const GbEvalConfig *cfg = r->cfg;
    GbEvalSummaryVersion sv = {.version = (long)v, .file = gb_strdup(r->versions[v].path)};
    sv.pass_at = gb_malloc((cfg->nk ? cfg->nk : 1) * sizeof *sv.pass_at);
    for (size_t i = 0; i < r->nitems; i++)
        for (long s = 0; s < cfg->samples; s++) sv.verdicts[r->verdict[gb_eval__slot(r, v, i, s)]]++;
    char label[64];
    snprintf(label, sizeof label, "%s", v ? "" : "original ");
    gb_str_appendf(t, "%zu %s%-*.*s", v, label, (int)(38 - strlen(label)), (int)(38 - strlen(label)),
                   r->versions[v].path);
    for (size_t i = 0; i < r->nitems; i++) sv.items_scored += gb_eval__count(r, v, i).n > 0;
    gb_str_appendf(t, " %6zu", sv.items_scored);
    sv.pass_lo = gb_malloc((cfg->nk ? cfg->nk : 1) * sizeof *sv.pass_lo);
    sv.pass_hi = gb_malloc((cfg->nk ? cfg->nk : 1) * sizeof *sv.pass_hi);
    double *per = gb_malloc((r->nitems ? r->nitems : 1) * sizeof *per);
    for (size_t ki = 0; ki < cfg->nk; ki++) {
        size_t m = 0;
        for (size_t i = 0; i < r->nitems; i++) {
            GbEvalCount k = gb_eval__count(r, v, i);
            double p = gb_pass_at_k(k.n, k.c, cfg->ks[ki]);
            if (isfinite(p)) per[m++] = p;
        }
        double mean;
        gb_mean_bootstrap(per, m, (size_t)cfg->resamples, cfg->boot_seed, &mean, &sv.pass_lo[ki], &sv.pass_hi[ki]);
        if (cfg->ks[ki] == 1) p1[v] = mean;
        sv.pass_at[ki] = mean;
        gb_str_append(t, "  ");
        gb_eval__pct(t, mean);
    }
    free(per);
    gb_str_append(t, "\n");
    gb_array_push(&sum->versions, sv);
}

/* Version v against the original over the items scored in both (po, ph: scratch of nitems). */
static GbEvalComparison gb_eval__summary_compare(GbEvalRun *r, size_t v, double *po, double *ph, GbStr *t)
{
    size_t m = 0;
    for (size_t i = 0; i < r->nitems; i++) {
        GbEvalCount a = gb_eval__count(r, 0, i), b = gb_eval__count(r, v, i);
        if (!a.n || !b.n) continue;
        po[m] = (double)a.c / (double)a.n;
        ph[m] = (double)b.c / (double)b.n;
        m++;
    }
    GbPaired pc;
    gb_paired_count(po, ph, m, &pc);
    GbDropCI ci;
    gb_drop_bootstrap(po, ph, m, (size_t)r->cfg->resamples, r->cfg->boot_seed, &ci);
    double so = 0, sh = 0;
    for (size_t i = 0; i < m; i++) so += po[i], sh += ph[i];
    GbEvalComparison c = {.version = (long)v,
                          .file = gb_strdup(r->versions[v].path),
                          .items = m,
                          .both_pass = pc.both_pass,
                          .lost = pc.lost,
                          .gained = pc.gained,
                          .both_fail = pc.both_fail,
                          .pass1_original = m ? so / (double)m : NAN,
                          .pass1_version = m ? sh / (double)m : NAN,
                          .relative_drop = ci.drop,
                          .drop_lo = ci.lo,
                          .drop_hi = ci.hi,
                          .abs_drop = ci.abs,
                          .abs_lo = ci.abs_lo,
                          .abs_hi = ci.abs_hi,
                          .mcnemar_p = gb_mcnemar_exact(pc.lost, pc.gained),
                          .resamples = ci.resamples,
                          .boot_seed = r->cfg->boot_seed,
                          .undefined = ci.undefined};
    gb_str_appendf(t,
                   "\nversion %zu vs original, %zu paired items: both pass %zu, lost %zu, gained %zu, both fail %zu\n",
                   v, m, pc.both_pass, pc.lost, pc.gained, pc.both_fail);
    gb_str_append(t, "  relative drop of pass@1 ");
    gb_eval__pct(t, ci.drop);
    gb_str_append(t, ", 95% bootstrap CI [");
    gb_eval__pct(t, ci.lo);
    gb_str_append(t, ",");
    gb_eval__pct(t, ci.hi);
    gb_str_appendf(t, "] (%zu resamples over items)\n", ci.resamples);
    gb_str_append(t, "  absolute drop of pass@1 ");
    gb_eval__points(t, ci.abs);
    gb_str_append(t, " points, 95% bootstrap CI [");
    gb_eval__points(t, ci.abs_lo);
    gb_str_append(t, ",");
    gb_eval__points(t, ci.abs_hi);
    gb_str_appendf(t, "]; exact McNemar test (lost %zu vs gained %zu) p = %.4g\n", pc.lost, pc.gained, c.mcnemar_p);
    return c;
}

/* The truncated samples per version, and each comparison again over the items none of whose
 * samples (original or version) was cut. */
static void gb_eval__summary_truncation(GbEvalRun *r, double *po, double *ph, GbEvalSummary *sum, GbStr *t)
{
    sum->has_truncation = true;
    for (size_t v = 0; v < r->nv; v++) {
        GbEvalTruncVersion tv = {.version = (long)v};
        for (size_t i = 0; i < r->nitems; i++)
            for (long s = 0; s < r->cfg->samples; s++) tv.truncated += r->truncated[gb_eval__slot(r, v, i, s)];
        sum->truncated += tv.truncated;
        gb_array_push(&sum->trunc_versions, tv);
    }
    for (size_t v = 1; v < r->nv; v++) {
        size_t m = 0;
        double so = 0, sh = 0;
        for (size_t i = 0; i < r->nitems; i++) {
            GbEvalCount a = gb_eval__count(r, 0, i), b = gb_eval__count(r, v, i);
            bool cut = false;
            for (long s = 0; s < r->cfg->samples; s++)
                cut = cut || r->truncated[gb_eval__slot(r, 0, i, s)] || r->truncated[gb_eval__slot(r, v, i, s)];
            if (!a.n || !b.n || cut) continue;
            po[m] = (double)a.c / (double)a.n;
            ph[m] = (double)b.c / (double)b.n;
            so += po[m];
            sh += ph[m];
            m++;
        }
        GbEvalTruncDrop d = {
            .version = (long)v, .items = m, .pass1_original = NAN, .pass1_version = NAN, .relative_drop = NAN};
        if (m) {
            d.pass1_original = so / (double)m;
            d.pass1_version = sh / (double)m;
            if (d.pass1_original > 0) d.relative_drop = (d.pass1_original - d.pass1_version) / d.pass1_original;
        }
        gb_array_push(&sum->trunc_drops, d);
    }
    if (!sum->truncated) return;
    gb_str_appendf(t, "\n%zu samples were cut at the token limit (finish_reason length):", sum->truncated);
    for (size_t v = 0; v < sum->trunc_versions.len; v++)
        gb_str_appendf(t, " version %zu: %zu%s", v, sum->trunc_versions.items[v].truncated,
                       v + 1 < sum->trunc_versions.len ? "," : "\n");
    for (size_t k = 0; k < sum->trunc_drops.len; k++) {
        const GbEvalTruncDrop *d = &sum->trunc_drops.items[k];
        gb_str_appendf(t, "  version %ld without the items with a cut reply (%zu items): relative drop", d->version,
                       d->items);
        gb_eval__pct(t, d->relative_drop);
        gb_str_append(t, " (with them:");
        gb_eval__pct(t, sum->comparisons.items[k].relative_drop);
        gb_str_append(t, ")\n");
    }
}

/* The spread over the hardened versions (only when there are two or more). */
static void gb_eval__summary_across(GbEvalRun *r, const double *p1, GbEvalSummary *sum, GbStr *t)
{
    double dmin = INFINITY, dmax = -INFINITY, dsum = 0, pmin = INFINITY, pmax = -INFINITY, psum = 0;
    size_t ndrops = 0, pn = 0;
    for (size_t i = 0; i < sum->comparisons.len; i++) {
        double d = sum->comparisons.items[i].relative_drop;
        if (!isfinite(d)) continue;
        dsum += d;
        dmin = fmin(dmin, d);
        dmax = fmax(dmax, d);
        ndrops++;
    }
    for (size_t v = 1; v < r->nv; v++) {
        if (!isfinite(p1[v])) continue;
        psum += p1[v];
        pmin = fmin(pmin, p1[v]);
        pmax = fmax(pmax, p1[v]);
        pn++;
    }
    sum->has_across = true;
    sum->across = (GbEvalAcross){.versions = r->nv - 1,
                                 .drop_mean = ndrops ? dsum / (double)ndrops : NAN,
                                 .drop_min = ndrops ? dmin : NAN,
                                 .drop_max = ndrops ? dmax : NAN,
                                 .pass1_mean = pn ? psum / (double)pn : NAN,
                                 .pass1_min = pn ? pmin : NAN,
                                 .pass1_max = pn ? pmax : NAN};
    const GbEvalAcross *a = &sum->across;
    gb_str_appendf(t, "\nacross %zu versions: relative drop mean", r->nv - 1);
    gb_eval__pct(t, a->drop_mean);
    gb_str_append(t, " (range");
    gb_eval__pct(t, a->drop_min);
    gb_str_append(t, " to");
    gb_eval__pct(t, a->drop_max);
    gb_str_append(t, "), pass@1 mean");
    gb_eval__pct(t, a->pass1_mean);
    gb_str_append(t, " (range");
    gb_eval__pct(t, a->pass1_min);
    gb_str_append(t, " to");
    gb_eval__pct(t, a->pass1_max);
    gb_str_append(t, ")\n");
}

/* Repair on the derived inputs too (plus.h): pass@k of every version over the items with a
 * reference, and each hardened version's drops against the original on them. */
static void gb_eval__summary_plus(GbEvalRun *r, GbEvalSummary *sum, double *po, double *ph, GbStr *t)
{
    const GbEvalConfig *cfg = r->cfg;
    sum->has_plus = true;
    sum->plus_items = r->nrefs;
    gb_str_appendf(t,
                   "\nrepair on the tests and on the derived inputs (\"plus\"; %zu of %zu items have a reference):\n",
                   r->nrefs, r->nitems);
    for (size_t v = 0; v < r->nv; v++) {
        GbEvalSummaryVersion *sv = &sum->versions.items[v];
        sv->plus_pass_at = gb_malloc((cfg->nk ? cfg->nk : 1) * sizeof *sv->plus_pass_at);
        gb_str_appendf(t, "  version %zu", v);
        for (size_t ki = 0; ki < cfg->nk; ki++) {
            double total = 0, base = 0;
            size_t m = 0;
            for (size_t i = 0; i < r->nitems; i++) {
                if (!r->refs[i]) continue;
                GbEvalCount k = gb_eval__count_in(r, r->plus, v, i), b = gb_eval__count(r, v, i);
                double p = gb_pass_at_k(k.n, k.c, cfg->ks[ki]), pb = gb_pass_at_k(b.n, b.c, cfg->ks[ki]);
                if (isfinite(p) && isfinite(pb)) total += p, base += pb, m++;
            }
            sv->plus_pass_at[ki] = m ? total / (double)m : NAN;
            gb_str_appendf(t, "   pass@%ld base", cfg->ks[ki]);
            gb_eval__pct(t, m ? base / (double)m : NAN);
            gb_str_append(t, " plus");
            gb_eval__pct(t, sv->plus_pass_at[ki]);
        }
        gb_str_append(t, "\n");
    }
    for (size_t v = 1; v < r->nv; v++) {
        size_t m = 0;
        for (size_t i = 0; i < r->nitems; i++) {
            if (!r->refs[i]) continue;
            GbEvalCount a = gb_eval__count_in(r, r->plus, 0, i), b = gb_eval__count_in(r, r->plus, v, i);
            if (!a.n || !b.n) continue;
            po[m] = (double)a.c / (double)a.n;
            ph[m] = (double)b.c / (double)b.n;
            m++;
        }
        GbDropCI ci;
        gb_drop_bootstrap(po, ph, m, (size_t)cfg->resamples, cfg->boot_seed, &ci);
        GbEvalComparison *c = &sum->comparisons.items[v - 1];
        c->plus_items = m;
        c->plus_relative_drop = ci.drop;
        c->plus_drop_lo = ci.lo;
        c->plus_drop_hi = ci.hi;
        c->plus_abs_drop = ci.abs;
        c->plus_abs_lo = ci.abs_lo;
        c->plus_abs_hi = ci.abs_hi;
        gb_str_appendf(t, "  version %zu vs original on plus, %zu paired items: relative drop", v, m);
        gb_eval__pct(t, ci.drop);
        gb_str_append(t, " [");
        gb_eval__pct(t, ci.lo);
        gb_str_append(t, ",");
        gb_eval__pct(t, ci.hi);
        gb_str_append(t, "], absolute ");
        gb_eval__points(t, ci.abs);
        gb_str_append(t, " points [");
        gb_eval__points(t, ci.abs_lo);
        gb_str_append(t, ", ");
        gb_eval__points(t, ci.abs_hi);
        gb_str_append(t, "]\n");
    }
}

/* ReCode's robust metrics over the hardened versions 1..nv-1 (stats.h): the items scored on the
 * original and on every version. */
static void gb_eval__summary_robust(GbEvalRun *r, GbEvalSummary *sum, GbStr *t)
{
    const GbEvalConfig *cfg = r->cfg;
    size_t s = r->nv - 1, n = (size_t)cfg->samples, nk = cfg->nk ? cfg->nk : 1;
    GbEvalRobust *rb = &sum->robust;
    sum->has_robust = true;
    rb->versions = s;
    rb->pass_at = gb_calloc(nk, sizeof *rb->pass_at);
    rb->robust_pass = gb_calloc(nk, sizeof *rb->robust_pass);
    rb->robust_drop = gb_calloc(nk, sizeof *rb->robust_drop);
    rb->robust_rel = gb_calloc(nk, sizeof *rb->robust_rel);
    size_t *defined = gb_calloc(nk, sizeof *defined);
    signed char *table = gb_malloc((s + 1) * n);
    for (size_t i = 0; i < r->nitems; i++) {
        for (size_t v = 0; v <= s; v++)
            for (size_t k = 0; k < n; k++) {
                unsigned char x = r->verdict[gb_eval__slot(r, v, i, (long)k)];
                table[v * n + k] = x == GB_V_NONE || x == GB_V_ERROR ? -1 : x == GB_V_PASS;
            }
        GbRobustCount c;
        gb_robust_count(table, s, n, &c);
        GbEvalCount o = gb_eval__count(r, 0, i);
        if (c.used == 0) continue;
        rb->items++;
        for (size_t ki = 0; ki < cfg->nk; ki++) {
            long kk = cfg->ks[ki];
            double rp = gb_pass_at_k(c.used, c.all, kk), p = gb_pass_at_k(o.n, o.c, kk);
            if (!isfinite(rp) || !isfinite(p)) continue;
            defined[ki]++;
            rb->pass_at[ki] += p;
            rb->robust_pass[ki] += rp;
            rb->robust_rel[ki] += gb_pass_at_k(c.used, c.worse, kk) + gb_pass_at_k(c.used, c.better, kk);
        }
    }
    free(table);
    gb_str_appendf(t, "\nrobust over %zu version%s (ReCode; %zu items scored on the original and every version):\n", s,
                   s == 1 ? "" : "s", rb->items);
    for (size_t ki = 0; ki < cfg->nk; ki++) {
        double m = (double)defined[ki];
        if (defined[ki]) {
            rb->pass_at[ki] /= m;
            rb->robust_pass[ki] /= m;
            rb->robust_rel[ki] /= m;
            rb->robust_drop[ki] = rb->pass_at[ki] > 0 ? (rb->pass_at[ki] - rb->robust_pass[ki]) / rb->pass_at[ki] : NAN;
        } else {
            rb->pass_at[ki] = rb->robust_pass[ki] = rb->robust_rel[ki] = rb->robust_drop[ki] = NAN;
        }
        long kk = cfg->ks[ki];
        gb_str_appendf(t, "  k=%-3ld pass@k", kk);
        gb_eval__pct(t, rb->pass_at[ki]);
        gb_str_appendf(t, "  Robust Pass_%zu@%ld", s, kk);
        gb_eval__pct(t, rb->robust_pass[ki]);
        gb_str_appendf(t, "  Robust Drop_%zu@%ld", s, kk);
        gb_eval__pct(t, rb->robust_drop[ki]);
        gb_str_appendf(t, "  Robust Relative_%zu@%ld", s, kk);
        gb_eval__pct(t, rb->robust_rel[ki]);
        gb_str_append(t, "\n");
    }
    free(defined);
}

/* The summary (written through src/doc/eval_summary.h) and the text for the terminal. */
void gb_eval_summarize(GbEvalRun *r, size_t ntasks_without, size_t kept, char **json_out, char **text_out)
{
    GbEvalSummary sum = {0};
    GbStr t;
    gb_str_init(&t);
    gb_eval__summary_facts(r, ntasks_without, kept, &sum, &t);
    double *po = gb_calloc(r->nitems ? r->nitems : 1, sizeof *po),
           *ph = gb_calloc(r->nitems ? r->nitems : 1, sizeof *ph);
    double *p1 = gb_calloc(r->nv, sizeof *p1);
    for (size_t v = 0; v < r->nv; v++) gb_eval__summary_version(r, v, &sum, p1, &t);
    for (size_t v = 1; v < r->nv; v++) {
        GbEvalComparison c = gb_eval__summary_compare(r, v, po, ph, &t);
        gb_array_push(&sum.comparisons, c);
    }
    if (r->nv > 2) gb_eval__summary_across(r, p1, &sum, &t);
    if (r->nv > 1) gb_eval__summary_robust(r, &sum, &t);
    if (r->refs) gb_eval__summary_plus(r, &sum, po, ph, &t);
    gb_eval__summary_truncation(r, po, ph, &sum, &t);
    free(po);
    free(ph);
    free(p1);
    *json_out = gb_eval_summary_write(&sum);
    gb_eval_summary_destroy(&sum);
    *text_out = gb_str_take(&t);
}
