#pragma once
/* The JSON output of `genebench metrics` (without --table): JSON lines, one per measured task and
 * a summary line last. This module is its only writer and its only parser. Each line, keys in
 * this order (", " and ": " between them, as Python's json.dumps writes):
 *   {"id": ..., "metrics": {<key of fitness/metric_list.h>: v, ...}, "rc": x, "rr": y,
 *    "exceeds": <key of the first readability metric above its threshold> | null}
 *   {"summary": {"tasks": n, "measured": m, "thresholds": name,
 *                "mean": {<key>: v, ..., "rc": x, "rr": y}}}
 * Values are rounded to 4 decimals and written with 10 significant digits (src/base/json_write.h
 * gb_json_general: a whole value without '.'). Every string is owned. Thread-safe (no shared
 * state). */
#include <stdbool.h>
#include <stddef.h>

#include "fitness/fitness.h"
#include "src/base/util.h"

/* One measured task. */
typedef struct {
    char *id;
    double metrics[GB_METRIC_COUNT];
    double rc, rr;
    int exceeds; /* index among the readability metrics (0 = R1) of the first one above its
                  * threshold; -1: none (null) */
} GbMetricsDocTask;

typedef struct {
    GbArray(GbMetricsDocTask) tasks; /* the measured tasks, in the benchmark's order */
    long n_tasks;                    /* "tasks": the benchmark's tasks, measured or not */
    char *thresholds;                /* the thresholds' name */
    double mean[GB_METRIC_COUNT];    /* over the measured tasks (0 when none) */
    double mean_rc, mean_rr;
} GbMetricsDoc;

/* Free what doc owns (caller storage; a zeroed document is fine). */
void gb_metrics_doc_destroy(GbMetricsDoc *doc);
/* Append one task's line (with its newline) to out. */
void gb_metrics_doc_write_task(GbStr *out, const GbMetricsDocTask *t);
/* Append the summary line (with its newline); "measured" is the number of tasks in doc. */
void gb_metrics_doc_write_summary(GbStr *out, const GbMetricsDoc *doc);
/* Append every line: the tasks', then the summary. */
void gb_metrics_doc_write(GbStr *out, const GbMetricsDoc *doc);
/* Parse the lines (name: the file, for messages) into doc (caller storage, initialised here).
 * False with err naming the file, the line and the key that is missing, mistyped or unknown, a
 * line after the summary or none, or a "measured" that is not the number of task lines (or above
 * "tasks"); doc is then empty. */
bool gb_metrics_doc_parse(const char *text, size_t len, const char *name, GbMetricsDoc *doc, GbError *err);
