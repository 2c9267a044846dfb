/* Panel: versions of one benchmark (similarity of every pair, NNMR). */
#include "src/report/report_private.h"

#include <stdlib.h>
#include <string.h>

#include "src/doc/sim_measure_list.h"

/* ---- panel: versions (similarity, NNMR) ---------------------------------------------------- */

/* Similarity measures of similarity.json (src/doc/sim_measure_list.h), in the order the panel
 * shows them. */
static const char *const gb_rep_measures[GB_SIM_MEASURE_COUNT] = {
#define GB_SIM_MEASURE(id, key, command_key, panel, corpus, field) [panel] = key,
    GB_SIM_MEASURE_LIST
#undef GB_SIM_MEASURE
};
#define GB_REP_NMEASURES (sizeof gb_rep_measures / sizeof gb_rep_measures[0])

/* Numeric and string leaves of an object as "a.b" paths, in order. */
static void gb_report__leaves(json_t *obj, const char *prefix, json_t *out)
{
    const char *k;
    json_t *v;
    json_object_foreach(obj, k, v)
    {
        char *path = prefix ? gb_asprintf("%s.%s", prefix, k) : gb_strdup(k);
        if (json_is_object(v))
            gb_report__leaves(v, path, out);
        else if (json_is_number(v) || json_is_string(v) || json_is_boolean(v))
            json_array_append_new(out, json_pack("[sO]", path, v));
        free(path);
    }
}

/* One pair of versions: its row of the means table and its per-task values as chart rows. */
static void gb_report__versions_pair(GbStr *tables, json_t *rows, const GbRepVersions *v, json_t *pair, bool prefix)
{
    const char *a = gb_report__str(json_object_get(pair, "a")), *b = gb_report__str(json_object_get(pair, "b"));
    char *label = prefix ? gb_asprintf("%s: %s vs %s", v->group, a ? a : "?", b ? b : "?")
                         : gb_asprintf("%s vs %s", a ? a : "?", b ? b : "?");
    json_t *per = json_object_get(pair, "per_task");
    double sum[GB_REP_NMEASURES] = {0}, cnt[GB_REP_NMEASURES] = {0};
    size_t ti;
    json_t *t;
    json_array_foreach(per, ti, t)
    {
        for (size_t m = 0; m < GB_REP_NMEASURES; m++) {
            double x;
            if (!gb_report__num(json_object_get(t, gb_rep_measures[m]), &x)) continue;
            sum[m] += x, cnt[m] += 1;
            json_t *row = json_object();
            gb_report__set_str(row, "pair", label);
            gb_report__set_str(row, "measure", gb_rep_measures[m]);
            json_object_set_new(row, "order", json_integer((json_int_t)m));
            gb_report__set_str(row, "task", gb_report__str(json_object_get(t, "id")));
            gb_report__set_num(row, "v", x);
            json_array_append_new(rows, row);
        }
    }
    gb_str_append(tables, "<tr><td>");
    gb_report__esc(tables, label);
    gb_str_appendf(tables, "</td><td>%zu</td>", json_array_size(per));
    json_t *summary = json_object_get(pair, "summary");
    for (size_t m = 0; m < GB_REP_NMEASURES; m++) {
        gb_str_append(tables, "<td>");
        /* summary.<measure> is {mean, median, q1, q3, min, max}; older files held the bare mean */
        json_t *sv = json_object_get(summary, gb_rep_measures[m]);
        if (json_is_object(sv)) sv = json_object_get(sv, "mean");
        if (json_is_number(sv))
            gb_report__fmt(tables, sv, "%.4f");
        else if (cnt[m] > 0)
            gb_str_appendf(tables, "%.4f", sum[m] / cnt[m]);
        else
            gb_report__fmt(tables, NULL, "");
        gb_str_append(tables, "</td>");
    }
    gb_str_append(tables, "</tr>");
    free(label);
}

/* The NNMR table of a versions directory, and its percentages as chart rows. */
static void gb_report__versions_nnmr(GbStr *tables, json_t *nrows, const GbRepVersions *v, json_t *nnmr, bool prefix)
{
    json_t *leaves = json_array();
    gb_report__leaves(nnmr, NULL, leaves);
    gb_str_append(tables, "<table class=\"facts\"><thead><tr><th>NNMR</th><th>value</th></tr></thead><tbody>");
    size_t li;
    json_t *leaf;
    json_array_foreach(leaves, li, leaf)
    {
        const char *k = json_string_value(json_array_get(leaf, 0));
        json_t *val = json_array_get(leaf, 1);
        gb_str_append(tables, "<tr><td>");
        gb_report__esc(tables, k);
        gb_str_append(tables, "</td><td>");
        /* top-level "<a>_to_<b>" keys are the NNMR percentages; nested ones are graded measures */
        bool pct = strstr(k, "_to_") && !strchr(k, '.');
        gb_report__fmt(tables, val, pct ? "%.2f %%" : "%.4g");
        gb_str_append(tables, "</td></tr>");
        double x;
        if (pct && gb_report__num(val, &x)) {
            char *label = prefix ? gb_asprintf("%s: %s", v->group, k) : gb_strdup(k);
            json_t *row = json_object();
            gb_report__set_str(row, "k", label);
            gb_report__set_num(row, "v", x);
            json_array_append_new(nrows, row);
            free(label);
        }
    }
    gb_str_append(tables, "</tbody></table>\n");
    json_decref(leaves);
}

/* The means table and the NNMR of one versions directory. */
static void gb_report__versions_tables(GbStr *tables, json_t *rows, json_t *nrows, const GbReport *r, size_t vi)
{
    const GbRepVersions *v = &r->versions.items[vi];
    bool prefix = r->versions.len > 1;
    if (prefix) {
        gb_str_append(tables, "<h3>");
        gb_report__esc(tables, v->group);
        gb_str_append(tables, "</h3>");
    }
    gb_str_append(tables, "<table class=\"facts\"><thead><tr><th>pair</th><th>tasks</th>");
    for (size_t m = 0; m < GB_REP_NMEASURES; m++) gb_str_appendf(tables, "<th>%s (mean)</th>", gb_rep_measures[m]);
    gb_str_append(tables, "</tr></thead><tbody>");
    size_t pi;
    json_t *pair;
    json_array_foreach(json_object_get(v->sim, "pairs"), pi, pair)
        gb_report__versions_pair(tables, rows, v, pair, prefix);
    gb_str_append(tables, "</tbody></table>\n");
    json_t *nnmr = json_object_get(v->sim, "nnmr");
    if (json_is_object(nnmr)) {
        gb_report__versions_nnmr(tables, nrows, v, nnmr, prefix);
    } else {
        gb_str_append(tables, "<p class=\"note\">");
        gb_report__esc(tables, v->path);
        gb_str_append(tables, " has no \"nnmr\".</p>\n");
    }
}

/* The similarity charts: one per measure (not one facet), so that they wrap with the page. Takes rows. */
static void gb_report__versions_charts(GbStr *out, json_t *rows)
{
    json_t *spec = gb_report__spec(gb_rep_asset_versions_similarity, rows), *charts = json_array();
    for (size_t m = 0; m < GB_REP_NMEASURES; m++) {
        json_t *mrows = json_array();
        size_t ri;
        json_t *row;
        json_array_foreach(rows, ri, row)
        {
            if (strcmp(gb_report__str(json_object_get(row, "measure")), gb_rep_measures[m]) == 0)
                json_array_append(mrows, row);
        }
        if (json_array_size(mrows) == 0) {
            json_decref(mrows);
            continue;
        }
        json_t *c = json_deep_copy(json_object_get(spec, "spec"));
        json_object_set_new(c, "title",
                            json_pack("{s:s,s:i,s:s}", "text", gb_rep_measures[m], "fontSize", 12, "anchor", "start"));
        json_object_set_new(c, "data", json_pack("{s:o}", "values", mrows));
        json_array_append_new(charts, c);
    }
    json_decref(spec);
    gb_report__chart_row(out, "chart-similarity", charts);
}

void gb_report__panel_versions(GbStr *out, GbReport *r)
{
    gb_str_append(out, "<section id=\"versions\"><h2>Versions</h2>\n"
                       "<p>Several seeded versions of one benchmark (<code>genebench versions</code>): for every "
                       "pair of versions, the distribution over tasks of CodeBLEU (with its four parts: n-gram, "
                       "weighted n-gram, syntax and dataflow match), and the cosine and Jaccard similarity of the "
                       "code tokens. Lower means the versions differ more. NNMR is the percentage of programs whose "
                       "nearest neighbour (cosine of embeddings) in the other set is not their own counterpart, per "
                       "direction.</p>\n");
    if (r->versions.len == 0) {
        gb_str_append(out, "<p class=\"note\">No versions directory with a similarity.json among the inputs: pass "
                           "the output directory of <code>genebench versions</code> to compare seeds.</p></section>\n");
        return;
    }
    json_t *rows = json_array(), *nrows = json_array();
    GbStr tables;
    gb_str_init(&tables);
    for (size_t vi = 0; vi < r->versions.len; vi++) gb_report__versions_tables(&tables, rows, nrows, r, vi);
    if (json_array_size(rows)) {
        gb_report__versions_charts(out, rows);
    } else {
        gb_str_append(out, "<p class=\"note\">similarity.json has no per-task values.</p>\n");
        json_decref(rows);
    }
    if (json_array_size(nrows))
        gb_report__chart(out, "chart-nnmr", gb_report__spec(gb_rep_asset_versions_nnmr, nrows));
    else
        json_decref(nrows);
    gb_str_append(out, tables.data);
    gb_str_destroy(&tables);
    gb_str_append(out, "</section>\n");
}
