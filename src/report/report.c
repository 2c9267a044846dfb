/* The report page (report.h): the report's life, the assets, the page around the panels. */
#include "src/report/report.h"

#include <stdlib.h>
#include <string.h>

#include "gb_config.h"
#include "src/report/report_private.h"

GbReport *gb_report_new(const GbReportOptions *opt)
{
    GbReport *r = gb_calloc(1, sizeof *r);
    if (opt) r->opt = *opt;
    if (!r->opt.source_root) r->opt.source_root = GB_SOURCE_ROOT;
    if (!r->opt.title) r->opt.title = "genebench report";
    return r;
}

void gb_report_delete(GbReport *r)
{
    if (!r) return;
    for (size_t i = 0; i < r->runs.len; i++) {
        GbRepRun *run = &r->runs.items[i];
        free(run->path);
        free(run->stem);
        free(run->group);
        free(run->label);
        free(run->summary_path);
        for (size_t t = 0; t < run->tasks.len; t++) {
            gb_task_destroy(&run->tasks.items[t].task);
            gb_record_destroy(&run->tasks.items[t].rec);
        }
        gb_array_free(&run->tasks);
        gb_run_summary_destroy(&run->summary);
    }
    gb_array_free(&r->runs);
    for (size_t i = 0; i < r->versions.len; i++) {
        free(r->versions.items[i].path);
        free(r->versions.items[i].group);
        json_decref(r->versions.items[i].sim);
    }
    gb_array_free(&r->versions);
    for (size_t i = 0; i < r->evals.len; i++) {
        GbRepEval *e = &r->evals.items[i];
        free(e->summary_path);
        free(e->results_path);
        free(e->label);
        gb_eval_summary_destroy(&e->summary);
        gb_report__eval_items_free(e);
    }
    gb_array_free(&r->evals);
    for (size_t i = 0; i < r->thresholds.len; i++) {
        free(r->thresholds.items[i].name);
        free(r->thresholds.items[i].path);
    }
    gb_array_free(&r->thresholds);
    for (size_t i = 0; i < r->warnings.len; i++) free(r->warnings.items[i]);
    gb_array_free(&r->warnings);
    free(r);
}

size_t gb_report_warning_count(const GbReport *r)
{
    return r->warnings.len;
}

const char *gb_report_warning(const GbReport *r, size_t i)
{
    return i < r->warnings.len ? r->warnings.items[i] : NULL;
}

size_t gb_report_task_count(const GbReport *r)
{
    return r->ntasks;
}
/* ---- assets -------------------------------------------------------------------------------- */

static const char *const gb_rep_assets[3] = {"vega", "vega-lite", "vega-embed"};

bool gb_report_find_assets(const char *dir, char *paths_out[3], GbError *err)
{
    for (size_t i = 0; i < 3; i++) paths_out[i] = NULL;
    for (size_t i = 0; i < 3; i++) {
        char *a = gb_asprintf("%s/%s/build/%s.min.js", dir, gb_rep_assets[i], gb_rep_assets[i]);
        char *b = gb_asprintf("%s/%s.min.js", dir, gb_rep_assets[i]);
        if (gb_report__is_file(a))
            paths_out[i] = a, a = NULL;
        else if (gb_report__is_file(b))
            paths_out[i] = b, b = NULL;
        if (!paths_out[i])
            gb_error_set(err,
                         "missing %s (the %s build that the report inlines): run src/setup.sh, which fetches vega, "
                         "vega-lite and vega-embed from npm into third_party/, or pass --assets DIR",
                         a, gb_rep_assets[i]);
        free(a);
        free(b);
        if (!paths_out[i]) {
            for (size_t j = 0; j < i; j++) free(paths_out[j]), paths_out[j] = NULL;
            return false;
        }
    }
    return true;
}

/* ---- the page ------------------------------------------------------------------------------ */

/* Inline one script file; "</script" inside it would end the element early. */
static bool gb_report__inline_script(GbStr *out, const char *path, GbError *err)
{
    size_t len;
    char *js = gb_read_file(path, &len, err);
    if (!js) return false;
    gb_str_append(out, "<script>\n");
    const char *p = js;
    for (;;) {
        const char *hit = strcasestr(p, "</script");
        if (!hit) break;
        gb_str_append_n(out, p, (size_t)(hit - p));
        gb_str_append(out, "<\\/");
        p = hit + 2;
    }
    gb_str_append(out, p);
    gb_str_append(out, "\n</script>\n");
    free(js);
    return true;
}

/* The page up to the panels: head, title, what was read, the navigation, the warnings. */
static void gb_report__page_head(GbStr *out, const GbReport *r)
{
    gb_str_append(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
                       "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>");
    gb_report__esc(out, r->opt.title);
    gb_str_appendf(out, "</title>\n<style>%s</style>\n</head><body>\n<header><h1>", gb_rep_asset_report_css);
    gb_report__esc(out, r->opt.title);
    gb_str_append(out, "</h1>");
    if (r->runs.len) {
        gb_str_appendf(out, "<p>%zu task result(s) from %zu run(s): ", r->ntasks, r->runs.len);
        for (size_t i = 0; i < r->runs.len; i++) {
            if (i) gb_str_append(out, ", ");
            gb_report__esc(out, r->runs.items[i].path);
        }
        gb_str_append(out, "</p>");
    }
    if (r->evals.len) {
        gb_str_appendf(out, "<p>%zu model evaluation(s): ", r->evals.len);
        for (size_t i = 0; i < r->evals.len; i++) {
            if (i) gb_str_append(out, ", ");
            gb_report__esc(out, r->evals.items[i].summary_path);
        }
        gb_str_append(out, "</p>");
    }
    gb_str_append(out, "\n<nav>");
    if (r->runs.len)
        gb_str_append(out, "<a href=\"#facts\">run facts</a><a href=\"#metrics\">metrics</a><a "
                           "href=\"#change\">per-metric change</a><a href=\"#fitness\">RC vs RR</a><a "
                           "href=\"#operators\">operators</a><a "
                           "href=\"#gates\">gates</a><a href=\"#added-text\">added text</a><a "
                           "href=\"#versions\">versions</a>");
    if (r->evals.len) gb_str_append(out, "<a href=\"#eval\">model evaluation</a>");
    if (r->runs.len) gb_str_append(out, "<a href=\"#tasks\">tasks</a><a href=\"#diffs\">diffs</a>");
    gb_str_append(out, "</nav></header>\n<main>\n");
    if (r->warnings.len) {
        gb_str_append(out, "<section id=\"warnings\"><h2>Warnings while reading the input</h2><ul class=\"warnings\">");
        for (size_t i = 0; i < r->warnings.len; i++) {
            gb_str_append(out, "<li>");
            gb_report__esc(out, r->warnings.items[i]);
            gb_str_append(out, "</li>");
        }
        gb_str_append(out, "</ul></section>\n");
    }
}

char *gb_report_render(GbReport *r, GbError *err)
{
    if (r->runs.len == 0 && r->evals.len == 0) {
        gb_error_set(err, "no input with genebench results to report on");
        return NULL;
    }
    char *assets[3];
    char *dir = r->opt.assets_dir ? gb_strdup(r->opt.assets_dir) : gb_asprintf("%s/third_party", r->opt.source_root);
    bool found = gb_report_find_assets(dir, assets, err);
    free(dir);
    if (!found) return NULL;
    gb_report__make_labels(r);
    GbStr out;
    gb_str_init(&out);
    gb_report__page_head(&out, r);
    json_t *names = json_object(); /* operator code -> "S1 AddNestedFor" */
    if (r->runs.len) {
        gb_report__panel_facts(&out, r);
        gb_report__panel_metrics(&out, r);
        gb_report__panel_change(&out, r);
        gb_report__panel_scatter(&out, r);
        gb_report__panel_operators(&out, r, names);
        gb_report__panel_gates(&out, r, names);
        gb_report__panel_added_text(&out, r);
        gb_report__panel_versions(&out, r);
    }
    if (r->evals.len) gb_report__panel_eval(&out, r);
    if (r->runs.len) gb_report__panel_tasks(&out, r);
    json_decref(names);
    gb_str_appendf(&out,
                   "</main>\n<footer>Written by genebench %s. Charts: Vega-Lite (vega, vega-lite, vega-embed), "
                   "inlined below; the page needs no network.</footer>\n",
                   GB_VERSION);
    bool ok = true;
    for (size_t i = 0; i < 3 && ok; i++) ok = gb_report__inline_script(&out, assets[i], err);
    for (size_t i = 0; i < 3; i++) free(assets[i]);
    if (!ok) {
        gb_str_destroy(&out);
        return NULL;
    }
    gb_str_append(&out, "<script>\n");
    gb_str_append(&out, gb_rep_asset_report_js);
    gb_str_append(&out, "</script>\n</body></html>\n");
    return gb_str_take(&out);
}
