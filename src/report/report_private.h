#pragma once
/* Shared inside src/report/ by the page (report.c), the reading of the inputs (report_read.c),
 * the helpers (report_util.c) and the panels (panel_*.c); not for other modules. The chart
 * templates, the CSS and the script of the page are files in src/report/assets/, embedded at build
 * time (src/report/meson.build) as gb_rep_asset_<name>. Not thread-safe, as report.h. */
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "fitness/fitness.h"
#include "src/bench/record.h"
#include "src/base/util.h"
#include "src/doc/eval_summary.h"
#include "src/doc/run_summary.h"
#include "src/model/task.h"
#include "src/report/report.h"

/* ---- the embedded assets ------------------------------------------------------------------ */

extern const char gb_rep_asset_metric_box[], gb_rep_asset_metric_rule[], gb_rep_asset_metric_rule_label[],
    gb_rep_asset_change[], gb_rep_asset_scatter[], gb_rep_asset_operators[], gb_rep_asset_gates[],
    gb_rep_asset_versions_similarity[], gb_rep_asset_versions_nnmr[], gb_rep_asset_eval_passk[],
    gb_rep_asset_eval_drop[], gb_rep_asset_eval_outcomes[], gb_rep_asset_report_css[], gb_rep_asset_report_js[];

/* ---- the metrics, from the one list (report_util.c) --------------------------------------- */

typedef struct {
    const char *id;    /* "C1", "R1", ... */
    const char *key;   /* key in "metrics": "C1", "num_tokens", ... */
    char kind;         /* 'C' or 'R' */
    const char *label; /* human label */
} GbRepMetric;

extern const GbRepMetric gb_rep_metrics[GB_METRIC_COUNT];
#define GB_REP_NMETRICS ((size_t)GB_METRIC_COUNT)

/* ---- the report's state ------------------------------------------------------------------- */

typedef struct {
    char *name;                    /* owned: as the run names it */
    char *path;                    /* owned: resolved path, NULL when not found */
    bool loaded;                   /* file found and read */
    double value[GB_REP_NMETRICS]; /* CT for C metrics, RT for R metrics */
    bool has[GB_REP_NMETRICS];
} GbRepThresholds;

/* One task of a run: the hardened task as read and its output record. */
typedef struct {
    size_t line; /* in the run's file */
    GbTask task;
    GbRecord rec;
} GbRepTask;

typedef struct {
    char *path;               /* owned: the JSONL file */
    char *stem;               /* owned: file name without .jsonl */
    char *group;              /* owned: the benchmark this run hardened (directory name for versions) */
    char *label;              /* owned: unique display label, set at render time */
    char *summary_path;       /* owned, NULL when no summary was found */
    GbArray(GbRepTask) tasks; /* owned: the run's tasks with their records */
    bool has_summary;         /* a summary was found and parsed */
    GbRunSummary summary;     /* owned, read through src/doc/run_summary.h (when has_summary) */
    size_t thresholds;        /* index into GbReport.thresholds, SIZE_MAX when the run names none */
} GbRepRun;

typedef struct {
    char *path;  /* owned: similarity.json */
    char *group; /* owned: directory name */
    json_t *sim; /* owned */
} GbRepVersions;

/* One item's samples of one version in an eval's results: how many passed, how many were scored. */
typedef struct {
    long version;
    long passed, scored;
} GbRepEvalCount;

/* One item of an eval's results. */
typedef struct {
    char *id;                       /* owned */
    GbArray(GbRepEvalCount) counts; /* owned: one per version the item has samples of */
} GbRepEvalItem;

/* One `genebench eval` run: its summary and, when given, its per-sample results. */
typedef struct {
    char *summary_path;           /* owned */
    char *results_path;           /* owned, NULL when not given */
    char *label;                  /* owned: the task type, with the model when the evals name several */
    GbEvalSummary summary;        /* owned, read through src/doc/eval_summary.h */
    bool has_results;             /* results were given and read */
    GbArray(GbRepEvalItem) items; /* owned: the results' items in natural order of their ids */
} GbRepEval;

/* Free an eval's items (gb_report_delete and a failed read). */
void gb_report__eval_items_free(GbRepEval *e);

struct GbReport {
    GbReportOptions opt;
    GbArray(GbRepRun) runs;
    GbArray(GbRepEval) evals;
    GbArray(GbRepVersions) versions;
    GbArray(GbRepThresholds) thresholds;
    GbArray(char *) warnings; /* owned strings */
    size_t ntasks;
};

/* ---- helpers (report_util.c) -------------------------------------------------------------- */

void gb_report__warn(GbReport *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* obj[k1][k2]... (NULL-terminated keys); NULL when any step is missing or not an object. */
json_t *gb_report__get(json_t *obj, ...);
/* A finite number; false for anything else. */
bool gb_report__num(json_t *v, double *out);
/* The string, or NULL when v is not one (borrowed). */
const char *gb_report__str(json_t *v);
/* row[key] = v when finite (a chart row leaves out what it does not know). */
void gb_report__set_num(json_t *row, const char *key, double v);
void gb_report__set_str(json_t *row, const char *key, const char *v);
const char *gb_report__task_id(const GbRepTask *t);
/* A finite number of a record (absent values are NAN). */
bool gb_report__finite(double v, double *out);
bool gb_report__is_file(const char *path);
/* Owned. */
char *gb_report__basename(const char *path);
char *gb_report__dirname(const char *path);
bool gb_report__ends_with(const char *s, const char *suffix);
/* qsort: strings in natural (version) order. */
int gb_report__cmp_names(const void *a, const void *b);

void gb_report__esc(GbStr *out, const char *s);
/* Run labels: the file stem, prefixed with the group when two runs share a stem. */
void gb_report__make_labels(GbReport *r);
size_t gb_report__ngroups(const GbReport *r);
/* Sort key of an operator code: S before A before N, then by number. */
int gb_report__op_rank(const char *op);
/* A chart: a <div> target and its spec in a script element the page's loader reads. Takes spec. */
void gb_report__chart(GbStr *out, const char *id, json_t *spec);
/* Charts side by side that wrap (ids "<id>-1", ...). Takes charts (an array of specs). */
void gb_report__chart_row(GbStr *out, const char *id, json_t *charts);
/* The run labels in input order (a new array). */
json_t *gb_report__run_order(const GbReport *r);
/* A spec from a template with the rows as its inline data, and the $schema. Takes rows. */
json_t *gb_report__spec(const char *tmpl, json_t *rows);
/* A layer (or a chart without $schema) from a template with the rows as its data. Takes rows. */
json_t *gb_report__layer(const char *tmpl, json_t *rows);
/* A value as a table cell's text: numbers with fmt, strings escaped, booleans yes/no, else "–". */
void gb_report__fmt(GbStr *out, json_t *v, const char *fmt);

/* The codes of a pick's steps (member NULL) or of a front member, space-separated. Owned.
 * (panel_evolution.c) */
char *gb_report__op_list(const GbRecord *rec, const GbRecordFrontMember *member);

/* ---- the panels, in page order (each appends one <section>) ------------------------------- */

void gb_report__panel_facts(GbStr *out, GbReport *r);   /* panel_tasks.c */
void gb_report__panel_metrics(GbStr *out, GbReport *r); /* panel_metrics.c */
void gb_report__panel_change(GbStr *out, GbReport *r);  /* panel_metrics.c */
void gb_report__panel_scatter(GbStr *out, GbReport *r); /* panel_evolution.c */
/* names: operator code -> "S1 AddNestedFor", filled by the operators and read by the gates. */
void gb_report__panel_operators(GbStr *out, GbReport *r, json_t *names); /* panel_evolution.c */
void gb_report__panel_gates(GbStr *out, GbReport *r, json_t *names);     /* panel_evolution.c */
void gb_report__panel_added_text(GbStr *out, GbReport *r);               /* panel_evolution.c */
void gb_report__panel_versions(GbStr *out, GbReport *r);                 /* panel_versions.c */
void gb_report__panel_eval(GbStr *out, GbReport *r);                     /* panel_eval.c */
void gb_report__panel_tasks(GbStr *out, GbReport *r);                    /* panel_tasks.c */
