/* The output of `genebench metrics`: writer and parser (metrics.h). */
#include "src/doc/metrics.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/base/json_write.h"
#include "src/doc/doc_json.h"

void gb_metrics_doc_destroy(GbMetricsDoc *doc)
{
    if (!doc) return;
    for (size_t i = 0; i < doc->tasks.len; i++) free(doc->tasks.items[i].id);
    gb_array_free(&doc->tasks);
    free(doc->thresholds);
    memset(doc, 0, sizeof *doc);
}

/* A value as the lines write it: rounded to 4 decimals, 10 significant digits. */
static void gb_metrics_doc__num(GbStr *out, double v)
{
    gb_json_general(out, round(v * 10000.0) / 10000.0, 10);
}

/* "key": with ", " before it unless *first. */
static void gb_metrics_doc__key(GbStr *out, const char *key, bool *first)
{
    if (!*first) gb_str_append(out, ", ");
    *first = false;
    gb_json_string(out, key);
    gb_str_append(out, ": ");
}

/* {"C1": v, ..., "entropy": v} and, with rc, "rc" and "rr" after them. */
static void gb_metrics_doc__metrics(GbStr *out, const double *v, const double *rc, const double *rr)
{
    bool first = true;
    gb_str_append(out, "{");
    for (int i = 0; i < GB_METRIC_COUNT; i++) {
        gb_metrics_doc__key(out, gb_metric_key((GbMetricId)i), &first);
        gb_metrics_doc__num(out, v[i]);
    }
    if (rc) {
        gb_metrics_doc__key(out, "rc", &first);
        gb_metrics_doc__num(out, *rc);
        gb_metrics_doc__key(out, "rr", &first);
        gb_metrics_doc__num(out, *rr);
    }
    gb_str_append(out, "}");
}

void gb_metrics_doc_write_task(GbStr *out, const GbMetricsDocTask *t)
{
    bool first = true;
    gb_str_append(out, "{");
    gb_metrics_doc__key(out, "id", &first);
    gb_json_string(out, t->id);
    gb_metrics_doc__key(out, "metrics", &first);
    gb_metrics_doc__metrics(out, t->metrics, NULL, NULL);
    gb_metrics_doc__key(out, "rc", &first);
    gb_metrics_doc__num(out, t->rc);
    gb_metrics_doc__key(out, "rr", &first);
    gb_metrics_doc__num(out, t->rr);
    gb_metrics_doc__key(out, "exceeds", &first);
    gb_json_string(out, t->exceeds >= 0 ? gb_metric_key((GbMetricId)(GB_N_COMPLEXITY + t->exceeds)) : NULL);
    gb_str_append(out, "}\n");
}

void gb_metrics_doc_write_summary(GbStr *out, const GbMetricsDoc *doc)
{
    bool first = true;
    gb_str_append(out, "{\"summary\": {");
    gb_metrics_doc__key(out, "tasks", &first);
    gb_json_integer(out, doc->n_tasks);
    gb_metrics_doc__key(out, "measured", &first);
    gb_json_integer(out, (long long)doc->tasks.len);
    gb_metrics_doc__key(out, "thresholds", &first);
    gb_json_string(out, doc->thresholds);
    gb_metrics_doc__key(out, "mean", &first);
    gb_metrics_doc__metrics(out, doc->mean, &doc->mean_rc, &doc->mean_rr);
    gb_str_append(out, "}}\n");
}

void gb_metrics_doc_write(GbStr *out, const GbMetricsDoc *doc)
{
    for (size_t i = 0; i < doc->tasks.len; i++) gb_metrics_doc_write_task(out, &doc->tasks.items[i]);
    gb_metrics_doc_write_summary(out, doc);
}

/* The metrics object at `where` (with rc: also "rc" and "rr"). */
static void gb_metrics_doc__parse_metrics(GbDocReader *c, const json_t *o, const char *where, double *v, double *rc,
                                          double *rr)
{
    const char *keys[GB_METRIC_COUNT + 3];
    for (int i = 0; i < GB_METRIC_COUNT; i++) keys[i] = gb_metric_key((GbMetricId)i);
    keys[GB_METRIC_COUNT] = rc ? "rc" : NULL;
    keys[GB_METRIC_COUNT + 1] = rc ? "rr" : NULL;
    keys[GB_METRIC_COUNT + 2] = NULL;
    gb_doc_keys(c, o, where, keys);
    for (int i = 0; i < GB_METRIC_COUNT; i++) gb_doc_real(c, o, where, keys[i], &v[i]);
    if (rc) {
        gb_doc_real(c, o, where, "rc", rc);
        gb_doc_real(c, o, where, "rr", rr);
    }
}

static void gb_metrics_doc__parse_task(GbDocReader *c, const json_t *o, GbMetricsDocTask *t)
{
    static const char *const keys[] = {"id", "metrics", "rc", "rr", "exceeds", NULL};
    gb_doc_keys(c, o, "", keys);
    gb_doc_string(c, o, "", "id", false, &t->id);
    const json_t *m = gb_doc_get(c, o, "", "metrics", JSON_OBJECT, "an object");
    if (m) gb_metrics_doc__parse_metrics(c, m, "metrics.", t->metrics, NULL, NULL);
    gb_doc_real(c, o, "", "rc", &t->rc);
    gb_doc_real(c, o, "", "rr", &t->rr);
    const char *ex = NULL;
    gb_doc_string_ref(c, o, "", "exceeds", true, &ex);
    t->exceeds = -1;
    for (int j = 0; ex && j < GB_N_READABILITY; j++)
        if (strcmp(ex, gb_metric_key((GbMetricId)(GB_N_COMPLEXITY + j))) == 0) t->exceeds = j;
    if (ex && t->exceeds < 0) gb_doc_fail(c, "\"exceeds\": \"%s\" is not a readability metric", ex);
}

static void gb_metrics_doc__parse_summary(GbDocReader *c, const json_t *o, GbMetricsDoc *doc)
{
    static const char *const top[] = {"summary", NULL};
    static const char *const keys[] = {"tasks", "measured", "thresholds", "mean", NULL};
    gb_doc_keys(c, o, "", top);
    const json_t *s = gb_doc_get(c, o, "", "summary", JSON_OBJECT, "an object");
    gb_doc_keys(c, s, "summary.", keys);
    gb_doc_long(c, s, "summary.", "tasks", &doc->n_tasks);
    size_t measured = 0;
    gb_doc_size(c, s, "summary.", "measured", &measured);
    gb_doc_string(c, s, "summary.", "thresholds", false, &doc->thresholds);
    const json_t *m = gb_doc_get(c, s, "summary.", "mean", JSON_OBJECT, "an object");
    if (m) gb_metrics_doc__parse_metrics(c, m, "summary.mean.", doc->mean, &doc->mean_rc, &doc->mean_rr);
    if (c->ok && measured != doc->tasks.len)
        gb_doc_fail(c, "\"summary.measured\" is %zu but %zu task lines come before it", measured, doc->tasks.len);
    if (c->ok && doc->n_tasks < (long)measured)
        gb_doc_fail(c, "\"summary.tasks\" is %ld, below \"measured\" (%zu)", doc->n_tasks, measured);
}

bool gb_metrics_doc_parse(const char *text, size_t len, const char *name, GbMetricsDoc *doc, GbError *err)
{
    memset(doc, 0, sizeof *doc);
    bool ok = true, summary = false;
    size_t lineno = 0;
    for (size_t at = 0; ok && at < len;) {
        const char *nl = memchr(text + at, '\n', len - at);
        size_t end = nl ? (size_t)(nl - text) : len;
        lineno++;
        char *where = gb_asprintf("%s:%zu", name, lineno);
        GbDocReader c = {.name = where, .err = err, .ok = true};
        if (summary) gb_doc_fail(&c, "a line after the summary");
        json_t *o = c.ok ? gb_doc_parse(&c, text + at, end - at) : NULL;
        if (o && !json_is_object(o)) gb_doc_fail(&c, "expected a JSON object");
        if (c.ok && json_object_get(o, "summary")) {
            summary = true;
            gb_metrics_doc__parse_summary(&c, o, doc);
        } else if (c.ok) {
            GbMetricsDocTask t = {0};
            gb_metrics_doc__parse_task(&c, o, &t);
            gb_array_push(&doc->tasks, t);
        }
        json_decref(o);
        free(where);
        ok = c.ok;
        at = end + 1;
    }
    if (ok && !summary) {
        gb_error_set(err, "%s: no summary line", name);
        ok = false;
    }
    if (!ok) gb_metrics_doc_destroy(doc);
    return ok;
}
