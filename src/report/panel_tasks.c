/* Panels: the run facts, and the tasks table with the diffs. */
#include "src/report/report_private.h"

#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/linediff.h"

/* ---- panel: tasks table and diffs ---------------------------------------------------------- */

static void gb_report__cell_num(GbStr *out, bool ok, double v, const char *fmt)
{
    if (!ok) {
        gb_str_append(out, "<td data-v=\"\"><span class=\"na\">–</span></td>");
        return;
    }
    gb_str_appendf(out, "<td data-v=\"%.17g\">", v);
    gb_str_appendf(out, fmt, v);
    gb_str_append(out, "</td>");
}

typedef GbArray(GbFile) GbRepFiles;

/* The source of the file at path, or NULL (borrowed). */
static const char *gb_report__file(const void *files, const char *path)
{
    const GbRepFiles *fs = files;
    for (size_t i = 0; i < fs->len; i++)
        if (strcmp(fs->items[i].path, path) == 0) return fs->items[i].source;
    return NULL;
}

static void gb_report__file_diff(GbStr *out, const char *path, const char *orig, const char *hard)
{
    gb_str_append(out, "<p class=\"file\">");
    gb_report__esc(out, path);
    gb_str_append(out, "</p>");
    gb_diff_render_html(out, orig, hard);
}

/* The diff of one task: main module and every extra file, original on the left. */
static void gb_report__diff(GbStr *out, const GbRepTask *task, size_t n, const char *label)
{
    const GbRecord *gb = &task->rec;
    const char *hard = task->task.source;
    const char *orig = gb->original_source;
    gb_str_appendf(out, "<details class=\"diff-task\" id=\"diff-%zu\"><summary>", n);
    gb_report__esc(out, label);
    gb_str_append(out, " · ");
    gb_report__esc(out, gb_report__task_id(task));
    gb_str_append(out, " <span class=\"status\">");
    gb_report__esc(out, gb->has_status ? gb_evolve_status_name(gb->status) : NULL);
    gb_str_append(out, "</span></summary>\n");
    const char *error = gb->error;
    if (error) {
        gb_str_append(out, "<p class=\"note\">");
        gb_report__esc(out, error);
        gb_str_append(out, "</p>");
    }
    if (!orig) {
        gb_str_append(out, "<p class=\"note\">No \"original\" program in the input: nothing to compare.</p>");
    } else {
        if (hard && strcmp(orig, hard) == 0) gb_str_append(out, "<p class=\"note\">The program is unchanged.</p>");
        gb_str_append(out, "<div class=\"diffhead\"><span>original</span><span>hardened</span></div>");
        gb_diff_render_html(out, orig, hard);
    }
    /* Extra files (helper modules) of either side, by path. */
    for (size_t i = 0; i < gb->original_extra_files.len; i++) {
        const GbFile *f = &gb->original_extra_files.items[i];
        gb_report__file_diff(out, f->path, f->source, gb_report__file(&task->task.extra_files, f->path));
    }
    for (size_t i = 0; i < task->task.extra_files.len; i++) {
        const GbFile *f = &task->task.extra_files.items[i];
        if (!gb_report__file(&gb->original_extra_files, f->path)) gb_report__file_diff(out, f->path, NULL, f->source);
    }
    gb_str_append(out, "<p><a href=\"#tasks\">back to the table</a></p></details>\n");
}

void gb_report__panel_tasks(GbStr *out, GbReport *r)
{
    GbStr diffs;
    gb_str_init(&diffs);
    gb_str_append(out, "<section id=\"tasks\"><h2>Tasks</h2>\n"
                       "<p>One row per task and run; click a column header to sort, and <em>diff</em> to open the "
                       "side-by-side diff of the original and hardened program (below the table).</p>\n"
                       "<table class=\"sortable tasks\"><thead><tr>"
                       "<th data-type=\"num\">#</th><th>run</th><th>task</th><th>status</th>"
                       "<th data-type=\"num\">RC before</th><th data-type=\"num\">RC after</th>"
                       "<th data-type=\"num\">ΔRC</th><th data-type=\"num\">RR before</th>"
                       "<th data-type=\"num\">RR after</th><th data-type=\"num\">gen.</th>"
                       "<th>operators</th><th data-type=\"num\">lint</th><th data-type=\"num\">time (s)</th>"
                       "<th>diff</th></tr></thead><tbody>\n");
    size_t n = 0;
    for (size_t i = 0; i < r->runs.len; i++) {
        GbRepRun *run = &r->runs.items[i];
        for (size_t ti = 0; ti < run->tasks.len; ti++) {
            const GbRepTask *task = &run->tasks.items[ti];
            n++;
            const GbRecord *gb = &task->rec;
            double brc = 0, arc = 0, brr = 0, arr = 0, gen = 0, lint = 0, time = 0;
            bool hb = gb_report__finite(gb->before.rc, &brc);
            bool ha = gb_report__finite(gb->after.rc, &arc);
            bool hbr = gb_report__finite(gb->before.rr, &brr);
            bool har = gb_report__finite(gb->after.rr, &arr);
            bool hg = gb->generations >= 0 && gb_report__finite((double)gb->generations, &gen);
            bool hl = gb->has_lint && gb_report__finite(gb->lint_after, &lint);
            bool ht = gb->has_time && gb_report__finite(gb->time_s, &time);
            const char *status = gb->has_status ? gb_evolve_status_name(gb->status) : NULL;
            gb_str_appendf(out, "<tr><td data-v=\"%zu\">%zu</td><td>", n, n);
            gb_report__esc(out, run->label);
            gb_str_append(out, "</td><td>");
            gb_report__esc(out, gb_report__task_id(task));
            gb_str_appendf(out, "</td><td class=\"st-%s\">", status ? status : "unknown");
            gb_report__esc(out, status ? status : "?");
            gb_str_append(out, "</td>");
            gb_report__cell_num(out, hb, brc, "%.4f");
            gb_report__cell_num(out, ha, arc, "%.4f");
            gb_report__cell_num(out, hb && ha, arc - brc, "%+.4f");
            gb_report__cell_num(out, hbr, brr, "%.4f");
            gb_report__cell_num(out, har, arr, "%.4f");
            gb_report__cell_num(out, hg, gen, "%.0f");
            char *ops = gb_report__op_list(gb, NULL);
            gb_str_append(out, "<td class=\"ops\">");
            gb_report__esc(out, ops);
            gb_str_append(out, "</td>");
            free(ops);
            gb_report__cell_num(out, hl, lint, "%.2f");
            gb_report__cell_num(out, ht, time, "%.2f");
            gb_str_appendf(out, "<td><a class=\"difflink\" href=\"#diff-%zu\">diff</a></td></tr>\n", n);
            gb_report__diff(&diffs, task, n, run->label);
        }
    }
    gb_str_append(out, "</tbody></table>\n</section>\n<section id=\"diffs\"><h2>Diffs</h2>\n"
                       "<p>Original (left) and hardened (right), line by line; changed lines are paired, "
                       "removed lines are red, added lines green.</p>\n");
    gb_str_append(out, diffs.data);
    gb_str_destroy(&diffs);
    gb_str_append(out, "</section>\n");
}

/* ---- panel: run facts ---------------------------------------------------------------------- */

typedef struct {
    size_t tasks, hardened, unchanged, failed;
    double time_s, offspring;
    bool has_time, has_offspring;
    double rc_b, rr_b, rc_a, rr_a;
    size_t n_b, n_a;
    double max_gen;
    bool has_seed; /* the first task's seed */
    uint64_t seed;
} GbRepStats;

static void gb_report__stats(const GbRepRun *run, GbRepStats *s)
{
    memset(s, 0, sizeof *s);
    for (size_t ti = 0; ti < run->tasks.len; ti++) {
        const GbRecord *gb = &run->tasks.items[ti].rec;
        s->tasks++;
        if (gb->has_status && gb->status == GB_EVOLVED_HARDENED)
            s->hardened++;
        else if (gb->has_status && gb->status == GB_EVOLVED_UNCHANGED)
            s->unchanged++;
        else
            s->failed++;
        double x, y;
        if (gb->has_time && gb_report__finite(gb->time_s, &x)) s->time_s += x, s->has_time = true;
        if (gb->offspring_validated >= 0) s->offspring += (double)gb->offspring_validated, s->has_offspring = true;
        if (gb->generations >= 0 && (double)gb->generations > s->max_gen) s->max_gen = (double)gb->generations;
        if (gb_report__finite(gb->before.rc, &x) && gb_report__finite(gb->before.rr, &y))
            s->rc_b += x, s->rr_b += y, s->n_b++;
        if (gb_report__finite(gb->after.rc, &x) && gb_report__finite(gb->after.rr, &y))
            s->rc_a += x, s->rr_a += y, s->n_a++;
        if (!s->has_seed && gb->has_seed) s->seed = gb->seed, s->has_seed = true;
    }
}

enum {
    F_FILE,
    F_SUMMARY,
    F_TOOL,
    F_SEED,
    F_TASKS,
    F_THRESH,
    F_BUDGET,
    F_BREED,
    F_LINT,
    F_TIME,
    F_OFFSPRING,
    F_RATE,
    F_RC,
    F_RR,
    F_PYTHON,
    F_COUNT
};
static const char *const gb_rep_fact_names[F_COUNT] = {"file",
                                                       "summary",
                                                       "tool",
                                                       "seed",
                                                       "tasks (hardened / unchanged / failed)",
                                                       "thresholds",
                                                       "budget",
                                                       "breeding fraction",
                                                       "lint gate",
                                                       "time (s)",
                                                       "offspring validated",
                                                       "offspring / s",
                                                       "mean RC before → after",
                                                       "mean RR before → after",
                                                       "Python"};

/* "–" */
static void gb_report__fact_none(GbStr *out)
{
    gb_report__fmt(out, NULL, "");
}

/* v with fmt, "–" when not finite. */
static void gb_report__fact_num(GbStr *out, double v, const char *fmt)
{
    if (isfinite(v))
        gb_str_appendf(out, fmt, v);
    else
        gb_report__fact_none(out);
}

static void gb_report__fact_tool(GbStr *out, const GbRepRun *run)
{
    if (!run->has_summary) {
        gb_report__fact_none(out);
        return;
    }
    gb_report__esc(out, "genebench");
    gb_str_append(out, " "), gb_report__esc(out, run->summary.version);
}

static void gb_report__fact_thresholds(GbStr *out, const GbReport *r, const GbRepRun *run)
{
    if (run->thresholds == SIZE_MAX) {
        gb_str_append(out, "<span class=\"na\">not named</span>");
        return;
    }
    const GbRepThresholds *t = &r->thresholds.items[run->thresholds];
    gb_report__esc(out, t->name);
    if (t->path && strcmp(t->path, t->name) != 0)
        gb_str_append(out, "<br><small>"), gb_report__esc(out, t->path), gb_str_append(out, "</small>");
    if (!t->loaded) gb_str_append(out, " <span class=\"bad\">(not read)</span>");
}

static void gb_report__fact_budget(GbStr *out, const GbRepRun *run, const GbRepStats *st)
{
    if (run->has_summary) {
        gb_str_appendf(out, "%.0f generations", (double)run->summary.generations);
        /* 0 (or less) is how evolve records "no time budget" */
        if (run->summary.time_budget > 0)
            gb_str_appendf(out, ", %g s per task", run->summary.time_budget);
        else if (isfinite(run->summary.time_budget))
            gb_str_append(out, ", time budget: none");
    } else if (st->max_gen > 0) {
        gb_str_appendf(out, "≥ %.0f generations†", st->max_gen);
    } else {
        gb_report__fact_none(out);
    }
}

/* The summary's value with fmt when there is a summary, else the value gathered from the tasks
 * (when has) with fmt and a †, else "–". */
static void gb_report__fact_or_tasks(GbStr *out, const GbRepRun *run, double summary_value, const char *fmt, bool has,
                                     double v)
{
    if (run->has_summary) {
        gb_report__fact_num(out, summary_value, fmt);
    } else if (has) {
        gb_str_appendf(out, fmt, v);
        gb_str_append(out, "†");
    } else {
        gb_report__fact_none(out);
    }
}

static void gb_report__fact_mean(GbStr *out, const GbRepRun *run, const GbRepStats *st, bool rc)
{
    const GbRunSummary *s = &run->summary;
    double sb = rc ? st->rc_b : st->rr_b, sa = rc ? st->rc_a : st->rr_a;
    if (run->has_summary) {
        gb_report__fact_num(out, rc ? s->rc_before_mean : s->rr_before_mean, "%.4f");
        gb_str_append(out, " → ");
        gb_report__fact_num(out, rc ? s->rc_after_mean : s->rr_after_mean, "%.4f");
    } else if (st->n_b || st->n_a) {
        if (st->n_b) gb_str_appendf(out, "%.4f", sb / (double)st->n_b);
        gb_str_append(out, " → ");
        if (st->n_a) gb_str_appendf(out, "%.4f", sa / (double)st->n_a);
        gb_str_append(out, "†");
    } else
        gb_report__fact_none(out);
}

static void gb_report__fact_python(GbStr *out, const GbRepRun *run)
{
    if (!run->has_summary) {
        gb_report__fact_none(out);
        return;
    }
    for (size_t i = 0; i < run->summary.n_libs; i++) {
        const GbRunSummaryLib *lib = &run->summary.libs[i];
        gb_report__esc(out, lib->name);
        gb_str_append(out, " ");
        if (lib->version)
            gb_report__esc(out, lib->version);
        else
            gb_report__fact_none(out);
        gb_str_append(out, "<br>");
    }
    gb_str_append(out, "interpreter ");
    gb_report__esc(out, run->summary.interpreter);
    gb_str_append(out, "<br>");
}

/* The cell of fact f of one run. */
static void gb_report__fact_cell(GbStr *out, const GbReport *r, const GbRepRun *run, int f)
{
    const GbRunSummary *s = &run->summary;
    GbRepStats st;
    gb_report__stats(run, &st);
    switch (f) {
    case F_FILE:
        gb_report__esc(out, run->path);
        break;
    case F_SUMMARY:
        if (run->summary_path)
            gb_report__esc(out, run->summary_path);
        else
            gb_str_append(out, "<span class=\"na\">none</span>");
        break;
    case F_TOOL:
        gb_report__fact_tool(out, run);
        break;
    case F_SEED:
        if (run->has_summary)
            gb_str_appendf(out, "%.0f", (double)s->seed);
        else if (st.has_seed)
            gb_str_appendf(out, "%.0f†", (double)st.seed);
        else
            gb_str_append(out, "<span class=\"na\">–</span>");
        break;
    case F_TASKS:
        gb_str_appendf(out, "%zu (%zu / %zu / %zu)", st.tasks, st.hardened, st.unchanged, st.failed);
        break;
    case F_THRESH:
        gb_report__fact_thresholds(out, r, run);
        break;
    case F_BUDGET:
        gb_report__fact_budget(out, run, &st);
        break;
    case F_BREED:
        if (run->has_summary)
            gb_report__fact_num(out, s->breed, "%g");
        else
            gb_report__fact_none(out);
        break;
    case F_LINT:
        if (run->has_summary)
            gb_str_append(out, s->lint ? "yes" : "no");
        else
            gb_report__fact_none(out);
        break;
    case F_TIME:
        gb_report__fact_or_tasks(out, run, s->time_s, "%.2f", st.has_time, st.time_s);
        break;
    case F_OFFSPRING:
        gb_report__fact_or_tasks(out, run, (double)s->offspring_validated, "%.0f", st.has_offspring, st.offspring);
        break;
    case F_RATE:
        gb_report__fact_or_tasks(out, run, s->offspring_per_s, "%.2f", st.has_offspring && st.has_time && st.time_s > 0,
                                 st.time_s > 0 ? st.offspring / st.time_s : 0);
        break;
    case F_RC:
    case F_RR:
        gb_report__fact_mean(out, run, &st, f == F_RC);
        break;
    case F_PYTHON:
        gb_report__fact_python(out, run);
        break;
    default:
        break;
    }
}

void gb_report__panel_facts(GbStr *out, GbReport *r)
{
    gb_str_append(out, "<section id=\"facts\"><h2>Run facts</h2>\n"
                       "<p>What each run was: from its summary (<code>OUT.summary.json</code>) where present, "
                       "otherwise gathered from the tasks (marked †).</p>\n<div class=\"scroll\"><table class=\"facts "
                       "runfacts\"><thead><tr><th></th>");
    for (size_t i = 0; i < r->runs.len; i++) {
        gb_str_append(out, "<th>");
        gb_report__esc(out, r->runs.items[i].label);
        gb_str_append(out, "</th>");
    }
    gb_str_append(out, "</tr></thead><tbody>\n");
    for (int f = 0; f < F_COUNT; f++) {
        gb_str_appendf(out, "<tr><th>%s</th>", gb_rep_fact_names[f]);
        for (size_t i = 0; i < r->runs.len; i++) {
            gb_str_append(out, "<td>");
            gb_report__fact_cell(out, r, &r->runs.items[i], f);
            gb_str_append(out, "</td>");
        }
        gb_str_append(out, "</tr>\n");
    }
    gb_str_append(out, "</tbody></table></div>\n</section>\n");
}
