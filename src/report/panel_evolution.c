/* Panels of the evolution: RC against RR (fronts, picks), the operators, the gates, the added text. */
#include "src/report/report_private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nsga2/gate_list.h"

/* ---- panel: RC vs RR ----------------------------------------------------------------------- */

/* The codes of a pick's steps (steps) or of a front member (codes), space-separated. Owned. */
char *gb_report__op_list(const GbRecord *rec, const GbRecordFrontMember *member)
{
    GbStr s;
    gb_str_init(&s);
    gb_str_append(&s, "");
    size_t n = member ? member->operators.len : rec->operators.len;
    for (size_t i = 0; i < n; i++) {
        if (s.len) gb_str_append(&s, " ");
        gb_str_append(&s, member ? member->operators.items[i] : rec->operators.items[i].op);
    }
    return gb_str_take(&s);
}

static void gb_report__point(json_t *rows, const char *run, const char *task, const char *kind, double rc, double rr,
                             const char *ops)
{
    json_t *row = json_object();
    gb_report__set_str(row, "run", run);
    gb_report__set_str(row, "task", task);
    gb_report__set_str(row, "kind", kind);
    gb_report__set_num(row, "rc", rc);
    gb_report__set_num(row, "rr", rr);
    gb_report__set_str(row, "ops", ops);
    json_array_append_new(rows, row);
}

void gb_report__panel_scatter(GbStr *out, GbReport *r)
{
    json_t *rows = json_array();
    size_t points = 0, fronts = 0, moves = 0;
    /* Front points first so that originals and picks are drawn on top of them. */
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < r->runs.len; i++) {
            GbRepRun *run = &r->runs.items[i];
            for (size_t ti = 0; ti < run->tasks.len; ti++) {
                const GbRepTask *task = &run->tasks.items[ti];
                const GbRecord *gb = &task->rec;
                const char *id = gb_report__task_id(task);
                if (pass == 0) {
                    for (size_t fi = 0; fi < gb->front.len; fi++) {
                        const GbRecordFrontMember *f = &gb->front.items[fi];
                        double rc, rr;
                        if (!gb_report__finite(f->rc, &rc) || !gb_report__finite(f->rr, &rr)) continue;
                        char *ops = gb_report__op_list(gb, f);
                        gb_report__point(rows, run->label, id, "Pareto front", rc, rr, ops);
                        free(ops);
                        fronts++;
                    }
                    continue;
                }
                double brc = 0, brr = 0, arc = 0, arr = 0;
                bool b = gb_report__finite(gb->before.rc, &brc) && gb_report__finite(gb->before.rr, &brr);
                bool a = gb_report__finite(gb->after.rc, &arc) && gb_report__finite(gb->after.rr, &arr);
                if (b && a) {
                    json_t *row = json_object();
                    gb_report__set_str(row, "run", run->label);
                    gb_report__set_str(row, "kind", "move");
                    gb_report__set_num(row, "rc", brc);
                    gb_report__set_num(row, "rr", brr);
                    gb_report__set_num(row, "rc2", arc);
                    gb_report__set_num(row, "rr2", arr);
                    json_array_append_new(rows, row);
                    moves++;
                }
                if (b) gb_report__point(rows, run->label, id, "original", brc, brr, ""), points++;
                if (a) {
                    char *ops = gb_report__op_list(gb, NULL);
                    gb_report__point(rows, run->label, id, "hardened pick", arc, arr, ops);
                    free(ops);
                    points++;
                }
            }
        }
    gb_str_append(
        out, "<section id=\"fitness\"><h2>RC vs RR</h2>\n"
             "<p>Each point is one program: its relative complexity RC (mean of min(1, C<sub>i</sub>/CT<sub>i</sub>), "
             "higher is closer to real-world code) against its relative readability RR (mean of max(0, "
             "1 − R<sub>j</sub>/RT<sub>j</sub>), higher is easier to read). Blue circles are the originals, "
             "red diamonds the hardened picks (highest RC on the first front), joined by a grey line to "
             "their original; grey triangles and dashed lines are each task's final Pareto front. "
             "One chart per benchmark run.</p>\n");
    if (fronts == 0)
        gb_str_append(out, "<p class=\"note\">The input has no \"front\" fields: fronts are not drawn.</p>\n");
    if (points == 0) {
        gb_str_append(out, "<p class=\"note\">No RC/RR values in the input.</p></section>\n");
        json_decref(rows);
        return;
    }
    json_t *spec = gb_report__spec(gb_rep_asset_scatter, rows);
    json_object_set_new(json_object_get(spec, "facet"), "sort", gb_report__run_order(r));
    /* Drop the layers that would have no data (Vega warns about their empty scales). */
    json_t *layers = gb_report__get(spec, "spec", "layer", NULL);
    if (fronts == 0) json_array_remove(layers, 1);
    if (moves == 0) json_array_remove(layers, 0);
    gb_report__chart(out, "chart-fitness", spec);
    gb_str_append(out, "</section>\n");
}

/* ---- panel: operators ---------------------------------------------------------------------- */

/* Operator code -> display name ("S1 AddNestedFor"), from whatever the input says. */
static void gb_report__note_opname(json_t *names, const char *code, const char *name)
{
    json_t *cur = json_object_get(names, code);
    if (cur && json_string_length(cur) > strlen(code)) return;
    char *label = name ? gb_asprintf("%s %s", code, name) : gb_strdup(code);
    json_object_set_new(names, code, json_string(label));
    free(label);
}

/* The applications of each operator in a run's picks into agg (code -> [count, sum of rc_delta,
 * count with rc_delta]). False when no task has an operator list. */
static bool gb_report__ops_from_tasks(const GbRepRun *run, json_t *names, json_t *agg)
{
    bool any_ops = false;
    for (size_t ti = 0; ti < run->tasks.len; ti++) {
        const GbRecord *gb = &run->tasks.items[ti].rec;
        if (!gb->has_operators) continue;
        any_ops = true;
        for (size_t oi = 0; oi < gb->operators.len; oi++) {
            const GbRecordStep *o = &gb->operators.items[oi];
            const char *code = o->op;
            gb_report__note_opname(names, code, o->name);
            json_t *a = json_object_get(agg, code);
            if (!a) json_object_set_new(agg, code, a = json_pack("[fff]", 0.0, 0.0, 0.0));
            double d;
            json_array_set_new(a, 0, json_real(json_real_value(json_array_get(a, 0)) + 1));
            if (gb_report__finite(o->rc_delta, &d)) {
                json_array_set_new(a, 1, json_real(json_real_value(json_array_get(a, 1)) + d));
                json_array_set_new(a, 2, json_real(json_real_value(json_array_get(a, 2)) + 1));
            }
        }
    }
    return any_ops;
}

/* Tasks without operator lists: the run summary's per-operator numbers into agg instead. */
static bool gb_report__ops_from_summary(const GbRepRun *run, json_t *names, json_t *agg)
{
    if (!run->has_summary) return false;
    for (int k = 0; k < GB_OP_COUNT; k++) {
        const GbRunSummaryOperator *o = &run->summary.operators[k];
        const char *code = gb_operator((GbOperatorId)k)->code;
        double n = (double)o->in_picks, d = o->mean_rc_delta;
        bool has_d = isfinite(d);
        gb_report__note_opname(names, code, gb_operator((GbOperatorId)k)->name);
        json_object_set_new(agg, code,
                            json_pack("[fff]", n, has_d ? d * (n > 0 ? n : 1) : 0.0, has_d ? (n > 0 ? n : 1) : 0.0));
    }
    return true;
}

/* The chart rows of one run, from its aggregate. */
static void gb_report__ops_rows(json_t *rows, const GbRepRun *run, json_t *names, json_t *agg)
{
    const char *code;
    json_t *a;
    json_object_foreach(agg, code, a)
    {
        double n = json_real_value(json_array_get(a, 0)), sum = json_real_value(json_array_get(a, 1)),
               nd = json_real_value(json_array_get(a, 2));
        json_t *row = json_object();
        gb_report__set_str(row, "run", run->label);
        gb_report__set_str(row, "op", code);
        json_object_set(row, "opname", json_object_get(names, code));
        json_object_set_new(row, "rank", json_integer(gb_report__op_rank(code)));
        gb_report__set_num(row, "n", n);
        if (nd > 0) gb_report__set_num(row, "delta", sum / nd);
        json_array_append_new(rows, row);
    }
}

/* The two charts (count, mean RC gain; the second only when some row has a gain), side by side
 * when they fit, one under the other when not. Takes rows. */
static void gb_report__ops_charts(GbStr *out, const GbReport *r, json_t *rows)
{
    bool any_delta = false;
    size_t ri;
    json_t *row;
    json_array_foreach(rows, ri, row) any_delta |= json_object_get(row, "delta") != NULL;
    json_t *spec = gb_report__spec(gb_rep_asset_operators, rows);
    if (!any_delta) json_array_remove(json_object_get(spec, "hconcat"), 1);
    /* Colours and bar order follow the input order of the runs. */
    size_t hi;
    json_t *h;
    json_array_foreach(json_object_get(spec, "hconcat"), hi, h)
    {
        json_t *enc = json_object_get(h, "encoding");
        json_object_set_new(json_object_get(enc, "color"), "scale",
                            json_pack("{s:o}", "domain", gb_report__run_order(r)));
        json_object_set_new(json_object_get(enc, "xOffset"), "sort", gb_report__run_order(r));
    }
    json_t *charts = json_array();
    json_array_foreach(json_object_get(spec, "hconcat"), hi, h)
    {
        json_t *c = json_deep_copy(h);
        json_object_set(c, "data", json_object_get(spec, "data"));
        json_array_append_new(charts, c);
    }
    json_decref(spec);
    gb_report__chart_row(out, "chart-operators", charts);
}

void gb_report__panel_operators(GbStr *out, GbReport *r, json_t *names)
{
    json_t *rows = json_array();
    bool from_summary = false;
    for (size_t i = 0; i < r->runs.len; i++) {
        GbRepRun *run = &r->runs.items[i];
        json_t *agg = json_object();
        if (!gb_report__ops_from_tasks(run, names, agg)) from_summary |= gb_report__ops_from_summary(run, names, agg);
        gb_report__ops_rows(rows, run, names, agg);
        json_decref(agg);
    }
    gb_str_append(out, "<section id=\"operators\"><h2>Operators</h2>\n"
                       "<p>Left: how often each operator appears in the hardened picks (the chain of transformations "
                       "that produced each final program). Right: each operator's mean contribution to RC, the mean "
                       "of <code>rc_delta</code> (the RC gain of that step) over its applications in the picks. "
                       "Renaming operators (N1, N2) change no metric and so gain nothing by design.</p>\n");
    if (from_summary)
        gb_str_append(out, "<p class=\"note\">Some tasks have no operator lists: those runs use the summary's "
                           "in_picks and mean_rc_delta.</p>\n");
    if (json_array_size(rows) == 0) {
        gb_str_append(out, "<p class=\"note\">No operator was applied in any pick.</p></section>\n");
        json_decref(rows);
        return;
    }
    gb_report__ops_charts(out, r, rows);
    gb_str_append(out, "</section>\n");
}

/* ---- panel: gates -------------------------------------------------------------------------- */

static void gb_report__add_count(json_t *totals, const char *k, double d)
{
    double cur = 0;
    gb_report__num(json_object_get(totals, k), &cur);
    json_object_set_new(totals, k, json_real(cur + d));
}

/* Add counts into totals {"offered", <gates>..., "accepted"}. */
static void gb_report__add_gates(json_t *totals, const GbGateCounts *c)
{
    gb_report__add_count(totals, "offered", (double)c->offered);
    for (int g = 0; g < GB_GATE_COUNT; g++)
        gb_report__add_count(totals, gb_gate_name((GbGate)g), (double)c->rejected[g]);
    gb_report__add_count(totals, "accepted", (double)c->accepted);
}

/* The gate counts of a run's tasks: per operator code (or "*" for tasks without per-operator
 * counts) into byop, and the sums into totals. */
static void gb_report__gates_collect(const GbRepRun *run, json_t *names, json_t *byop, json_t *totals,
                                     bool *any_task_gates, bool *any_fallback)
{
    for (size_t ti = 0; ti < run->tasks.len; ti++) {
        const GbRecord *gb = &run->tasks.items[ti].rec;
        if (gb->has_gates) gb_report__add_gates(totals, &gb->gates), *any_task_gates = true;
        if (gb->has_gates_by_operator) {
            for (int o = 0; o < GB_OP_COUNT; o++) {
                if (!gb->gates_by_operator[o].offered) continue;
                const GbOperator *op = gb_operator((GbOperatorId)o);
                const char *code = op->code;
                /* Name every operator that was offered, also those no pick ever used. */
                gb_report__note_opname(names, code, op->name);
                json_t *acc = json_object_get(byop, code);
                if (!acc) json_object_set_new(byop, code, acc = json_object());
                gb_report__add_gates(acc, &gb->gates_by_operator[o]);
            }
        } else if (gb->has_gates) {
            /* No per-operator counts for this task: its totals go into one bar. */
            json_t *acc = json_object_get(byop, "*");
            if (!acc) json_object_set_new(byop, "*", acc = json_object());
            gb_report__add_gates(acc, &gb->gates);
            *any_fallback = true;
        }
    }
}

/* The chart rows of one run: one per operator and gate. */
static void gb_report__gates_rows(json_t *rows, const GbRepRun *run, json_t *byop, json_t *names)
{
    const char *code;
    json_t *acc;
    json_object_foreach(byop, code, acc)
    {
        bool all = strcmp(code, "*") == 0;
        if (!all) gb_report__note_opname(names, code, NULL);
        for (int g = 0; g < GB_GATE_COUNT; g++) {
            double n = 0;
            if (!gb_report__num(json_object_get(acc, gb_gate_name((GbGate)g)), &n)) continue;
            json_t *row = json_object();
            gb_report__set_str(row, "run", run->label);
            if (all)
                gb_report__set_str(row, "opname", "(all operators)");
            else
                json_object_set(row, "opname", json_object_get(names, code));
            json_object_set_new(row, "rank", json_integer(all ? 1000 : gb_report__op_rank(code)));
            gb_report__set_str(row, "gate", gb_gate_name((GbGate)g));
            json_object_set_new(row, "gorder", json_integer((json_int_t)g));
            gb_report__set_num(row, "n", n);
            json_array_append_new(rows, row);
        }
    }
}

/* The run's row of the totals table: the summary's when present, else the sum over the tasks. */
static void gb_report__gates_total(GbStr *table, const GbRepRun *run, json_t *totals, bool any_task_gates)
{
    /* The totals row: the summary's when present, else the sum over the tasks. */
    const GbRunSummary *s = &run->summary;
    json_t *use = run->has_summary ? NULL : any_task_gates ? totals : NULL;
    bool from_summary = run->has_summary && s->has_gates;
    gb_str_append(table, "<tr><td>");
    gb_report__esc(table, run->label);
    gb_str_append(table, "</td><td>");
    if (from_summary)
        gb_str_appendf(table, "%.0f", (double)s->gates.offered);
    else
        gb_report__fmt(table, use ? json_object_get(use, "offered") : NULL, "%.0f");
    for (int g = 0; g < GB_GATE_COUNT; g++) {
        gb_str_append(table, "</td><td>");
        if (from_summary)
            gb_str_appendf(table, "%.0f", (double)s->gates.rejected[g]);
        else
            gb_report__fmt(table, use ? json_object_get(use, gb_gate_name((GbGate)g)) : NULL, "%.0f");
    }
    gb_str_append(table, "</td><td>");
    if (from_summary)
        gb_str_appendf(table, "%.0f", (double)s->gates.accepted);
    else
        gb_report__fmt(table, use ? json_object_get(use, "accepted") : NULL, "%.0f");
    gb_str_append(table, "</td></tr>");
}

/* One chart per run, in input order (not one facet), so that they wrap with the page; the gate
 * legend once, on the first. Takes rows. */
static void gb_report__gates_charts(GbStr *out, const GbReport *r, json_t *rows)
{
    json_t *spec = gb_report__spec(gb_rep_asset_gates, rows);
    /* The colour domain is the gate list, in its order. */
    json_t *domain = json_array();
    for (int g = 0; g < GB_GATE_COUNT; g++) json_array_append_new(domain, json_string(gb_gate_name((GbGate)g)));
    json_object_set_new(gb_report__get(spec, "spec", "encoding", "color", "scale", NULL), "domain", domain);
    json_t *charts = json_array();
    for (size_t i = 0; i < r->runs.len; i++) {
        json_t *rrows = json_array();
        size_t ri;
        json_t *row;
        json_array_foreach(rows, ri, row)
        {
            if (strcmp(gb_report__str(json_object_get(row, "run")), r->runs.items[i].label) == 0)
                json_array_append(rrows, row);
        }
        if (json_array_size(rrows) == 0) {
            json_decref(rrows);
            continue;
        }
        json_t *c = json_deep_copy(json_object_get(spec, "spec"));
        json_object_set_new(c, "title", json_pack("{s:s,s:i}", "text", r->runs.items[i].label, "fontSize", 13));
        json_object_set_new(c, "data", json_pack("{s:o}", "values", rrows));
        if (json_array_size(charts) > 0)
            json_object_set_new(gb_report__get(c, "encoding", "color", NULL), "legend", json_null());
        json_array_append_new(charts, c);
    }
    json_decref(spec);
    gb_report__chart_row(out, "chart-gates", charts);
}

void gb_report__panel_gates(GbStr *out, GbReport *r, json_t *names)
{
    json_t *rows = json_array();
    bool any_fallback = false;
    GbStr table;
    gb_str_init(&table);
    gb_str_append(&table, "<table class=\"facts\"><thead><tr><th>run</th><th>offered</th>");
    for (int g = 0; g < GB_GATE_COUNT; g++) gb_str_appendf(&table, "<th>%s</th>", gb_gate_name((GbGate)g));
    gb_str_append(&table, "<th>accepted</th></tr></thead><tbody>");
    for (size_t i = 0; i < r->runs.len; i++) {
        GbRepRun *run = &r->runs.items[i];
        json_t *byop = json_object(), *totals = json_object();
        bool any_task_gates = false;
        gb_report__gates_collect(run, names, byop, totals, &any_task_gates, &any_fallback);
        gb_report__gates_rows(rows, run, byop, names);
        gb_report__gates_total(&table, run, totals, any_task_gates);
        json_decref(byop);
        json_decref(totals);
    }
    gb_str_append(&table, "</tbody></table>\n");
    gb_str_append(out, "<section id=\"gates\"><h2>Gate rejections</h2>\n"
                       "<p>Every offspring passes the gates in cost order: parse (the edit re-parses without "
                       "errors), readability (no R<sub>j</sub> above RT<sub>j</sub>), duplicate (same normalised "
                       "source as an individual already seen), tests (the task's own tests in the sandbox) and lint "
                       "(pylint score not below the original's). The bars count, per operator that made the "
                       "offspring, how many each gate threw away; the table gives the run totals.</p>\n");
    gb_str_append(out, table.data);
    gb_str_destroy(&table);
    if (any_fallback)
        gb_str_append(out, "<p class=\"note\">Some tasks have no \"gates_by_operator\": their counts are shown as "
                           "\"(all operators)\".</p>\n");
    if (json_array_size(rows) == 0) {
        gb_str_append(out, "<p class=\"note\">No gate counts in the input.</p></section>\n");
        json_decref(rows);
        return;
    }
    gb_report__gates_charts(out, r, rows);
    gb_str_append(out, "</section>\n");
}

/* The added-text measure of each run's summary ("added_text", src/doc/run_summary.h). */
void gb_report__panel_added_text(GbStr *out, GbReport *r)
{
    GbStr table;
    gb_str_init(&table);
    size_t rows = 0;
    for (size_t i = 0; i < r->runs.len; i++) {
        const GbRepRun *run = &r->runs.items[i];
        if (!run->has_summary || !run->summary.has_added_text) continue;
        const GbRunSummaryAddedText *at = &run->summary.added_text;
        gb_str_append(&table, "<tr><td>");
        gb_report__esc(&table, run->label);
        const char *const text[] = {at->sentence, at->name};
        const long tasks[] = {at->sentence_tasks, at->name_tasks};
        for (int k = 0; k < 2; k++) {
            gb_str_append(&table, "</td><td><code>");
            gb_report__esc(&table, text[k] ? text[k] : "");
            gb_str_appendf(&table, "</code></td><td>%ld/%ld", tasks[k], at->tasks);
        }
        gb_str_append(&table, "</td></tr>\n");
        rows++;
    }
    if (rows)
        gb_str_appendf(out,
                       "<section id=\"added-text\"><h2>Added text</h2>\n"
                       "<p>The docstring or comment sentence and the identifier that the most picks contain and their "
                       "originals do not, and in how many tasks: a phrase that recurs across a benchmark is what a "
                       "reader or a model learns to skip.</p>\n"
                       "<table class=\"facts\"><thead><tr><th>run</th><th>sentence</th><th>tasks</th><th>name</th>"
                       "<th>tasks</th></tr></thead><tbody>\n%s</tbody></table></section>\n",
                       table.data ? table.data : "");
    gb_str_destroy(&table);
}
