/* Panels: metric distributions before/after, and the per-metric change. */
#include "src/report/report_private.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "src/report/summary.h"

/* ---- panel: metric distributions before/after ---------------------------------------------- */

/* One chart per metric: a box per series, then the threshold as a rule with its value (or, when
 * it is off scale, in the chart's subtitle). Each layer carries its own data, so no layer is ever
 * empty. */
/* A threshold more than this many times the largest value is written in the chart's subtitle
 * instead of stretching the scale until the boxes are flat. */
#define GB_REP_OFFSCALE 3.0

static bool gb_report__first_of_group(const GbReport *r, size_t i)
{
    for (size_t j = 0; j < i; j++)
        if (strcmp(r->runs.items[j].group, r->runs.items[i].group) == 0) return false;
    return true;
}

/* A box plot row: one value of one task in one series. */
static void gb_report__box_row(json_t *rows, const char *series, int phase, double v, const GbRepTask *task)
{
    json_t *row = json_object();
    gb_report__set_str(row, "series", series);
    gb_report__set_str(row, "phase", phase ? "hardened" : "original");
    gb_report__set_num(row, "v", v);
    gb_report__set_str(row, "task", gb_report__task_id(task));
    json_array_append_new(rows, row);
}

/* The box plot rows of every metric (vals, with each one's largest value in maxv) and of RC and
 * RR (rel). Returns the number of series (boxes per chart). */
static size_t gb_report__metrics_collect(const GbReport *r, json_t **vals, json_t **rel, double *maxv)
{
    size_t ngroups = gb_report__ngroups(r), nseries = 0;
    for (size_t i = 0; i < r->runs.len; i++) {
        const GbRepRun *run = &r->runs.items[i];
        char *before = ngroups > 1 ? gb_asprintf("%s original", run->group) : gb_strdup("original");
        const char *after = r->runs.len > 1 ? run->label : "hardened";
        bool first = gb_report__first_of_group(r, i);
        for (int phase = 0; phase < 2; phase++) {
            /* Versions of one benchmark share their originals: one "original" box per group. */
            if (phase == 0 && !first) continue;
            nseries++;
            for (size_t ti = 0; ti < run->tasks.len; ti++) {
                const GbRepTask *task = &run->tasks.items[ti];
                if (!task->rec.has_scores) continue;
                const GbRecordScore *sc = phase ? &task->rec.after : &task->rec.before;
                double v;
                for (int q = 0; q < 2; q++)
                    if (gb_report__finite(q ? sc->rr : sc->rc, &v))
                        gb_report__box_row(rel[q], phase ? after : before, phase, v, task);
                for (size_t k = 0; k < GB_REP_NMETRICS; k++) {
                    if (!gb_report__finite(sc->metrics[k], &v)) continue;
                    gb_report__box_row(vals[k], phase ? after : before, phase, v, task);
                    if (v > maxv[k]) maxv[k] = v;
                }
            }
        }
        free(before);
    }
    return nseries;
}

/* The chart of metric k: its boxes (takes vals) and the thresholds as rules, or in the subtitle
 * when off scale. */
static json_t *gb_report__metric_chart(const GbReport *r, size_t k, json_t *vals, double maxv, size_t width,
                                       bool legend)
{
    int c = gb_rep_metrics[k].kind == 'C' ? 0 : 1;
    size_t cell = width + 80;
    json_t *layers = json_array();
    json_array_append_new(layers, gb_report__layer(gb_rep_asset_metric_box, vals));
    json_t *rule = json_array();
    GbStr off;
    gb_str_init(&off);
    for (size_t ti = 0; ti < r->thresholds.len; ti++) {
        const GbRepThresholds *t = &r->thresholds.items[ti];
        if (!t->loaded || !t->has[k]) continue;
        char *label = gb_asprintf("%s %g", c == 0 ? "CT" : "RT", t->value[k]);
        if (maxv > 0 && t->value[k] > GB_REP_OFFSCALE * maxv) {
            gb_str_appendf(&off, "%s%s ↑ off scale", off.len ? ", " : "", label);
        } else {
            json_t *row = json_object();
            gb_report__set_num(row, "v", t->value[k]);
            gb_report__set_str(row, "label", label);
            gb_report__set_str(row, "what", c == 0 ? "CT (target)" : "RT (limit)");
            gb_report__set_str(row, "file", t->name);
            json_array_append_new(rule, row);
        }
        free(label);
    }
    if (json_array_size(rule)) {
        json_array_append_new(layers, gb_report__layer(gb_rep_asset_metric_rule, json_copy(rule)));
        json_t *text = gb_report__layer(gb_rep_asset_metric_rule_label, json_incref(rule));
        json_object_set_new(json_object_get(text, "encoding"), "x", json_pack("{s:i}", "value", (int)(width - 2)));
        json_array_append_new(layers, text);
    }
    json_decref(rule);
    char *title = gb_asprintf("%s %s", gb_rep_metrics[k].id, gb_rep_metrics[k].label);
    json_t *tobj = json_pack("{s:s,s:i,s:s,s:i,s:s}", "text", title, "fontSize", 11, "anchor", "start", "limit",
                             (int)(cell - 10), "subtitleColor", "#d62728");
    json_object_set_new(tobj, "subtitle", json_string(off.len ? off.data : " "));
    if (!legend)
        json_object_set_new(json_object_get(json_object_get(json_array_get(layers, 0), "encoding"), "color"), "legend",
                            json_null());
    gb_str_destroy(&off);
    free(title);
    return json_pack("{s:o,s:i,s:o}", "title", tobj, "width", (int)width, "layer", layers);
}

/* The charts of RC and RR (takes rel[0] and rel[1]). */
static void gb_report__metrics_relative(GbStr *out, json_t **rel, size_t width)
{
    gb_str_append(out, "<h3>Relative complexity RC and readability RR</h3>\n");
    if (json_array_size(rel[0]) + json_array_size(rel[1]) == 0) {
        gb_str_append(out, "<p class=\"note\">No RC/RR values in the input.</p>\n");
        json_decref(rel[0]), json_decref(rel[1]);
        return;
    }
    json_t *charts = json_array();
    for (int q = 0; q < 2; q++) {
        if (json_array_size(rel[q]) == 0) {
            json_decref(rel[q]);
            continue;
        }
        json_t *box = gb_report__layer(gb_rep_asset_metric_box, rel[q]);
        json_t *enc = json_object_get(box, "encoding");
        json_object_set_new(json_object_get(enc, "y"), "scale", json_pack("{s:[ii]}", "domain", 0, 1));
        if (json_array_size(charts) > 0) json_object_set_new(json_object_get(enc, "color"), "legend", json_null());
        json_t *tobj = json_pack("{s:s,s:i,s:s}", "text", q ? "RR relative readability" : "RC relative complexity",
                                 "fontSize", 11, "anchor", "start");
        json_array_append_new(charts, json_pack("{s:o,s:i,s:[o]}", "title", tobj, "width", (int)width, "layer", box));
    }
    gb_report__chart_row(out, "chart-relative", charts);
}

void gb_report__panel_metrics(GbStr *out, GbReport *r)
{
    json_t *vals[GB_REP_NMETRICS], *rel[2] = {json_array(), json_array()}; /* C1..R14; RC, RR */
    double maxv[GB_REP_NMETRICS] = {0};
    for (size_t k = 0; k < GB_REP_NMETRICS; k++) vals[k] = json_array();
    size_t nseries = gb_report__metrics_collect(r, vals, rel, maxv);
    gb_str_append(out, "<section id=\"metrics\"><h2>Metrics before and after</h2>\n"
                       "<p>Distribution over the tasks of each complexity metric (C1–C7) and readability metric "
                       "(R1–R14), for the original programs and the hardened ones. Boxes span the quartiles with the "
                       "median; whiskers reach the minimum and maximum. The dashed red line is the threshold of the "
                       "run's thresholds file: the complexity target CT<sub>i</sub> that RC measures against, and the "
                       "readability limit RT<sub>j</sub> that no hardened program may exceed. A threshold more than "
                       "three times above every value is written under the chart's title (\"off scale\") instead, "
                       "so that the boxes stay readable. Last, the same for the relative complexity RC and the "
                       "relative readability RR of each program.</p>\n");
    bool any_t = false;
    for (size_t ti = 0; ti < r->thresholds.len; ti++) any_t |= r->thresholds.items[ti].loaded;
    if (!any_t)
        gb_str_append(out, "<p class=\"note\">No thresholds file could be read: thresholds are not drawn.</p>\n");
    /* One 34-pixel band per series (at least 100 pixels wide); the charts wrap with the page. */
    size_t width = nseries * 34 < 100 ? 100 : nseries * 34;
    for (int c = 0; c < 2; c++) {
        char kind = c == 0 ? 'C' : 'R';
        gb_str_appendf(out, "<h3>%s</h3>\n", c == 0 ? "Complexity C1–C7" : "Readability R1–R14");
        json_t *charts = json_array();
        for (size_t k = 0; k < GB_REP_NMETRICS; k++) {
            if (gb_rep_metrics[k].kind != kind) continue;
            if (json_array_size(vals[k]) == 0) {
                json_decref(vals[k]);
                continue;
            }
            /* The colour legend once per row, on its first chart. */
            json_array_append_new(charts,
                                  gb_report__metric_chart(r, k, vals[k], maxv[k], width, json_array_size(charts) == 0));
        }
        if (json_array_size(charts) == 0) {
            gb_str_append(out, "<p class=\"note\">No metric values in the input.</p>\n");
            json_decref(charts);
            continue;
        }
        gb_report__chart_row(out, c == 0 ? "chart-complexity" : "chart-readability", charts);
    }
    gb_report__metrics_relative(out, rel, width);
    gb_str_append(out, "</section>\n");
}

/* ---- panel: per-metric change ------------------------------------------------------------- */

/* The share of the evolved tasks in which each metric rose, one bar per run, with the quarter
 * mark as a dashed rule. Each layer carries its own data. */
/* A metric counts as raised across a run when it rose in at least this share of its tasks
 * (the goal: every C_i raised in a quarter of the tasks or more). */
#define GB_REP_RAISED_SHARE 0.25

/* The table's head: one pair of columns per run. */
static void gb_report__change_head(GbStr *out, const GbReport *r)
{
    size_t nruns = r->runs.len;
    gb_str_append(out, "<div class=\"scroll\"><table class=\"facts change\" id=\"change-table\"><thead>");
    if (nruns > 1) {
        gb_str_append(out, "<tr><th></th><th></th>");
        for (size_t i = 0; i < nruns; i++) {
            gb_str_append(out, "<th colspan=\"2\">");
            gb_report__esc(out, r->runs.items[i].label);
            gb_str_append(out, "</th>");
        }
        gb_str_append(out, "</tr>");
    }
    gb_str_append(out, "<tr><th>metric</th><th>what</th>");
    for (size_t i = 0; i < nruns; i++) gb_str_append(out, "<th>mean before → after</th><th>raised in</th>");
    gb_str_append(out, "</tr></thead><tbody>\n");
}

/* Metric k's cells of the table (one pair per run), and its chart rows. */
static void gb_report__change_cells(GbStr *out, json_t *rows, const GbReport *r, GbMetricChange (*ch)[GB_METRIC_COUNT],
                                    size_t k)
{
    size_t nruns = r->runs.len;
    for (size_t i = 0; i < nruns; i++) {
        const GbMetricChange *c = &ch[i][k];
        if (!c->tasks) {
            gb_str_append(out, "<td><span class=\"na\">–</span></td><td><span class=\"na\">–</span></td>");
            continue;
        }
        double n = (double)c->tasks, before = c->before_sum / n, after = c->after_sum / n,
               pct = 100.0 * (double)c->raised / n;
        bool up = gb_rep_metrics[k].kind == 'C' && (double)c->raised >= GB_REP_RAISED_SHARE * n;
        gb_str_appendf(out, "<td>%.2f → %.2f</td><td%s>%ld/%ld (%.0f%%)%s</td>", before, after,
                       up ? " class=\"good\"" : "", c->raised, c->tasks, pct, up ? " ✓" : "");
        json_t *row = json_object();
        gb_report__set_str(row, "run", r->runs.items[i].label);
        gb_report__set_str(row, "metric", gb_rep_metrics[k].id);
        gb_report__set_str(row, "label", gb_rep_metrics[k].label);
        json_object_set_new(row, "rank", json_integer((json_int_t)k));
        gb_report__set_num(row, "before", before);
        gb_report__set_num(row, "after", after);
        json_object_set_new(row, "raised", json_integer(c->raised));
        json_object_set_new(row, "lowered", json_integer(c->lowered));
        json_object_set_new(row, "tasks", json_integer(c->tasks));
        gb_report__set_num(row, "pct", pct);
        json_array_append_new(rows, row);
    }
}

/* Per run, in words: which complexity metrics rose in a quarter of the tasks or more. */
static void gb_report__change_words(GbStr *out, const GbReport *r, size_t i, const GbMetricChange *ch)
{
    GbStr yes, no;
    gb_str_init(&yes);
    gb_str_init(&no);
    size_t nyes = 0, nc = 0;
    for (size_t k = 0; k < GB_REP_NMETRICS; k++) {
        const GbMetricChange *c = &ch[k];
        if (gb_rep_metrics[k].kind != 'C' || !c->tasks) continue;
        nc++;
        bool up = (double)c->raised >= GB_REP_RAISED_SHARE * (double)c->tasks;
        GbStr *s = up ? &yes : &no;
        gb_str_appendf(s, "%s%s", s->len ? ", " : "", gb_rep_metrics[k].id);
        nyes += up;
    }
    gb_str_append(out, "<li>");
    gb_report__esc(out, r->runs.items[i].label);
    if (nc == 0) {
        gb_str_append(out, ": no complexity values");
    } else {
        gb_str_appendf(out, ": %zu of %zu complexity metrics raised in a quarter of the tasks or more", nyes, nc);
        if (yes.len) gb_str_appendf(out, " (%s)", yes.data);
        if (no.len) gb_str_appendf(out, "; below a quarter: %s", no.data);
    }
    gb_str_append(out, "</li>");
    gb_str_destroy(&yes);
    gb_str_destroy(&no);
}

/* The chart: the share of the tasks in which each metric rose, per run. Takes rows. */
static void gb_report__change_chart(GbStr *out, const GbReport *r, json_t *rows)
{
    size_t nruns = r->runs.len;
    json_error_t jerr;
    json_t *spec = json_loads(gb_rep_asset_change, 0, &jerr);
    assert(spec && "a chart template is not valid JSON");
    json_object_set_new(spec, "$schema", json_string("https://vega.github.io/schema/vega-lite/v5.json"));
    size_t width = GB_REP_NMETRICS * (nruns * 10 + 8);
    json_object_set_new(spec, "width", json_integer((json_int_t)(width < 560 ? 560 : width)));
    json_t *layers = json_object_get(spec, "layer"), *bars = json_array_get(layers, 0);
    json_object_set_new(bars, "data", json_pack("{s:o}", "values", rows));
    json_t *enc = json_object_get(bars, "encoding");
    json_object_set_new(json_object_get(enc, "color"), "scale", json_pack("{s:o}", "domain", gb_report__run_order(r)));
    json_object_set_new(json_object_get(enc, "xOffset"), "sort", gb_report__run_order(r));
    json_object_set_new(json_array_get(layers, 1), "data",
                        json_pack("{s:[{s:i,s:s}]}", "values", "q", (int)(GB_REP_RAISED_SHARE * 100), "what",
                                  "a quarter of the tasks"));
    gb_report__chart(out, "chart-change", spec);
}

void gb_report__panel_change(GbStr *out, GbReport *r)
{
    size_t nruns = r->runs.len;
    GbMetricChange(*ch)[GB_METRIC_COUNT] = gb_calloc(nruns ? nruns : 1, sizeof *ch);
    bool any = false;
    for (size_t i = 0; i < nruns; i++) {
        const GbRepRun *run = &r->runs.items[i];
        for (size_t ti = 0; ti < run->tasks.len; ti++) gb_metric_change_add(ch[i], &run->tasks.items[ti].rec);
        for (size_t k = 0; k < GB_REP_NMETRICS; k++) any |= ch[i][k].tasks > 0;
    }
    gb_str_append(out, "<section id=\"change\"><h2>Per-metric change</h2>\n"
                       "<p>For each metric, over the tasks that evolved (status hardened or unchanged; tasks whose "
                       "original fails its tests or that hit an error are left out): the mean before → after, and in "
                       "how many of those tasks the value after is higher than before (raised in <i>n</i>/<i>N</i>, "
                       "with the share). Complexity C1–C7 first: those are what hardening raises; a readability "
                       "metric R<sub>j</sub> that rises makes the program harder to read, within the limit "
                       "RT<sub>j</sub>. A complexity metric raised in a quarter of the tasks or more is marked ✓ (the "
                       "dashed line in the chart). "
                       "Computed from the output records, as the summary's <code>metrics</code> is.</p>\n");
    if (!any) {
        gb_str_append(out, "<p class=\"note\">No task evolved (or none has before/after metrics): nothing to "
                           "compare.</p></section>\n");
        free(ch);
        return;
    }
    gb_report__change_head(out, r);
    json_t *rows = json_array();
    for (size_t k = 0; k < GB_REP_NMETRICS; k++) {
        gb_str_appendf(out, "<tr data-metric=\"%s\"><th>%s</th><td>", gb_rep_metrics[k].id, gb_rep_metrics[k].id);
        gb_report__esc(out, gb_rep_metrics[k].label);
        gb_str_append(out, "</td>");
        gb_report__change_cells(out, rows, r, ch, k);
        gb_str_append(out, "</tr>\n");
    }
    gb_str_append(out, "</tbody></table></div>\n<ul class=\"change\">");
    for (size_t i = 0; i < nruns; i++) gb_report__change_words(out, r, i, ch[i]);
    gb_str_append(out, "</ul>\n");
    gb_report__change_chart(out, r, rows);
    gb_str_append(out, "</section>\n");
    free(ch);
}
