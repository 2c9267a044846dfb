/* Eval runs: reading `genebench eval`'s summary and results (through src/doc), and their panel. */
#include "src/report/report_private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/gzip.h"
#include "src/doc/eval_results.h"

/* ---- eval runs ----------------------------------------------------------------------------- */

/* One scored or unscored sample of the results; seq is its line's position (a later line for the
 * same item, version and sample replaces an earlier one). */
typedef struct {
    char *item; /* owned */
    long version, sample;
    int pass; /* 1 passed, 0 failed, -1 not scored */
    size_t seq;
} GbRepSample;

static int gb_report__cmp_samples(const void *pa, const void *pb)
{
    const GbRepSample *a = pa, *b = pb;
    int c = strcmp(a->item, b->item);
    if (c) return c;
    if (a->version != b->version) return a->version < b->version ? -1 : 1;
    if (a->sample != b->sample) return a->sample < b->sample ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static int gb_report__cmp_items(const void *pa, const void *pb)
{
    const GbRepEvalItem *a = pa, *b = pb;
    return strverscmp(a->id, b->id);
}

void gb_report__eval_items_free(GbRepEval *e)
{
    for (size_t i = 0; i < e->items.len; i++) {
        free(e->items.items[i].id);
        gb_array_free(&e->items.items[i].counts);
    }
    gb_array_free(&e->items);
}

typedef GbArray(GbRepSample) GbRepSamples;

/* One results line into samples. False when the line was skipped. */
static bool gb_report__result_line(GbReport *r, GbRepEval *e, const char *line, size_t n, size_t lineno,
                                   GbRepSamples *samples, size_t *other_model)
{
    GbEvalResult res;
    GbError perr;
    if (!gb_eval_result_parse(line, n, &res, &perr)) {
        gb_report__warn(r, "%s:%zu: %s; line skipped", e->results_path, lineno, perr.msg);
        return false;
    }
    if (strcmp(e->summary.model, res.model) != 0) {
        (*other_model)++;
        gb_eval_result_destroy(&res);
        return false;
    }
    GbRepSample smp = {.item = gb_strdup(res.item),
                       .version = res.version,
                       .sample = res.sample,
                       .pass = !gb_verdict_scored(res.verdict) ? -1 : res.verdict == GB_V_PASS,
                       .seq = samples->len};
    gb_array_push(samples, smp);
    gb_eval_result_destroy(&res);
    return true;
}

/* e->items (natural order of ids) from the samples: the last line of each item, version and
 * sample counts. */
static void gb_report__result_items(GbRepEval *e, GbRepSample *smp, size_t n)
{
    qsort(smp, n, sizeof *smp, gb_report__cmp_samples);
    for (size_t i = 0; i < n; i++) {
        if (i + 1 < n && strcmp(smp[i].item, smp[i + 1].item) == 0 && smp[i].version == smp[i + 1].version &&
            smp[i].sample == smp[i + 1].sample)
            continue; /* replaced by a later line */
        if (e->items.len == 0 || strcmp(e->items.items[e->items.len - 1].id, smp[i].item) != 0) {
            GbRepEvalItem it = {.id = gb_strdup(smp[i].item)};
            gb_array_push(&e->items, it);
        }
        GbRepEvalItem *it = &e->items.items[e->items.len - 1];
        if (it->counts.len == 0 || it->counts.items[it->counts.len - 1].version != smp[i].version) {
            GbRepEvalCount c = {.version = smp[i].version};
            gb_array_push(&it->counts, c);
        }
        GbRepEvalCount *c = &it->counts.items[it->counts.len - 1];
        if (smp[i].pass >= 0) {
            c->passed += smp[i].pass;
            c->scored++;
        }
    }
    /* items in natural order (the file has them in the order they finished) */
    qsort(e->items.items, e->items.len, sizeof *e->items.items, gb_report__cmp_items);
}

/* Read the per-sample results of an eval (src/doc/eval_results.h) into e->items: for every item
 * and version, how many samples passed and how many were scored (every verdict but error, as
 * eval's statistics count them). A later line for the same item, version and sample replaces an
 * earlier one (a resumed run appends). Lines of another model than the summary's are skipped. */
static bool gb_report__read_results(GbReport *r, GbRepEval *e, GbError *err)
{
    size_t len;
    char *text = gb_read_data_file(e->results_path, &len, err);
    if (!text) return false;
    GbRepSamples samples = {0};
    size_t lineno = 0, other_model = 0, used = 0;
    for (char *p = text; *p;) {
        char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        lineno++;
        char *line = p;
        p = nl ? nl + 1 : p + n;
        size_t k = 0;
        while (k < n && (line[k] == ' ' || line[k] == '\t' || line[k] == '\r')) k++;
        if (k == n) continue;
        used += gb_report__result_line(r, e, line, n, lineno, &samples, &other_model);
    }
    free(text);
    if (other_model)
        gb_report__warn(r, "%s: %zu line(s) of another model than the summary's (%s) skipped", e->results_path,
                        other_model, e->summary.model);
    gb_report__result_items(e, samples.items, samples.len);
    for (size_t i = 0; i < samples.len; i++) free(samples.items[i].item);
    gb_array_free(&samples);
    if (used == 0) {
        gb_error_set(err, "%s: no eval result line in it", e->results_path);
        return false;
    }
    e->has_results = true;
    return true;
}

/* Solved: at least half of the scored samples passed (src/eval/stats.h). -1: nothing scored. */
static int gb_report__solved(const GbRepEvalItem *item, long version, long *c, long *n)
{
    *c = *n = 0;
    for (size_t i = 0; i < item->counts.len; i++)
        if (item->counts.items[i].version == version) {
            *c = item->counts.items[i].passed;
            *n = item->counts.items[i].scored;
        }
    if (*n == 0) return -1;
    return 2 * *c >= *n;
}

/* The results must tell the same story as the summary: a warning per comparison that does not. */
static void gb_report__check_results(GbReport *r, const GbRepEval *e)
{
    for (size_t ci = 0; ci < e->summary.comparisons.len; ci++) {
        const GbEvalComparison *c = &e->summary.comparisons.items[ci];
        size_t cnt[4] = {0};
        for (size_t i = 0; i < e->items.len; i++) {
            const GbRepEvalItem *it = &e->items.items[i];
            long a, b, x, y;
            int so = gb_report__solved(it, 0, &a, &b), sv = gb_report__solved(it, c->version, &x, &y);
            if (so < 0 || sv < 0) continue;
            cnt[so && sv ? 0 : so ? 1 : sv ? 2 : 3]++;
        }
        const char *names[4] = {"both_pass", "lost", "gained", "both_fail"};
        size_t want[4] = {c->both_pass, c->lost, c->gained, c->both_fail};
        for (size_t k = 0; k < 4; k++) {
            if (want[k] == cnt[k]) continue;
            gb_report__warn(r, "%s: version %ld: %s is %zu in the results but %zu in %s (not the same run?)",
                            e->results_path, c->version, names[k], cnt[k], want[k], e->summary_path);
            break;
        }
    }
}

bool gb_report_add_eval(GbReport *r, const char *summary_path, const char *results_path, GbError *err)
{
    GbRepEval e = {.summary_path = gb_strdup(summary_path)};
    if (!gb_eval_summary_read(summary_path, &e.summary, err)) {
        free(e.summary_path);
        return false;
    }
    if (results_path) {
        e.results_path = gb_strdup(results_path);
        if (!gb_report__read_results(r, &e, err)) {
            free(e.summary_path);
            free(e.results_path);
            gb_eval_summary_destroy(&e.summary);
            gb_report__eval_items_free(&e);
            return false;
        }
        gb_report__check_results(r, &e);
    }
    gb_array_push(&r->evals, e);
    return true;
}

size_t gb_report_eval_count(const GbReport *r)
{
    return r->evals.len;
}

/* ---- panel: eval runs (pass@k before/after, the drop, outcome changes) --------------------- */

/* At most this many changed items are listed (the counts above always cover all). */
#define GB_REP_MAX_CHANGED 2000

/* The labels of the evals: the task type, with the model when the evals name several models,
 * numbered when still equal. Owned by the evals. */
static void gb_report__eval_labels(GbReport *r)
{
    bool models_differ = false;
    for (size_t i = 1; i < r->evals.len; i++)
        if (strcmp(r->evals.items[i].summary.model, r->evals.items[0].summary.model) != 0) models_differ = true;
    for (size_t i = 0; i < r->evals.len; i++) {
        GbRepEval *e = &r->evals.items[i];
        free(e->label);
        e->label =
            models_differ ? gb_asprintf("%s · %s", e->summary.task, e->summary.model) : gb_strdup(e->summary.task);
    }
    for (size_t i = 0; i < r->evals.len; i++) {
        size_t n = 1;
        for (size_t j = i + 1; j < r->evals.len; j++)
            if (strcmp(r->evals.items[j].label, r->evals.items[i].label) == 0) {
                char *l = gb_asprintf("%s #%zu", r->evals.items[j].label, ++n);
                free(r->evals.items[j].label);
                r->evals.items[j].label = l;
            }
    }
}

/* A file name without its directory and .jsonl. Owned. */
static char *gb_report__file_stem(const char *file)
{
    char *stem = gb_report__basename(file);
    if (gb_report__ends_with(stem, ".jsonl")) stem[strlen(stem) - 6] = '\0';
    return stem;
}

/* A version's label: "original" for 0, else its file name without .jsonl (with "vN" when two
 * versions of the eval share it). Owned. */
static char *gb_report__version_label(const GbEvalSummary *s, long version)
{
    if (version == 0) return gb_strdup("original");
    const char *file = NULL;
    for (size_t i = 0; i < s->versions.len; i++)
        if (s->versions.items[i].version == version) file = s->versions.items[i].file;
    if (!file) return gb_asprintf("v%ld", version);
    char *stem = gb_report__file_stem(file);
    bool dup = strcmp(stem, "original") == 0;
    for (size_t i = 0; i < s->versions.len; i++) {
        if (s->versions.items[i].version == version) continue;
        char *s2 = gb_report__file_stem(s->versions.items[i].file);
        if (strcmp(s2, stem) == 0) dup = true;
        free(s2);
    }
    if (!dup) return stem;
    char *l = gb_asprintf("v%ld %s", version, stem);
    free(stem);
    return l;
}

static void gb_report__pct(GbStr *out, double v)
{
    if (isfinite(v))
        gb_str_appendf(out, "%.1f%%", 100 * v);
    else
        gb_str_append(out, "<span class=\"na\">–</span>");
}

static void gb_report__count_cell(GbStr *out, size_t n)
{
    gb_str_appendf(out, "%g", (double)n);
}

/* The facts table's rows, in order. */
static const char *const gb_rep_eval_facts[] = {"model",           "task",
                                                "samples",         "temperature",
                                                "top_p",           "k",
                                                "items",           "tasks_without_items",
                                                "samples_planned", "samples_scored",
                                                "samples_cached",  "complete",
                                                "stopped_by"};

/* The cell of fact k (an index into gb_rep_eval_facts) of one summary. */
static void gb_report__eval_fact(GbStr *out, const GbEvalSummary *s, size_t k)
{
    const size_t counts[] = {
        0, 0, 0, 0, 0, 0, s->items, s->tasks_without_items, s->samples_planned, s->samples_scored, s->samples_cached};
    switch (k) {
    case 0:
        gb_report__esc(out, s->model);
        break;
    case 1:
        gb_report__esc(out, s->task);
        break;
    case 2:
        gb_str_appendf(out, "%g", (double)s->samples);
        break;
    case 3:
    case 4: {
        double v = k == 3 ? s->temperature : s->top_p;
        if (isfinite(v))
            gb_str_appendf(out, "%g", v);
        else
            gb_str_append(out, "<span class=\"na\">–</span>");
        break;
    }
    case 5:
        for (size_t i = 0; i < s->nk; i++) gb_str_appendf(out, "%s%ld", i ? ", " : "", s->k[i]);
        break;
    case 11:
        gb_str_append(out, s->complete ? "yes" : "no");
        break;
    case 12:
        if (s->stopped_by)
            gb_report__esc(out, s->stopped_by);
        else
            gb_str_append(out, "not stopped");
        break;
    default:
        gb_report__count_cell(out, counts[k]);
    }
}

static void gb_report__eval_facts(GbStr *out, GbReport *r)
{
    gb_str_append(out, "<div class=\"scroll\"><table class=\"facts runfacts\"><thead><tr><th></th>");
    for (size_t i = 0; i < r->evals.len; i++) {
        gb_str_append(out, "<th>");
        gb_report__esc(out, r->evals.items[i].label);
        gb_str_append(out, "</th>");
    }
    gb_str_append(out, "</tr></thead><tbody>\n<tr><td>summary</td>");
    for (size_t i = 0; i < r->evals.len; i++) {
        gb_str_append(out, "<td>");
        gb_report__esc(out, r->evals.items[i].summary_path);
        gb_str_append(out, "</td>");
    }
    gb_str_append(out, "</tr>\n<tr><td>results</td>");
    for (size_t i = 0; i < r->evals.len; i++) {
        gb_str_append(out, "<td>");
        if (r->evals.items[i].results_path)
            gb_report__esc(out, r->evals.items[i].results_path);
        else
            gb_str_append(out, "<span class=\"na\">not given</span>");
        gb_str_append(out, "</td>");
    }
    gb_str_append(out, "</tr>\n");
    for (size_t k = 0; k < sizeof gb_rep_eval_facts / sizeof gb_rep_eval_facts[0]; k++) {
        gb_str_appendf(out, "<tr><td>%s</td>", gb_rep_eval_facts[k]);
        for (size_t i = 0; i < r->evals.len; i++) {
            gb_str_append(out, "<td>");
            gb_report__eval_fact(out, &r->evals.items[i].summary, k);
            gb_str_append(out, "</td>");
        }
        gb_str_append(out, "</tr>\n");
    }
    gb_str_append(out, "</tbody></table></div>\n");
}

/* The pass@k chart of one eval, NULL when its summary holds no pass@k value. */
static json_t *gb_report__eval_passk_chart(const GbRepEval *e)
{
    const GbEvalSummary *s = &e->summary;
    json_t *rows = json_array();
    size_t nv = 0, nk = 0;
    for (size_t vi = 0; vi < s->versions.len; vi++) {
        const GbEvalSummaryVersion *v = &s->versions.items[vi];
        char *vl = gb_report__version_label(s, v->version);
        size_t kk = 0;
        for (size_t ki = 0; ki < s->nk; ki++) {
            if (!isfinite(v->pass_at[ki])) continue;
            json_t *row = json_object();
            gb_report__set_str(row, "version", vl);
            gb_report__set_str(row, "file", v->file);
            char *kl = gb_asprintf("pass@%ld", s->k[ki]);
            gb_report__set_str(row, "k", kl);
            free(kl);
            gb_report__set_num(row, "v", v->pass_at[ki]);
            json_object_set_new(row, "items", json_integer((json_int_t)v->items_scored));
            json_array_append_new(rows, row);
            kk++;
        }
        if (kk > nk) nk = kk;
        nv++;
        free(vl);
    }
    if (json_array_size(rows) == 0) {
        json_decref(rows);
        return NULL;
    }
    json_t *c = gb_report__layer(gb_rep_asset_eval_passk, rows);
    json_object_set_new(c, "width", json_integer((json_int_t)(nv * (nk * 34 + 24) < 200 ? 200 : nv * (nk * 34 + 24))));
    json_object_set_new(c, "title", json_pack("{s:s,s:i,s:s}", "text", e->label, "fontSize", 12, "anchor", "start"));
    return c;
}

/* pass@k: one chart per eval, so that they wrap with the page. */
static void gb_report__eval_passk(GbStr *out, GbReport *r)
{
    json_t *charts = json_array();
    for (size_t i = 0; i < r->evals.len; i++) {
        json_t *c = gb_report__eval_passk_chart(&r->evals.items[i]);
        if (c) json_array_append_new(charts, c);
    }
    if (json_array_size(charts))
        gb_report__chart_row(out, "chart-eval-passk", charts);
    else {
        gb_str_append(out, "<p class=\"note\">The summaries hold no pass@k value.</p>\n");
        json_decref(charts);
    }
}

/* The chart rows of one comparison: its drop (when defined) and its four outcome counts. */
static void gb_report__eval_compare_rows(const GbEvalComparison *c, const char *series, json_t *drows, json_t *orows)
{
    if (isfinite(c->relative_drop)) {
        json_t *row = json_object();
        gb_report__set_str(row, "series", series);
        gb_report__set_num(row, "drop", c->relative_drop);
        if (isfinite(c->drop_lo) && isfinite(c->drop_hi)) {
            gb_report__set_num(row, "lo", c->drop_lo);
            gb_report__set_num(row, "hi", c->drop_hi);
        }
        gb_report__set_num(row, "p1o", c->pass1_original);
        gb_report__set_num(row, "p1v", c->pass1_version);
        json_object_set_new(row, "items", json_integer((json_int_t)c->items));
        json_array_append_new(drows, row);
    }
    static const char *const onames[4] = {"lost", "gained", "both pass", "both fail"};
    const size_t n[4] = {c->lost, c->gained, c->both_pass, c->both_fail};
    for (int k = 0; k < 4; k++) {
        json_t *row = json_object();
        gb_report__set_str(row, "series", series);
        gb_report__set_str(row, "outcome", onames[k]);
        json_object_set_new(row, "order", json_integer(k));
        json_object_set_new(row, "n", json_integer((json_int_t)n[k]));
        json_array_append_new(orows, row);
    }
}

/* One comparison's row of the table. */
static void gb_report__eval_compare_cells(GbStr *tab, const GbEvalComparison *c, const char *label, const char *vl)
{
    gb_str_append(tab, "<tr><td>");
    gb_report__esc(tab, label);
    gb_str_append(tab, "</td><td>");
    gb_report__esc(tab, vl);
    gb_str_append(tab, "</td><td>");
    gb_report__count_cell(tab, c->items);
    gb_str_append(tab, "</td><td>");
    gb_report__pct(tab, c->pass1_original);
    gb_str_append(tab, "</td><td>");
    gb_report__pct(tab, c->pass1_version);
    gb_str_append(tab, "</td><td>");
    gb_report__pct(tab, c->relative_drop);
    gb_str_append(tab, "</td><td>");
    if (isfinite(c->drop_lo) && isfinite(c->drop_hi))
        gb_str_appendf(tab, "[%.1f%%, %.1f%%]", 100 * c->drop_lo, 100 * c->drop_hi);
    else
        gb_str_append(tab, "<span class=\"na\">undefined</span>");
    const size_t n[4] = {c->lost, c->gained, c->both_pass, c->both_fail};
    for (int k = 0; k < 4; k++) {
        gb_str_append(tab, "</td><td>");
        gb_report__count_cell(tab, n[k]);
    }
    gb_str_append(tab, "</td></tr>\n");
}

/* The drop and the outcome counts, one row per (eval, hardened version): two charts and a table. */
static void gb_report__eval_compare(GbStr *out, GbReport *r)
{
    json_t *drows = json_array(), *orows = json_array();
    GbStr tab;
    gb_str_init(&tab);
    gb_str_append(&tab, "<div class=\"scroll\"><table class=\"facts\"><thead><tr><th>task type</th><th>version</th>"
                        "<th>paired items</th><th>pass@1 original</th><th>pass@1 version</th><th>relative drop</th>"
                        "<th>95% interval</th><th>lost</th><th>gained</th><th>both pass</th><th>both fail</th>"
                        "</tr></thead><tbody>\n");
    for (size_t i = 0; i < r->evals.len; i++) {
        GbRepEval *e = &r->evals.items[i];
        for (size_t ci = 0; ci < e->summary.comparisons.len; ci++) {
            const GbEvalComparison *c = &e->summary.comparisons.items[ci];
            char *vl = gb_report__version_label(&e->summary, c->version);
            char *series = gb_asprintf("%s: %s", e->label, vl);
            gb_report__eval_compare_rows(c, series, drows, orows);
            gb_report__eval_compare_cells(&tab, c, e->label, vl);
            free(series);
            free(vl);
        }
    }
    gb_str_append(&tab, "</tbody></table></div>\n");
    if (json_array_size(drows)) {
        gb_str_append(out, "<h3>Relative drop</h3>\n");
        gb_report__chart(out, "chart-eval-drop", gb_report__spec(gb_rep_asset_eval_drop, drows));
    } else {
        gb_str_append(out, "<p class=\"note\">No comparison with a defined drop (no hardened version, or pass@1 of "
                           "the original is 0).</p>\n");
        json_decref(drows);
    }
    if (json_array_size(orows)) {
        gb_str_append(out, "<h3>Per-item outcome, original against each version</h3>\n");
        gb_report__chart(out, "chart-eval-outcomes", gb_report__spec(gb_rep_asset_eval_outcomes, orows));
    } else {
        json_decref(orows);
    }
    gb_str_append(out, tab.data);
    gb_str_destroy(&tab);
}

/* The rows of the items of one eval whose outcome changed against one version; *changed counts
 * them all, *listed those written (at most GB_REP_MAX_CHANGED over the page). */
static void gb_report__eval_changed_rows(GbStr *rows, const GbRepEval *e, long ver, size_t *changed, size_t *listed)
{
    char *vl = gb_report__version_label(&e->summary, ver);
    for (size_t i = 0; i < e->items.len; i++) {
        const GbRepEvalItem *it = &e->items.items[i];
        long a, b, x, y;
        int so = gb_report__solved(it, 0, &a, &b), sv = gb_report__solved(it, ver, &x, &y);
        if (so < 0 || sv < 0 || so == sv) continue;
        (*changed)++;
        if (*listed >= GB_REP_MAX_CHANGED) continue;
        (*listed)++;
        gb_str_append(rows, "<tr><td>");
        gb_report__esc(rows, e->label);
        gb_str_append(rows, "</td><td>");
        gb_report__esc(rows, vl);
        gb_str_append(rows, "</td><td>");
        gb_report__esc(rows, it->id);
        gb_str_appendf(rows, "</td><td data-v=\"%g\">%lld / %lld</td><td data-v=\"%g\">%lld / %lld</td>",
                       (double)a / (double)b, (long long)a, (long long)b, (double)x / (double)y, (long long)x,
                       (long long)y);
        gb_str_appendf(rows, "<td class=\"%s\">%s</td></tr>\n", so ? "bad" : "good", so ? "lost" : "gained");
    }
    free(vl);
}

/* The items that changed, from the per-sample results. */
static void gb_report__eval_changed(GbStr *out, GbReport *r)
{
    gb_str_append(out, "<h3>Items that changed</h3>\n");
    bool any_results = false;
    size_t listed = 0, changed = 0;
    GbStr rows;
    gb_str_init(&rows);
    for (size_t i = 0; i < r->evals.len; i++) {
        const GbRepEval *e = &r->evals.items[i];
        if (!e->has_results) continue;
        any_results = true;
        for (size_t ci = 0; ci < e->summary.comparisons.len; ci++)
            gb_report__eval_changed_rows(&rows, e, e->summary.comparisons.items[ci].version, &changed, &listed);
    }
    if (!any_results) {
        gb_str_append(out, "<p class=\"note\">No per-sample results given: pass <code>--eval "
                           "SUMMARY.json,RESULTS.jsonl</code> (the <code>-o</code> file of <code>genebench "
                           "eval</code>) to list the items whose outcome changed.</p>\n");
    } else if (changed == 0) {
        gb_str_append(out, "<p>No item changed outcome: every paired item is solved on both or on neither.</p>\n");
    } else {
        gb_str_appendf(out, "<p>%zu item(s) changed outcome", changed);
        if (listed < changed) gb_str_appendf(out, "; the first %zu are listed", listed);
        gb_str_append(out, " (an item is a task id, with #k for the k-th assert of a task with several; original and "
                           "version: samples that passed / samples scored; click a heading to sort).</p>\n");
        gb_str_append(out, "<div class=\"scroll\"><table class=\"tasks sortable\" id=\"eval-changed\"><thead><tr>"
                           "<th>task type</th><th>version</th><th>item</th>"
                           "<th data-type=\"num\">original</th>"
                           "<th data-type=\"num\">version</th><th>change</th></tr></thead><tbody>\n");
        gb_str_append(out, rows.data);
        gb_str_append(out, "</tbody></table></div>\n");
    }
    gb_str_destroy(&rows);
}

void gb_report__panel_eval(GbStr *out, GbReport *r)
{
    gb_str_append(out, "<section id=\"eval\"><h2>Model evaluation</h2>\n"
                       "<p>Runs of <code>genebench eval</code>: a model predicted outputs or inputs (or repaired or "
                       "translated programs) on the original benchmark and on each hardened version, every answer "
                       "scored by execution in the sandbox. pass@k per task type and version; the relative drop "
                       "(pass@1 original − pass@1 version) / pass@1 original with its percentile bootstrap 95% "
                       "interval over items; and per item whether the model still solves it (an item counts as "
                       "solved when at least half of its samples pass): <b>lost</b> (solved on the original only), "
                       "<b>gained</b>, <b>both pass</b>, <b>both fail</b>.</p>\n");
    gb_report__eval_labels(r);
    gb_report__eval_facts(out, r);
    gb_report__eval_passk(out, r);
    gb_report__eval_compare(out, r);
    gb_report__eval_changed(out, r);
    gb_str_append(out, "</section>\n");
}
