/* Helpers of the report: the metric list, warnings, small JSON helpers, labels, chart embedding. */
#include "src/report/report_private.h"

#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fitness/metric_list.h"
#include "src/base/linediff.h"

/* ---- the metrics, from the one list ------------------------------------------------------- */

const GbRepMetric gb_rep_metrics[GB_METRIC_COUNT] = {
#define GB_METRIC(id, key, kind, short, label) {#id, key, kind, label},
    GB_METRIC_LIST
#undef GB_METRIC
};

void gb_report__warn(GbReport *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = gb_vasprintf(fmt, ap);
    va_end(ap);
    gb_array_push(&r->warnings, msg);
}

int gb_report__cmp_names(const void *a, const void *b)
{
    return strverscmp(*(char *const *)a, *(char *const *)b);
}

/* ---- small JSON helpers -------------------------------------------------------------------- */

/* obj[k1][k2]... (NULL-terminated keys); NULL when any step is missing or not an object. */
json_t *gb_report__get(json_t *obj, ...)
{
    va_list ap;
    va_start(ap, obj);
    const char *k;
    while (obj && (k = va_arg(ap, const char *))) obj = json_is_object(obj) ? json_object_get(obj, k) : NULL;
    va_end(ap);
    return obj;
}

bool gb_report__num(json_t *v, double *out)
{
    if (!v || !json_is_number(v)) return false;
    double d = json_number_value(v);
    if (!isfinite(d)) return false;
    *out = d;
    return true;
}

const char *gb_report__str(json_t *v)
{
    return v && json_is_string(v) ? json_string_value(v) : NULL;
}

void gb_report__set_num(json_t *row, const char *key, double v)
{
    if (isfinite(v)) json_object_set_new(row, key, json_real(v));
}

void gb_report__set_str(json_t *row, const char *key, const char *v)
{
    json_object_set_new(row, key, json_string(v ? v : ""));
}

const char *gb_report__task_id(const GbRepTask *t)
{
    return t->task.id ? t->task.id : "?";
}

/* A finite number of a record (absent values are NAN). */
bool gb_report__finite(double v, double *out)
{
    if (!isfinite(v)) return false;
    *out = v;
    return true;
}

bool gb_report__is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

char *gb_report__basename(const char *path)
{
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/') n--;
    size_t s = n;
    while (s > 0 && path[s - 1] != '/') s--;
    return gb_strndup(path + s, n - s);
}

char *gb_report__dirname(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash) return gb_strdup(".");
    if (slash == path) return gb_strdup("/");
    return gb_strndup(path, (size_t)(slash - path));
}

bool gb_report__ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* ---- rendering helpers --------------------------------------------------------------------- */

void gb_report__esc(GbStr *out, const char *s)
{
    if (s) gb_html_escape(out, s, strlen(s));
}

/* Labels: the file stem, prefixed with the group when two runs share a stem. */
void gb_report__make_labels(GbReport *r)
{
    for (size_t i = 0; i < r->runs.len; i++) {
        GbRepRun *run = &r->runs.items[i];
        bool dup = false;
        for (size_t j = 0; j < r->runs.len; j++)
            if (j != i && strcmp(r->runs.items[j].stem, run->stem) == 0) dup = true;
        free(run->label);
        run->label = dup ? gb_asprintf("%s/%s", run->group, run->stem) : gb_strdup(run->stem);
    }
    /* Still equal (same group and stem given twice): number them. */
    for (size_t i = 0; i < r->runs.len; i++) {
        size_t n = 1;
        for (size_t j = i + 1; j < r->runs.len; j++)
            if (strcmp(r->runs.items[j].label, r->runs.items[i].label) == 0) {
                char *l = gb_asprintf("%s #%zu", r->runs.items[j].label, ++n);
                free(r->runs.items[j].label);
                r->runs.items[j].label = l;
            }
    }
}

size_t gb_report__ngroups(const GbReport *r)
{
    size_t n = 0;
    for (size_t i = 0; i < r->runs.len; i++) {
        bool seen = false;
        for (size_t j = 0; j < i; j++)
            if (strcmp(r->runs.items[j].group, r->runs.items[i].group) == 0) seen = true;
        n += !seen;
    }
    return n;
}

/* Sort key of an operator code: S before A before N, then by number (the registry's order). */
int gb_report__op_rank(const char *op)
{
    int base = op[0] == 'S' ? 0 : op[0] == 'A' ? 100 : op[0] == 'N' ? 200 : 300;
    return base + atoi(op + (op[0] ? 1 : 0));
}

/* Embed a chart: a <div> target and its spec as JSON in a script element the page's loader
 * reads. JSON_ESCAPE_SLASH keeps "</script>" out of the inlined text. Takes the spec. */
void gb_report__chart(GbStr *out, const char *id, json_t *spec)
{
    char *json = json_dumps(spec, JSON_COMPACT | JSON_ESCAPE_SLASH | JSON_REAL_PRECISION(8));
    assert(json);
    gb_str_appendf(out, "<div class=\"chart\" id=\"%s\"></div>\n<script type=\"application/json\" data-chart=\"%s\">",
                   id, id);
    gb_str_append(out, json);
    gb_str_append(out, "</script>\n");
    free(json);
    json_decref(spec);
}

/* Several charts side by side that wrap onto the next line when the page is narrow (one SVG
 * each, so CSS can wrap them): ids "<id>-1", "<id>-2", ... Takes charts (an array of specs). */
void gb_report__chart_row(GbStr *out, const char *id, json_t *charts)
{
    gb_str_appendf(out, "<div class=\"chartrow\" id=\"%s\">\n", id);
    size_t i;
    json_t *c;
    json_array_foreach(charts, i, c)
    {
        char *cid = gb_asprintf("%s-%zu", id, i + 1);
        json_object_set_new(c, "$schema", json_string("https://vega.github.io/schema/vega-lite/v5.json"));
        gb_report__chart(out, cid, json_incref(c));
        free(cid);
    }
    gb_str_append(out, "</div>\n");
    json_decref(charts);
}

/* The run labels in input order (a new array), to sort facets and legends by. */
json_t *gb_report__run_order(const GbReport *r)
{
    json_t *a = json_array();
    for (size_t i = 0; i < r->runs.len; i++) json_array_append_new(a, json_string(r->runs.items[i].label));
    return a;
}

/* A spec from a JSON template (our own text, so a parse failure is a bug) with the rows as
 * its inline data. Takes rows. */
json_t *gb_report__spec(const char *tmpl, json_t *rows)
{
    json_error_t jerr;
    json_t *spec = json_loads(tmpl, 0, &jerr);
    assert(spec && "a chart template is not valid JSON");
    json_object_set_new(spec, "$schema", json_string("https://vega.github.io/schema/vega-lite/v5.json"));
    json_object_set_new(spec, "data", json_pack("{s:o}", "values", rows));
    return spec;
}

void gb_report__fmt(GbStr *out, json_t *v, const char *fmt)
{
    double d;
    if (gb_report__num(v, &d))
        gb_str_appendf(out, fmt, d);
    else if (gb_report__str(v))
        gb_report__esc(out, gb_report__str(v));
    else if (json_is_boolean(v))
        gb_str_append(out, json_is_true(v) ? "yes" : "no");
    else
        gb_str_append(out, "<span class=\"na\">–</span>");
}

json_t *gb_report__layer(const char *tmpl, json_t *rows)
{
    json_error_t jerr;
    json_t *layer = json_loads(tmpl, 0, &jerr);
    assert(layer && "a chart template is not valid JSON");
    json_object_set_new(layer, "data", json_pack("{s:o}", "values", rows));
    return layer;
}
